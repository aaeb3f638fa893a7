from decimal import Decimal

from treasury.payment_file import Payee, Payment, render, split_valid, validate

ACME_UK = Payee("Acme Fasteners Ltd", "GB", sort_code="20-00-00", account="55779911")
MUELLER = Payee("Mueller GmbH", "DE", iban="DE89 3704 0044 0532 0130 00")


def test_uk_payee_with_dashed_sort_code_is_valid():
    assert validate(Payment(ACME_UK, Decimal("120.50"), "INV-1001")) == []


def test_sepa_payee_is_valid():
    assert validate(Payment(MUELLER, Decimal("99.00"), "RE 2026-07")) == []


def test_bad_iban_is_rejected():
    bad = Payee("X", "FR", iban="FR76 3000 6000 0112 3456 7890 188")
    assert validate(Payment(bad, Decimal("1"), "r")) == ["bad IBAN for X"]


def test_run_file_contains_both_schemes():
    good, bad = split_valid([Payment(ACME_UK, Decimal("120.50"), "INV-1001"), Payment(MUELLER, Decimal("99"), "RE-7")])
    assert bad == []
    lines = render(good).splitlines()
    assert lines[1] == "BACS,Acme Fasteners Ltd,200000,55779911,120.50,INV-1001"
    assert lines[2].startswith("SEPA,Mueller GmbH,DE89,DE89370400440532013000,99.00")
