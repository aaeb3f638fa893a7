"""IBAN normalization and checksum validation (ISO 13616, mod 97-10)."""
import re
import string

# Country code -> total IBAN length, for the countries we pay out to.
LENGTHS = {
    "AT": 20, "BE": 16, "CH": 21, "DE": 22, "ES": 24, "FR": 27,
    "GB": 22, "IE": 22, "IT": 27, "LU": 20, "NL": 18, "PT": 25,
}

_ALLOWED = re.compile(r"^[A-Za-z0-9]+$")
_LETTER_VALUES = {c: str(i) for i, c in enumerate(string.ascii_uppercase, start=10)}


class InvalidIBAN(ValueError):
    def __init__(self, iban, reason):
        super().__init__("%s: %s" % (iban, reason))
        self.reason = reason


def compact(iban):
    """Remove spaces and dashes the way customers paste them."""
    return re.sub(r"[\s-]+", "", iban)


def _numeric(rearranged):
    digits = []
    for ch in rearranged:
        if ch.isdigit():
            digits.append(ch)
        elif ch in _LETTER_VALUES:
            digits.append(_LETTER_VALUES[ch])
        else:
            raise InvalidIBAN(rearranged, "unexpected character %r" % ch)
    return int("".join(digits))


def validate(iban):
    """Return the compact IBAN in upper case, or raise InvalidIBAN."""
    value = compact(iban)
    if not _ALLOWED.match(value):
        raise InvalidIBAN(iban, "invalid characters")
    country = value[:2].upper()
    expected = LENGTHS.get(country)
    if expected is None:
        raise InvalidIBAN(iban, "unsupported country %s" % country)
    if len(value) != expected:
        raise InvalidIBAN(iban, "length %d, expected %d" % (len(value), expected))
    rearranged = value[4:] + value[:4]
    if _numeric(rearranged) % 97 != 1:
        raise InvalidIBAN(iban, "checksum mismatch")
    return value.upper()


def format_iban(iban):
    """Print form: groups of four characters."""
    value = validate(iban)
    return " ".join(value[i:i + 4] for i in range(0, len(value), 4))
