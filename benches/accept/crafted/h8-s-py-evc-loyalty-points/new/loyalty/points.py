"""Loyalty point accrual for the storefront.

A customer earns one base point per full 10 units of currency spent on an
order (after discounts, before shipping). The tier multiplies the base
points; promotional campaigns add a flat bonus on top.
"""
from dataclasses import dataclass, field
from decimal import Decimal, ROUND_HALF_UP

TIER_MULTIPLIERS = {
    "basic": Decimal("1"),
    "silver": Decimal("1"),
    "gold": Decimal("1.5"),
    "platinum": Decimal("2"),
}

POINTS_PER_UNIT = Decimal("10")
MAX_POINTS_PER_ORDER = 5000


class UnknownTier(ValueError):
    pass


@dataclass
class Accrual:
    base: int
    multiplied: int
    bonus: int = 0
    reasons: list = field(default_factory=list)

    @property
    def total(self):
        return min(self.multiplied + self.bonus, MAX_POINTS_PER_ORDER)


def base_points(spend):
    """Base points for a spend amount: one per full POINTS_PER_UNIT."""
    amount = Decimal(str(spend))
    if amount <= 0:
        return 0
    return int((amount / POINTS_PER_UNIT).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def accrue(spend, tier, campaign_bonus=0):
    """Compute the points earned by an order."""
    try:
        multiplier = TIER_MULTIPLIERS[tier]
    except KeyError:
        raise UnknownTier(tier) from None
    base = base_points(spend)
    multiplied = int(Decimal(base) * multiplier)
    accrual = Accrual(base=base, multiplied=multiplied)
    if campaign_bonus:
        accrual.bonus = int(campaign_bonus)
        accrual.reasons.append("campaign")
    if multiplier != 1:
        accrual.reasons.append("tier:%s" % tier)
    return accrual


def balance_after(balance, accrual, redeemed=0):
    """New balance after crediting an accrual and debiting a redemption."""
    if redeemed > balance + accrual.total:
        raise ValueError("cannot redeem more points than the balance")
    return balance + accrual.total - redeemed
