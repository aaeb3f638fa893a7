from decimal import Decimal

import pytest

from utilities.meter_import import ImportError_, flag_anomalies, load, parse_reading, usage_by_meter

EXPORT = """meter,date,reading,type
r-100,2026-04-01,341.2,actual
r-100,2026-05-01,352.9,actual
C-200,2026-04-01,"12,480.5",actual
C-200,2026-05-01,"12,911.0",estimate
"""


def test_residential_usage():
    assert usage_by_meter(load(EXPORT))["R-100"] == Decimal("11.7")


def test_commercial_meters_are_included():
    assert sorted(usage_by_meter(load(EXPORT))) == ["C-200", "R-100"]


def test_negative_reading_rejected():
    with pytest.raises(ImportError_):
        parse_reading("-4")


def test_anomaly_flagging():
    assert flag_anomalies({"A": Decimal("-1"), "B": Decimal("20"), "C": Decimal("900")}) == ["A", "C"]
