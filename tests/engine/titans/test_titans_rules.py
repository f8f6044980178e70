"""The rules of Titans of Empyrean, one test per rule of docs/titans-rules.md (sections 1-10),
named by the rule's number. Positions are set up by hand (titans_helpers) and every line goes
through the game's own check, as a log's lines do."""

from __future__ import annotations

import pytest
from titans_helpers import (
    ahead,
    clear_field,
    fresh,
    game,
    log,
    place,
    play,
    refused,
    start_action,
    start_resolution,
    titan,
)

from engine.log import LogFormatError, parse_log
from engine.replay import VerdictStatus, replay
from engine.titans.abilities import region
from engine.titans.catalog import load, versions
from engine.titans.lines import Kind, parse_line
from engine.titans.rules import RULES

CAT = load("1")  # the catalog of the helpers' logs (titans_helpers.log)


# ------------------------------------------------------------------ 1. titans
@pytest.mark.parametrize("version", versions())
def test_1_1_a_titan_has_four_properties_and_an_ability(version):
    for t in load(version).titans.values():
        assert t.stack > 0 and t.initiative > 0 and t.strength >= 0 and t.endurance >= 0
        assert t.ability_name and t.text and t.effects


def test_1_2_a_stack_never_exceeds_its_size():
    g = fresh()
    t = place(g, "P1 ashmaw", "D4", "NW")
    start_action(g, "P1 ashmaw")
    assert len(t.stack) == t.card.stack
    assert "full" in refused(g, "P1 ashmaw replenish in")
    t.stack = t.stack[:-1]
    g.sides[0].reserve[0] = "resupply"
    play(g, "P1 ashmaw play reserve resupply")  # replenish 2, but only one place is free
    assert len(t.stack) == t.card.stack


def test_1_3_a_titan_that_must_burn_and_cannot_dies():
    g = fresh()
    t = place(g, "P1 ashmaw", "A1", "NW", stack=[])
    start_action(g, "P1 ashmaw")
    play(g, "P1 ashmaw move")  # off the board: it must burn and has nothing
    assert not t.alive and t.hex is None


# ------------------------------------------------------------------ 2. setup
def test_2_1_a_squad_is_four_titans_of_one_species():
    with pytest.raises(LogFormatError) as e:
        game(squads=[{"species": "dragon", "titans": ["ashmaw", "cinderwing", "old-vermax", "shrill"]},
                     {"species": "harpy"}])
    assert e.value.errors[0]["path"] == "/setup/squads/0/titans"
    g = game()
    assert [t.key for t in g.titans if t.player == 1] == list(CAT.species["dragon"].titans)


def test_2_2_the_deck_is_21_basic_and_7_species_maneuvers():
    g = game()
    rule = g.sides[0].rule
    from collections import Counter
    assert sum(rule.basic.values()) == 21 and sum(rule.main.values()) == 11
    seven = Counter(["gout-of-flame"] * 3 + ["dragonscale"] * 3 + ["wing-buffet"])
    assert rule.allows(seven) and not rule.allows(seven + Counter(["hoard-hunger"]))
    assert not rule.allows(Counter(["screech"]))  # another species' card is not in the deck


def test_2_3_the_deal_fills_each_stack_and_the_rest_is_the_reserve():
    g = game(seed=7)
    for p in (1, 2):
        squad = [t for t in g.titans if t.player == p]
        assert all(len(t.stack) == t.card.stack and None not in t.stack for t in squad)
        assert len(g.sides[p - 1].reserve) == 28 - sum(t.card.stack for t in squad)
    assert not any(line.startswith("C deal") for line in RULES.self_play(7)["decisions"])


def test_2_4_titans_start_off_the_field_and_enter_in_round_1():
    g = game()
    assert g.round == 1 and all(t.hex is None for t in g.titans)
    legal = g.legal_decisions()
    assert legal and {d.verb for d in legal} <= {"enter", "play", "replenish"}
    assert "must enter" in refused(g, f"P{g.pending.player} {legal[0].titan} stay")


def test_2_5_hazards_lie_face_down_where_the_setup_puts_them():
    g = game(hazards="centre")
    assert sorted(CAT.board.name(h) for h in g.hazards) == sorted(CAT.layouts["centre"])
    assert all(v is None for v in g.hazards.values())  # face down: nothing known of them


# ------------------------------------------------------------------ 3. the round
def test_3_1_titans_act_from_highest_initiative_down():
    g = game()
    inits = [g.titans[i].card.initiative for i in g.order]
    assert inits == sorted(inits, reverse=True)
    assert g.pending.titan == g.order[0]


def test_3_2_resolution_follows_all_action_phases_in_the_same_order():
    g = game()
    steps = [s for s in g.todo if s[0] in ("action", "resolve", "resolution")]
    actions = [s[1] for s in steps[:steps.index(("resolution",))]]
    resolves = [s[1] for s in steps[steps.index(("resolution",)) + 1:]]
    assert [g.pending.titan, *actions] == g.order == resolves


def test_3_3_looking_at_a_top_card_is_not_a_line():
    with pytest.raises(ValueError):
        parse_line("P1 ashmaw look stack")


# ------------------------------------------------------------------ 4. the action phase
def test_4_1_the_move_is_one_hex_forward_and_mandatory():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW")
    start_action(g, "P1 cinderwing")
    assert "not made its move" in refused(g, "P1 cinderwing done")
    play(g, "P1 cinderwing move")
    assert CAT.board.name(t.hex) == ahead(g, "D4", "NW")
    assert "already used its move" in refused(g, "P1 cinderwing move")


def test_4_2_each_other_action_at_most_once_in_any_order():
    g = fresh()
    place(g, "P1 cinderwing", "D4", "NW", stack=[None, None])
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing turn left")
    assert "already used its turn" in refused(g, "P1 cinderwing turn right")
    play(g, "P1 cinderwing replenish out")
    assert "already used its replenish" in refused(g, "P1 cinderwing replenish in")
    play(g, "P1 cinderwing move")
    play(g, "P1 cinderwing done")
    assert g.pending is None


def test_4_3_round_1_entry_uses_the_two_facings_of_the_players_side():
    g = game()
    first = g.titans[g.pending.titan]
    p = first.player
    good = g.cat.board.entry_facings[p - 1]
    bad = next(f for f in ("NE", "NW", "SE", "SW") if f not in good)
    hexes = {d.args[0] for d in g.legal_decisions() if d.verb == "enter"}
    some = sorted(hexes)[0]
    assert "round 1" in refused(g, f"P{p} {first.key} enter {some} {bad}")
    enters = [d for d in g.legal_decisions() if d.verb == "enter"]
    assert {d.args[1] for d in enters} == set(good)
    assert "D4" not in hexes  # only border hexes
    play(g, f"P{p} {first.key} enter {enters[0].args[0]} {enters[0].args[1]}")
    assert first.hex is not None


def test_4_4_turn_one_facing_left_or_right():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW")
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing turn left")
    assert t.facing == "W"
    g2 = fresh()
    t2 = place(g2, "P1 cinderwing", "D4", "NW")
    start_action(g2, "P1 cinderwing")
    play(g2, "P1 cinderwing turn right")
    assert t2.facing == "NE"


def test_4_5_contact_is_the_same_or_an_adjacent_hex():
    g = fresh()
    t = place(g, "P1 ashmaw", "D4", "NW")
    place(g, "P2 shrill", "D5", "W")  # adjacent, behind-right
    place(g, "P2 tempest", "D4", "W")  # same hex
    place(g, "P2 carrion-queen", "B2", "W")  # two away
    assert {o.key for o in region(g, t, "contact", None)} == {"shrill", "tempest"}


def test_4_6_a_collision_burns_actives_and_deals_one_damage_to_each():
    g = fresh()
    mover = place(g, "P1 ashmaw", "D4", "NW", active="battle-fury")
    there = place(g, "P2 carrion-queen", ahead(g, "D4", "NW"), "SE", active="braced-wings")
    also = place(g, "P2 shrill", ahead(g, "D4", "NW"), "SE")
    start_action(g, "P1 ashmaw")
    play(g, "P1 ashmaw move")
    assert (mover.damage, there.damage, also.damage) == (1, 1, 1)
    assert mover.active is None and there.active is None
    assert g.sides[0].burned == ["battle-fury"] and g.sides[1].burned == ["braced-wings"]
    late = place(g, "P2 tempest", ahead(g, "D4", "D4" and "NW") and "D4", "NW")  # a third arrival
    start_action(g, "P2 tempest")
    play(g, "P2 tempest move")
    assert (mover.damage, there.damage, also.damage) == (2, 2, 2) and late.damage == 0  # Gale Wings


def test_4_7_burn_and_turn_only_right_after_moving():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW", stack=["tailwind", None, None])
    start_action(g, "P1 cinderwing")
    assert "right after its move" in refused(g, "P1 cinderwing burn-turn stack tailwind")
    play(g, "P1 cinderwing move")
    play(g, "P1 cinderwing burn-turn stack tailwind")
    assert t.facing == "SE" and g.sides[0].burned == ["tailwind"]
    g2 = fresh()
    place(g2, "P1 cinderwing", "D4", "NW")
    start_action(g2, "P1 cinderwing")
    play(g2, "P1 cinderwing move")
    play(g2, "P1 cinderwing turn left")
    assert "right after its move" in refused(g2, "P1 cinderwing burn-turn reserve")
    g4 = fresh()  # C8: an entry is a move that leaves it on the field
    t4 = place(g4, "P1 cinderwing", None)
    start_action(g4, "P1 cinderwing")
    play(g4, "P1 cinderwing enter G2 NE")
    play(g4, "P1 cinderwing burn-turn reserve")
    assert t4.facing == "SW"
    g3 = fresh()  # C8: not after a move that took it off the field
    place(g3, "P1 cinderwing", "A1", "NW")
    start_action(g3, "P1 cinderwing")
    play(g3, "P1 cinderwing move")
    play(g3, "P1 cinderwing burn ?")
    assert "right after its move" in refused(g3, "P1 cinderwing burn-turn reserve")


def test_4_8_off_the_field_burns_and_comes_back_on_any_border_hex():
    g = fresh()
    t = place(g, "P1 cinderwing", "A1", "NW")
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing move")
    assert t.hex is None and g.pending.kind is Kind.BURN
    play(g, "P1 cinderwing burn ?")
    assert len(t.stack) == t.card.stack - 1
    play(g, "P1 cinderwing done")
    start_action(g, "P1 cinderwing")  # next round: any border hex, any facing that fits
    play(g, "P1 cinderwing enter A1 SE")
    assert CAT.board.name(t.hex) == "A1" and t.facing == "SE"
    g2 = fresh()
    place(g2, "P1 cinderwing", None)
    start_action(g2, "P1 cinderwing")
    assert "facing a way" in refused(g2, "P1 cinderwing enter A1 NW")
    assert "border hex" in refused(g2, "P1 cinderwing enter D4 NW")


# ------------------------------------------------------------------ 5. attacks
def test_5_1_an_attack_deals_the_attackers_strength():
    g = fresh()
    place(g, "P1 cinderwing", "D4", "NW")
    target = place(g, "P2 carrion-queen", ahead(g, "D4", "NW"), "NW")
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing attack P2 carrion-queen")
    assert target.damage == CAT.titans["cinderwing"].strength


def test_5_2_the_same_hex_adds_one_damage():
    g = fresh()
    place(g, "P1 cinderwing", "D4", "NW")
    target = place(g, "P2 carrion-queen", "D4", "NW")
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing attack P2 carrion-queen")
    assert target.damage == CAT.titans["cinderwing"].strength + 1


def test_5_3_a_titan_out_of_arc_cannot_be_attacked():
    g = fresh()
    place(g, "P1 cinderwing", "D4", "NW")
    place(g, "P2 carrion-queen", ahead(g, "D4", "SE"), "NW")  # right behind
    start_action(g, "P1 cinderwing")
    assert "front arc" in refused(g, "P1 cinderwing attack P2 carrion-queen")


# ------------------------------------------------------------------ 6. maneuvers and replenishing
def test_6_1_play_the_top_of_the_stack_or_the_reserve():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW", stack=["second-wind", None])
    g.sides[0].reserve[0] = "tailwind"
    start_action(g, "P1 cinderwing")
    assert "known already" in refused(g, "P1 cinderwing play stack tailwind")
    play(g, "P1 cinderwing play stack second-wind")
    assert "already used its play" in refused(g, "P1 cinderwing play reserve tailwind")
    assert t.stack == [None]


def test_6_2_a_new_active_maneuver_burns_the_old_one():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW", stack=["battle-fury"], active="braced-wings")
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing play stack battle-fury")
    assert t.active == "battle-fury" and g.sides[0].burned == ["braced-wings"]
    assert g.strength(t) == t.card.strength + 1


def test_6_3_burn_immediately_resolves_and_keeps_the_active_one():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW", stack=["second-wind"], active="battle-fury", damage=2)
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing play stack second-wind")
    assert t.damage == 0 and t.active == "battle-fury" and g.sides[0].burned == ["second-wind"]


def test_6_4_another_species_maneuver_is_burned_without_effect():
    squads = [{"species": "dragon", "ally": "harpy", "titans": ["ashmaw", "cinderwing", "old-vermax", "shrill"]},
              {"species": "harpy"}]
    g = game(squads=squads)
    clear_field(g)
    t = place(g, "P1 cinderwing", "D4", "NW", stack=["flock-fury"])
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing play stack flock-fury")
    assert t.active is None and g.sides[0].burned == ["flock-fury"]


def test_6_5_card_moves_and_damage_add_to_the_actions():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW", stack=["tailwind"])
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing play stack tailwind")
    assert CAT.board.name(t.hex) == ahead(g, "D4", "NW")
    assert "not made its move" in refused(g, "P1 cinderwing done")  # its own move is still owed
    play(g, "P1 cinderwing move")
    assert CAT.board.name(t.hex) == ahead(g, ahead(g, "D4", "NW"), "NW")


def test_6_6_burn_a_maneuver_means_the_titans_own_stack():
    g = fresh(hazards=["C3"])
    t = place(g, "P1 cinderwing", "D4", "NW", stack=[None, None])
    reserve = len(g.sides[0].reserve)
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing move")
    play(g, "C hazard C3 air-pocket")
    assert g.pending.kind is Kind.BURN
    play(g, "P1 cinderwing burn ?")
    assert len(t.stack) == 1 and len(g.sides[0].reserve) == reserve


def test_6_7_replenish_moves_one_card_and_not_into_a_full_stack():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW", stack=["tailwind", None])
    g.sides[0].reserve[0] = "wingover"
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing replenish in")
    assert t.stack == ["tailwind", None, "wingover"]
    g2 = fresh()
    t2 = place(g2, "P1 cinderwing", "D4", "NW", stack=["tailwind", None])
    start_action(g2, "P1 cinderwing")
    play(g2, "P1 cinderwing replenish out")
    assert t2.stack == [None] and g2.sides[0].reserve[-1] == "tailwind"


def test_6_8_card_text_overrides_the_book():
    g = fresh()
    vermax = place(g, "P1 old-vermax", "D4", "NW")  # Ancient Scales: no collision damage
    other = place(g, "P2 carrion-queen", ahead(g, "D4", "NW"), "SE")
    start_action(g, "P1 old-vermax")
    play(g, "P1 old-vermax move")
    assert vermax.damage == 0 and other.damage == 1


# ------------------------------------------------------------------ 7. resolution
def test_7_1_damage_up_to_endurance_stays():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW", damage=2)
    start_resolution(g, "P1 cinderwing")
    assert g.pending is None and t.damage == 2 and t.alive


def test_7_2_three_ways_to_resolve_damage():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW", damage=6, stack=["tailwind", None], active="battle-fury")
    start_resolution(g, "P1 cinderwing")
    play(g, "P1 cinderwing resolve stack tailwind")
    assert t.damage == 5
    play(g, "P1 cinderwing resolve active")
    assert t.damage == 3 and t.active is None
    reserve = len(g.sides[0].reserve)
    play(g, "P1 cinderwing resolve reserve")
    assert t.damage == 2 and len(g.sides[0].reserve) == reserve - 2 and g.pending is None


def test_7_3_stack_and_active_must_go_before_the_titan_may_die():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW", damage=4, stack=[None])
    start_resolution(g, "P1 cinderwing")
    assert "must burn those" in refused(g, "P1 cinderwing die")
    play(g, "P1 cinderwing resolve reserve")  # C6: the reserve may go first
    play(g, "P1 cinderwing resolve stack ?")
    assert t.damage == 2 and t.alive
    g2 = fresh()
    t2 = place(g2, "P1 cinderwing", "D4", "NW", damage=4, stack=[])
    start_resolution(g2, "P1 cinderwing")
    play(g2, "P1 cinderwing die")  # it may spare the reserve
    assert not t2.alive


def test_7_4_a_titan_that_cannot_resolve_dies():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW", damage=4, stack=[])
    g.sides[0].reserve = [None]
    start_resolution(g, "P1 cinderwing")
    assert not t.alive and g.pending is None


# ------------------------------------------------------------------ 8. hazards
def flip(kind: str, *, hexes=("C3",), setup=None):
    g = fresh(hazards=list(hexes))
    if setup:
        setup(g)
    t = titan(g, "P1 cinderwing")
    if t.hex is None:
        place(g, "P1 cinderwing", "D4", "NW")
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing move")
    if g.pending is not None and g.pending.kind is Kind.HAZARD:
        play(g, f"C hazard C3 {kind}")
    return g, t


def test_8_1_a_hazard_is_flipped_resolved_and_removed():
    g, t = flip("toxic-blast")
    assert not g.hazards and g.flipped["toxic-blast"] == 1 and t.damage == 1


def test_8_2_regenerate():
    g, t = flip("regenerate", setup=lambda g: g.sides[0].burned.extend(["tailwind", "wingover"]))
    assert t.stack[-1] == "tailwind" and len(t.stack) == t.card.stack + 1 and g.sides[0].burned == ["wingover"]


def test_8_3_portal():
    g, t = flip("portal")
    assert t.hex is None and g.pending.kind is Kind.ACT  # no burn
    play(g, "P1 cinderwing done")
    start_action(g, "P1 cinderwing")
    assert "Portal" in refused(g, "P1 cinderwing stay")


def test_8_4_combustible_air_pocket():
    g, t = flip("air-pocket")
    assert g.pending.kind is Kind.BURN
    play(g, "P1 cinderwing burn ?")
    assert len(t.stack) == t.card.stack - 1


def test_8_5_foom():
    def around(g):
        place(g, "P2 shrill", "F2", "NW")  # 3 hexes from C3
        place(g, "P2 tempest", "G1", "NW")  # 4 away
    g, t = flip("foom", setup=around)
    assert titan(g, "P2 shrill").damage == 1 and titan(g, "P2 tempest").damage == 0 and t.damage == 0


def test_8_6_soothing_wind():
    g, t = flip("soothing-wind", setup=lambda g: place(g, "P1 cinderwing", "D4", "NW", damage=2))
    assert t.damage == 0


def test_8_7_toxic_blast():
    g, t = flip("toxic-blast")
    assert t.damage == 1


def test_8_8_air_current():
    g, t = flip("air-current")
    assert CAT.board.name(t.hex) == ahead(g, "C3", "NW")


def test_8_9_whirlwind():
    g, t = flip("whirlwind")
    assert t.facing == "SE"


def test_8_10_lightning_strike():
    def around(g):
        place(g, "P2 shrill", "C4", "NW")  # next to C3
        place(g, "P2 tempest", "A1", "NW")
    g, t = flip("lightning", setup=around)
    assert t.damage == 2 and titan(g, "P2 shrill").damage == 1 and titan(g, "P2 tempest").damage == 0


# ------------------------------------------------------------------ 9. the end
def test_9_1_eliminating_every_opposing_titan_wins():
    g = fresh()
    for t in g.titans:
        if t.player == 2 and t.key != "shrill":
            t.alive = False
    place(g, "P2 shrill", "D4", "NW", damage=9, stack=[])
    g.sides[1].reserve = []
    start_resolution(g, "P2 shrill")
    assert g.over and g.winner == 1 and g.end == "eliminated"


def test_9_2_an_opponent_with_no_titan_on_the_field_has_fled():
    g = fresh()
    place(g, "P1 ashmaw", "D4", "NW")
    g.todo = [("round end",)]
    g._run()
    assert g.over and g.winner == 1 and g.end == "fled"


def test_9_3_six_rounds_of_last_titans_go_to_unturned_maneuvers_then_initiative():
    g = fresh()
    for t in g.titans:
        t.alive = t.key in ("ashmaw", "shrill")
    place(g, "P1 ashmaw", "D4", "NW", active="battle-fury")
    place(g, "P2 shrill", "A1", "SE")
    for n in range(1, 7):
        assert not g.over
        g.todo = [("round end",)]
        g._run()
        g.todo = []
    assert g.over and g.end == "last titan" and g.last_titan_rounds == 6
    # equal unturned cards (the active one is not counted: C14): the higher initiative would win; both 8
    assert g.unturned(1) == g.unturned(2) and g.winner is None
    g2 = fresh()
    for t in g2.titans:
        t.alive = t.key in ("ashmaw", "shrill")
    place(g2, "P1 ashmaw", "D4", "NW")
    place(g2, "P2 shrill", "A1", "SE")
    g2.sides[1].reserve.pop()
    g2.decide_by_cards("last titan")
    assert g2.winner == 1


def test_9_4_a_concession_gives_the_other_player_the_game():
    lg = log(decisions=["P2 concede"])
    res = replay(lg)
    assert res.verdict.status is VerdictStatus.VALID and res.outcome.winner == 1 and res.outcome.how == "concession"


# ------------------------------------------------------------------ 10. mixing species
MIXED = {"species": "dragon", "ally": "harpy", "titans": ["ashmaw", "cinderwing", "old-vermax", "shrill"]}


def test_10_1_a_mixed_squad_is_three_and_one():
    g = game(squads=[MIXED, {"species": "griffon"}])
    assert [t.card.species for t in g.titans if t.player == 1] == ["dragon"] * 3 + ["harpy"]
    with pytest.raises(LogFormatError) as e:
        game(squads=[{**MIXED, "titans": ["ashmaw", "cinderwing", "shrill", "tempest"]}, {"species": "griffon"}])
    assert e.value.errors[0]["path"] == "/setup/squads/0/titans"


def test_10_2_up_to_two_maneuvers_of_the_lone_species():
    from collections import Counter
    g = game(squads=[MIXED, {"species": "griffon"}])
    rule = g.sides[0].rule
    assert rule.allows(Counter(["screech", "snatch", "gout-of-flame"]))
    assert not rule.allows(Counter(["screech", "snatch", "foul-feast"]))
    chosen = ["screech", "screech", "screech", "gout-of-flame", "gout-of-flame", "dragonscale", "wing-buffet"]
    with pytest.raises(LogFormatError) as e:
        game(squads=[{**MIXED, "maneuvers": chosen}, {"species": "griffon"}])
    assert e.value.errors[0]["path"] == "/setup/squads/0/maneuvers"


def test_10_3_mixed_stacks_are_chosen_and_never_written():
    g = game(squads=[MIXED, {"species": "griffon"}])
    assert all(c is None for t in g.titans for c in t.stack)  # nothing says which card went where
    assert parse_log(log(squads=[MIXED, {"species": "griffon"}])).setup.squads[0].ally == "harpy"
