"""Turn a week's feed rates into the millilitres to add to a reservoir."""
from __future__ import annotations

from hydro.feedchart import WeekFeed

# stock solutions must go in one at a time, in this order, to avoid lockout
MIX_ORDER = ("Silica", "CalMag", "A", "B", "Bloom")


def dose_plan(feed: WeekFeed, reservoir_l: float, strength: float = 1.0) -> list[tuple[str, float]]:
    """(product, ml) in mixing order for a reservoir of ``reservoir_l`` litres.

    ``strength`` scales the chart (0.5 for seedlings, 1.0 full strength).
    """
    if reservoir_l <= 0:
        raise ValueError("reservoir volume must be positive")
    if not 0 < strength <= 1.5:
        raise ValueError("strength outside 0-150%")
    order = {name: i for i, name in enumerate(MIX_ORDER)}
    products = sorted(feed.rates, key=lambda p: order.get(p, len(MIX_ORDER)))
    return [(p, round(feed.rates[p] * reservoir_l * strength, 1)) for p in products]


def topup_plan(feed: WeekFeed, added_l: float, strength: float = 1.0) -> list[tuple[str, float]]:
    """Dose only the fresh water added to a reservoir that is already mixed."""
    return dose_plan(feed, added_l, strength)


def estimated_ec(feed: WeekFeed, ec_per_ml: dict[str, float], base_ec: float = 0.0,
                 strength: float = 1.0) -> float:
    """Rough EC (mS/cm) of the finished solution, for a sanity check before dosing.

    ``ec_per_ml`` is each product's EC rise per 1 ml/L, from the label; products
    without a figure (silica, enzymes) are assumed not to move the meter.
    """
    rise = sum(rate * ec_per_ml.get(product, 0.0) for product, rate in feed.rates.items())
    return round(base_ec + rise * strength, 2)


def dilution_for_target(current_ec: float, target_ec: float, reservoir_l: float,
                        water_ec: float = 0.0) -> float:
    """Litres of solution to swap for fresh water to bring EC down to ``target_ec``."""
    if target_ec >= current_ec:
        return 0.0
    if target_ec <= water_ec:
        raise ValueError("target is below the source water's EC")
    keep = (target_ec - water_ec) / (current_ec - water_ec)
    return round(reservoir_l * (1 - keep), 1)
