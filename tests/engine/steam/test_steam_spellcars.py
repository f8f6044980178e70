"""Every spellcar (docs/steam-rules.md, section 4): the six common kinds and each unique one, one test
each (the plainest ones, which only gain or reclaim, in one table). A card's effects are run for P1 in
its turn (``effect``); a spellcar whose working needs its slot (Limited Express) is activated for real.
P1's cars stand on e3 (a lake with an ehrlite good) and e4 (a mountain with silver)."""

from __future__ import annotations

import pytest

from engine.steam.pieces import WASTELAND

from .steam_helpers import cars, do, effect, goods, h, legal, mana, opening, play, refused, yard


def test_4_1_build_on_two_builds_on_each_terrain_in_either_order():
    g = effect(opening(), 1, "build-two-lava-mountain")
    play(g, "P1 builds d3")  # the mountain first
    assert "d2 is forest; this build needs lava" in refused(g, "P1 builds d2")
    play(g, "P1 builds f4")
    assert g.cars[h(g, "d3")] == [1] and g.cars[h(g, "f4")] == [1]


def test_4_2_free_competitor_transfer_one_transfer_over_a_competitor_is_free():
    g = opening()
    cars(g, 2, "f3", "g2")
    mana(g, 1, 2)
    effect(g, 1, "competitor-transfer-lava")
    play(g, "P1 builds g3 via f3")  # the transfer over P2's f3 is free
    assert g.folio(1).mana == 2
    g2 = opening()
    cars(g2, 2, "f3", "g3")
    mana(g2, 1, 1)
    effect(g2, 1, "competitor-transfer-desert")
    assert "cost 2 mana and P1 has 1" in refused(g2, "P1 builds g4 via f3 g3")  # only one of the two is free


def test_4_3_pick_one_of_two_builds_once_on_either_terrain():
    g = effect(opening(), 1, "pick-two-forest-lake")
    play(g, "P1 builds d2")
    assert g.pending.prompt.startswith("P1 using specialists")


def test_4_4_free_city_and_wasteland_transfer_one_of_each_free():
    g = opening()
    g.terrain[h(g, "f1")] = WASTELAND
    mana(g, 1, 0)
    effect(g, 1, "city-wasteland-transfer-lake")
    play(g, "P1 builds e1 via e2")  # over the city, free: e1 is a lake beside e2
    assert g.folio(1).mana == 0 and g.cars[h(g, "e1")] == [1]


def test_4_5_pick_one_of_three_builds_once_on_any_of_the_three():
    g = effect(opening(), 1, "pick-three-desert-forest-lake")
    assert {"P1 builds d2", "P1 builds d4", "P1 builds f3"} <= set(legal(g))
    play(g, "P1 builds d4")
    assert g.pending.prompt.startswith("P1 using specialists")


def test_4_6_reclaim_mana_builds_then_reclaims_one():
    g = opening()
    mana(g, 1, 2, 3)
    effect(g, 1, "reclaim-forest")
    play(g, "P1 builds d2")
    assert (g.folio(1).mana, g.folio(1).spent) == (3, 2)


@pytest.mark.parametrize("key,before,after", [
    ("flow-controller", (1, 4), (4, 1)),
    ("mana-surger", (3, 0), (4, 0)),
    ("kings-line-runika", (3, 0), (4, 0)),
])
def test_4_7_mana_spellcars(key, before, after):
    g = opening()
    mana(g, 1, *before)
    effect(g, 1, key)
    assert (g.folio(1).mana, g.folio(1).spent) == after


def test_4_8_arctic_shocker_builds_on_glacier_and_places_any_good():
    g = opening()
    cars(g, 1, "c3")
    effect(g, 1, "arctic-shocker")
    play(g, "P1 builds c2", "P1 places crizma")
    assert g.goods[h(g, "c2")]["crizma"] == 1 and g.goods[h(g, "c2")]["ritherwhyte"] == 1


def test_4_9_car_bomb_each_competitor_discards_a_placed_spellcar():
    g = opening()
    yard(g, 2, s2_2="metro", s4_2="icecar")
    effect(g, 1, "car-bomb")
    assert g.pending.player == 2 and legal(g) == ["P2 scraps 2:2", "P2 scraps 4:2"]
    play(g, "P2 scraps 4:2")
    assert g.folio(2).yard == {(2, 2): "metro"}


def test_4_10_corruption_junction_places_a_wasteland_and_gains_mana():
    g = opening()
    mana(g, 1, 3, 2)
    effect(g, 1, "corruption-junction")
    play(g, "P1 wastes f4")
    assert g.terrain[h(g, "f4")] == WASTELAND and g.folio(1).mana == 4


def test_4_11_deep_one_builds_on_a_mountain_anywhere():
    g = effect(opening(), 1, "deep-one")
    assert "P1 builds l1" in legal(g) and "P1 builds d2" not in legal(g)


def test_4_12_follow_through_builds_where_a_competitor_has_a_car():
    g = opening()
    cars(g, 2, "d4")
    effect(g, 1, "follow-through")
    assert "d3 is mountain; this build needs a hex with a competitor's car" in refused(g, "P1 builds d3")
    play(g, "P1 builds d4")
    assert g.cars[h(g, "d4")] == [2, 1]


@pytest.mark.parametrize("key", ["gilt-runner", "kerigan-rayleigh"])
def test_4_13_gilt_runner_and_rayleighs_spellcar_specialist_or_refresh(key):
    g = opening()
    g.folio(1).exhausted.add("runika-zenanen")
    effect(g, 1, key)
    assert legal(g) == ["P1 chooses specialist", "P1 chooses refresh"]
    play(g, "P1 chooses refresh")
    assert g.folio(1).exhausted == set()
    g2 = effect(opening(), 1, key)
    play(g2, "P1 chooses specialist", "P1 gains surveyor")
    assert g2.folio(1).open_hire == "surveyor"


def test_4_14_horizon_chaser_builds_on_the_edge_next_to_the_network():
    g = opening()
    cars(g, 1, "d2")
    effect(g, 1, "horizon-chaser")
    assert {"P1 builds d1", "P1 builds e1"} <= set(legal(g))
    assert "f5 is lava; this build needs any terrain but wasteland on the edge of the map" in refused(g, "P1 builds f5")
    assert "a5 is not next to the network" in refused(g, "P1 builds a5")


@pytest.mark.parametrize("key,count", [("the-hypetrain", 2), ("meditation-mecha", 1), ("golden-sands-seth", 1)])
def test_4_15_spellcars_that_gain_spellcars(key, count):
    g = effect(opening(), 1, key)
    for i in range(count):
        play(g, f"P1 takes {g.market[0]} {i + 1}:2")
    assert len(g.folio(1).yard) == count and g.pending.prompt.startswith("P1 using specialists")


def test_4_16_icecar_returns_a_good_of_the_network_for_a_mana():
    g = opening()
    mana(g, 1, 3)
    effect(g, 1, "icecar")
    assert legal(g) == ["P1 returns ehrlite@e3", "P1 returns silver@e4", "P1 skips"]
    play(g, "P1 returns silver@e4")
    assert not g.goods[h(g, "e4")] and g.folio(1).mana == 4


def test_4_17_limited_express_copies_its_left_or_right_neighbour_paying_its_costs():
    g = opening()
    yard(g, 1, s2_2="mana-surger", s3_2="limited-express", s4_2="flow-controller")
    mana(g, 1, 4, 4)
    do(g, 1, "P1 moves 1", "P1 activates limited-express", conductor=2)
    assert legal(g) == ["P1 copies left", "P1 copies right"]
    play(g, "P1 copies left")  # Mana Surger's 1 paid, a mana gained
    assert (g.folio(1).mana, g.folio(1).spent) == (3, 6)


def test_4_18_liquid_purifier_builds_on_a_lake_and_gains_mana():
    g = opening()
    cars(g, 1, "c4")
    mana(g, 1, 3)
    effect(g, 1, "liquid-purifier")
    play(g, "P1 builds c3")
    assert g.folio(1).mana == 4 and g.cars[h(g, "c3")] == [1]


@pytest.mark.parametrize("key,options", [
    ("luxury-carriage", ["specialist", "spellcar"]),
    ("refinery-car", ["specialist", "gain-mana"]),
    ("science-car", ["gain-mana", "spellcar"]),
])
def test_4_19_luxury_carriage_refinery_car_science_car_one_of_two(key, options):
    g = effect(opening(), 1, key)
    assert legal(g) == [f"P1 chooses {o}" for o in options]
    mana(g, 1, 3)
    play(g, f"P1 chooses {options[1]}")
    if options[1] == "gain-mana":
        assert g.folio(1).mana == 4
    else:
        play(g, "P1 takes metro 1:2")
        assert g.folio(1).yard == {(1, 2): "metro"}


def test_4_20_mirror_box_adds_a_good_like_one_of_the_network():
    g = effect(opening(), 1, "mirror-box")
    play(g, "P1 mirrors ehrlite@e3")
    assert g.goods[h(g, "e3")]["ehrlite"] == 2


@pytest.mark.parametrize("key", ["pollinator", "afterworld-dolores"])
def test_4_21_pollinator_pulls_a_good_into_the_network_from_next_door(key):
    g = effect(opening(), 1, key)
    assert "P1 pulls hylatine@d4 to e3" in legal(g) and "P1 pulls hylatine@c4 to e3" not in legal(g)
    play(g, "P1 pulls hylatine@d4 to e3")
    assert g.goods[h(g, "e3")]["hylatine"] == 1 and not g.goods[h(g, "d4")]


def test_4_22_pollution_solution_builds_on_two_wastelands():
    g = opening()
    for name in ("d3", "f3"):
        g.terrain[h(g, name)] = WASTELAND
    effect(g, 1, "pollution-solution")
    play(g, "P1 builds d3", "P1 builds f3")
    assert g.cars[h(g, "d3")] == [1] and g.cars[h(g, "f3")] == [1]


def test_4_23_reforester_builds_on_forest_with_heartwood_twice():
    g = effect(opening(), 1, "reforester")
    play(g, "P1 builds d2", "P1 builds f3")
    assert g.goods[h(g, "d2")]["heartwood"] == 2 and g.goods[h(g, "f3")]["heartwood"] == 2


@pytest.mark.parametrize("key", ["searing-supplier", "daedalus-khmsey"])
def test_4_24_searing_supplier_delivers_one_good_without_a_demand_tile(key):
    g = opening()
    goods(g, "e3", crizma=2)
    effect(g, 1, key)
    assert "P1 delivers crizma to e2 from e3" in legal(g)
    assert "a delivery of one good takes no demand tile" in refused(g, "P1 delivers crizma to e2 from e3 takes 2")
    assert "this delivery takes 1 good(s) at most" in refused(g, "P1 delivers crizma to e2 from e3 e3")
    play(g, "P1 delivers crizma to e2 from e3")
    assert g.folio(1).goods["crizma"] == 1 and g.folio(1).demand == []


def test_4_25_spice_convoy_builds_on_desert_and_refreshes_the_engineer():
    g = opening()
    g.folio(1).specialists["engineer"] = "orman-kaspar"
    g.folio(1).exhausted |= {"orman-kaspar", "runika-zenanen"}
    effect(g, 1, "spice-convoy")
    play(g, "P1 builds d4")
    assert g.folio(1).exhausted == {"runika-zenanen"}


def test_4_26_suburban_express_builds_next_to_a_city_or_a_wasteland():
    g = opening()
    g.terrain[h(g, "d5")] = WASTELAND
    effect(g, 1, "suburban-express")
    assert {"P1 builds d2", "P1 builds d4"} <= set(legal(g))  # d2 by the city e2, d4 by the wasteland d5
    assert "f5 is lava; this build needs any terrain but wasteland next to a city or wasteland" in refused(
        g, "P1 builds f5")


def test_4_27_switching_station_swaps_a_car_with_a_competitors_next_door():
    g = opening()
    cars(g, 2, "d4")
    effect(g, 1, "switching-station")
    assert "P1 switches e3 d4 P2" in legal(g)
    play(g, "P1 switches e3 d4 P2")
    assert g.cars[h(g, "e3")] == [2] and g.cars[h(g, "d4")] == [1]


def test_4_28_terraformer_builds_on_a_wasteland_and_places_any_good():
    g = opening()
    g.terrain[h(g, "d3")] = WASTELAND
    g.goods[h(g, "d3")].clear()
    effect(g, 1, "terraformer")
    play(g, "P1 builds d3", "P1 places ehrlite")
    assert g.goods[h(g, "d3")]["ehrlite"] == 1


def test_4_29_transformer_copies_a_market_spellcar_paying_its_inherent_cost():
    g = opening()
    mana(g, 1, 3, 2)
    effect(g, 1, "transformer")
    assert "P1 copies mana-surger" in legal(g) and "P1 copies deep-one" not in legal(g)
    play(g, "P1 copies mana-surger")
    assert (g.folio(1).mana, g.folio(1).spent) == (3, 3)  # paid 1, gained 1


def test_4_30_transmuter_swaps_a_good_of_the_network_for_any_colour():
    g = effect(opening(), 1, "transmuter")
    play(g, "P1 transmutes ehrlite@e3 crizma")
    assert dict(g.goods[h(g, "e3")]) == {"crizma": 1}


def test_4_31_volcanic_vexxer_builds_on_lava_then_removes_a_good_beside_it():
    g = effect(opening(), 1, "volcanic-vexxer")
    play(g, "P1 builds f5")
    assert "P1 removes heartwood@g5" in legal(g)
    play(g, "P1 removes heartwood@g5")
    assert not g.goods[h(g, "g5")]


def test_4_32_worldspanner_builds_on_two_different_terrains():
    g = effect(opening(), 1, "worldspanner")
    play(g, "P1 builds d2")
    assert "f3 is forest; this build needs any terrain but wasteland" in refused(g, "P1 builds f3")
    play(g, "P1 builds d4")
    assert g.cars[h(g, "d4")] == [1]
