"""The end of a game, scoring, awards, tie-breakers, the variants and team games
(docs/steam-rules.md, sections 9-13); one test per rule, named by its number."""

from __future__ import annotations

import pytest

from engine.log import LogFormatError, parse_log
from engine.steam.game import End
from engine.steam.logformat import setup_problems
from engine.steam.scoring import award_points, metric, score_sheet

from .steam_helpers import (
    DEAL,
    cars,
    do,
    effect,
    goods,
    hire,
    legal,
    mana,
    new,
    opening,
    play,
    refused,
    yard,
)


def _ended_by_p1(g):
    """P1 takes its last demand tile's worth this turn: the end is triggered, P2 still plays its turn."""
    g.folio(1).demand = [("crizma", 2)] * (g.demand_needed() - 1)
    goods(g, "e3", crizma=2)
    do(g, 1, "P1 moves 1", "P1 delivers crizma to e2 from e3 e3 takes 2", "P1 upgrades mana", conductor=5)
    return g


@pytest.mark.parametrize("players,needed", [(2, 6), (3, 6), (4, 5), (5, 4), (6, 4)])
def test_9_1_the_demand_tiles_that_end_the_game_by_player_count(players, needed):
    assert new(players, map_name="C" if players == 6 else "A").demand_needed() == needed


def test_9_2_the_end_is_triggered_and_the_round_finished():
    g = _ended_by_p1(opening())
    assert g.ending is End.DEMAND and not g.over and g.pending.player == 2
    play(g, "P2 moves 1", "P2 stops")  # back to the start player: the round is finished
    assert g.over and g.end is End.DEMAND  # nobody has goods left for a final delivery


def test_9_3_a_company_out_of_train_cars_triggers_the_end():
    g = opening()
    g.folio(1).trains = 1
    effect(g, 1, "caterpillar-marcinae")
    play(g, "P1 builds d3")
    assert g.ending is End.TRAINS and g.folio(1).trains == 0


def test_9_4_final_deliveries_in_reverse_turn_order_no_specialists_no_move_tiles_still_taken():
    g = _ended_by_p1(opening())
    goods(g, "k3", ehrlite=2)
    play(g, "P2 moves 1", "P2 stops")
    assert g.pending.player == 2 and g.pending.prompt == "P2 delivering goods (the final delivery)"
    assert "P2 uses" not in " ".join(legal(g)) and "moves" not in " ".join(legal(g))
    play(g, "P2 delivers ehrlite to k2 from k3 k3 takes 2")
    assert g.over and g.end is End.DEMAND and g.folio(2).demand == [("ehrlite", 2)]  # P1 had nothing to deliver


def test_10_1_score_goods_delivered_and_demand_tiles_1_2_3():
    g = opening()
    f = g.folio(1)
    f.goods.update(crizma=3, silver=2)
    f.demand = [("crizma", 2), ("silver", 3), ("crizma", 4)]
    s = score_sheet(g).seats[0]
    assert (s.goods, s.demand, s.total) == (5, 6, 11)


def _award_game(players: int, values: list[int], award: str = "cache"):
    g = new(players, map_name="C" if players == 6 else "A", variants=("awards",))
    g.awards = [award]
    g.order = list(range(1, players + 1))
    for seat, v in enumerate(values, 1):
        g.folio(seat).goods.clear()
        g.folio(seat).demand = [("crizma", 2)] * v if award == "focus" else []
    return g


@pytest.mark.parametrize("players,values,points", [
    (4, [5, 3, 2, 1], {1: 6, 2: 4, 3: 2}),
    (3, [5, 3, 2], {1: 6, 2: 4}),  # third place only with four or more
    (2, [5, 3], {1: 4}),  # two players: 4 to the best only
    (4, [0, 0, 1, 0], {3: 6}),  # a value of at least 1 to score
])
def test_10_2_awards_6_4_2_three_players_no_third_two_players_4_to_the_best(players, values, points):
    g = _award_game(players, values, "focus")
    assert award_points(g, "focus") == points


@pytest.mark.parametrize("values,points", [
    ([5, 5, 2, 1], {1: 5, 2: 5, 3: 2}),  # two tie for first: 6 + 4 split, third still 2
    ([5, 3, 3, 3], {1: 6, 2: 2, 3: 2, 4: 2}),  # three tie for second: 4 + 2 split
    ([4, 4, 4, 1], {1: 4, 2: 4, 3: 4}),  # three tie for first: 12 split; nobody fourth
    ([3, 2, 2, 0], {1: 6, 2: 3, 3: 3}),  # a tie for second in 4 players: (4 + 2) / 2
])
def test_10_3_tied_places_add_the_places_they_cover_and_split_rounded_down(values, points):
    g = _award_game(4, values, "focus")
    assert award_points(g, "focus") == points
    g5 = _award_game(5, [2, 2, 2, 0, 0], "focus")
    assert award_points(g5, "focus") == {1: 4, 2: 4, 3: 4}


def test_10_4_ties_go_to_goods_delivered_then_cars_placed_then_furthest_from_the_start_player():
    g = opening()
    a, b = g.folio(1), g.folio(2)
    a.goods.update(crizma=3)
    b.goods.update(crizma=2)
    b.demand = [("crizma", 2)]
    assert score_sheet(g).seats[0].total == score_sheet(g).seats[1].total == 3
    assert g.ranks() == [1, 2]  # P1 delivered more goods
    b.goods.update(crizma=1)
    b.demand = []  # 3 points and 3 goods each: cars placed over the game next
    a.placed, b.placed = 6, 4
    assert g.ranks() == [1, 2]
    b.placed = 6  # all tied: the company furthest from the start player (P1) in turn order wins
    assert g.ranks() == [2, 1]


def test_11_every_award_counts_its_own_thing():
    g = opening()
    cars(g, 2, "e3")  # P2 shares e3 with P1
    cars(g, 1, "a1", "l5")  # two more groups for P1, on the edge
    goods(g, "a1", ritherwhyte=2)
    f = g.folio(1)
    f.demand = [("crizma", 2), ("crizma", 3), ("silver", 2)]
    yard(g, 1, s1_2="metro")
    hire(g, 1, "orman-kaspar")
    mana(g, 1, 4, 2)
    seen = {a.key: metric(g, 1, a.metric) for a in g.cat.awards.values()}
    assert seen == {"branch-office": 3, "cache": 1 + 1 + 2 + 1, "conglomerate": 2, "cosmopolitan": 1,
                    "diversity": 2, "drive-by": 1, "edge-lord": 2, "focus": 2, "second-opinion": 1,
                    "technologist": 2 + 1 + 6}
    assert metric(g, 2, "shared-hexes") == 1
    g2 = _award_game(3, [0, 0, 0], "drive-by")
    cars(g2, 1, "e3")
    cars(g2, 2, "d4")
    assert award_points(g2, "drive-by") == {2: 6, 1: 4}  # fewest cars by cities; P3 has no car at all


def test_12_1_friendlyish_competition_leaves_the_hostile_cards_out():
    g = play(new(variants=("friendly",)), "C start P1")
    assert "Car Bomb is left out of a Friendly(ish) game" in refused(g, "C market car-bomb")
    assert "C market car-bomb" not in legal(g) and "C market metro" in legal(g)
    play(g, *(f"C market {k}" for k in ("metro", "deep-one", "mana-surger", "flow-controller", "meditation-mecha",
                                        "transformer")))
    assert not any("bartok-kulle" in x or "marcinae" in x for x in legal(g))
    s = new(variants=("friendly",), seed=5)
    assert "telemyr" not in s.stacks["surveyor"] + s.box["surveyor"]


def test_12_2_awards_two_dealt_second_opinion_not_with_two_players():
    g = new(variants=("awards",))
    play(g, "C start P1")
    assert "C award second-opinion" not in legal(g) and "C award cache" in legal(g)
    assert "not allowed" in refused(g, "C award second-opinion")
    play(g, "C award cache")
    assert "C award cache" not in legal(g)  # each award is dealt once
    play(g, "C award focus")
    assert g.awards == ["cache", "focus"] and g.pending.prompt == "a spellcar dealt to the market"


def test_12_3_expert_players_plus_two_dealt_struck_out_in_turn_order_to_two():
    g = new(3, variants=("awards", "expert"))
    play(g, "C start P2", *(f"C award {a}" for a in ("cache", "focus", "edge-lord", "diversity", "drive-by")))
    assert g.pending.player == 2
    play(g, "P2 strikes cache", "P3 strikes focus", "P1 strikes drive-by")
    assert g.awards == ["edge-lord", "diversity"] and g.pending.player == 0


def test_12_4_epic_one_demand_tile_more_to_end_the_game():
    assert new(variants=("epic",)).demand_needed() == 7 and new(4, variants=("epic",)).demand_needed() == 6


def test_12_5_open_information_the_stacks_dealt_face_up_as_chance_lines():
    g = play(new(variants=("open",)), "C start P1", *DEAL)
    assert g.pending.prompt == "an engineer dealt face up to its stack"
    play(g, "C stack engineer orman-kaspar", "C stack engineer manch")
    assert "C stack engineer manch" not in legal(g)  # a tile is in a stack once
    play(g, "C stack engineer luc-von-gott")
    assert g.stacks["engineer"] == ["orman-kaspar", "manch", "luc-von-gott"]
    assert g.pending.prompt == "a surveyor dealt face up to its stack"


def _teams(players: int = 4) -> dict:
    return {"format": "empyrean-log", "version": 1, "game": "steam", "catalog": "1",
            "setup": {"players": players, "map": "A", "teams": [[1, 3], [2, 4]]}, "chance": {"type": "recorded"},
            "decisions": []}


def test_13_1_teams_sit_alternately_2v2_2v2v2_3v3_without_awards():
    assert setup_problems({"setup": {"players": 4, "teams": [[1, 3], [2, 4]]}}) == []
    assert "seats the teams alternately" in setup_problems({"setup": {"players": 4, "teams": [[1, 2], [3, 4]]}})[0][1]
    assert setup_problems({"setup": {"players": 6, "teams": [[1, 4], [2, 5], [3, 6]]}}) == []
    assert setup_problems({"setup": {"players": 6, "teams": [[1, 3, 5], [2, 4, 6]]}}) == []
    assert "without awards" in setup_problems({"setup": {"players": 4, "teams": [[1, 3], [2, 4]],
                                                         "variants": ["awards"]}})[0][1]
    with pytest.raises(LogFormatError):
        parse_log({**_teams(), "setup": {"players": 4, "map": "A", "teams": [[1, 2], [3, 4]]}})


def _team_game():
    g = new(4, teams=((1, 3), (2, 4)))
    return play(g, "C start P1", *DEAL, "P4 company afterworld dolores-malephaise",
                "P3 company caterpillar marcinae-ayle-shorec", "P2 company kerigan rayleigh-kerigan",
                "P1 company kings-line runika-zenanen", "P1 hq e3 e4", "P2 hq j3 k3", "P3 hq c5 d5", "P4 hq f4 f5")


def test_13_2_a_transfer_over_a_teammate_costs_1():
    g = _team_game()
    cars(g, 3, "d4")
    mana(g, 1, 5)
    effect(g, 1, "john-strong-stevenson")
    play(g, "P1 builds c4 via d4")
    assert g.folio(1).mana == 4


def test_13_3_teammates_are_not_competitors_but_their_abilities_may_be_copied():
    g = _team_game()
    effect(g, 1, "follow-through")
    assert "P1 builds f4" in legal(g) and "P1 builds d5" not in legal(g)  # P4 is a competitor, P3 a teammate
    g2 = _team_game()
    hire(g2, 3, "orman-kaspar")
    mana(g2, 1, 0, 5)
    hire(g2, 1, "arret-draamivaar")
    do(g2, 1, "P1 uses arret-draamivaar")
    assert g2.folio(1).mana == 3


def test_13_4_no_delivery_from_a_teammates_network():
    g = _team_game()
    goods(g, "d5", crizma=1)
    goods(g, "e3", crizma=1)
    do(g, 1, "P1 moves 1", conductor=5)
    assert "d5 is not in P1's network" in refused(g, "P1 delivers crizma to e2 from d5")


def test_13_5_team_scores_add_up_with_5_for_each_colour_a_team_has_most_of():
    g = _team_game()
    g.folio(1).goods.update(crizma=2, silver=1)
    g.folio(3).goods.update(crizma=1)
    g.folio(2).goods.update(crizma=3, ehrlite=1)
    g.folio(4).demand = [("silver", 3)]
    g.folio(4).goods.update(silver=1)
    sheet = score_sheet(g)
    assert sheet.bonus == [10, 15]  # crizma tied (3 each), silver tied (1 each), ehrlite team 2's; none of the rest
    assert sheet.teams == [4 + 10, 5 + 2 + 15]
    assert g.ranks() == [2, 1, 2, 1]
