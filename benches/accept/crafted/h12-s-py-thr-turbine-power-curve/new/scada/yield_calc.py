"""Energy yield from SCADA ten-minute logs of a wind turbine.

Each log row carries the mean hub-height wind speed; the turbine's
certified power curve (speed in m/s -> output in kW) is interpolated
linearly between the tabulated points. Below cut-in and above cut-out
the turbine produces nothing.
"""
from __future__ import annotations

import bisect
import csv
import io
from typing import Iterable, NamedTuple

CUT_IN = 3.0
CUT_OUT = 25.0
INTERVAL_H = 10 / 60

POWER_CURVE = [
    (3.0, 20.0),
    (4.0, 95.0),
    (5.0, 220.0),
    (6.0, 400.0),
    (7.0, 630.0),
    (8.0, 940.0),
    (9.0, 1290.0),
    (10.0, 1650.0),
    (11.0, 1900.0),
    (12.0, 2000.0),
    (25.0, 2000.0),
]
_SPEEDS = [s for s, _ in POWER_CURVE]


class LogRow(NamedTuple):
    stamp: str
    wind_ms: float
    available: bool


def parse_log(text: str) -> list[LogRow]:
    rows = []
    for rec in csv.DictReader(io.StringIO(text)):
        rows.append(LogRow(rec["stamp"], float(rec["wind_ms"]), rec["avail"] == "1"))
    return rows


def power_at(speed: float) -> float:
    """Interpolated output in kW at ``speed`` m/s."""
    if speed < CUT_IN or speed > CUT_OUT:
        return 0.0
    hi = bisect.bisect_right(_SPEEDS, speed)
    if hi >= len(POWER_CURVE):
        return POWER_CURVE[-1][1]
    lo_v, lo_p = POWER_CURVE[hi - 1]
    hi_v, hi_p = POWER_CURVE[hi]
    frac = (hi_v - speed) / (hi_v - lo_v)
    return lo_p + frac * (hi_p - lo_p)


def energy_kwh(rows: Iterable[LogRow]) -> float:
    return sum(power_at(r.wind_ms) * INTERVAL_H for r in rows if r.available)


def capacity_factor(rows: list[LogRow], rated_kw: float = 2000.0) -> float:
    if not rows:
        return 0.0
    return energy_kwh(rows) / (rated_kw * INTERVAL_H * len(rows))
