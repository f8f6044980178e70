"""Rates with their n and a 95% Wilson score interval — the helpers every statistic uses.

The interval comes from statsmodels (``proportion_confint(method="wilson")``), not from our own
formula. A rate over n = 0 is unknown: rate and bounds are None (JSON null), never a division error.

A rate is reported as ``{"successes": k, "n": n, "rate": k/n, "low": …, "high": …}``.

A mean (of points a seat scored, say) is reported as ``{"n": n, "mean": …, "sd": …, "low": …, "high":
…}``: its 95% Student-t interval (scipy's ``t.interval``), from the sum and the sum of squares an
aggregate keeps; unknown (None) below two observations.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np

CONFIDENCE = 0.95
METHOD = "wilson"  # Wilson score interval without continuity correction


def _check(successes: int, n: int) -> None:
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"not a proportion: {successes} successes out of {n}")


def wilson_interval(successes: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float] | tuple[None, None]:
    """The Wilson score interval for ``successes`` out of ``n``; (None, None) when n = 0."""
    return wilson_intervals([successes], [n], confidence)[0]


def wilson_intervals(successes: Sequence[int], n: Sequence[int],
                     confidence: float = CONFIDENCE) -> list[tuple[float, float] | tuple[None, None]]:
    """Wilson intervals for many proportions in one vectorised call (a response has hundreds)."""
    if len(successes) != len(n):
        raise ValueError("successes and n differ in length")
    for k, m in zip(successes, n):
        _check(k, m)
    if not n:
        return []
    count = np.asarray(successes, dtype=float)
    nobs = np.asarray(n, dtype=float)
    present = nobs > 0
    out: list[tuple[float, float] | tuple[None, None]] = [(None, None)] * len(n)
    if present.any():
        # imported on first use: statsmodels brings scipy and pandas (about a second), which the
        # API's start-up, health checks and the CLI should not pay for
        from statsmodels.stats.proportion import proportion_confint

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            low, high = proportion_confint(count[present], nobs[present], alpha=1 - confidence, method=METHOD)
        indexes = np.flatnonzero(present)
        for i, lo, hi in zip(indexes, np.atleast_1d(low), np.atleast_1d(high)):
            # Float rounding only: the bounds lie in [0, 1], the lower is exactly 0 when k = 0 and
            # the upper exactly 1 when k = n (statsmodels can give -1e-17 or 0.9999999999999999).
            lo = 0.0 if successes[i] == 0 else min(max(float(lo), 0.0), 1.0)
            hi = 1.0 if successes[i] == n[i] else min(max(float(hi), 0.0), 1.0)
            out[i] = (lo, hi)
    return out


def rate(successes: int, n: int, confidence: float = CONFIDENCE) -> dict:
    """``{"successes", "n", "rate", "low", "high"}``; rate and bounds None when n = 0."""
    return rates([(successes, n)], confidence)[0]


def rates(pairs: Sequence[tuple[int, int]], confidence: float = CONFIDENCE) -> list[dict]:
    """``rate()`` for many (successes, n) pairs with one interval computation."""
    ks = [int(k) for k, _ in pairs]
    ns = [int(m) for _, m in pairs]
    intervals = wilson_intervals(ks, ns, confidence)
    return [
        {"successes": k, "n": m, "rate": (k / m if m else None), "low": lo, "high": hi}
        for k, m, (lo, hi) in zip(ks, ns, intervals)
    ]


def mean_interval(total: int | float, squares: int | float, n: int, confidence: float = CONFIDENCE) -> dict:
    """The mean of ``n`` numbers from their sum and sum of squares, with their sample standard
    deviation and the Student-t interval of the mean; ``mean`` None when n = 0, ``sd`` and the bounds
    None when n < 2 (no spread to measure)."""
    if n < 1:
        return {"n": n, "mean": None, "sd": None, "low": None, "high": None}
    m = total / n
    if n < 2:
        return {"n": n, "mean": m, "sd": None, "low": None, "high": None}
    sd = math.sqrt(max(squares - total * total / n, 0.0) / (n - 1))
    if sd == 0:  # every number alike: the interval is the point (scipy would answer nan)
        return {"n": n, "mean": m, "sd": 0.0, "low": m, "high": m}
    from scipy.stats import t  # imported on first use, as statsmodels above

    low, high = t.interval(confidence, n - 1, loc=m, scale=sd / math.sqrt(n))
    return {"n": n, "mean": m, "sd": sd, "low": float(low), "high": float(high)}


def share(part: int | float, whole: int | float) -> float | None:
    """part / whole, or None when whole is 0 (e.g. the meta share of a deck when no games match)."""
    return part / whole if whole else None


def mean(total: int | float, n: int) -> float | None:
    """total / n, or None when n = 0 (e.g. average might over the games a card was deployed in)."""
    return total / n if n else None


def difference(a: float | None, b: float | None) -> float | None:
    """a - b, None when either is unknown."""
    return None if a is None or b is None else a - b


def sort_key_lower_bound(r: dict) -> tuple:
    """Sort key for rates: highest lower bound first, unknown (n = 0) last."""
    low = r["low"]
    return (low is None, -(low if low is not None else 0.0), -r["n"])


__all__ = ["CONFIDENCE", "METHOD", "wilson_interval", "wilson_intervals", "rate", "rates", "mean_interval", "share",
           "mean", "difference", "sort_key_lower_bound"]
