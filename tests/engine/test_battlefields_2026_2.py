"""Catalog 2026.2's new battlefields (engine/bfe/data/catalog/2026.2/battlefields.yaml): each effect of
each one on a real game driven by real decisions (scenario.py), the battlefield phase triggers
(begin_of_round, draft, command, stop), and a random-play smoke test over the whole 2026.2 catalog.
Battlefield 1 is the one under test unless a test says otherwise."""

from __future__ import annotations

import pytest
import yaml
from scenario import (
    CATALOG,
    CAV,
    NEXT_ROOT,
    SPE,
    VAM,
    at,
    deploy_round,
    finish_round,
    give,
    kind,
    new_game,
    play,
    set_essence,
    set_hand,
    settle,
    side,
    to_deploy,
)

from engine.bfe.catalog import Catalog, CatalogError, compile_battlefield, load_catalog
from engine.bfe.decisions import Kind, parse_decision
from engine.bfe.observe import GameObserver
from engine.bfe.selfplay import self_play
from engine.bfe.state import Phase
from engine.replay import replay

OASIS, WALLS = "Oasis of Plenty", "The Closing Walls"
FORGE, LAURELS, TOWER = "The Waning Forge", "The Victor's Laurels", "The Tower of Ascent"
CROWN, LONELY, ALTAR = "The Cursed Crown", "The Lonely Champion", "The Altar of the Creators"
SCALES, SILENCE, DAWN = "The Scales of Judgement", "The Hall of Silence", "The Dawn Spring"
CROSSROADS, COUNCIL, PASS = "The Crossroads", "The War Council", "The Frozen Pass"
MEEK, OBSERVATORY, GATE = "The Field of the Meek", "The Observatory", "The Iron Gate"
GROVE = "The Whispering Grove"
NEW = (FORGE, LAURELS, TOWER, CROWN, LONELY, ALTAR, SCALES, SILENCE, DAWN, CROSSROADS, COUNCIL, PASS,
       MEEK, OBSERVATORY, GATE, GROVE)


def _raw() -> list[dict]:
    return yaml.safe_load((NEXT_ROOT / "battlefields.yaml").read_text(encoding="utf-8"))["battlefields"]


def _catalog() -> Catalog:
    """The card-test catalog plus the 2026.2 battlefields (compiled as scenario._load does)."""
    bfs = dict(CATALOG.battlefields)
    for i, raw in enumerate(_raw()):
        bf = compile_battlefield(raw, "battlefields.yaml", i)
        bfs[bf.name] = bf
    return Catalog("2026.2", "battlefield tests", "", dict(CATALOG.cards), dict(CATALOG.decks), bfs)


CAT = _catalog()


def game(bf: str, p1: str = SPE, p2: str = CAV, **kw):
    return new_game(p1, p2, bfs=(bf, OASIS, WALLS), catalog=CAT, **kw)


def mights(g, p, b):
    return [c.might for c in g.board[b - 1][p - 1]]


def essence(g):
    """Settle the draws and drafts (the next round's begin and draft phases have run); essence."""
    settle(g)
    return [ps.essence for ps in g.players]


def to_round(g, r):
    while g.round < r:
        finish_round(g)
    assert g.round == r and not g.over


# ---------------------------------------------------------------------------- the catalog
def test_catalog_2026_2_has_27_battlefields_with_five_and_six_zone_ones_and_two_effects_each():
    cat = load_catalog("2026.2")
    assert len(cat.battlefields) == 27 and set(NEW) <= set(cat.battlefields)
    assert len(load_catalog("2026.1").battlefields) == 11  # the old deck is unchanged
    zones = {cat.battlefields[n].zones for n in NEW}
    assert zones == {5, 6}
    for name in NEW:
        assert len(cat.battlefields[name].text) == 2, name
    assert [b["name"] for b in _raw()] == list(NEW)


def test_between_all_27_battlefields_effects_fire_in_every_phase():
    triggers = set()
    for bf in load_catalog("2026.2").battlefields.values():
        triggers |= set(bf.effects)
    phases = {"begin": {"begin_of_round"}, "draft": {"draft"}, "command": {"command"},
              "deploy": {"deploy", "first_deploy", "fill"}, "reveal": {"reveal"},
              "end": {"end_of_round"}, "end of game": {"end_of_game"}}
    assert all(triggers & want for want in phases.values())


def test_milestones_first_player_and_first_time_are_on_several_new_battlefields():
    once = {"game": 0, "player": 0}
    for raw in _raw():
        for e in raw.get("effects", []):
            if "once" in e:
                once[e["once"]] += 1
    assert once["game"] >= 3 and once["player"] >= 3


# ---------------------------------------------------------------------------- The Waning Forge
def test_forge_each_new_card_here_weakens_your_previous_one():
    g = game(FORGE)
    deploy_round(g, {1: [("Zombie Horde", 1), ("Zombie Horde", 1), ("Soul of the Living", 1),
                         ("Soul of the Living", 2), ("Soul of the Living", 2)],
                     2: [("Cataphracts", 1)]})
    assert mights(g, 1, 1) == [3 - 1, 3 - 1, 1]
    assert mights(g, 1, 2) == [1, 1]  # elsewhere: no effect
    assert mights(g, 2, 1) == [2]  # the opponent's first card here has nothing below it


def test_forge_your_8_cost_card_costs_2_less_here():
    g = game(FORGE)
    give(g, 1, "The Pale King", "Death Knight")
    set_essence(g, 1, 6)
    assert g.check(parse_decision("P1 deploy The Pale King to B1")) is None
    assert "costs 8 essence on battlefield 2" in g.check(parse_decision("P1 deploy The Pale King to B2"))
    assert "costs 7 essence on battlefield 1" in g.check(parse_decision("P1 deploy Death Knight to B1"))
    play(g, "P1 deploy The Pale King to B1")
    assert g.players[0].essence == 0 and side(g, 1, 1) == ["The Pale King"]


# ---------------------------------------------------------------------------- The Victor's Laurels
def test_laurels_from_round_6_the_leader_here_adds_an_essence_at_the_start_of_each_round():
    g = game(LAURELS)
    deploy_round(g, {1: [("Zombie Horde", 1)]})
    to_round(g, 5)
    assert [ps.essence for ps in g.players] == [6, 6]  # round 5: not yet
    to_round(g, 6)
    assert [ps.essence for ps in g.players] == [7 + 1, 7]


def test_laurels_the_first_player_to_lead_here_at_the_end_of_round_7_to_9_adds_three():
    g = game(LAURELS)
    deploy_round(g, {1: [("Zombie Horde", 1)]})
    to_round(g, 7)
    assert [ps.essence for ps in g.players] == [8 + 1, 8]  # led at the end of round 6: no reward
    to_round(g, 8)
    assert [ps.essence for ps in g.players] == [9 + 1 + 3, 9]
    to_round(g, 9)
    assert [ps.essence for ps in g.players] == [10 + 1, 10]  # the reward is taken once in the game


# ---------------------------------------------------------------------------- The Tower of Ascent
def test_tower_each_new_card_here_strengthens_your_previous_one():
    g = game(TOWER)
    deploy_round(g, {1: [("Zombie Horde", 1), ("Zombie Horde", 1), ("Soul of the Living", 1),
                         ("Soul of the Living", 2), ("Soul of the Living", 2)],
                     2: [("Cataphracts", 1)]})
    assert mights(g, 1, 1) == [3 + 1, 3 + 1, 1]
    assert mights(g, 1, 2) == [1, 1] and mights(g, 2, 1) == [2]
    finish_round(g)
    assert mights(g, 1, 1) == [4, 4, 1]  # not full: no penalty at the end of the round


def test_tower_filling_every_zone_here_costs_each_card_a_might_every_round():
    g = game(TOWER)
    six = [("Soul of the Living", 1)] * 4 + [("Zombie Horde", 1)] * 2
    deploy_round(g, {1: six})
    finish_round(g)
    assert g.round == 2 and mights(g, 1, 1) == [2 - 1, 2 - 1, 2 - 1, 2 - 1, 4 - 1, 3 - 1]
    finish_round(g)
    assert mights(g, 1, 1) == [0, 0, 0, 0, 2, 1]


# ---------------------------------------------------------------------------- The Cursed Crown
def test_crown_holding_the_first_player_token_with_a_card_here_costs_an_essence_each_round():
    g = game(CROWN)
    deploy_round(g, {1: [("Zombie Horde", 1)]})
    assert essence(g) == [3, 3]  # round 2: player 2 holds the token but has no card here
    finish_round(g)
    assert g.round == 3 and g.first == 1 and [ps.essence for ps in g.players] == [4 - 1, 4]
    assert CAT.battlefields[CROWN].zones == 5


def test_crown_a_card_you_reveal_here_while_you_hold_the_token_loses_a_might():
    g = game(CROWN)
    deploy_round(g, {1: [("Zombie Horde", 1), ("Zombie Horde", 2)], 2: [("Cataphracts", 1)]})
    assert mights(g, 1, 1) == [3 - 1] and mights(g, 1, 2) == [3]
    assert mights(g, 2, 1) == [2]  # player 2 did not hold the token


# ---------------------------------------------------------------------------- The Lonely Champion
def test_lonely_champion_a_single_card_here_gains_a_might_at_the_end_of_each_round():
    g = game(LONELY)
    deploy_round(g, {1: [("Zombie Horde", 1)], 2: [("Cataphracts", 1), ("Cataphracts", 1)]})
    assert mights(g, 2, 1) == [3, 3]
    settle(g)
    assert mights(g, 1, 1) == [3 + 1] and mights(g, 2, 1) == [3, 3]  # two cards: no gain
    finish_round(g)
    assert mights(g, 1, 1) == [5]


def test_lonely_champion_a_single_card_here_gives_each_opponent_an_essence_each_round():
    g = game(LONELY)
    deploy_round(g, {1: [("Zombie Horde", 1)], 2: [("Cataphracts", 1), ("Cataphracts", 1)]})
    assert essence(g) == [3, 3 + 1]
    finish_round(g)
    assert [ps.essence for ps in g.players] == [4, 4 + 1]


# ---------------------------------------------------------------------------- The Altar of the Creators
def test_altar_a_sacrifice_here_at_the_start_of_your_command_turn_adds_two_essence():
    g = game(ALTAR, CAV, SPE)
    deploy_round(g, {1: [("Cataphracts", 1), ("Cataphracts", 1)]})
    settle(g)
    assert g.round == 2 and kind(g) == Kind.MAY and g.pending.player == 1
    play(g, "P1 yes", "P1 choose P1:B1Z1")
    assert [c.name for c in g.players[0].destroyed] == ["Cataphracts"] and side(g, 1, 1) == ["Cataphracts"]
    to_deploy(g)
    assert [ps.essence for ps in g.players] == [3, 3]  # this round's essence is unchanged
    finish_round(g)
    assert g.round == 3 and [ps.essence for ps in g.players] == [4 + 2, 4]


def test_altar_no_card_here_no_question():
    g = game(ALTAR, CAV, SPE)
    deploy_round(g, {1: [("Cataphracts", 2)]})
    settle(g)
    assert g.round == 2 and kind(g) == Kind.DEPLOY


def test_altar_at_the_end_of_the_game_one_card_here_gains_a_might_per_destroyed_card():
    g = game(ALTAR, CAV, SPE)
    deploy_round(g, {1: [("Cataphracts", 1), ("Cataphracts", 1)]})
    settle(g)
    play(g, "P1 yes", "P1 choose P1:B1Z1")
    assert mights(g, 1, 1) == [3]
    while not g.over:
        finish_round(g)  # (answers 'no' to every later sacrifice)
    assert len(g.players[0].destroyed) == 1
    assert mights(g, 1, 1) == [3 + 1] and g.final_might[0][0] == 4


def test_altar_repayment_is_capped_at_four():
    g = game(ALTAR, SPE, CAV)
    deploy_round(g, {1: [("Zombie Horde", 1), ("Soul of the Living", 2), ("Soul of the Living", 2),
                         ("Soul of the Living", 2), ("Soul of the Living", 2), ("Soul of the Powerful", 2),
                         ("Eater of Souls", 2)]})
    settle(g)  # (filling the Oasis drew a card in the deploy phase)
    play(g, "P1 pass", "P2 pass")
    settle(g)
    assert len(g.players[0].destroyed) == 5  # the Eater of Souls destroyed 5 cards on B2
    assert mights(g, 1, 1) == [3 + 1]  # the Soul of the Powerful's +1
    while not g.over:
        finish_round(g)
    assert mights(g, 1, 1) == [3 + 1 + 4]


# ---------------------------------------------------------------------------- The Scales of Judgement
def test_scales_as_many_cards_here_as_in_hand_one_card_here_gains_a_might():
    g = game(SCALES)
    set_hand(g, 1, "Zombie Horde", "Zombie Horde", "Soul of the Living", "Soul of the Living")
    set_hand(g, 2, "Cataphracts", "Archers", "Camel Riders", "Outrider")
    deploy_round(g, {1: [("Zombie Horde", 1), ("Zombie Horde", 1)], 2: [("Cataphracts", 1)]},
                 give_cards=False)
    # End of round 1: player 1 has 2 cards here and 2 in hand: balanced; player 2 has 1 and 3.
    assert kind(g) == Kind.TARGET_CARD and g.pending.player == 1
    play(g, "P1 choose P1:B1Z2")
    assert mights(g, 1, 1) == [3, 3 + 1] and mights(g, 2, 1) == [2]


def test_scales_after_your_draft_fewer_cards_in_hand_than_here_draws_one():
    g = game(SCALES)
    set_hand(g, 1, "Soul of the Living", "Soul of the Living", "Soul of the Living", "Soul of the Living")
    deploy_round(g, {1: [("Soul of the Living", 1)] * 4, 2: [("Cataphracts", 1)]}, give_cards=False)
    n2 = len(g.players[1].hand)
    settle(g)
    assert g.round == 2
    assert len(g.players[0].hand) == 1 + 1  # the draft, then the scales: 1 in hand < 4 here
    assert len(g.players[1].hand) == n2 + 1  # the draft only


# ---------------------------------------------------------------------------- The Hall of Silence
def test_silence_placing_a_stop_token_here_costs_three_essence_next_round():
    g = game(SILENCE, SPE, VAM)
    deploy_round(g, {1: [("Wailing Wisp", 1)], 2: [("Bat Swarm", 2)]})
    settle(g)  # (player 1's first reveal here drew a card)
    assert g.players[1].stops == [1, 0, 0] and g.players[0].stops == [0, 1, 0]
    assert essence(g) == [max(0, 3 - 3), 3]


def test_silence_the_first_time_you_reveal_a_card_here_you_draw():
    g = game(SILENCE)
    deploy_round(g, {1: [("Soul of the Living", 1), ("Soul of the Living", 1), ("Zombie Horde", 2)],
                     2: [("Cataphracts", 1)]})
    n1, n2 = len(g.players[0].hand), len(g.players[1].hand)
    assert kind(g) == Kind.CHANCE_DRAW and g.phase == Phase.REVEAL  # player 1's first reveal here
    settle(g)
    # Each player drew once in the reveal phase (not for the second card), then drafted one.
    assert len(g.players[0].hand) == n1 + 1 + 1 and len(g.players[1].hand) == n2 + 1 + 1
    deploy_round(g, {1: [("Zombie Horde", 1)]})
    settle(g)
    assert len(g.players[0].hand) == n1 + 2 + 1  # no draw the second round either: the draft only


# ---------------------------------------------------------------------------- The Dawn Spring
def test_dawn_spring_a_card_here_adds_an_essence_now_at_the_start_of_each_round():
    g = game(DAWN)
    deploy_round(g, {1: [("Zombie Horde", 1)], 2: [("Cataphracts", 2)]})
    assert essence(g) == [3 + 1, 3]
    finish_round(g)
    assert [ps.essence for ps in g.players] == [4 + 1, 4]


def test_dawn_spring_the_first_player_to_reveal_a_6_cost_here_adds_two_essence():
    g = game(DAWN)
    deploy_round(g, {1: [("Eater of Souls", 1)], 2: [("Clibanarii", 1)]})
    assert essence(g) == [3 + 1 + 2, 3 + 1]  # both have a card here; only player 1 was first


# ---------------------------------------------------------------------------- The Crossroads
def test_crossroads_after_your_draft_leading_here_adds_an_essence_now():
    g = game(CROSSROADS)
    deploy_round(g, {1: [("Zombie Horde", 1)], 2: [("Cataphracts", 1), ("Cataphracts", 2)]})
    assert essence(g) == [3 + 1, 3]
    finish_round(g)
    assert [ps.essence for ps in g.players] == [4 + 1, 4]


def test_crossroads_the_first_time_you_reveal_a_5_cost_here_it_gains_two():
    g = game(CROSSROADS)
    deploy_round(g, {1: [("Devourer of Souls", 1), ("Ossuary Knight", 1), ("Taker of Souls", 1)],
                     2: [("Azatan Nobles", 1)]})
    play(g, "P1 no")  # the Devourer of Souls does not destroy
    assert mights(g, 1, 1) == [3, 4 + 2, 4]
    assert mights(g, 2, 1) == [4 + 2]


# ---------------------------------------------------------------------------- The War Council
def test_war_council_first_command_turn_with_two_cards_here_gives_a_move_token():
    g = game(COUNCIL)
    deploy_round(g, {1: [("Zombie Horde", 1), ("Zombie Horde", 1)]})
    settle(g)
    assert g.round == 2 and kind(g) == Kind.TARGET_CARD and g.pending.player == 1
    play(g, "P1 choose P1:B1Z2")
    assert at(g, "P1:B1Z2").tokens.get("move") == 1
    assert kind(g) == Kind.COMMAND
    play(g, "P1 move P1:B1Z2 to B2")
    assert side(g, 1, 1) == ["Zombie Horde"] and side(g, 1, 2) == ["Zombie Horde"]
    deploy_round(g, {1: [("Soul of the Living", 1)]})
    settle(g)
    assert g.round == 3 and kind(g) == Kind.DEPLOY  # two cards here again, but only the first time


def test_war_council_leading_here_at_the_end_of_round_8_each_card_gains_one():
    g = game(COUNCIL)
    deploy_round(g, {1: [("Zombie Horde", 1)], 2: [("Camel Riders", 1)]})
    to_round(g, 8)
    assert mights(g, 1, 1) == [3] and mights(g, 2, 1) == [2]
    to_round(g, 9)
    assert mights(g, 1, 1) == [4] and mights(g, 2, 1) == [2]
    to_round(g, 10)
    assert mights(g, 1, 1) == [4]


# ---------------------------------------------------------------------------- The Frozen Pass
def test_frozen_pass_cards_of_cost_4_or_more_cost_one_less_here():
    g = game(PASS)
    give(g, 1, "Devourer of Souls", "Soul of the Living")
    set_essence(g, 1, 3)
    assert g.check(parse_decision("P1 deploy Devourer of Souls to B1")) is None
    assert "costs 4 essence on battlefield 2" in g.check(parse_decision("P1 deploy Devourer of Souls to B2"))
    set_essence(g, 1, 4)
    play(g, "P1 deploy Devourer of Souls to B1", "P1 deploy Soul of the Living to B1")
    assert g.players[0].essence == 4 - 3 - 1


def test_frozen_pass_cards_of_cost_4_or_more_revealed_here_lose_one():
    g = game(PASS)
    deploy_round(g, {1: [("Ossuary Knight", 1), ("Soul of the Living", 1), ("Taker of Souls", 2)]})
    assert mights(g, 1, 1) == [4 - 1, 1] and mights(g, 1, 2) == [4]


# ---------------------------------------------------------------------------- The Field of the Meek
def test_meek_at_the_end_of_the_game_cards_here_with_two_or_less_might_gain_one():
    g = game(MEEK)
    deploy_round(g, {1: [("Soul of the Living", 1), ("Zombie Horde", 1), ("Soul of the Living", 2)]})
    while not g.over:
        finish_round(g)
    assert mights(g, 1, 1) == [1 + 1, 3] and mights(g, 1, 2) == [1]
    assert g.final_might[0][:2] == [5, 1]


def test_meek_the_first_player_with_three_cards_here_draws_one():
    g = game(MEEK)
    deploy_round(g, {1: [("Soul of the Living", 1)] * 3, 2: [("Cataphracts", 1)] * 3})
    n1, n2 = len(g.players[0].hand), len(g.players[1].hand)
    settle(g)
    assert len(g.players[0].hand) == n1 + 1 + 1  # the milestone's draw and the draft
    assert len(g.players[1].hand) == n2 + 1  # second to three cards: the draft only


# ---------------------------------------------------------------------------- The Observatory
def test_observatory_the_first_draft_with_two_cards_here_draws_one():
    g = game(OBSERVATORY)
    deploy_round(g, {1: [("Soul of the Living", 1), ("Soul of the Living", 1)], 2: [("Cataphracts", 1)]})
    n1, n2 = len(g.players[0].hand), len(g.players[1].hand)
    settle(g)
    assert len(g.players[0].hand) == n1 + 1 + 1 and len(g.players[1].hand) == n2 + 1
    finish_round(g)
    assert len(g.players[0].hand) == n1 + 3  # round 3: the draft only


def test_observatory_cards_revealed_here_from_round_8_gain_one():
    g = game(OBSERVATORY)
    to_round(g, 7)
    deploy_round(g, {1: [("Zombie Horde", 1)]})
    assert mights(g, 1, 1) == [3]
    finish_round(g)
    deploy_round(g, {1: [("Zombie Horde", 1), ("Soul of the Living", 2)]})
    assert mights(g, 1, 1) == [3, 3 + 1] and mights(g, 1, 2) == [1]


# ---------------------------------------------------------------------------- The Iron Gate
def test_iron_gate_shields_your_cards_here_at_the_end_of_round_4():
    g = game(GATE)
    deploy_round(g, {1: [("Zombie Horde", 1), ("Soul of the Living", 2)]})
    to_round(g, 4)
    assert at(g, "P1:B1Z1").tokens.get("shield", 0) == 0
    to_round(g, 5)
    assert at(g, "P1:B1Z1").tokens.get("shield") == 1 and at(g, "P1:B2Z1").tokens.get("shield", 0) == 0


def test_iron_gate_cards_revealed_while_your_five_zones_here_are_full_gain_one():
    g = game(GATE)
    deploy_round(g, {1: [("Soul of the Living", 1)] * 4 + [("Zombie Horde", 2)],
                     2: [("Cataphracts", 1)]})
    assert mights(g, 1, 1) == [1, 1, 1, 1] and mights(g, 2, 1) == [2]  # 4 of 5 zones: no gain
    finish_round(g)
    deploy_round(g, {1: [("Zombie Horde", 1)]})
    assert mights(g, 1, 1) == [1, 1, 1, 1, 3 + 1]


# ---------------------------------------------------------------------------- The Whispering Grove
def test_grove_no_card_here_while_an_opponent_has_one_adds_an_essence_at_your_command_turn():
    g = game(GROVE)
    deploy_round(g, {1: [("Zombie Horde", 2)], 2: [("Cataphracts", 1)]})
    assert essence(g) == [3 + 1, 3]


def test_grove_at_the_end_of_round_9_your_cards_here_with_5_or_more_might_lose_one():
    g = game(GROVE)
    deploy_round(g, {1: [("Death Knight", 1), ("Zombie Horde", 1)]})
    to_round(g, 9)
    assert mights(g, 1, 1) == [6, 3]
    to_round(g, 10)
    assert mights(g, 1, 1) == [5, 3]


# ---------------------------------------------------------------------------- phase triggers
def test_phase_triggers_begin_before_the_draft_and_draft_after_each_players_own_draft():
    """begin_of_round resolves in the begin phase (before anyone drafts); a draft effect resolves
    right after that player's own draft, before the next player drafts (docs/rules.md)."""
    g = new_game(SPE, CAV, bfs=(DAWN, OBSERVATORY, WALLS), catalog=CAT)
    seen: list[tuple] = []

    class Watch(GameObserver):
        def on_draw(self, game_, player, card):
            seen.append(("draw", player, game_.players[0].essence))

        def on_draft(self, game_, player, kept, other):
            seen.append(("draft", player, game_.players[0].essence))
    g.observers.append(Watch())
    deploy_round(g, {1: [("Zombie Horde", 1), ("Soul of the Living", 2), ("Soul of the Living", 2)]})
    settle(g)
    assert g.round == 2 and g.order == [2, 1]
    assert [(e, p) for e, p, _ in seen] == [("draw", 2), ("draw", 2), ("draft", 2),
                                            ("draw", 1), ("draw", 1), ("draft", 1), ("draw", 1)]
    assert {ess for _, _, ess in seen} == {3 + 1}  # the Dawn Spring's essence came before the draft


def test_phase_trigger_command_resolves_before_the_players_command_decisions():
    g = new_game(SPE, CAV, bfs=(GROVE, COUNCIL, WALLS), catalog=CAT)
    deploy_round(g, {1: [("Zombie Horde", 2), ("Zombie Horde", 2)], 2: [("Cataphracts", 1)]})
    settle(g)
    # Player 2 (first this round) has nothing to do; player 1's command turn starts with the War
    # Council's move token and the Grove's essence, then asks for command actions.
    assert kind(g) == Kind.TARGET_CARD and g.pending.player == 1
    assert g.players[0].essence == 3 + 1
    play(g, "P1 choose P1:B2Z1")
    assert kind(g) == Kind.COMMAND
    play(g, "P1 pass")
    assert kind(g) == Kind.DEPLOY


def test_compare_condition_and_below_subject_selector_are_checked_at_load():
    bad = {"name": "X", "text": ["a", "b"],
           "effects": [{"when": "draft", "if": {"compare": [1, "bigger", 2]}, "do": [{"draw": 1}]}]}
    with pytest.raises(CatalogError, match=r"card 'X', field effects\[0\].if.compare: compare is"):
        compile_battlefield(bad, "battlefields.yaml", 0)
    bad = {"name": "Y", "text": ["a", "b"],
           "effects": [{"when": "reveal", "do": [{"might": {"target": {"where": "under"}, "add": 1}}]}]}
    with pytest.raises(CatalogError, match=r"where: expected .*below_subject"):
        compile_battlefield(bad, "battlefields.yaml", 0)
    bad = {"name": "Z", "text": ["a", "b"], "effects": [{"when": "begin", "do": [{"draw": 1}]}]}
    with pytest.raises(CatalogError, match=r"unknown trigger 'begin'.*begin_of_round"):
        compile_battlefield(bad, "battlefields.yaml", 0)


# ---------------------------------------------------------------------------- random play
def test_300_seeded_self_play_games_on_the_whole_2026_2_catalog_finish_and_replay_valid():
    cat = load_catalog("2026.2")
    used: set[str] = set()
    for seed in range(300):
        log = self_play(seed, catalog="2026.2")
        assert log["result"] is not None, seed
        used.update(log["setup"]["battlefields"])
        res = replay(log, catalog=cat)
        assert res.verdict.status == "valid", (seed, res.verdict)
    assert set(NEW) <= used  # every new battlefield was played


def test_altar_a_card_returned_to_hand_in_the_command_phase_may_be_deployed_again_that_round():
    """Zombie Horde sacrificed on the Altar comes back to its owner's hand in the command phase; the
    deploy turns of that same round come after, so it may be deployed again in them (docs/rules.md,
    "Returned cards"): the web book's "on a future turn", which the printed book's "any future
    round" means too, its glossary calling a round "a current or future turn"."""
    g = game(ALTAR, SPE, CAV)
    deploy_round(g, {1: [("Zombie Horde", 1)]})
    settle(g)
    assert g.round == 2 and kind(g) == Kind.MAY and g.pending.player == 1
    play(g, "P1 yes")  # the only card Here: sacrificed without a choice
    assert [c.name for c in g.players[0].hand].count("Zombie Horde") == 1 and side(g, 1, 1) == []
    to_deploy(g)
    play(g, "P2 pass")  # the first player token has passed to player 2 for round 2
    assert g.round == 2 and kind(g) == Kind.DEPLOY and g.pending.player == 1
    play(g, "P1 deploy Zombie Horde to B2")
    assert side(g, 1, 2) == ["Zombie Horde"]
