"""Daily and weekly fare capping for contactless bus taps.

A rider is never charged more than the daily cap within one service day, nor
more than the weekly cap within one Monday-to-Sunday week.  The tap that
crosses a cap is charged only the remainder up to the cap; later taps are free.

Service days run from 04:30 to 04:29 the next morning, so a 01:00 tap belongs
to the previous day's cap.
"""
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

SERVICE_DAY_START = time(4, 30)


@dataclass(frozen=True)
class Tap:
    card: str
    at: datetime
    fare: Decimal


@dataclass
class CapPolicy:
    daily: Decimal = Decimal("6.00")
    weekly: Decimal = Decimal("24.00")


def service_day(at: datetime) -> date:
    """The service day a tap counts towards (early-morning taps roll back)."""
    if at.time() < SERVICE_DAY_START:
        return (at - timedelta(days=1)).date()
    return at.date()


def week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


class FareCapper:
    """Tracks spend per card and decides what each tap is charged."""

    def __init__(self, policy: CapPolicy | None = None):
        self.policy = policy or CapPolicy()
        self._daily: dict[tuple[str, date], Decimal] = {}
        self._weekly: dict[tuple[str, date], Decimal] = {}

    def spent_today(self, card: str, day: date) -> Decimal:
        return self._daily.get((card, day), Decimal("0"))

    def spent_this_week(self, card: str, day: date) -> Decimal:
        return self._weekly.get((card, week_start(day)), Decimal("0"))

    def charge(self, tap: Tap) -> Decimal:
        """Return the amount charged for ``tap`` and record it."""
        day = service_day(tap.at)
        today = self.spent_today(tap.card, day)
        week = self.spent_this_week(tap.card, day)
        headroom = min(self.policy.daily - today, self.policy.weekly - week)
        # once either cap is reached, further taps ride free
        if headroom <= 0:
            amount = Decimal("0")
        else:
            amount = tap.fare
        self._daily[(tap.card, day)] = today + amount
        self._weekly[(tap.card, week_start(day))] = week + amount
        return amount

    def charge_all(self, taps: list[Tap]) -> list[Decimal]:
        return [self.charge(t) for t in sorted(taps, key=lambda t: t.at)]


def statement(capper: FareCapper, taps: list[Tap]) -> dict:
    """Summarise a batch of taps for the monthly card statement."""
    charges = capper.charge_all(taps)
    return {
        "taps": len(taps),
        "charged": sum(charges, Decimal("0")),
        "free_rides": sum(1 for c in charges if c == 0),
    }
