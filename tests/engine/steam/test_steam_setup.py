"""Spells & Steam's set-up (docs/steam-rules.md, section 1), one test per rule, named by its number."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.steam.pieces import CITY, GOODS, WASTELAND

from .steam_helpers import DEAL, MARKET, OPENING, legal, new, opening, play, refused

SIDES = {2: "AAA", 3: "AAA", 4: "AACC", 5: "ACCCC", 6: "CCCCCC"}  # map A; map B has B for A


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_1_1_the_boards_by_player_count_six_cities_each_colour_once(players):
    for name in ("C",) if players == 6 else ("A", "B"):
        g = new(players, map_name=name)
        sides = "".join(sorted(board[0] for board, _c, _r in g.map.boards))
        assert sides == SIDES[players].replace("A", name if name != "C" else "A")
    colours = [c for c in g.map.cities if c is not None]
    assert sorted(colours) == sorted(GOODS.values())


def test_1_2_a_good_of_its_colour_on_every_hex_but_cities_and_wastelands():
    g = new()
    for i, t in enumerate(g.map.terrains):
        want = Counter({GOODS[t]: 1}) if t not in (CITY, WASTELAND) else Counter()
        assert g.goods[i] == want, g.map.names[i]
    placed = sum((Counter(c) for c in g.goods), Counter())
    assert all(g.supply[c] + placed[c] == 35 for c in GOODS.values())


@pytest.mark.parametrize("players,tiles", [(2, (1, 1, 1)), (3, (1, 2, 1)), (5, (1, 2, 1)), (6, (2, 2, 1))])
def test_1_3_demand_tiles_in_each_citys_stand_by_player_count(players, tiles):
    g = new(players, map_name="C" if players == 6 else "A")
    for city, stand in g.stands.items():
        colour = g.map.cities[city]
        assert Counter(stand) == Counter({(colour, 2): tiles[0], (colour, 3): tiles[1], (colour, 4): tiles[2]})


def test_1_4_a_market_of_six_spellcars_dealt_from_the_pool():
    g = play(new(), "C start P1")
    assert "not a spellcar of the market" in refused(g, "C market kings-line-runika")
    play(g, "C market metro")
    assert "no Metro is left to deal: every copy is already out" in refused(g, "C market metro")
    play(g, *DEAL[1:])
    assert g.market == list(MARKET) and sum(g.pool.values()) == 67 - 6


@pytest.mark.parametrize("players", [2, 4])
def test_1_5_three_specialist_stacks_of_players_plus_one(players):
    g = new(players, seed=7)
    assert {k: len(v) for k, v in g.stacks.items()} == {k: players + 1 for k in ("engineer", "surveyor", "station")}
    assert all(len(set(g.stacks[k]) | set(g.box[k])) == len(g.cat.of_kind(k)) for k in g.stacks)
    recorded = new(players)
    assert recorded.stack_left == {k: players + 1 for k in ("engineer", "surveyor", "station")}


def test_1_6_the_start_player_then_clockwise():
    g = play(new(3), "C start P2")
    assert g.order == [2, 3, 1]
    assert legal(new(3))[:3] == ["C start P1", "C start P2", "C start P3"]


def test_1_7_companies_and_captains_chosen_last_player_first_wild_captains_too():
    g = play(new(3), "C start P2", *DEAL)
    assert g.pending.player == 1  # the last in turn order (P2, P3, P1) chooses first
    offered = legal(g)
    assert "P1 company kerigan rayleigh-kerigan" in offered and "P1 company kerigan trias-blackwind" in offered
    assert "P1 company kerigan runika-zenanen" not in offered  # a company's own captain leads only it
    play(g, "P1 company kerigan trias-blackwind")
    assert g.pending.player == 3
    assert "is not allowed" in refused(g, "P3 company kerigan rayleigh-kerigan")  # one company a seat
    assert "P3 company kings-line trias-blackwind" not in legal(g)  # a wild captain leads one company
    play(g, "P3 company kings-line irialandradayamorella")
    f = g.folio(1)
    assert (f.company, f.captain, f.mana, f.trains) == ("kerigan", "trias-blackwind", 5, 35)


def test_1_8_headquarters_in_turn_order_home_terrain_then_a_neighbour():
    g = play(new(), *OPENING[:-2])
    assert g.pending.player == 1
    assert "not allowed" in refused(g, "P1 hq e4 e3")  # e4 is a mountain, not Kings' Line's lakes
    assert "not allowed" in refused(g, "P1 hq e3 e2")  # never a city
    assert "not allowed" in refused(g, "P1 hq e3 c4")  # the second car beside the first
    play(g, "P1 hq e3 e4")
    assert "not allowed" in refused(g, "P2 hq e3 d3")  # an occupied hex is not free
    play(g, "P2 hq j3 k3")
    g2 = opening()
    assert g2.cars[g2.map.index("e3")] == [1] and g2.pending.player == 1 and g2.round == 1
