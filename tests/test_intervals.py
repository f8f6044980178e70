"""services.stats.intervals: Wilson score intervals, checked against the formula worked by hand."""

import math
from statistics import NormalDist

import pytest

from services.stats.intervals import rate, rates, wilson_interval


def wilson_by_hand(k: int, n: int, confidence: float) -> tuple[float, float]:
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
def test_the_interval_is_wilsons_at_the_confidence_asked(confidence):
    low, high = wilson_by_hand(7, 10, confidence)
    assert wilson_interval(7, 10, confidence) == pytest.approx((low, high), abs=1e-12)
    assert (rate(7, 10, confidence)["low"], rate(7, 10, confidence)["high"]) == pytest.approx((low, high), abs=1e-12)
    [many] = rates([(7, 10)], confidence)
    assert (many["low"], many["high"]) == pytest.approx((low, high), abs=1e-12)


def test_more_confidence_is_a_wider_interval_and_the_default_is_95_percent():
    assert rate(7, 10) == rate(7, 10, 0.95)
    narrow, wide = rate(7, 10, 0.8), rate(7, 10, 0.99)
    assert wide["low"] < narrow["low"] < narrow["high"] < wide["high"]
    assert rate(0, 0, 0.99) == {"successes": 0, "n": 0, "rate": None, "low": None, "high": None}
