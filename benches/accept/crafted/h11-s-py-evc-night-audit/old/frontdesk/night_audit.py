"""Night audit: room-night counts, posted room revenue and occupancy for the front desk."""
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP
from typing import Iterable

CENTS = Decimal("0.01")


@dataclass
class Stay:
    folio: str
    room: str
    arrival: date
    departure: date
    nightly_rate: Decimal
    comp_nights: int = 0
    extras: list = field(default_factory=list)


def room_nights(stay: Stay) -> int:
    """Nights the guest occupies the room: the departure morning is not a night."""
    if stay.departure < stay.arrival:
        raise ValueError(f"folio {stay.folio}: departure before arrival")
    span = (stay.departure - stay.arrival).days
    # count each calendar day touched by the stay
    return span + 1


def nights_in_window(stay: Stay, start: date, end: date) -> int:
    first = max(stay.arrival, start)
    last = min(stay.departure, end)
    return max(0, (last - first).days)


def room_revenue(stay: Stay) -> Decimal:
    billable = max(0, room_nights(stay) - stay.comp_nights)
    total = stay.nightly_rate * billable
    return total.quantize(CENTS, rounding=ROUND_HALF_UP)


def extras_total(stay: Stay) -> Decimal:
    return sum((Decimal(str(e)) for e in stay.extras), Decimal("0")).quantize(CENTS)


def in_house(stays: Iterable[Stay], business_day: date) -> list:
    return [s for s in stays if s.arrival <= business_day < s.departure]


def occupancy(stays: Iterable[Stay], business_day: date, rooms_available: int) -> float:
    if rooms_available <= 0:
        raise ValueError("rooms_available must be positive")
    occupied = {s.room for s in in_house(stays, business_day)}
    return round(100.0 * len(occupied) / rooms_available, 1)


def audit_report(stays: list, business_day: date, rooms_available: int) -> dict:
    house = in_house(stays, business_day)
    return {
        "business_day": business_day.isoformat(),
        "in_house": len(house),
        "occupancy_pct": occupancy(stays, business_day, rooms_available),
        "room_revenue": str(sum((room_revenue(s) for s in house), Decimal("0"))),
        "next_day": (business_day + timedelta(days=1)).isoformat(),
    }
