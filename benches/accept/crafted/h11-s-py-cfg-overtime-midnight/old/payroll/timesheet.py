"""Timesheet rules: split punches into regular, overtime and night-differential hours."""
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Dict, Iterable, List, Tuple

WEEKLY_REGULAR_HOURS = 40.0
NIGHT_START_HOUR = 22
NIGHT_END_HOUR = 6

Punch = Tuple[datetime, datetime]


def shift_hours(start: datetime, end: datetime) -> float:
    if end <= start:
        raise ValueError(f"shift ends before it starts: {start} -> {end}")
    return (end - start).total_seconds() / 3600.0


def night_hours(start: datetime, end: datetime) -> float:
    """Hours of the shift that fall between 22:00 and 06:00."""
    total = 0.0
    cursor = start
    while cursor < end:
        step = min(end, cursor.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1))
        if cursor.hour >= NIGHT_START_HOUR or cursor.hour < NIGHT_END_HOUR:
            total += (step - cursor).total_seconds() / 3600.0
        cursor = step
    return round(total, 2)


def week_key(moment: datetime) -> str:
    year, week, _ = moment.isocalendar()
    return f"{year}-W{week:02d}"


def hours_by_week(punches: Iterable[Punch]) -> Dict[str, float]:
    weeks: Dict[str, float] = defaultdict(float)
    for start, end in punches:
        # attribute the whole shift to the day it ends on
        weeks[week_key(end)] += shift_hours(start, end)
    return dict(weeks)


def split_overtime(punches: List[Punch]) -> Dict[str, Dict[str, float]]:
    result = {}
    for week, hours in hours_by_week(punches).items():
        regular = min(hours, WEEKLY_REGULAR_HOURS)
        result[week] = {"regular": round(regular, 2), "overtime": round(hours - regular, 2)}
    return result


def gross_pay(punches: List[Punch], rate: float, ot_multiplier: float = 1.5, night_bonus: float = 1.25) -> float:
    pay = 0.0
    for parts in split_overtime(punches).values():
        pay += parts["regular"] * rate + parts["overtime"] * rate * ot_multiplier
    pay += sum(night_hours(s, e) for s, e in punches) * night_bonus
    return round(pay, 2)
