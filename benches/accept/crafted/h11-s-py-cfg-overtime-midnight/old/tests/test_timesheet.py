from datetime import datetime as dt

import pytest

from payroll.timesheet import night_hours, shift_hours, split_overtime


def test_shift_hours():
    assert shift_hours(dt(2026, 2, 2, 9), dt(2026, 2, 2, 17, 30)) == 8.5


def test_rejects_inverted_shift():
    with pytest.raises(ValueError):
        shift_hours(dt(2026, 2, 2, 17), dt(2026, 2, 2, 9))


def test_night_hours_across_midnight():
    assert night_hours(dt(2026, 2, 2, 20), dt(2026, 2, 3, 2)) == 4.0


def test_forty_hours_no_overtime():
    punches = [(dt(2026, 2, d, 9), dt(2026, 2, d, 17)) for d in range(2, 7)]
    assert split_overtime(punches) == {"2026-W06": {"regular": 40.0, "overtime": 0.0}}


def test_overtime_split_at_week_boundary_midnight():
    # Sunday-night shift: 4 hours belong to week 6, 4 hours to week 7
    punches = [(dt(2026, 2, d, 9), dt(2026, 2, d, 19)) for d in range(2, 6)]
    punches.append((dt(2026, 2, 8, 20), dt(2026, 2, 9, 4)))
    assert split_overtime(punches) == {
        "2026-W06": {"regular": 40.0, "overtime": 4.0},
        "2026-W07": {"regular": 4.0, "overtime": 0.0},
    }
