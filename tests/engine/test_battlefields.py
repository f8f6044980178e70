"""Battlefield tests: each effect of each battlefield in the catalog, on a real game driven by real
decisions (scenario.py). Battlefield 1 is the one under test unless a test says otherwise."""

from __future__ import annotations

from scenario import (
    CATALOG,
    CAV,
    FOUNTAIN,
    RIVER,
    SPE,
    THRONE,
    VAM,
    at,
    deploy_round,
    finish_round,
    give,
    hand,
    kind,
    might,
    new_game,
    play,
    raw_battlefields,
    set_essence,
    set_hand,
    settle,
    side,
)

from engine.bfe.decisions import Kind, parse_decision

OASIS, WALLS, HALL = "Oasis of Plenty", "The Closing Walls", "Hall of Gifts"
BARGAIN, BAZAAR, PRISON = "The Devil's Bargain", "The Grand Bazaar", "The Prison"
SUMMIT, SIRENS = "The Summit of Valor", "The Sirens' Shore"


def essence_next_round(g):
    """Settle the draft so the next round has begun; each player's essence for it."""
    settle(g)
    return [ps.essence for ps in g.players]


def mights(g, p, b):
    return [c.might for c in g.board[b - 1][p - 1]]


def test_the_catalog_has_nine_or_more_battlefields_with_a_five_zone_one():
    names = [b["name"] for b in raw_battlefields()["battlefields"]]
    assert len(names) >= 9 and len(set(names)) == len(names)
    assert {FOUNTAIN, RIVER, THRONE} <= set(names)
    assert any(bf.zones == 5 for bf in CATALOG.battlefields.values())
    fountain = CATALOG.battlefields[FOUNTAIN]
    assert fountain.text == (
        "If a revealed card Here gains might from an ability, Apply 1 extra might.",
        "For each card Here that gained might from an ability this round, Subtract 1 essence next round.")


# ---------------------------------------------------------------------------- The Fountain of Janus
def test_fountain_adds_one_to_ability_gains_here_and_charges_essence_per_card_that_gained():
    g = new_game(CAV, SPE, bfs=(FOUNTAIN, OASIS, WALLS))
    deploy_round(g, {1: [("Cataphracts", 1), ("Cataphracts", 1), ("Camel Riders", 1), ("Cataphracts", 2)]})
    # 2nd Cataphracts: +1 (+1 Fountain) = 4; 1st: +1 (+1) when the 2nd is revealed = 4.
    assert mights(g, 1, 1) == [4, 4, 2]
    assert mights(g, 1, 2) == [2]  # the same gain elsewhere gets no extra
    # Two of P1's cards Here gained might this round (the Camel Riders did not): -2 essence.
    assert essence_next_round(g) == [3 - 2, 3]


# ---------------------------------------------------------------------------- River of Rebirth
def test_river_an_opponent_destroy_here_sends_the_card_back_to_hand_still_destroyed():
    g = new_game(SPE, SPE, bfs=(RIVER, OASIS, WALLS), first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 1)], 1: [("Lich", 1)]})
    assert side(g, 2, 1) == []
    assert "Soul of the Living" in hand(g, 2)
    assert g.players[1].destroyed == []
    # It still counted as destroyed: its own "when destroyed" ability added 1 essence.
    assert essence_next_round(g) == [3, 3 + 1]


def test_river_destroying_your_own_card_here_still_uses_the_destroy_pile():
    g = new_game(SPE, SPE, bfs=(RIVER, OASIS, WALLS))
    deploy_round(g, {1: [("Soul of the Living", 1), ("Devourer of Souls", 1)]})
    play(g, "P1 yes")  # Devourer destroys the Soul (the only other ally)
    assert [c.name for c in g.players[0].destroyed] == ["Soul of the Living"]
    assert "Soul of the Living" not in hand(g, 1)


def test_river_removes_stun_tokens_from_your_cards_here_at_the_end_of_the_round():
    for b, expect in ((1, 0), (2, 1)):  # on the River the stun goes; on Oasis it stays
        g = new_game(CAV, SPE, bfs=(RIVER, OASIS, WALLS))
        deploy_round(g, {1: [("Cataphracts", 1), ("Cataphracts", 2)], 2: [("Banshee", 3)]})
        play(g, f"P2 choose P1:B{b}Z1")
        settle(g)
        assert g.round == 2 and at(g, f"P1:B{b}Z1").tokens.get("stun", 0) == expect


# ---------------------------------------------------------------------------- The Throne
def test_throne_the_first_player_to_reveal_here_seizes_it():
    g = new_game(CAV, SPE, bfs=(THRONE, OASIS, WALLS))
    deploy_round(g, {1: [("Cataphracts", 1), ("Cataphracts", 1)], 2: [("Soul of the Living", 1)]})
    assert mights(g, 1, 1) == [2 + 2 + 1, 3]
    assert mights(g, 2, 1) == [1]  # the throne is taken: no bonus for player 2


def test_throne_leading_at_the_end_of_round_5_costs_an_essence():
    g = new_game(CAV, SPE, bfs=(THRONE, OASIS, WALLS))
    deploy_round(g, {1: [("Cataphracts", 1)]})
    for _ in range(3):
        finish_round(g)
    assert g.round == 4
    finish_round(g)
    assert g.round == 5 and [ps.essence for ps in g.players] == [6, 6]  # nothing after round 4
    finish_round(g)
    assert g.round == 6 and [ps.essence for ps in g.players] == [7 - 1, 7]


# ---------------------------------------------------------------------------- The Devil's Bargain
def test_bargain_the_leader_may_pay_an_essence_for_two_might():
    g = new_game(CAV, SPE, bfs=(BARGAIN, OASIS, WALLS))
    deploy_round(g, {1: [("Cataphracts", 1)]})
    assert kind(g) == Kind.MAY and g.pending.player == 1  # only the leader is offered the bargain
    play(g, "P1 yes")
    assert might(g, "P1:B1Z1") == 4
    assert essence_next_round(g) == [3 - 1, 3]


def test_bargain_declined_changes_nothing():
    g = new_game(CAV, SPE, bfs=(BARGAIN, OASIS, WALLS))
    deploy_round(g, {1: [("Cataphracts", 1)]})
    play(g, "P1 no")
    assert might(g, "P1:B1Z1") == 2 and essence_next_round(g) == [3, 3]


def test_bargain_a_card_revealed_here_with_no_essence_left_gains_one():
    g = new_game(CAV, SPE, bfs=(BARGAIN, OASIS, WALLS))
    deploy_round(g, {1: [("Cataphracts", 1)], 2: [("Soul of the Living", 1)]}, essence={1: 3, 2: 5})
    assert might(g, "P1:B1Z1") == 2 + 1  # 0 essence left when revealed
    assert might(g, "P2:B1Z1") == 1  # P2 still had 4 essence when its card was revealed


# ---------------------------------------------------------------------------- Hall of Gifts
def test_hall_the_first_time_you_deploy_here_you_draw():
    g = new_game(CAV, SPE, bfs=(HALL, OASIS, WALLS))
    set_essence(g, 1, 10)
    give(g, 1, "Cataphracts", "Cataphracts")
    play(g, "P1 deploy Cataphracts to B1")
    assert g.pending.kind == Kind.CHANCE_DRAW
    play(g, "C draw P1 Spahbed")
    assert "Spahbed" in hand(g, 1)
    before = len(g.players[0].hand)
    play(g, "P1 deploy Cataphracts to B1")  # not the first time: no draw
    assert kind(g) == Kind.DEPLOY and len(g.players[0].hand) == before - 1


def test_hall_each_player_adds_two_essence_after_round_5():
    g = new_game(CAV, SPE, bfs=(HALL, OASIS, WALLS))
    for _ in range(4):
        finish_round(g)
    assert g.round == 5 and [ps.essence for ps in g.players] == [6, 6]
    finish_round(g)
    assert g.round == 6 and [ps.essence for ps in g.players] == [7 + 2, 7 + 2]


# ---------------------------------------------------------------------------- The Grand Bazaar
def test_bazaar_cheap_cards_cost_one_more_here():
    g = new_game(CAV, SPE, bfs=(BAZAAR, OASIS, WALLS))
    give(g, 1, "Horse Archers", "Cataphracts")
    set_essence(g, 1, 1)
    assert g.check(parse_decision("P1 deploy Horse Archers to B2")) is None
    assert "costs 2 essence on battlefield 1" in g.check(parse_decision("P1 deploy Horse Archers to B1"))
    set_essence(g, 1, 3)
    assert g.check(parse_decision("P1 deploy Cataphracts to B1")) is None  # cost 3: unchanged
    set_essence(g, 1, 8)
    play(g, "P1 deploy Horse Archers to B1", "P1 deploy Cataphracts to B1")
    assert g.players[0].essence == 8 - 2 - 3  # what was paid


def test_bazaar_cheap_cards_revealed_here_gain_two():
    g = new_game(CAV, SPE, bfs=(BAZAAR, OASIS, WALLS))
    deploy_round(g, {1: [("Horse Archers", 1), ("Camel Riders", 1), ("Cataphracts", 1), ("Horse Archers", 2)],
                     2: [("Soul of the Living", 1)]})
    # Horse Archers: 1 + 1 (own) + 2; Camel Riders 2 + 2; Cataphracts (cost 3) 2; on B2: 1 + 1.
    assert mights(g, 1, 1) == [4, 4, 2] and mights(g, 1, 2) == [2]
    assert mights(g, 2, 1) == [1 + 2]


# ---------------------------------------------------------------------------- Oasis of Plenty
SIX_CHEAP = [("Villager", 1), ("Villager", 1), ("Villager", 1), ("Bat Swarm", 1), ("Blood Doll", 1),
             ("Fledgling", 1)]


def test_oasis_filling_early_adds_two_essence_and_the_first_filler_draws():
    g = new_game(VAM, VAM, bfs=(OASIS, WALLS, HALL))
    for p in (1, 2):
        set_essence(g, p, 30)
        give(g, p, *[n for n, _ in SIX_CHEAP])
    hand2 = len(g.players[1].hand)
    for n, b in SIX_CHEAP:
        play(g, f"P1 deploy {n} to B{b}")
    assert g.pending.kind == Kind.CHANCE_DRAW  # P1 filled first: draw
    play(g, "C draw P1 Lord of the Evernight", "P1 pass")
    assert "Lord of the Evernight" in hand(g, 1)
    for n, b in SIX_CHEAP:
        play(g, f"P2 deploy {n} to B{b}")
    assert kind(g) == Kind.DEPLOY and g.pending.player == 2  # no draw for the second filler
    play(g, "P2 pass")
    assert len(g.players[1].hand) == hand2 - 6
    assert essence_next_round(g) == [3 + 2, 3 + 2]


def test_oasis_filling_in_round_7_adds_no_essence():
    g = new_game(VAM, SPE, bfs=(OASIS, WALLS, HALL))
    for _ in range(6):
        finish_round(g)
    assert g.round == 7 and g.pending.player == 1
    set_essence(g, 1, 30)
    give(g, 1, *[n for n, _ in SIX_CHEAP])
    for n, b in SIX_CHEAP:
        play(g, f"P1 deploy {n} to B{b}")
    assert g.pending.kind == Kind.CHANCE_DRAW  # the first fill of the game still draws
    settle(g)
    play(g, "P1 pass")
    finish_round(g)
    assert g.round == 8 and [ps.essence for ps in g.players] == [9, 9]


# ---------------------------------------------------------------------------- The Prison
def test_prison_costs_a_card_on_your_first_deploy_here():
    g = new_game(CAV, SPE, bfs=(PRISON, OASIS, WALLS))
    set_hand(g, 1, "Cataphracts", "Cataphracts", "Spahbed", "Archers")
    set_essence(g, 1, 30)
    play(g, "P1 deploy Cataphracts to B1")
    assert kind(g) == Kind.DISCARD
    play(g, "P1 choose Spahbed")
    assert [c.name for c in g.players[0].discard] == ["Spahbed"]
    play(g, "P1 deploy Cataphracts to B1")
    assert kind(g) == Kind.DEPLOY  # only the first deploy here costs a card
    play(g, "P1 deploy Archers to B2")
    assert [c.name for c in g.players[0].discard] == ["Spahbed"]


def test_prison_breaks_the_first_time_you_have_four_revealed_cards_here():
    g = new_game(CAV, SPE, bfs=(PRISON, OASIS, WALLS))
    set_hand(g, 1, "Cataphracts", "Cataphracts", "Cataphracts", "Cataphracts", "Archers", "Spahbed",
             "Surena")
    set_essence(g, 1, 30)
    play(g, "P1 deploy Cataphracts to B1", "P1 choose Spahbed")
    for name in ("Cataphracts", "Cataphracts", "Cataphracts", "Archers"):
        play(g, f"P1 deploy {name} to B1")
    play(g, "P1 pass", "P2 pass")
    assert hand(g, 1) == ["Surena"]
    # The fourth reveal here: draw 2 (once); the fifth reveal draws nothing more.
    assert g.pending.kind == Kind.CHANCE_DRAW and g.round == 1
    play(g, "C draw P1 Clibanarii", "C draw P1 Orodes II")
    assert hand(g, 1) == ["Clibanarii", "Orodes II", "Surena"]
    settle(g)
    assert g.round == 2 and len(g.players[0].hand) == 4  # + the round-2 draft only


# ---------------------------------------------------------------------------- The Closing Walls
def test_walls_have_only_five_zones():
    g = new_game(VAM, SPE, bfs=(WALLS, OASIS, HALL))
    set_essence(g, 1, 30)
    give(g, 1, *[n for n, _ in SIX_CHEAP])
    for n, _ in SIX_CHEAP[:5]:
        play(g, f"P1 deploy {n} to B1")
    reason = g.check(parse_decision("P1 deploy Fledgling to B1"))
    assert reason is not None and "full" in reason and "5 zones" in reason
    assert g.check(parse_decision("P1 deploy Fledgling to B2")) is None


def test_walls_close_in_at_the_end_of_rounds_7_and_8():
    g = new_game(CAV, SPE, bfs=(WALLS, OASIS, HALL))
    deploy_round(g, {1: [("Cataphracts", 1), ("Cataphracts", 1), ("Cataphracts", 2)],
                     2: [("Soul of the Living", 1)]})
    while g.round < 7:
        finish_round(g)
    assert mights(g, 1, 1) == [3, 3] and mights(g, 2, 1) == [1]
    finish_round(g)
    assert g.round == 8 and mights(g, 1, 1) == [2, 2] and mights(g, 2, 1) == [0]
    finish_round(g)
    assert g.round == 9 and mights(g, 1, 1) == [1, 1]
    finish_round(g)
    assert g.round == 10 and mights(g, 1, 1) == [1, 1] and mights(g, 1, 2) == [2]


# ---------------------------------------------------------------------------- The Summit of Valor
def test_summit_your_first_reveal_here_gains_one():
    g = new_game(CAV, SPE, bfs=(SUMMIT, OASIS, WALLS))
    deploy_round(g, {1: [("Cataphracts", 1), ("Cataphracts", 1)],
                     2: [("Soul of the Living", 1), ("Soul of the Living", 1)]})
    assert mights(g, 1, 1) == [2 + 1 + 1, 3]
    assert mights(g, 2, 1) == [1 + 1, 1]


def test_summit_the_first_player_to_ten_might_here_adds_three_essence():
    g = new_game(CAV, SPE, bfs=(SUMMIT, OASIS, WALLS))
    deploy_round(g, {1: [("Clibanarii", 1), ("Lasso Riders", 1)],
                     2: [("Bone Colossus", 1), ("Taker of Souls", 1)]})
    assert sum(mights(g, 1, 1)) == 10 and sum(mights(g, 2, 1)) == 10
    assert essence_next_round(g) == [3 + 3, 3]  # only the first to 10


# ---------------------------------------------------------------------------- The Sirens' Shore
def test_sirens_each_deploy_here_adds_an_essence_next_round():
    g = new_game(CAV, SPE, bfs=(SIRENS, OASIS, WALLS))
    deploy_round(g, {1: [("Cataphracts", 1), ("Cataphracts", 1), ("Cataphracts", 2)],
                     2: [("Soul of the Living", 1)]})
    assert essence_next_round(g) == [3 + 2, 3 + 1]


def test_sirens_cards_that_stay_here_weaken_at_the_end_of_the_game():
    g = new_game(CAV, SPE, bfs=(SIRENS, OASIS, WALLS))
    deploy_round(g, {1: [("Cataphracts", 1), ("Cataphracts", 1), ("Cataphracts", 2)]})
    while not g.over:
        finish_round(g)
    assert mights(g, 1, 1) == [2, 2] and mights(g, 1, 2) == [2]
    assert g.final_might[0][:2] == [4, 2]
