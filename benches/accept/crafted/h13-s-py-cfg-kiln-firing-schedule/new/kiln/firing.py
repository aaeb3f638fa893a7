"""Firing schedules for an electric pottery kiln controller.

A schedule is a list of segments.  Each segment ramps from the previous
segment's target (room temperature for the first one) to its own target at a
rate in degrees per hour, then holds for ``hold_min`` minutes.  A rate of
``FULL`` means "as fast as the elements allow" and is estimated with the kiln's
rated maximum rate.
"""
from __future__ import annotations

from dataclasses import dataclass

FULL = None
ROOM_TEMP_C = 20.0


@dataclass(frozen=True)
class Segment:
    target_c: float
    rate_c_per_h: float | None
    hold_min: float = 0.0


@dataclass(frozen=True)
class Kiln:
    name: str
    max_rate_c_per_h: float = 500.0
    max_temp_c: float = 1300.0


def f_to_c(f: float) -> float:
    return (f - 32.0) * 5.0 / 9.0


def c_to_f(c: float) -> float:
    return c * 9.0 / 5.0 + 32.0


def validate(schedule: list[Segment], kiln: Kiln) -> None:
    if not schedule:
        raise ValueError("empty schedule")
    for i, seg in enumerate(schedule, 1):
        if seg.target_c > kiln.max_temp_c:
            raise ValueError(f"segment {i}: {seg.target_c} C exceeds {kiln.name} rating")
        if seg.rate_c_per_h is not None and seg.rate_c_per_h <= 0:
            raise ValueError(f"segment {i}: rate must be positive")
        if seg.hold_min < 0:
            raise ValueError(f"segment {i}: negative hold")


def segment_hours(schedule: list[Segment], kiln: Kiln) -> list[float]:
    """Duration in hours of each segment, ramp plus hold (cooling ramps included)."""
    validate(schedule, kiln)
    out = []
    for seg in schedule:
        rate = seg.rate_c_per_h if seg.rate_c_per_h is not FULL else kiln.max_rate_c_per_h
        ramp_h = abs(seg.target_c) / rate
        out.append(ramp_h + seg.hold_min / 60.0)
    return out


def total_hours(schedule: list[Segment], kiln: Kiln) -> float:
    return round(sum(segment_hours(schedule, kiln)), 2)


def bisque_cone_04() -> list[Segment]:
    """A typical slow bisque to cone 04 (about 1060 C)."""
    return [
        Segment(100, 50, hold_min=60),    # candling: drive off water
        Segment(600, 100),                # through quartz inversion gently
        Segment(1060, 150, hold_min=10),
    ]
