from datetime import date, time

from rota.shifts import Template, expand, hours_by_role, overlapping

NIGHT = Template(weekday=5, starts=time(22, 0), hours=8, role="night")


def test_expand_one_week():
    shifts = expand([Template(0, time(9, 0), 8, "desk")], date(2024, 6, 3), 7, "Europe/Paris")
    assert len(shifts) == 1
    assert shifts[0].start_utc.hour == 7


def test_hours_by_role():
    shifts = expand([NIGHT], date(2024, 6, 1), 14, "Europe/Paris")
    assert hours_by_role(shifts) == {"night": 16.0}


def test_dst_night_shift_ends_at_six_local():
    # 30-31 March 2024: Paris skips from 02:00 to 03:00
    shifts = expand([NIGHT], date(2024, 3, 30), 1, "Europe/Paris")
    assert shifts[0].end_utc.isoformat() == "2024-03-31T04:00:00+00:00"


def test_no_overlap_within_a_role():
    shifts = expand([NIGHT, Template(6, time(5, 0), 4, "night")], date(2024, 6, 1), 2, "UTC")
    assert len(overlapping(shifts)) == 1
