"""Card tests for Legends of the Parthenon (catalog 2026.2): every card's ability resolves as its
text says, on a real game driven by real decisions (scenario.py's helpers; recorded chance); its
deck-level checks are in test_decks.py."""

from __future__ import annotations

from scenario import (
    CAV,
    SPE,
    Events,
    at,
    catalog_with,
    deck_could_hold,
    default_answer,
    deploy_round,
    finish_round,
    hand,
    kind,
    might,
    new_game,
    piles,
    play,
    set_hand,
    side,
    tokens,
)

from engine.bfe.decisions import Kind
from engine.bfe.game import Game

G = catalog_with("parthenon.yaml")
PAR = "Legends of the Parthenon"


def game(opp: str = SPE, **kw) -> Game:
    return new_game(PAR, opp, catalog=G, **kw)


def to_command(g, p):
    """Play on with defaults until player p is asked in a command phase."""
    while not (kind(g) == Kind.COMMAND and g.pending.player == p):
        g.apply(default_answer(g))


# ============================================================================ 1-cost
def test_pegasus_moves_in_every_command_phase_and_gains_one_might_each_time():
    g = game(first_player=2)
    deploy_round(g, {2: [], 1: [("Pegasus", 1)]})
    assert "move" not in at(g, "P1:B1Z1").tokens  # the affixed token is permanent, not a counter
    to_command(g, 1)  # round 2
    play(g, "P1 move P1:B1Z1 to B2")
    assert side(g, 1, 2) == ["Pegasus"] and might(g, "P1:B2Z1") == 2
    to_command(g, 1)  # round 3: it may move again
    assert g.round == 3
    play(g, "P1 move P1:B2Z1 to B3")
    assert side(g, 1, 3) == ["Pegasus"] and might(g, "P1:B3Z1") == 3
    assert G.cards["Pegasus"].max_might == 4


def test_icarus_gains_two_might_whenever_moved():
    g = game()
    deploy_round(g, {1: [("Icarus", 1), ("Argo", 1)]})
    play(g, "P1 choose B2")  # the Argo moves the Icarus (its only other ally)
    assert side(g, 1, 2) == ["Icarus"] and might(g, "P1:B2Z1") == 1 + 2 + 1
    assert g.round == 2  # 4 might: it survived the end phase


def test_icarus_with_six_might_at_the_end_of_the_round_is_destroyed():
    g = game()
    ev = Events(g)
    deploy_round(g, {1: [("Olympus", 2), ("Hermes", 3), ("Icarus", 1), ("Argo", 1)]})
    icarus = at(g, "P1:B1Z1")
    play(g, "P1 choose P1:B1Z1", "P1 choose B2")  # Argo moves Icarus to Olympus's battlefield:
    # 1, moved +2, Olympus +1, Hermes +1, Argo +1: 6 might; the round's end phase destroyed it.
    assert g.round == 2 and ev.of("destroy") == [("destroy", "Icarus", "Icarus")]
    assert piles(g, 1)["destroyed"] == ["Icarus"] and side(g, 1, 2) == ["Olympus"]
    assert icarus.might == 0


def test_hoplites_gain_one_might_for_each_adjacent_ally_card():
    g = game()
    deploy_round(g, {1: [("Cerberus", 2), ("Minotaur", 2), ("Pegasus", 1), ("Hoplites", 1)]})
    # B1Z2: next to the Pegasus (B1Z1) and, in the same zone one battlefield below, the Minotaur.
    assert might(g, "P1:B1Z2") == 1 + 2
    assert might(g, "P1:B1Z1") == 1


def test_oracle_of_delphi_stops_the_next_opponent_instant_on_the_chosen_battlefield():
    g = game()
    ev = Events(g)
    deploy_round(g, {1: [("Oracle of Delphi", 1)], 2: [("Wailing Wisp", 2)]})
    play(g, "P1 choose B2")
    assert ev.of("stopped") == [("stopped", "Wailing Wisp")]
    assert g.players[0].stops == [0, 0, 0] and g.players[1].stops == [0, 0, 0]


# ============================================================================ 2-cost
def test_daedalus_applies_a_move_token_to_another_ally_card():
    g = game()
    deploy_round(g, {1: [("Cerberus", 1), ("Daedalus", 2)]})
    assert tokens(g, "P1:B1Z1", "move") == 1 and tokens(g, "P1:B2Z1", "move") == 0
    to_command(g, 1)
    play(g, "P1 move P1:B1Z1 to B3")
    assert side(g, 1, 3) == ["Cerberus"] and tokens(g, "P1:B3Z1", "move") == 0


def test_jason_acquires_the_golden_fleece():
    g = game()
    set_hand(g, 1)
    deploy_round(g, {1: [("Jason", 1)]})
    assert "Golden Fleece" in hand(g, 1)
    assert not deck_could_hold(g, 1, "Golden Fleece")


def test_sirens_move_an_opponent_card_here_away_and_gain_one_might():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1), ("Death Knight", 2)], 1: [("Sirens", 1)]})
    assert kind(g) == Kind.TARGET_BATTLEFIELD and g.pending.player == 1
    play(g, "P1 choose B3")
    assert side(g, 2, 1) == [] and side(g, 2, 3) == ["Taker of Souls"] and side(g, 2, 2) == ["Death Knight"]
    assert might(g, "P1:B1Z1") == 1 + 1


def test_centaurs_when_moved_remove_one_might_from_an_opponent_card_there_and_gain_one():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 2)], 1: [("Centaurs", 1), ("Argo", 1)]})
    play(g, "P1 choose B2")  # the Argo moves the Centaurs to B2
    assert might(g, "P2:B2Z1") == 4 - 1
    assert might(g, "P1:B2Z1") == 2 + 1 + 1  # moved, then the Argo's +1


# ============================================================================ 3-cost
def test_golden_fleece_gains_one_might_whenever_an_ally_is_moved_here():
    g = game()
    deploy_round(g, {1: [("Golden Fleece", 2), ("Cerberus", 1), ("Argo", 1)]})
    play(g, "P1 choose P1:B1Z1", "P1 choose B2")
    assert side(g, 1, 2) == ["Golden Fleece", "Cerberus"]
    assert might(g, "P1:B2Z1") == 2 + 1 and might(g, "P1:B2Z2") == 3 + 1


def test_golden_fleece_maximum_might_is_five():
    assert G.cards["Golden Fleece"].max_might == 5
    g = game()
    deploy_round(g, {1: [("Golden Fleece", 2), ("Cerberus", 1), ("Pegasus", 1), ("Hoplites", 1),
                         ("Hoplites", 1), ("Odysseus", 1)]})
    # Odysseus moves the four other cards on B1 one at a time: all to the Golden Fleece's B2.
    play(g, "P1 choose B2", "P1 choose B2", "P1 choose B2", "P1 choose B2")
    assert len(side(g, 1, 2)) == 5
    assert might(g, "P1:B2Z1") == 5  # 2 + 4 moves, capped at 5


def test_golden_fleece_ignores_moves_to_other_battlefields():
    g = game()
    deploy_round(g, {1: [("Golden Fleece", 2), ("Cerberus", 1), ("Argo", 1)]})
    play(g, "P1 choose P1:B1Z1", "P1 choose B3")
    assert might(g, "P1:B2Z1") == 2


def test_perseus_shields_another_ally_and_takes_a_move_token():
    g = game()
    deploy_round(g, {1: [("Cerberus", 1), ("Perseus", 2)]})
    assert tokens(g, "P1:B1Z1", "shield") == 1 and tokens(g, "P1:B2Z1", "shield") == 0
    assert tokens(g, "P1:B2Z1", "move") == 1


def test_cerberus_anchors_an_opponent_card_here():
    g = game(opp=CAV, first_player=2)
    deploy_round(g, {2: [("Cataphracts", 1), ("Cataphracts", 2)], 1: [("Cerberus", 1)]})
    assert tokens(g, "P2:B1Z1", "anchor") == 1 and tokens(g, "P2:B2Z1", "anchor") == 0


def test_argo_moves_another_ally_card_and_applies_one_might_to_it():
    g = game()
    deploy_round(g, {1: [("Cerberus", 1), ("Argo", 1)]})
    play(g, "P1 choose B3")
    assert side(g, 1, 3) == ["Cerberus"] and might(g, "P1:B3Z1") == 3 + 1
    assert side(g, 1, 1) == ["Argo"]


# ============================================================================ 4-cost
def test_hades_deploys_a_card_from_the_destroy_pile_here():
    g = game(first_player=1)
    deploy_round(g, {1: [("Cerberus", 1)], 2: [("Lich", 2)]})  # the Lich destroys the Cerberus
    assert piles(g, 1)["destroyed"] == ["Cerberus"]
    finish_round(g)  # round 2, P2 first
    deploy_round(g, {2: [], 1: [("Hades", 2)]})
    assert side(g, 1, 2) == ["Hades", "Cerberus"] and at(g, "P1:B2Z2").face_up
    assert might(g, "P1:B2Z2") == 3 and piles(g, 1)["destroyed"] == []


def test_helios_may_move_another_ally_card_at_the_end_of_each_round():
    g = game()
    deploy_round(g, {1: [("Helios", 1), ("Cerberus", 1)]})
    assert kind(g) == Kind.MAY and g.pending.player == 1
    play(g, "P1 yes", "P1 choose B3")
    assert side(g, 1, 3) == ["Cerberus"] and side(g, 1, 1) == ["Helios"]


def test_atalanta_gains_one_might_whenever_another_ally_card_is_moved():
    g = game()
    deploy_round(g, {1: [("Atalanta", 1), ("Cerberus", 1), ("Argo", 1)]})
    play(g, "P1 choose P1:B1Z2", "P1 choose B2")
    assert might(g, "P1:B1Z1") == 3 + 1
    assert G.cards["Atalanta"].max_might == 6


# ============================================================================ 5-cost
def test_olympus_applies_two_might_to_each_ally_moved_here():
    g = game()
    deploy_round(g, {1: [("Olympus", 2), ("Cerberus", 1), ("Argo", 1)]})
    play(g, "P1 choose P1:B1Z1", "P1 choose B2")
    assert might(g, "P1:B2Z2") == 3 + 1 + 1


def test_odysseus_gains_for_each_ally_here_then_moves_them_all_away():
    g = game()
    deploy_round(g, {1: [("Cerberus", 1), ("Pegasus", 1), ("Odysseus", 1)]})
    play(g, "P1 choose B2", "P1 choose B3")  # the Cerberus first (lowest zone), then the Pegasus
    assert side(g, 1, 1) == ["Odysseus"] and might(g, "P1:B1Z1") == 2 + 2
    assert side(g, 1, 2) == ["Cerberus"] and side(g, 1, 3) == ["Pegasus"]
    assert might(g, "P1:B3Z1") == 1 + 1


def test_minotaur_removes_one_might_from_each_opponent_card_revealed_here():
    g = game(first_player=1)
    deploy_round(g, {1: [("Minotaur", 1)], 2: [("Taker of Souls", 1), ("Death Knight", 2)]})
    assert might(g, "P2:B1Z1") == 4 - 1 and might(g, "P2:B2Z1") == 6


# ============================================================================ 6-cost
def test_hercules_destroys_an_opponent_card_with_four_or_less_might():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1), ("Death Knight", 2)], 1: [("Hercules", 3)]})
    assert piles(g, 2)["destroyed"] == ["Taker of Souls"] and side(g, 2, 2) == ["Death Knight"]


def test_athena_applies_one_might_to_each_ally_that_gained_might_this_round():
    g = game()
    deploy_round(g, {1: [("Hoplites", 1), ("Hoplites", 1), ("Cerberus", 2), ("Athena", 3)]})
    assert might(g, "P1:B1Z1") == 1 and might(g, "P1:B1Z2") == 2 + 1
    assert might(g, "P1:B2Z1") == 3 and might(g, "P1:B3Z1") == 4


# ============================================================================ 7-cost
def test_medusa_stuns_each_opponent_card_here():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1), ("Bone Colossus", 1), ("Zombie Horde", 2)],
                     1: [("Medusa", 1)]})
    assert tokens(g, "P2:B1Z1", "stun") == 1 and tokens(g, "P2:B1Z2", "stun") == 1
    assert tokens(g, "P2:B2Z1", "stun") == 0


def test_eros_applies_a_move_token_to_each_other_ally_card_here():
    g = game()
    deploy_round(g, {1: [("Cerberus", 3), ("Pegasus", 3), ("Hoplites", 2), ("Eros", 3)]})
    assert tokens(g, "P1:B3Z1", "move") == 1 and tokens(g, "P1:B3Z2", "move") == 1
    assert tokens(g, "P1:B2Z1", "move") == 0  # not Here
    assert tokens(g, "P1:B3Z3", "move") == 0  # not Eros himself


# ============================================================================ 8-cost
def test_hermes_applies_one_might_to_each_ally_moved_and_gains_when_he_moves():
    g = game(first_player=2)
    deploy_round(g, {2: [], 1: [("Hermes", 1), ("Cerberus", 1), ("Argo", 2)]})
    play(g, "P1 choose P1:B1Z2", "P1 choose B3")
    assert might(g, "P1:B3Z1") == 3 + 1 + 1  # Hermes, then the Argo
    to_command(g, 1)  # round 2: Hermes's affixed Move token
    play(g, "P1 move P1:B1Z1 to B2")
    assert side(g, 1, 2) == ["Argo", "Hermes"] and might(g, "P1:B2Z2") == 4 + 1
