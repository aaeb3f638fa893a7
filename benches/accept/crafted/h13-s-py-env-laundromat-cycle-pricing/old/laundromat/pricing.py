"""Per-cycle pricing for washers and dryers.

Every machine has a base price per cycle; options (extra rinse, hot wash,
heavy-duty spin) add fixed surcharges.  Cycles *started* inside the weekday
off-peak window get the off-peak discount.  The window is half-open: a cycle
started at exactly the end time pays the full price.
All amounts are integer cents.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, time

from laundromat import settings


@dataclass(frozen=True)
class Tariff:
    base: dict[str, int] = field(default_factory=lambda: {"washer-8kg": 450, "washer-18kg": 800,
                                                        "dryer": 300})
    options: dict[str, int] = field(default_factory=lambda: {"extra_rinse": 50, "hot": 100,
                                                           "heavy_spin": 75})
    offpeak_start: time = time(6, 0)
    offpeak_end: time = time(10, 0)
    offpeak_discount_pct: int = 20


DEFAULT_TARIFF = Tariff()


def in_offpeak(started: datetime, tariff: Tariff = DEFAULT_TARIFF) -> bool:
    """True when a cycle started at ``started`` qualifies for the off-peak price."""
    if started.weekday() >= 5:
        return False
    return tariff.offpeak_start.hour <= started.hour <= tariff.offpeak_end.hour


def cycle_price(machine: str, started: datetime, options: tuple[str, ...] = (),
                tariff: Tariff = DEFAULT_TARIFF) -> int:
    """Price in cents of one cycle on ``machine`` with the chosen options."""
    try:
        price = tariff.base[machine]
    except KeyError:
        raise ValueError(f"no tariff for machine type {machine!r}") from None
    for opt in options:
        if opt not in tariff.options:
            raise ValueError(f"unknown option {opt!r}")
        price += tariff.options[opt]
    if in_offpeak(started, tariff):
        # round the discount down so the customer never pays a fraction of a cent more
        price -= price * tariff.offpeak_discount_pct // 100
    return price


def format_price(cents: int) -> str:
    major, minor = divmod(cents, settings.MINOR_UNITS)
    return f"\u20ac{major}.{minor:02d}"


def receipt(lines: list[tuple[str, datetime, tuple[str, ...]]],
            tariff: Tariff = DEFAULT_TARIFF) -> list[str]:
    out, total = [], 0
    for machine, started, opts in lines:
        cents = cycle_price(machine, started, opts, tariff)
        total += cents
        flag = " (off-peak)" if in_offpeak(started, tariff) else ""
        out.append(f"{started:%H:%M} {machine}{flag} {format_price(cents)}")
    out.append(f"TOTAL {format_price(total)}")
    return out
