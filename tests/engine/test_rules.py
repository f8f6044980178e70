"""One test per rule clause of the rule books (docs/rules.md maps each rule to its test).

Games are built with the public Game constructor and driven with real decisions; tiny test-only
cards and battlefields are compiled from inline data (tests/engine/rules_helpers.py).
"""

from __future__ import annotations

import pytest

from engine.catalog import CatalogError
from engine.decisions import CHANCE, Decision
from engine.rng import SplitMix64
from engine.state import ANCHOR, CAPTIVE, MOVE, SHIELD, STUN

from rules_helpers import (
    SPECTRES, Kind, Loc, Phase, Recorder, advance, at_phase, battlefield, card, deal, filler,
    finish, find, game, hands_game, options, parse_decision, place_revealed, plain, play, side,
    spectre, to_deploy,
)

F1, F2, F3, F4 = (filler(f"Filler {i}") for i in range(1, 5))
FILL = [F1, F2, F3, F4]


# =============================================================================== setup
def test_setup_decks_are_shuffled_seeded_chance_uses_the_prng():
    g = game([SPECTRES, SPECTRES], seed=11)
    # The documented order of use: first player, then each player's deck shuffle in seat order.
    rng = SplitMix64(11)
    first = rng.below(2) + 1
    expected_hands = []
    for _ in range(2):
        order = list(SPECTRES)
        rng.shuffle(order)
        expected_hands.append([c.name for c in order[:4]])
    assert g.first == first
    assert [[c.name for c in p.hand if c.loc == Loc.HAND] for p in g.players] == expected_hands
    # ... and it really is a shuffle: across seeds the opening hands differ from the deck list.
    hands = {tuple(c.name for c in game([SPECTRES, SPECTRES], seed=s).players[0].hand
                   if c.loc == Loc.HAND) for s in range(8)}
    assert len(hands) > 4


def test_setup_decks_are_shuffled_recorded_chance_any_card_may_come_first():
    g = game([SPECTRES, SPECTRES])
    assert g.pending.player == CHANCE and g.pending.kind == Kind.CHANCE_DRAW
    names = {d.card for d in g.legal_decisions()}
    assert names == {c.name for c in SPECTRES}  # a shuffled deck: any of its cards can be on top
    assert g.check(parse_decision("C draw P1 Horse Archers")) is not None  # not in this deck
    assert "player 1 draws" in (g.check(parse_decision("C draw P2 Lich")) or "")  # P1 draws first


def test_setup_opening_hands_are_four_cards():
    g = game([SPECTRES, SPECTRES])
    drawn = []
    while g.round == 0:
        d = next(iter(g.legal_decisions()))
        drawn.append(d.player)
        g.apply(d)
    assert drawn == [1] * 4 + [2] * 4
    for p in g.players:
        assert len(p.hand) == 4 and len(p.deck) == 20
    # Then round 1 starts with the draft (the begin phase is not performed in round 1).
    assert (g.round, g.phase, g.pending.kind) == (1, Phase.DRAFT, Kind.CHANCE_DRAW)
    seeded = game([SPECTRES, SPECTRES], seed=3)
    assert [sum(c.loc == Loc.HAND for c in p.hand) for p in seeded.players] == [4, 4]


def test_setup_three_battlefields_for_two_players_four_for_three():
    g2 = hands_game([FILL, FILL])
    g3 = hands_game([FILL, FILL, FILL])
    assert (g2.nbf, g3.nbf) == (3, 4)
    assert all(len(bf) == 2 for bf in g2.board) and all(len(bf) == 3 for bf in g3.board)
    with pytest.raises(ValueError):
        game([FILL, FILL], [plain(1), plain(2)])
    with pytest.raises(ValueError):
        game([FILL, FILL, FILL], [plain(1), plain(2), plain(3)])


def test_setup_first_player_is_random_in_seeded_chance_and_as_recorded_otherwise():
    firsts = {}
    for seed in range(30):
        g = game([FILL, FILL], seed=seed)
        assert g.first == SplitMix64(seed).below(2) + 1
        assert g.first_player_at_start == g.first
        firsts[g.first] = firsts.get(g.first, 0) + 1
    assert set(firsts) == {1, 2}
    g = hands_game([[F1, F2], [F3, F4]], first_player=2)
    assert g.first == 2 and g.order == [2, 1]
    assert g.pending.player == 2  # player 2 acts first in round 1


# =============================================================================== rounds
def test_two_player_game_lasts_ten_rounds():
    rec = Recorder({"round_start", "game_end"}, snap=lambda g: g.round)
    g = hands_game([FILL, FILL], observers=[rec])
    finish(g)
    assert [r[-1] for r in rec.of("round_start")] == list(range(1, 11))
    assert rec.of("game_end") == [("game_end", 10)]
    assert g.phase == Phase.OVER


def test_three_player_game_lasts_nine_rounds_on_four_battlefields():
    rec = Recorder({"round_start"}, snap=lambda g: g.round)
    g = hands_game([FILL, FILL, FILL], observers=[rec])
    finish(g)
    assert [r[-1] for r in rec.of("round_start")] == list(range(1, 10))
    assert g.nbf == 4 and g.round == 9


# =============================================================================== begin phase
def test_begin_essence_is_round_plus_one():
    g = hands_game([[F1], [F2]])
    for rnd in range(1, 11):
        to_deploy(g, rnd)
        assert [p.essence for p in g.players] == [rnd + 1, rnd + 1]


def test_begin_essence_adjustments_last_one_round():
    tithe = card("Tithe", ability="instant", effects=[{"when": "reveal", "do": [{"essence": {"add": 2}}]}])
    curse = card("Curse", ability="instant",
                 effects=[{"when": "reveal", "do": [{"essence": {"sub": 1, "who": "opponent"}}]}])
    g = hands_game([[tithe, curse, F1], [F2]])
    play(g, "P1 deploy Tithe to B1", "P1 deploy Curse to B2")
    to_deploy(g, 2, 1)
    assert [p.essence for p in g.players] == [3 + 2, 3 - 1]  # round 2: base 3, adjusted
    to_deploy(g, 3, 1)
    assert [p.essence for p in g.players] == [4, 4]  # round 3: the adjustments are gone


def test_begin_unspent_essence_is_lost():
    g = hands_game([[F1, F2], [F3]])
    play(g, "P1 deploy Filler 1 to B1", "P1 pass")  # spends 1 of 2
    assert g.players[0].essence == 1
    to_deploy(g, 2, 1)
    assert [p.essence for p in g.players] == [3, 3]  # nothing carried over


def test_begin_essence_never_below_zero():
    hex_ = card("Hex", ability="instant",
                effects=[{"when": "reveal", "do": [{"essence": {"sub": 5, "who": "opponent"}}]}])
    g = hands_game([[hex_, F1], [F2, F3]])
    play(g, "P1 deploy Hex to B1", "P1 pass")
    advance(g, lambda g: g.round == 2)
    assert g.players[1].essence == 0  # 3 - 5 is clamped to 0
    to_deploy(g, 3)
    assert g.players[1].essence == 4  # and the debt does not carry on


# =============================================================================== draft phase
def _letters(n: int, prefix: str = "Card"):
    return [filler(f"{prefix} {chr(65 + i)}") for i in range(n)]


def test_draft_draw_two_keep_one_other_to_the_bottom():
    deck = _letters(8)  # Card A .. Card H
    g = game([deck, FILL])
    deal(g, {1: ["Card A", "Card B", "Card C", "Card D"], 2: ["Filler 1", "Filler 2", "Filler 3"]})
    ps = g.players[0]
    # Round 1 draft: two chance draws, then keep one.
    deal(g, {1: ["Card E", "Card F"]})
    assert g.pending.kind == Kind.DRAFT_KEEP and g.pending.player == 1
    assert sorted(options(g)) == ["P1 keep Card E", "P1 keep Card F"]
    assert g.check(parse_decision("P1 keep Card A")) is not None  # only a drafted card is kept
    play(g, "P1 keep Card E")
    assert [c.name for c in ps.hand] == ["Card A", "Card B", "Card C", "Card D", "Card E"]
    assert [c.name for c in ps.deck.bottom] == ["Card F"]
    # Round 2: the unknown cards (G, H) are drawn before the card put on the bottom.
    advance(g, lambda g: g.round == 2 and g.pending.player == CHANCE)
    assert sorted(d.card for d in g.legal_decisions()) == ["Card G", "Card H"]
    assert "Card F" in g.check(parse_decision("C draw P1 Card F"))
    deal(g, {1: ["Card G"]})  # H is then the only unknown card: drawn without asking
    play(g, "P1 keep Card G")
    assert [c.name for c in ps.deck.bottom] == ["Card F", "Card H"]
    # Round 3: the bottom cards come back in the order they were put there.
    advance(g, at_phase(3, Phase.DRAFT, 1))
    assert [c.name for c in ps.hand if c.loc == Loc.DRAWN] == ["Card F", "Card H"]


def test_draft_deck_of_one_just_draws_it():
    deck = _letters(5)
    g = game([deck, FILL])
    deal(g, {1: ["Card A", "Card B", "Card C", "Card D"], 2: ["Filler 1", "Filler 2", "Filler 3"]})
    # Round 1: P1's deck holds one card: it is drawn, no keep decision is asked.
    assert not (g.phase == Phase.DRAFT and g.pending.kind == Kind.DRAFT_KEEP)
    assert [c.name for c in g.players[0].hand][-1] == "Card E"
    assert len(g.players[0].deck) == 0
    assert not any(d.verb == "keep" for d in g.history)


def test_draft_empty_deck_skips_the_draft():
    rec = Recorder({"draw", "draft"})
    g = hands_game([FILL, FILL], observers=[rec])
    rec.log.clear()
    finish(g)
    assert rec.log == []  # ten rounds, no draw and no draft
    assert [len(p.hand) for p in g.players] == [4, 4]


def test_draft_has_no_hand_limit():
    g = game([SPECTRES, SPECTRES], seed=5)
    advance(g, lambda g: g.phase == Phase.END_OF_GAME or g.round == 10 and g.phase == Phase.DEPLOY)
    assert g.round == 10
    for p in g.players:
        assert len(p.hand) == 14  # 4 + one kept card per round, never trimmed
