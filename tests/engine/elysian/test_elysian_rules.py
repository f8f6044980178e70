"""The rules of Elysian Battlefields, one test per rule of docs/elysian-rules.md (sections 1-15),
named by the rule's number. Games are built from lines (the fixed opening of elysian_helpers), pieces
are placed by hand on its field, and every line goes through the game's own check, as a log's lines
do; a refusal's words name the rule."""

from __future__ import annotations

from collections import Counter

from engine.elysian import cards, fight
from engine.elysian.catalog import load
from engine.elysian.game import End
from engine.elysian.lines import Kind
from engine.elysian.pieces import (
    SETTLEMENTS,
    STANDARD,
    TEMPLE_KINGDOM,
    UNITS_EACH,
    WALL_DEFENSE,
)
from engine.replay import VerdictStatus, replay

from .elysian_helpers import (
    OPENING,
    board,
    clear,
    field,
    game,
    hand,
    legal,
    log,
    opening,
    play,
    put,
    refused,
    site,
    start,
)

CAT = load()


def kinds(g) -> list[Kind]:
    """The kinds of point the current turn asks, answering each with its first legal line, until the move step."""
    out = []
    while g.pending is not None and g.pending.kind is not Kind.PLAY:
        out.append(g.pending.kind)
        play(g, legal(g)[0])
    return out


# ------------------------------------------------------------------ 1. victory
def test_1_1_fifteen_conquest_points_win_at_once():
    g = board()
    put(g, 1, "infantry", "5a", 2)
    put(g, 2, "archer", "5b")
    g.player(1).conquest = 14
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "C dice 3 4 5")
    assert g.over and g.end is End.CONQUER and g.winner == 1 and g.player(1).conquest == 15


def test_1_2_ten_territories_at_the_start_of_a_turn_win():
    g = board()
    for i, t in enumerate(("5a", "5b", "5c", "4c", "1a", "1c", "3a")):
        put(g, 1, tuple(STANDARD)[i % 3], t)
    site(g, "1b", "outpost", 1)  # settlements with no unit in them (1b, 4a) still count
    start(g, 1)
    assert len(g.held(1)) == 9 and not g.over
    put(g, 1, "infantry", "12a")
    start(g, 1)
    assert g.over and g.end is End.RULE and g.winner == 1


def test_1_3_five_kingdom_points_at_the_start_of_a_turn_win():
    g = board()
    site(g, "1b", "fortress", 1)
    put(g, 1, "infantry", "5a")
    start(g, 1)
    assert g.kingdom(1) == 3 and not g.over
    site(g, "5a", temple=True)
    start(g, 1)
    assert g.kingdom(1) == 5 and g.over and g.end is End.REIGN and g.winner == 1


# ------------------------------------------------------------------ 2. setup
def test_2_1_the_highest_roll_goes_first_then_clockwise():
    g = game(["C rolls P1 2", "C rolls P2 6", "C rolls P3 4"], players=3)
    assert g.order == [2, 3, 1]
    assert g.todo[-1] == ("turn", 2, True)
    assert "P2's turn-order roll" in refused(game(["C rolls P1 2"], players=3), "C rolls P3 4")


def test_2_2_heroes_are_chosen_last_player_first():
    g = game(OPENING[:2])
    assert g.pending.kind is Kind.HERO and g.pending.player == 2
    assert "rule 2.2" in refused(g, "P1 hero tiberon")
    play(g, "P2 hero seren")
    assert "P2's hero already" in refused(g, "P1 hero seren") and "rule 2.2" in refused(g, "P1 hero seren")
    play(g, "P1 hero tiberon")
    assert [p.hero for p in g.players] == ["tiberon", "seren"]


def test_2_3_each_player_draws_three_land_tiles():
    g = game(OPENING[:4])
    assert g.pending.kind is Kind.TILE
    assert "rule 2.3" in refused(g, "C tile P2 3")
    play(g, "C tile P1 5")
    assert "drawn already" in refused(g, "C tile P1 5") and "rule 2.3" in refused(g, "C tile P1 5")
    play(g, *OPENING[5:10])
    assert [p.tiles for p in g.players] == [["5", "4", "1"], ["3", "13", "12"]]
    assert g.pending.kind is Kind.LAY


def test_2_4_tiles_are_laid_in_turn_with_the_contact_rules():
    g = game(OPENING[:10])
    assert "rule 2.4" in refused(g, "P2 lays 3 at 0,0 1,0 0,1")
    play(g, "P1 lays 5 at 0,0 1,0 0,1")
    assert "the second tile touches the first" in refused(g, "P2 lays 3 at 3,0 4,-1 4,0")
    play(g, "P2 lays 3 at 1,-1 2,-2 2,-1")
    why = refused(g, "P1 lays 4 at -1,0 -2,0 -1,-1")  # touches tile 5 only
    assert "touches two" in why and "touches 1" in why and "rule 2.4" in why
    play(g, "P1 lays 4 at -1,0 -1,-1 0,-1")  # touches 5 and 3
    assert g.land.tiles == ["5", "3", "4"] and g.pending.player == 2


def test_2_5_three_starting_cards_from_any_decks():
    g = game(OPENING[:16])
    assert g.pending.kind is Kind.DRAW and g.pending.player == 1
    assert sorted(legal(g)) == ["P1 draws conquest", "P1 draws reign", "P1 draws rule"]
    play(g, "P1 draws conquest", "P1 draws conquest", "P1 draws conquest")
    assert g.pending.player == 2 and g.player(1).hand == [("conquest", None)] * 3


def test_2_6_two_outposts_each_one_at_a_time():
    g = game(OPENING[:22])
    assert "rule 3.4" in refused(g, "P1 outpost 4b")  # water
    play(g, "P1 outpost 4a")
    assert "rule 2.6" in refused(g, "P1 outpost 1b")  # P2's turn to place
    assert "one settlement a territory (rule 4.4)" in refused(g, "P2 outpost 4a")
    play(g, "P2 outpost 13c", "P1 outpost 1b", "P2 outpost 3b")
    assert g.settlements(1) == ["1b", "4a"] and g.settlements(2) == ["3b", "13c"]
    assert g.pending.kind is Kind.ARM and g.pending.player == 1


def test_2_7_four_objects_arm_the_outposts():
    g = game(OPENING[:26])
    assert "rule 2.7" in refused(g, "P1 arms 13c infantry")
    play(g, "P1 arms 4a walls")
    assert "rule 4.4" in refused(g, "P1 arms 4a walls")
    play(g, "P1 arms 4a infantry", "P1 arms 1b hero")
    assert "rule 2.7" in refused(g, "P2 arms 13c infantry")
    play(g, "P1 arms 1b archer")
    assert g.pending.player == 2 and g.pending.kind is Kind.ARM
    assert sorted((u.kind, u.where) for u in g.units) == [("archer", "1b"), ("hero", "1b"), ("infantry", "4a")]
    assert g.sites["4a"].walls


# ------------------------------------------------------------------ 3. territories
def test_3_1_plains_change_nothing():
    g = board()
    put(g, 1, "infantry", "5a")
    put(g, 2, "infantry", "5b")
    assert {g.land.territories[t].terrain for t in ("5a", "5b")} == {"plains"}
    assert fight.power(g, 1, "5b", ("5a",)) == STANDARD["infantry"].attack


def test_3_2_a_forest_takes_two_attack_power():
    g = board()
    put(g, 1, "infantry", "5a", 2)
    put(g, 2, "infantry", "4c")
    assert g.land.territories["4c"].terrain == "forest"
    assert fight.power(g, 1, "4c", ("5a",)) == 4 - 2
    g.units.pop(0)
    start(g, 1, "move")
    assert "no attack power (a forest takes 2)" in refused(g, "P1 attacks 4c from 5a")


def test_3_3_each_mountain_attacked_from_adds_one():
    g = board()
    put(g, 1, "infantry", "5c")
    put(g, 1, "infantry", "5a")
    put(g, 2, "infantry", "5b")
    assert g.land.territories["5c"].terrain == "mountain"
    assert fight.power(g, 1, "5b", ("5c",)) == 2 + 1
    assert fight.power(g, 1, "5b", ("5a", "5c")) == 4 + 1


def test_3_4_water_holds_nothing_and_blocks_moves():
    g = board()
    put(g, 1, "cavalry", "4a")
    start(g, 1, "move")
    assert g.land.territories["4b"].terrain == "water"
    assert "never into or through water" in refused(g, "P1 moves cavalry 4a 4b")
    g = clear(opening())
    field(g, "8@0,0 1,0 0,1", "5@-1,0 -2,0 -2,1")  # 5a touches the field only through the water 8a
    put(g, 1, "infantry", "5a")
    put(g, 1, "archer", "5a")
    put(g, 2, "infantry", "8b")
    start(g, 1, "move")
    assert "rules 8.3, 8.4" in refused(g, "P1 moves infantry 5a 8c")  # 2 away, through water
    play(g, "P1 attacks 8b from 5a")  # the archer shoots over the water; the infantry does not reach
    assert g.attack.sources == ("5a",) and [u.kind for u in fight.attackers(g, 1, "8b", ("5a",))] == ["archer"]


# ------------------------------------------------------------------ 4. pieces
def test_4_1_standard_units_have_the_books_numbers():
    assert {k: (u.attack, u.defense, u.move, u.range) for k, u in STANDARD.items()} == {
        "infantry": (2, 2, 2, 1), "archer": (2, 1, 2, 2), "cavalry": (2, 1, 4, 1)}
    g = board()
    assert all(g.player(1).supply[k] == UNITS_EACH == 6 for k in STANDARD)
    put(g, 1, "infantry", "5c")
    put(g, 2, "infantry", "12b")  # two away: infantry attack next door only
    start(g, 1, "move")
    assert "rules 9.1, 13" in refused(g, "P1 attacks 12b from 5c")


def test_4_2_walls_and_temples_have_the_books_numbers():
    assert WALL_DEFENSE == 3 and TEMPLE_KINGDOM == 2
    g = board()
    put(g, 1, "infantry", "5a", 2)
    put(g, 2, "infantry", "5b")
    site(g, "5b", walls=True, temple=True)
    assert g.kingdom(2) == 1 + 2
    put(g, 1, "infantry", "5a")
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "C dice 3 4 5")  # three hits: the walls
    assert not g.sites["5b"].walls and g.units_at("5b", 2)
    play(g, "C dice 1 3 4")  # the temple takes no hits (defence 0): the infantry does
    assert not g.units_at("5b", 2) and g.sites["5b"].temple


def test_4_3_settlements_have_the_books_numbers():
    assert {k: (s.units, s.cards, s.defense, s.kingdom) for k, s in SETTLEMENTS.items()} == {
        "outpost": (1, 1, 1, 1), "fortress": (2, 1, 2, 2), "palace": (1, 2, 2, 2)}
    g = board()
    site(g, "1b", "palace", 1)
    site(g, "5b", "fortress", 2)
    assert g.kingdom(1) == 1 + 2 and g.kingdom(2) == 1 + 2
    put(g, 1, "infantry", "5a", 2)
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "C dice 1 1 3")  # one hit: not the fortress's two
    assert g.sites["5b"].holder == 2
    play(g, "C dice 4")
    assert g.sites["5b"].holder is None and g.sites["5b"].settlement == "fortress"


def test_4_4_one_settlement_and_one_wall_a_territory():
    g = board()
    for t in ("4a", "5a", "1a"):
        put(g, 1, "infantry", t)
    site(g, "4a", walls=True)
    hand(g, 1, "found-an-outpost", "raise-walls", "swift-decree")
    start(g, 1, "play")
    play(g, "P1 plays swift-decree", "P1 plays found-an-outpost")
    assert legal(g) == ["P1 builds outpost 1a", "P1 builds outpost 5a"]
    assert "one settlement a territory (rule 4.4)" in refused(g, "P1 builds outpost 4a")
    play(g, "P1 builds outpost 5a", "P1 done")
    hand(g, 1, "raise-walls")
    start(g, 1, "play")
    play(g, "P1 plays raise-walls")
    assert legal(g) == ["P1 builds walls 1a", "P1 builds walls 5a"]
    assert "one wall a territory (rule 4.4)" in refused(g, "P1 builds walls 4a")


def test_4_5_the_hero_has_its_cards_numbers():
    g = board()
    put(g, 1, "hero", "5a")
    tiberon = CAT.heroes["tiberon"]
    assert [cards.stat(g, 1, "hero", w) for w in ("attack", "defense", "move", "range")] == [
        tiberon.attack, tiberon.defense, tiberon.move, tiberon.range]
    assert sum(1 for u in opening().units if u.kind == "hero" and u.player == 1) == 1


# ------------------------------------------------------------------ 5. the start of a turn
def test_5_1_rule_and_reign_are_checked_before_production():
    g = board()
    site(g, "1b", "fortress", 1)
    put(g, 1, "infantry", "5a")
    hand(g, 1, "consecrate")
    start(g, 1)
    assert g.pending.kind is Kind.DEPLOY and g.kingdom(1) == 3
    kinds(g)
    play(g, "P1 plays consecrate", "P1 builds temple 5a")
    assert g.kingdom(1) == 5 and not g.over  # reached during the turn: nothing yet
    play(g, "P1 done")
    assert g.current == 2 and not g.over
    start(g, 1)
    assert g.over and g.end is End.REIGN and g.winner == 1


# ------------------------------------------------------------------ 6. production
def test_6_1_the_rebel_bonus_at_one_settlement_or_none():
    g = board()
    put(g, 1, "cavalry", "5a")
    start(g, 1)
    assert g.pending.prompt.endswith("(the rebel bonus)")
    assert legal(g) == ["P1 deploys infantry 4a", "P1 deploys archer 4a", "P1 deploys cavalry 4a"]
    assert "rules 6.1, 7.2" in refused(g, "P1 deploys infantry 5a")
    play(g, "P1 deploys infantry 4a")
    assert g.pending.kind is Kind.DRAW  # the rebel's card, then the outpost's unit and card
    assert kinds(g) == [Kind.DRAW, Kind.DEPLOY, Kind.DRAW]
    g = board()
    del g.sites["4a"]
    put(g, 1, "cavalry", "5a")
    put(g, 1, "infantry", "1a")
    start(g, 1)  # no settlement: into any territory P1's forces occupy
    assert sorted({line.split()[-1] for line in legal(g)}) == ["1a", "5a"]
    g = board()
    site(g, "1b", "outpost", 1)
    start(g, 1)
    assert "rebel" not in g.pending.prompt


def test_6_2_each_settlement_produces_by_its_type():
    g = board()
    del g.sites["4a"]
    site(g, "1b", "fortress", 1)
    site(g, "5a", "palace", 1)
    start(g, 1)
    asked = [(g.pending.kind, g.pending.prompt)]
    while g.pending.kind is not Kind.PLAY:
        play(g, legal(g)[0])
        asked.append((g.pending.kind, g.pending.prompt))
    assert [k for k, _ in asked[:-1]] == [Kind.DEPLOY, Kind.DEPLOY, Kind.DRAW, Kind.DEPLOY, Kind.DRAW, Kind.DRAW]
    assert "fortress at 1b" in asked[0][1] and "palace at 5a" in asked[3][1]
    g = board()
    site(g, "1b", "fortress", 1)
    start(g, 1)
    assert "rule 6.2" in refused(g, "P1 deploys infantry 4a")


def test_6_3_a_sixth_card_is_discarded_at_once():
    g = board()
    site(g, "1b", "outpost", 1)
    hand(g, 1, "war-drums", "battle-cry", "ambush", "fortify", "forced-march")
    start(g, 1)
    play(g, "P1 deploys infantry 1b", "P1 draws rule")
    assert g.pending.kind is Kind.DISCARD and len(g.player(1).hand) == 6
    play(g, "P1 discards ambush")
    assert g.pending.kind is Kind.DEPLOY and len(g.player(1).hand) == 5
    assert g.decks["conquest"].discard == ["ambush"]


# ------------------------------------------------------------------ 7. play a card
def test_7_1_one_card_a_turn_never_an_effect_card():
    g = board()
    put(g, 1, "infantry", "5a")
    hand(g, 1, "battle-cry", "second-wave", "spike-pit-trap")
    start(g, 1, "play")
    assert "rule 7.3" in refused(g, "P1 plays spike-pit-trap")
    play(g, "P1 plays battle-cry")
    assert g.pending.kind is Kind.MOVE and g.turn.power == 2
    assert "rule 7.1" in refused(g, "P1 plays second-wave")


def test_7_2_a_card_traded_for_a_standard_unit():
    g = board()
    site(g, "1b", "outpost", 1)
    put(g, 1, "infantry", "5a")
    hand(g, 1, "spike-pit-trap")
    start(g, 1, "play")
    play(g, "P1 trades spike-pit-trap")
    assert g.pending.kind is Kind.DEPLOY and "a card traded" in g.pending.prompt
    assert "rules 6.1, 7.2" in refused(g, "P1 deploys archer 5a")
    play(g, "P1 deploys archer 1b")
    assert g.player(1).hand == [] and g.decks["conquest"].discard == ["spike-pit-trap"]
    assert g.pending.kind is Kind.MOVE


def test_7_3_effect_cards_answer_their_event():
    g = board()
    put(g, 1, "infantry", "5a", 2)
    put(g, 2, "infantry", "5b")
    hand(g, 2, "spike-pit-trap")
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a")  # the territory and the attackers named: now the trap
    assert g.pending.kind is Kind.REACT and g.pending.player == 2
    play(g, "P2 reacts spike-pit-trap")  # one attacking unit to choose: the engine takes it
    assert len(g.units_at("5a", 1)) == 1 and g.player(2).conquest == 1
    assert g.pending.kind is Kind.DICE and "2 dice" in g.pending.prompt


# ------------------------------------------------------------------ 8. move
def test_8_1_the_hero_moves_besides_the_two_units():
    g = board()
    put(g, 1, "infantry", "4a", 2)
    put(g, 1, "hero", "4a")
    put(g, 2, "infantry", "13b")
    start(g, 1, "move")
    play(g, "P1 moves infantry 4a 5a", "P1 moves infantry 4a 1a", "P1 moves hero 4a 5b")
    assert "rule 8.1" in refused(g, "P1 moves hero 5b 5a")
    assert legal(g) == ["P1 attacks 13b from 5b", "P1 done"]


def test_8_2_two_standard_units_move_a_turn():
    g = board()
    put(g, 1, "infantry", "4a", 3)
    put(g, 1, "hero", "1b")
    start(g, 1, "move")
    play(g, "P1 moves infantry 4a 5a", "P1 moves infantry 4a 1a")
    assert "rule 8.2" in refused(g, "P1 moves infantry 4a 4c")
    assert "rule 8.2" in refused(g, "P1 moves infantry 5a 5b")


def test_8_3_a_unit_moves_up_to_its_move():
    g = board()
    put(g, 1, "infantry", "4a")
    put(g, 1, "cavalry", "4a")
    start(g, 1, "move")
    assert "rules 8.3, 8.4" in refused(g, "P1 moves infantry 4a 13b")  # 3 away
    assert "P1 moves infantry 4a 5a" in legal(g) and "P1 moves infantry 4a 5b" in legal(g)
    play(g, "P1 moves cavalry 4a 13b")  # cavalry: 4
    assert g.units_at("13b", 1)


def test_8_4_never_into_or_through_water_or_enemies():
    g = board()
    put(g, 1, "infantry", "4a")
    put(g, 2, "archer", "5a")
    start(g, 1, "move")
    assert "never into or through water" in refused(g, "P1 moves infantry 4a 4b")
    assert "rules 8.3, 8.4" in refused(g, "P1 moves infantry 4a 5a")  # into the enemy
    assert "rules 8.3, 8.4" in refused(g, "P1 moves infantry 4a 5b")  # through 5a, the one way of two steps
    assert "P1 moves infantry 4a 4c" in legal(g)


# ------------------------------------------------------------------ 9. attack
def test_9_1_one_territory_with_enemy_forces_and_units_in_range():
    g = board(players=3)  # three players: 'P1 leaves' keeps the turn open after the attack
    put(g, 1, "infantry", "5a")
    put(g, 1, "archer", "4a")
    put(g, 2, "infantry", "5b")
    start(g, 1, "move")
    assert "rule 9.1" in refused(g, "P1 attacks 5c from 5a")  # nobody there
    assert "rules 9.1, 13" in refused(g, "P1 attacks 5b from 1b")
    play(g, "P1 attacks 5b from 4a 5a")  # the archer two away joins the infantry next door
    assert fight.power(g, 1, "5b", g.attack.sources) == 4
    play(g, "C dice 1 1 3", "C dice 1")
    assert g.pending.kind is Kind.MOVE and "rule 9.1" in refused(g, "P1 attacks 5b from 5a")


def test_9_2_attack_power_is_the_dice_rolled_in_sets_of_three():
    g = board()
    put(g, 1, "infantry", "5a", 4)
    put(g, 2, "infantry", "5b", 6)
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a")  # attack power 8: 3 dice, 3 dice, then 2
    assert "rule 9.2" in refused(g, "C dice 3 4")
    play(g, "C dice 3 3 3")
    assert "3 dice" in g.pending.prompt
    play(g, "C dice 1 1 3")
    assert "2 dice" in g.pending.prompt and "rule 9.2" in refused(g, "C dice 2 3 4")
    play(g, "C dice 4 4")
    assert g.last_attack.ended == "spent"
    assert "rule 9.2" in refused(g, "C dice 5")
    assert len(g.units_at("5b", 2)) == 6 - 3  # 6 hits, 2 an infantry


def test_9_3_three_blocks_repel_and_three_sixes_ravage():
    g = board()
    put(g, 1, "infantry", "5a", 3)
    put(g, 2, "infantry", "5b")
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "C dice 1 2 2")
    assert g.last_attack.ended == "repelled" and g.current == 2  # nothing left to do: P1's turn ended
    assert "rule 9.3" in refused(g, "C dice 3 4 5")
    g = board()
    put(g, 1, "infantry", "5a", 3)
    put(g, 2, "infantry", "5b", 2)
    put(g, 2, "hero", "5b")
    site(g, "5b", "outpost", 2, walls=True)
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "C dice 6 6 6")
    assert not g.units_at("5b", 2) and not g.sites["5b"].walls and g.sites["5b"].holder is None
    assert g.player(1).conquest == 3 and g.pending.kind is Kind.INVADE


def test_9_4_walls_then_units_then_hero_then_settlement():
    g = board()
    put(g, 1, "infantry", "5a", 4)
    put(g, 1, "infantry", "5c")
    for k in ("infantry", "archer", "hero"):
        put(g, 2, k, "5b")
    site(g, "5b", "outpost", 2, walls=True)
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a 5c", "C dice 3 4 5")  # 11 dice; three hits: the walls
    assert not g.sites["5b"].walls and len(g.units_at("5b", 2)) == 3
    play(g, "C dice 3 5 6")
    assert g.pending.kind is Kind.TARGET and legal(g) == ["P1 targets archer", "P1 targets infantry"]
    play(g, "P1 targets archer")  # 1 for the archer, the 2 left over for the infantry
    assert [u.kind for u in g.units_at("5b", 2)] == ["hero"] and g.player(1).conquest == 2
    play(g, "C dice 1 3 6")  # two hits: Seren's defence
    assert not g.units_at("5b", 2) and g.sites["5b"].holder == 2
    play(g, "C dice 2 4")  # one hit: the outpost (no conquest point for it)
    assert g.sites["5b"].holder is None and g.player(1).conquest == 3


def test_9_5_invading_takes_the_territory_and_its_settlement():
    g = board()
    put(g, 1, "infantry", "5a", 2)
    put(g, 1, "cavalry", "5c")
    put(g, 2, "archer", "5b")
    site(g, "5b", "outpost", 2)
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a 5c", "C dice 3 3 4")
    assert g.pending.kind is Kind.INVADE
    assert "rule 9.5" in refused(g, "P1 invades from 4a")
    play(g, "P1 invades from 5c")
    assert [u.kind for u in g.units_at("5b", 1)] == ["cavalry"] and g.sites["5b"].holder == 1
    g = board()
    put(g, 1, "infantry", "5a", 2)
    put(g, 2, "archer", "5b")
    site(g, "5b", "outpost", 2)
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "C dice 3 3 4", "P1 stays")
    assert g.sites["5b"].holder is None and g.holder("5b") is None  # vacant until someone moves in


# ------------------------------------------------------------------ 10. elimination and leaving
def test_10_1_a_player_with_no_forces_is_out():
    g = clear(opening())
    site(g, "4a", "outpost", 1)
    put(g, 1, "infantry", "5a", 2)
    put(g, 2, "archer", "5b")
    hand(g, 2, "?conquest", "battle-cry")
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a")
    play(g, "P2 holds", "C dice 3 4 5")
    assert g.player(2).out and g.player(2).hand == [] and g.over and g.end is End.LAST_STANDING
    assert Counter(g.decks["conquest"].discard) == Counter({"battle-cry": 1, None: 1})


def test_10_2_a_player_who_leaves_takes_everything_off():
    g = board(players=3)
    site(g, "13c", walls=True)
    site(g, "12b", temple=True)
    put(g, 2, "infantry", "12b")
    put(g, 2, "hero", "13c")
    g.player(2).items = ["starbow"]
    hand(g, 2, "?rule", "fortify")
    start(g, 2, "move")
    play(g, "P2 leaves")
    assert g.player(2).out and not [u for u in g.units if u.player == 2] and g.player(2).hand == []
    assert g.player(2).items == [] and g.decks["conquest"].discard == ["starbow"]
    assert Counter(g.decks["reign"].discard) == Counter({"fortify": 1}) and g.decks["rule"].discard == [None]
    assert "13c" not in g.sites or g.sites["13c"].settlement is None
    assert not g.sites.get("12b") or not g.sites["12b"].temple
    assert g.walls_left == 12 and g.temples_left == 2 and not g.over
    assert g.current == 3


# ------------------------------------------------------------------ 11. turns are final
def test_11_1_a_verdict_names_the_first_illegal_decision():
    lines = [*OPENING, "P1 deploys infantry 1b", "P1 draws rule", "P1 deploys infantry 4a", "P1 draws rule",
             "P1 skips", "P1 moves infantry 4a 5a", "P1 moves infantry 4a 5c", "P1 moves infantry 1b 1a",
             "P1 done", "P2 deploys infantry 3b"]
    res = replay(log(lines))
    assert res.verdict.status is VerdictStatus.ILLEGAL
    assert res.verdict.index == len(OPENING) + 7 and "rule 8.2" in res.verdict.rule


# ------------------------------------------------------------------ 12. structure ownership
def test_12_1_structures_belong_to_whoever_holds_the_territory():
    g = board()
    site(g, "5a", walls=True, temple=True)
    assert g.holder("5a") is None and g.kingdom(1) == 1
    put(g, 1, "infantry", "4a")
    start(g, 1, "move")
    play(g, "P1 moves infantry 4a 5a")  # no attack needed for vacant walls
    assert g.holder("5a") == 1 and g.kingdom(1) == 1 + 2
    g.units = [u for u in g.units if u.where != "5a"]
    put(g, 2, "infantry", "5a")
    assert g.kingdom(2) == 1 + 2 and g.kingdom(1) == 1


# ------------------------------------------------------------------ 13. range
def test_13_1_range_counts_territories_not_gaps():
    g = clear(opening())
    field(g, "5@0,0 -1,0 -1,1", "13@2,0 3,0 2,1")  # hex 1,0 between 5a and 13a is a gap
    put(g, 1, "archer", "5a")
    put(g, 2, "infantry", "13a")
    start(g, 1, "move")
    assert "rules 9.1, 13" in refused(g, "P1 attacks 13a from 5a")
    g.land.lay("12", CAT.tiles["12"].terrains, ((1, 0), (1, -1), (2, -1)))  # the gap filled by a territory
    play(g, "P1 attacks 13a from 5a")


# ------------------------------------------------------------------ 14. upgrades
def test_14_1_an_upgrade_lasts_the_game():
    g = board()
    put(g, 1, "infantry", "4a")
    hand(g, 1, "standard-bearers")
    start(g, 1, "play")
    play(g, "P1 plays standard-bearers")
    assert g.player(1).upgrades == ["standard-bearers"] and cards.stat(g, 1, "infantry", "move") == 3
    play(g, "P1 done")
    start(g, 1, "move")
    assert "P1 moves infantry 4a 13b" in legal(g)  # three away, a turn later


# ------------------------------------------------------------------ 15. heroic items
def test_15_1_a_heroic_item_passes_to_the_heros_defeater():
    g = board()
    put(g, 1, "hero", "5a")
    put(g, 2, "hero", "5b")
    put(g, 2, "infantry", "5b", 2)
    hand(g, 1, "aegis-of-dawn")
    start(g, 1, "play")
    play(g, "P1 plays aegis-of-dawn", "P1 done")
    assert g.player(1).items == ["aegis-of-dawn"]
    assert cards.stat(g, 1, "hero", "defense") == CAT.heroes["tiberon"].defense + 2
    start(g, 2, "move")
    assert fight.power(g, 2, "5a", ("5b",)) == CAT.heroes["seren"].attack + 2 + 2 == 6
    play(g, "P2 attacks 5a from 5b", "C dice 3 4 5", "C dice 3 4 5")  # six hits beat the hero's 3 + 2
    assert g.hero_unit(1) is None and g.player(1).items == [] and g.player(2).items == ["aegis-of-dawn"]
    assert cards.stat(g, 2, "hero", "defense") == CAT.heroes["seren"].defense + 2
