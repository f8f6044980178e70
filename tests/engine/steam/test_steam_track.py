"""The network, building track, transfers, wastelands and the railyard (docs/steam-rules.md, section 3);
one test per rule, named by its number. P1's headquarters stand on e3 and e4 (steam_helpers)."""

from __future__ import annotations

from engine.steam import track
from engine.steam.pieces import WASTELAND

from .steam_helpers import cars, do, effect, goods, h, legal, mana, opening, play, refused, start, yard


def names(g, hexes) -> list[str]:
    return sorted(g.map.names[x] for x in hexes)


def test_3_1_in_network_and_network_adjacent_never_both():
    g = opening()
    cars(g, 1, "c3")
    net = track.network(g, 1)
    assert names(g, net) == ["c3", "e3", "e4"]
    adj = track.network_adjacent(g, 1)
    assert not adj & net and h(g, "d3") in adj and h(g, "b3") in adj and h(g, "a3") not in adj


def test_3_2_a_build_goes_on_a_network_adjacent_hex_of_its_terrain():
    g = opening()
    mana(g, 1, 0)  # no mana: no transfers
    effect(g, 1, "pick-two-forest-lake")
    assert legal(g) == ["P1 builds d2", "P1 builds f3", "P1 skips"]
    assert "c5 is not next to the network" in refused(g, "P1 builds c5")
    assert "d3 is mountain; this build needs forest or lake" in refused(g, "P1 builds d3")
    play(g, "P1 builds f3")
    assert g.cars[h(g, "f3")] == [1] and g.folio(1).trains == 32


def test_3_3_three_train_cars_a_hex_at_most():
    g = effect(opening(), 1, "pick-two-forest-lake")
    g.cars[h(g, "f3")] += [2, 3, 4]  # three companies' cars (a bigger table's)
    assert "f3 holds three train cars: no more fit" in refused(g, "P1 builds f3")


def test_3_4_never_a_second_car_where_the_company_has_one():
    g = effect(opening(), 1, "caterpillar-marcinae")  # any terrain but wasteland
    assert "P1 has a train car on e4 already" in refused(g, "P1 builds e4")


def test_3_5_never_a_car_on_a_city():
    g = effect(opening(), 1, "caterpillar-marcinae")
    assert "e2 is a city: a train car never stands on a city" in refused(g, "P1 builds e2")


def test_3_6_a_global_build_goes_anywhere_without_transfers():
    g = effect(opening(), 1, "deep-one")
    play(g, "P1 builds l1")  # a mountain at the far corner
    assert g.cars[h(g, "l1")] == [1]
    g2 = effect(opening(), 1, "deep-one")
    assert "this build goes anywhere: it needs no transfers" in refused(g2, "P1 builds f2 via e2")


def test_3_7_next_to_a_city_or_wasteland_and_network_adjacent_too():
    g = effect(opening(), 1, "metro")
    assert "P1 builds d2" in legal(g) and "P1 builds f3" in legal(g)
    assert "f5 is lava; this build needs any terrain but wasteland next to a city" in refused(g, "P1 builds f5")
    assert "a2 is not next to the network" in refused(g, "P1 builds a2")  # beside the silver city, far away


def test_3_8_a_city_transfer_costs_3():
    g = effect(opening(), 1, "kings-line-build-lake")
    mana(g, 1, 5)
    assert "P1 builds e1 via e2" in legal(g)
    play(g, "P1 builds e1 via e2")
    assert g.folio(1).mana == 2
    g2 = effect(opening(), 1, "kings-line-build-lake")
    mana(g2, 1, 2)
    assert "cost 3 mana and P1 has 2 (rule 'Transfers'" in refused(g2, "P1 builds e1 via e2")


def test_3_9_a_competitor_transfer_costs_2_however_many_cars_are_there():
    g = opening()
    cars(g, 2, "f3")
    g.cars[h(g, "f3")].append(3)  # a second competitor's car (no company plays seat 3: only the count matters)
    effect(g, 1, "afterworld-build-lava")
    play(g, "P1 builds g3 via f3")
    assert g.folio(1).mana == 3


def test_3_10_a_wasteland_transfer_costs_4_even_with_a_competitor_on_it():
    g = opening()
    g.terrain[h(g, "f3")] = WASTELAND
    cars(g, 2, "f3")
    effect(g, 1, "afterworld-build-lava")
    mana(g, 1, 4)
    play(g, "P1 builds g3 via f3")
    assert g.folio(1).mana == 0


def test_3_11_any_number_of_transfers_each_paid_hex_by_hex_from_a_network_adjacent_one():
    g = opening()
    cars(g, 2, "f3", "g3")
    effect(g, 1, "kings-line-pick-desert-forest")
    mana(g, 1, 5)
    play(g, "P1 builds g4 via f3 g3")  # two competitor transfers: 4
    assert g.folio(1).mana == 1
    g2 = opening()
    cars(g2, 2, "f3", "g3")
    effect(g2, 1, "kings-line-pick-desert-forest")
    assert "the first hex transferred over, g3, is not next to the network" in refused(g2, "P1 builds g4 via g3")
    assert "g4 is not next to f3: a transfer goes hex by hex" in refused(g2, "P1 builds g4 via f3")
    assert "no transfer goes over d3" in refused(g2, "P1 builds c4 via d3")
    assert "c7 is not a hex of this map" in refused(g2, "P1 builds c7")


def test_3_12_a_build_may_be_declined():
    g = effect(opening(), 1, "pick-two-forest-lake")
    play(g, "P1 skips")
    assert track.network(g, 1) == {h(g, "e3"), h(g, "e4")}


def test_3_13_a_wasteland_in_or_next_to_the_network_destroys_goods_keeps_cars():
    g = opening()
    cars(g, 2, "d4")
    mana(g, 1, 5)
    effect(g, 1, "corruption-junction")
    assert "P1 wastes e4" in legal(g) and "P1 wastes d4" in legal(g)
    assert "e2 is a city: a wasteland goes on neither" in refused(g, "P1 wastes e2")
    assert "c5 is neither in P1's network nor next to it" in refused(g, "P1 wastes c5")
    silver = g.supply["hylatine"]
    play(g, "P1 wastes d4")
    d4 = h(g, "d4")
    assert g.terrain[d4] == WASTELAND and not g.goods[d4] and g.cars[d4] == [2] and g.supply["hylatine"] == silver + 1
    assert g.wastelands == 19
    g2 = opening()
    g2.terrain[h(g2, "d4")] = WASTELAND
    effect(g2, 1, "corruption-junction")
    assert "d4 is a wasteland: a wasteland goes on neither a city nor another wasteland" in refused(g2, "P1 wastes d4")


def test_3_14_no_wasteland_tile_left_no_wasteland_placed():
    g = opening()
    g.wastelands = 0
    mana(g, 1, 3, 2)
    effect(g, 1, "corruption-junction")  # the wasteland is skipped, the mana still gained
    assert g.pending.prompt.startswith("P1 using specialists") and g.folio(1).mana == 4


def test_3_15_the_railyard_fills_row_two_first_and_covers_printed_spellcars_last():
    g = opening()
    yard(g, 1, s1_2="metro", s2_2="metro", s3_2="metro", s4_2="metro")
    do(g, 1, "P1 administrates")
    assert sorted({x.split()[-1] for x in legal(g)}) == ["5:2"]
    yard(g, 1, s5_2="metro", s1_3="metro", s2_3="metro", s3_3="metro", s4_3="metro", s5_3="metro")
    start(g, 1)
    play(g, "P1 administrates")
    assert sorted({x.split()[-1] for x in legal(g)}) == ["1:1", "2:1", "3:1", "4:1", "5:1"]
    play(g, "P1 takes icecar 3:1")
    assert g.folio(1).slot(3, 1) == "icecar"  # over Runika's printed spellcar, which no longer works


def test_3_16_goods_need_not_touch_the_city_any_car_of_the_network_delivers():
    g = opening()
    cars(g, 1, "h4", "i4")
    goods(g, "i4", ritherwhyte=1)  # i4 does not touch the city h3; h4 does
    do(g, 1, "P1 moves 1", conductor=5)
    play(g, "P1 delivers ritherwhyte to h3 from i4")
    assert g.folio(1).goods["ritherwhyte"] == 1
