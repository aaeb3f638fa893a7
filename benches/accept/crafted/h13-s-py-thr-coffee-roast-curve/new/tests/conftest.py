import pytest

from roastlog.curve import RoastLog


@pytest.fixture
def linear_log():
    """Bean temperature rising exactly 10 C per minute, sampled every 2 s."""
    return RoastLog(interval_s=2.0, bean_temp=[150.0 + i * (10.0 / 30) for i in range(91)])


@pytest.fixture
def charged_log():
    """Drop after charge, turning point at 6 s, then a steady climb."""
    temps = [200.0, 140.0, 110.0, 95.0, 97.0, 101.0, 106.0, 112.0, 119.0]
    return RoastLog(interval_s=2.0, bean_temp=temps, first_crack_s=12.0)
