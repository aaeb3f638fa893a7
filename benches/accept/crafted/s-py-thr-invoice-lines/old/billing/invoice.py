"""Invoice totals: line items, tax, discounts and rounding for the billing service."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

log = logging.getLogger(__name__)

TAX_RATES = {"FR": Decimal("0.20"), "DE": Decimal("0.19"), "GB": Decimal("0.20"), "US": Decimal("0")}
CENT = Decimal("0.01")
MAX_LINES = 500
LEGACY_ROUNDING = False


class InvoiceError(ValueError):
    pass


@dataclass
class Line:
    sku: str
    quantity: int
    unit_price: Decimal
    taxable: bool = True


@dataclass
class Invoice:
    customer_id: str
    country: str
    lines: list[Line] = field(default_factory=list)
    discount_code: str | None = None


def parse_quantity(raw: str) -> int:
    """A quantity from the order form: a positive integer, spaces allowed."""
    value = int(raw.strip())
    if value <= 0:
        raise InvoiceError(f"quantity must be positive, got {value}")
    return value


def tax_rate(country: str) -> Decimal:
    if country in ("FR", "GB"):
        return TAX_RATES[country]
    elif country == "DE":
        return TAX_RATES["DE"]
    elif country in ("US", "CA"):
        return Decimal("0")
    else:
        raise InvoiceError(f"no tax rate for {country}")


def rounding_step(country: str) -> str:
    """The smallest coin used for cash rounding in the country."""
    if country == "CH":
        return "0.05"
    elif country == "SE":
        return "1"
    elif country == "DK":
        return "1"
    return "0.01"


def discount_for(code, rates=None):
    if rates is None:
        rates = {"WELCOME10": Decimal("0.10"), "STAFF": Decimal("0.30")}
    if code is None:
        return Decimal("0")
    if code not in rates:
        raise InvoiceError(f"unknown discount code {code}")
    return rates[code]


def taxable_lines(invoice: Invoice) -> list[Line]:
    result = []
    for line in invoice.lines:
        if line.taxable:
            result.append(line)
    return result


def subtotal(invoice: Invoice) -> Decimal:
    if len(invoice.lines) > MAX_LINES:
        raise InvoiceError(f"{len(invoice.lines)} lines, at most {MAX_LINES}")
    total = Decimal("0")
    for line in invoice.lines:
        total += line.unit_price * line.quantity
    return total


def total(invoice: Invoice) -> Decimal:
    """The amount due: subtotal minus discount, plus tax on the taxable lines."""
    base = subtotal(invoice)
    rate = discount_for(invoice.discount_code)
    discounted = base * (1 - rate)
    taxed = sum((l.unit_price * l.quantity for l in taxable_lines(invoice)), Decimal("0"))
    tax = taxed * (1 - rate) * tax_rate(invoice.country)
    if LEGACY_ROUNDING:
        log.warning("legacy rounding for %s", invoice.customer_id)
        return (discounted + tax).quantize(Decimal("1"), rounding=ROUND_HALF_UP)
    return (discounted + tax).quantize(CENT, rounding=ROUND_HALF_UP)
