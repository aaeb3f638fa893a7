import pytest

from scada.yield_calc import capacity_factor, energy_kwh, parse_log, power_at

LOG = """stamp,wind_ms,avail
2026-02-01T00:00,6.25,1
2026-02-01T00:10,8.5,1
2026-02-01T00:20,2.1,1
2026-02-01T00:30,26.0,1
2026-02-01T00:40,11.0,0
2026-02-01T00:50,12.4,1
"""


def test_below_cut_in_and_above_cut_out():
    assert power_at(2.9) == 0.0
    assert power_at(25.5) == 0.0


def test_interpolates_between_points():
    assert power_at(6.25) == pytest.approx(457.5, rel=1e-3)
    assert power_at(8.5) == pytest.approx(1115.0, rel=1e-3)


def test_energy_from_log():
    rows = parse_log(LOG)
    assert energy_kwh(rows) == pytest.approx(595.4, rel=1e-3)


def test_capacity_factor():
    rows = parse_log(LOG)
    assert capacity_factor(rows) == pytest.approx(0.2977, rel=1e-3)
