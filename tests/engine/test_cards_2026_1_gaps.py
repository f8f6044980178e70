"""Card tests for the 2026.1 cards that had no test in test_cards.py or test_rules.py triggering
their ability and checking its effect on the board.

Audit (catalog 2026.1): every Cavalry and Vampires card is exercised in test_cards.py. Of the
Spectres, Bone Warden, Ossuary Knight, Death Knight and Bone Colossus were never played in either
file; Lich appeared only where its destroy was blocked (a Shield token, a Stop token) and Devourer
of Souls only with its destroy checked, not its 3 might. Their tests are below; the last test keeps
the audit from going stale."""

from __future__ import annotations

from pathlib import Path

from scenario import CAV, SPE, at, deploy_round, kind, might, new_game, play, raw_deck, settle, side

from engine.bfe.decisions import Kind


def piles(g, p):
    ps = g.players[p - 1]
    return {"discard": sorted(c.name for c in ps.discard), "destroyed": sorted(c.name for c in ps.destroyed),
            "banished": sorted(c.name for c in ps.banished)}


def test_bone_warden_shields_an_ally_card_from_destruction():
    g = new_game(SPE, SPE, first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 1), ("Bone Warden", 1)], 1: [("Lich", 1)]})
    assert at(g, "P2:B1Z1").tokens.get("shield") == 1  # the only other ally card
    assert at(g, "P2:B1Z2").tokens.get("shield", 0) == 0
    assert kind(g) == Kind.TARGET_CARD  # the Lich: the Soul (1 might) or the Bone Warden (2)
    play(g, "P1 choose P2:B1Z1")
    assert side(g, 2, 1) == ["Soul of the Living", "Bone Warden"]  # the shield held
    assert piles(g, 2)["destroyed"] == []


def test_lich_destroys_an_opponent_card_with_three_or_less_might_anywhere():
    g = new_game(SPE, CAV, first_player=2)
    deploy_round(g, {2: [("Cataphracts", 1), ("Lasso Riders", 2)], 1: [("Lich", 3)]})
    # The Cataphracts (2 might) on another battlefield; the Lasso Riders (4) are too strong.
    assert piles(g, 2)["destroyed"] == ["Cataphracts"]
    assert side(g, 2, 1) == [] and side(g, 2, 2) == ["Lasso Riders"]
    assert might(g, "P1:B3Z1") == 3


def test_devourer_of_souls_destroys_another_ally_and_gains_three_might():
    g = new_game(SPE, CAV)
    deploy_round(g, {1: [("Soul of the Living", 1), ("Devourer of Souls", 1)]})
    assert kind(g) == Kind.MAY
    play(g, "P1 yes")  # the Soul is the only other ally card
    assert piles(g, 1)["destroyed"] == ["Soul of the Living"]
    assert side(g, 1, 1) == ["Devourer of Souls"] and might(g, "P1:B1Z1") == 3 + 3
    settle(g)
    assert g.round == 2 and g.players[0].essence == 3 + 1  # the Soul of the Living's own ability


def test_devourer_of_souls_may_decline():
    g = new_game(SPE, CAV)
    deploy_round(g, {1: [("Soul of the Living", 1), ("Devourer of Souls", 1)]})
    play(g, "P1 no")
    assert side(g, 1, 1) == ["Soul of the Living", "Devourer of Souls"] and might(g, "P1:B1Z2") == 3


def test_ossuary_knight_gains_one_might_for_each_card_in_the_destroy_pile():
    g = new_game(SPE, CAV)
    deploy_round(g, {1: [("Soul of the Living", 1), ("Soul of the Living", 1), ("Zombie Horde", 1),
                         ("Eater of Souls", 1), ("Ossuary Knight", 2)]})
    # The Eater destroyed the two Souls and the Zombie Horde (which went back to the hand, so it
    # is not in the destroy pile): 2 cards.
    assert piles(g, 1)["destroyed"] == ["Soul of the Living", "Soul of the Living"]
    assert might(g, "P1:B2Z1") == 4 + 2


def test_ossuary_knight_gains_at_most_five():
    g = new_game(SPE, CAV)
    deploy_round(g, {1: [("Soul of the Living", 1), ("Soul of the Living", 1), ("Soul of the Living", 1),
                         ("Eater of Souls", 1),
                         ("Soul of the Living", 3), ("Soul of the Powerful", 3), ("Soul of the Powerful", 3),
                         ("Eater of Souls", 3), ("Ossuary Knight", 2)]})
    assert len(piles(g, 1)["destroyed"]) == 6
    assert might(g, "P1:B2Z1") == 4 + 5


def test_death_knight_destroys_an_opponent_card_here():
    g = new_game(SPE, CAV, first_player=2)
    deploy_round(g, {2: [("Lasso Riders", 1), ("Cataphracts", 2)], 1: [("Death Knight", 1)]})
    # Any might: the Lasso Riders (4) are the only opponent card Here.
    assert piles(g, 2)["destroyed"] == ["Lasso Riders"]
    assert side(g, 2, 1) == [] and side(g, 2, 2) == ["Cataphracts"]
    assert might(g, "P1:B1Z1") == 6


def test_bone_colossus_gains_for_the_destroy_pile_and_whenever_another_ally_is_destroyed():
    g = new_game(SPE, CAV)
    deploy_round(g, {1: [("Soul of the Living", 1), ("Soul of the Living", 1), ("Eater of Souls", 1),
                         ("Bone Colossus", 2), ("Devourer of Souls", 3)]})
    assert might(g, "P1:B2Z1") == 5 + 2  # revealed: two cards in the destroy pile
    play(g, "P1 yes")
    assert kind(g) == Kind.TARGET_CARD  # the Eater or the Colossus
    play(g, "P1 choose P1:B1Z1")
    assert piles(g, 1)["destroyed"] == ["Eater of Souls", "Soul of the Living", "Soul of the Living"]
    assert might(g, "P1:B2Z1") == 5 + 2 + 1  # another ally destroyed
    assert might(g, "P1:B3Z1") == 3 + 3


# ============================================================================ the audit
def test_every_2026_1_card_has_a_test_in_test_cards_test_rules_or_here():
    here = Path(__file__).parent
    src = "".join((here / f).read_text(encoding="utf-8")
                  for f in ("test_cards.py", "test_rules.py", "test_cards_2026_1_gaps.py"))
    for file in ("spectres.yaml", "cavalry.yaml", "vampires.yaml"):
        for c in raw_deck(file)["cards"]:
            assert f'"{c["name"]}"' in src, f"{c['name']} is not used by any card or rule test"
