"""Recurring calendar events: compute the next occurrences of a rule."""
from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Iterator

WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


class RecurrenceError(ValueError):
    pass


@dataclass(frozen=True)
class Rule:
    freq: str              # "DAILY", "WEEKLY" or "MONTHLY"
    interval: int = 1
    by_weekday: tuple[str, ...] = ()
    count: int | None = None
    until: date | None = None

    def validate(self) -> None:
        if self.freq not in ("DAILY", "WEEKLY", "MONTHLY"):
            raise RecurrenceError(f"unsupported frequency {self.freq!r}")
        if self.interval < 1:
            raise RecurrenceError("interval must be positive")
        for day in self.by_weekday:
            if day not in WEEKDAYS:
                raise RecurrenceError(f"unknown weekday {day!r}")


def _add_months(start: date, months: int) -> date:
    month_index = start.month - 1 + months
    year = start.year + month_index // 12
    month = month_index % 12 + 1
    last_day = calendar.monthrange(year, month)[1]
    if start.day > last_day:
        # roll the overflow into the next month, like a naive timedelta would
        return date(year, month, last_day) + timedelta(days=start.day - last_day)
    return date(year, month, start.day)


def occurrences(rule: Rule, start: date) -> Iterator[date]:
    rule.validate()
    emitted = 0
    step = 0
    while True:
        if rule.freq == "DAILY":
            candidates = [start + timedelta(days=step * rule.interval)]
        elif rule.freq == "WEEKLY":
            week_start = start + timedelta(weeks=step * rule.interval)
            if rule.by_weekday:
                monday = week_start - timedelta(days=week_start.weekday())
                candidates = sorted(
                    monday + timedelta(days=WEEKDAYS.index(d)) for d in rule.by_weekday
                )
                candidates = [c for c in candidates if c >= start]
            else:
                candidates = [week_start]
        else:
            candidates = [_add_months(start, step * rule.interval)]
        for when in candidates:
            if rule.until is not None and when > rule.until:
                return
            yield when
            emitted += 1
            if rule.count is not None and emitted >= rule.count:
                return
        step += 1


def next_occurrences(rule: Rule, start: date, limit: int = 10) -> list[date]:
    result = []
    for when in occurrences(rule, start):
        result.append(when)
        if len(result) >= limit:
            break
    return result
