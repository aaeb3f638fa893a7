"""Import contacts from a CSV export (Outlook, Google, or our own format)."""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

HEADER_ALIASES = {
    "email": {"email", "e-mail", "e-mail address", "email address"},
    "first_name": {"first name", "given name", "firstname"},
    "last_name": {"last name", "family name", "surname", "lastname"},
    "phone": {"phone", "mobile phone", "phone 1 - value", "telephone"},
    "notes": {"notes", "comment", "comments"},
}
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


@dataclass
class Contact:
    email: str
    first_name: str = ""
    last_name: str = ""
    phone: str = ""
    notes: str = ""


@dataclass
class ImportResult:
    contacts: list[Contact] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _map_headers(headers: list[str]) -> dict[int, str]:
    mapping = {}
    for index, raw in enumerate(headers):
        name = raw.strip().lower()
        for field_name, aliases in HEADER_ALIASES.items():
            if name in aliases:
                mapping[index] = field_name
    if "email" not in mapping.values():
        raise ValueError("no email column in the header")
    return mapping


def _sniff_delimiter(sample: str) -> str:
    first_line = sample.split("\n", 1)[0]
    return ";" if first_line.count(";") > first_line.count(",") else ","


def import_contacts(text: str) -> ImportResult:
    result = ImportResult()
    text = text.lstrip("\ufeff")
    delimiter = _sniff_delimiter(text)
    lines = text.splitlines()
    reader = csv.reader(lines, delimiter=delimiter)
    try:
        headers = next(reader)
    except StopIteration:
        return result
    mapping = _map_headers(headers)
    seen = set()
    for line_no, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        values = {mapping[i]: cell.strip() for i, cell in enumerate(row) if i in mapping}
        email = values.get("email", "").lower()
        if not EMAIL_RE.match(email):
            result.errors.append(f"line {line_no}: invalid email {email!r}")
            continue
        if email in seen:
            result.errors.append(f"line {line_no}: duplicate {email}")
            continue
        seen.add(email)
        values["email"] = email
        result.contacts.append(Contact(**values))
    return result


def import_file(path: str) -> ImportResult:
    with io.open(path, encoding="utf-8-sig", newline="") as handle:
        return import_contacts(handle.read())
