"""Elysian Battlefields games with recorded chance whose attack dice come from a die of our choosing
(a fair one, or one loaded towards sixes): the engine's State played with no seed, its DICE points
answered from ``weights`` and every other point (the turn-order rolls and tiles too) by the random
bot, each line written as a table would write it."""

from __future__ import annotations

from engine.elysian.bots import choose_random
from engine.elysian.catalog import DEFAULT_VERSION, load
from engine.elysian.game import State
from engine.elysian.lines import Kind, Line, format_line
from engine.games import CHANCE
from engine.rng import SplitMix64

FAIR = (1, 1, 1, 1, 1, 1)
SIXES_TWICE = (1, 1, 1, 1, 1, 2)  # a six twice as likely as any other face: 2/7 of the rolls


def face(rng: SplitMix64, weights: tuple[int, ...]) -> int:
    """A face 1 to 6 drawn with the given weights."""
    x = rng.below(sum(weights))
    for f, w in enumerate(weights, 1):
        if x < w:
            return f
        x -= w
    raise AssertionError("unreachable")


def recorded_game(seed: int, players: int, weights: tuple[int, ...], meta: dict) -> dict:
    """A finished game of ``players`` with recorded chance, its dice rolled from ``weights``."""
    cat = load(DEFAULT_VERSION)
    g = State.new(cat, players, None)
    rng = SplitMix64(seed)
    lines = []
    while not g.over:
        if g.pending.kind is Kind.DICE:
            size = len(g.legal_decisions()[0].args)
            d = Line(CHANCE, "dice", tuple(sorted(str(face(rng, weights)) for _ in range(size))))
        else:
            d = choose_random(g, rng)
        lines.append(format_line(d))
        g.answer(d)
    return {"format": "empyrean-log", "version": 1, "game": "elysian", "catalog": cat.version,
            "setup": {"players": players}, "chance": {"type": "recorded"}, "decisions": lines,
            "result": {"ranks": g.ranks(), "reason": str(g.end)}, "meta": meta}
