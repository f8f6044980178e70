"""One test per rule clause of the rule books (docs/rules.md maps each rule to its test).

Games are built with the public Game constructor and driven with real decisions; tiny test-only
cards and battlefields are compiled from inline data (tests/engine/rules_helpers.py).
"""

from __future__ import annotations

import pytest
from rules_helpers import (
    SPECTRES,
    Kind,
    Loc,
    Phase,
    Recorder,
    advance,
    at_phase,
    battlefield,
    card,
    catalog_battlefield,
    deal,
    filler,
    find,
    finish,
    game,
    hands_game,
    options,
    parse_decision,
    place_revealed,
    plain,
    play,
    pos,
    side,
    spectre,
    to_deploy,
)

from engine.bfe import board
from engine.bfe.catalog import CatalogError
from engine.bfe.decisions import CHANCE, Decision
from engine.bfe.game import forced_choice
from engine.bfe.observe import GameObserver
from engine.bfe.state import ANCHOR, CAPTIVE, MOVE, SHIELD, STUN, Ctx
from engine.rng import SplitMix64

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
    # a shuffled deck: any of its cards can be on top (or '?': a card the writer did not see)
    assert names == {c.name for c in SPECTRES} | {"?"}
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
    assert sorted(options(g)) == ["P1 keep ?", "P1 keep Card E", "P1 keep Card F"]
    assert g.check(parse_decision("P1 keep Card A")) is not None  # only a drafted card is kept
    play(g, "P1 keep Card E")
    assert [c.name for c in ps.hand] == ["Card A", "Card B", "Card C", "Card D", "Card E"]
    assert [c.name for c in ps.deck.bottom] == ["Card F"]
    # Round 2: the unknown cards (G, H) are drawn before the card put on the bottom.
    advance(g, lambda g: g.round == 2 and g.pending.player == CHANCE)
    assert sorted(d.card for d in g.legal_decisions()) == ["?", "Card G", "Card H"]
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


# =============================================================================== command phase
HERALD = card("Herald", effects=[{"when": "command", "do": [{"gain": 1}]}],
              text="Command phase: gain 1 might.")
RUNNER = filler("Runner")


def _turns(g, phases) -> list[tuple]:
    """Pass through the given phases, writing down (phase, player) of each decision point."""
    seen = []
    rnd = g.round
    while g.phase in phases and g.pending is not None and g.round == rnd:
        seen.append((g.phase, g.pending.player))
        g.apply(Decision(g.pending.player, "pass"))
    return seen


def test_command_phase_in_first_player_order_and_resolves_fully_before_deploy():
    g = hands_game([[HERALD, F1], [HERALD, F2]])
    place_revealed(g, 1, "Herald", 1)
    place_revealed(g, 2, "Herald", 1)
    advance(g, at_phase(2, Phase.COMMAND))
    assert g.first == 2  # the token passed at the end of round 1
    assert _turns(g, (Phase.COMMAND, Phase.DEPLOY)) == [
        (Phase.COMMAND, 2), (Phase.COMMAND, 1), (Phase.DEPLOY, 2), (Phase.DEPLOY, 1)]


def test_command_abilities_of_revealed_cards_activate_once_a_round():
    g = hands_game([[HERALD, F1], [F2]])
    h = place_revealed(g, 1, "Herald", 2)
    advance(g, at_phase(2, Phase.COMMAND, 1))
    assert "P1 command P1:B2Z1" in options(g)
    play(g, "P1 command P1:B2Z1")
    assert h.might == 2
    assert g.phase == Phase.DEPLOY  # used this round: nothing left to do in the command phase
    advance(g, at_phase(3, Phase.COMMAND, 1))
    play(g, "P1 command P1:B2Z1")
    assert h.might == 3


def test_command_phase_moves_with_move_tokens_are_optional():
    g = hands_game([[RUNNER, F1], [F2]])
    r = place_revealed(g, 1, "Runner", 1, tokens={MOVE: 1})
    advance(g, at_phase(2, Phase.COMMAND, 1))
    assert sorted(options(g)) == ["P1 move P1:B1Z1 to B2", "P1 move P1:B1Z1 to B3", "P1 pass"]
    play(g, "P1 pass")
    assert pos(g, r) == "P1:B1Z1" and r.tokens[MOVE] == 1


def test_command_phase_move_token_is_used_once():
    g = hands_game([[RUNNER, F1, F3], [F2]])
    place_revealed(g, 1, "Filler 3", 3)
    r = place_revealed(g, 1, "Runner", 1, tokens={MOVE: 1})
    advance(g, at_phase(2, Phase.COMMAND, 1))
    assert g.check(parse_decision("P1 move P1:B1Z1 to B1")) is not None  # always another battlefield
    play(g, "P1 move P1:B1Z1 to B3")
    assert pos(g, r) == "P1:B3Z2" and r.tokens[MOVE] == 0  # lowest open zone there
    assert g.phase == Phase.DEPLOY  # the token is spent: no second move
    advance(g, lambda g: g.round == 3)
    assert g.phase != Phase.COMMAND


def test_command_phase_each_move_token_gives_one_move():
    g = hands_game([[RUNNER, F1], [F2]])
    r = place_revealed(g, 1, "Runner", 1, tokens={MOVE: 2})
    advance(g, at_phase(2, Phase.COMMAND, 1))
    play(g, "P1 move P1:B1Z1 to B2", "P1 move P1:B2Z1 to B3")
    assert pos(g, r) == "P1:B3Z1" and r.tokens[MOVE] == 0
    assert g.phase == Phase.DEPLOY


def test_command_phase_affixed_move_token_moves_once_each_round():
    scout = card("Scout", tokens=["move"])
    g = hands_game([[scout, F1], [F2]])
    s = place_revealed(g, 1, "Scout", 1)
    advance(g, at_phase(2, Phase.COMMAND, 1))
    play(g, "P1 move P1:B1Z1 to B2")
    assert g.phase == Phase.DEPLOY  # once this round
    advance(g, at_phase(3, Phase.COMMAND, 1))
    play(g, "P1 move P1:B2Z1 to B1")  # and again next round: an affixed token is permanent
    assert pos(g, s) == "P1:B1Z1"


# =============================================================================== deploy phase
def test_deploy_phase_in_first_player_order():
    g = hands_game([[F1, F2], [F3, F4]], first_player=2)
    seq = []
    while g.phase == Phase.DEPLOY:
        p = g.pending.player
        seq.append(p)
        name = next((c.name for c in g.players[p - 1].hand), None)
        play(g, f"P{p} deploy {name} to B1")
    assert seq == [2, 2, 1, 1]  # the first player deploys all their cards, then the other


def test_deploy_pays_the_cost_from_this_rounds_essence():
    big = filler("Big", cost=3)
    mid = filler("Mid", cost=2)
    rec = Recorder({"deploy"}, snap=lambda g: (g.round, g.players[0].essence))
    g = hands_game([[big, mid, F1], [F2]], observers=[rec])
    reason = g.check(parse_decision("P1 deploy Big to B1"))
    assert "costs 3" in reason and "only 2" in reason
    play(g, "P1 deploy Mid to B1")
    assert g.players[0].essence == 0 and g.players[0].spent == 2
    assert g.pending.player == 2  # nothing P1 can still pay for: P1's turn is over
    to_deploy(g, 2, 1)
    play(g, "P1 deploy Big to B2")  # 3 essence in round 2
    assert [r[-1] for r in rec.log] == [(1, 0), (2, 0)]


def test_deploy_face_down_in_the_lowest_open_zone():
    g = hands_game([[F1, F2], [F3]])
    play(g, "P1 deploy Filler 1 to B2", "P1 deploy Filler 2 to B2")
    a, b = find(g, 1, "Filler 1"), find(g, 1, "Filler 2")
    assert (pos(g, a), pos(g, b)) == ("P1:B2Z1", "P1:B2Z2")
    assert not a.face_up and not b.face_up and a.might == b.might == 0


def test_deploy_six_zones_unless_a_battlefield_changes_it():
    cards = [filler(f"Z{i}") for i in range(6)]
    g = hands_game([[F1, F2], [F3]], [plain(1), plain(2, zones=5), plain(3)])
    for c in cards:
        place_revealed(g, 1, c, 1)
    assert side(g, 1, 1) == [f"Z{i}" for i in range(6)]
    assert "full" in g.check(parse_decision("P1 deploy Filler 1 to B1"))
    assert all(d.bf != 1 for d in g.legal_decisions() if d.verb == "deploy")
    for c in cards[:5]:
        place_revealed(g, 1, c, 2)
    assert "5 zones" in g.check(parse_decision("P1 deploy Filler 1 to B2"))
    assert g.check(parse_decision("P1 deploy Filler 1 to B3")) is None
    g3 = hands_game([[F1, F2], [F3]], [plain(1, zones=7), plain(2), plain(3)])
    for c in cards:
        place_revealed(g3, 1, c, 1)
    assert g3.check(parse_decision("P1 deploy Filler 1 to B1")) is None  # a 7-zone battlefield


def test_deploy_order_is_remembered_for_the_reveal():
    rec = Recorder({"reveal"})
    g = hands_game([[F1, F2], [F3]], observers=[rec])
    play(g, "P1 deploy Filler 1 to B3", "P1 deploy Filler 2 to B1")
    assert [c.name for c in g.players[0].deploy_order] == ["Filler 1", "Filler 2"]
    advance(g, lambda g: g.round == 2)
    assert rec.log == [("reveal", "Filler 1"), ("reveal", "Filler 2")]  # not zone or battlefield order


def test_deploy_passing_is_allowed():
    g = hands_game([[F1, F2], [F3]])
    assert "P1 pass" in options(g)
    play(g, "P1 pass")
    assert g.pending.player == 2 and g.players[0].essence == 2
    assert all(len(b[0]) == 0 for b in g.board)


def test_deploy_battlefield_deploy_effects():
    toll = battlefield("Toll Bridge", effects=[
        {"when": "deploy", "do": [{"essence": {"sub": 1, "when": "now"}}]},
        {"when": "first_deploy", "do": [{"essence": {"add": 3}}]}])
    g = hands_game([[F1, F2, F3], [F4]], [toll, plain(2), plain(3)])
    g.players[0].essence = 5
    play(g, "P1 deploy Filler 1 to B1")
    assert g.players[0].essence == 5 - 1 - 1 and g.players[0].next_adjust == 3
    play(g, "P1 deploy Filler 2 to B1")
    assert g.players[0].essence == 1 and g.players[0].next_adjust == 3  # first deploy only once
    play(g, "P1 deploy Filler 3 to B2")
    assert g.players[0].essence == 0


# =============================================================================== reveal phase
def test_reveal_in_deploy_order_first_player_first():
    rec = Recorder({"reveal"}, snap=lambda g: g.phase)
    g = hands_game([[F1, F2], [F3, F4]], first_player=2, observers=[rec])
    play(g, "P2 deploy Filler 4 to B2", "P2 deploy Filler 3 to B1",
         "P1 deploy Filler 2 to B3", "P1 deploy Filler 1 to B3")
    assert [r[1] for r in rec.log] == ["Filler 4", "Filler 3", "Filler 2", "Filler 1"]
    assert {r[2] for r in rec.log} == {Phase.REVEAL}


def test_reveal_applies_reveal_might_before_the_ability():
    measure = card("Measure", might=3, ability="instant", effects=[
        {"when": "reveal", "if": {"might": {"of": "self", "gte": 3}}, "do": [{"gain": 10}]}])
    g = hands_game([[measure], [F1]])
    play(g, "P1 deploy Measure to B1")
    advance(g, lambda g: g.round == 2)
    assert find(g, 1, "Measure").might == 13


def test_reveal_ability_then_ally_triggers_then_battlefield_effects():
    spark = card("Spark", ability="instant", effects=[{"when": "reveal", "do": [{"gain": 1}]}])
    cheer = card("Cheer", effects=[{"when": "ally_revealed", "do": [{"gain": 1}]}])
    bonfire = battlefield("Bonfire", effects=[
        {"when": "reveal", "do": [{"might": {"target": "subject", "add": 1}}]}])
    rec = Recorder({"reveal", "might"})
    g = hands_game([[spark, cheer], [F1]], [bonfire, plain(2), plain(3)], observers=[rec])
    place_revealed(g, 1, "Cheer", 2)
    play(g, "P1 deploy Spark to B1")
    advance(g, lambda g: g.round == 2)
    assert rec.log == [
        ("reveal", "Spark"),
        ("might", "Spark", 1, "Spark"),  # 1. reveal might is set, then its own ability
        ("might", "Cheer", 1, "Cheer"),  # 2. an ally's ability triggered by the reveal
        ("might", "Spark", 1, None),  # 3. the battlefield effect, last
    ]


def test_reveal_face_down_cards_cannot_be_targeted_or_gain_might():
    rally = card("Rally", ability="instant", effects=[
        {"when": "reveal", "do": [{"might": {"target": {"side": "ally", "pick": "all"}, "add": 1}}]}])
    assassin = card("Assassin", ability="instant", effects=[
        {"when": "reveal", "do": [{"destroy": {"target": {"side": "opponent"}}}]}])
    watch = battlefield("Watchtower", effects=[
        {"when": "deploy", "do": [{"might": {"target": "subject", "add": 5}}]}])
    g = hands_game([[rally, F1], [assassin, F2]], [watch, plain(2), plain(3)], first_player=2)
    play(g, "P2 deploy Assassin to B1", "P2 pass", "P1 deploy Rally to B1", "P1 deploy Filler 1 to B1")
    advance(g, lambda g: g.round == 2)
    # The Assassin was revealed while P1's cards were still face down: nothing to target.
    assert side(g, 1, 1) == ["Rally", "Filler 1"]
    assert not any(d.verb == "choose" for d in g.history)
    # Rally was revealed before Filler 1: the face-down Filler 1 gained nothing (nor did any card
    # from the Watchtower's deploy effect: they were all face down when deployed).
    assert find(g, 1, "Filler 1").might == 1
    assert find(g, 1, "Rally").might == 1


# =============================================================================== end phase
def test_end_phase_card_effects_then_battlefield_effects():
    vigil = card("Vigil", effects=[{"when": "end_of_round", "do": [{"gain": 1}]}])
    dusk = battlefield("Dusk", effects=[
        {"when": "end_of_round", "do": [{"might": {"target": {"side": "ally", "where": "here",
                                                              "pick": "all"}, "add": 1}}]}])
    rec = Recorder({"might"}, snap=lambda g: (g.round, g.phase))
    g = hands_game([[vigil, F1], [F2]], [plain(1), dusk, plain(3)], observers=[rec])
    place_revealed(g, 1, "Vigil", 2)
    advance(g, lambda g: g.round == 2)
    assert rec.log == [("might", "Vigil", 1, "Vigil", (1, Phase.END)),
                       ("might", "Vigil", 1, None, (1, Phase.END))]


def test_end_phase_first_player_token_passes():
    rec = Recorder({"round_start"}, snap=lambda g: g.first)
    g = hands_game([FILL, FILL], first_player=2, observers=[rec])
    finish(g)
    assert [r[-1] for r in rec.log] == [2, 1] * 5


def test_end_phase_first_player_token_passes_to_the_next_seat_in_three_player_games():
    rec = Recorder({"round_start"}, snap=lambda g: g.first)
    g = hands_game([FILL, FILL, FILL], first_player=2, observers=[rec])
    finish(g)
    assert [r[-1] for r in rec.log] == [2, 3, 1, 2, 3, 1, 2, 3, 1]


# =============================================================================== end of the game
TOKENS_A = [filler(f"A{i}") for i in range(4)]


def _final(might: dict[int, list[int]], n: int = 2, extra_cards: dict | None = None):
    """A game where each player ends with exactly the given might per battlefield."""
    hands = [list(TOKENS_A) for _ in range(n)]
    g = hands_game(hands, [plain(i + 1) for i in range(3 if n == 2 else 4)])
    for p, row in might.items():
        for b, m in enumerate(row):
            if m:
                place_revealed(g, p, f"A{b}", b + 1, might=m)
    finish(g)
    return g


def test_end_of_game_effects_resolve_before_the_tally():
    last = card("Last Stand", effects=[{"when": "end_of_game", "do": [{"gain": 10}]}])
    rec = Recorder({"might", "game_end"}, snap=lambda g: g.phase)
    g = hands_game([[last] + TOKENS_A[1:], list(TOKENS_A)], observers=[rec])
    place_revealed(g, 1, "Last Stand", 1, might=1)
    place_revealed(g, 2, "A0", 1, might=5)
    place_revealed(g, 2, "A1", 2, might=5)
    finish(g)
    assert rec.log[0] == ("might", "Last Stand", 10, "Last Stand", Phase.END_OF_GAME)
    assert g.final_might == [[11, 0, 0], [5, 5, 0]]
    # Without Last Stand P2 would win B1 and B2; with it P1 wins B1, P2 B2, B3 is tied 0-0 and the
    # totals decide 11 to 10.
    assert g.winner == 1
    assert rec.log[-1][0] == "game_end"


def test_end_of_game_winning_two_of_three_battlefields_wins():
    g = _final({1: [2, 2, 0], 2: [1, 1, 30]})
    assert g.winner == 1  # fewer might in total, but two battlefields


def test_end_of_game_tie_on_a_battlefield_total_might_decides():
    g = _final({1: [5, 1, 3], 2: [1, 4, 3]})
    assert g.final_might == [[5, 1, 3], [1, 4, 3]]
    assert g.winner == 1  # one battlefield each and a tie: 9 against 8
    g = _final({1: [5, 1, 3], 2: [1, 6, 3]})
    assert g.winner == 2


def test_end_of_game_equal_totals_after_a_tie_is_a_draw():
    g = _final({1: [5, 1, 3], 2: [1, 5, 3]})
    assert g.winner is None


def test_three_player_game_winner_must_win_two_battlefields():
    g = _final({1: [9, 0, 0, 0], 2: [0, 9, 0, 0], 3: [0, 0, 1, 1]}, n=3)
    assert g.winner == 3


def test_three_player_game_two_players_with_two_battlefields_total_might_between_just_them():
    g = _final({1: [10, 10, 0, 0], 2: [0, 0, 10, 11], 3: [9, 9, 9, 9]}, n=3)
    assert g.winner == 2  # 21 against 20; player 3's 36 does not count


# =============================================================================== ability types
SPARK = card("Spark", ability="instant", effects=[{"when": "reveal", "do": [{"gain": 1}]}])
SPARK2 = card("Spark 2", ability="instant", effects=[{"when": "reveal", "do": [{"gain": 1}]}])
WATCHER = card("Watcher", effects=[{"when": "reveal", "do": [{"gain": 1}]},
                                   {"when": "ally_revealed", "do": [{"gain": 1}]}])


def test_ability_instant_resolves_once_on_reveal():
    g = hands_game([[SPARK, F1, F2], [F3]])
    play(g, "P1 deploy Spark to B1", "P1 pass")
    to_deploy(g, 2, 1)
    spark = find(g, 1, "Spark")
    assert spark.might == 2
    play(g, "P1 deploy Filler 1 to B1", "P1 deploy Filler 2 to B1")
    advance(g, lambda g: g.round == 3)
    assert spark.might == 2  # later reveals do not resolve it again
    with pytest.raises(CatalogError, match="instant"):
        card("Bad Instant", ability="instant", effects=[{"when": "ally_revealed", "do": [{"gain": 1}]}])


def test_ability_conditional_resolves_on_reveal_and_whenever_its_condition_triggers():
    g = hands_game([[WATCHER, F1, F2], [F3]])
    play(g, "P1 deploy Watcher to B1", "P1 pass")
    to_deploy(g, 2, 1)
    w = find(g, 1, "Watcher")
    assert w.might == 2  # 1 reveal might + 1 on its own reveal
    play(g, "P1 deploy Filler 1 to B2", "P1 deploy Filler 2 to B3")
    advance(g, lambda g: g.round == 3)
    assert w.might == 4  # and again for each later ally reveal


def test_ability_passive_is_always_active_stun_does_not_stop_it():
    banner = card("Banner", ability="passive", effects=[{"when": "ally_revealed", "do": [{"gain": 1}]}])
    g = hands_game([[banner, WATCHER, F1], [F3]])
    b = place_revealed(g, 1, "Banner", 1, tokens={STUN: 1})
    w = place_revealed(g, 1, "Watcher", 1, tokens={STUN: 1})
    to_deploy(g, 2, 1)
    play(g, "P1 deploy Filler 1 to B2")
    advance(g, lambda g: g.round == 3)
    assert b.might == 2  # the passive still works with a stun token
    assert w.might == 1  # the stunned conditional does not


# =============================================================================== tokens
def test_token_might_never_below_zero():
    drain = card("Drain", ability="instant", effects=[
        {"when": "reveal", "do": [{"might": {"target": {"side": "opponent"}, "sub": 5}}]}])
    rec = Recorder({"might"})
    g = hands_game([[drain], [F1]], observers=[rec])
    victim = place_revealed(g, 2, "Filler 1", 1, might=2)
    play(g, "P1 deploy Drain to B1")
    advance(g, lambda g: g.round == 2)
    assert victim.might == 0
    assert rec.log == [("might", "Filler 1", -2, "Drain")]  # only the 2 it had were removed


def test_token_maximum_might_only_battlefield_effects_may_exceed_it():
    capped = card("Capped", might=1, max_might=3)
    pump = card("Pump", ability="instant", effects=[
        {"when": "reveal", "do": [{"might": {"target": {"side": "ally", "name": "Capped"}, "add": 5}}]}])
    drill = battlefield("Drill Ground", effects=[{"when": "end_of_round", "do": [
        {"might": {"target": {"side": "ally", "where": "here", "pick": "all"}, "add": 2}}]}])
    g = hands_game([[capped, pump], [F1]], [drill, plain(2), plain(3)])
    c = place_revealed(g, 1, "Capped", 1)
    play(g, "P1 deploy Pump to B2")
    rec = Recorder({"might"}, snap=lambda g: g.phase)
    g.observers.append(rec)
    advance(g, lambda g: g.round == 2)
    assert rec.log == [("might", "Capped", 2, "Pump", Phase.REVEAL),  # an ability: capped at 3
                       ("might", "Capped", 2, None, Phase.END)]  # a battlefield effect goes past it
    assert c.might == 5


def test_token_stop_blocks_the_next_opponent_instant_here_then_is_gone():
    rec = Recorder({"stopped"})
    g = hands_game([[spectre("Wailing Wisp"), F1], [SPARK, SPARK2, SPARK]], observers=[rec])
    play(g, "P1 deploy Wailing Wisp to B1", "P1 pass",
         "P2 deploy Spark to B1", "P2 deploy Spark 2 to B1")
    advance(g, lambda g: g.round == 2)
    s1, s2 = find(g, 2, "Spark"), find(g, 2, "Spark 2")
    assert rec.log == [("stopped", "Spark")]
    assert (s1.might, s2.might) == (1, 2)  # the first one did not resolve, the next did
    assert g.players[1].stops == [0, 0, 0]


def test_token_stop_only_affects_opponent_instants_on_that_battlefield_and_waits_for_one():
    g = hands_game([[spectre("Wailing Wisp"), SPARK], [WATCHER, SPARK, SPARK2]])
    play(g, "P1 deploy Wailing Wisp to B1", "P1 deploy Spark to B1",
         "P2 deploy Spark to B2", "P2 deploy Watcher to B1")
    advance(g, lambda g: g.round == 2)
    assert find(g, 1, "Spark").might == 2  # P1's own instant is not stopped
    assert find(g, 2, "Watcher").might == 2  # a conditional is not stopped
    assert find(g, 2, "Spark").might == 2  # an instant on another battlefield is not stopped
    assert g.players[1].stops == [1, 0, 0]  # still waiting for an instant
    play(g, "P2 deploy Spark 2 to B1")
    advance(g, lambda g: g.round == 3)
    assert find(g, 2, "Spark 2").might == 1 and g.players[1].stops == [0, 0, 0]


def test_token_stop_in_a_three_player_game_goes_on_every_opponents_side():
    g = hands_game([[spectre("Wailing Wisp")], [F1], [F2]])
    play(g, "P1 deploy Wailing Wisp to B3")
    advance(g, lambda g: g.round == 2)
    assert [p.stops for p in g.players] == [[0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 1, 0]]


def test_token_stun_conditional_never_triggers_again():
    g = hands_game([[WATCHER, F1, F2, F3], [spectre("Banshee"), F4]])
    w = place_revealed(g, 1, "Watcher", 1)
    advance(g, at_phase(2, Phase.DEPLOY, 2))
    play(g, "P2 deploy Banshee to B2")  # round 2: P2 reveals first; Watcher is P1's only revealed card
    play(g, "P1 deploy Filler 1 to B1", "P1 deploy Filler 2 to B1", "P1 pass")
    assert w.tokens.get(STUN) == 1 and w.might == 1
    to_deploy(g, 3, 1)
    play(g, "P1 deploy Filler 3 to B3")
    advance(g, lambda g: g.round == 4)
    assert w.might == 1  # three ally reveals later: never triggered


def test_token_shield_card_cannot_be_destroyed():
    purge = card("Purge", ability="instant", effects=[{"when": "reveal", "do": [
        {"destroy": {"target": {"side": "ally", "where": "here", "pick": "all"}}, "each": [{"gain": 2}]}]}])
    g = hands_game([[purge, F1, F2], [F3]])
    a = place_revealed(g, 1, "Filler 1", 1, tokens={SHIELD: 1})
    b = place_revealed(g, 1, "Filler 2", 1)
    play(g, "P1 deploy Purge to B1")
    advance(g, lambda g: g.round == 2)
    assert side(g, 1, 1) == ["Filler 1", "Purge"]
    assert b.loc == Loc.DESTROY and a.loc == Loc.BOARD
    assert find(g, 1, "Purge").might == 3  # gained only for the card actually destroyed


def test_token_shield_does_not_protect_from_anything_else():
    recall = card("Recall", ability="instant", effects=[
        {"when": "reveal", "do": [{"return": {"target": {"side": "ally"}}}]}])
    g = hands_game([[recall, F1], [F3]])
    a = place_revealed(g, 1, "Filler 1", 2, tokens={SHIELD: 1})
    play(g, "P1 deploy Recall to B1")
    advance(g, lambda g: g.round == 2)
    assert a.loc == Loc.HAND


SHOVE = card("Shove", ability="instant", effects=[
    {"when": "reveal", "do": [{"move": {"target": {"side": "ally"}}}]}])


RECALL = card("Recall", ability="instant", effects=[
    {"when": "reveal", "do": [{"return": {"target": {"side": "ally"}}}]}])


def test_token_anchor_card_cannot_move_or_return():
    for mover in (SHOVE, RECALL):
        g = hands_game([[mover, F1], [F3]])
        a = place_revealed(g, 1, "Filler 1", 1, tokens={ANCHOR: 1, MOVE: 1})
        play(g, f"P1 deploy {mover.name} to B2")
        advance(g, lambda g: g.round == 2)
        assert pos(g, a) == "P1:B1Z1" and a.might == 1
        assert g.phase != Phase.COMMAND  # its move token cannot be used either
    g = hands_game([[SHOVE, F1], [F3]])
    a = place_revealed(g, 1, "Filler 1", 1, tokens={ANCHOR: 1})
    ctx = Ctx(1, None, None)
    assert not board.move(g, a, 2, ctx) and not board.return_to_hand(g, a, ctx)


def test_token_anchor_card_is_not_offered_as_a_return_target():
    g = hands_game([[RECALL, F1, F2], [F3]])
    place_revealed(g, 1, "Filler 1", 1, tokens={ANCHOR: 1})
    place_revealed(g, 1, "Filler 2", 1)
    play(g, "P1 deploy Recall to B2")
    advance(g, lambda g: g.pending.kind == Kind.TARGET_CARD or g.round == 2)
    # The anchored card cannot be returned, so the only legal target is Filler 2 (taken at once).
    assert g.round == 2 and find(g, 1, "Filler 2").loc == Loc.HAND


def test_token_anchor_does_not_prevent_stack_shift_collapse_or_swap():
    nudge = card("Nudge", ability="instant", effects=[
        {"when": "reveal", "do": [{"shift": {"target": {"side": "ally", "name": "Anchored"}}}]}])
    stacker = card("Stacker", ability="instant", effects=[
        {"when": "reveal", "do": [{"stack": {"onto": {"side": "ally", "name": "Anchored"}}}]}])
    swapper = card("Swapper", ability="instant", effects=[
        {"when": "reveal", "do": [{"swap": {"target": {"side": "ally", "name": "Anchored"}}}]}])
    purge = card("Purge", ability="instant", effects=[
        {"when": "reveal", "do": [{"destroy": {"target": {"side": "ally", "name": "Victim"}}}]}])
    anchored = card("Anchored")
    victim = card("Victim")
    # shift and collapse
    g = hands_game([[nudge, purge, F1], [F3]])
    place_revealed(g, 1, victim, 1)
    a = place_revealed(g, 1, anchored, 1, tokens={ANCHOR: 1})
    place_revealed(g, 1, "Filler 1", 1)
    play(g, "P1 deploy Purge to B1")  # Victim in zone 1 is destroyed: Anchored collapses to zone 1
    to_deploy(g, 2, 1)
    assert side(g, 1, 1) == ["Anchored", "Filler 1", "Purge"]
    play(g, "P1 deploy Nudge to B1")  # shifts Anchored to the next open zone
    advance(g, lambda g: g.round == 3)
    assert side(g, 1, 1) == ["Filler 1", "Purge", "Nudge", "Anchored"] and a.has(ANCHOR)
    # stack
    g = hands_game([[stacker, F1], [F3]])
    a = place_revealed(g, 1, anchored, 1, tokens={ANCHOR: 1})
    play(g, "P1 deploy Stacker to B1")
    advance(g, lambda g: g.pending.kind == Kind.STACK_TOP)
    play(g, "P1 choose P1:B1Z2")  # the Stacker goes on top
    advance(g, lambda g: g.round == 2)
    assert side(g, 1, 1) == ["Stacker"] and a.loc == Loc.UNDER
    # swap
    g = hands_game([[swapper, F1], [F3]])
    a = place_revealed(g, 1, anchored, 1, tokens={ANCHOR: 1})
    play(g, "P1 deploy Swapper to B2", "P1 pass")
    advance(g, lambda g: g.round == 2)
    assert side(g, 1, 1) == ["Filler 1"] and a.loc == Loc.HAND


def test_token_captive_tokens_accumulate_with_no_effect_of_their_own():
    jailer = card("Jailer", ability="instant", effects=[{"when": "reveal", "do": [
        {"token": {"apply": "captive", "target": "self", "count": 2}},
        {"gain": {"tokens": "captive"}}]}])
    g = hands_game([[jailer], [F1]])
    play(g, "P1 deploy Jailer to B1")
    advance(g, lambda g: g.round == 2)
    j = find(g, 1, "Jailer")
    assert j.tokens[CAPTIVE] == 2 and j.might == 1 + 2  # an ability counted them
    board.apply_token(g, j, CAPTIVE)
    assert j.tokens[CAPTIVE] == 3 and j.might == 3  # a captive token by itself does nothing


# =============================================================================== keywords
GRAVE_ROBBER = spectre("Grave Robber")
SOTL = spectre("Soul of the Living")


def _robber_game(deck_rest: list, draft: list[str], keep: str, seed=None):
    """P1 opens with Grave Robber and three fillers; the rest of the deck is ``deck_rest``; the
    round-1 draft draws ``draft`` and keeps ``keep``."""
    g = game([[GRAVE_ROBBER, F1, F2, F3] + deck_rest, [F4, F1]])
    deal(g, {1: ["Grave Robber", "Filler 1", "Filler 2", "Filler 3"], 2: ["Filler 4"]})
    deal(g, {1: list(draft)})
    play(g, f"P1 keep {keep}")
    return g


def _deck_state(g):
    """(top, what the shuffled part may hold, bottom) of P1's deck; in recorded chance the shuffled
    part's cards are unseen, so it is what the engine knows they can be."""
    d = g.players[0].deck
    known = g.hidden[0]
    shuffled = known.possible_names(d.unknown) if known else sorted(c.name for c in d.unknown)
    return ([c.name for c in d.top], shuffled, [c.name for c in d.bottom])


def test_keyword_acquire_searches_the_deck_then_shuffles_it():
    x, y = filler("Card X"), filler("Card Y")
    rec = Recorder({"acquire", "shuffle", "round_end"}, snap=_deck_state)
    g = _robber_game([SOTL, x, y], ["Card X", "Card Y"], "Card X")
    assert _deck_state(g) == ([], [SOTL.name], ["Card Y"])
    g.observers.append(rec)
    play(g, "P1 deploy Grave Robber to B1")
    advance(g, lambda g: g.round == 2)
    assert find(g, 1, SOTL.name).loc == Loc.HAND
    # After the shuffle the order of the deck is unknown again: Card Y is no longer known last.
    assert rec.log == [("acquire", SOTL.name, ([], [], ["Card Y"])),
                       ("shuffle", 1, ([], ["Card Y"], [])),
                       ("round_end", ([], ["Card Y"], []))]


def test_keyword_acquire_card_not_in_the_deck_no_shuffle():
    x, y, z = filler("Card X"), filler("Card Y"), filler("Card Z")
    rec = Recorder({"acquire", "shuffle", "round_end"}, snap=_deck_state)
    g = _robber_game([x, y, z], ["Card X", "Card Y"], "Card X")
    g.observers.append(rec)
    play(g, "P1 deploy Grave Robber to B1")
    advance(g, lambda g: g.round == 2)
    assert rec.log == [("round_end", ([], ["Card Z"], ["Card Y"]))]  # Y still known to come last


def test_keyword_acquire_shuffle_in_seeded_chance_comes_from_the_prng():
    deck = [GRAVE_ROBBER] + [filler(f"S{i}") for i in range(14)] + [SOTL]
    seen = {}

    class Watch(GameObserver):
        def on_acquire(self, g, card):  # just before the shuffle: predict it from a copy of the generator
            rng = SplitMix64(0)
            rng.state = g.rng.state
            cards = sorted(g.players[0].deck.cards(), key=lambda c: c.uid)
            rng.shuffle(cards)
            seen["expected"] = [c.uid for c in cards]

        def on_shuffle(self, g, player):
            seen["got"] = [c.uid for c in g.players[0].deck.top]
    for seed in range(200):
        g = game([deck, FILL], seed=seed, observers=[Watch()])
        if (any(c.name == "Grave Robber" for c in g.players[0].hand) and g.first == 1
                and SOTL.name not in [c.name for c in g.players[0].hand]):
            break
    advance(g, at_phase(1, Phase.DEPLOY, 1))
    assert SOTL.name not in [c.name for c in g.players[0].hand]
    play(g, "P1 deploy Grave Robber to B1")
    advance(g, lambda g: g.round == 2)
    assert len(seen["got"]) == 10 and seen["got"] == seen["expected"]
    assert seen["got"] != sorted(seen["got"])


def test_keyword_add_subtract_essence_now_or_next_round():
    gift = card("Gift", ability="instant", effects=[{"when": "reveal", "do": [
        {"essence": {"add": 2, "when": "now"}}, {"essence": {"sub": 1}}]}])
    rec = Recorder({"reveal", "round_end", "round_start"},
                   snap=lambda g: (g.round, g.players[0].essence, g.players[0].next_adjust))
    g = hands_game([[gift], [F1]])
    play(g, "P1 deploy Gift to B1")
    g.observers.append(rec)
    advance(g, lambda g: g.round == 3)
    assert [r[-1] for r in rec.log] == [
        (1, 1, 0),  # Gift revealed with 1 essence left
        (1, 3, -1),  # 2 added now, 1 subtracted next round
        (2, 2, 0),  # round 2: 3 - 1
        (2, 2, 0), (3, 4, 0)]  # round 3: back to round + 1


def test_keyword_adjacent_neighbouring_zones_and_same_zone_above_and_below():
    inspire = card("Inspire", ability="instant", effects=[{"when": "reveal", "do": [
        {"might": {"target": {"side": "ally", "where": "adjacent", "pick": "all"}, "add": 1}}]}])
    g = hands_game([[inspire], [F1]])
    cells = {}
    for name, b in [("L1", 2), ("B1a", 1), ("B1b", 1), ("B1c", 1), ("B3a", 3), ("B3b", 3)]:
        cells[name] = place_revealed(g, 1, card(name), b)
    opp = [place_revealed(g, 2, card(f"Q{i}"), 2) for i in range(3)]
    play(g, "P1 deploy Inspire to B2")  # zone 2 of B2
    advance(g, lambda g: g.round == 2)
    gained = {n for n, c in cells.items() if c.might == 2}
    assert gained == {"L1", "B1b", "B3b"}  # B2Z1, and zone 2 of B1 and B3
    assert all(q.might == 1 for q in opp)  # the opponent's side is not adjacent


def test_keyword_ally_and_opponent():
    bless = card("Bless", ability="instant", effects=[{"when": "reveal", "do": [
        {"might": {"target": {"side": "ally", "pick": "all"}, "add": 1}}]}])
    blight = card("Blight", ability="instant", effects=[{"when": "reveal", "do": [
        {"might": {"target": {"side": "opponent", "pick": "all"}, "add": 10}}]}])
    flare = card("Flare", ability="instant", effects=[{"when": "reveal", "do": [
        {"might": {"target": {"pick": "all"}, "add": 100}}]}])
    g = hands_game([[bless, blight, flare, F1], [F2, F3]])
    mine = place_revealed(g, 1, "Filler 1", 1)
    theirs = place_revealed(g, 2, "Filler 2", 1)
    g.players[0].essence = 3
    play(g, "P1 deploy Bless to B2", "P1 deploy Blight to B2", "P1 deploy Flare to B2",
         "P2 deploy Filler 3 to B3")  # P2's Filler 3 stays face down during P1's reveals
    advance(g, lambda g: g.round == 2)
    assert mine.might == 1 + 1 + 100  # ally: my other revealed cards; neither listed: both
    assert theirs.might == 1 + 10 + 100  # opponent: their revealed cards
    assert find(g, 1, "Bless").might == 1 + 100  # "ally" excludes the card itself
    assert find(g, 1, "Flare").might == 1  # so does "neither"
    assert find(g, 2, "Filler 3").might == 1  # face down at the time: untouched


def test_keyword_apply_and_remove_tokens():
    warden = card("Warden", ability="instant", effects=[{"when": "reveal", "do": [
        {"token": {"apply": "shield", "target": {"side": "ally", "pick": "all"}}}]}])
    breaker = card("Breaker", ability="instant", effects=[{"when": "reveal", "do": [
        {"token": {"remove": "shield", "target": {"side": "opponent", "pick": "all"}}}]}])
    g = hands_game([[warden, F1], [breaker, F2]])
    a = place_revealed(g, 1, "Filler 1", 1)
    play(g, "P1 deploy Warden to B1", "P2 deploy Breaker to B1")
    rec = Recorder({"round_end"}, snap=lambda g: dict(a.tokens))
    g.observers.append(rec)
    advance(g, lambda g: g.round == 2)
    assert a.tokens.get(SHIELD, 0) == 0 and find(g, 1, "Warden").tokens.get(SHIELD, 0) == 0
    g2 = hands_game([[warden, F1], [F2]])
    a2 = place_revealed(g2, 1, "Filler 1", 1)
    play(g2, "P1 deploy Warden to B1")
    advance(g2, lambda g: g.round == 2)
    assert a2.tokens[SHIELD] == 1


def test_keyword_banish_face_down_to_the_banish_pile_not_a_destroy():
    exile = card("Exile", ability="instant", effects=[{"when": "reveal", "do": [
        {"banish": {"target": {"side": "opponent"}}}]}])
    g = hands_game([[exile], [SOTL, F1, F2]])
    s = place_revealed(g, 2, SOTL.name, 1)
    place_revealed(g, 2, "Filler 1", 1)
    play(g, "P1 deploy Exile to B1")
    advance(g, lambda g: g.pending.kind == Kind.TARGET_CARD)
    play(g, "P1 choose P2:B1Z1")
    advance(g, lambda g: g.round == 2)
    ps = g.players[1]
    assert s.loc == Loc.BANISH and not s.face_up and ps.banished == [s] and ps.destroyed == []
    assert ps.next_adjust == 0 and g.players[1].essence == 3  # its "when destroyed" did not trigger
    assert side(g, 2, 1) == ["Filler 1"]  # the zone it left collapsed


def test_keyword_between_same_battlefield_or_middle_battlefield_column():
    post = card("Post", might=0)
    chant = card("Chant", ability="instant", effects=[{"when": "reveal", "do": [
        {"might": {"target": {"side": "ally", "where": "between", "between": "Post", "pick": "all"},
                   "add": 1}}]}])
    g = hands_game([[chant], [F1]])
    # B1: Post, In1, In2, Post ; B2: Mid, Out2 ; B3: Post
    place_revealed(g, 1, post, 1)
    in1 = place_revealed(g, 1, card("In1"), 1)
    in2 = place_revealed(g, 1, card("In2"), 1)
    place_revealed(g, 1, post, 1)
    mid = place_revealed(g, 1, card("Mid"), 2)
    out2 = place_revealed(g, 1, card("Out2"), 2)
    place_revealed(g, 1, post, 3)
    theirs = place_revealed(g, 2, card("Theirs"), 2)
    play(g, "P1 deploy Chant to B3")
    advance(g, lambda g: g.round == 2)
    assert (in1.might, in2.might, mid.might) == (2, 2, 2)
    assert (out2.might, theirs.might, find(g, 1, "Chant").might) == (1, 1, 1)


VAMPIRE = card("Vampire", effects=[{"when": "reveal", "do": [
    {"bite": {"target": {"side": "opponent", "where": "here"}, "cost": 1, "amount": 2}}]}])


def test_keyword_bites_spend_essence_to_take_might():
    rec = Recorder({"bite"})
    g = hands_game([[VAMPIRE, F1], [F2]], observers=[rec])
    human = place_revealed(g, 2, "Filler 2", 1, might=3)
    play(g, "P1 deploy Vampire to B1", "P1 pass")  # 1 essence left for the bite
    advance(g, lambda g: g.round == 2)
    assert rec.log == [("bite", "Vampire", "Filler 2", 2)]
    assert human.might == 1 and find(g, 1, "Vampire").might == 1 + 2
    g2 = hands_game([[VAMPIRE, F1], [F2]])
    human2 = place_revealed(g2, 2, "Filler 2", 1, might=3)
    play(g2, "P1 deploy Vampire to B1", "P1 deploy Filler 1 to B2")  # no essence left: no bite
    advance(g2, lambda g: g.round == 2)
    assert human2.might == 3 and find(g2, 1, "Vampire").might == 1


def test_keyword_deploy_by_ability_in_the_reveal_phase_is_free_face_down_and_revealed_in_deploy_order():
    summoner = card("Summoner", ability="instant", effects=[{"when": "reveal", "do": [
        {"discard": {"count": 1}}, {"deploy": {"from": "discard"}}, {"gain": 1}]}])
    rec = Recorder({"deploy", "reveal", "might"}, snap=lambda g: (g.phase, g.players[0].essence))
    g = hands_game([[summoner, SPARK, F3, F4], [F2]], observers=[rec])
    place_revealed(g, 1, F1, 1)
    play(g, "P1 deploy Summoner to B1", "P1 pass")
    advance(g, lambda g: g.pending.kind == Kind.DISCARD)
    play(g, "P1 choose Spark")
    spark = find(g, 1, "Spark")
    assert pos(g, spark) == "P1:B1Z3" and spark.face_up and spark.might == 2
    r = (Phase.REVEAL, 1)  # it cost nothing: 1 essence left all along
    assert rec.log[-4:] == [
        ("deploy", "Spark", 0, True, r),  # deployed by the ability, face down, lowest open zone ...
        ("might", "Summoner", 1, "Summoner", r),  # ... the rest of the Summoner's ability resolves ...
        ("reveal", "Spark", r),  # ... then Spark is revealed in deploy order, after the Summoner
        ("might", "Spark", 1, "Spark", r)]  # and its ability resolves


SOUL_KEEPER = card("Soul Keeper", ability="instant", effects=[{"when": "reveal", "do": [
    {"deploy": {"from": "destroyed", "to": "here"}}]}])


def test_a_card_deployed_by_an_ability_in_the_reveal_phase_is_still_face_down_when_an_eater_of_souls_is_revealed():
    """Both books: an ability deploys a card face down, and cards are revealed in the order they
    were deployed. So an Eater of Souls revealed after the ability, in the same round, finds that
    Soul of the Living face down: it cannot destroy it (Destroy: "remove a revealed card")."""
    eater = spectre("Eater of Souls")
    rec = Recorder({"deploy", "reveal", "destroy"})
    g = hands_game([[SOUL_KEEPER, eater, SOTL, F1], [F2]], observers=[rec])
    g.players[0].destroyed.append(g.players[0].hand.pop(2))  # a Soul of the Living destroyed earlier
    soul = find(g, 1, SOTL.name)
    soul.loc, soul.face_up = Loc.DESTROY, True
    g.players[0].essence = 20
    play(g, "P1 deploy Soul Keeper to B1", "P1 deploy Eater of Souls to B1", "P1 pass")
    advance(g, lambda g: g.round == 2)
    assert [e[:2] for e in rec.log if e[0] != "deploy" or e[3]] == [
        ("reveal", "Soul Keeper"), ("deploy", SOTL.name),  # the Soul is deployed face down ...
        ("reveal", "Eater of Souls"), ("destroy", "Soul Keeper"),  # ... the Eater destroys the revealed ally
        ("reveal", SOTL.name)]  # ... and the Soul, face down until now, is revealed after it
    assert soul.loc == Loc.BOARD and soul.face_up and side(g, 1, 1) == ["Eater of Souls", SOTL.name]


def test_a_card_deployed_by_an_ability_after_its_owners_reveal_turn_is_revealed_at_the_end_of_the_phase():
    prod = card("Prod", ability="instant",
                effects=[{"when": "reveal", "do": [{"discard": {"count": 1, "who": "opponent"}}]}])
    back = {"deploy": {"card": "self", "from": "discard", "to": "choose"}}
    rook = card("Rook", effects=[{"when": "discarded", "do": [back]}])
    rec = Recorder({"reveal", "deploy"})
    g = hands_game([[F1, rook], [prod, F2, F3]], observers=[rec])
    g.players[1].essence = 5
    play(g, "P1 deploy Filler 1 to B1", "P1 pass", "P2 deploy Prod to B2", "P2 deploy Filler 2 to B2", "P2 pass")
    advance(g, lambda g: g.pending.kind == Kind.TARGET_BATTLEFIELD)
    play(g, "P1 choose B3")  # P1's Rook, discarded in P2's reveal turn, is deployed after P1's turn
    advance(g, lambda g: g.round == 2)
    assert [e for e in rec.log if e[0] == "reveal"] == [
        ("reveal", "Filler 1"), ("reveal", "Prod"), ("reveal", "Filler 2"), ("reveal", "Rook")]
    assert find(g, 1, "Rook").face_up and side(g, 1, 3) == ["Rook"]


def test_a_card_deployed_by_an_ability_in_the_end_phase_is_revealed_first_in_the_next_round():
    call = {"deploy": {"from": "hand", "name": "Spark", "to": "here"}}
    caller = card("Night Caller", effects=[{"when": "end_of_round", "do": [call]}])
    rec = Recorder({"reveal", "round_start"})
    g = hands_game([[caller, SPARK, F1], [F2]], observers=[rec])
    play(g, "P1 deploy Night Caller to B1", "P1 pass")
    advance(g, at_phase(2, Phase.DEPLOY, 1))
    spark = find(g, 1, "Spark")
    assert spark.loc == Loc.BOARD and not spark.face_up  # deployed at the end of round 1, face down
    play(g, "P1 deploy Filler 1 to B2")
    advance(g, lambda g: g.round == 3)
    assert [e[:2] for e in rec.log] == [("round_start",), ("reveal", "Night Caller"), ("round_start",),
                                         ("reveal", "Spark"), ("reveal", "Filler 1"), ("round_start",)]


def test_keyword_deploy_from_the_destroy_pile_necromancer():
    purge = card("Purge", ability="instant", effects=[{"when": "reveal", "do": [
        {"destroy": {"target": {"side": "ally", "where": "here", "pick": "all"}}}]}])
    g = hands_game([[spectre("Necromancer"), SOTL, purge], [F1]])
    play(g, f"P1 deploy {SOTL.name} to B2", "P1 deploy Purge to B2")
    to_deploy(g, 2, 1)
    s = find(g, 1, SOTL.name)
    assert s.loc == Loc.DESTROY and s.face_up
    to_deploy(g, 4, 1)
    play(g, "P1 deploy Necromancer to B1")
    advance(g, lambda g: g.pending.kind == Kind.TARGET_BATTLEFIELD)
    assert sorted(options(g)) == ["P1 choose B1", "P1 choose B2", "P1 choose B3"]
    play(g, "P1 choose B3")
    assert pos(g, s) == "P1:B3Z1" and s.face_up and s.might == 1


SOTP = spectre("Soul of the Powerful")
PURGE = card("Purge", ability="instant", effects=[{"when": "reveal", "do": [
    {"destroy": {"target": {"side": "ally", "where": "here", "pick": "all"}}, "each": [{"gain": 2}]}]}])


def _p1_snapshot(g):
    ps = g.players[0]
    return (side(g, 1, 1), [(c.name, c.face_up) for c in ps.destroyed], ps.next_adjust,
            {c.name: c.might for c in ps.cards if c.loc == Loc.BOARD})


def test_keyword_destroy_several_lowest_zone_first_each_one_completely():
    rec = Recorder({"destroy", "might"}, snap=_p1_snapshot)
    g = hands_game([[SOTL, F1, SOTP, PURGE], [F2]], observers=[rec])
    for name in (SOTL.name, "Filler 1", SOTP.name):
        place_revealed(g, 1, name, 1)
    play(g, "P1 deploy Purge to B1")
    advance(g, lambda g: g.round == 2)
    board = lambda *names: list(names) + ["Purge"]  # noqa: E731
    assert [r[:-1] for r in rec.log] == [
        ("destroy", SOTL.name, "Purge"), ("might", "Purge", 2, "Purge"),
        ("destroy", "Filler 1", "Purge"), ("might", "Purge", 2, "Purge"),
        ("destroy", SOTP.name, "Purge"), ("might", "Purge", 2, "Purge"),
        ("might", "Purge", 1, SOTP.name)]
    snaps = [r[-1] for r in rec.log]
    # Lowest zone first; its might is removed first; the next destroy starts only after the pile
    # and the collapse (and its own conditional: +1 essence next round) of the previous one.
    assert snaps[0][0] == board(SOTL.name, "Filler 1", SOTP.name) and snaps[0][3][SOTL.name] == 0
    assert snaps[2][:3] == (board("Filler 1", SOTP.name), [(SOTL.name, True)], 1)
    assert snaps[4][:3] == (board(SOTP.name), [(SOTL.name, True), ("Filler 1", True)], 1)
    assert _p1_snapshot(g)[:2] == (["Purge"], [(SOTL.name, True), ("Filler 1", True), (SOTP.name, True)])
    assert find(g, 1, "Purge").might == 1 + 2 * 3 + 1


def test_keyword_destroy_by_an_opponent_card_one_card_same_steps():
    slayer = card("Slayer", ability="instant", effects=[{"when": "reveal", "do": [
        {"destroy": {"target": {"side": "opponent", "where": "here"}}}]}])
    taker = spectre("Taker of Souls")
    rec = Recorder({"round_start"}, snap=lambda g: g.players[1].essence)
    g = hands_game([[slayer], [SOTL, taker, F1]], observers=[rec])
    s = place_revealed(g, 2, SOTL.name, 1)
    place_revealed(g, 2, "Filler 1", 1)
    t = place_revealed(g, 2, taker.name, 2)
    play(g, "P1 deploy Slayer to B1")
    advance(g, lambda g: g.pending.kind == Kind.TARGET_CARD)
    assert sorted(options(g)) == ["P1 choose P2:B1Z1", "P1 choose P2:B1Z2"]
    play(g, "P1 choose P2:B1Z1")
    assert s.loc == Loc.DESTROY and s.face_up and s.might == 0
    assert g.players[1].destroyed == [s] and side(g, 2, 1) == ["Filler 1"]
    assert t.might == 4 + 1  # P2's own "when an ally is destroyed" resolves
    assert rec.log[1] == ("round_start", 3 + 1)  # and the destroyed card's own conditional


def test_keyword_destroy_by_shifting_keeps_might_and_tokens():
    king = spectre("The Pale King")
    counter = card("Counter", effects=[{"when": "ally_destroyed", "do": [{"gain": 1}]}])
    g = hands_game([[king, F1, F2], [F3]])
    a = place_revealed(g, 1, "Filler 1", 1, might=4)
    b = place_revealed(g, 1, "Filler 2", 1, might=2, tokens={CAPTIVE: 1, MOVE: 1})
    c = place_revealed(g, 1, counter, 1)
    to_deploy(g, 7, 1)
    play(g, "P1 deploy The Pale King to B1")
    advance(g, lambda g: g.round == 8)
    # each one shifts to the next open zone (the end of the row, after the collapse)
    assert side(g, 1, 1) == ["The Pale King", "Filler 1", "Filler 2", "Counter"]
    assert (a.might, b.might, b.tokens) == (4, 2, {CAPTIVE: 1, MOVE: 1})
    assert c.might == 1 + 2  # the shifted cards count as destroyed for other abilities
    assert find(g, 1, "The Pale King").might == 6 + 2 * 3
    assert g.players[0].destroyed == []


def test_keyword_discard_fewer_cards_than_asked_discards_all():
    shed = card("Shed", ability="instant", effects=[{"when": "reveal", "do": [{"discard": {"count": 3}}]}])
    g = hands_game([[shed, F1, F2], [F3]])
    play(g, "P1 deploy Shed to B1", "P1 pass")
    advance(g, lambda g: g.round == 2)
    ps = g.players[0]
    assert ps.hand == [] and [c.name for c in ps.discard] == ["Filler 1", "Filler 2"]
    assert all(not c.face_up and c.loc == Loc.DISCARD for c in ps.discard)
    assert not any(d.verb == "choose" for d in g.history)  # nothing to choose: all of them
    # With more cards than asked, the player chooses; with none, the ability is ignored.
    shed1 = card("Shed One", ability="instant",
                 effects=[{"when": "reveal", "do": [{"discard": {"count": 1}}]}])
    g = hands_game([[shed1, F1, F2], [F3]])
    play(g, "P1 deploy Shed One to B1", "P1 pass")
    advance(g, lambda g: g.pending.kind == Kind.DISCARD)
    assert sorted(options(g)) == ["P1 choose ?", "P1 choose Filler 1", "P1 choose Filler 2"]
    g = hands_game([[shed1], [F3]])
    play(g, "P1 deploy Shed One to B1")
    advance(g, lambda g: g.round == 2)
    assert g.players[0].discard == []


def test_keyword_draw_takes_the_top_cards_without_a_choice():
    scholar = card("Scholar", ability="instant", effects=[{"when": "reveal", "do": [{"draw": 2}]}])
    x, y, z = filler("Card X"), filler("Card Y"), filler("Card Z")
    rec = Recorder({"draw"}, snap=lambda g: g.phase)
    g = game([[scholar, F1, F2, F3, x, y, z], [F4, F1]])
    deal(g, {1: ["Scholar", "Filler 1", "Filler 2", "Filler 3"], 2: ["Filler 4"]})
    deal(g, {1: ["Card X", "Card Y"]})
    play(g, "P1 keep Card X")  # Card Y to the bottom, Card Z still unknown
    g.observers.append(rec)
    play(g, "P1 deploy Scholar to B1", "P1 pass")
    n = len(g.history)
    advance(g, lambda g: g.round == 2)
    assert rec.log == [("draw", 1, "Card Z", Phase.REVEAL), ("draw", 1, "Card Y", Phase.REVEAL)]
    assert find(g, 1, "Card Z").loc == find(g, 1, "Card Y").loc == Loc.HAND
    assert not any(d.verb == "keep" for d in g.history[n:])  # not a draft: nothing to keep


def test_keyword_fills_and_full():
    narrow = battlefield("Narrow Pass", zones=3, effects=[{"when": "fill", "do": [{"essence": {"add": 1}}]}])
    crowd = card("Crowd", effects=[{"when": "reveal", "if": {"full": "here"}, "do": [{"gain": 5}]}])
    g = hands_game([[crowd, F1, F2], [F3]], [narrow, plain(2), plain(3)])
    place_revealed(g, 1, "Filler 1", 1)
    play(g, "P1 deploy Filler 2 to B1")  # zone 2 of 3: not the last open zone
    assert g.players[0].next_adjust == 0
    play(g, "P1 deploy Crowd to B1")  # the last open zone: it fills the battlefield
    assert g.players[0].next_adjust == 1
    advance(g, lambda g: g.round == 2)
    assert find(g, 1, "Crowd").might == 1 + 5  # the battlefield is full when it is revealed


def test_keyword_fills_only_by_a_deploy_to_the_last_open_zone():
    narrow = battlefield("Narrow Pass", zones=3, effects=[{"when": "fill", "do": [{"essence": {"add": 1}}]}])
    rec = Recorder({"round_start"}, snap=lambda g: g.players[0].essence)
    g = hands_game([[SHOVE, F1, F2, F3], [F4]], [narrow, plain(2), plain(3, zones=3)], observers=[rec])
    place_revealed(g, 1, "Filler 1", 1)
    place_revealed(g, 1, "Filler 2", 1)
    for i in range(3):
        place_revealed(g, 1, card(f"Full {i}"), 3)
    play(g, "P1 deploy Shove to B2", "P1 pass")
    advance(g, lambda g: g.pending.kind == Kind.TARGET_CARD)
    play(g, "P1 choose P1:B3Z1", "P1 choose B1")  # Full 0 moves into B1's last open zone
    assert side(g, 1, 1) == ["Filler 1", "Filler 2", "Full 0"]
    assert rec.log[1] == ("round_start", 3)  # a move is not a deploy: it does not "fill" (no +1)


def test_keyword_here_means_this_battlefield():
    local = card("Local", ability="instant", effects=[{"when": "reveal", "do": [
        {"might": {"target": {"side": "ally", "where": "here", "pick": "all"}, "add": 1}}]}])
    g = hands_game([[local, F1, F2], [F3]])
    here = place_revealed(g, 1, "Filler 1", 2)
    there = place_revealed(g, 1, "Filler 2", 3)
    play(g, "P1 deploy Local to B2")
    advance(g, lambda g: g.round == 2)
    assert (here.might, there.might) == (2, 1)


def test_keyword_move_to_the_lowest_open_zone_of_another_battlefield_mandatory_in_the_reveal_phase():
    rec = Recorder({"move"})
    g = hands_game([[SHOVE, F1, F2], [F3]], observers=[rec])
    a = place_revealed(g, 1, "Filler 1", 1)
    place_revealed(g, 1, "Filler 2", 3)
    play(g, "P1 deploy Shove to B2")
    advance(g, lambda g: g.pending.kind == Kind.TARGET_CARD)
    play(g, "P1 choose P1:B1Z1")
    # The destination is chosen, but moving is not optional: no pass, no "no".
    assert sorted(options(g)) == ["P1 choose B2", "P1 choose B3"]
    assert g.check(parse_decision("P1 pass")) is not None
    assert g.check(parse_decision("P1 choose B1")) is not None  # always another battlefield
    play(g, "P1 choose B3")
    assert pos(g, a) == "P1:B3Z2" and a.might == 1
    assert rec.log == [("move", "Filler 1", 0, 2)]


def test_keyword_move_with_no_open_zone_is_ignored():
    g = hands_game([[SHOVE, F1], [F3]], [plain(1), plain(2, zones=3), plain(3, zones=3)])
    a = place_revealed(g, 1, "Filler 1", 1)
    for b in (2, 3):
        for i in range(3 if b == 3 else 2):
            place_revealed(g, 1, card(f"Wall {b}{i}"), b)
    play(g, "P1 deploy Shove to B2")  # B2 is now full too
    advance(g, lambda g: g.round == 2)
    assert pos(g, a) == "P1:B1Z1"
    assert [d for d in g.history if d.verb == "choose"] == [] or all(
        d.bf is None for d in g.history if d.verb == "choose")


def test_keyword_move_several_cards_one_at_a_time_to_different_battlefields():
    stampede = card("Stampede", ability="instant", effects=[{"when": "reveal", "do": [
        {"move": {"target": {"side": "ally", "where": "here", "pick": "all"}}}]}])
    g = hands_game([[stampede, F1, F2], [F3]])
    a = place_revealed(g, 1, "Filler 1", 1)
    b = place_revealed(g, 1, "Filler 2", 1)
    play(g, "P1 deploy Stampede to B1")
    advance(g, lambda g: g.pending.kind == Kind.TARGET_BATTLEFIELD)
    assert "Filler 1" in g.pending.prompt
    play(g, "P1 choose B2")
    assert pos(g, a) == "P1:B2Z1" and side(g, 1, 1) == ["Filler 2", "Stampede"]  # one at a time
    assert "Filler 2" in g.pending.prompt
    play(g, "P1 choose B3")
    assert pos(g, b) == "P1:B3Z1" and side(g, 1, 1) == ["Stampede"]


def test_keyword_open_zone_is_any_unoccupied_zone():
    g = hands_game([[RECALL, F1, F2], [F3]], [plain(1, zones=3), plain(2), plain(3)])
    place_revealed(g, 1, "Filler 1", 1)
    place_revealed(g, 1, "Filler 2", 1)
    play(g, "P1 deploy Recall to B1")  # B1 now has no open zone
    assert "full" in g.check(parse_decision("P1 deploy Filler 1 to B1")) if g.pending.player == 1 else True
    advance(g, lambda g: g.pending.kind == Kind.TARGET_CARD)
    play(g, "P1 choose P1:B1Z1")  # Filler 1 returns: a zone opens again
    to_deploy(g, 2, 1)
    assert side(g, 1, 1) == ["Filler 2", "Recall"]
    assert g.check(parse_decision("P1 deploy Filler 1 to B1")) is None


def test_keyword_return_revealed_cards_only_with_their_might_removed():
    rec = Recorder({"deploy"}, snap=lambda g: (g.round, g.players[0].spent))
    g = hands_game([[RECALL, F1, F2], [F3]], observers=[rec])
    a = place_revealed(g, 1, "Filler 1", 2, might=5, tokens={CAPTIVE: 2})
    place_revealed(g, 1, card("Above"), 2)
    play(g, "P1 deploy Recall to B1", "P1 deploy Filler 2 to B3")  # Filler 2 is face down at Recall's reveal
    advance(g, lambda g: g.pending.kind == Kind.TARGET_CARD)
    assert sorted(options(g)) == ["P1 choose P1:B2Z1", "P1 choose P1:B2Z2"]
    play(g, "P1 choose P1:B2Z1")
    assert a.loc == Loc.HAND and a.might == 0 and a.tokens == {} and not a.face_up
    assert side(g, 1, 2) == ["Above"]  # collapse
    to_deploy(g, 2, 1)
    play(g, "P1 deploy Filler 1 to B1")  # redeployed later, for its cost
    assert rec.log[-1] == ("deploy", "Filler 1", 0, False, (2, 1))


def test_keyword_reveal_turns_a_card_face_up():
    rec = Recorder({"reveal"}, snap=lambda g: [c.face_up for c in g.board[0][0]])
    g = hands_game([[F1, F2], [F3]], observers=[rec])
    play(g, "P1 deploy Filler 1 to B1", "P1 deploy Filler 2 to B1")
    assert [c.face_up for c in g.board[0][0]] == [False, False]
    advance(g, lambda g: g.round == 2)
    assert [r[-1] for r in rec.log] == [[True, False], [True, True]]


TRACKER = card("Tracker", effects=[{"when": "ally_moved", "do": [{"gain": 10}]}])


def test_keyword_shift_slides_to_the_next_open_zone_not_a_move():
    nudge = card("Nudge", ability="instant", effects=[
        {"when": "reveal", "do": [{"shift": {"target": {"side": "ally", "name": "Filler 1"}}}]}])
    g = hands_game([[nudge, F1, F2, TRACKER], [F3]])
    a = place_revealed(g, 1, "Filler 1", 1, might=3, tokens={SHIELD: 1})
    place_revealed(g, 1, "Filler 2", 1)
    t = place_revealed(g, 1, "Tracker", 2)
    play(g, "P1 deploy Nudge to B1")
    advance(g, lambda g: g.round == 2)
    assert side(g, 1, 1) == ["Filler 2", "Nudge", "Filler 1"]
    assert (a.might, a.tokens) == (3, {SHIELD: 1}) and t.might == 1


def test_keyword_stack_might_combined_top_ability_only_bottom_tokens_removed_owner_chooses_top():
    base = card("Base", might=3, effects=[{"when": "end_of_round", "do": [{"gain": 1}]}])
    stacker = card("Stacker", ability="instant", tokens=["anchor"], effects=[
        {"when": "reveal", "do": [{"stack": {"onto": {"side": "ally", "name": "Base"}}}]}])
    for top in ("Stacker", "Base"):
        rec = Recorder({"move", "stack"})
        g = hands_game([[stacker, base, F1, TRACKER], [F3]], observers=[rec])
        b = place_revealed(g, 1, "Base", 1, tokens={SHIELD: 1})
        t = place_revealed(g, 1, "Tracker", 2)
        play(g, "P1 deploy Stacker to B1", "P1 pass")
        advance(g, lambda g: g.pending.kind == Kind.STACK_TOP)
        assert g.pending.player == 1  # the owner chooses
        assert sorted(options(g)) == ["P1 choose P1:B1Z1", "P1 choose P1:B1Z2"]
        play(g, "P1 choose P1:B1Z2" if top == "Stacker" else "P1 choose P1:B1Z1")
        s = find(g, 1, "Stacker")
        on_top, under = (s, b) if top == "Stacker" else (b, s)
        assert side(g, 1, 1) == [top]
        # might combined (and Base's end-of-round gain when, on top, its ability is active)
        assert on_top.might == 3 + 1 + (top == "Base") and under.might == 0 and under.loc == Loc.UNDER
        assert under.tokens == {}  # the bottom card's specialty tokens are removed
        assert on_top.tokens == ({ANCHOR: 1} if top == "Stacker" else {SHIELD: 1})
        assert rec.of("move") == [] and t.might == 1  # not a move
        advance(g, lambda g: g.round == 3)
        assert on_top.might == (4 + 2 if top == "Base" else 4)  # only the top card's ability


def test_stacked_might_respects_the_top_cards_maximum():
    """Web book: a maximum might can only be exceeded through battlefield effects; combining might
    in a stack is not one, so the top card keeps to its maximum (and keeps what it already has)."""
    capped = card("Capped", might=3, max_might=4)
    stacker = card("Stacker", ability="instant", might=2, effects=[
        {"when": "reveal", "do": [{"stack": {"onto": {"side": "ally", "name": "Capped"}}}]}])
    for top, want in (("Capped", 4), ("Stacker", 5)):
        g = hands_game([[stacker, capped, F1], [F3]])
        place_revealed(g, 1, "Capped", 1)
        play(g, "P1 deploy Stacker to B1", "P1 pass")
        advance(g, lambda g: g.pending.kind == Kind.STACK_TOP)
        play(g, "P1 choose P1:B1Z1" if top == "Capped" else "P1 choose P1:B1Z2")
        assert side(g, 1, 1) == [top] and find(g, 1, top).might == want  # 3 + 2, capped at 4 on Capped
    g = hands_game([[stacker, capped, F1], [F3]])
    place_revealed(g, 1, "Capped", 1, might=6)  # past its maximum already (a battlefield effect)
    play(g, "P1 deploy Stacker to B1", "P1 pass")
    advance(g, lambda g: g.pending.kind == Kind.STACK_TOP)
    play(g, "P1 choose P1:B1Z1")
    assert find(g, 1, "Capped").might == 6  # not raised further, not cut back


def test_keyword_swap_is_not_a_deploy_costs_nothing_new_card_resolves_old_card_loses_might():
    trickster = card("Trickster", might=2, effects=[{"when": "reveal", "do": [{"swap": {}}]}])
    rec = Recorder({"deploy", "reveal", "swap", "might", "stopped"},
                   snap=lambda g: (g.players[0].spent, g.players[0].essence))
    g = hands_game([[trickster, SPARK, F1], [spectre("Wailing Wisp")]], first_player=2)
    play(g, "P2 deploy Wailing Wisp to B1", "P1 deploy Trickster to B1", "P1 pass")
    g.observers.append(rec)
    advance(g, lambda g: g.pending.kind == Kind.CHOOSE_CARD)
    assert sorted(options(g)) == ["P1 choose Filler 1", "P1 choose Spark"]
    play(g, "P1 choose Spark")
    t, s = find(g, 1, "Trickster"), find(g, 1, "Spark")
    assert pos(g, s) == "P1:B1Z1" and s.face_up
    assert s.might == 1 + 1  # its reveal might and its ability (the stop token did not catch it)
    assert t.loc == Loc.HAND and t.might == 0 and not t.face_up
    assert g.players[0].stops[0] == 1
    # No deploy and no reveal of the Spark; no essence paid but the Trickster's own cost.
    assert rec.log == [("swap", "Trickster", "Spark", (1, 1)), ("might", "Spark", 1, "Spark", (1, 1))]


def test_keyword_zone_six_per_battlefield_side():
    g = hands_game([[F1], [F2]])
    assert g.zones == [6, 6, 6]
    for i in range(6):
        place_revealed(g, 1, card(f"Z{i}"), 1)
    assert not g._open(0, 1) and g._open(0, 2)  # each player has their own six zones


def test_keyword_collapse_is_not_a_move_and_keeps_tokens():
    victim = card("Victim")
    keeper = card("Keeper", effects=[{"when": "moved", "do": [{"gain": 10}]}])
    slay = card("Slay", ability="instant", effects=[{"when": "reveal", "do": [
        {"destroy": {"target": {"side": "ally", "name": "Victim", "pick": "all"}}}]}])
    g = hands_game([[slay, TRACKER], [F3]])
    place_revealed(g, 1, victim, 1)
    k = place_revealed(g, 1, keeper, 1, might=4, tokens={SHIELD: 1, CAPTIVE: 2, MOVE: 1})
    t = place_revealed(g, 1, "Tracker", 2)
    play(g, "P1 deploy Slay to B2")
    advance(g, lambda g: g.round == 2)
    assert pos(g, k) == "P1:B1Z1"
    assert (k.might, k.tokens) == (4, {SHIELD: 1, CAPTIVE: 2, MOVE: 1})
    assert t.might == 1  # no "moved" trigger for anyone


# =============================================================================== worked examples
def test_example_eater_of_souls_destroys_soul_of_the_living_then_soul_of_the_powerful():
    """Printed book, "Destroying cards": Eater of Souls is deployed on battlefield 1 where Soul of the
    Living (zone 1) and Soul of the Powerful (zone 2) are; each is destroyed in turn, lowest zone
    first, with the essence, might and collapse after each step."""
    eater = spectre("Eater of Souls")

    def snap(g):
        ps = g.players[0]
        return {"B1": side(g, 1, 1), "pile": [(c.name, c.face_up) for c in ps.destroyed],
                "next_essence": ps.next_adjust, "eater": find(g, 1, eater.name).might}
    rec = Recorder({"destroy", "might", "round_start"}, snap=snap)
    g = hands_game([[SOTL, SOTP, eater, F1], [F2]])
    play(g, f"P1 deploy {SOTL.name} to B1", "P1 pass")  # round 1 (2 essence)
    to_deploy(g, 2, 1)
    play(g, f"P1 deploy {SOTP.name} to B1", "P1 pass")  # round 2 (3 essence)
    to_deploy(g, 5, 1)
    assert side(g, 1, 1) == [SOTL.name, SOTP.name] and g.players[0].essence == 6
    g.observers.append(rec)
    play(g, f"P1 deploy {eater.name} to B1")  # round 5: 6 essence
    advance(g, lambda g: g.round == 6)
    sl, sp, ea = SOTL.name, SOTP.name, eater.name
    assert rec.log == [
        # Soul of the Living is destroyed first (lowest zone), its might removed ...
        ("destroy", sl, ea, {"B1": [sl, sp, ea], "pile": [], "next_essence": 0, "eater": 2}),
        # ... 2 might to the Eater for its ability (web book: the destroying card first) ...
        ("might", ea, 2, ea, {"B1": [sl, sp, ea], "pile": [], "next_essence": 0, "eater": 4}),
        # ... its own ability added 1 essence next round, it is face up in the destroy pile and the
        # cards collapsed before Soul of the Powerful is destroyed next:
        ("destroy", sp, ea, {"B1": [sp, ea], "pile": [(sl, True)], "next_essence": 1, "eater": 4}),
        ("might", ea, 2, ea, {"B1": [sp, ea], "pile": [(sl, True)], "next_essence": 1, "eater": 6}),
        # Soul of the Powerful's ability: 1 might to all your cards (not to itself, it is leaving)
        ("might", ea, 1, sp, {"B1": [sp, ea], "pile": [(sl, True)], "next_essence": 1, "eater": 7}),
        # round 6 starts with the Eater alone, both souls in the pile, 7 + 1 essence
        ("round_start", {"B1": [ea], "pile": [(sl, True), (sp, True)], "next_essence": 0, "eater": 7}),
    ]
    assert g.players[0].essence == 7 + 1
    assert find(g, 1, sp).might == 0


def test_example_zones_2_to_4_vacate_and_the_zone_5_card_slides_to_zone_2_with_its_tokens():
    """Printed book, "Deploy / Collapse": on battlefield 3 the cards in zones 2, 3 and 4 leave (here:
    destroyed, returned and moved); the card in zone 5 slides into zone 2 keeping all its tokens."""
    vacate = card("Vacate", ability="instant", effects=[{"when": "reveal", "do": [
        {"destroy": {"target": {"side": "ally", "name": "Doomed"}}},
        {"return": {"target": {"side": "ally", "name": "Homesick"}}},
        {"move": {"target": {"side": "ally", "name": "Wanderer"}}}]}])
    keeper = card("Keeper", effects=[{"when": "moved", "do": [{"gain": 10}]}])
    g = hands_game([[vacate], [F1]])
    for name in ("First", "Doomed", "Homesick", "Wanderer"):
        place_revealed(g, 1, card(name), 3)
    k = place_revealed(g, 1, keeper, 3, might=4, tokens={SHIELD: 1, CAPTIVE: 2, MOVE: 1})
    assert pos(g, k) == "P1:B3Z5"
    play(g, "P1 deploy Vacate to B2")
    advance(g, lambda g: g.pending.kind == Kind.TARGET_BATTLEFIELD)
    play(g, "P1 choose B1")
    assert side(g, 1, 3) == ["First", "Keeper"] and pos(g, k) == "P1:B3Z2"
    assert k.might == 4 and k.tokens == {SHIELD: 1, CAPTIVE: 2, MOVE: 1}  # tokens kept, not a move


def test_example_fountain_of_janus_extra_might_and_essence_next_round():
    """Printed book, "Battlefields": the Fountain of Janus gives 1 extra might whenever a revealed
    card there gains might from an ability, and costs 1 essence next round per card there that
    gained might from an ability this round."""
    fountain = catalog_battlefield("The Fountain of Janus")
    rec = Recorder({"might"})
    ess = Recorder({"round_start"}, snap=lambda g: [p.essence for p in g.players])
    g = hands_game([[WATCHER, SPARK, F1], [F2, F3]], [fountain, plain(2), plain(3)], observers=[rec, ess])
    play(g, "P1 deploy Watcher to B1", "P1 deploy Spark to B1", "P2 deploy Filler 2 to B1", "P2 pass")
    advance(g, lambda g: g.round == 3)
    assert rec.log == [
        ("might", "Watcher", 1 + 1, "Watcher"),  # its own reveal ability, +1 extra
        ("might", "Spark", 1 + 1, "Spark"),
        ("might", "Watcher", 1 + 1, "Watcher"),  # triggered by the Spark's reveal, +1 extra again
    ]
    assert (find(g, 1, "Watcher").might, find(g, 1, "Spark").might) == (5, 3)
    assert find(g, 2, "Filler 2").might == 1  # reveal might is not "from an ability"
    # round 2: P1 had two cards gain might from abilities there: 3 - 2; round 3: nobody gained in
    # round 2, so no penalty.
    assert [r[-1] for r in ess.log[:3]] == [[2, 2], [1, 3], [4, 4]]


def test_fountain_bonus_applies_only_to_gains_from_card_abilities():
    spring = battlefield("Test Spring", rules={"ability_might_bonus": 1}, effects=[
        {"when": "end_of_round", "do": [
            {"might": {"target": {"side": "ally", "where": "here", "pick": "all"}, "add": 1}}]}])
    rec = Recorder({"might"}, snap=lambda g: g.phase)
    g = hands_game([[SPARK, F1], [F2]], [spring, plain(2), plain(3)], observers=[rec])
    play(g, "P1 deploy Spark to B1", "P1 pass")
    advance(g, lambda g: g.round == 2)
    assert rec.log == [("might", "Spark", 2, "Spark", Phase.REVEAL),  # card ability: +1 extra
                       ("might", "Spark", 1, None, Phase.END)]  # battlefield effect: no bonus


def test_example_flank_attack_moves_horse_archers_and_collapses():
    """Printed book, "Moving cards": Flank Attack is deployed (battlefield 3) and moves Horse Archers
    from battlefield 3 to 1; Flank Attack collapses on battlefield 3 from zone 3 to 2."""
    flank = card("Flank Attack", ability="instant", effects=[{"when": "reveal", "do": [
        {"move": {"target": {"side": "ally"}}}, {"might": {"target": "target", "add": 1}}]}])
    archers = card("Horse Archers", might=2)
    g = hands_game([[flank], [F1]])
    place_revealed(g, 1, card("Light Infantry"), 3)
    h = place_revealed(g, 1, archers, 3)
    play(g, "P1 deploy Flank Attack to B3")
    f = find(g, 1, "Flank Attack")
    assert pos(g, f) == "P1:B3Z3"
    advance(g, lambda g: g.pending.kind == Kind.TARGET_CARD)
    play(g, "P1 choose P1:B3Z2", "P1 choose B1")
    assert pos(g, h) == "P1:B1Z1" and h.might == 2 + 1
    assert pos(g, f) == "P1:B3Z2"


# =============================================================================== engine conventions
def test_a_decision_with_one_legal_answer_is_taken_by_the_engine_and_may_be_written_or_left_out():
    push = card("Push", ability="instant", effects=[
        {"when": "reveal", "do": [{"move": {"target": {"side": "ally", "name": "Filler 1"}}}]}])
    g = hands_game([[push, F1], [F2]], [plain(1), plain(2), plain(3, zones=1)])
    a = place_revealed(g, 1, "Filler 1", 1)
    place_revealed(g, 1, card("Wall"), 3)
    rec = Recorder({"move"})
    g.observers.append(rec)
    play(g, "P1 deploy Push to B2")
    advance(g, lambda g: g.round == 2)
    # One card to move (Filler 1) and one open destination (B2): both taken without asking.
    assert rec.log == [("move", "Filler 1", 0, 1)] and pos(g, a) == "P1:B2Z2"
    assert [str(d) for d in g.history if d.actor == 1] == ["P1 deploy Push to B2"]
    # ... and noted as answers the engine took itself, which a log may also write out
    taken = [str(d) for d in map(forced_choice, g.auto) if d.actor == 1]
    assert "P1 choose P1:B1Z1" in taken and taken[taken.index("P1 choose P1:B1Z1") + 1] == "P1 choose B2"


# =============================================================================== more clauses
def test_reveal_face_down_cards_abilities_are_not_active():
    g = hands_game([[SPARK, WATCHER], [F1]])
    play(g, "P1 deploy Spark to B1", "P1 deploy Watcher to B1")
    advance(g, lambda g: g.round == 2)
    # The Watcher was face down when the Spark was revealed: it did not trigger.
    assert find(g, 1, "Watcher").might == 1 + 1


def test_battlefield_effects_apply_to_each_player_and_milestones_once():
    summit = battlefield("Summit", effects=[
        {"when": "reveal", "once": "game", "do": [{"might": {"target": "subject", "add": 2}}]},
        {"when": "reveal", "once": "player", "do": [{"essence": {"add": 1}}]}])
    ess = Recorder({"round_start"}, snap=lambda g: [p.essence for p in g.players])
    g = hands_game([[F1, F2, F3], [F4, SPARK, SPARK2]], [summit, plain(2), plain(3)], observers=[ess])
    play(g, "P1 deploy Filler 1 to B1", "P1 deploy Filler 2 to B1",
         "P2 deploy Filler 4 to B1", "P2 deploy Spark to B1")
    to_deploy(g, 2, 1)
    # The first player to reveal a card there (a milestone: once in the whole game) ...
    assert [find(g, 1, n).might for n in ("Filler 1", "Filler 2")] == [1 + 2, 1]
    assert find(g, 2, "Filler 4").might == 1
    # ... "the first time you ..." (once per player): each player gets it once.
    assert ess.log[1][-1] == [3 + 1, 3 + 1]
    play(g, "P1 deploy Filler 3 to B1")  # P1's second round there: no second bonus
    advance(g, lambda g: g.round == 3)
    assert ess.log[2][-1] == [4, 4]


def test_three_player_game_nobody_wins_two_battlefields_total_might_decides():
    g = _final({1: [9, 0, 0, 0], 2: [0, 9, 0, 0], 3: [0, 0, 5, 5]}, n=3)
    assert g.winner == 3  # player 3 wins two
    g = _final({1: [9, 0, 0, 3], 2: [0, 9, 0, 3], 3: [0, 0, 5, 0]}, n=3)
    assert g.winner is None  # one each, a tie on B4, totals 12 / 12 / 5: a draw
    g = _final({1: [9, 0, 0, 4], 2: [0, 9, 0, 4], 3: [0, 0, 20, 4]}, n=3)
    assert g.winner == 3  # one each, a 3-way tie on B4: player 3 has the most might in total


def test_keyword_deploy_from_the_discard_pile_by_a_discarded_cards_own_ability():
    ashigaru = card("Ashigaru", effects=[{"when": "discarded", "do": [
        {"deploy": {"card": "self", "from": "discard", "to": "choose"}}]}])
    shed = card("Shed", ability="instant", effects=[{"when": "reveal", "do": [{"discard": {"count": 1}}]}])
    rec = Recorder({"deploy", "reveal"})
    g = hands_game([[shed, ashigaru, F1], [F2]], observers=[rec])
    play(g, "P1 deploy Shed to B1", "P1 pass")
    advance(g, lambda g: g.pending.kind == Kind.DISCARD)
    play(g, "P1 choose Ashigaru", "P1 choose B2")
    a = find(g, 1, "Ashigaru")
    assert pos(g, a) == "P1:B2Z1" and a.face_up and a.might == 1
    assert rec.log[-2:] == [("deploy", "Ashigaru", 1, True), ("reveal", "Ashigaru")]


def test_keyword_swap_from_the_deck_puts_the_old_card_in_the_deck_and_shuffles():
    changeling = card("Changeling", effects=[{"when": "reveal", "do": [{"swap": {"from": "deck"}}]}])
    x, y = filler("Card X"), filler("Card Y")
    rec = Recorder({"swap", "shuffle"}, snap=_deck_state)
    g = game([[changeling, F1, F2, F3, SPARK, x, y], [F4, F1]])
    deal(g, {1: ["Changeling", "Filler 1", "Filler 2", "Filler 3"], 2: ["Filler 4"]})
    deal(g, {1: ["Card X", "Card Y"]})
    play(g, "P1 keep Card X")  # Card Y to the bottom; Spark unknown
    g.observers.append(rec)
    play(g, "P1 deploy Changeling to B1", "P1 pass")
    advance(g, lambda g: g.pending.kind == Kind.CHOOSE_CARD)
    assert sorted(options(g)) == ["P1 choose Card Y", "P1 choose Spark"]
    play(g, "P1 choose Spark")
    assert find(g, 1, "Spark").might == 2 and pos(g, find(g, 1, "Spark")) == "P1:B1Z1"
    assert rec.log == [("shuffle", 1, ([], ["Card Y", "Changeling"], [])),
                       ("swap", "Changeling", "Spark", ([], ["Card Y", "Changeling"], []))]


def test_destroy_a_destroyed_cards_own_conditional_can_return_itself_zombie_horde():
    horde = spectre("Zombie Horde")
    g = hands_game([[PURGE, horde], [F1]])
    z = place_revealed(g, 1, horde.name, 1)
    play(g, "P1 deploy Purge to B1")
    advance(g, lambda g: g.round == 2)
    assert z.loc == Loc.HAND


def test_reveal_opponents_triggered_abilities_after_allies_before_battlefield_effects():
    rival = card("Rival", effects=[{"when": "opponent_revealed", "do": [{"gain": 1}]}])
    cheer = card("Cheer", effects=[{"when": "ally_revealed", "do": [{"gain": 1}]}])
    bonfire = battlefield("Bonfire", effects=[
        {"when": "reveal", "do": [{"might": {"target": "subject", "add": 1}}]}])
    rec = Recorder({"might"})
    g = hands_game([[SPARK, cheer], [rival, F1]], [bonfire, plain(2), plain(3)], observers=[rec])
    place_revealed(g, 1, "Cheer", 2)
    place_revealed(g, 2, "Rival", 3)
    play(g, "P1 deploy Spark to B1")
    advance(g, lambda g: g.round == 2)
    assert [(r[1], r[3]) for r in rec.log] == [
        ("Spark", "Spark"), ("Cheer", "Cheer"), ("Rival", "Rival"), ("Spark", None)]
