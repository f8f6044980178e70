"""Card tests for Knights of the Round Table (catalog 2026.2): every card's ability resolves as its
text says, on a real game driven by real decisions (see scenario.py); its deck-level checks are in
test_decks.py."""

from __future__ import annotations

from scenario import (
    CAV,
    SPE,
    catalog_with,
    deck_could_hold,
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

KNI = "Knights of the Round Table"
CAT = catalog_with("knights.yaml")


def game(p1: str = KNI, p2: str = SPE, **kw) -> Game:
    return new_game(p1, p2, catalog=CAT, **kw)


def test_squire_applies_one_might_to_each_adjacent_ally_knight():
    g = game()
    deploy_round(g, {1: [("Sir Kay", 1), ("Herald of Camelot", 2), ("Sir Bors", 2), ("Round Table Knight", 3),
                         ("Squire", 1)]})
    # Squire at B1Z2: beside Sir Kay (B1Z1) and below Sir Bors (B2Z2); the Knight on B3Z1 is not adjacent.
    assert might(g, "P1:B1Z1") == 1 + 1
    assert might(g, "P1:B2Z2") == 2 + 1
    assert might(g, "P1:B3Z1") == 2
    assert might(g, "P1:B1Z2") == 1
    assert might(g, "P1:B2Z1") == 1  # the Herald is not a Knight


def test_herald_of_camelot_stops_the_next_opponent_instant_here():
    g = game()
    deploy_round(g, {1: [("Herald of Camelot", 1)], 2: [("Lich", 1)]})
    assert side(g, 1, 1) == ["Herald of Camelot"]  # the Lich's destroy was stopped
    assert g.players[1].stops == [0, 0, 0] and g.players[0].stops == [0, 0, 0]


def test_sir_kay_gains_one_might_for_each_other_ally_knight_here():
    g = game()
    deploy_round(g, {1: [("Sir Bors", 1), ("Herald of Camelot", 1), ("Round Table Knight", 2), ("Sir Kay", 1)]})
    assert might(g, "P1:B1Z3") == 1 + 1  # Sir Bors; the Herald is not a Knight, the other Knight is on B2
    assert might(g, "P1:B1Z1") == 2


def test_lady_of_the_lake_acquires_excalibur_from_the_deck():
    g = game()
    set_hand(g, 1, "Squire")
    assert deck_could_hold(g, 1, "Excalibur")
    deploy_round(g, {1: [("Lady of the Lake", 1)]})
    assert hand(g, 1) == ["Excalibur", "Squire"]
    assert not deck_could_hold(g, 1, "Excalibur")  # its one copy is in the hand
    assert might(g, "P1:B1Z1") == 0


def test_destrier_gives_an_adjacent_knight_a_move_token_and_one_might():
    g = game(first_player=2)
    deploy_round(g, {2: [], 1: [("Sir Bors", 1), ("Sir Kay", 3), ("Destrier", 1)]})
    assert tokens(g, "P1:B1Z1", "move") == 1 and might(g, "P1:B1Z1") == 2 + 1
    assert tokens(g, "P1:B3Z1", "move") == 0 and might(g, "P1:B3Z1") == 1
    settle(g)  # round 2: P1 first, the command phase
    assert g.round == 2 and kind(g) == Kind.COMMAND and g.pending.player == 1
    play(g, "P1 move P1:B1Z1 to B2")
    assert side(g, 1, 2) == ["Sir Bors"] and side(g, 1, 1) == ["Destrier"]
    assert tokens(g, "P1:B2Z1", "move") == 0


def test_excalibur_applies_three_might_to_the_chosen_ally_knight():
    g = game()
    deploy_round(g, {1: [("Sir Bors", 1), ("Sir Kay", 2), ("Excalibur", 3)]})
    assert kind(g) == Kind.TARGET_CARD  # two Knights: which one
    play(g, "P1 choose P1:B2Z1")
    assert might(g, "P1:B2Z1") == 1 + 3
    assert might(g, "P1:B1Z1") == 2 and might(g, "P1:B3Z1") == 0


def test_sir_bors_gains_one_might_for_each_other_ally_knight_here():
    g = game()
    deploy_round(g, {1: [("Sir Kay", 2), ("Round Table Knight", 2), ("Sir Bors", 2), ("Sir Galahad", 1)]})
    assert might(g, "P1:B2Z3") == 2 + 2  # Sir Kay and the Round Table Knight, not Galahad on B1


def test_round_table_knight_grows_with_each_knight_revealed_here():
    g = game()
    deploy_round(g, {1: [("Round Table Knight", 1), ("Round Table Knight", 1), ("Squire", 3),
                         ("Sir Kay", 1), ("Sir Bors", 2)]})
    # 1st: 2, +1 (2nd), +1 (Kay); 2nd: 2 + 1 (the 1st), +1 (Kay); Kay: 1 + 2. The Squire (not a
    # Knight) and Sir Bors (another battlefield) do not count.
    assert [c.might for c in g.board[0][0]] == [4, 4, 3]
    assert might(g, "P1:B2Z1") == 2


def test_sir_bedivere_anchors_an_opponent_card_here():
    g = game(KNI, CAV, first_player=2)
    deploy_round(g, {2: [("Horse Archers", 1), ("Cataphracts", 2)], 1: [("Sir Bedivere", 1)]})
    assert tokens(g, "P2:B1Z1", "anchor") == 1
    assert tokens(g, "P2:B2Z1", "anchor") == 0
    finish_round(g)  # round 2: P1 first
    deploy_round(g, {1: [], 2: [("Flank Attack", 1)]})
    # The anchored Horse Archers cannot move: the Cataphracts are the only card offered (no question).
    assert kind(g) == Kind.TARGET_BATTLEFIELD
    play(g, "P2 choose B3")
    assert side(g, 2, 3) == ["Cataphracts"] and side(g, 2, 1) == ["Horse Archers", "Flank Attack"]


def test_sir_percival_gains_for_knights_here_and_acquires_the_holy_grail():
    g = game()
    set_hand(g, 1, "Squire")
    deploy_round(g, {1: [("Round Table Knight", 1), ("Sir Percival", 1)]})
    assert might(g, "P1:B1Z2") == 2 + 1
    assert might(g, "P1:B1Z1") == 2 + 1  # the Round Table Knight saw a Knight revealed here
    assert hand(g, 1) == ["Squire", "The Holy Grail"]


def test_the_holy_grail_applies_one_might_to_an_adjacent_knight_each_round_end():
    g = game()
    deploy_round(g, {1: [("Sir Bors", 1), ("The Holy Grail", 1), ("Sir Kay", 3)]})
    settle(g)  # the reveals ran on through the end of round 1
    assert g.round == 2
    assert might(g, "P1:B1Z1") == 2 + 1  # end of round 1
    assert might(g, "P1:B1Z2") == 1
    assert might(g, "P1:B3Z1") == 1  # not adjacent
    finish_round(g)
    assert g.round == 3 and might(g, "P1:B1Z1") == 4


def test_guinevere_shields_an_ally_knight_from_destruction():
    g = game(first_player=2)
    deploy_round(g, {2: [], 1: [("Sir Bors", 1), ("Guinevere", 2)]})
    assert tokens(g, "P1:B1Z1", "shield") == 1 and tokens(g, "P1:B2Z1", "shield") == 0
    finish_round(g)  # round 2: P1 first
    deploy_round(g, {1: [], 2: [("Lich", 3)]})
    play(g, "P2 choose P1:B1Z1")  # the Lich tries the shielded Sir Bors (Guinevere has 3 too)
    assert side(g, 1, 1) == ["Sir Bors"] and destroyed(g, 1) == []


def test_sir_galahad_gains_for_knights_here_and_two_more_beside_the_holy_grail():
    g = game()
    deploy_round(g, {1: [("Round Table Knight", 1), ("The Holy Grail", 1), ("Sir Galahad", 1),
                         ("Sir Kay", 2)]})
    # Galahad at B1Z3: one other Knight here (+1), the Grail beside it (+2).
    assert might(g, "P1:B1Z3") == 3 + 1 + 2
    g2 = game()
    deploy_round(g2, {1: [("The Holy Grail", 1), ("Round Table Knight", 2), ("Sir Galahad", 2)]})
    assert might(g2, "P1:B2Z2") == 3 + 1  # the Grail is on B1Z1, not adjacent to B2Z2


def test_morgan_le_fay_stuns_an_opponent_conditional_card():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1)], 1: [("Morgan le Fay", 3)]})
    assert tokens(g, "P2:B1Z1", "stun") == 1
    finish_round(g)  # round 2: P1 first
    deploy_round(g, {1: [], 2: [("Soul of the Living", 1), ("Devourer of Souls", 1)]})
    play(g, "P2 yes", "P2 choose P2:B1Z2")  # the Devourer destroys the Soul
    assert "Soul of the Living" in destroyed(g, 2)
    assert might(g, "P2:B1Z1") == 4  # the stunned Taker of Souls gained nothing


def test_sir_tristan_gains_one_might_for_each_other_ally_knight_here():
    g = game()
    deploy_round(g, {1: [("Sir Bors", 2), ("Sir Kay", 2), ("Squire", 2), ("Sir Tristan", 2)]})
    assert might(g, "P1:B2Z4") == 4 + 2


def test_merlin_draws_a_card_and_the_opponent_loses_one_essence_next_round():
    g = game()
    set_hand(g, 1, "Squire")
    deploy_round(g, {1: [("Merlin", 1)]})
    assert kind(g) == Kind.CHANCE_DRAW
    play(g, "C draw P1 Sir Lancelot")
    assert hand(g, 1) == ["Sir Lancelot", "Squire"]
    settle(g)
    assert g.round == 2 and g.players[0].essence == 3 and g.players[1].essence == 3 - 1


def test_sir_gawain_destroys_an_opponent_card_here_with_four_or_less_might():
    g = game(first_player=2)
    deploy_round(g, {2: [("Death Knight", 1), ("Taker of Souls", 1), ("Lich", 2)], 1: [("Sir Gawain", 1)]})
    # The Death Knight (6) is too strong, the Lich is elsewhere: the Taker of Souls (4) is destroyed.
    assert destroyed(g, 2) == ["Taker of Souls"]
    assert side(g, 2, 1) == ["Death Knight"] and side(g, 2, 2) == ["Lich"]


def test_uther_pendragon_gains_for_each_knight_here_and_acquires_king_arthur():
    g = game()
    set_hand(g, 1, "Squire")
    deploy_round(g, {1: [("Sir Bors", 2), ("Sir Kay", 2), ("Uther Pendragon", 2)]})
    assert might(g, "P1:B2Z3") == 4 + 2
    assert hand(g, 1) == ["King Arthur", "Squire"]


def test_sir_lancelot_grows_when_revealed_and_whenever_another_knight_is_revealed_here():
    g = game()
    deploy_round(g, {1: [("Sir Kay", 1), ("Sir Lancelot", 1), ("Sir Bors", 1), ("Squire", 1), ("Sir Tristan", 2)]})
    # Lancelot: 5 + 1 (Kay) on reveal, +1 (Bors); the Squire is not a Knight and Tristan is on B2.
    # The Squire (B1Z4) is beside Sir Bors (B1Z3): +1 to Bors.
    assert might(g, "P1:B1Z2") == 5 + 1 + 1
    assert might(g, "P1:B1Z3") == 2 + 2 + 1


def test_the_round_table_applies_one_might_to_each_ally_knight_here():
    g = game()
    deploy_round(g, {1: [("Sir Bors", 1), ("Herald of Camelot", 1), ("Sir Kay", 2), ("The Round Table", 1)]})
    assert might(g, "P1:B1Z1") == 2 + 1
    assert might(g, "P1:B1Z2") == 1  # the Herald is not a Knight
    assert might(g, "P1:B2Z1") == 1  # not here
    assert might(g, "P1:B1Z3") == 4


def test_king_arthur_gains_for_knights_here_and_strengthens_each_knight_revealed_after_him():
    g = game()
    deploy_round(g, {1: [("Sir Bors", 1), ("King Arthur", 1), ("Sir Kay", 1), ("Sir Tristan", 2)]})
    assert might(g, "P1:B1Z1") == 2  # revealed before Arthur
    assert might(g, "P1:B1Z2") == 6 + 1  # one other Knight here when revealed
    assert might(g, "P1:B1Z3") == 1 + 2 + 1  # Kay: Bors and Arthur here, then Arthur's +1
    assert might(g, "P1:B2Z1") == 4  # Tristan is on another battlefield
