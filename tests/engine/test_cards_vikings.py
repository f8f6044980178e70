"""Card tests for Vikings of Valhalla (catalog 2026.2): every card's ability resolves as its text
says, on a real game driven by real decisions (see scenario.py); its deck-level checks are in
test_decks.py. [Viking Raid N]: whenever the card moves to another battlefield, an opponent card
Here (chosen) loses up to N might and the raider gains the might it lost."""

from __future__ import annotations

import yaml
from scenario import (
    CAV,
    NEXT_ROOT,
    SPE,
    catalog_with,
    deploy_round,
    destroyed,
    finish_round,
    kind,
    might,
    new_game,
    play,
    settle,
    side,
    tokens,
)

from engine.bfe.decisions import Kind
from engine.bfe.game import Game

VIK = "Vikings of Valhalla"
CAT = catalog_with("vikings.yaml")


def game(p1: str = VIK, p2: str = SPE, **kw) -> Game:
    return new_game(p1, p2, catalog=CAT, **kw)


def test_karl_raiders_raid_one_when_moved_taking_one_might_from_an_opponent_card_here():
    g = game(first_player=2)
    deploy_round(g, {2: [("Zombie Horde", 2)], 1: [("Karl Raiders", 1), ("Longship", 1)]})
    assert kind(g) == Kind.TARGET_BATTLEFIELD  # the Karl Raiders are the only Viking: where to
    play(g, "P1 choose B2")
    assert side(g, 1, 2) == ["Karl Raiders"]
    assert might(g, "P2:B2Z1") == 3 - 1
    assert might(g, "P1:B2Z1") == 1 + 1 + 1  # raid 1, then the Longship's +1


def test_karl_raiders_choose_which_opponent_card_to_raid():
    g = game(first_player=2)
    deploy_round(g, {2: [("Zombie Horde", 2), ("Soul of the Living", 2)], 1: [("Karl Raiders", 1), ("Longship", 1)]})
    play(g, "P1 choose B2")
    assert kind(g) == Kind.TARGET_CARD  # two opponent cards here: which one is raided
    play(g, "P1 choose P2:B2Z2")
    assert might(g, "P2:B2Z2") == 0 and might(g, "P2:B2Z1") == 3
    assert might(g, "P1:B2Z1") == 1 + 1 + 1


def test_karl_raiders_do_not_raid_when_revealed():
    g = game(first_player=2)
    deploy_round(g, {2: [("Zombie Horde", 1)], 1: [("Karl Raiders", 1)]})
    assert might(g, "P2:B1Z1") == 3 and might(g, "P1:B1Z1") == 1


def test_grey_wolf_applies_one_might_to_each_adjacent_ally_viking():
    g = game()
    deploy_round(g, {1: [("Karl Raiders", 1), ("Huginn", 2), ("Jomsvikings", 2), ("Grey Wolf", 1),
                         ("Karl Raiders", 3)]})
    # Grey Wolf at B1Z2: beside the Karl Raiders (B1Z1), below the Jomsvikings (B2Z2).
    assert might(g, "P1:B1Z1") == 1 + 1
    assert might(g, "P1:B2Z2") == 4 + 1
    assert might(g, "P1:B2Z1") == 1  # Huginn is a Raven, and not adjacent anyway
    assert might(g, "P1:B3Z1") == 1  # revealed after the wolf, not adjacent


def test_huginn_stops_the_next_opponent_instant_here():
    g = game()
    deploy_round(g, {1: [("Huginn", 1)], 2: [("Lich", 1)]})
    assert side(g, 1, 1) == ["Huginn"]  # the Lich's destroy was stopped
    assert g.players[1].stops == [0, 0, 0]


def test_longship_moves_an_ally_viking_and_applies_one_might_to_it():
    g = game()
    deploy_round(g, {1: [("Shield Maiden", 1), ("Huginn", 1), ("Longship", 1)]})
    # Shield Maiden shielded Huginn (the only other ally card there); the Longship moves her.
    play(g, "P1 choose B3")
    assert side(g, 1, 3) == ["Shield Maiden"] and side(g, 1, 1) == ["Huginn", "Longship"]
    assert might(g, "P1:B3Z1") == 2 + 1
    assert might(g, "P1:B1Z1") == 1  # Huginn is no Viking


def test_shield_maiden_shields_an_ally_card_here_from_destruction():
    g = game(first_player=2)
    deploy_round(g, {2: [], 1: [("Karl Raiders", 1), ("Shield Maiden", 1)]})
    assert tokens(g, "P1:B1Z1", "shield") == 1 and tokens(g, "P1:B1Z2", "shield") == 0
    finish_round(g)  # round 2: P1 first
    deploy_round(g, {1: [], 2: [("Lich", 2)]})
    play(g, "P2 choose P1:B1Z1")  # the Lich (3 or less might) tries the shielded Karl Raiders
    assert side(g, 1, 1) == ["Karl Raiders", "Shield Maiden"] and destroyed(g, 1) == []


def test_geri_applies_two_might_to_an_ally_viking_that_moves_next_to_it():
    g = game(first_player=2)
    deploy_round(g, {2: [("Zombie Horde", 2)], 1: [("Geri", 2), ("Karl Raiders", 1), ("Longship", 1)]})
    play(g, "P1 choose B2")  # Karl Raiders -> B2Z2, beside Geri
    # raid 1 (+1), Geri (+2), then the Longship (+1)
    assert might(g, "P1:B2Z2") == 1 + 1 + 2 + 1
    assert might(g, "P1:B2Z1") == 1 and might(g, "P2:B2Z1") == 2


def test_geri_ignores_a_viking_that_moves_elsewhere():
    g = game()
    deploy_round(g, {1: [("Huginn", 2), ("Geri", 2), ("Karl Raiders", 1), ("Longship", 1)]})
    play(g, "P1 choose B3")  # B3Z1 is next to Huginn (B2Z1), not to Geri (B2Z2)
    assert might(g, "P1:B3Z1") == 1 + 1


def test_berserker_may_move_itself_when_revealed_and_raids_two():
    g = game(first_player=2)
    deploy_round(g, {2: [("Zombie Horde", 3)], 1: [("Berserker", 1)]})
    assert kind(g) == Kind.MAY
    play(g, "P1 yes", "P1 choose B3")
    assert side(g, 1, 3) == ["Berserker"] and side(g, 1, 1) == []
    assert might(g, "P2:B3Z1") == 3 - 2 and might(g, "P1:B3Z1") == 1 + 2


def test_berserker_may_stay():
    g = game(first_player=2)
    deploy_round(g, {2: [("Zombie Horde", 1)], 1: [("Berserker", 1)]})
    play(g, "P1 no")
    assert side(g, 1, 1) == ["Berserker"] and might(g, "P1:B1Z1") == 1 and might(g, "P2:B1Z1") == 3


def test_freki_strengthens_vikings_revealed_or_moving_next_to_it():
    g = game()
    deploy_round(g, {1: [("Freki", 2), ("Shield Maiden", 3), ("Karl Raiders", 1), ("Longship", 1)]})
    # Shield Maiden (B3Z1) and Karl Raiders (B1Z1) were revealed next to Freki (B2Z1): +1 each.
    assert kind(g) == Kind.TARGET_CARD  # the Longship: which Viking
    assert might(g, "P1:B3Z1") == 2 + 1
    play(g, "P1 choose P1:B1Z1", "P1 choose B2")
    # Karl Raiders: 1 + 1 (revealed), moved to B2Z2 beside Freki (+1), then the Longship (+1).
    assert side(g, 1, 2) == ["Freki", "Karl Raiders"]
    assert might(g, "P1:B2Z2") == 1 + 1 + 1 + 1


def test_gleipnir_anchors_an_opponent_card_here():
    g = game(VIK, CAV, first_player=2)
    deploy_round(g, {2: [("Horse Archers", 1), ("Cataphracts", 2)], 1: [("Gleipnir", 1)]})
    assert tokens(g, "P2:B1Z1", "anchor") == 1 and tokens(g, "P2:B2Z1", "anchor") == 0


def test_volva_stuns_an_opponent_conditional_card():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1)], 1: [("Volva", 3)]})
    assert tokens(g, "P2:B1Z1", "stun") == 1
    finish_round(g)  # round 2: P1 first
    deploy_round(g, {1: [], 2: [("Soul of the Living", 1), ("Devourer of Souls", 1)]})
    play(g, "P2 yes", "P2 choose P2:B1Z2")
    assert "Soul of the Living" in destroyed(g, 2)
    assert might(g, "P2:B1Z1") == 4  # the stunned Taker of Souls gained nothing


def test_skald_adds_one_essence_next_round_and_the_opponent_subtracts_one():
    g = game()
    deploy_round(g, {1: [("Skald", 1)]})
    settle(g)
    assert g.round == 2 and g.players[0].essence == 3 + 1 and g.players[1].essence == 3 - 1


def test_raiding_party_moves_every_command_phase_raiding_up_to_its_maximum_might():
    g = game(first_player=2)
    deploy_round(g, {2: [("Zombie Horde", 2)], 1: [("Raiding Party", 1)]})
    settle(g)  # round 2: P1 first, the command phase
    assert g.round == 2 and kind(g) == Kind.COMMAND and g.pending.player == 1
    play(g, "P1 move P1:B1Z1 to B2")
    assert might(g, "P2:B2Z1") == 2 and might(g, "P1:B2Z1") == 3 + 1
    deploy_round(g, {1: [], 2: [("Zombie Horde", 3)]})
    settle(g)  # round 3: the affixed Move token lets it move again
    assert g.round == 3 and kind(g) == Kind.COMMAND and g.pending.player == 1
    play(g, "P1 move P1:B2Z1 to B3")
    assert might(g, "P2:B3Z1") == 2 and might(g, "P1:B3Z1") == 5
    deploy_round(g, {})  # round 3's deploy phase: both pass
    settle(g)
    assert g.round == 4 and kind(g) == Kind.COMMAND
    play(g, "P1 move P1:B3Z1 to B2")
    # The opponent card still loses 1, but the Raiding Party stays at its maximum might of 5.
    assert might(g, "P2:B2Z1") == 1 and might(g, "P1:B2Z1") == 5


def test_ivar_the_boneless_destroys_an_opponent_card_here_with_three_or_less_might():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1), ("Chain Wraith", 1), ("Banshee", 2)],
                     1: [("Ivar the Boneless", 1)]})
    assert destroyed(g, 2) == ["Chain Wraith"]  # the Taker has 4 might, the Banshee is elsewhere
    assert side(g, 2, 1) == ["Taker of Souls"] and might(g, "P2:B1Z1") == 4 + 1


def test_fenrir_applies_one_might_to_an_adjacent_viking_at_each_round_end():
    g = game()
    deploy_round(g, {1: [("Karl Raiders", 1), ("Fenrir", 1), ("Karl Raiders", 3)]})
    settle(g)  # the reveals ran on through the end of round 1
    assert g.round == 2
    assert might(g, "P1:B1Z1") == 1 + 1 and might(g, "P1:B3Z1") == 1
    finish_round(g)
    assert g.round == 3 and might(g, "P1:B1Z1") == 1 + 2


def test_ragnar_lothbrok_strengthens_moving_vikings_and_raids_two_when_moved():
    g = game(first_player=2)
    deploy_round(g, {2: [("Zombie Horde", 2)],
                     1: [("Ragnar Lothbrok", 1), ("Karl Raiders", 1), ("Longship", 1), ("Longship", 1)]})
    play(g, "P1 choose P1:B1Z2", "P1 choose B2")  # the first Longship moves the Karl Raiders
    # raid 1 (Zombie Horde 3 -> 2), Ragnar +1, Longship +1
    assert might(g, "P1:B2Z1") == 1 + 1 + 1 + 1 and might(g, "P2:B2Z1") == 2
    play(g, "P1 choose P1:B1Z1", "P1 choose B2")  # the second Longship moves Ragnar himself
    # raid 2 (the Zombie Horde's last 2 might), Longship +1; Ragnar does not strengthen himself
    assert side(g, 1, 2) == ["Karl Raiders", "Ragnar Lothbrok"]
    assert might(g, "P1:B2Z2") == 3 + 2 + 1 and might(g, "P2:B2Z1") == 0
    assert might(g, "P1:B2Z1") == 4


def test_valkyrie_moves_an_ally_viking_and_applies_two_might_to_it():
    g = game(first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 3)], 1: [("Karl Raiders", 1), ("Valkyrie", 1)]})
    play(g, "P1 choose B3")
    assert side(g, 1, 3) == ["Karl Raiders"] and side(g, 1, 1) == ["Valkyrie"]
    assert might(g, "P2:B3Z1") == 0 and might(g, "P1:B3Z1") == 1 + 1 + 2


def test_jomsvikings_give_move_tokens_to_vikings_here_and_raid_two_when_moved():
    g = game(first_player=2)
    deploy_round(g, {2: [("Zombie Horde", 2)],
                     1: [("Karl Raiders", 1), ("Grey Wolf", 1), ("Jomsvikings", 1), ("Longship", 1)]})
    assert tokens(g, "P1:B1Z1", "move") == 1  # Karl Raiders
    assert tokens(g, "P1:B1Z2", "move") == 0  # the Grey Wolf is no Viking
    assert tokens(g, "P1:B1Z3", "move") == 0  # not itself
    play(g, "P1 choose P1:B1Z3", "P1 choose B2")  # the Longship moves the Jomsvikings
    assert might(g, "P2:B2Z1") == 3 - 2 and might(g, "P1:B2Z1") == 4 + 2 + 1
    settle(g)  # round 2: P1 first; the Karl Raiders use their Move token
    assert g.round == 2 and kind(g) == Kind.COMMAND
    play(g, "P1 move P1:B1Z1 to B2")
    assert side(g, 1, 2) == ["Jomsvikings", "Karl Raiders"]
    assert might(g, "P2:B2Z1") == 0 and might(g, "P1:B2Z2") == 1 + 1 + 1  # wolf +1, raid +1


def test_leif_erikson_moves_every_other_ally_viking_here_one_at_a_time():
    g = game(first_player=2)
    deploy_round(g, {2: [("Zombie Horde", 2), ("Soul of the Living", 3)],
                     1: [("Karl Raiders", 1), ("Karl Raiders", 1), ("Huginn", 1), ("Leif Erikson", 1)]})
    play(g, "P1 choose B2", "P1 choose B3")
    assert side(g, 1, 1) == ["Huginn", "Leif Erikson"]  # Huginn is no Viking: it stays
    assert side(g, 1, 2) == ["Karl Raiders"] and side(g, 1, 3) == ["Karl Raiders"]
    assert might(g, "P2:B2Z1") == 2 and might(g, "P2:B3Z1") == 0  # each raided on arrival
    assert might(g, "P1:B2Z1") == 2 and might(g, "P1:B3Z1") == 2
    assert might(g, "P1:B1Z2") == 4


def test_harald_hardrada_raids_three_when_moved():
    g = game(first_player=2)
    deploy_round(g, {2: [("Death Knight", 2)], 1: [("Harald Hardrada", 1), ("Longship", 1)]})
    play(g, "P1 choose B2")
    assert might(g, "P2:B2Z1") == 6 - 3 and might(g, "P1:B2Z1") == 5 + 3 + 1


def test_viking_jarl_has_ten_might_and_raids_two_when_moved():
    assert CAT.cards["Viking Jarl"].cost == 8 and CAT.cards["Viking Jarl"].might == 10
    g = game(first_player=2)
    deploy_round(g, {2: [("Zombie Horde", 2)], 1: [("Viking Jarl", 1), ("Longship", 1)]})
    assert might(g, "P1:B1Z1") == 10
    play(g, "P1 choose B2")
    assert might(g, "P2:B2Z1") == 3 - 2 and might(g, "P1:B2Z1") == 10 + 2 + 1


# ------------------------------------------------------------------ the raid verb and the texts
def test_raid_verb_is_checked_at_load():
    import pytest

    from engine.bfe.catalog import CatalogError, compile_card
    card = {"name": "Test Raider", "type": "Viking", "cost": 1, "might": 1, "ability": "conditional",
            "text": "x", "effects": [{"when": "moved", "do": [{"raid": "two"}]}]}
    with pytest.raises(CatalogError) as e:
        compile_card(card, "Test", "test.yaml", 0)
    assert e.value.field == "effects[0].do[0].raid"
    card["effects"][0]["do"] = [{"raid": {"count": {"side": "ally", "where": "here", "pick": "all"}}}]
    compile_card(card, "Test", "test.yaml", 0)  # any amount will do


def test_every_raid_card_states_its_viking_raid_number_and_meaning():
    raw = yaml.safe_load((NEXT_ROOT / "decks" / "vikings.yaml").read_text(encoding="utf-8"))
    raiders = 0
    for c in raw["cards"]:
        text = " ".join(c["text"].split())
        raids = [a["raid"] for e in c.get("effects", []) for a in e["do"] if "raid" in a]
        if not raids:
            assert "Viking Raid" not in text, c["name"]
            continue
        raiders += 1
        assert all(e["when"] == "moved" for e in c["effects"] if any("raid" in a for a in e["do"]))
        (n,) = set(raids)
        raid_text = (f"[Viking Raid {n}]: whenever this card moves to another battlefield, it raids: an opponent "
                     f"card Here of your choice loses up to {n} might and this card gains the might it lost")
        assert raid_text in text, c["name"]
    assert raiders == 7
