"""Card tests for Zulus of the Mfecane (catalog 2026.2): every card's ability resolves as its text
says, on a real game driven by real decisions (see scenario.py); its deck-level checks are in
test_decks.py. Intanga: cards of the same cost (and so of the same name) next to each other gain
might; adjacent means one zone left or right, or the same zone on the battlefield above or below."""

from __future__ import annotations

from scenario import (
    CAV,
    SPE,
    at,
    catalog_with,
    deploy_round,
    destroyed,
    finish_round,
    hand,
    kind,
    might,
    new_game,
    play,
    set_hand,
    settle,
    side,
    tokens,
)

from engine.bfe.decisions import Kind
from engine.bfe.game import Game

ZUL = "Zulus of the Mfecane"
CAT = catalog_with("zulus.yaml")


def game(p1: str = ZUL, p2: str = SPE, **kw) -> Game:
    return new_game(p1, p2, catalog=CAT, **kw)


def test_udibi_boys_gain_might_beside_ally_cards_of_the_same_cost():
    g = game()
    deploy_round(g, {1: [("Udibi Boys", 1), ("Inhloli Scout", 1), ("Udibi Boys", 2), ("Isihlangu Bearers", 2)]})
    # 1st Udibi (B1Z1): +1 when the Scout (cost 1) is revealed beside it, +1 when the 2nd Udibi is
    # revealed below it (B2Z1). 2nd Udibi: +1 for the 1st on reveal; the Bearers (cost 2) beside it
    # do not count.
    assert might(g, "P1:B1Z1") == 2 + 1 + 1
    assert might(g, "P1:B2Z1") == 2 + 1
    assert might(g, "P1:B1Z2") == 1 and might(g, "P1:B2Z2") == 2


def test_isigijimi_acquires_a_regiment_and_gains_beside_the_other_messenger():
    g = game()
    set_hand(g, 1, "Inhloli Scout")
    deploy_round(g, {1: [("isiGijimi", 1), ("isiGijimi", 1)]})
    assert kind(g) == Kind.ACQUIRE
    play(g, "P1 choose Isifuba Chest", "P1 choose uMcijo")
    assert hand(g, 1) == ["Inhloli Scout", "Isifuba Chest", "uMcijo"]
    assert might(g, "P1:B1Z1") == 2  # an instant: nothing more after its reveal
    assert might(g, "P1:B1Z2") == 2 + 1  # the other isiGijimi beside it


def test_inhloli_scout_stops_the_next_opponent_instant_here():
    g = game()
    deploy_round(g, {1: [("Inhloli Scout", 1)], 2: [("Lich", 1)]})
    assert side(g, 1, 1) == ["Inhloli Scout"]
    assert g.players[1].stops == [0, 0, 0]


def test_izimpondo_horns_gain_two_flanking_the_isifuba_chest():
    g = game()
    deploy_round(g, {1: [("Isifuba Chest", 2), ("Izimpondo Horns", 1), ("Izimpondo Horns", 3)]})
    # Both horns in zone 1 of B1 and B3, the chest in zone 1 of B2 between them.
    assert might(g, "P1:B1Z1") == 2 + 2 and might(g, "P1:B3Z1") == 2 + 2
    assert might(g, "P1:B2Z1") == 4 + 1 + 1  # the chest gained for each horn revealed beside it


def test_izimpondo_horns_intanga_beside_another_two_cost_card():
    g = game()
    deploy_round(g, {1: [("Izimpondo Horns", 1), ("Izimpondo Horns", 1), ("Isifuba Chest", 3)]})
    assert might(g, "P1:B1Z2") == 2 + 1  # the other Horns beside it; no chest adjacent
    assert might(g, "P1:B1Z1") == 2  # an instant: it does not gain later


def test_isifuba_chest_gains_for_each_adjacent_horn():
    g = game()
    deploy_round(g, {1: [("Izimpondo Horns", 1), ("Izimpondo Horns", 1), ("Isifuba Chest", 2)]})
    # Chest at B2Z1: below the first Horns (B1Z1); the second Horns (B1Z2) is not adjacent.
    assert might(g, "P1:B2Z1") == 4 + 1


def test_isihlangu_bearers_shield_an_ally_card_here_from_destruction():
    g = game(first_player=2)
    deploy_round(g, {2: [], 1: [("Udibi Boys", 1), ("Isihlangu Bearers", 1)]})
    assert tokens(g, "P1:B1Z1", "shield") == 1 and tokens(g, "P1:B1Z2", "shield") == 0
    finish_round(g)  # round 2: P1 first
    deploy_round(g, {1: [], 2: [("Lich", 2)]})
    play(g, "P2 choose P1:B1Z1")
    assert side(g, 1, 1) == ["Udibi Boys", "Isihlangu Bearers"] and destroyed(g, 1) == []


def test_iklwa_warriors_gain_when_a_same_cost_ally_is_revealed_beside_them():
    g = game()
    deploy_round(g, {1: [("Iklwa Warriors", 1), ("Izimpondo Horns", 1), ("Udibi Boys", 2)]})
    assert might(g, "P1:B1Z1") == 2 + 1  # the Horns (cost 2) revealed beside them; not the Udibi (cost 1)
    assert might(g, "P1:B1Z2") == 2 + 1


def test_ukhandempemvu_gains_one_for_the_same_cost_and_one_more_for_the_same_name():
    g = game()
    deploy_round(g, {1: [("uKhandempemvu", 1), ("Sangoma", 1), ("uKhandempemvu", 2)]})
    # 2nd (B2Z1): the 1st beside it is the same cost (+1) and the same name (+1).
    assert might(g, "P1:B2Z1") == 3 + 1 + 1
    # 1st (B1Z1): +1 for the Sangoma (cost 3) revealed beside it, +1 for the 2nd below it.
    assert might(g, "P1:B1Z1") == 3 + 1 + 1
    assert might(g, "P1:B1Z2") == 3


def test_iwisa_throwers_anchor_an_opponent_card_here():
    g = game(ZUL, CAV, first_player=2)
    deploy_round(g, {2: [("Horse Archers", 1), ("Cataphracts", 2)], 1: [("Iwisa Throwers", 1)]})
    assert tokens(g, "P2:B1Z1", "anchor") == 1 and tokens(g, "P2:B2Z1", "anchor") == 0


def test_sangoma_stuns_an_opponent_conditional_card():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1)], 1: [("Sangoma", 3)]})
    assert tokens(g, "P2:B1Z1", "stun") == 1
    finish_round(g)
    deploy_round(g, {1: [], 2: [("Soul of the Living", 1), ("Devourer of Souls", 1)]})
    play(g, "P2 yes", "P2 choose P2:B1Z2")
    assert "Soul of the Living" in destroyed(g, 2)
    assert might(g, "P2:B1Z1") == 4


def test_ingobamakhosi_gains_when_a_same_cost_ally_is_revealed_beside_it():
    g = game()
    deploy_round(g, {1: [("iNgobamakhosi", 1), ("Isifuba Chest", 2)]})
    assert might(g, "P1:B1Z1") == 3 + 1 and might(g, "P1:B2Z1") == 4


def test_induna_applies_one_might_to_each_ally_regiment_here():
    g = game()
    deploy_round(g, {1: [("Izimpondo Horns", 1), ("uKhandempemvu", 1), ("Iklwa Warriors", 3), ("Induna", 1)]})
    assert might(g, "P1:B1Z1") == 2 + 1 and might(g, "P1:B1Z2") == 3 + 1
    assert might(g, "P1:B3Z1") == 2  # Warriors, and not here
    assert might(g, "P1:B1Z3") == 3


def test_umuva_loins_deploy_a_cheap_card_from_hand_here_revealed_at_once():
    g = game()
    set_hand(g, 1, "Udibi Boys", "Iklwa Warriors", "Sangoma")
    deploy_round(g, {1: [("Umuva Loins", 1)]})
    assert kind(g) == Kind.CHOOSE_CARD  # Udibi Boys or Iklwa Warriors (Sangoma costs 3)
    play(g, "P1 choose Iklwa Warriors")
    card = at(g, "P1:B1Z2")
    assert card.name == "Iklwa Warriors" and card.face_up and card.might == 2
    assert hand(g, 1) == ["Sangoma", "Udibi Boys"]


def test_mzilikazi_destroys_an_opponent_card_here_with_three_or_less_might():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1), ("Chain Wraith", 1), ("Banshee", 2)], 1: [("Mzilikazi", 1)]})
    assert destroyed(g, 2) == ["Chain Wraith"]
    assert side(g, 2, 1) == ["Taker of Souls"] and side(g, 2, 2) == ["Banshee"]


def test_umcijo_gains_for_each_same_cost_ally_revealed_beside_it():
    g = game()
    set_hand(g, 1, "Sangoma")
    deploy_round(g, {1: [("uMcijo", 1), ("Mzilikazi", 1), ("Umuva Loins", 2)]})
    # Mzilikazi (cost 5) beside it, Umuva Loins (cost 5) below it: +1 each.
    assert might(g, "P1:B1Z1") == 4 + 1 + 1
    assert side(g, 1, 2) == ["Umuva Loins"]  # nothing of cost 2 or less in hand to deploy


def test_nandi_draws_adds_essence_and_makes_the_opponent_discard():
    g = game()
    set_hand(g, 1, "Udibi Boys")
    set_hand(g, 2, "Lich", "Banshee")
    deploy_round(g, {1: [("Nandi", 1)]})
    assert kind(g) == Kind.CHANCE_DRAW
    play(g, "C draw P1 Shaka Zulu")
    assert kind(g) == Kind.DISCARD and g.pending.player == 2
    play(g, "P2 choose Lich")
    assert hand(g, 1) == ["Shaka Zulu", "Udibi Boys"] and hand(g, 2) == ["Banshee"]
    assert sorted(c.name for c in g.players[1].discard) == ["Lich"]
    settle(g)
    assert g.round == 2 and g.players[0].essence == 3 + 1 and g.players[1].essence == 3


def test_cetshwayo_gains_beside_another_six_cost_card():
    g = game()
    set_hand(g, 1, "Udibi Boys")
    set_hand(g, 2, "Lich")
    deploy_round(g, {1: [("Nandi", 2), ("Cetshwayo", 1)]})
    play(g, "C draw P1 Shaka Zulu")
    if kind(g) == Kind.DISCARD:
        play(g, "P2 choose Lich")
    assert might(g, "P1:B1Z1") == 5 + 1  # Nandi (cost 6) below it


def test_bull_horn_formation_strengthens_regiments_here_and_beside_it():
    g = game()
    deploy_round(g, {1: [("Izimpondo Horns", 2), ("uMcijo", 2), ("Udibi Boys", 1), ("Sangoma", 1),
                         ("Isifuba Chest", 1), ("Udibi Boys", 3), ("Inhloli Scout", 3), ("Iklwa Warriors", 3),
                         ("Bull-Horn Formation", 2)]})
    # Formation at B2Z3. Horns (B2Z1): here +1. uMcijo (B2Z2): here +1 and beside +1. Chest (B1Z3):
    # beside +1. Iklwa Warriors (B3Z3): beside, but not a Regiment.
    assert might(g, "P1:B2Z1") == 2 + 1
    assert might(g, "P1:B2Z2") == 4 + 1 + 1
    assert might(g, "P1:B1Z3") == 4 + 1
    assert might(g, "P1:B3Z3") == 2
    assert might(g, "P1:B2Z3") == 5


def test_dingane_gains_one_might_for_each_ally_regiment_here():
    g = game()
    deploy_round(g, {1: [("Izimpondo Horns", 1), ("Iklwa Warriors", 1), ("uKhandempemvu", 1),
                         ("iNgobamakhosi", 2), ("Dingane", 1)]})
    assert might(g, "P1:B1Z4") == 6 + 2


def test_shaka_zulu_gains_one_might_for_each_ally_regiment_at_most_five():
    g = game()
    deploy_round(g, {1: [("Izimpondo Horns", 1), ("Izimpondo Horns", 2), ("uKhandempemvu", 3),
                         ("uKhandempemvu", 3), ("Isifuba Chest", 1), ("Shaka Zulu", 2)]})
    assert might(g, "P1:B2Z2") == 6 + 5  # five Regiments on the board
    g2 = game()
    deploy_round(g2, {1: [("Izimpondo Horns", 1), ("Izimpondo Horns", 2), ("uKhandempemvu", 3),
                          ("Isifuba Chest", 1), ("iNgobamakhosi", 3), ("uMcijo", 2), ("Shaka Zulu", 2)]})
    assert might(g2, "P1:B2Z3") == 6 + 5  # six Regiments: at most 5


def test_same_name_and_same_cost_selector_keys_are_checked_at_load():
    import pytest

    from engine.bfe.catalog import CatalogError, compile_card
    card = {"name": "Test Regiment", "type": "Regiment", "cost": 1, "might": 1, "ability": "instant",
            "text": "x", "effects": [{"when": "reveal", "do": [
                {"gain": {"count": {"side": "ally", "where": "adjacent", "same_cost": "yes", "pick": "all"}}}]}]}
    with pytest.raises(CatalogError) as e:
        compile_card(card, "Test", "test.yaml", 0)
    assert e.value.field == "effects[0].do[0].gain.count.same_cost"
    card["effects"][0]["do"][0]["gain"]["count"] = {"same_cost": True, "taget": "x"}
    with pytest.raises(CatalogError) as e:
        compile_card(card, "Test", "test.yaml", 0)
    assert "taget" in e.value.message


def test_same_cost_finds_nothing_for_a_battlefield_effect():
    from engine.bfe.catalog import compile_battlefield
    from engine.bfe.game import Ctx
    bf = compile_battlefield({"name": "Test Field", "text": ["a", "b"], "effects": [
        {"when": "reveal", "if": {"count": {"of": {"side": "ally", "same_cost": True}, "gte": 1}},
         "do": [{"essence": {"add": 1}}]}]}, "test.yaml", 0)
    g = game()
    deploy_round(g, {1: [("Udibi Boys", 1), ("Udibi Boys", 1)]})
    eff = bf.effects["reveal"][0]
    assert not eff.applies(g, Ctx(1, None, 0, at(g, "P1:B1Z1"), from_bf=True))
    assert eff.applies(g, Ctx(1, at(g, "P1:B1Z1"), 0, None)) is True  # with a card: the other Udibi
