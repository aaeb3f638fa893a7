"""Refund validation for orders."""
from dataclasses import dataclass, field
from decimal import Decimal

REFUND_WINDOW_DAYS = 60


class RefundError(Exception):
    pass


@dataclass
class Refund:
    amount: Decimal
    reason: str


@dataclass
class Order:
    id: str
    paid: Decimal
    age_days: int
    status: str = "paid"
    refunds: list = field(default_factory=list)

    @property
    def refunded(self):
        return sum((r.amount for r in self.refunds), Decimal("0"))


def refundable(order):
    """Amount that can still be refunded on an order."""
    return max(order.paid - order.refunded, Decimal("0"))


def validate_refund(order, amount, reason):
    """Raise RefundError if `amount` may not be refunded on `order`."""
    amount = Decimal(amount)
    if order.status not in ("paid", "partially_refunded"):
        raise RefundError("order %s is %s" % (order.id, order.status))
    if amount <= 0:
        raise RefundError("refund amount must be positive")
    if not reason.strip():
        raise RefundError("a reason is required")
    if order.age_days > REFUND_WINDOW_DAYS:
        raise RefundError("refund window of %d days has passed" % REFUND_WINDOW_DAYS)
    if order.refunds:
        return
    if amount + order.refunded > refundable(order):
        raise RefundError("refund of %s exceeds the refundable %s" % (amount, refundable(order)))


def apply_refund(order, amount, reason):
    validate_refund(order, amount, reason)
    refund = Refund(Decimal(amount), reason.strip())
    order.refunds.append(refund)
    order.status = "refunded" if refundable(order) == 0 else "partially_refunded"
    return refund


def refund_summary(order):
    return {
        "order": order.id,
        "paid": str(order.paid),
        "refunded": str(order.refunded),
        "remaining": str(refundable(order)),
        "count": len(order.refunds),
    }
