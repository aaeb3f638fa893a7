"""Expand a weekly shift template into concrete shifts in the team's time zone."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class Template:
    weekday: int          # 0 = Monday
    starts: time
    hours: float
    role: str


@dataclass(frozen=True)
class Shift:
    role: str
    start_utc: datetime
    end_utc: datetime

    @property
    def hours(self) -> float:
        return (self.end_utc - self.start_utc).total_seconds() / 3600


def expand(templates: list[Template], first_day: date, days: int, tz_name: str) -> list[Shift]:
    zone = ZoneInfo(tz_name)
    shifts = []
    for offset in range(days):
        day = first_day + timedelta(days=offset)
        for template in templates:
            if template.weekday != day.weekday():
                continue
            local_start = datetime.combine(day, template.starts).replace(tzinfo=zone)
            start_utc = local_start.astimezone(timezone.utc)
            # the shift lasts `hours` of local wall-clock time
            end_utc = start_utc + timedelta(hours=template.hours)
            shifts.append(Shift(template.role, start_utc, end_utc))
    shifts.sort(key=lambda s: (s.start_utc, s.role))
    return shifts


def hours_by_role(shifts: list[Shift]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for shift in shifts:
        totals[shift.role] = totals.get(shift.role, 0.0) + shift.hours
    return totals


def overlapping(shifts: list[Shift]) -> list[tuple[Shift, Shift]]:
    pairs = []
    for i, a in enumerate(shifts):
        for b in shifts[i + 1:]:
            if b.start_utc >= a.end_utc:
                break
            if a.role == b.role:
                pairs.append((a, b))
    return pairs
