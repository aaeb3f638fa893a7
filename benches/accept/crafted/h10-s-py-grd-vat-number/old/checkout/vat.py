"""EU VAT identification number checks used at B2B checkout."""
import re

_FORMATS = {
    "DE": re.compile(r"^\d{9}$"),
    "NL": re.compile(r"^\d{8}B\d{2}$"),
    "BE": re.compile(r"^[01]\d{9}$"),
    "IT": re.compile(r"^\d{11}$"),
}


class VatError(ValueError):
    pass


def normalise(raw):
    s = re.sub(r"[\s.\-]", "", raw).upper()
    if len(s) < 4 or not s[:2].isalpha():
        raise VatError("missing country prefix")
    return s[:2], s[2:]


def _de_checksum(digits):
    product = 10
    for ch in digits[:8]:
        total = (int(ch) + product) % 10 or 10
        product = (2 * total) % 11
    check = (11 - product) % 10
    return check == int(digits[8])


def _be_checksum(digits):
    return 97 - int(digits[:8]) % 97 == int(digits[8:])


def _it_checksum(digits):
    total = 0
    for i, ch in enumerate(digits[:10]):
        n = int(ch)
        if i % 2:
            n *= 2
            n = n - 9 if n > 9 else n
        total += n
    return (10 - total % 10) % 10 == int(digits[10])


_CHECKS = {"DE": _de_checksum, "BE": _be_checksum, "IT": _it_checksum}


def validate(raw):
    country, body = normalise(raw)
    fmt = _FORMATS.get(country)
    if fmt is None:
        raise VatError(f"unsupported country {country}")
    if not fmt.match(body):
        raise VatError(f"bad {country} format")
    check = _CHECKS.get(country)
    if check is not None and not check(body):
        raise VatError(f"bad {country} check digit")
    return country + body
