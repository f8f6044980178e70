"""services.stats.significance on tables worked by hand: which heatmap cells are called different
from even after the Benjamini–Hochberg correction, and which are faded."""

from __future__ import annotations

import pytest

from services.stats.intervals import rate
from services.stats.significance import (
    ALPHA,
    battlefield_evidence,
    benjamini_hochberg,
    binomial_p_value,
    fisher_p_value,
    matchup_evidence,
)

# Two-sided exact binomial p-values against 50%, by hand (2 × the tail, C(n, k) / 2^n):
P_10_OF_10 = 2 / 1024                           # 0.00195
P_9_OF_10 = 2 * (10 + 1) / 1024                 # 0.02148
P_15_OF_20 = 2 * (15504 + 4845 + 1140 + 190 + 20 + 1) / 2**20  # 0.04139: "significant" alone
P_5_OF_10 = 1.0


def matchup(deck: str, opponent: str, wins: int, games: int) -> dict:
    return {"deck": deck, "opponent_deck": opponent, "mirror": deck == opponent, "games": games, "wins": wins,
            "draws": 0, "win_rate": rate(wins, games), "thin": False}


def test_binomial_p_values_are_the_exact_two_sided_tails():
    assert binomial_p_value(10, 10) == pytest.approx(P_10_OF_10)
    assert binomial_p_value(9, 10) == pytest.approx(P_9_OF_10)
    assert binomial_p_value(15, 20) == pytest.approx(P_15_OF_20)
    assert binomial_p_value(5, 10) == pytest.approx(1.0)
    assert binomial_p_value(0, 0) is None
    # against another expected rate: 3 of 3 when 1/3 is expected, two-sided = (1/3)^3 (the lower tail,
    # P(0) = 8/27, is more likely than the observed 1/27, so only the upper tail counts)
    assert binomial_p_value(3, 3, expected=1 / 3) == pytest.approx(1 / 27)


def test_benjamini_hochberg_on_a_known_table():
    """Four cells; alone at 5%, three would be "different". BH with m = 4 (ranks 1..4):
    adjusted p = min over larger ranks of p × m / rank → 0.0078, 0.0430, 0.0552, 1.0: the 15-of-20
    cell is not called different after the correction, the 9-of-10 one still is."""
    tests = benjamini_hochberg([P_15_OF_20, P_10_OF_10, P_5_OF_10, P_9_OF_10])
    assert [t.p_adjusted for t in tests] == pytest.approx(
        [P_15_OF_20 * 4 / 3, P_10_OF_10 * 4, 1.0, P_9_OF_10 * 4 / 2])
    assert [t.different for t in tests] == [False, True, False, True]
    assert [t.p_value for t in tests] == pytest.approx([P_15_OF_20, P_10_OF_10, P_5_OF_10, P_9_OF_10])
    # a laxer false discovery rate lets the 15-of-20 cell through (0.0552 < 0.10)
    assert [t.different for t in benjamini_hochberg([P_15_OF_20, P_10_OF_10, P_5_OF_10, P_9_OF_10], alpha=0.10)] \
        == [True, True, False, True]
    assert ALPHA == 0.05


def test_matchup_evidence_leaves_mirrors_and_empty_cells_out_of_the_family():
    rows = [matchup("A", "B", 15, 20), matchup("A", "A", 5, 10), matchup("B", "A", 10, 10),
            matchup("B", "C", 0, 0), matchup("C", "A", 5, 10), matchup("C", "B", 9, 10)]
    tests = matchup_evidence(rows)
    mirror, empty = tests[1], tests[3]
    assert (mirror.p_value, mirror.p_adjusted, mirror.different) == (None, None, False)
    assert (empty.p_value, empty.p_adjusted, empty.different) == (None, None, False)
    # the family is the four tested cells: the same adjusted values as the known table above
    assert [tests[i].p_adjusted for i in (0, 2, 4, 5)] == pytest.approx(
        [P_15_OF_20 * 4 / 3, P_10_OF_10 * 4, 1.0, P_9_OF_10 * 4 / 2])
    assert [t.different for t in tests] == [False, False, True, False, False, True]
    assert [t.different for t in matchup_evidence(rows, alpha=0.10)] == [True, False, True, False, False, True]


def test_fisher_exact_by_hand():
    # [[9, 1], [1, 9]]: P(table) = C(10,9)·C(10,1)/C(20,10) = 100/184756; as or more extreme, both
    # ways: [[10,0],[0,10]] (1/184756) and the mirror images → 2 × 101 / 184756
    assert fisher_p_value(9, 10, 1, 10) == pytest.approx(2 * 101 / 184756)
    assert fisher_p_value(3, 6, 3, 6) == pytest.approx(1.0)
    assert fisher_p_value(3, 6, 0, 0) is None and fisher_p_value(0, 0, 3, 6) is None
    assert fisher_p_value(7, 6, 1, 6) is None  # not a proportion


def test_battlefield_evidence_compares_the_games_with_and_without_the_battlefield():
    def row(wins_here, games_here, wins_all, games_all):
        return {"battlefield": "Plains", "deck": "A", "games": games_here, "win_rate": rate(wins_here, games_here),
                "deck_win_rate": rate(wins_all, games_all)}

    rows = [row(9, 10, 10, 20),   # 9/10 here, 1/10 without it: p = 0.00109
            row(5, 10, 10, 20),   # 5/10 and 5/10: p = 1
            row(4, 8, 4, 8),      # every game of the deck had it: nothing to compare
            row(0, 0, 10, 20)]    # no games here
    tests = battlefield_evidence(rows)
    assert tests[0].p_value == pytest.approx(2 * 101 / 184756)
    assert tests[0].p_adjusted == pytest.approx(2 * 101 / 184756 * 2)  # m = 2 tested cells, rank 1
    assert [t.different for t in tests] == [True, False, False, False]
    assert tests[2].p_value is None and tests[3].p_value is None
    assert [t.different for t in battlefield_evidence(rows, alpha=1e-4)] == [False] * 4
