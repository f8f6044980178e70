"""The dice audit of Elysian Battlefields (issue 29): are a player's (or an event's) recorded attack
dice those of a fair die?

Each row (a player, or an event) gets three tests, all from scipy:

- the faces: a chi-square goodness-of-fit test of the counts of 1 to 6 against a fair die's
  (``scipy.stats.chisquare``, five degrees of freedom);
- the repel rate: full sets of three that were all blocks (1 or 2: ``(1/3)**3 = 1/27`` of a fair
  set), two-sided exact binomial test (``scipy.stats.binomtest``);
- the ravage rate: full sets of three sixes (``1/216``), the same test.

Looking at many players (or events) at once, some would look unlikely by luck alone, so every test
of one table (three a row, every row tested) is one family whose p-values are adjusted by Holm's
step-down (statsmodels ``multipletests``, services.stats.significance.corrected), which bounds the
chance of flagging any fair row. A row is **flagged** when one of its adjusted p-values is below
``FLAG_BELOW`` (1%): among tables of fair dice, at most one in a hundred shows a flag at all.

A row with fewer than ``MIN_DICE`` dice is not tested (its p-values are null, and it is not in the
family): the chi-square test needs about five expected of each face to be read from its
distribution."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .intervals import rates
from .significance import corrected

FLAG_BELOW = 0.01  # an adjusted p-value below this flags the row
MIN_DICE = 30  # 5 expected of each face
REPEL_CHANCE = Fraction(1, 27)  # three blocks (1 or 2) in a set of three fair dice
RAVAGE_CHANCE = Fraction(1, 216)  # three sixes
TESTS = ("faces", "repelled", "ravaged")
HOLM = "holm"


def _p_values(faces: Sequence[int], sets: int, repelled: int, ravaged: int) -> list[float | None]:
    if sum(faces) < MIN_DICE:
        return [None] * len(TESTS)
    from scipy.stats import binomtest, chisquare  # on first use, as services.stats.significance

    out: list[float | None] = [float(chisquare(list(faces)).pvalue)]
    for k, chance in ((repelled, REPEL_CHANCE), (ravaged, RAVAGE_CHANCE)):
        out.append(float(binomtest(k, sets, float(chance)).pvalue) if sets else None)
    return out


def audit(rows: Sequence[dict]) -> list[dict]:
    """Each of ``rows`` (with ``faces``: the counts of 1 to 6, ``sets``, ``repelled``, ``ravaged``)
    with its n, rates and tests added, the tests adjusted (Holm) across every row given."""
    p_values = [p for r in rows for p in _p_values(r["faces"], r["sets"], r["repelled"], r["ravaged"])]
    evidence = corrected(p_values, FLAG_BELOW, HOLM)
    shown = rates([(f, sum(r["faces"])) for r in rows for f in r["faces"]]
                  + [(r[k], r["sets"]) for r in rows for k in ("repelled", "ravaged")])
    faces_at, sets_at = 0, 6 * len(rows)
    out = []
    for i, r in enumerate(rows):
        tests = {name: {"p_value": e.p_value, "p_adjusted": e.p_adjusted, "flagged": e.different}
                 for name, e in zip(TESTS, evidence[i * len(TESTS):(i + 1) * len(TESTS)])}
        out.append({**r, "dice": sum(r["faces"]),
                    "face_rates": shown[faces_at + 6 * i:faces_at + 6 * (i + 1)],
                    "repel_rate": shown[sets_at + 2 * i] | {"expected": float(REPEL_CHANCE)},
                    "ravage_rate": shown[sets_at + 2 * i + 1] | {"expected": float(RAVAGE_CHANCE)},
                    "tested": tests["faces"]["p_value"] is not None, "tests": tests,
                    "flagged": any(t["flagged"] for t in tests.values())})
    return out
