import json
from pathlib import Path

import pytest

from kiln.firing import FULL, Kiln, Segment, bisque_cone_04, segment_hours, total_hours

KILN = Kiln("L&L e23", max_rate_c_per_h=400)
FIXTURES = Path(__file__).parent.parent / "fixtures"


def test_first_segment_starts_at_room_temperature():
    assert segment_hours([Segment(120, 100)], KILN) == [pytest.approx(1.0)]


def test_bisque_segments_ramp_from_previous_target():
    assert segment_hours(bisque_cone_04(), KILN) == [
        pytest.approx(80 / 50 + 1.0), pytest.approx(5.0), pytest.approx(460 / 150 + 10 / 60)]


def test_full_rate_uses_kiln_maximum():
    assert segment_hours([Segment(420, FULL)], KILN) == [pytest.approx(1.0)]


def test_glaze_schedule_from_fixture():
    raw = json.loads((FIXTURES / "glaze_cone6.json").read_text())
    schedule = [Segment(**s) for s in raw["segments"]]
    assert total_hours(schedule, KILN) == raw["expected_hours"]
