"""Card tests for Defenders of the Bastion (catalog 2026.2): every card's ability resolves as its
text says, on a real game driven by real decisions (scenario.py's helpers; recorded chance); its
deck-level checks are in test_decks.py."""

from __future__ import annotations

from scenario import (
    CAV,
    SPE,
    Events,
    at,
    catalog_with,
    deploy_round,
    finish_round,
    hand,
    might,
    new_game,
    piles,
    play,
    set_hand,
    side,
    tokens,
)

from engine.bfe.game import Game

G = catalog_with("bastion.yaml")
BAS = "Defenders of the Bastion"


def game(opp: str = SPE, **kw) -> Game:
    return new_game(BAS, opp, catalog=G, **kw)


# ============================================================================ 1-cost
def test_builders_raise_a_fortress_walls_from_your_hand_here():
    g = game()
    set_hand(g, 1, "Fortress Walls")
    deploy_round(g, {1: [("Builders", 2)]}, essence={1: 1})
    assert side(g, 1, 2) == ["Builders", "Fortress Walls"]
    walls = at(g, "P1:B2Z2")
    assert walls.face_up and walls.might == 2 and walls.tokens.get("shield") == 1
    assert "Fortress Walls" not in hand(g, 1)


def test_builders_without_walls_in_hand_raise_nothing():
    g = game()
    set_hand(g, 1, "Watchman")
    deploy_round(g, {1: [("Builders", 2)]})
    assert side(g, 1, 2) == ["Builders"] and hand(g, 1) == ["Watchman"]


def test_watchman_stops_the_next_opponent_instant_here():
    g = game()
    ev = Events(g)
    deploy_round(g, {1: [("Watchman", 3)], 2: [("Wailing Wisp", 3)]})
    assert ev.of("stopped") == [("stopped", "Wailing Wisp")]
    assert g.players[0].stops == [0, 0, 0] and g.players[1].stops == [0, 0, 0]


def test_drawbridge_returns_an_ally_here_and_adds_one_essence_next_round():
    g = game()
    set_hand(g, 1)
    deploy_round(g, {1: [("Portcullis", 1), ("Drawbridge", 1)]})  # the reveals run on into round 2
    assert side(g, 1, 1) == ["Drawbridge"] and "Portcullis" in hand(g, 1)
    assert g.round == 2 and g.players[0].essence == 3 + 1 and g.players[1].essence == 3


def test_drawbridge_with_no_ally_here_adds_no_essence():
    g = game()
    deploy_round(g, {1: [("Portcullis", 2), ("Drawbridge", 1)]})
    assert side(g, 1, 2) == ["Portcullis"]
    assert g.round == 2 and g.players[0].essence == 3


# ============================================================================ 2-cost
def test_fortress_walls_carry_a_shield_and_cannot_be_destroyed():
    g = game(first_player=1)
    deploy_round(g, {1: [("Fortress Walls", 2)], 2: [("Lich", 1)]})
    # The Lich's only target is the walls (2 might): the affixed Shield token stops it.
    assert side(g, 1, 2) == ["Fortress Walls"] and piles(g, 1)["destroyed"] == []
    assert tokens(g, "P1:B2Z1", "shield") == 1 and might(g, "P1:B2Z1") == 2


def test_sally_port_returns_an_ally_card_and_gains_two_might():
    g = game()
    set_hand(g, 1)
    deploy_round(g, {1: [("Portcullis", 1), ("Sally Port", 2)]})
    assert side(g, 1, 1) == [] and hand(g, 1) == ["Portcullis"]
    assert might(g, "P1:B2Z1") == 1 + 2


def test_sally_port_cannot_return_an_anchored_card():
    g = game(first_player=2)
    deploy_round(g, {2: [], 1: [("Portcullis", 1)]})
    finish_round(g)  # round 2: P1 first
    deploy_round(g, {1: [], 2: [("Chain Wraith", 1)]})  # anchors the Portcullis
    finish_round(g)  # round 3: P2 first
    deploy_round(g, {2: [], 1: [("Sally Port", 2)]})
    assert side(g, 1, 1) == ["Portcullis"] and might(g, "P1:B2Z1") == 1


# ============================================================================ 3-cost
def test_chariots_remove_two_might_from_an_opponent_card_here():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1), ("Death Knight", 2)], 1: [("Chariots", 1)]})
    assert might(g, "P2:B1Z1") == 4 - 2 and might(g, "P2:B2Z1") == 6


def test_murder_holes_stun_an_opponent_card_here_and_remove_one_might_from_it():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1)], 1: [("Murder Holes", 1)]})
    assert tokens(g, "P2:B1Z1", "stun") == 1 and might(g, "P2:B1Z1") == 4 - 1


def test_portcullis_anchors_an_opponent_card_here():
    g = game(opp=CAV, first_player=2)
    deploy_round(g, {2: [("Cataphracts", 1), ("Cataphracts", 2)], 1: [("Portcullis", 1)]})
    assert tokens(g, "P2:B1Z1", "anchor") == 1 and tokens(g, "P2:B2Z1", "anchor") == 0


# ============================================================================ 4-cost
def test_archer_tower_removes_one_might_from_an_opponent_card_here_at_the_end_of_each_round():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1), ("Death Knight", 2)], 1: [("Archer Tower", 1)]})
    assert g.round == 2  # the end phase has passed (one target: no question)
    assert might(g, "P2:B1Z1") == 4 - 1 and might(g, "P2:B2Z1") == 6


def test_ballista_destroys_an_opponent_card_here_with_three_or_less_might():
    g = game(first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 1), ("Taker of Souls", 1), ("Zombie Horde", 2)],
                     1: [("Ballista", 1)]})
    assert piles(g, 2)["destroyed"] == ["Soul of the Living"]
    assert side(g, 2, 1) == ["Taker of Souls"] and might(g, "P2:B1Z1") == 4 + 1
    assert side(g, 2, 2) == ["Zombie Horde"]


def test_granary_draws_a_card_and_the_opponent_subtracts_one_essence():
    g = game()
    set_hand(g, 1)
    deploy_round(g, {1: [("Granary", 1)]})
    play(g, "C draw P1 Catapult")
    assert "Catapult" in hand(g, 1)
    assert g.round == 2 and g.players[1].essence == 3 - 1 and g.players[0].essence == 3


# ============================================================================ 5-cost
def test_master_builder_gains_for_each_ally_builders_and_returns_them():
    g = game()
    set_hand(g, 1)
    deploy_round(g, {1: [("Builders", 1), ("Builders", 3), ("Master Builder", 2)]})
    assert side(g, 1, 1) == [] and side(g, 1, 3) == []
    assert hand(g, 1).count("Builders") == 2
    assert might(g, "P1:B2Z1") == 3 + 2 * 2
    assert g.round == 2 and g.players[0].essence == 3 + 2 + 1  # +1: a deploy on The Sirens' Shore


def test_master_builder_returned_builders_raise_walls_again_when_redeployed():
    g = game(first_player=2)
    set_hand(g, 1, "Fortress Walls", "Fortress Walls")
    deploy_round(g, {2: [], 1: [("Builders", 1)]})
    assert side(g, 1, 1) == ["Builders", "Fortress Walls"]
    finish_round(g)
    deploy_round(g, {1: [("Master Builder", 2)], 2: []})
    assert side(g, 1, 1) == ["Fortress Walls"] and "Builders" in hand(g, 1)
    finish_round(g)
    deploy_round(g, {2: [], 1: [("Builders", 1)]}, give_cards=False)
    assert side(g, 1, 1) == ["Fortress Walls", "Builders", "Fortress Walls"]


def test_catapult_removes_three_might_from_an_opponent_card():
    g = game(first_player=2)
    deploy_round(g, {2: [("Death Knight", 2)], 1: [("Catapult", 1)]})
    assert might(g, "P2:B2Z1") == 6 - 3


def test_castellan_returns_an_ally_card_gains_two_might_and_adds_one_essence():
    g = game()
    set_hand(g, 1)
    deploy_round(g, {1: [("Portcullis", 1), ("Castellan", 2)]})
    assert hand(g, 1) == ["Portcullis"] and might(g, "P1:B2Z1") == 4 + 2
    assert g.round == 2 and g.players[0].essence == 3 + 1


# ============================================================================ 6-cost
def test_great_keep_applies_one_might_to_each_ally_revealed_here():
    g = game()
    deploy_round(g, {1: [("Great Keep", 1), ("Portcullis", 1), ("Chariots", 2)]})
    assert might(g, "P1:B1Z2") == 3 + 1 and might(g, "P1:B2Z1") == 2  # only Here
    assert might(g, "P1:B1Z1") == 4


def test_strategic_withdrawal_gains_and_adds_essence_for_each_ally_here_then_returns_them():
    g = game()
    set_hand(g, 1)
    deploy_round(g, {1: [("Portcullis", 1), ("Chariots", 1), ("Strategic Withdrawal", 1)]})
    assert side(g, 1, 1) == ["Strategic Withdrawal"] and hand(g, 1) == ["Chariots", "Portcullis"]
    assert might(g, "P1:B1Z1") == 3 + 2 * 2
    assert g.round == 2 and g.players[0].essence == 3 + 2


def test_strategic_withdrawal_caps_at_six_might_and_three_essence():
    g = game()
    set_hand(g, 1)
    deploy_round(g, {1: [("Portcullis", 1), ("Chariots", 1), ("Ballista", 1), ("Catapult", 1),
                         ("Strategic Withdrawal", 1)]})
    assert side(g, 1, 1) == ["Strategic Withdrawal"] and len(hand(g, 1)) == 4
    assert might(g, "P1:B1Z1") == 3 + 6
    assert g.round == 2 and g.players[0].essence == 3 + 3


# ============================================================================ 7-cost
def test_trebuchet_removes_one_might_from_each_opponent_card_here():
    g = game(first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 1), ("Zombie Horde", 1), ("Soul of the Living", 2)],
                     1: [("Trebuchet", 1)]})
    assert [c.might for c in g.board[0][1]] == [0, 2]
    assert might(g, "P2:B2Z1") == 1


def test_castle_lord_gains_one_might_whenever_another_ally_is_revealed_here():
    g = game()
    deploy_round(g, {1: [("Castle Lord", 1), ("Portcullis", 1), ("Chariots", 1), ("Catapult", 2)]})
    assert might(g, "P1:B1Z1") == 6 + 2


# ============================================================================ 8-cost
def test_fortify_shields_each_ally_here_and_gains_for_each_other_ally_here():
    g = game()
    deploy_round(g, {1: [("Portcullis", 1), ("Chariots", 1), ("Catapult", 2), ("Fortify", 1)]})
    assert [c.tokens.get("shield", 0) for c in g.board[0][0]] == [1, 1, 1]
    assert tokens(g, "P1:B2Z1", "shield") == 0
    assert might(g, "P1:B1Z3") == 6 + 2
