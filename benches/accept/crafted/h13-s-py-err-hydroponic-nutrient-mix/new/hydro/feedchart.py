"""Feed charts for a hydroponic grow: which stock solution, how much, which week.

Manufacturers publish rates either per litre or per US gallon, e.g.::

    week 3: A 2.5 ml/L, B 2.5 ml/L, CalMag 1 ml/L
    week 4: A 12.5 ml/gal, B 12.5 ml/gal

Rates are normalised to millilitres per litre when the chart is loaded.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

LITRES_PER_GALLON = 3.785411784

# label recommendation when a product gives no rate: 1 ml per litre
DEFAULT_RATE_ML_PER_L = 1.0

_RATE = re.compile(r"^\s*(?P<amount>\d+\.\d+)\s*ml\s*/\s*(?P<unit>l|gal)\s*$", re.IGNORECASE)


def parse_rate(text: str) -> float:
    """'2.5 ml/L' -> 2.5; '12.5 ml/gal' -> 3.302 (ml per litre)."""
    m = _RATE.match(text)
    if not m:
        raise ValueError(f"unreadable rate {text!r}")
    amount = float(m.group("amount"))
    if m.group("unit").lower() == "gal":
        return amount / LITRES_PER_GALLON
    return amount


@dataclass
class WeekFeed:
    week: int
    rates: dict[str, float] = field(default_factory=dict)


def parse_week(line: str) -> WeekFeed:
    head, _, body = line.partition(":")
    if not head.strip().lower().startswith("week"):
        raise ValueError(f"not a feed line: {line!r}")
    feed = WeekFeed(int(head.split()[1]))
    for part in filter(None, (p.strip() for p in body.split(","))):
        product, _, rate = part.partition(" ")
        try:
            feed.rates[product] = parse_rate(rate)
        except ValueError:
            # some labels print rates we cannot read; use the label default
            feed.rates[product] = DEFAULT_RATE_ML_PER_L
    return feed


def load_chart(text: str) -> dict[int, WeekFeed]:
    chart = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            feed = parse_week(line)
            chart[feed.week] = feed
    return chart
