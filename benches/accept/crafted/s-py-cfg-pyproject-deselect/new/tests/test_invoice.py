from decimal import Decimal

import pytest

from billing.invoice import Invoice, InvoiceError, Line, parse_quantity, tax_rate, total


def make_invoice(country="FR", code=None):
    return Invoice(
        customer_id="c-17",
        country=country,
        discount_code=code,
        lines=[
            Line("BOOK-1", 2, Decimal("12.50")),
            Line("GIFT-CARD", 1, Decimal("25.00"), taxable=False),
            Line("PEN-3", 3, Decimal("1.99")),
        ],
    )


def test_total_france():
    assert total(make_invoice()) == Decimal("62.16")


def test_total_with_welcome_discount():
    assert total(make_invoice(code="WELCOME10")) == Decimal("55.94")


def test_total_germany():
    assert total(make_invoice(country="DE")) == Decimal("61.84")


def test_unknown_country_is_refused():
    with pytest.raises(InvoiceError):
        tax_rate("ZZ")


@pytest.mark.parametrize("raw,expected", [("3", 3), (" 12 ", 12)])
def test_parse_quantity(raw, expected):
    assert parse_quantity(raw) == expected


def test_parse_quantity_rejects_zero():
    with pytest.raises(InvoiceError):
        parse_quantity("0")


@pytest.mark.timeout(5)
def test_large_invoice_is_fast():
    inv = make_invoice()
    inv.lines = inv.lines * 150
    assert total(inv) > 0
