import pytest

from roastlog.curve import development_ratio, rate_of_rise, summary, turning_point


def test_ror_on_a_linear_climb(linear_log):
    ror = rate_of_rise(linear_log, window=5)
    assert ror[:4] == [None] * 4
    # RoR is a smoothed reading; allow for probe lag across the window
    assert ror[4] == pytest.approx(10.0, rel=0.25)
    assert ror[-1] == pytest.approx(10.0, rel=0.25)


def test_ror_window_must_be_two_or_more(linear_log):
    with pytest.raises(ValueError):
        rate_of_rise(linear_log, window=1)


def test_turning_point(charged_log):
    assert turning_point(charged_log) == (6.0, 95.0)


def test_development_ratio(charged_log):
    assert development_ratio(charged_log) == pytest.approx(0.25)


def test_summary_peak_ror(linear_log):
    assert summary(linear_log, window=15)["peak_ror"] == pytest.approx(10.0, rel=0.25)
