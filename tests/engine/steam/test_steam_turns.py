"""A turn of Spells & Steam (docs/steam-rules.md, section 2): specialists, Administrate, Move+Activate,
the End of the Line and mana; one test per rule, named by its number."""

from __future__ import annotations

from .steam_helpers import (
    cars,
    do,
    goods,
    hire,
    legal,
    mana,
    opening,
    play,
    refused,
    start,
    yard,
)


def test_2_1_turns_go_round_from_the_start_player_one_main_action_each():
    g = opening()
    assert g.pending.player == 1
    play(g, "P1 moves 1", "P1 stops")
    assert g.pending.player == 2 and g.round == 1
    play(g, "P2 moves 1", "P2 stops")
    assert g.pending.player == 1 and g.round == 2
    assert "it is P1 using specialists" in refused(g, "P2 moves 1")


def test_2_2_captains_and_engineers_exhaust_when_used_and_refresh():
    g = opening()
    hire(g, 1, "orman-kaspar")
    mana(g, 1, 1, 4)
    do(g, 1, "P1 uses runika-zenanen", "P1 uses orman-kaspar")
    assert g.folio(1).exhausted == {"runika-zenanen", "orman-kaspar"} and g.folio(1).mana == 5
    assert "exhausted (face down) until refreshed" in refused(g, "P1 uses runika-zenanen")
    play(g, "P1 administrates")
    assert g.folio(1).exhausted == set()


def test_2_3_a_surveyor_is_used_once_a_game():
    g = opening()
    hire(g, 1, "hikaru-sorayama")
    mana(g, 1, 1, 2)
    do(g, 1, "P1 uses hikaru-sorayama")
    assert (g.folio(1).mana, g.folio(1).spent) == (5, 0)
    play(g, "P1 administrates", "P1 takes metro 1:2")
    start(g, 1)
    assert "P1 uses hikaru-sorayama" not in legal(g)
    assert "exhausted" in refused(g, "P1 uses hikaru-sorayama")


def test_2_4_station_masters_once_a_turn_or_a_standing_rule_never_flipped():
    g = opening()
    hire(g, 1, "clive-melmont")
    mana(g, 1, 2, 3)
    do(g, 1, "P1 uses clive-melmont")
    assert g.folio(1).mana == 3 and "clive-melmont" not in g.folio(1).exhausted
    assert "used once a turn" in refused(g, "P1 uses clive-melmont")
    start(g, 1)
    assert "P1 uses clive-melmont" in legal(g)  # the next turn, again
    g2 = opening()
    hire(g2, 1, "antine-frass")
    start(g2, 1)
    assert "standing one: it is not used" in refused(g2, "P1 uses antine-frass")


def test_2_5_specialists_in_any_order_before_the_main_action_only():
    g = opening()
    hire(g, 1, "orman-kaspar")
    mana(g, 1, 0, 5)
    do(g, 1, "P1 uses orman-kaspar", "P1 uses runika-zenanen")  # either order, both before the main action
    assert g.folio(1).mana == 5
    g2 = opening()
    hire(g2, 1, "orman-kaspar")
    do(g2, 1, "P1 moves 1")
    assert "it is P1 activating spellcars, not 'P1 uses orman-kaspar'" in refused(g2, "P1 uses orman-kaspar")


def test_2_6_administrate_reclaims_refreshes_and_gains_a_spellcar():
    g = opening()
    hire(g, 1, "orman-kaspar")
    mana(g, 1, 1, 4)
    g.folio(1).exhausted |= {"runika-zenanen", "orman-kaspar"}
    do(g, 1, "P1 administrates")
    f = g.folio(1)
    assert (f.mana, f.spent, f.exhausted) == (5, 0, set())
    play(g, "P1 takes transformer 2:2")
    assert f.yard == {(2, 2): "transformer"} and "transformer" not in g.market


def test_2_7_a_market_down_to_two_is_discarded_and_dealt_again():
    g = opening()
    g.market = ["metro", "icecar", "mana-surger"]
    do(g, 1, "P1 administrates", "P1 takes metro 1:2")
    assert g.market == [] and g.pending.player == 0  # the two left are discarded: a new market is dealt
    assert "every copy is already out" in refused(g, "C market icecar")  # icecar left with the discards
    play(g, *(f"C market {k}" for k in ("deep-one", "worldspanner", "gilt-runner", "car-bomb", "science-car",
                                        "spice-convoy")))
    assert len(g.market) == 6 and g.pending.player == 2


def test_2_8_the_conductor_moves_one_to_four_spaces_for_0_1_3_6_mana():
    for spaces, cost in ((1, 0), (2, 1), (3, 3), (4, 6)):
        g = opening()
        mana(g, 1, 6)
        do(g, 1, f"P1 moves {spaces}")
        assert g.folio(1).mana == 6 - cost and g.folio(1).conductor == spaces
    g = opening()
    mana(g, 1, 5)
    start(g, 1)
    assert "costs 6 mana and P1 has 5" in refused(g, "P1 moves 4")
    assert "needs the spaces, 1 to 4" in _unreadable("P1 moves 0")


def _unreadable(text: str) -> str:
    from engine.steam.lines import parse_line
    try:
        parse_line(text)
    except ValueError as e:
        return str(e)
    raise AssertionError(f"{text!r} was read")


def test_2_9_the_conductor_stops_at_the_end_of_the_line():
    g = opening()
    start(g, 1, conductor=5)
    assert "1 space(s) from the End of the Line, where it must stop" in refused(g, "P1 moves 2")
    play(g, "P1 moves 1")
    assert g.pending.prompt == "P1 choosing an upgrade"  # nothing to deliver: the delivery is passed by itself


def test_2_10_activations_cost_0_1_3_plus_inherent_costs_each_spellcar_once():
    g = opening()
    yard(g, 1, s2_2="pick-three-desert-forest-lake", s2_3="worldspanner")  # inherent costs 1 and 3
    mana(g, 1, 10)
    do(g, 1, "P1 moves 1", conductor=1)
    play(g, "P1 activates kings-line-pick-lava-mountain", "P1 skips")  # the first: free
    assert g.folio(1).mana == 10
    play(g, "P1 activates pick-three-desert-forest-lake", "P1 skips")  # the second: 1, plus its inherent 1
    assert g.folio(1).mana == 8
    assert "each spellcar is activated once a turn" in refused(g, "P1 activates pick-three-desert-forest-lake")
    assert "not in the column where P1's conductor stands" in refused(g, "P1 activates metro")
    play(g, "P1 activates worldspanner")  # the third: 3 in all (2 more), plus its inherent 3
    assert g.folio(1).mana == 3


def test_2_11_mana_gained_by_an_activation_cannot_pay_for_more_activations():
    g = opening()
    yard(g, 1, s3_2="mana-surger", s3_3="metro")
    mana(g, 1, 2, 3)
    do(g, 1, "P1 moves 1", "P1 activates kings-line-runika", conductor=2)  # pays its 1, gains 1
    assert g.folio(1).mana == 2 and g.turn.locked == 1
    assert "(1 gained by activations this turn cannot pay for activations)" in refused(g, "P1 activates mana-surger")
    play(g, "P1 activates metro")  # 1 mana not gained this turn pays the second activation


def _at_the_end(g, seat: int = 1):
    return do(g, seat, f"P{seat} moves 1", conductor=5)


def test_2_12_deliver_goods_of_a_network_adjacent_citys_colour_from_the_network():
    g = opening()
    cars(g, 1, "c3")  # not connected to e3: a network need not hang together
    goods(g, "e3", crizma=1)
    goods(g, "c3", crizma=1)
    goods(g, "f4", crizma=1)  # not in the network
    _at_the_end(g)
    assert "f4 is not in P1's network" in refused(g, "P1 delivers crizma to e2 from e3 f4")
    assert "not next to P1's network" in refused(g, "P1 delivers ehrlite to k2 from e3")
    assert "takes crizma goods, not silver" in refused(g, "P1 delivers silver to e2 from e3")
    play(g, "P1 delivers crizma to e2 from e3 c3 takes 2")
    assert g.folio(1).goods["crizma"] == 2 and g.folio(1).demand == [("crizma", 2)]


def test_2_13_a_demand_tile_for_2_3_or_4_goods_any_one_the_delivery_qualifies_for():
    g = opening()
    goods(g, "e3", crizma=2)
    goods(g, "e4", crizma=2)
    g.stands[g.map.index("e2")].remove(("crizma", 4))
    _at_the_end(g)
    offered = [x for x in legal(g) if "from e3 e3 e4 e4" in x]
    assert offered == ["P1 delivers crizma to e2 from e3 e3 e4 e4", "P1 delivers crizma to e2 from e3 e3 e4 e4 takes 2",
                       "P1 delivers crizma to e2 from e3 e3 e4 e4 takes 3"]
    assert "no crizma demand tile for 4 goods left" in refused(g, "P1 delivers crizma to e2 from e3 e3 e4 e4 takes 4")
    assert "needs 3 goods delivered at once, not 2" in refused(g, "P1 delivers crizma to e2 from e3 e4 takes 3")
    play(g, "P1 delivers crizma to e2 from e3 e3 e4 e4 takes 2")
    assert g.folio(1).demand == [("crizma", 2)] and sum(g.folio(1).goods.values()) == 4


def test_2_14_the_upgrade_is_mandatory_delivery_or_not():
    for upgrade, check in (("mana", lambda f: (f.mana, f.spent) == (8, 0)),
                           ("spellcars", lambda f: len(f.yard) == 2),
                           ("specialist", lambda f: f.exhausted == set() and f.open_hire == "engineer")):
        g = opening()
        mana(g, 1, 2, 5)
        g.folio(1).exhausted.add("runika-zenanen")
        _at_the_end(g)
        assert g.pending.prompt == "P1 choosing an upgrade" and "passes" not in " ".join(legal(g))
        play(g, f"P1 upgrades {upgrade}")
        if upgrade == "spellcars":
            play(g, "P1 takes metro 1:2", "P1 takes icecar 2:2")
        if upgrade == "specialist":
            play(g, "P1 gains engineer", "P1 hires later")
        assert check(g.folio(1)), upgrade


def test_2_15_the_second_spellcar_of_an_upgrade_comes_from_a_market_dealt_again():
    g = opening()
    g.market = ["metro", "icecar", "mana-surger"]
    _at_the_end(g)
    play(g, "P1 upgrades spellcars", "P1 takes metro 1:2")
    assert g.pending.player == 0
    play(g, *(f"C market {k}" for k in ("deep-one", "worldspanner", "gilt-runner", "car-bomb", "science-car",
                                        "spice-convoy")), "P1 takes deep-one 2:2")
    assert g.folio(1).yard == {(1, 2): "metro", (2, 2): "deep-one"}


def test_2_16_then_the_conductor_goes_back_to_start():
    g = opening()
    _at_the_end(g)
    play(g, "P1 upgrades mana")
    assert g.folio(1).conductor == 0 and g.pending.player == 2


def test_2_17_mana_is_ten_crystals_at_most_spent_or_not():
    g = opening()
    mana(g, 1, 6, 3)
    _at_the_end(g)
    play(g, "P1 upgrades mana")
    assert (g.folio(1).mana, g.folio(1).spent) == (10, 0)
    g2 = opening()
    mana(g2, 1, 10, 0)
    yard(g2, 1, s3_2="mana-surger")
    do(g2, 1, "P1 moves 1", "P1 activates mana-surger", conductor=2)
    assert (g2.folio(1).mana, g2.folio(1).spent) == (9, 1)  # pays 1 (spent, still its own): the gain is lost


def test_2_18_what_finds_no_room_is_lost():
    g = opening()
    f = g.folio(1)
    for c in range(1, 6):
        f.yard[(c, 2)] = "metro"
        f.yard[(c, 3)] = "metro"
        f.yard[(c, 1)] = "metro"
    do(g, 1, "P1 administrates")  # no slot left: the spellcar is not gained
    assert g.pending.player == 2 and len(g.market) == 6
    g2 = opening()
    for key in ("orman-kaspar", "telemyr", "peril"):
        hire(g2, 1, key)
    _at_the_end(g2)
    play(g2, "P1 upgrades specialist")  # every kind held: only the refresh is left
    assert g2.pending.player == 2


def test_2_19_gaining_a_specialist_a_kind_not_held_one_of_its_stack():
    g = opening()
    hire(g, 1, "orman-kaspar")
    _at_the_end(g)
    play(g, "P1 upgrades specialist")
    assert legal(g) == ["P1 gains surveyor", "P1 gains station"]
    assert "a company has one specialist of each kind" in refused(g, "P1 gains engineer")
    play(g, "P1 gains station")
    assert "Leto Fulgore is already in play" in refused(_taken(g, "leto-fulgore"),
                                                         "P1 hires leto-fulgore")
    assert "not a station of this game" in refused(g, "P1 hires orman-kaspar")
    play(g, "P1 hires peril")
    assert g.folio(1).specialists["station"] == "peril" and g.stack_left["station"] == 2


def _taken(g, key: str):
    g2 = g.clone()
    g2.taken.add(key)
    return g2
