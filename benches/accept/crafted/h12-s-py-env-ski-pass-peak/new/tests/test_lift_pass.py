from datetime import date
from decimal import Decimal

from shop.lift_pass import age_on, category, quote


def test_age_counts_birthday_not_yet_reached():
    assert age_on(date(2000, 3, 10), date(2026, 3, 9)) == 25


def test_senior_pays_youth_price():
    assert category(71) == "youth"


def test_toddler_rides_free():
    assert quote(date(2021, 6, 1), date(2026, 3, 2), 3).total == Decimal("0.00")


def test_off_peak_three_days_adult():
    q = quote(date(1990, 1, 1), date(2026, 3, 2), 3)
    assert (q.category, q.total) == ("adult", Decimal("171.12"))


def test_five_day_pass_uses_three_day_discount():
    q = quote(date(1990, 1, 1), date(2026, 3, 2), 5)
    assert q.total == Decimal("285.20")


def test_peak_week_surcharge():
    q = quote(date(1990, 1, 1), date(2026, 2, 16), 2)
    assert q.total == Decimal("135.47")
