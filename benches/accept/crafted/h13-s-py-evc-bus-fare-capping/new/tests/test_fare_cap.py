from datetime import datetime
from decimal import Decimal as D

import pytest

from transit.fare_cap import CapPolicy, FareCapper, Tap, service_day, statement


def taps(*hours, fare="2.75", day=2):
    return [Tap("card-1", datetime(2026, 3, day, h, m), D(fare)) for h, m in hours]


def test_early_morning_tap_rolls_back():
    assert service_day(datetime(2026, 3, 3, 1, 15)).day == 2


@pytest.mark.parametrize(
    "hours, expected",
    [
        ([(8, 0)], [D("2.75")]),
        ([(8, 0), (12, 30)], [D("2.75"), D("2.75")]),
        # the tap that crosses the cap is charged as a normal fare
        ([(8, 0), (12, 30), (18, 5)], [D("2.75"), D("2.75"), D("2.75")]),
        ([(8, 0), (12, 30), (18, 5), (22, 40)], [D("2.75"), D("2.75"), D("2.75"), D("0")]),
    ],
)
def test_daily_cap(hours, expected):
    assert FareCapper().charge_all(taps(*hours)) == expected


def test_weekly_cap_stops_charging():
    capper = FareCapper(CapPolicy(daily=D("6.00"), weekly=D("10.00")))
    monday = capper.charge_all(taps((8, 0), (9, 0), (10, 0), day=2))
    tuesday = capper.charge_all(taps((8, 0), (9, 0), day=3))
    assert sum(monday + tuesday) == D("11.00")


def test_statement_counts_free_rides():
    summary = statement(FareCapper(), taps((7, 0), (8, 0), (9, 0), (10, 0)))
    assert summary == {"taps": 4, "charged": D("8.25"), "free_rides": 1}
