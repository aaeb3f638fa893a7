import pytest

from hydro.dosing import dose_plan
from hydro.feedchart import load_chart, parse_rate

CHART = """
# veg stage
week 3: A 2.5 ml/L, B 2.5 ml/L, CalMag 1 ml/L
week 4: A 12.5 ml/gal, B 12.5 ml/gal
"""


def test_per_litre_rate():
    assert parse_rate("2.5 ml/L") == 2.5


def test_per_gallon_rate():
    assert parse_rate("12.5 ml/gal") == pytest.approx(3.302, abs=1e-3)


def test_garbage_rate_rejected():
    with pytest.raises(ValueError):
        parse_rate("a splash")


def test_mixing_order_and_volumes():
    chart = load_chart(CHART)
    assert dose_plan(chart[3], 40) == [("CalMag", 40.0), ("A", 100.0), ("B", 100.0)]


def test_half_strength_gallon_week():
    chart = load_chart(CHART)
    assert dose_plan(chart[4], 20, strength=0.5) == [("A", 33.0), ("B", 33.0)]
