from datetime import datetime

import pytest

from laundromat import settings
from laundromat.pricing import cycle_price, in_offpeak, receipt

TUESDAY = datetime(2026, 5, 12)


def at(hour, minute=0, day=TUESDAY):
    return day.replace(hour=hour, minute=minute)


def test_reader_is_sandboxed_under_test():
    assert settings.READER_MODE == "sandbox"


def test_peak_wash_with_options():
    assert cycle_price("washer-8kg", at(18), ("hot", "extra_rinse")) == 600


def test_offpeak_discount():
    assert cycle_price("washer-18kg", at(7, 30)) == 640


@pytest.mark.parametrize("hour, minute, expected", [
    (5, 59, False), (6, 0, True), (9, 59, True), (10, 0, False), (10, 45, False),
])
def test_window_is_half_open(hour, minute, expected):
    assert in_offpeak(at(hour, minute)) is expected


def test_weekend_has_no_offpeak():
    assert not in_offpeak(datetime(2026, 5, 16, 7, 0))


def test_receipt_total():
    lines = receipt([("dryer", at(9, 50), ()), ("dryer", at(10, 20), ())])
    assert lines == ["09:50 dryer (off-peak) \u20ac2.40", "10:20 dryer \u20ac3.00", "TOTAL \u20ac5.40"]


def test_unknown_machine():
    with pytest.raises(ValueError):
        cycle_price("mangle", at(12))
