"""Where the Elysian Battlefields book is silent, and what the engine chose (docs/elysian-rules.md,
"Silences and choices" C1-C31), one test each; and the check that every test the doc names exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.elysian import cards, fight
from engine.elysian.board import hex_name, read_hex
from engine.elysian.catalog import load
from engine.elysian.game import End
from engine.elysian.lines import Kind, format_line, parse_line
from engine.elysian.pieces import SETTLEMENT_SUPPLY, TEMPLES_SUPPLY, UNITS_EACH, WALLS_SUPPLY
from engine.elysian.rules import GAME_INFO, RULES
from engine.log import LogFormatError, parse_log
from engine.replay import VerdictStatus, replay

from .elysian_helpers import (
    OPENING,
    board,
    field,
    game,
    hand,
    legal,
    log,
    play,
    put,
    refused,
    seated,
    site,
    start,
)

CAT = load()
HERE = Path(__file__).resolve().parent


def test_c1_a_tile_is_three_hexes_listed_clockwise_never_turned_over():
    g = game(OPENING[:10])
    assert "the first tile covers hex 0,0 (C1)" in refused(g, "P1 lays 5 at 1,0 2,0 1,1")
    assert "never turned over (C1)" in refused(g, "P1 lays 5 at 0,0 0,1 1,0")
    assert "triangle (C1)" in refused(g, "P1 lays 5 at 0,0 1,0 2,0")
    play(g, "P1 lays 5 at 0,1 0,0 1,0")  # the tile turned on the table, still clockwise
    assert {t: hex_name(g.land.territories[t].hex) for t in ("5a", "5b", "5c")} == {"5a": "0,1", "5b": "0,0",
                                                                                   "5c": "1,0"}
    assert tuple(g.land.territories[t].terrain for t in ("5a", "5b", "5c")) == CAT.tiles["5"].terrains


def test_c2_contact_is_a_hex_next_to_a_laid_tiles_hex():
    g = game(OPENING[:12])  # tiles 5 and 3 laid
    lays = [d for d in g.legal_decisions() if d.args[0] == "4"]
    assert lays and all(len(g.land.tiles_touched(tuple(read_hex(w) for w in d.args[2:]))) >= 2 for d in lays)
    assert "touches 1 (rule 2.4, C2)" in refused(g, "P1 lays 4 at -1,0 -2,0 -1,-1")
    play(g, "P1 lays 4 at 0,-1 -1,0 -1,-1")  # 0,-1 is next to 0,0 (tile 5) and 1,-1 (tile 3)
    assert g.land.tiles == ["5", "3", "4"]


def test_c3_the_mountain_bonus_is_per_territory_not_per_unit():
    g = board()
    put(g, 1, "infantry", "5c", 2)
    put(g, 1, "infantry", "3a")
    put(g, 2, "infantry", "5b")
    assert fight.power(g, 1, "5b", ("5c",)) == 4 + 1
    assert fight.power(g, 1, "5b", ("3a", "5c")) == 6 + 2


def test_c4_only_the_tied_highest_roll_again_as_often_as_needed():
    g = game(["C rolls P1 6", "C rolls P2 6", "C rolls P3 2"], players=3)
    assert g.pending.kind is Kind.ROLL and "C4" in refused(g, "C rolls P3 4")
    play(g, "C rolls P1 3", "C rolls P2 3")  # tied again
    play(g, "C rolls P1 1", "C rolls P2 5")
    assert g.order == [2, 3, 1] and g.pending.kind is Kind.HERO and g.pending.player == 1


def test_c5_at_most_five_players_one_hero_each():
    assert GAME_INFO.max_players == len(CAT.heroes) == 5
    g = game(seated(5), players=5)
    assert sorted(p.hero for p in g.players) == sorted(CAT.heroes) and g.pending.kind is Kind.TILE
    with pytest.raises(LogFormatError) as e:
        parse_log(log(players=6))
    assert e.value.errors[0]["path"] == "/setup/players"


def test_c6_the_supply_counts():
    assert (UNITS_EACH, SETTLEMENT_SUPPLY, WALLS_SUPPLY, TEMPLES_SUPPLY) == (
        6, {"outpost": 3, "fortress": 2, "palace": 2}, 12, 2)
    g = board()
    put(g, 1, "infantry", "5a", 6)
    start(g, 1)  # the rebel bonus: no seventh infantry
    assert legal(g) == ["P1 deploys archer 4a", "P1 deploys cavalry 4a"]
    assert "6 infantry units are all on the field (C6)" in refused(g, "P1 deploys infantry 4a")
    g = board()
    put(g, 1, "infantry", "5a")
    put(g, 1, "infantry", "5c")
    site(g, "1b", "outpost", 1)
    site(g, "1c", "outpost", 1)  # all three of P1's outposts are on the field
    hand(g, 1, "found-an-outpost")
    start(g, 1, "play")
    play(g, "P1 plays found-an-outpost")
    assert g.pending.kind is Kind.MOVE  # nowhere to build one: the card does nothing


def test_c7_walls_and_temples_only_by_cards_where_your_forces_are():
    g = board()
    put(g, 1, "infantry", "5a")
    put(g, 1, "infantry", "1a")
    put(g, 2, "infantry", "5b")
    start(g, 1, "move")
    assert "only when a card played says so (C7)" in refused(g, "P1 builds walls 5a")
    hand(g, 1, "consecrate")
    start(g, 1, "play")
    play(g, "P1 plays consecrate")
    assert legal(g) == ["P1 builds temple 1a", "P1 builds temple 4a", "P1 builds temple 5a"]
    assert "(C7)" in refused(g, "P1 builds temple 5b")  # P2's
    assert "nothing is built in water" in refused(g, "P1 builds temple 4b")
    play(g, "P1 builds temple 5a")
    assert g.sites["5a"].temple and g.temples_left == 1
    hand(g, 1, "consecrate")
    start(g, 1, "play")
    play(g, "P1 plays consecrate")
    assert "one temple a territory (C7)" in refused(g, "P1 builds temple 5a")


def test_c8_the_hero_is_one_of_the_four_arming_objects():
    g = game(OPENING[:26])
    play(g, "P1 arms 4a infantry", "P1 arms 4a archer", "P1 arms 1b cavalry")
    assert legal(g) == ["P1 arms 1b hero", "P1 arms 4a hero"]
    assert "(C8)" in refused(g, "P1 arms 4a walls")


def test_c9_a_heros_ability_works_while_the_hero_is_on_the_field():
    g = board()
    put(g, 1, "hero", "1b")
    put(g, 1, "infantry", "5a")
    put(g, 2, "infantry", "5b")
    assert cards.stat(g, 1, "infantry", "defense") == 2 + 1  # Tiberon's Shieldwall Drill
    start(g, 2, "move")
    play(g, "P2 attacks 5a from 5b", "C dice 3 4")
    assert g.units_at("5a", 1)  # two hits do not beat 3
    g.units = [u for u in g.units if u.kind != "hero"]
    g.lasting_changed()  # taken off by hand: the game's own removals say so themselves
    assert cards.stat(g, 1, "infantry", "defense") == 2


def test_c10_attackers_are_named_by_territory():
    g = board()
    put(g, 1, "infantry", "5a", 2)
    put(g, 1, "archer", "4a")
    put(g, 1, "infantry", "4a")  # two away: it does not reach
    put(g, 2, "infantry", "5b", 3)
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 4a 5a")
    assert g.attack.sources == ("4a", "5a")
    assert sorted((u.kind, u.where) for u in fight.attackers(g, 1, "5b", g.attack.sources)) == [
        ("archer", "4a"), ("infantry", "5a"), ("infantry", "5a")]
    assert "3 dice" in g.pending.prompt and fight.power(g, 1, "5b", g.attack.sources) == 6


def test_c11_an_empty_deck_takes_back_its_discard_pile_and_no_deck_left_no_card():
    g = board()
    g.decks["rule"].pile, g.decks["rule"].discard = [], ["forced-march", "open-roads"]
    g.shown.update({"forced-march": 1, "open-roads": 1})
    start(g, 1)
    play(g, "P1 deploys infantry 4a", "P1 draws rule")
    assert (len(g.decks["rule"].pile), g.decks["rule"].discard) == (1, [])
    assert g.shown["forced-march"] == 0 and g.player(1).hand == [("rule", None)]
    g.decks["rule"].pile = []
    play(g, "P1 deploys infantry 4a")
    assert g.pending.kind is Kind.DRAW and "(C11)" in refused(g, "P1 draws rule")
    g = board()
    site(g, "1b", "outpost", 1)  # two settlements: no rebel bonus
    for d in g.decks.values():
        d.pile, d.discard = [], []
    start(g, 1)
    play(g, "P1 deploys infantry 1b", "P1 deploys infantry 4a")  # no card to draw: those steps pass
    assert g.pending.kind is Kind.MOVE and g.player(1).hand == [] and format_line(g.auto[-1]) == "P1 skips"


def test_c12_a_card_named_must_have_been_possible():
    g = board()
    put(g, 1, "infantry", "5a")
    hand(g, 1, "?conquest")
    g.shown["battle-cry"] = CAT.decks["conquest"]["battle-cry"]
    start(g, 1, "play")
    assert "all 4 of its copies are already seen elsewhere (C12)" in refused(g, "P1 plays battle-cry")
    assert "holds no card from the reign deck" in refused(g, "P1 plays fortify")
    play(g, "P1 plays war-drums")
    assert g.player(1).hand == [] and g.shown["war-drums"] == 1


def test_c13_items_pass_to_the_defeaters_hero_or_are_discarded():
    g = board()
    put(g, 1, "hero", "5a")
    g.player(1).items = ["aegis-of-dawn"]
    put(g, 2, "archer", "5b", 3)  # no hero of P2's on the field
    start(g, 2, "move")
    play(g, "P2 attacks 5a from 5b", "C dice 3 4 5", "C dice 3 4 5")
    assert g.hero_unit(1) is None and g.player(2).items == [] and g.decks["conquest"].discard == ["aegis-of-dawn"]


def test_c14_fifteen_conquest_points_end_the_game_at_once_even_in_anothers_turn():
    g = board()
    put(g, 1, "infantry", "5a", 2)
    put(g, 2, "infantry", "5b")
    hand(g, 2, "spike-pit-trap")
    g.player(2).conquest = 14
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "P2 reacts spike-pit-trap")  # the trap's one target: taken by the engine
    assert g.over and g.end is End.CONQUER and g.winner == 2 and g.current == 1


def test_c15_the_last_player_left_wins():
    g = board(players=3)
    put(g, 1, "infantry", "5a", 2)
    put(g, 2, "infantry", "12b")
    start(g, 2, "move")
    play(g, "P2 leaves")
    del g.sites["3b"]  # P3 is left with one unit
    put(g, 3, "archer", "5b")
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "C dice 1 3 4")
    assert g.over and g.end is End.LAST_STANDING and g.winner == 1 and g.ranks() == [1, 3, 2]


def test_c16_ranks():
    g = board(players=4)
    g.remove_player(4)
    g.remove_player(2)
    site(g, "5a", "fortress", 3)
    site(g, "5b", "palace", 3)
    start(g, 3)
    assert g.end is End.REIGN and g.ranks() == [2, 3, 1, 4]  # the winner; P1 still playing; then P2 (out last), P4
    g = board(players=4)
    g.remove_player(4)
    g.call_time()
    assert g.end is End.TIME and g.ranks() == [1, 1, 1, 4]  # time: all still playing share first
    g = board(players=3)
    g.concede(2)
    assert g.end is End.CONCESSION and g.winner is None and g.ranks() == [1, 3, 1]
    g = board()
    g.concede(1)
    assert g.winner == 2 and g.ranks() == [2, 1]


def test_c17_leaving_at_ones_own_move_with_three_players_concession_otherwise():
    g = board()
    put(g, 1, "infantry", "5a")
    put(g, 2, "infantry", "5b")
    start(g, 1, "move")
    assert "concedes ('P1 concede') rather than leaves (C17)" in refused(g, "P1 leaves")
    g = board(players=3)
    put(g, 1, "infantry", "5a")
    start(g, 1, "move")
    assert "P1 leaves" in legal(g) and "not P2's decision" in refused(g, "P2 leaves")
    play(g, "P1 leaves")
    assert g.player(1).out and g.gone == [1] and g.current == 2 and not g.over


def test_c30_a_player_out_in_their_own_turn_decides_nothing_more():
    g = board(players=4)
    del g.sites["4a"]
    put(g, 1, "infantry", "5a")
    put(g, 2, "infantry", "5b")
    hand(g, 2, "spike-pit-trap")
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "P2 reacts spike-pit-trap")  # the trap takes P1's last unit
    assert g.player(1).out and g.current == 2 and g.pending.player == 2


def test_c18_hits_carry_over_and_the_target_is_asked_only_when_it_matters():
    g = board()
    put(g, 1, "infantry", "5a", 3)
    put(g, 2, "infantry", "5b")
    put(g, 2, "archer", "5b")
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "C dice 1 1 3")  # one hit waits, two kinds: asked
    assert g.pending.kind is Kind.TARGET
    play(g, "P1 targets infantry")
    assert g.attack.hits == 1 and len(g.units_at("5b", 2)) == 2
    play(g, "C dice 1 2 4")  # the hit carried over and this one: the infantry; the archer is all that is left
    assert [u.kind for u in g.units_at("5b", 2)] == ["archer"] and g.last_attack.ended == "spent"
    g = board()
    put(g, 1, "infantry", "5a", 2)
    put(g, 2, "infantry", "5b")
    put(g, 2, "archer", "5b")
    site(g, "5b", walls=True)
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "C dice 3 4 5")  # exactly the walls: no hit waits, nothing asked
    assert g.pending.kind is Kind.DICE


def test_c19_an_attack_needs_attack_power_and_rolls_nothing_at_zero():
    g = board()
    put(g, 1, "infantry", "5a")
    put(g, 2, "infantry", "5b")
    put(g, 2, "infantry", "4c")
    hand(g, 2, "blinding-mist")
    start(g, 1, "move")
    assert "nothing to roll (C19)" in refused(g, "P1 attacks 4c from 5a")  # 2 - 2 for the forest
    play(g, "P1 attacks 5b from 5a", "P2 reacts blinding-mist")
    assert g.last_attack.ended == "spent" and g.last_attack.sets == 0 and g.attack is None


def test_c20_extra_attacks_may_use_the_same_units_and_nothing_moves_after_an_attack():
    g = board()
    put(g, 1, "infantry", "5a", 2)
    put(g, 1, "cavalry", "4a")
    put(g, 2, "infantry", "5b", 2)
    put(g, 2, "infantry", "5c", 2)
    hand(g, 1, "war-drums")
    start(g, 1, "play")
    play(g, "P1 plays war-drums", "P1 attacks 5b from 5a", "C dice 1 1 3", "C dice 1 1")
    assert "(C20)" in refused(g, "P1 moves cavalry 4a 1a")
    play(g, "P1 attacks 5c from 5a")  # the same infantry again
    assert g.attack.target == "5c"


def test_c21_range_counts_territories_of_any_terrain():
    g = board()
    field(g, "8@0,0 1,0 0,1", "5@-1,0 -2,0 -2,1")  # 5a and 8b are two apart, over the water 8a
    put(g, 1, "archer", "5a")
    put(g, 2, "infantry", "8b")
    start(g, 1, "move")
    assert g.land.distances("5a", 2)["8b"] == 2
    play(g, "P1 attacks 8b from 5a")
    g = board()
    put(g, 1, "archer", "4a")
    put(g, 2, "infantry", "5a")
    put(g, 2, "infantry", "5b")
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 4a")  # over 5a, a territory of P2's


def test_c22_the_rebel_bonus_needs_forces_on_the_field():
    g = board()
    del g.sites["4a"]  # P1 has nothing left (by hand: the rules would have put P1 out)
    put(g, 2, "infantry", "5b")
    start(g, 1)
    assert [format_line(d) for d in g.auto[-2:]] == ["P1 skips", "P1 done"] and g.current == 2


def test_c23_a_vacant_settlement_is_taken_by_ending_a_move_there():
    g = board()
    site(g, "5a", "outpost", None)
    put(g, 1, "cavalry", "4a", 2)
    put(g, 2, "infantry", "13b")
    start(g, 1, "move")
    play(g, "P1 moves cavalry 4a 5b")  # through 5a
    assert g.sites["5a"].holder is None
    play(g, "P1 moves cavalry 4a 5a")
    assert g.sites["5a"].holder == 1 and "5a" in g.settlements(1)


def test_c24_an_upgrade_card_turns_an_outpost_into_a_fortress_or_palace():
    g = board()
    put(g, 1, "infantry", "5a")
    site(g, "5a", "outpost", 1)
    site(g, "1b", "fortress", 1)
    hand(g, 1, "fortify")
    start(g, 1, "play")
    play(g, "P1 plays fortify")
    assert legal(g) == ["P1 upgrades 4a", "P1 upgrades 5a"]
    assert "(C24)" in refused(g, "P1 upgrades 1b")
    play(g, "P1 upgrades 4a")
    assert g.sites["4a"].settlement == "fortress" and g.player(1).supply["fortress"] == 0
    assert g.player(1).supply["outpost"] == SETTLEMENT_SUPPLY["outpost"] - 1
    hand(g, 1, "fortify")
    start(g, 1, "play")
    play(g, "P1 plays fortify")  # both fortresses are on the field: the card does nothing
    assert g.pending.kind is Kind.MOVE and g.sites["5a"].settlement == "outpost"


def test_c25_a_hand_discarded_on_elimination_is_discarded_unseen():
    g = board()
    del g.sites["13c"]
    put(g, 1, "infantry", "5a", 2)
    put(g, 2, "archer", "5b")
    hand(g, 2, "?reign", "?reign", "forced-march")
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "C dice 3 4 5")
    assert g.player(2).out and g.decks["reign"].discard == [None, None]
    assert g.decks["rule"].discard == ["forced-march"] and g.shown["forced-march"] == 1


def test_c26_dice_are_unordered_and_only_a_full_set_repels_or_ravages():
    assert format_line(parse_line("C dice 6 2 5")) == "C dice 2 5 6"
    g = board()
    put(g, 1, "infantry", "5a", 4)
    put(g, 2, "infantry", "5b", 4)
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "C dice 3 3 1", "C dice 5 1 3", "C dice 1 2")  # 8: the last two blocks
    assert g.last_attack.ended == "spent"
    g = board()
    put(g, 1, "infantry", "5a", 4)
    put(g, 2, "infantry", "5b", 4)
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a", "C dice 1 1 3", "C dice 1 1 3", "C dice 6 6")  # two sixes: two hits
    assert g.last_attack.ended == "spent" and len(g.units_at("5b", 2)) == 2


def test_c27_a_game_still_going_after_forty_rounds_ends_at_the_house_limit(monkeypatch):
    """The house limit ends a game at the start of round 41 as time called would: the players still
    in share the first place; its log claims "round limit" and verifies as that."""
    from engine.elysian import game as game_module

    assert game_module.ROUND_LIMIT == 40
    monkeypatch.setattr(game_module, "ROUND_LIMIT", 1)
    lg = RULES.self_play(5, players=3)
    assert lg["result"]["reason"] == "round limit" and lg["result"]["ranks"].count(1) >= 2  # all still playing share
    res = replay(lg, keep_game=True)
    assert res.verdict.status is VerdictStatus.VALID and res.game.round == 1
    assert res.game.end == "round limit" and "the house limit" in RULES.result_words(res.game, ["A", "B", "C"])


def test_c28_a_strike_reaches_next_to_your_forces_up_to_its_number():
    g = board()
    put(g, 1, "infantry", "5a")
    put(g, 2, "archer", "5b")
    put(g, 2, "infantry", "5c")
    put(g, 2, "cavalry", "12c")
    hand(g, 1, "night-raid")
    start(g, 1, "play")
    play(g, "P1 plays night-raid")
    assert "strike reaches only there (C28)" in refused(g, "P1 strikes cavalry 12c")
    play(g, "P1 strikes archer 5b")
    assert g.player(1).conquest == 1 and g.pending.kind is Kind.STRIKE
    play(g, "P1 stops")  # up to two
    assert g.units_at("5c", 2) and g.pending.kind is Kind.MOVE


def test_c29_one_reaction_by_the_defender_which_a_log_may_leave_out():
    g = board()
    put(g, 1, "infantry", "5a", 3)
    put(g, 2, "infantry", "5b", 2)
    hand(g, 2, "blinding-mist", "spike-pit-trap")
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 5a")
    assert g.pending.default == parse_line("P2 holds")
    play(g, "P2 reacts blinding-mist")  # no second reaction: the dice
    assert g.pending.kind is Kind.DICE and g.attack.penalty == 2
    assert g.player(2).hand == [("conquest", "spike-pit-trap")]
    turn = ["P1 deploys infantry 1b", "P1 draws rule", "P1 deploys cavalry 4a", "P1 draws rule", "P1 skips",
            "P1 moves cavalry 4a 3a", "P1 attacks 3b from 3a", "C dice 1 3 5", "P1 invades from 3a"]
    lg = log([*OPENING, *turn], result={"ranks": [1, 1], "reason": "time"})  # P2's reaction left out
    assert replay(lg).verdict.status is VerdictStatus.VALID, replay(lg).verdict.message
    written = log([*OPENING, *turn[:7], "P2 holds", *turn[7:]], result={"ranks": [1, 1], "reason": "time"})
    assert replay(written).verdict.status is VerdictStatus.VALID


def test_c31_invaders_are_chosen_by_territory():
    g = board()
    put(g, 1, "archer", "4a")
    put(g, 1, "infantry", "5a")
    put(g, 1, "infantry", "4a")  # not an attacker: it does not reach 5b
    put(g, 2, "archer", "5b")
    start(g, 1, "move")
    play(g, "P1 attacks 5b from 4a 5a", "C dice 1 1 3")
    assert legal(g) == ["P1 invades from 4a", "P1 invades from 5a", "P1 invades from 4a 5a", "P1 stays"]
    play(g, "P1 invades from 4a")  # the archer, two away, moves straight in; the infantry in 4a stays
    assert [u.kind for u in g.units_at("5b", 1)] == ["archer"] and [u.kind for u in g.units_at("4a", 1)] == [
        "infantry"]


def test_every_test_the_rules_doc_names_exists():
    doc = (HERE.parents[2] / "docs" / "elysian-rules.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", doc))
    defined = {m for f in HERE.glob("test_*.py") for m in re.findall(r"^def (test_[a-z0-9_]+)", f.read_text(), re.M)}
    assert named and named <= defined, sorted(named - defined)
    numbered = set(re.findall(r"^\| (C\d+|\d+\.\d+) \|", doc, re.M))
    assert {f"C{i}" for i in range(1, 32)} <= numbered

