import pytest

from stats import mean


def test_mean_of_floats():
    assert mean([0.1, 0.2, 0.3]) == pytest.approx(0.2, abs=1e-12)
