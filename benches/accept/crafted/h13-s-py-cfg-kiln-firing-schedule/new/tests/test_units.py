import pytest

from kiln.firing import Kiln, Segment, c_to_f, f_to_c, validate


def test_round_trip():
    assert f_to_c(c_to_f(1060)) == pytest.approx(1060)


def test_cone_6_in_celsius():
    assert f_to_c(2232) == pytest.approx(1222.2, abs=0.1)


def test_over_temperature_rejected():
    with pytest.raises(ValueError, match="exceeds"):
        validate([Segment(1400, 100)], Kiln("test-kiln", max_temp_c=1300))


def test_negative_hold_rejected():
    with pytest.raises(ValueError):
        validate([Segment(500, 100, hold_min=-5)], Kiln("test-kiln"))
