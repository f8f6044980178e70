"""Where the Spells & Steam manual is silent, and what the engine chose (docs/steam-rules.md, "Choices
where the manual is silent" C1-C30), one test each where no rule's test shows it already; and the
check that every test the doc names exists."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from engine.steam.game import ROUND_LIMIT, End

from .steam_helpers import (
    DEAL,
    around,
    cars,
    do,
    effect,
    goods,
    h,
    hire,
    legal,
    mana,
    new,
    opening,
    play,
    refused,
    yard,
)

HERE = Path(__file__).resolve().parent


def test_c1_boards_of_six_by_five_hexes_in_odd_r_rows_named_by_column_and_row():
    g = new()
    assert all(len(b.rows) == 5 and all(len(r) == 6 for r in b.rows) for b in g.cat.boards.values())
    assert g.map.size == 3 * 30 and g.map.names[:3] == ("a1", "b1", "c1")
    assert around(g, "e3") == ["d2", "d3", "d4", "e2", "e4", "f3"]  # an odd row (1, 3 …) leans left
    assert around(g, "e4") == ["d4", "e3", "e5", "f3", "f4", "f5"]  # an even row leans right


def test_c2_a_folio_is_start_five_columns_and_the_end_of_the_line_with_no_spellcars():
    g = opening()
    f = g.folio(1)
    assert f.columns == 5 and sorted(f.printed) == [(c, 1) for c in range(1, 6)]
    do(g, 1, "P1 moves 1", conductor=5)
    assert f.conductor == 6 and f.column(6) == [] and g.pending.kind.name == "UPGRADE"


def _holding(seat: int = 1):
    """P1 has gained the engineer stack at the End of the Line and put its pick off."""
    g = opening()
    do(g, seat, f"P{seat} moves 1", f"P{seat} upgrades specialist", f"P{seat} gains engineer", conductor=5)
    return g


def test_c3_the_late_pick_written_whenever_the_stack_is_held_at_the_latest_at_the_next_turn():
    g = _holding()
    assert g.pending.default is not None and legal(g)[-1] == "P1 hires later"
    g.take_default()  # 'P1 hires later' may be left out: the next line is P2's
    assert g.pending.player == 2 and g.folio(1).open_hire == "engineer"
    play(g, "P2 moves 1")
    play(g, "P1 hires orman-kaspar")  # in P2's turn, between P2's lines
    assert g.folio(1).specialists["engineer"] == "orman-kaspar" and g.pending.player == 2
    g2 = _holding()
    play(g2, "P1 hires later", "P2 moves 1", "P2 stops")
    assert g2.pending.kind.name == "HIRE" and g2.pending.player == 1 and g2.pending.default is None
    assert "P1's pick cannot wait any longer: it is made now" in refused(g2, "P1 hires later")
    g4 = _holding()
    play(g4, "P1 hires later")
    g4.folio(2).conductor = 5
    play(g4, "P2 moves 1", "P2 upgrades specialist")
    assert "P2 gains engineer" not in legal(g4)
    assert "P1 still holds the engineer stack: their pick is written first" in refused(g4, "P2 gains engineer")
    play(g4, "P1 hires manch", "P2 gains engineer")  # written now, the stack is free again
    g5 = effect(opening(), 1, "gilt-runner")
    play(g5, "P1 chooses specialist", "P1 gains engineer", "P1 hires later")
    assert g5.pending.kind.name == "TURN" and g5.pending.player == 1
    play(g5, "P1 hires manch")  # in the chooser's own turn, at another point
    assert g5.folio(1).specialists["engineer"] == "manch" and g5.pending.kind.name == "TURN"


def test_c3_the_late_pick_is_made_before_the_final_score():
    g = _holding()
    play(g, "P1 hires later")
    g.ending = End.DEMAND
    play(g, "P2 moves 1", "P2 stops")
    assert g.pending.kind.name == "HIRE" and not g.over
    play(g, "P1 hires manch")
    assert g.over


def test_c4_a_pick_is_checked_against_the_tiles_still_possible_or_the_stack_dealt():
    g = _holding()
    g.taken.add("manch")
    assert "Manch is already in play" in refused(g, "P1 hires manch")
    assert "'telemyr' is not a engineer of this game" in refused(g, "P1 hires telemyr")
    s = new(seed=11)
    stack = list(s.stacks["engineer"])
    outside = next(k.key for k in s.cat.of_kind("engineer") if k.key not in stack)
    while s.pending.kind.name != "TURN":
        play(s, legal(s)[0])
    seat = s.pending.player
    do(s, seat, f"P{seat} moves 1", f"P{seat} upgrades specialist", f"P{seat} gains engineer", conductor=5)
    assert sorted(x.split()[-1] for x in legal(s) if x.split()[-1] != "later") == sorted(stack)
    assert "is not in the engineer stack" in refused(s, f"P{seat} hires {outside}")


def test_c6_mana_an_activation_gains_or_reclaims_pays_transfers_not_activations():
    g = opening()
    yard(g, 1, s3_2="pick-two-forest-lake")
    hire(g, 1, "eloi-klaus")
    mana(g, 1, 2, 3)
    do(g, 1, "P1 uses eloi-klaus", "P1 moves 1", "P1 activates kings-line-runika", conductor=2)
    assert g.folio(1).mana == 3 and g.turn.locked == 1
    play(g, "P1 activates pick-two-forest-lake", "P1 builds e1 via e2")  # 3 for the city: the locked 1 too
    assert g.folio(1).mana == 0


def test_c7_transfer_paths_any_valid_one_free_transfers_on_the_dearest_the_builds_own_first():
    g = opening()
    cars(g, 2, "f3", "f2")
    effect(g, 1, "caterpillar-marcinae")
    mana(g, 1, 5)
    play(g, "P1 builds f1 via f3 f2")  # two competitor transfers (4), not the cheaper way over the city (3)
    assert g.folio(1).mana == 1
    g2 = opening()
    cars(g2, 2, "f2")
    hire(g2, 1, "wendy-thristle")
    mana(g2, 1, 2)
    do(g2, 1, "P1 uses wendy-thristle")
    effect(g2, 1, "caterpillar-marcinae")
    play(g2, "P1 builds g2 via e2 f2")  # a city (3) and a competitor (2): Wendy's free one is the city's
    assert g2.folio(1).mana == 0
    g3 = opening()
    cars(g3, 2, "f3")
    hire(g3, 1, "wendy-thristle")
    do(g3, 1, "P1 uses wendy-thristle")
    effect(g3, 1, "competitor-transfer-lava")
    play(g3, "P1 builds g3 via f3")  # the spellcar's own free transfer first: Wendy's is still there
    assert g3.folio(1).mana == 5 and len(g3.turn.free_transfers) == 1


def test_c9_a_spent_pool_deals_what_it_has_left():
    g = opening()
    g.market = ["metro", "icecar", "mana-surger"]
    g.pool = Counter({"deep-one": 1})
    do(g, 1, "P1 administrates", "P1 takes metro 1:2")
    assert "no Metro is left to deal" in refused(g, "C market metro")
    play(g, "C market deep-one")
    assert g.market == ["deep-one"] and g.pending.player == 2  # one tile was all the pool had
    g.market, g.pool = ["metro", "icecar", "mana-surger"], Counter()
    do(g, 1, "P1 administrates", "P1 takes metro 2:2")
    assert g.market == [] and g.pending.player == 2


def test_c10_spellcars_discarded_leave_the_game():
    g = opening()
    g.market = ["metro", "icecar", "mana-surger"]
    before = Counter(g.pool)
    do(g, 1, "P1 administrates", "P1 takes metro 1:2")
    assert Counter(g.pool) == before  # icecar and mana-surger are not shuffled back


def test_c13_the_second_tie_breaker_counts_cars_placed_over_the_game():
    g = opening()
    hire(g, 1, "ariel-malephaise")
    do(g, 1, "P1 uses ariel-malephaise", "P1 clears e3")
    assert g.folio(1).placed == 2 and g.folio(1).trains == 35


def test_c14_a_concession_ends_the_game_the_company_last_and_the_others_by_score():
    g = play(new(3), "C start P1", *DEAL, "P3 company afterworld dolores-malephaise",
             "P2 company kerigan rayleigh-kerigan", "P1 company kings-line runika-zenanen",
             "P1 hq e3 e4", "P2 hq j3 k3", "P3 hq f4 f5")
    g.folio(3).goods["crizma"] = 2  # P3 ahead of P1 on goods
    g.concede(2)
    assert g.over and g.end is End.CONCESSION and g.ranks() == [2, 3, 1] and g.cars[h(g, "j3")] == [2]
    g2 = opening()
    g2.concede(1)
    assert g2.over and g2.ranks() == [2, 1]


def test_c15_a_game_still_going_after_sixty_rounds_ends_at_the_house_limit():
    g = opening()
    g.round = ROUND_LIMIT
    play(g, "P1 moves 1", "P1 stops", "P2 moves 1", "P2 stops")
    assert g.over and g.end is End.ROUND_LIMIT


def test_c19_the_final_delivery_uses_no_station_master():
    g = opening()
    hire(g, 1, "hai-of-noirwood")
    g.folio(1).extra.append("leto-fulgore")
    goods(g, "e3", crizma=2)
    g.ending = End.DEMAND
    mana(g, 1, 3)
    play(g, "P1 moves 1", "P1 stops", "P2 moves 1", "P2 stops")
    assert "needs 3 goods delivered at once, not 2" in refused(g, "P1 delivers crizma to e2 from e3 e3 takes 3")
    play(g, "P1 delivers crizma to e2 from e3 e3 takes 2")
    assert g.folio(1).mana == 3 and g.over


def test_c25_one_specialist_stack_in_hand_at_a_time():
    g2 = _holding()
    play(g2, "P1 hires later")
    g2.todo[:0] = [("gain", 1)]  # an effect gives P1 another specialist while it holds the engineer stack
    g2.pending, g2._legal = None, None
    g2._run()
    assert g2.pending.kind.name == "HIRE" and g2.pending.player == 1 and g2.pending.default is None


def test_c28_a_wild_captain_leads_a_company_whose_folio_keeps_its_printed_spellcar():
    g = play(new(), "C start P1", *DEAL, "P2 company kerigan trias-blackwind")
    assert g.folio(2).printed[(3, 1)] == "kerigan-rayleigh"


def test_every_test_the_rules_doc_names_exists():
    doc = (HERE.parents[2] / "docs" / "steam-rules.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", doc))
    defined = {m for f in HERE.glob("test_*.py") for m in re.findall(r"^def (test_[a-z0-9_]+)", f.read_text(), re.M)}
    assert named and named <= defined, sorted(named - defined)
    numbered = re.findall(r"^\| (C\d+|\d+\.\d+) \|", doc, re.M)
    assert len(numbered) == len(set(numbered)), "a rule or choice numbered twice"
    rule_tests = {t for t in defined if re.match(r"test_\d+_", t)}
    assert rule_tests <= named, sorted(rule_tests - named)
