"""Card tests for Samurai of the Sengoku (catalog 2026.2): every card's ability resolves as its text
says, on a real game driven by real decisions (scenario.py's helpers; recorded chance); its
deck-level checks are in test_decks.py."""

from __future__ import annotations

from scenario import (
    SPE,
    VAM,
    Events,
    at,
    catalog_with,
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

G = catalog_with("samurai.yaml")
SAM = "Samurai of the Sengoku"


def game(opp: str = SPE, **kw) -> Game:
    return new_game(SAM, opp, catalog=G, **kw)


# ============================================================================ 1-cost
def test_ashigaru_deploys_itself_for_free_from_the_discard_pile_when_discarded():
    g = game()
    set_hand(g, 1, "Ashigaru")
    deploy_round(g, {1: [("Ronin", 1)]}, essence={1: 2})
    # Ronin discards the only card in hand (no question); the Ashigaru may deploy itself.
    assert kind(g) == Kind.MAY
    play(g, "P1 yes", "P1 choose B2")
    assert side(g, 1, 2) == ["Ashigaru"]
    ash = at(g, "P1:B2Z1")
    assert ash.face_up and ash.might == 2  # revealed at once, with its reveal might
    assert piles(g, 1)["discard"] == []
    assert might(g, "P1:B1Z1") == 2 + 2


def test_ashigaru_may_stay_in_the_discard_pile():
    g = game()
    set_hand(g, 1, "Ashigaru")
    deploy_round(g, {1: [("Ronin", 1)]})
    play(g, "P1 no")
    assert piles(g, 1)["discard"] == ["Ashigaru"]
    assert side(g, 1, 2) == [] and side(g, 1, 3) == []


def test_itako_stops_the_next_opponent_instant_on_the_chosen_battlefield():
    g = game()
    ev = Events(g)
    deploy_round(g, {1: [("Itako", 1)], 2: [("Wailing Wisp", 3)]})
    assert kind(g) == Kind.TARGET_BATTLEFIELD
    play(g, "P1 choose B3")
    assert ev.of("stopped") == [("stopped", "Wailing Wisp")]
    assert g.players[0].stops == [0, 0, 0] and g.players[1].stops == [0, 0, 0]


# ============================================================================ 2-cost
def test_sohei_gains_one_might_for_each_card_you_discard():
    g = game()
    set_hand(g, 1, "Kagemusha", "Yamabushi", "Itako")
    deploy_round(g, {1: [("Sohei", 1), ("Ronin", 2), ("Kensei", 3)]})
    play(g, "P1 choose Kagemusha")  # Ronin's discard
    assert might(g, "P1:B1Z1") == 2 + 1
    play(g, "P1 yes", "P1 choose Yamabushi", "P1 yes")  # Kensei discards twice (Itako is the last)
    assert might(g, "P1:B1Z1") == 2 + 3
    assert piles(g, 1)["discard"] == ["Itako", "Kagemusha", "Yamabushi"]


def test_sohei_maximum_might_is_six():
    assert G.cards["Sohei"].max_might == 6
    g = game()
    set_hand(g, 1, "Kagemusha", "Yamabushi", "Itako", "Daimyo", "Shogun")
    deploy_round(g, {1: [("Sohei", 1), ("Ronin", 1), ("Kensei", 2), ("Ninja", 2), ("Tea Master", 3),
                         ("Oni", 3)]})
    play(g, "P1 choose Kagemusha")                                         # Ronin: 1 discard
    play(g, "P1 yes", "P1 choose Yamabushi", "P1 yes", "P1 choose Itako")  # Kensei: 2
    assert might(g, "P1:B1Z1") == 2 + 3
    play(g, "P1 yes", "P1 choose Daimyo")                                  # Ninja: 1
    assert might(g, "P1:B1Z1") == 2 + 4
    play(g, "C draw P1 Sohei", "P1 choose Sohei")                          # Tea Master: 1
    assert len(g.players[0].discard) == 5
    assert might(g, "P1:B1Z1") == 6  # 2 + 5 discards, capped at 6


def test_ronin_discards_a_card_and_gains_two_might():
    g = game()
    set_hand(g, 1, "Kagemusha")
    deploy_round(g, {1: [("Ronin", 1)]})
    assert might(g, "P1:B1Z1") == 2 + 2
    assert piles(g, 1)["discard"] == ["Kagemusha"] and hand(g, 1) == []


def test_ronin_with_an_empty_hand_gains_nothing():
    g = game()
    set_hand(g, 1)
    deploy_round(g, {1: [("Ronin", 1)]})
    assert might(g, "P1:B1Z1") == 2
    assert piles(g, 1)["discard"] == []


def test_ikko_ikki_gains_one_might_per_card_in_the_discard_pile():
    g = game()
    set_hand(g, 1, "Kagemusha", "Yamabushi")
    deploy_round(g, {1: [("Kensei", 1), ("Ikko-Ikki", 2)]})
    play(g, "P1 yes", "P1 choose Kagemusha", "P1 yes")  # Yamabushi is the only card left
    assert len(g.players[0].discard) == 2
    assert might(g, "P1:B2Z1") == 2 + 2


def test_ikko_ikki_counts_at_most_four():
    g = game()
    set_hand(g, 1, "Kagemusha", "Yamabushi", "Itako", "Daimyo", "Shogun")
    deploy_round(g, {1: [("Kensei", 1), ("Ronin", 1), ("Ninja", 2), ("Tea Master", 2), ("Ikko-Ikki", 3)]})
    play(g, "P1 yes", "P1 choose Kagemusha", "P1 yes", "P1 choose Yamabushi")  # Kensei: 2
    play(g, "P1 choose Itako")                                                 # Ronin: 1
    play(g, "P1 yes", "P1 choose Daimyo")                                      # Ninja: 1
    play(g, "C draw P1 Sohei", "P1 choose Sohei")                              # Tea Master: 1
    assert len(g.players[0].discard) == 5
    assert might(g, "P1:B3Z1") == 2 + 4  # five in the pile, at most four count


# ============================================================================ 3-cost
def test_onna_musha_shields_an_ally_card_from_destruction():
    g = game(first_player=1)
    set_hand(g, 1)
    deploy_round(g, {1: [("Ronin", 1), ("Onna-musha", 1)], 2: [("Lich", 2)]})
    assert kind(g) == Kind.TARGET_CARD  # the Ronin or the Onna-musha herself
    play(g, "P1 choose P1:B1Z1")
    assert tokens(g, "P1:B1Z1", "shield") == 1 and tokens(g, "P1:B1Z2", "shield") == 0
    play(g, "P2 choose P1:B1Z1")  # the Lich tries to destroy the shielded Ronin
    assert side(g, 1, 1) == ["Ronin", "Onna-musha"] and piles(g, 1)["destroyed"] == []


def test_onna_musha_may_shield_herself():
    g = game()
    deploy_round(g, {1: [("Onna-musha", 2)]})
    assert tokens(g, "P1:B2Z1", "shield") == 1


def test_yamabushi_stuns_an_opponent_conditional_card():
    g = game(first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1)], 1: [("Yamabushi", 2)]})
    assert tokens(g, "P2:B1Z1", "stun") == 1
    finish_round(g)  # round 2, P1 first
    deploy_round(g, {1: [], 2: [("Soul of the Living", 1), ("Devourer of Souls", 1)]})
    play(g, "P2 yes", "P2 choose P2:B1Z2")  # the Devourer destroys the Soul
    assert piles(g, 2)["destroyed"] == ["Soul of the Living"]
    assert might(g, "P2:B1Z1") == 4  # the stunned Taker of Souls did not gain


def test_kusarigama_fighter_anchors_an_opponent_card_here():
    g = game(opp="Cavalry of the Parthian Empire", first_player=2)
    deploy_round(g, {2: [("Horse Archers", 1), ("Cataphracts", 2)], 1: [("Kusarigama Fighter", 1)]})
    assert tokens(g, "P2:B1Z1", "anchor") == 1 and tokens(g, "P2:B2Z1", "anchor") == 0
    assert might(g, "P1:B1Z1") == 3


def test_ashigaru_taisho_gains_for_each_ally_ashigaru_here():
    g = game()
    deploy_round(g, {1: [("Ashigaru", 1), ("Ashigaru", 1), ("Ashigaru", 2), ("Ashigaru Taisho", 1),
                         ("Ashigaru", 1)]})
    # 2 reveal might + 2 Ashigaru already here, +1 for the Ashigaru revealed after it here.
    assert might(g, "P1:B1Z3") == 3 + 2 + 1


def test_ashigaru_taisho_gains_when_a_discarded_ashigaru_deploys_itself_here():
    g = game()
    set_hand(g, 1, "Ashigaru")
    deploy_round(g, {1: [("Ashigaru Taisho", 1), ("Ronin", 2)]})
    play(g, "P1 yes", "P1 choose B1")
    assert side(g, 1, 1) == ["Ashigaru Taisho", "Ashigaru"]
    assert might(g, "P1:B1Z1") == 3 + 1


# ============================================================================ 4-cost
def test_ninja_discards_a_card_to_destroy_an_opponent_card_with_four_or_less_might():
    g = game(first_player=2)
    set_hand(g, 1, "Kagemusha", "Yamabushi")
    deploy_round(g, {2: [("Taker of Souls", 1), ("Death Knight", 2)], 1: [("Ninja", 3)]})
    assert kind(g) == Kind.MAY
    play(g, "P1 yes", "P1 choose Kagemusha")
    # Taker of Souls (4 might) is the only opponent card with 4 or less: no question.
    assert piles(g, 2)["destroyed"] == ["Taker of Souls"]
    assert side(g, 2, 2) == ["Death Knight"]
    assert piles(g, 1)["discard"] == ["Kagemusha"]


def test_ninja_without_a_card_in_hand_destroys_nothing():
    g = game(first_player=2)
    set_hand(g, 1)
    deploy_round(g, {2: [("Taker of Souls", 1)], 1: [("Ninja", 3)]})
    assert kind(g) != Kind.MAY
    assert side(g, 2, 1) == ["Taker of Souls"]


def test_kagemusha_adds_two_essence_next_round_when_discarded():
    g = game()
    set_hand(g, 1, "Kagemusha")
    deploy_round(g, {1: [("Ronin", 1)]})  # the reveals run on into round 2
    assert piles(g, 1)["discard"] == ["Kagemusha"]
    assert g.round == 2 and g.players[0].essence == 3 + 2 and g.players[1].essence == 3


def test_hatamoto_applies_one_might_to_another_ally_here_whenever_you_discard():
    g = game()
    set_hand(g, 1, "Kagemusha")
    deploy_round(g, {1: [("Ikko-Ikki", 1), ("Hatamoto", 1), ("Ronin", 2)]})
    assert might(g, "P1:B1Z1") == 2 + 1  # Ikko-Ikki (the only other ally card here)
    assert might(g, "P1:B1Z2") == 4
    assert might(g, "P1:B2Z1") == 2 + 2  # the Ronin on another battlefield gets nothing


# ============================================================================ 5-cost
def test_oni_may_discard_at_the_end_of_each_round_to_gain_two_might():
    g = game()
    set_hand(g, 1, "Kagemusha", "Yamabushi")
    deploy_round(g, {1: [("Oni", 1)]})
    assert kind(g) == Kind.MAY and g.pending.player == 1  # the end phase
    play(g, "P1 yes", "P1 choose Kagemusha")
    assert might(g, "P1:B1Z1") == 4 + 2
    assert piles(g, 1)["discard"] == ["Kagemusha"]


def test_oni_maximum_might_is_nine():
    assert G.cards["Oni"].max_might == 9
    g = game()
    deploy_round(g, {1: [("Oni", 1)]})
    for i in range(4):  # four end phases, a discard in each: 4 + 8, capped at 9
        while kind(g) != Kind.MAY:
            g.apply(default_answer(g))
        play(g, "P1 yes")
        if kind(g) == Kind.DISCARD:  # discard anything but an Ashigaru (it would ask to deploy)
            g.apply(next(d for d in g.legal_decisions() if d.card != "Ashigaru"))
        assert len(g.players[0].discard) == i + 1
    assert might(g, "P1:B1Z1") == 9


def test_tanegashima_gunners_remove_one_might_from_each_opponent_card_here():
    g = game(first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 1), ("Zombie Horde", 1), ("Soul of the Living", 2)],
                     1: [("Tanegashima Gunners", 1)]})
    assert [c.might for c in g.board[0][1]] == [0, 2]
    assert might(g, "P2:B2Z1") == 1


def test_tea_master_draws_discards_and_shifts_essence():
    g = game()
    set_hand(g, 1)
    deploy_round(g, {1: [("Tea Master", 1)]})
    play(g, "C draw P1 Kagemusha")
    # The drawn Kagemusha was the only card in hand: discarded (+2 essence); Tea Master +1, and
    # the opponent has 1 less (the reveals ran on into round 2).
    assert piles(g, 1)["discard"] == ["Kagemusha"]
    assert g.round == 2 and g.players[0].essence == 3 + 1 + 2 and g.players[1].essence == 3 - 1


# ============================================================================ 6-cost
def test_kensei_discards_up_to_two_cards_for_two_might_each():
    g = game()
    set_hand(g, 1, "Kagemusha", "Yamabushi", "Itako")
    deploy_round(g, {1: [("Kensei", 1)]})
    play(g, "P1 yes", "P1 choose Kagemusha", "P1 yes", "P1 choose Itako")
    assert might(g, "P1:B1Z1") == 5 + 4
    assert hand(g, 1) == ["Yamabushi"]


def test_kensei_may_stop_after_one_discard():
    g = game()
    set_hand(g, 1, "Kagemusha", "Yamabushi")
    deploy_round(g, {1: [("Kensei", 1)]})
    play(g, "P1 yes", "P1 choose Kagemusha", "P1 no")
    assert might(g, "P1:B1Z1") == 5 + 2 and hand(g, 1) == ["Yamabushi"]


def test_shrine_maiden_deploys_a_cheap_card_from_the_discard_pile_here():
    g = game()
    set_hand(g, 1, "Kusarigama Fighter")
    deploy_round(g, {1: [("Ronin", 1), ("Shrine Maiden", 2)]})
    assert side(g, 1, 2) == ["Shrine Maiden", "Kusarigama Fighter"]
    kf = at(g, "P1:B2Z2")
    assert kf.face_up and kf.might == 3
    assert piles(g, 1)["discard"] == []


def test_shrine_maiden_cannot_deploy_a_card_costing_more_than_three():
    g = game()
    set_hand(g, 1, "Oni")
    deploy_round(g, {1: [("Ronin", 1), ("Shrine Maiden", 2)]})
    assert side(g, 1, 2) == ["Shrine Maiden"] and piles(g, 1)["discard"] == ["Oni"]


# ============================================================================ 7-cost
def test_abe_no_seimei_deploys_a_card_of_cost_five_or_less_from_the_discard_pile():
    g = game()
    set_hand(g, 1, "Oni")
    deploy_round(g, {1: [("Ronin", 1), ("Abe no Seimei", 2)]})
    assert kind(g) == Kind.TARGET_BATTLEFIELD
    play(g, "P1 choose B3")
    assert side(g, 1, 3) == ["Oni"] and at(g, "P1:B3Z1").face_up and might(g, "P1:B3Z1") == 4
    assert piles(g, 1)["discard"] == []


def test_daimyo_applies_one_might_to_each_other_ally_card_here():
    g = game()
    set_hand(g, 1)
    deploy_round(g, {1: [("Kusarigama Fighter", 1), ("Ikko-Ikki", 1), ("Ronin", 2), ("Daimyo", 1)]})
    assert [c.might for c in g.board[0][0]] == [3 + 1, 2 + 1, 6]
    assert might(g, "P1:B2Z1") == 2


# ============================================================================ 8-cost
def test_shogun_gains_one_might_per_card_in_the_discard_pile():
    g = game()
    set_hand(g, 1, "Kagemusha", "Yamabushi", "Itako")
    deploy_round(g, {1: [("Kensei", 1), ("Shogun", 2)]})
    play(g, "P1 yes", "P1 choose Kagemusha", "P1 yes", "P1 choose Itako")
    assert might(g, "P1:B2Z1") == 7 + 2


# ============================================================================ against other decks
def test_vampires_make_samurai_discard_and_the_ashigaru_answer():
    """An opponent's discard is still a discard: Baroness of Ash makes the Samurai discard an
    Ashigaru, which deploys itself (its owner decides)."""
    g = game(opp=VAM, first_player=2)
    set_hand(g, 1, "Ashigaru")
    deploy_round(g, {2: [("Baroness of Ash", 1)], 1: []})
    assert kind(g) == Kind.MAY and g.pending.player == 1
    play(g, "P1 yes", "P1 choose B3")
    assert side(g, 1, 3) == ["Ashigaru"] and might(g, "P1:B3Z1") == 2
