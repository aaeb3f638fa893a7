import pytest

from sensors.units import UnknownUnit, convert, normalize_reading


def test_kelvin_to_celsius():
    assert convert(300.0, "K", "C") == pytest.approx(26.85)


def test_fahrenheit_to_celsius():
    assert convert(100.0, "F", "C") == pytest.approx(23.556, abs=1e-3)


def test_round_trip_pressure():
    assert convert(convert(14.7, "psi", "hPa"), "hPa", "psi") == pytest.approx(14.7)


def test_mixed_quantities_rejected():
    with pytest.raises(UnknownUnit):
        convert(1.0, "m", "bar")


def test_normalize_reading():
    reading = {"sensor": "s1", "quantity": "length", "value": "12", "unit": "in"}
    assert normalize_reading(reading)["value"] == pytest.approx(0.3048)
