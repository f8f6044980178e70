"""Every captain (with its company spellcar), engineer, surveyor and station master
(docs/steam-rules.md, sections 5-8), one test each, named by the rule's number. A specialist is put on
P1's folio by hand (``hire``) and used as a line in P1's turn. P1's cars stand on e3 (a lake with an
ehrlite good) and e4 (a mountain with silver); P2's on j3 and k3."""

from __future__ import annotations

import pytest

from engine.steam.pieces import WASTELAND

from .steam_helpers import cars, do, effect, goods, h, hire, legal, mana, opening, play, refused, start, yard


def uses(key: str, *texts: str, g=None, seat: int = 1, **kw):
    g = g or opening()
    hire(g, seat, key)
    return do(g, seat, f"P{seat} uses {key}", *texts, **kw)


# ------------------------------------------------------------------ 5. captains
def test_5_1_bartok_kulle_builds_on_a_wasteland_or_places_one_keeping_its_goods():
    g = opening()
    g.terrain[h(g, "d3")] = WASTELAND
    uses("bartok-kulle", "P1 chooses build", "P1 builds d3", g=g)
    assert g.cars[h(g, "d3")] == [1]
    g2 = uses("bartok-kulle", "P1 chooses wasteland", "P1 wastes d4")
    assert g2.terrain[h(g2, "d4")] == WASTELAND and g2.folio(1).goods["hylatine"] == 1


def test_5_2_bartoks_spellcar_places_a_wasteland_then_builds_on_it():
    g = effect(opening(), 1, "gesselheim-bartok")
    play(g, "P1 wastes d4")
    assert "this build goes on d4" in refused(g, "P1 builds f3")
    play(g, "P1 builds d4")
    assert g.terrain[h(g, "d4")] == WASTELAND and g.cars[h(g, "d4")] == [1]


def test_5_3_dolores_malephaise_pays_1_to_bring_a_good_from_a_hex_without_competitors():
    g = opening()
    mana(g, 1, 3)
    uses("dolores-malephaise", g=g)
    assert "P1 pulls ritherwhyte@a1 to e3" in legal(g)
    assert not any("@j3" in x or "@k3" in x for x in legal(g))  # P2's hexes
    play(g, "P1 pulls ritherwhyte@a5 to e3")
    assert g.goods[h(g, "e3")]["ritherwhyte"] == 1 and g.folio(1).mana == 2


def test_5_4_marcinae_returns_a_good_to_move_the_car_on_its_hex():
    g = uses("marcinae-ayle-shorec", "P1 returns silver@e4")
    assert "P1 shifts e4 f4" in legal(g) and "P1 shifts e3 d3" not in legal(g)
    play(g, "P1 shifts e4 f4")
    assert g.cars[h(g, "f4")] == [1] and not g.cars[h(g, "e4")] and not g.goods[h(g, "e4")]


def test_5_5_marcinaes_spellcar_builds_on_any_terrain_but_wasteland():
    g = opening()
    g.terrain[h(g, "d3")] = WASTELAND
    effect(g, 1, "caterpillar-marcinae")
    assert "P1 builds d4" in legal(g) and "P1 builds d3" not in legal(g)


def test_5_6_irialandradayamorella_pays_1_for_a_specialist_or_a_build_by_a_city():
    g = uses("irialandradayamorella")
    assert legal(g) == ["P1 chooses specialist", "P1 chooses build"]
    play(g, "P1 chooses build")
    assert g.folio(1).mana == 4 and "P1 builds d2" in legal(g) and "P1 builds f5" not in legal(g)


def test_5_7_rayleigh_kerigan_moves_one_to_three_free_four_for_two():
    g = opening()
    mana(g, 1, 2)
    uses("rayleigh-kerigan", g=g)
    assert "P1 moves 4" in legal(g)
    play(g, "P1 moves 3")
    assert g.folio(1).mana == 2


def test_5_8_runika_zenanen_reclaims_five():
    g = opening()
    mana(g, 1, 0, 7)
    uses("runika-zenanen", g=g)
    assert (g.folio(1).mana, g.folio(1).spent) == (5, 2)


def test_5_9_seth_cremmul_activates_everything_free_inherent_costs_too():
    g = opening()
    yard(g, 1, s3_2="mana-surger", s3_3="the-hypetrain")
    mana(g, 1, 0, 5)
    uses("seth-cremmul", "P1 moves 1", "P1 activates mana-surger", "P1 activates kings-line-runika",
         "P1 activates the-hypetrain", g=g, conductor=2)
    assert g.folio(1).mana == 2


def test_5_10_trias_blackwind_builds_on_home_terrain_or_refreshes_the_engineer():
    g = opening()
    cars(g, 1, "c4")
    uses("trias-blackwind", "P1 chooses build", g=g)
    assert "P1 builds c3" in legal(g)  # Kings' Line's home is the lake
    g2 = opening()
    hire(g2, 1, "orman-kaspar")
    g2.folio(1).exhausted.add("orman-kaspar")
    uses("trias-blackwind", "P1 chooses refresh", g=g2)
    assert g2.folio(1).exhausted == {"trias-blackwind"}


# ------------------------------------------------------------------ 6. engineers
def test_6_1_adelaide_chivers_gains_a_spellcar():
    g = uses("adelaide-chivers", "P1 takes metro 1:2")
    assert g.folio(1).yard == {(1, 2): "metro"}


def test_6_2_aerlion_places_a_wasteland_and_transfers_over_it_free_this_turn():
    g = uses("aerlion", "P1 wastes f3", conductor=1)
    mana(g, 1, 0)
    play(g, "P1 moves 1", "P1 activates kings-line-pick-lava-mountain", "P1 builds g3 via f3")
    assert g.cars[h(g, "g3")] == [1]


def test_6_3_arret_draamivaar_copies_another_companys_face_up_engineer():
    g = opening()
    hire(g, 2, "orman-kaspar")
    mana(g, 1, 0, 5)
    uses("arret-draamivaar", g=g)  # one engineer to copy: the engine takes 'P1 copies P2' itself
    assert g.folio(1).mana == 3
    g2 = opening()
    hire(g2, 2, "orman-kaspar")
    g2.folio(2).exhausted.add("orman-kaspar")
    mana(g2, 1, 0, 5)
    uses("arret-draamivaar", g=g2)  # nothing face up to copy: Arret is flipped for nothing
    assert g2.folio(1).mana == 0 and g2.pending.prompt.startswith("P1 using specialists")


def test_6_4_candide_malepaise_builds_where_a_competitor_has_a_car():
    g = opening()
    cars(g, 2, "d3")
    uses("candide-malepaise", "P1 builds d3", g=g)
    assert g.cars[h(g, "d3")] == [2, 1]


def test_6_5_eloi_klaus_activations_free_of_the_ladder_and_reclaim_one():
    g = opening()
    yard(g, 1, s3_2="mana-surger", s3_3="flow-controller")
    mana(g, 1, 1, 4)
    uses("eloi-klaus", g=g, conductor=2)
    assert (g.folio(1).mana, g.folio(1).spent) == (2, 3)  # reclaimed at once
    play(g, "P1 moves 1", "P1 activates flow-controller", "P1 activates mana-surger")
    assert (g.folio(1).mana, g.folio(1).spent) == (5, 1)  # the inherent 1 paid, not the ladder


def test_6_6_garek_tesias_swaps_two_spellcars_or_moves_one_even_to_row_three():
    g = opening()
    yard(g, 1, s1_2="metro", s2_2="icecar")
    uses("garek-tesias", g=g)
    assert "P1 rearranges 1:2 1:3" in legal(g)
    play(g, "P1rearranges 1:2 2:2".replace("P1r", "P1 r"))
    assert g.folio(1).yard == {(1, 2): "icecar", (2, 2): "metro"}


def test_6_7_irion_juiz_pays_1_to_move_a_car_next_door():
    g = uses("irion-juiz", "P1 shifts e3 d3")
    assert g.cars[h(g, "d3")] == [1] and g.folio(1).mana == 4


def test_6_8_lixis_ran_kanda_sets_a_good_of_its_terrain_on_a_bare_hex():
    g = opening()
    goods(g, "e4")
    uses("lixis-ran-kanda", g=g)
    assert legal(g) == ["P1 seeds e4", "P1 skips"]
    play(g, "P1 seeds e4")
    assert dict(g.goods[h(g, "e4")]) == {"silver": 1}


def test_6_9_luc_von_gott_pays_1_to_gain_1():
    g = opening()
    mana(g, 1, 3, 0)
    uses("luc-von-gott", g=g)
    assert (g.folio(1).mana, g.folio(1).spent) == (3, 1)


def test_6_10_malandrax_mecchi_pays_1_to_pull_a_good_from_next_door():
    g = uses("malandrax-mecchi", "P1 pulls hylatine@d4 to e3")
    assert g.goods[h(g, "e3")]["hylatine"] == 1 and g.folio(1).mana == 4


def test_6_11_manch_pays_1_to_refresh_the_captain():
    g = opening()
    g.folio(1).exhausted.add("runika-zenanen")
    uses("manch", g=g)
    assert g.folio(1).exhausted == {"manch"} and g.folio(1).mana == 4


def test_6_12_orman_kaspar_reclaims_three():
    g = opening()
    mana(g, 1, 0, 5)
    uses("orman-kaspar", g=g)
    assert (g.folio(1).mana, g.folio(1).spent) == (3, 2)


def test_6_13_rixia_van_sorrel_pays_1_to_double_a_good():
    g = uses("rixia-van-sorrel", "P1 mirrors silver@e4")
    assert g.goods[h(g, "e4")]["silver"] == 2 and g.folio(1).mana == 4


def test_6_14_sarafina_vanedran_waives_inherent_costs_not_the_ladder():
    g = opening()
    yard(g, 1, s3_2="mana-surger")
    mana(g, 1, 1, 4)
    uses("sarafina-vanedran", "P1 moves 1", "P1 activates kings-line-runika", "P1 activates mana-surger", g=g,
         conductor=2)
    assert (g.folio(1).mana, g.folio(1).spent) == (2, 5)  # the second activation's 1, nothing inherent


def test_6_15_uumi_nuoc_pays_1_to_copy_a_market_spellcar_and_its_inherent_cost():
    g = opening()
    mana(g, 1, 3, 2)
    uses("uumi-nuoc", "P1 copies mana-surger", g=g)
    assert (g.folio(1).mana, g.folio(1).spent) == (2, 4)  # 1 to use, 1 inherent, 1 gained


def test_6_16_wendy_thristle_one_transfer_free_this_turn():
    g = opening()
    yard(g, 1, s1_2="pick-two-forest-mountain")
    mana(g, 1, 0)
    uses("wendy-thristle", "P1 moves 1", "P1 activates kings-line-build-lake", "P1 builds e1 via e2", g=g)
    assert g.cars[h(g, "e1")] == [1]
    g2 = opening()
    mana(g2, 1, 0)
    uses("wendy-thristle", "P1 moves 1", g=g2)
    cars(g2, 2, "f3")
    play(g2, "P1 activates kings-line-build-lake", "P1 builds e1 via e2")  # the city is the dearer one
    assert g2.turn.free_transfers == []


# ------------------------------------------------------------------ 7. surveyors
def test_7_1_aella_draws_three_station_masters_and_plays_one_beside_the_slot():
    g = opening(seed=None)
    hire(g, 1, "peril")
    uses("aella-ivaline-oranhei", "P1 picks clive-melmont", g=g)
    assert g.folio(1).stations() == ["peril", "clive-melmont"]
    play(g, "P1 uses clive-melmont")


def test_7_2_almir_nol_kanda_seeds_up_to_three_bare_hexes():
    g = opening()
    cars(g, 1, "d3", "d4")
    for name in ("e3", "e4", "d3", "d4"):
        goods(g, name)
    uses("almir-nol-kanda", "P1 seeds e3", "P1 seeds e4", "P1 seeds d3", g=g)
    assert sum(sum(g.goods[h(g, x)].values()) for x in ("e3", "e4", "d3", "d4")) == 3


def test_7_3_anya_southwind_moves_cars_up_to_four_times():
    g = uses("anya-southwind", "P1 shifts e3 d3", "P1 shifts d3 c3", "P1 shifts c3 b3", "P1 shifts e4 f4")
    assert g.cars[h(g, "b3")] == [1] and g.cars[h(g, "f4")] == [1] and g.pending.player == 1


def test_7_4_ariel_malephaise_clears_every_car_on_and_around_a_hex_of_the_network():
    g = opening()
    cars(g, 2, "d4", "f3")
    uses("ariel-malephaise", "P1 clears e3", g=g)
    assert not any(g.cars[h(g, x)] for x in ("e3", "e4", "d4", "f3"))
    assert g.folio(1).trains == 35 and g.folio(2).trains == 33


def test_7_5_cin_atalar_gathers_the_goods_around_a_hex_into_it():
    g = uses("cin-atalar", "P1 sweeps e4")
    assert sum(g.goods[h(g, "e4")].values()) == 7 and not g.goods[h(g, "f4")]


def test_7_6_doc_silnan_copies_another_surveyor_used_or_not():
    g = opening()
    hire(g, 2, "hikaru-sorayama")
    g.folio(2).exhausted.add("hikaru-sorayama")
    mana(g, 1, 0, 5)
    uses("doc-silnan", g=g)  # 'P1 copies P2', the one choice
    assert (g.folio(1).mana, g.folio(1).spent) == (7, 0)


def test_7_7_eirene_lemina_kobor_takes_an_extra_turn():
    g = uses("eirene-lemina-kobor", "P1 moves 1", "P1 stops")
    assert g.pending.player == 1 and g.round == 1


def test_7_8_hikaru_sorayama_reclaims_everything_and_gains_two():
    g = opening()
    mana(g, 1, 1, 6)
    uses("hikaru-sorayama", g=g)
    assert (g.folio(1).mana, g.folio(1).spent) == (9, 0)


def test_7_9_hydeart_burnstein_builds_up_to_four_hexes_of_one_terrain():
    g = uses("hydeart-burnstein", "P1 builds f4", "P1 builds f5")
    assert "d2 is forest; this build needs lava" in refused(g, "P1 builds d2")
    play(g, "P1 builds e5", "P1 builds f6")
    assert g.pending.player == 1 and g.folio(1).trains == 29


def test_7_10_john_strong_stevenson_builds_three_times_on_any_terrain():
    g = uses("john-strong-stevenson", "P1 builds d2", "P1 builds d3", "P1 builds d4")
    assert g.folio(1).trains == 30


def test_7_11_lyal_kerigan_delivers_up_to_four_of_one_colour_and_may_take_a_tile():
    g = opening()
    goods(g, "e3", crizma=3)
    goods(g, "e4", crizma=2)
    uses("lyal-kerigan", g=g)
    assert "this delivery takes 4 good(s) at most" in refused(g, "P1 delivers crizma to e2 from e3 e3 e3 e4 e4")
    play(g, "P1 delivers crizma to e2 from e3 e3 e3 e4 takes 4")
    assert g.folio(1).demand == [("crizma", 4)]


def test_7_12_milton_barts_gains_two_spellcars_and_activates_them_paying_inherent_costs():
    g = opening()
    mana(g, 1, 1, 0)
    uses("milton-barts", "P1 takes mana-surger 1:2", g=g)
    assert (g.folio(1).mana, g.folio(1).spent) == (1, 1)  # its inherent 1 paid, a mana gained
    play(g, "P1 takes meditation-mecha 2:2", "P1 takes metro 3:2")  # Meditation Mecha, activated, gains Metro
    assert len(g.folio(1).yard) == 3
    g2 = opening()
    mana(g2, 1, 0, 0)
    uses("milton-barts", "P1 takes mana-surger 1:2", "P1 takes flow-controller 2:2", g=g2)
    assert (g2.folio(1).mana, g2.folio(1).spent) == (0, 0)  # Mana Surger's 1 not there to pay: not activated


def test_7_13_mindra_dirac_builds_on_every_hex_around_one_of_the_network():
    g = opening()
    g.terrain[h(g, "d3")] = WASTELAND
    uses("mindra-dirac", "P1 builds around e3", g=g)
    assert sorted(g.map.names[x] for x, c in enumerate(g.cars) if 1 in c) == ["d2", "d4", "e3", "e4", "f3"]


def test_7_14_ran_ugobia_refreshes_captain_and_engineer_and_they_stay_face_up():
    g = opening()
    hire(g, 1, "orman-kaspar")
    g.folio(1).exhausted |= {"runika-zenanen", "orman-kaspar"}
    uses("ran-ugobia", "P1 uses runika-zenanen", "P1 uses orman-kaspar", g=g)
    assert g.folio(1).exhausted == {"ran-ugobia"}
    play(g, "P1 uses runika-zenanen")  # a second use is an ordinary one: flipped (choice C30)
    assert g.folio(1).exhausted == {"ran-ugobia", "runika-zenanen"}
    assert "P1 uses runika-zenanen" not in legal(g)


def test_7_15_telemyr_swaps_a_specialist_for_good_refreshed():
    g = opening()
    hire(g, 1, "orman-kaspar")
    hire(g, 2, "manch")
    g.folio(2).exhausted.add("manch")
    uses("telemyr", "P1 trades engineer P2", g=g)
    assert g.folio(1).specialists["engineer"] == "manch" and g.folio(2).specialists["engineer"] == "orman-kaspar"
    assert "manch" not in g.folio(1).exhausted


def test_7_16_wardlaw_obrien_swaps_demand_tiles_claimed_by_their_own_colour():
    g = opening()
    uses("wardlaw-obrien", g=g)
    assert "the city on e2 has no silver demand tile for 2 goods" in refused(g, "P1 swaps silver-2@e2 crizma-2@b2")
    assert "between two cities' stands, not within one" in refused(g, "P1 swaps crizma-2@e2 crizma-3@e2")
    play(g, "P1 swaps crizma-2@e2 silver-2@b2", "P1 skips")  # either order of the two tiles reads
    assert ("silver", 2) in g.stands[h(g, "e2")] and ("crizma", 2) in g.stands[h(g, "b2")]
    goods(g, "e3", silver=2, crizma=1)
    start(g, 1, conductor=5)
    play(g, "P1 moves 1")
    assert "only to claim the silver demand tile swapped there" in refused(g, "P1 delivers silver to e2 from e3")
    play(g, "P1 delivers silver to e2 from e3 e3 takes 2")
    assert g.folio(1).demand == [("silver", 2)] and g.folio(1).goods["silver"] == 2


def test_7_17_welsie_acktern_builds_anywhere_then_on_home_terrain_beside_it():
    g = uses("welsie-acktern", "P1 builds h2")
    assert "P1 builds i2" in legal(g) and "P1 builds c3" not in legal(g)
    play(g, "P1 builds i2")
    assert g.cars[h(g, "i2")] == [1]


# ------------------------------------------------------------------ 8. station masters
@pytest.mark.parametrize("key,path,cost", [("antine-frass", "e1 via e2", 0), ("sanathes-danah", "g3 via f3", 1),
                                           ("irini-grenhart", "g3 via f3", 1)])
def test_8_1_antine_frass_sanathes_danah_irini_grenhart_cheaper_transfers(key, path, cost):
    g = opening()
    if key == "sanathes-danah":
        g.terrain[h(g, "f3")] = WASTELAND
    else:
        cars(g, 2, "f3")
    hire(g, 1, key)
    mana(g, 1, 5)
    effect(g, 1, "john-strong-stevenson")
    play(g, f"P1 builds {path}")
    assert g.folio(1).mana == 5 - cost


def test_8_2_clive_melmont_reclaims_one_each_turn():
    g = opening()
    mana(g, 1, 2, 3)
    uses("clive-melmont", g=g)
    assert g.folio(1).mana == 3


def test_8_3_dareios_kuel_returns_two_goods_for_a_mana():
    g = opening()
    mana(g, 1, 2, 3)
    uses("dareios-kuel", "P1 returns ehrlite@e3 silver@e4", g=g)
    assert g.folio(1).mana == 3 and not g.goods[h(g, "e3")]


def test_8_4_feylana_chorgitz_pays_1_and_a_good_to_refresh_the_engineer():
    g = opening()
    hire(g, 1, "orman-kaspar")
    g.folio(1).exhausted.add("orman-kaspar")
    uses("feylana-chorgitz", "P1 returns silver@e4", g=g)
    assert g.folio(1).exhausted == set() and g.folio(1).mana == 4


def test_8_5_hai_of_noirwood_a_demand_tile_one_above_what_the_delivery_earns():
    g = opening()
    hire(g, 1, "hai-of-noirwood")
    goods(g, "e3", crizma=2)
    do(g, 1, "P1 moves 1", "P1 delivers crizma to e2 from e3 e3 takes 3", conductor=5)
    assert g.folio(1).demand == [("crizma", 3)]


def test_8_6_levine_casterlie_second_activation_free_third_costs_one():
    g = opening()
    yard(g, 1, s2_2="pick-two-forest-lake", s2_3="pick-two-desert-glacier")
    hire(g, 1, "levine-casterlie")
    mana(g, 1, 1)
    do(g, 1, "P1 moves 1", "P1 activates kings-line-pick-lava-mountain", "P1 skips",
       "P1 activates pick-two-forest-lake", "P1 skips", "P1 activates pick-two-desert-glacier", "P1 skips", conductor=1)
    assert g.folio(1).mana == 0


def test_8_7_leto_fulgore_a_mana_with_a_delivery_at_the_end_of_the_line():
    g = opening()
    hire(g, 1, "leto-fulgore")
    mana(g, 1, 3)
    goods(g, "e3", crizma=1)
    do(g, 1, "P1 moves 1", "P1 delivers crizma to e2 from e3", conductor=5)
    assert g.folio(1).mana == 4


def test_8_8_lucca_turlotte_pays_2_and_two_goods_to_refresh_the_captain():
    g = opening()
    g.folio(1).exhausted.add("runika-zenanen")
    uses("lucca-turlotte", "P1 returns ehrlite@e3 silver@e4", g=g)
    assert g.folio(1).exhausted == set() and g.folio(1).mana == 3


def test_8_9_nicomedes_ansige_delivers_one_good_when_administrating():
    g = opening()
    hire(g, 1, "nicomedes-ansige")
    goods(g, "e3", crizma=1)
    do(g, 1, "P1 administrates", "P1 takes metro 1:2", "P1 delivers crizma to e2 from e3")
    assert g.folio(1).goods["crizma"] == 1


def test_8_10_peril_activates_then_moves_no_delivery_at_the_end():
    g = opening()
    hire(g, 1, "peril")
    mana(g, 1, 3)
    goods(g, "e3", crizma=2)
    do(g, 1, "P1 moves 1 after", "P1 activates kings-line-reclaim-glacier", conductor=5)  # no glacier to build on
    assert g.pending.prompt == "P1 choosing an upgrade" and g.folio(1).goods["crizma"] == 0
    g2 = opening()
    hire(g2, 1, "peril")
    start(g2, 1)
    assert "P1 moves 1 after" not in legal(g2)  # not from Start: no spellcar stands there


def test_8_11_simon_la_faucheuse_moves_1_2_free_3_for_2_4_for_4():
    g = opening()
    hire(g, 1, "simon-la-faucheuse")
    mana(g, 1, 4)
    do(g, 1, "P1 moves 4")
    assert g.folio(1).mana == 0


def test_8_12_tegusgan_pays_2_and_two_goods_to_build_on_any_terrain():
    g = uses("tegusgan", "P1 returns ehrlite@e3 silver@e4", "P1 builds d3")
    assert g.cars[h(g, "d3")] == [1] and g.folio(1).mana == 3


def test_8_13_tzart_kargan_builds_on_home_terrain_when_administrating():
    g = opening()
    cars(g, 1, "c4")
    hire(g, 1, "tzart-kargan")
    do(g, 1, "P1 administrates", "P1 takes metro 1:2", "P1 builds c3")
    assert g.cars[h(g, "c3")] == [1]


def test_8_14_viona_larone_pays_1_to_activate_one_spellcar_twice_and_no_other():
    g = opening()
    hire(g, 1, "viona-larone")
    yard(g, 1, s3_2="metro")
    mana(g, 1, 3)
    do(g, 1, "P1 moves 1", "P1 activates kings-line-runika", "P1 activates kings-line-runika", conductor=2)
    assert g.folio(1).mana == 2  # its inherent 1, then Viona's 1 and the inherent 1 again; 2 gained
    assert g.pending.player == 2  # Metro could not be activated after it: the turn is over


def test_8_15_voco_astrum_two_goods_when_a_delivery_takes_no_tile():
    g = opening()
    hire(g, 1, "voco-astrum")
    goods(g, "e3", crizma=1)
    do(g, 1, "P1 moves 1", "P1 delivers crizma to e2 from e3", conductor=5)
    assert g.folio(1).goods["crizma"] == 3
