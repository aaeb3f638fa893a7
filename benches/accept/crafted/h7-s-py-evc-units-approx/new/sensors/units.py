"""Unit conversion for sensor readings before they are stored (SI units in the database)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


class UnknownUnit(ValueError):
    pass


@dataclass(frozen=True)
class Linear:
    """value_in_base = value * scale + offset"""
    scale: float
    offset: float = 0.0


# every quantity has a base unit (scale 1, offset 0)
UNITS = {
    "temperature": {
        "C": Linear(1.0),
        "K": Linear(1.0, -273.15),
        "F": Linear(5 / 9, -32.0),
    },
    "pressure": {
        "Pa": Linear(1.0),
        "hPa": Linear(100.0),
        "bar": Linear(100_000.0),
        "psi": Linear(6894.757),
    },
    "length": {
        "m": Linear(1.0),
        "cm": Linear(0.01),
        "in": Linear(0.0254),
        "ft": Linear(0.3048),
    },
}


def quantity_of(unit: str) -> str:
    for quantity, units in UNITS.items():
        if unit in units:
            return quantity
    raise UnknownUnit(unit)


def to_base(value: float, unit: str) -> float:
    rule = UNITS[quantity_of(unit)][unit]
    return value * rule.scale + rule.offset


def from_base(value: float, unit: str) -> float:
    rule = UNITS[quantity_of(unit)][unit]
    return (value - rule.offset) / rule.scale


def convert(value: float, source: str, target: str) -> float:
    if quantity_of(source) != quantity_of(target):
        raise UnknownUnit(f"cannot convert {source} to {target}")
    if source == target:
        return value
    return from_base(to_base(value, source), target)


def normalize_reading(reading: dict) -> dict:
    """Convert a raw reading {"quantity", "value", "unit"} to its base unit."""
    quantity = reading["quantity"]
    base = next(u for u, rule in UNITS[quantity].items() if rule == Linear(1.0))
    value = convert(float(reading["value"]), reading["unit"], base)
    return {**reading, "value": float(round(Decimal(value), 4)), "unit": base}
