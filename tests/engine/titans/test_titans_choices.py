"""Where the Titans book contradicts itself or is silent, and what the engine chose
(docs/titans-rules.md, "Contradictions in the book" K1-K4 and "Silences and choices" C1-C24)."""

from __future__ import annotations

import json

import pytest
from titans_helpers import ahead, fresh, game, place, play, refused, start_action, start_resolution

from engine.replay import VerdictStatus, replay
from engine.seats import as_recorded, seat_view
from engine.titans.board import arc
from engine.titans.catalog import load, versions
from engine.titans.game import ROUND_LIMIT
from engine.titans.lines import Kind
from engine.titans.rules import RULES

CAT = load("1")  # the catalog of the helpers' logs (titans_helpers.log)


@pytest.mark.parametrize("version", versions())
def test_k1_each_species_has_four_titans_and_eleven_maneuvers(version):
    cat = load(version)
    assert len(cat.species) == 8
    for s in cat.species.values():
        assert len(s.titans) == 4
        assert sum(cat.maneuvers[k].copies for k in s.maneuvers) == 11
    assert sum(cat.maneuvers[k].copies for k in cat.basic) == 21


def test_k2_the_hazard_pile_is_two_of_each_kind():
    assert CAT.hazard_pile == {k: 2 for k in CAT.hazard_pile} and len(CAT.hazard_pile) == 9
    g = fresh(hazards=["C3"])
    g.flipped.update({"foom": 2})
    place(g, "P1 cinderwing", "D4", "NW")
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing move")
    assert "no hazard 'foom'" in refused(g, "C hazard C3 foom")


def test_k3_arcs_are_three_adjacent_hexes():
    assert arc("NW") == ("NW", "W", "NE") and arc("NW", front=False) == ("SE", "E", "SW")
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW")
    place(g, "P2 shrill", ahead(g, ahead(g, "D4", "NW"), "NW"), "SE")  # two hexes ahead
    assert g._targets(t) == []


def test_c1_initiative_ties_alternate_between_players_by_round():
    g = game("dragon", "harpy")  # both squads have initiatives 8, 6, 4, 2
    first = [g.titans[i] for i in g.order][:2]
    assert [t.player for t in first] == [1, 2] and g.round == 1
    g.round = 2
    second = [g.titans[i] for i in g.initiative_order()][:2]
    assert [t.player for t in second] == [2, 1]


def test_c2_nobody_flees_in_round_1():
    g = game()
    p, key = g.pending.player, g.titans[g.pending.titan].key
    assert "must enter" in refused(g, f"P{p} {key} stay")
    assert not g.over


def test_c3_titans_off_the_field_by_choice_count_as_fled():
    g = fresh()
    place(g, "P1 ashmaw", "D4", "NW")
    place(g, "P2 shrill", None)  # alive, off the field by choice
    g.todo = [("round end",)]
    g._run()
    assert g.over and g.end == "fled" and g.winner == 1
    g2 = fresh()
    g2.todo = [("round end",)]
    g2._run()
    assert g2.over and g2.end == "fled" and g2.winner is None  # both off: a draw


def test_c4_an_off_field_titan_burns_each_round_it_stays_off():
    g = fresh()
    t = place(g, "P1 cinderwing", None, stack=[None, None, None])
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing stay")
    assert g.pending.kind is Kind.BURN
    play(g, "P1 cinderwing burn ?")
    assert len(t.stack) == 2
    play(g, "P1 cinderwing done")
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing enter A1 SE")  # coming back: no burn
    assert len(t.stack) == 2 and g.pending.kind is Kind.ACT


def test_c5_burns_from_a_stack_are_face_down():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW", damage=3, stack=[None, None])
    start_resolution(g, "P1 cinderwing")
    play(g, "P1 cinderwing resolve stack ?")
    assert g.unseen() == [1, 0] and t.damage == 2
    recorded = as_recorded(RULES.self_play(3, bot="greedy"))
    burns = [line for line in recorded["decisions"] if " burn " in line or " resolve stack " in line]
    view = seat_view(recorded, 2)
    theirs = [line for line in view["decisions"] if line.startswith("P1 ") and (" burn " in line or " resolve stack "
                                                                                in line)]
    assert burns and all(line.endswith(" ?") for line in theirs)
    assert replay(view).verdict.status is VerdictStatus.VALID


def test_c7_damage_never_goes_below_zero():
    g = fresh()
    t = place(g, "P1 cinderwing", "D4", "NW", damage=3, stack=[], active="battle-fury")
    start_resolution(g, "P1 cinderwing")
    play(g, "P1 cinderwing resolve active")  # 2 resolved of 1 excess: the rest is not owed
    assert t.damage == 1 and g.pending is None
    g2 = fresh()
    t2 = place(g2, "P1 cinderwing", "D4", "NW", damage=1, stack=["second-wind"])
    start_action(g2, "P1 cinderwing")
    play(g2, "P1 cinderwing play stack second-wind")
    assert t2.damage == 0


def test_c9_entering_onto_a_hazard_or_a_titan_counts_as_moving_onto_it():
    g = fresh(hazards=["A1"])
    other = place(g, "P2 shrill", "A1", "NW")
    t = place(g, "P1 cinderwing", None)
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing enter A1 SE")
    assert t.damage == 1 and other.damage == 1  # a collision
    assert g.pending.kind is Kind.HAZARD


def test_c11_round_30_ends_the_game_as_the_last_titan_rule():
    g = fresh()
    g.round = ROUND_LIMIT
    place(g, "P1 ashmaw", "D4", "NW")
    place(g, "P2 shrill", "A1", "SE")
    g.sides[1].reserve.pop()
    g.todo = [("round end",)]
    g._run()
    assert g.over and g.end == "round limit" and g.winner == 1


def test_c12_a_last_titan_tie_of_equal_initiative_goes_to_less_damage():
    g = fresh()
    for t in g.titans:
        t.alive = t.key in ("ashmaw", "shrill")
    place(g, "P1 ashmaw", "D4", "NW", damage=1)
    place(g, "P2 shrill", "A1", "SE", damage=0)
    g.decide_by_cards("last titan")
    assert g.winner == 2


def test_c15_effects_reach_every_titan_they_cover():
    g = fresh()
    place(g, "P1 ashmaw", "D4", "NW", stack=["gout-of-flame"])
    a = place(g, "P2 shrill", ahead(g, "D4", "NW"), "SE")
    b = place(g, "P2 tempest", ahead(g, "D4", "NE"), "SE")
    c = place(g, "P2 carrion-queen", ahead(g, "D4", "SE"), "SE")  # behind: not covered
    start_action(g, "P1 ashmaw")
    play(g, "P1 ashmaw play stack gout-of-flame")
    assert (a.damage, b.damage, c.damage) == (2, 2, 0)


def test_c16_a_flipped_hazard_is_a_chance_line():
    g = fresh(hazards=["C3"])
    place(g, "P1 cinderwing", "D4", "NW")
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing move")
    assert g.pending.kind is Kind.HAZARD and g.pending.player == 0
    seeded = RULES.self_play(11, bot="greedy")
    assert not any(line.startswith("C ") for line in seeded["decisions"])
    lg = dict(seeded, decisions=seeded["decisions"] + ["C hazard D4 foom"])
    assert replay(lg).verdict.status is VerdictStatus.MALFORMED


def test_c17_time_is_decided_as_the_last_titan_rule():
    full = RULES.self_play(5, bot="greedy")
    cut = {**full, "decisions": full["decisions"][:20], "result": {"winner": None, "reason": "time"}}
    res = replay(cut)
    assert res.outcome is not None and res.outcome.how == "time"
    claimed = {**cut, "result": {"winner": res.outcome.winner, "reason": "time"}}
    assert replay(claimed).verdict.status is VerdictStatus.VALID
    wrong = {**cut, "result": RULES.misclaimed_result({"winner": res.outcome.winner})}
    assert replay(wrong).verdict.status is VerdictStatus.ILLEGAL  # without "time" the log just stops early


def test_c19_a_named_card_must_have_been_possible():
    g = fresh()
    place(g, "P1 cinderwing", "D4", "NW", stack=[None, None, None, None])
    g.sides[0].named.update({"gout-of-flame": 3})
    start_action(g, "P1 cinderwing")
    assert "cannot hold another gout-of-flame" in refused(g, "P1 cinderwing play stack gout-of-flame")
    assert "no maneuver" in refused(g, "P1 cinderwing play stack nothing-such")
    play(g, "P1 cinderwing play stack tailwind")
    assert g.sides[0].named["tailwind"] == 1
    g2 = fresh()
    place(g2, "P1 cinderwing", "D4", "NW", stack=["wingover", None])  # known (Regenerate brought it back)
    start_action(g2, "P1 cinderwing")
    assert "known already" in refused(g2, "P1 cinderwing play stack tailwind")


def test_a_recorded_game_names_only_possible_cards():
    lg = as_recorded(RULES.self_play(2, bot="greedy"))
    assert replay(lg).verdict.status is VerdictStatus.VALID
    named = [line for line in lg["decisions"] if " play " in line]
    assert named
    twice = {**lg, "decisions": [named[0].replace(named[0].split()[-1], "screech")] + lg["decisions"]}
    assert replay(json.loads(json.dumps(twice))).verdict.status is VerdictStatus.ILLEGAL


def test_every_test_the_rules_doc_names_exists():
    import re
    from pathlib import Path

    here = Path(__file__).resolve().parent
    doc = (here.parents[2] / "docs" / "titans-rules.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", doc))
    defined = {m for f in here.glob("test_*.py") for m in re.findall(r"^def (test_[a-z0-9_]+)", f.read_text(), re.M)}
    assert named and named <= defined, sorted(named - defined)


def test_c19_the_cards_a_face_down_place_may_be_are_exactly_those_the_deck_still_allows():
    from collections import Counter

    from engine.rng import SplitMix64
    from engine.titans.deck import deck_rule

    rng = SplitMix64(19)
    for species, ally in (("dragon", None), ("dragon", "harpy")):
        rule = deck_rule(CAT, species, ally, None)
        cards = rule.cards()
        for _ in range(200):
            named: Counter = Counter()
            for _ in range(rng.below(14)):
                c = cards[rng.below(len(cards))]
                if rule.allows(named + Counter({c: 1})):
                    named[c] += 1
            want = [c for c in cards if rule.allows(named + Counter({c: 1}))]
            assert rule.possible(named) == want, (dict(named), species, ally)


def test_c20_a_titan_may_attack_its_own_side():
    g = fresh()
    me = place(g, "P1 cinderwing", "D4", "NW")
    friend = place(g, "P1 ashmaw", ahead(g, "D4", "NW"), "NW")
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing attack P1 ashmaw")
    assert friend.damage == CAT.titans["cinderwing"].strength
    assert me.damage == 1  # Ashmaw's Smouldering Hide answers any attacker


def test_c23_an_active_maneuvers_after_move_text_outlasts_the_moves_collision():
    """Catalog 2's Scorched Trail (rule 6.2: an active maneuver's text is the titan's): after the
    titan's move each enemy titan on its hex takes 1 damage, though the collision of that move
    burned the card."""
    for active, hurt in ((None, 1), ("scorched-trail", 2)):  # 1: the collision alone
        g = fresh(catalog="2")
        me = place(g, "P1 ashmaw", "D4", "NW", active=active)
        foe = place(g, "P2 shrill", ahead(g, "D4", "NW"), "SE")
        start_action(g, "P1 ashmaw")
        play(g, "P1 ashmaw move")
        assert (foe.damage, me.damage, me.active) == (hurt, 1, None), active


def test_a_seeded_mixed_squad_game_deals_and_verifies():
    from titans_helpers import log

    from engine.rng import SplitMix64
    from engine.titans.bots import choose_random
    from engine.titans.lines import format_line

    squads = [{"species": "dragon", "ally": "harpy", "titans": ["ashmaw", "cinderwing", "old-vermax", "shrill"],
               "maneuvers": ["gout-of-flame"] * 3 + ["dragonscale"] * 2 + ["screech", "snatch"]},
              {"species": "phoenix"}]
    g = game(squads=squads, seed=23)
    dealt = [c for t in g.titans if t.player == 1 for c in t.stack] + g.sides[0].reserve
    assert sorted(c for c in dealt if CAT.maneuvers[c].species) == sorted(squads[0]["maneuvers"])
    rng, lines = SplitMix64(23), []
    while not g.over:
        d = choose_random(g, rng)
        lines.append(format_line(d))
        g.answer(d)
    lg = log(squads=squads, seed=23, decisions=lines)
    assert replay(lg).verdict.status is VerdictStatus.VALID
    assert replay(as_recorded(lg)).verdict.status is VerdictStatus.VALID


def seat_frames(lg: dict, seat: int | None) -> list[dict]:
    """The frames of a seeded game's log as ``seat`` knows them (None: the whole table), one per line read."""
    from engine.log import parse_log
    from engine.reader import read

    g = RULES.new_game(parse_log(lg))
    g.view = seat
    frames = [RULES.frame(g, 0, None)]
    read(g, [RULES.parse_line(x) for x in lg["decisions"]], RULES,
         on_line=lambda i: frames.append(RULES.frame(g, len(frames), lg["decisions"][i], line=i)))
    return frames


def places(frame: dict, player: int) -> list[list]:
    """Each of ``player``'s stacks (titans in setup order), then its reserve: the cards as the frame names them."""
    return [t["known"] for t in frame["titans"] if t["player"] == player] + [frame["reserve_known"][player - 1]]


def test_c21_a_seat_never_sees_the_other_seats_hidden_cards():
    lg = RULES.self_play(7, bot="greedy")
    assert not any("regenerate" in line for line in lg["decisions"])  # no card came back face up
    table = seat_frames(lg, None)
    assert all(None not in place for f in table for p in (1, 2) for place in places(f, p))  # a seeded game: every card
    replenished = 0
    for seat in (1, 2):
        for whole, seen in zip(table, seat_frames(lg, seat), strict=True):
            assert seen["view"] == seat and whole["view"] is None
            assert all(set(place) == {None} for place in places(seen, 3 - seat) if place)  # the other's: all face down
            for full, mine in zip(places(whole, seat), places(seen, seat), strict=True):
                assert mine[:1] == full[:1]  # its top cards: it may look at them at any time (3.3)
                assert all(c in (None, f) for c, f in zip(mine, full, strict=True))
                replenished += any(c is not None for c in mine[1:])  # a card it saw, under a stack or the reserve
    assert replenished


def test_c21_a_card_keeps_who_knows_it_as_it_moves():
    from engine.titans.known import Known

    def stack(g, seat):
        g.view = seat
        return next(t["known"] for t in RULES.frame(g, 0, None)["titans"] if t["titan"] == "cinderwing")

    def reserve(g, seat):
        g.view = seat
        return RULES.frame(g, 0, None)["reserve_known"][0]

    g = fresh()
    place(g, "P1 cinderwing", "D4", "NW", stack=["tailwind", "second-wind"])
    g.sides[0].reserve[:2] = ["wingover", "raking-pass"]
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing replenish in")  # the reserve's top, which its owner may look at, under the stack
    assert stack(g, None) == ["tailwind", "second-wind", "wingover"]  # the table: every card the log names
    assert stack(g, 1) == ["tailwind", None, "wingover"] and stack(g, 2) == [None, None, None]
    assert reserve(g, 1)[:2] == ["raking-pass", None] and reserve(g, 2)[:1] == [None]  # its new top: looked at
    start_action(g, "P1 cinderwing")
    play(g, "P1 cinderwing replenish out")  # the stack's top under the reserve
    assert g.sides[0].reserve[-1] == "tailwind" and reserve(g, 1)[-1] == "tailwind" and reserve(g, 2)[-1] is None
    assert stack(g, 1) == ["second-wind", "wingover"]  # second-wind is on top now: looked at

    face_up = fresh(hazards=["C3"])  # a card played face up and brought back by Regenerate: known to both
    place(face_up, "P1 cinderwing", "D4", "NW", stack=["second-wind", "wingover"])
    start_action(face_up, "P1 cinderwing")
    play(face_up, "P1 cinderwing play stack second-wind")
    assert face_up.sides[0].burned_known == [Known.EVERYONE]
    play(face_up, "P1 cinderwing move")
    play(face_up, "C hazard C3 regenerate")
    assert stack(face_up, 2) == [None, "second-wind"] and stack(face_up, 1) == ["wingover", "second-wind"]

    face_down = fresh(hazards=["C3"])  # a card burned face down and brought back: its owner's alone
    t = place(face_down, "P1 cinderwing", "D4", "NW", stack=["wingover", "tailwind"])
    t.damage = face_down.endurance(t) + 1
    start_resolution(face_down, "P1 cinderwing")
    play(face_down, "P1 cinderwing resolve stack wingover")
    start_action(face_down, "P1 cinderwing")
    play(face_down, "P1 cinderwing move")
    play(face_down, "C hazard C3 regenerate")
    assert stack(face_down, 1) == ["tailwind", "wingover"] and stack(face_down, 2) == [None, None]
    assert stack(face_down, None) == ["tailwind", "wingover"]


def test_c24_an_active_card_that_wards_off_collisions_wards_off_the_one_that_burns_it():
    """Dragonscale (active): collisions do the titan no harm. The collision still burns the active
    card (rule 4.6), but the titan takes no damage from it: the card is in force as the titans meet."""
    for active, hurt in ((None, 1), ("dragonscale", 0)):
        g = fresh()
        me = place(g, "P1 ashmaw", "D4", "NW", active=active)
        foe = place(g, "P2 shrill", ahead(g, "D4", "NW"), "SE")
        start_action(g, "P1 ashmaw")
        play(g, "P1 ashmaw move")
        assert (me.damage, foe.damage, me.active) == (hurt, 1, None), active
        assert g.sides[0].burned == ([active] if active else [])
