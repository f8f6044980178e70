"""Which cells of a heatmap differ from "even", once the many cells tested together are allowed for.

A matchup heatmap of ten decks holds some ninety win rates; tested one by one at the 5% level,
four or five of them would look "different from 50%" by luck alone, so a heatmap that highlighted
every nominally significant cell would highlight noise. Each cell gets an exact test, then the
Benjamini–Hochberg procedure (statsmodels ``multipletests``, method ``fdr_bh``) across all the
heatmap's tested cells keeps the false discovery rate at ``ALPHA``: of the cells called different,
at most about 5% are expected to be flukes. The dashboards fade every cell that is not called
different (or is thin); they never hide one.

- matchups: a two-sided exact binomial test of the row deck's wins out of its games against 50%
  (scipy ``binomtest``); a draw is a game not won, as in every win rate. A mirror match is not
  tested (it is even by construction).
- battlefields: the heatmap shows (win rate with the battlefield in play) − (the deck's overall
  rate). "Even" is a difference of 0, which holds exactly when the deck wins as often with the
  battlefield as without it (overall = share × here + (1 − share) × without), so the test is
  Fisher's exact test of wins/losses here against the deck's games without the battlefield
  (overall minus here; scipy ``fisher_exact``).

Every heatmap cell with games is one test of the family, thin ones too (leaving out cells by a
rule that looks at their results would bias the correction; counting them makes it stricter).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

ALPHA = 0.05  # the false discovery rate the heatmaps allow


@dataclass(frozen=True)
class Evidence:
    """One heatmap cell's test: ``p_value`` (None: not tested — no games, a mirror), the
    Benjamini–Hochberg adjusted p-value, and whether the cell is called different from even."""
    p_value: float | None
    p_adjusted: float | None
    different: bool


def benjamini_hochberg(p_values: Sequence[float | None], alpha: float = ALPHA) -> list[Evidence]:
    """BH across the given p-values (None: not tested, never different, not in the family)."""
    return corrected(p_values, alpha, "fdr_bh")


def corrected(p_values: Sequence[float | None], alpha: float, method: str) -> list[Evidence]:
    """The p-values adjusted for their number by statsmodels ``multipletests`` with ``method``
    ("fdr_bh": Benjamini–Hochberg; "holm": Holm's step-down, which bounds the chance of any false
    call) and whether each is called different at ``alpha`` (None: not tested, not in the family)."""
    tested = [i for i, p in enumerate(p_values) if p is not None]
    out = [Evidence(None, None, False)] * len(p_values)
    if not tested:
        return out
    # imported on first use, like intervals.py: statsmodels brings scipy and pandas (about a second)
    from statsmodels.stats.multitest import multipletests

    reject, adjusted, _, _ = multipletests([p_values[i] for i in tested], alpha=alpha, method=method)
    for i, different, q in zip(tested, reject, adjusted):
        out[i] = Evidence(float(p_values[i]), min(float(q), 1.0), bool(different))
    return out


def binomial_p_value(successes: int, n: int, expected: float = 0.5) -> float | None:
    """Two-sided exact binomial test of ``successes`` out of ``n`` against ``expected``; None when
    n = 0."""
    if n <= 0:
        return None
    from scipy.stats import binomtest

    return float(binomtest(successes, n, expected).pvalue)


def fisher_p_value(successes: int, n: int, other_successes: int, other_n: int) -> float | None:
    """Two-sided Fisher exact test: is k/n different from the other k/n? None when either group is
    empty or the counts are not proportions."""
    if n <= 0 or other_n <= 0 or not (0 <= successes <= n and 0 <= other_successes <= other_n):
        return None
    from scipy.stats import fisher_exact

    return float(fisher_exact([[successes, n - successes], [other_successes, other_n - other_successes]]).pvalue)


def matchup_evidence(rows: Sequence[dict], alpha: float = ALPHA) -> list[Evidence]:
    """For each row of ``queries.matchup_stats``, in order: is the row deck's win rate against that
    opponent different from 50%, across all the rows (the heatmap) with Benjamini–Hochberg?"""
    return benjamini_hochberg(
        [None if r["mirror"] else binomial_p_value(r["wins"], r["games"]) for r in rows], alpha)


def battlefield_evidence(rows: Sequence[dict], alpha: float = ALPHA) -> list[Evidence]:
    """For each battlefield × deck row of ``queries.battlefield_stats``, in order: does the deck win
    more or less often with the battlefield in play than without it, with Benjamini–Hochberg across
    the rows?"""
    p_values = []
    for r in rows:
        here, overall = r["win_rate"], r["deck_win_rate"]
        p_values.append(fisher_p_value(here["successes"], here["n"], overall["successes"] - here["successes"],
                                       overall["n"] - here["n"]))
    return benjamini_hochberg(p_values, alpha)


__all__ = ["ALPHA", "Evidence", "benjamini_hochberg", "corrected", "binomial_p_value", "fisher_p_value",
           "matchup_evidence", "battlefield_evidence"]
