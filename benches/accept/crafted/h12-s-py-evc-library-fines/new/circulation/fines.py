"""Overdue fines for the branch circulation desk.

A loan is overdue from the day after its due date. Each material class has
a daily rate and a cap; patrons in the "junior" category pay half. Days the
branch is closed (listed in ``closed_days``) are not charged.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

RATES = {
    "book": (Decimal("0.25"), Decimal("10.00")),
    "dvd": (Decimal("1.00"), Decimal("15.00")),
    "laptop": (Decimal("5.00"), Decimal("60.00")),
}

CENT = Decimal("0.01")


@dataclass
class Loan:
    barcode: str
    material: str
    due: date
    returned: date
    patron_category: str = "adult"


@dataclass
class FineLedger:
    closed_days: set[date] = field(default_factory=set)
    waived: set[str] = field(default_factory=set)

    def chargeable_days(self, loan: Loan) -> int:
        """Days between due date and return that the branch was open."""
        if loan.returned <= loan.due:
            return 0
        days = 0
        cursor = loan.due
        while cursor <= loan.returned:
            if cursor not in self.closed_days:
                days += 1
            cursor += timedelta(days=1)
        return days

    def fine_for(self, loan: Loan) -> Decimal:
        if loan.barcode in self.waived:
            return Decimal("0.00")
        rate, cap = RATES[loan.material]
        amount = rate * self.chargeable_days(loan)
        if loan.patron_category == "junior":
            amount = amount / 2
        amount = min(amount, cap)
        return amount.quantize(CENT, rounding=ROUND_HALF_UP)

    def statement(self, loans: list[Loan]) -> list[tuple[str, Decimal]]:
        lines = []
        for loan in sorted(loans, key=lambda l: l.due):
            fine = self.fine_for(loan)
            if fine > 0:
                lines.append((loan.barcode, fine))
        return lines

    def total(self, loans: list[Loan]) -> Decimal:
        return sum((fine for _, fine in self.statement(loans)), Decimal("0.00"))
