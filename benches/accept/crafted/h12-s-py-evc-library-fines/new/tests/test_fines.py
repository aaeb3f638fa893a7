from datetime import date
from decimal import Decimal

import pytest

from circulation.fines import FineLedger, Loan


def loan(material, due, returned, category="adult", barcode="B1"):
    return Loan(barcode, material, due, returned, category)


@pytest.mark.parametrize(
    "material,returned,category,expected",
    [
        ("book", date(2026, 5, 4), "adult", Decimal("1.00")),
        ("book", date(2026, 5, 4), "junior", Decimal("0.50")),
        ("dvd", date(2026, 5, 11), "adult", Decimal("11.00")),
        ("laptop", date(2026, 5, 1), "adult", Decimal("0.00")),
    ],
)
def test_fine_per_open_day(material, returned, category, expected):
    ledger = FineLedger()
    assert ledger.fine_for(loan(material, date(2026, 5, 1), returned, category)) == expected


def test_closed_days_are_free():
    ledger = FineLedger(closed_days={date(2026, 5, 3)})
    assert ledger.fine_for(loan("dvd", date(2026, 5, 1), date(2026, 5, 4))) == Decimal("3.00")


def test_cap_applies():
    ledger = FineLedger()
    assert ledger.fine_for(loan("book", date(2026, 1, 1), date(2026, 6, 1))) == Decimal("10.00")


def test_waived_loans_drop_out_of_statement():
    ledger = FineLedger(waived={"B2"})
    loans = [
        loan("book", date(2026, 5, 1), date(2026, 5, 3), barcode="B1"),
        loan("dvd", date(2026, 5, 1), date(2026, 5, 9), barcode="B2"),
    ]
    assert ledger.statement(loans) == [("B1", Decimal("0.75"))]
