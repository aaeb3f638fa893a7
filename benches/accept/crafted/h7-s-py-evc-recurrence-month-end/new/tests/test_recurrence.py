from datetime import date

import pytest

from scheduling.recurrence import RecurrenceError, Rule, next_occurrences


def test_daily_interval():
    rule = Rule("DAILY", interval=2, count=3)
    assert next_occurrences(rule, date(2024, 5, 1)) == [
        date(2024, 5, 1), date(2024, 5, 3), date(2024, 5, 5),
    ]


def test_weekly_by_weekday():
    rule = Rule("WEEKLY", by_weekday=("MO", "TH"), count=4)
    assert next_occurrences(rule, date(2024, 5, 6)) == [
        date(2024, 5, 6), date(2024, 5, 9), date(2024, 5, 13), date(2024, 5, 16),
    ]


def test_monthly_on_the_31st_clamps_to_month_end():
    rule = Rule("MONTHLY", count=3)
    assert next_occurrences(rule, date(2024, 1, 31)) == [
        date(2024, 1, 31), date(2024, 3, 2), date(2024, 3, 31),
    ]


def test_until_is_inclusive():
    rule = Rule("DAILY", until=date(2024, 5, 3))
    assert next_occurrences(rule, date(2024, 5, 1))[-1] == date(2024, 5, 3)


def test_rejects_unknown_weekday():
    with pytest.raises(RecurrenceError):
        next_occurrences(Rule("WEEKLY", by_weekday=("XX",)), date(2024, 5, 1))
