"""Spells & Steam's greedy bot: what it makes of a specialist whose worth shows only in the move after
its use (Rayleigh Kerigan's free move ladder). The balance report (docs/balance-steam.md) is where the
bot's play is judged as a whole; these are the positions that show why it uses the captain or not."""

from __future__ import annotations

from engine.rng import SplitMix64
from engine.steam.bots import FLIPPED, LEAN, choose_greedy, score, worth
from engine.steam.lines import Line

from .steam_helpers import mana, opening, start

RAYLEIGH = Line(2, "uses", ("rayleigh-kerigan",))


def greedy(g) -> str:
    """What the greedy bot answers at ``g``'s point (its generator seeded alike every time)."""
    d = choose_greedy(g, SplitMix64(7))
    return f"P{d.actor} {d.verb} {' '.join(d.args)}".strip()


def used(g):
    trial = g.clone()
    trial.answer(RAYLEIGH)
    return trial


def test_rayleigh_kerigan_is_used_for_a_longer_move_than_the_mana_pays():
    g = start(opening(), 2)  # Kerigan at Start with one mana: a move of 2 at most, of 3 free with the captain
    mana(g, 2, 1, 4)
    assert greedy(g) == "P2 uses rayleigh-kerigan"
    after = used(g)
    assert greedy(after) == "P2 moves 3"
    moved = after.clone()
    moved.answer(Line(2, "moves", ("3",)))
    assert worth(after, 2, RAYLEIGH) == score(moved, 2) - FLIPPED  # worth the move it makes free, less the flip


def test_rayleigh_kerigan_is_not_flipped_for_a_move_that_was_free_anyway():
    g = start(opening(), 2, conductor=5)  # one space from the End of the Line: a move of 1, free without him
    assert greedy(g) == "P2 moves 1"
    one = Line(2, "moves", ("1",))
    moved = g.clone()
    moved.answer(one)
    assert worth(used(g), 2, RAYLEIGH) == worth(moved, 2, one) - FLIPPED


def test_another_specialist_is_worth_the_board_its_use_leaves_and_the_lean_of_a_use():
    g = opening()  # P1's turn: Kings' Line, whose captain reclaims five
    mana(g, 1, 0, 5)
    runika = Line(1, "uses", ("runika-zenanen",))
    trial = g.clone()
    trial.answer(runika)
    assert worth(trial, 1, runika) == score(trial, 1) + LEAN["uses"]
