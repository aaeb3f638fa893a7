"""Imports monthly water-meter readings exported by the handheld reader app (CSV)."""
import csv
import io
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Dict, List


class ImportError_(ValueError):
    """A row the import cannot use."""


@dataclass(frozen=True)
class Reading:
    meter_id: str
    read_on: date
    value_m3: Decimal
    estimated: bool


def parse_reading(text: str) -> Decimal:
    cleaned = text.strip()
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        return Decimal("0")
    if value < 0:
        raise ImportError_(f"negative meter value {text!r}")
    return value


def parse_row(row: Dict[str, str]) -> Reading:
    return Reading(
        meter_id=row["meter"].strip().upper(),
        read_on=date.fromisoformat(row["date"].strip()),
        value_m3=parse_reading(row["reading"]),
        estimated=row.get("type", "").strip().lower() == "estimate",
    )


def load(csv_text: str) -> List[Reading]:
    reader = csv.DictReader(io.StringIO(csv_text))
    return [parse_row(row) for row in reader]


def usage_by_meter(readings: List[Reading]) -> Dict[str, Decimal]:
    by_meter: Dict[str, List[Reading]] = defaultdict(list)
    for r in readings:
        by_meter[r.meter_id].append(r)
    usage = {}
    for meter, rows in by_meter.items():
        rows.sort(key=lambda r: r.read_on)
        usage[meter] = rows[-1].value_m3 - rows[0].value_m3
    return usage


def flag_anomalies(usage: Dict[str, Decimal], ceiling_m3: Decimal = Decimal("500")) -> List[str]:
    return sorted(m for m, u in usage.items() if u < 0 or u > ceiling_m3)
