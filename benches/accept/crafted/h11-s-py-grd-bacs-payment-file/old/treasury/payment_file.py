"""Builds the supplier payment run file sent to the bank (UK BACS and SEPA credit transfers)."""
import csv
import io
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable, List, Tuple

SORT_CODE = re.compile(r"^\d{6}$")
UK_ACCOUNT = re.compile(r"^\d{8}$")
IBAN_SHAPE = re.compile(r"^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$")
MAX_REFERENCE = 18


@dataclass
class Payee:
    name: str
    country: str
    sort_code: str = ""
    account: str = ""
    iban: str = ""


@dataclass
class Payment:
    payee: Payee
    amount: Decimal
    reference: str


def iban_ok(iban: str) -> bool:
    compact = iban.replace(" ", "").upper()
    if not IBAN_SHAPE.match(compact):
        return False
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(ch, 36)) for ch in rearranged)) % 97 == 1


def validate(payment: Payment) -> List[str]:
    errors = []
    if payment.amount <= 0:
        errors.append("amount must be positive")
    if len(payment.reference) > MAX_REFERENCE:
        errors.append(f"reference longer than {MAX_REFERENCE}")
    p = payment.payee
    if p.country == "GB":
        if not SORT_CODE.match(p.sort_code):
            errors.append(f"bad sort code {p.sort_code!r}")
        if not UK_ACCOUNT.match(p.account):
            errors.append(f"bad account number {p.account!r}")
    elif not iban_ok(p.iban):
        errors.append(f"bad IBAN for {p.name}")
    return errors


def split_valid(payments: Iterable[Payment]) -> Tuple[List[Payment], List[Tuple[Payment, List[str]]]]:
    good, bad = [], []
    for payment in payments:
        errors = validate(payment)
        if errors:
            bad.append((payment, errors))
        else:
            good.append(payment)
    return good, bad


def render(payments: List[Payment]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["scheme", "name", "routing", "account", "amount", "reference"])
    for pay in payments:
        p = pay.payee
        if p.country == "GB":
            writer.writerow(["BACS", p.name[:18], p.sort_code.replace("-", ""), p.account, f"{pay.amount:.2f}", pay.reference])
        else:
            writer.writerow(["SEPA", p.name[:70], p.iban[:4], p.iban.replace(" ", ""), f"{pay.amount:.2f}", pay.reference])
    return buf.getvalue()
