"""Card tests for the Azteca & Mexica of Tenochtitlan deck (catalog 2026.2): every card's ability
resolves as its text says, on a real game driven by real decisions (scenario.py's few direct set-up
steps aside); its deck-level checks are in test_decks.py."""

from __future__ import annotations

from scenario import (
    CAV,
    SPE,
    at,
    catalog_with,
    deploy_round,
    finish_round,
    hand,
    kind,
    might,
    new_game,
    piles,
    play,
    set_hand,
    settle,
    side,
    tokens,
)

from engine.bfe.decisions import Kind
from engine.bfe.game import Game

AZC = catalog_with("azteca.yaml")
AZ = "Azteca & Mexica of Tenochtitlan"


def game(opp: str = SPE, **kw) -> Game:
    return new_game(AZ, opp, catalog=AZC, **kw)


# ============================================================================ 1-cost
def test_captive_takes_a_captive_token_when_revealed():
    g = game()
    deploy_round(g, {1: [("Captive", 1), ("Captive", 2)]})
    assert tokens(g, "P1:B1Z1", "captive") == 1 and tokens(g, "P1:B2Z1", "captive") == 1
    assert might(g, "P1:B1Z1") == 1


def test_captive_when_sacrificed_applies_one_might_to_each_other_ally_here():
    g = game()
    deploy_round(g, {1: [("Jaguar Spirit", 1), ("Captive", 1), ("Eagle Spirit", 2), ("Tlamacazqui", 1)]})
    assert kind(g) == Kind.MAY
    play(g, "P1 yes")  # the Captive is the only other ally card with a Captive token
    assert piles(g, 1)["destroyed"] == ["Captive"]
    assert side(g, 1, 1) == ["Jaguar Spirit", "Tlamacazqui"]
    assert might(g, "P1:B1Z1") == 1 + 1  # the Captive's death: +1 to each other ally Here
    assert might(g, "P1:B1Z2") == 3 + 2 + 1  # Tlamacazqui: +2 for its one token, +1 from the Captive
    assert might(g, "P1:B2Z1") == 1  # Eagle Spirit is not Here


def test_eagle_spirit_moves_in_the_command_phase_and_gives_an_ally_there_a_captive_token():
    g = game(first_player=2)  # round 2 has P1 first
    deploy_round(g, {2: [], 1: [("Eagle Spirit", 1), ("Otontin", 2)]})
    assert tokens(g, "P1:B1Z1", "move") == 0  # an affixed token, not a placed one
    settle(g)
    assert g.round == 2 and kind(g) == Kind.COMMAND and g.pending.player == 1
    play(g, "P1 move P1:B1Z1 to B2")
    assert side(g, 1, 2) == ["Otontin", "Eagle Spirit"] and side(g, 1, 1) == []
    assert tokens(g, "P1:B2Z1", "captive") == 1  # the only other ally card there
    assert tokens(g, "P1:B2Z2", "captive") == 0
    play(g, "P1 pass")
    finish_round(g)  # round 3: P2 first; the Eagle may move again (once each command phase)
    deploy_round(g, {2: [], 1: []})
    settle(g)
    assert g.round == 4 and kind(g) == Kind.COMMAND and g.pending.player == 1
    play(g, "P1 move P1:B2Z2 to B3")
    assert side(g, 1, 3) == ["Eagle Spirit"]
    assert tokens(g, "P1:B2Z1", "captive") == 1  # nobody else on B3: no token this time


def test_jaguar_spirit_gives_a_captive_token_to_each_adjacent_ally_warrior_revealed():
    g = game()
    deploy_round(g, {1: [("Jaguar Spirit", 1), ("Tlapilli", 1), ("Eagle Spirit", 2), ("Tlapilli", 3)]})
    assert tokens(g, "P1:B1Z2", "captive") == 1  # a Warrior beside it
    assert tokens(g, "P1:B2Z1", "captive") == 0  # adjacent (same zone, next battlefield) but a Spirit
    assert tokens(g, "P1:B3Z1", "captive") == 0  # a Warrior, but two battlefields away


# ============================================================================ 2-cost
def test_lure_into_the_shallows_anchors_an_opponent_card_here_and_shields_another_ally():
    g = game(CAV, first_player=2)
    deploy_round(g, {2: [("Horse Archers", 1), ("Cataphracts", 2)], 1: [("Captive", 3), ("Lure Into the Shallows", 1)]})
    assert tokens(g, "P2:B1Z1", "anchor") == 1  # the only opponent card Here
    assert tokens(g, "P2:B2Z1", "anchor") == 0
    assert tokens(g, "P1:B3Z1", "shield") == 1  # the only other ally card
    assert tokens(g, "P1:B1Z1", "shield") == 0


def test_nahualli_moves_another_ally_card_and_gives_it_a_captive_token():
    g = game()
    deploy_round(g, {1: [("Otontin", 1), ("Nahualli", 2)]})
    assert kind(g) == Kind.MAY
    play(g, "P1 yes")
    assert kind(g) == Kind.TARGET_BATTLEFIELD  # the Otontin is the only other ally: where to
    play(g, "P1 choose B3")
    assert side(g, 1, 3) == ["Otontin"] and side(g, 1, 1) == []
    assert tokens(g, "P1:B3Z1", "captive") == 1
    assert tokens(g, "P1:B2Z1", "captive") == 0


def test_nahualli_may_decline_the_move():
    g = game()
    deploy_round(g, {1: [("Otontin", 1), ("Nahualli", 2)]})
    play(g, "P1 no")
    assert side(g, 1, 1) == ["Otontin"] and tokens(g, "P1:B1Z1", "captive") == 0


def test_tlapilli_command_swaps_it_for_a_cheap_warrior_from_hand():
    g = game(first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 2)], 1: [("Tlapilli", 2)]})
    settle(g)
    assert g.round == 2 and kind(g) == Kind.COMMAND and g.pending.player == 1
    set_hand(g, 1, "Ocelotl", "Otontin", "Captive")
    play(g, "P1 command P1:B2Z1")
    # No Captive tokens: only a Warrior of cost 3 or less, and the Otontin is the only one; taken
    # without a question (the Ocelotl costs 5, the Captive is no Warrior).
    oto = at(g, "P1:B2Z1")
    assert oto.name == "Otontin" and oto.face_up and oto.might == 3
    assert hand(g, 1) == ["Captive", "Ocelotl", "Tlapilli"]
    assert g.players[0].essence == 3  # round 2's essence untouched: the swap is free


def test_tlapilli_with_two_captive_tokens_swaps_for_a_warrior_of_any_cost():
    g = game(first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 1)], 1: [("Tlapilli", 1), ("Capture!", 1)]})
    assert kind(g) == Kind.TARGET_CARD  # Capture!: 2 Captive tokens on the Tlapilli or on itself
    play(g, "P1 choose P1:B1Z1")
    assert tokens(g, "P1:B1Z1", "captive") == 2
    settle(g)
    set_hand(g, 1, "Ocelotl", "Otontin")
    play(g, "P1 command P1:B1Z1")
    assert kind(g) == Kind.CHOOSE_CARD
    assert sorted(d.card for d in g.legal_decisions()) == ["Ocelotl", "Otontin"]
    play(g, "P1 choose Ocelotl")
    oce = at(g, "P1:B1Z1")
    # The Ocelotl resolves its ability: it destroys the Soul (0 might after Capture!'s -2... it had
    # 1) and takes a Captive token; the Tlapilli goes back to hand without might or tokens.
    assert oce.name == "Ocelotl" and oce.might == 3 and oce.tokens.get("captive") == 1
    assert piles(g, 2)["destroyed"] == ["Soul of the Living"]
    tla = next(c for c in g.players[0].hand if c.name == "Tlapilli")
    assert tla.might == 0 and tla.tokens == {} and not tla.face_up


# ============================================================================ 3-cost
def test_otontin_gains_for_allies_here_with_captive_tokens_and_when_one_is_destroyed():
    g = game()
    deploy_round(g, {1: [("Captive", 1), ("Captive", 1), ("Jaguar Spirit", 1), ("Otontin", 1),
                         ("Tlamacazqui", 1)]})
    # Revealed: +1 for each of the two Captives (the Jaguar Spirit has no token; Otontin itself got
    # one from the Jaguar Spirit beside it, but it does not count itself).
    assert tokens(g, "P1:B1Z4", "captive") == 1
    play(g, "P1 yes")
    assert kind(g) == Kind.TARGET_CARD  # which card to sacrifice: either Captive or the Otontin
    play(g, "P1 choose P1:B1Z1")
    oto = at(g, "P1:B1Z3")
    assert oto.name == "Otontin"
    assert oto.might == 3 + 2 + 1 + 1  # reveal, an ally with a token destroyed, the Captive's death


def test_capture_removes_two_might_here_and_applies_two_captive_tokens_to_an_ally_here():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1), ("Soul of the Living", 2)],
                     1: [("Captive", 1), ("Capture!", 1)]})
    assert might(g, "P2:B1Z1") == 4 - 2 and might(g, "P2:B2Z1") == 1
    assert kind(g) == Kind.TARGET_CARD
    play(g, "P1 choose P1:B1Z1")
    assert tokens(g, "P1:B1Z1", "captive") == 1 + 2
    assert tokens(g, "P1:B1Z2", "captive") == 0


def test_capture_may_put_the_captive_tokens_on_itself():
    g = game()
    deploy_round(g, {1: [("Capture!", 2)]})
    assert tokens(g, "P1:B2Z1", "captive") == 2 and might(g, "P1:B2Z1") == 1


# ============================================================================ 4-cost
def test_ambush_stops_the_next_opponent_instant_here_and_stuns_an_opponent_card_here():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1), ("Bone Colossus", 2)], 1: [("Ambush", 1)]})
    assert tokens(g, "P2:B1Z1", "stun") == 1 and tokens(g, "P2:B2Z1", "stun") == 0
    assert g.players[1].stops == [1, 0, 0]
    finish_round(g)  # round 2: P1 first
    deploy_round(g, {1: [], 2: [("Lich", 1)]})
    assert side(g, 1, 1) == ["Ambush"]  # the Lich's destroy was stopped
    assert g.players[1].stops == [0, 0, 0]


def test_tlamacazqui_sacrifices_an_ally_for_two_might_per_captive_token_at_most_six():
    g = game()
    deploy_round(g, {1: [("Tlapilli", 1), ("Capture!", 1), ("Capture!", 1), ("Tlamacazqui", 1)]})
    play(g, "P1 choose P1:B1Z1", "P1 choose P1:B1Z1")  # both Capture!s on the Tlapilli
    assert tokens(g, "P1:B1Z1", "captive") == 4
    assert kind(g) == Kind.MAY
    play(g, "P1 yes")  # the Tlapilli is the only other ally card with Captive tokens
    assert piles(g, 1)["destroyed"] == ["Tlapilli"]
    assert at(g, "P1:B1Z3").name == "Tlamacazqui" and might(g, "P1:B1Z3") == 3 + 6  # 4 tokens: 8, at most 6
    settle(g)
    assert g.round == 2 and g.players[0].essence == 3 + 1 and g.players[1].essence == 3


def test_tlamacazqui_may_decline_the_sacrifice():
    g = game()
    deploy_round(g, {1: [("Captive", 1), ("Tlamacazqui", 1)]})
    play(g, "P1 no")
    assert side(g, 1, 1) == ["Captive", "Tlamacazqui"] and might(g, "P1:B1Z2") == 3
    settle(g)
    assert g.round == 2 and g.players[0].essence == 3


# ============================================================================ 5-cost
def test_ocelotl_destroys_an_opponent_card_here_with_three_or_less_might_and_takes_a_captive():
    g = game(first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 1), ("Taker of Souls", 1), ("Chain Wraith", 2)],
                     1: [("Ocelotl", 1)]})
    # The Taker (4 might) is too strong; the Chain Wraith is not Here: the Soul is destroyed.
    assert piles(g, 2)["destroyed"] == ["Soul of the Living"]
    assert side(g, 2, 1) == ["Taker of Souls"] and might(g, "P2:B1Z1") == 4 + 1
    assert tokens(g, "P1:B1Z1", "captive") == 1 and might(g, "P1:B1Z1") == 3


def test_cuauhtli_takes_a_captive_and_gains_two_when_an_ally_with_a_captive_token_is_destroyed():
    g = game()
    deploy_round(g, {1: [("Lure Into the Shallows", 1), ("Captive", 1), ("Cuauhtli", 2),
                         ("Tlamacazqui", 1)]})
    assert tokens(g, "P1:B2Z1", "captive") == 1
    play(g, "P1 yes")
    assert kind(g) == Kind.TARGET_CARD  # the Captive or the Cuauhtli (it holds a token too)
    play(g, "P1 choose P1:B1Z2")
    assert piles(g, 1)["destroyed"] == ["Captive"]
    assert might(g, "P1:B2Z1") == 4 + 2


def test_cuauhtli_gains_nothing_when_an_ally_without_captive_tokens_is_destroyed():
    g = game(CAV, first_player=2)
    deploy_round(g, {2: [], 1: [("Lure Into the Shallows", 1), ("Cuauhtli", 2)]})
    finish_round(g)  # round 2: P1 first; the Cavalry shoot the Lure (1 might, no tokens)
    deploy_round(g, {1: [], 2: [("Parthian Shot", 3)]})
    # Parthian Shot: cost 3 or more, 3 or less might: the Lure costs 2, the Cuauhtli has 4 might.
    assert side(g, 1, 1) == ["Lure Into the Shallows"]
    assert might(g, "P1:B2Z1") == 4


def test_peyotl_stops_a_chosen_battlefield_and_stuns_an_opponent_card():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1)], 1: [("Peyotl", 2)]})
    assert kind(g) == Kind.TARGET_BATTLEFIELD
    play(g, "P1 choose B3")
    assert g.players[1].stops == [0, 0, 1]
    assert tokens(g, "P2:B1Z1", "stun") == 1  # the only opponent card: anywhere


# ============================================================================ 6-cost
def test_coatlicue_gives_each_ally_here_a_captive_token_and_gains_two_when_an_ally_is_destroyed():
    g = game()
    deploy_round(g, {1: [("Captive", 1), ("Eagle Spirit", 1), ("Lure Into the Shallows", 2),
                         ("Coatlicue", 1), ("Tlamacazqui", 1)]})
    play(g, "P1 choose P1:B1Z1")  # the Lure's Shield token goes on the Captive
    assert tokens(g, "P1:B1Z1", "captive") == 2 and tokens(g, "P1:B1Z2", "captive") == 1
    assert tokens(g, "P1:B2Z1", "captive") == 0  # not Here
    play(g, "P1 yes")  # the Captive is shielded, so not offered: the Eagle Spirit (1 token) it is
    assert piles(g, 1)["destroyed"] == ["Eagle Spirit"]
    assert side(g, 1, 1) == ["Captive", "Coatlicue", "Tlamacazqui"]  # the zone collapsed
    assert might(g, "P1:B1Z2") == 4 + 2  # Coatlicue
    assert might(g, "P1:B1Z3") == 3 + 2  # Tlamacazqui


def test_xochiquetzal_applies_one_might_to_each_ally_with_a_captive_token_and_adds_essence():
    g = game()
    deploy_round(g, {1: [("Captive", 1), ("Captive", 2), ("Jaguar Spirit", 1), ("Xochiquetzal", 1)]})
    assert might(g, "P1:B1Z1") == 2 and might(g, "P1:B2Z1") == 2
    assert might(g, "P1:B1Z2") == 1  # no Captive token
    assert might(g, "P1:B1Z3") == 4
    settle(g)
    assert g.round == 2 and g.players[0].essence == 3 + 1 and g.players[1].essence == 3


# ============================================================================ 7-cost
def test_tezcatlipoca_makes_the_opponent_discard_and_weakens_each_opponent_card_here():
    g = game(first_player=2)
    set_hand(g, 2, "Lich", "Banshee")
    deploy_round(g, {2: [("Soul of the Living", 1), ("Taker of Souls", 1), ("Chain Wraith", 2)],
                     1: [("Tezcatlipoca", 1)]})
    assert kind(g) == Kind.DISCARD and g.pending.player == 2
    play(g, "P2 choose Lich")
    assert piles(g, 2)["discard"] == ["Lich"] and hand(g, 2) == ["Banshee"]
    assert [c.might for c in g.board[0][1]] == [0, 3]
    assert might(g, "P2:B2Z1") == 2  # not Here
    assert might(g, "P1:B1Z1") == 5


def test_quetzalcoatl_sets_the_captives_free_for_one_might_per_token():
    g = game()
    deploy_round(g, {1: [("Captive", 1), ("Capture!", 1), ("Captive", 2), ("Quetzalcoatl", 3)]})
    play(g, "P1 choose P1:B1Z1")  # Capture!: both tokens on the first Captive (3 then)
    assert might(g, "P1:B3Z1") == 5 + 3 + 1
    assert tokens(g, "P1:B1Z1", "captive") == 0 and tokens(g, "P1:B2Z1", "captive") == 0
    assert might(g, "P1:B1Z1") == 1  # the freed cards keep their might


# ============================================================================ 8-cost
def test_huitzilopochtli_sacrifices_each_ally_here_with_a_captive_token_for_three_might_each():
    g = game()
    deploy_round(g, {1: [("Captive", 1), ("Captive", 1), ("Eagle Spirit", 1), ("Captive", 2),
                         ("Huitzilopochtli", 1)]})
    assert piles(g, 1)["destroyed"] == ["Captive", "Captive"]
    assert side(g, 1, 1) == ["Eagle Spirit", "Huitzilopochtli"]
    assert side(g, 1, 2) == ["Captive"]  # not Here
    # 6 + 3 for each Captive, + 1 for each Captive's death; the Eagle Spirit gets +1 twice.
    assert might(g, "P1:B1Z2") == 6 + 3 + 3 + 1 + 1
    assert might(g, "P1:B1Z1") == 1 + 2
