from datetime import date
from decimal import Decimal

import pytest

from frontdesk.night_audit import Stay, room_nights, room_revenue, occupancy, nights_in_window


def stay(arr, dep, rate="120.00", comp=0, room="101"):
    return Stay("F1", room, arr, dep, Decimal(rate), comp_nights=comp)


def test_three_night_stay():
    assert room_nights(stay(date(2026, 3, 2), date(2026, 3, 5))) == 4


def test_day_use_is_zero_nights():
    assert room_nights(stay(date(2026, 3, 2), date(2026, 3, 2))) == 1


def test_revenue_with_comp_night():
    s = stay(date(2026, 3, 2), date(2026, 3, 5), comp=1)
    assert room_revenue(s) == Decimal("360.00")


def test_departure_before_arrival_rejected():
    with pytest.raises(ValueError):
        room_nights(stay(date(2026, 3, 5), date(2026, 3, 2)))


def test_window_clips_stay():
    s = stay(date(2026, 3, 1), date(2026, 3, 10))
    assert nights_in_window(s, date(2026, 3, 5), date(2026, 3, 7)) == 2


def test_occupancy_counts_rooms_once():
    stays = [stay(date(2026, 3, 1), date(2026, 3, 4), room="101"),
             stay(date(2026, 3, 2), date(2026, 3, 3), room="102")]
    assert occupancy(stays, date(2026, 3, 2), 10) == 20.0
