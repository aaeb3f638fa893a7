from datetime import date

from calendars.business import add_business_days, easter, is_business_day


def test_easter_2027():
    assert easter(2027) == date(2027, 3, 28)


def test_good_friday_is_closed():
    assert not is_business_day(date(2027, 3, 26))


def test_boxing_day_on_sunday_moves_to_monday():
    assert not is_business_day(date(2027, 12, 27))


def test_add_over_christmas():
    assert add_business_days(date(2027, 12, 20), 3) == date(2027, 12, 23)
