"""Card tests: every ability of the Cavalry and Vampires decks resolves as its text says, on a real
game driven by real decisions (see scenario.py for the few direct set-up steps), plus the catalog
coverage check: between the three decks and the battlefields, every keyword and token is used."""

from __future__ import annotations

import re
from pathlib import Path

from scenario import (
    CATALOG,
    CAV,
    QUIET,
    SPE,
    VAM,
    Events,
    at,
    deploy_round,
    finish_round,
    hand,
    kind,
    might,
    new_game,
    play,
    raw_battlefields,
    raw_deck,
    set_hand,
    settle,
    side,
    to_deploy,
)

from engine.bfe.catalog import compile_card
from engine.bfe.decisions import Kind
from engine.bfe.game import Game
from engine.bfe.state import Loc


def tokens(g, where, tok):
    return at(g, where).tokens.get(tok, 0)


def piles(g, p):
    ps = g.players[p - 1]
    return {"discard": sorted(c.name for c in ps.discard), "destroyed": sorted(c.name for c in ps.destroyed),
            "banished": sorted(c.name for c in ps.banished)}


# ============================================================================ Cavalry
def test_flank_attack_rule_book_example_horse_archers_from_b3_to_b1():
    """The printed rule book: Flank Attack is revealed on battlefield 3, the player moves Horse
    Archers from battlefield 3 to 1, Flank Attack collapses from zone 3 to 2."""
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Cataphracts", 3), ("Horse Archers", 3), ("Flank Attack", 3)]})
    assert side(g, 1, 3) == ["Cataphracts", "Horse Archers", "Flank Attack"]
    assert kind(g) == Kind.TARGET_CARD  # move which card: Cataphracts or Horse Archers
    play(g, "P1 choose P1:B3Z2")
    assert kind(g) == Kind.TARGET_BATTLEFIELD
    play(g, "P1 choose B1")
    assert side(g, 1, 1) == ["Horse Archers"]
    assert side(g, 1, 3) == ["Cataphracts", "Flank Attack"]  # Flank Attack collapsed 3 -> 2
    assert at(g, "P1:B3Z2").name == "Flank Attack" and might(g, "P1:B3Z2") == 0
    # Horse Archers: 1 reveal might, +1 on reveal, +1 again when moved, +2 from Flank Attack,
    # capped by its maximum might of 4.
    assert might(g, "P1:B1Z1") == 4
    assert might(g, "P1:B3Z1") == 2


def test_flank_attack_applies_two_might_to_the_moved_card():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Cataphracts", 2), ("Flank Attack", 2)]})
    play(g, "P1 choose B3")  # the only card to move is the Cataphracts; where to
    assert side(g, 1, 3) == ["Cataphracts"] and side(g, 1, 2) == ["Flank Attack"]
    assert might(g, "P1:B3Z1") == 2 + 2


def test_horse_archers_resolve_on_reveal_and_again_whenever_moved():
    g = new_game(CAV, SPE, first_player=2)  # Spectres deploy and reveal first
    deploy_round(g, {2: [("Soul of the Living", 1), ("Soul of the Living", 3)],
                     1: [("Horse Archers", 1), ("Flank Attack", 1)]})
    # Reveal: the opponent Soul here loses 1 (1 -> 0), Horse Archers gain 1 (1 -> 2).
    assert might(g, "P2:B1Z1") == 0 and might(g, "P1:B1Z1") == 2
    play(g, "P1 choose B3")  # Flank Attack moves the Horse Archers (the only ally) to B3
    # Moved: the opponent Soul on B3 loses 1, Horse Archers gain 1 (3), then Flank's +2 is capped.
    assert might(g, "P2:B3Z1") == 0
    assert side(g, 1, 3) == ["Horse Archers"] and might(g, "P1:B3Z1") == 4


def test_horse_archers_maximum_might_caps_ability_gains():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Archers", 1), ("Horse Archers", 1), ("Flank Attack", 1)]})
    assert might(g, "P1:B1Z2") == 3  # 1 + 1 (own) + 1 (Archers)
    play(g, "P1 choose P1:B1Z2", "P1 choose B2")
    # moved +1 -> 4, Flank Attack +2 -> stays 4 (maximum might)
    assert might(g, "P1:B2Z1") == 4
    assert CATALOG.cards["Horse Archers"].max_might == 4


def test_light_infantry_stacks_with_an_ally_cavalry_card_and_the_zone_collapses():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Cataphracts", 1), ("Light Infantry", 1), ("Camel Riders", 1)]})
    assert kind(g) == Kind.MAY
    play(g, "P1 yes")  # the only ally Cavalry here is the Cataphracts: no target question
    assert kind(g) == Kind.STACK_TOP
    play(g, "P1 choose P1:B1Z1")  # the Cataphracts go on top
    top = at(g, "P1:B1Z1")
    assert top.name == "Cataphracts" and top.might == 2 + 2
    assert [c.name for c in top.under] == ["Light Infantry"]
    li = top.under[0]
    assert li.loc == Loc.UNDER and li.might == 0
    assert side(g, 1, 1) == ["Cataphracts", "Camel Riders"]  # Camel Riders collapsed from zone 3


def test_light_infantry_may_decline_the_stack():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Cataphracts", 1), ("Light Infantry", 1)]})
    play(g, "P1 no")
    assert side(g, 1, 1) == ["Cataphracts", "Light Infantry"]
    assert might(g, "P1:B1Z1") == 2 and might(g, "P1:B1Z2") == 2


def test_outrider_stops_the_next_opponent_instant_on_the_chosen_battlefield():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Outrider", 1)], 2: [("Wailing Wisp", 3)]})
    assert kind(g) == Kind.TARGET_BATTLEFIELD
    play(g, "P1 choose B3")
    # Wailing Wisp's instant (a Stop token on P1's side of B3) was stopped; P2's token was used up.
    assert g.players[1].stops == [0, 0, 0]
    assert g.players[0].stops == [0, 0, 0]
    assert side(g, 2, 3) == ["Wailing Wisp"]


def test_camel_riders_give_each_horse_archers_a_move_token_used_in_the_command_phase():
    g = new_game(CAV, SPE, first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 3)],
                     1: [("Horse Archers", 1), ("Horse Archers", 2), ("Cataphracts", 2), ("Camel Riders", 2)]})
    assert tokens(g, "P1:B1Z1", "move") == 1 and tokens(g, "P1:B2Z1", "move") == 1
    assert tokens(g, "P1:B2Z2", "move") == 0  # Cataphracts are not Horse Archers
    settle(g)  # round 2 draft; P1 is first player now
    assert g.round == 2 and kind(g) == Kind.COMMAND and g.pending.player == 1
    play(g, "P1 move P1:B1Z1 to B3")
    # Moved: the opponent Soul on B3 loses its 1 might, the Horse Archers gain 1 (2 -> 3).
    assert side(g, 1, 3) == ["Horse Archers"] and might(g, "P1:B3Z1") == 3
    assert might(g, "P2:B3Z1") == 0
    assert tokens(g, "P1:B3Z1", "move") == 0  # one-time use
    assert kind(g) == Kind.COMMAND  # the other Horse Archers may still move
    play(g, "P1 pass")
    assert side(g, 1, 2)[0] == "Horse Archers"


def test_feigned_retreat_returns_a_cavalry_card_and_adds_essence_next_round():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Horse Archers", 1), ("Feigned Retreat", 2)]})
    assert side(g, 1, 1) == []
    ha = next(c for c in g.players[0].hand if c.name == "Horse Archers")
    assert ha.might == 0 and not ha.face_up
    settle(g)  # the round ended; round 2 began with the added essence
    assert g.round == 2 and g.players[0].essence == 3 + 1 and g.players[1].essence == 3


def test_feigned_retreat_cannot_pick_an_anchored_card():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Horse Archers", 1), ("Cataphracts", 1)], 2: [("Chain Wraith", 1)]})
    play(g, "P2 choose P1:B1Z1")  # Chain Wraith anchors the Horse Archers
    finish_round(g)
    deploy_round(g, {2: [], 1: [("Feigned Retreat", 2)]})
    # Only the Cataphracts could be returned (no question asked).
    assert side(g, 1, 1) == ["Horse Archers"]
    assert "Cataphracts" in hand(g, 1)


def test_cataphracts_are_stronger_grouped_on_one_battlefield():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Cataphracts", 1), ("Cataphracts", 1), ("Cataphracts", 1), ("Cataphracts", 2)]})
    # 1st: 2; 2nd: 2+1 and the 1st +1; 3rd: 2+2 and the others +1 each; the 4th is alone on B2.
    assert [c.might for c in g.board[0][0]] == [4, 4, 4]
    assert might(g, "P1:B2Z1") == 2


def test_parthian_shot_destroys_an_opponent_card_of_cost_3_or_more_with_3_or_less_might():
    g = new_game(CAV, SPE, first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 1), ("Banshee", 1), ("Taker of Souls", 2)],
                     1: [("Parthian Shot", 3)]})
    # Banshee (cost 3, might 2) is the only legal target: Soul of the Living costs 1, Taker has 4.
    assert piles(g, 2)["destroyed"] == ["Banshee"]
    assert side(g, 2, 1) == ["Soul of the Living"]
    assert might(g, "P2:B2Z1") == 4 + 1  # Taker of Souls: another ally was destroyed


def test_archers_apply_one_might_to_each_ally_revealed_here_only():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Archers", 1), ("Cataphracts", 1), ("Cataphracts", 2)]})
    assert might(g, "P1:B1Z2") == 3
    assert might(g, "P1:B2Z1") == 2
    assert might(g, "P1:B1Z1") == 2  # Archers do not buff themselves


def test_archers_are_passive_a_stun_does_not_stop_them():
    g = new_game(CAV, SPE, first_player=2)
    deploy_round(g, {2: [], 1: [("Archers", 1)]})
    finish_round(g)  # round 2: P1 first
    deploy_round(g, {1: [], 2: [("Banshee", 1)]})  # Banshee stuns the Archers (only P1 card)
    assert tokens(g, "P1:B1Z1", "stun") == 1
    finish_round(g)  # round 3: P2 first
    deploy_round(g, {2: [], 1: [("Cataphracts", 1)]})
    assert might(g, "P1:B1Z2") == 3


def test_lasso_riders_anchor_an_opponent_card_so_it_cannot_move():
    g = new_game(CAV, CAV, first_player=2)
    deploy_round(g, {2: [("Horse Archers", 1)], 1: [("Lasso Riders", 2)]})
    assert tokens(g, "P2:B1Z1", "anchor") == 1
    finish_round(g)  # round 2, P1 first
    deploy_round(g, {1: [], 2: [("Flank Attack", 1)]})
    # Flank Attack finds no ally it can move: the anchored Horse Archers stay, nothing gains might.
    assert side(g, 2, 1) == ["Horse Archers", "Flank Attack"]
    assert might(g, "P2:B1Z1") == 2


def test_azatan_nobles_shield_an_ally_here_from_destruction():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Cataphracts", 1), ("Azatan Nobles", 1)], 2: [("Lich", 1)]})
    # Lich: destroy an opponent card with 3 or less might: only the shielded Cataphracts qualify.
    assert tokens(g, "P1:B1Z1", "shield") == 1
    assert side(g, 1, 1) == ["Cataphracts", "Azatan Nobles"]
    assert piles(g, 1)["destroyed"] == []


def test_royal_stables_give_each_ally_cavalry_a_move_token():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Horse Archers", 1), ("Archers", 1), ("Cataphracts", 3), ("Royal Stables", 2)]})
    assert tokens(g, "P1:B1Z1", "move") == 1
    assert tokens(g, "P1:B3Z1", "move") == 1
    assert tokens(g, "P1:B1Z2", "move") == 0  # Archers are Infantry
    assert tokens(g, "P1:B2Z1", "move") == 0  # the Stables themselves


def _taker_stunned_does_not_trigger(g, taker_pos):
    """The opponent (Spectres) destroys one of its own cards; a stunned Taker of Souls gains nothing."""
    assert tokens(g, taker_pos, "stun") == 1
    before = might(g, taker_pos)
    b = int(taker_pos.split("B")[1][0])
    deploy_round(g, {1: [], 2: [("Soul of the Living", b), ("Devourer of Souls", b)]})
    play(g, "P2 yes")
    soul = next(c for c in g.board[b - 1][1] if c.name == "Soul of the Living")
    play(g, f"P2 choose {g.position(soul)}")
    assert "Soul of the Living" in piles(g, 2)["destroyed"]
    assert might(g, taker_pos) == before


def test_clibanarii_stun_an_opponent_conditional_card_here():
    g = new_game(CAV, SPE, first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1)], 1: [("Clibanarii", 1)]})
    finish_round(g)  # round 2: P1 first, then the Spectres
    _taker_stunned_does_not_trigger(g, "P2:B1Z1")


def test_silk_road_caravan_draws_and_shifts_essence():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Silk Road Caravan", 1)]})
    assert g.pending.kind == Kind.CHANCE_DRAW
    play(g, "C draw P1 Spahbed")
    assert "Spahbed" in hand(g, 1)
    settle(g)
    assert g.round == 2 and g.players[0].essence == 3 + 1 and g.players[1].essence == 3 - 1


def test_surena_gains_for_each_ally_here_then_moves_them_all_away():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Horse Archers", 2), ("Cataphracts", 2), ("Surena", 2)]})
    assert might(g, "P1:B2Z3") == 5 + 2
    assert kind(g) == Kind.TARGET_BATTLEFIELD  # first the Horse Archers
    play(g, "P1 choose B1", "P1 choose B3")
    assert side(g, 1, 2) == ["Surena"]
    assert side(g, 1, 1) == ["Horse Archers"] and side(g, 1, 3) == ["Cataphracts"]
    assert might(g, "P1:B1Z1") == 3  # the move re-resolved the Horse Archers' ability


def test_orodes_ii_applies_might_to_each_ally_that_moves():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Orodes II", 1), ("Cataphracts", 2), ("Flank Attack", 2)]})
    play(g, "P1 choose P1:B2Z1", "P1 choose B3")
    assert might(g, "P1:B3Z1") == 2 + 1 + 2  # reveal, Orodes II, Flank Attack
    assert might(g, "P1:B1Z1") == 6


def test_spahbed_commands_flank_attack_again():
    g = new_game(CAV, SPE, first_player=2)  # round 2 then has P1 first
    deploy_round(g, {2: [], 1: [("Spahbed", 1), ("Cataphracts", 2), ("Flank Attack", 2)]})
    play(g, "P1 choose P1:B2Z1", "P1 choose B3")
    assert might(g, "P1:B3Z1") == 4
    settle(g)
    assert g.round == 2 and kind(g) == Kind.COMMAND and g.pending.player == 1
    play(g, "P1 command P1:B1Z1")
    assert kind(g) == Kind.TARGET_CARD  # Flank Attack again: move which ally card
    play(g, "P1 choose P1:B3Z1", "P1 choose B1")
    assert side(g, 1, 1) == ["Spahbed", "Cataphracts"]
    assert might(g, "P1:B1Z2") == 4 + 2
    # Once per command phase: Spahbed has nothing more to do, the deploy phase begins.
    assert kind(g) == Kind.DEPLOY


def test_spahbed_commands_parthian_shot_again():
    g = new_game(CAV, SPE, first_player=2)
    deploy_round(g, {2: [("Chain Wraith", 3)], 1: [("Spahbed", 1), ("Parthian Shot", 2)]})
    assert piles(g, 2)["destroyed"] == ["Chain Wraith"]  # the first shot
    finish_round(g)  # round 2 (P1 first): the Spectres play another 3-cost card
    deploy_round(g, {1: [], 2: [("Banshee", 3)]})
    play(g, "P2 choose P1:B2Z1")  # Banshee stuns the Parthian Shot (an instant: no effect)
    settle(g)
    assert g.round == 3 and kind(g) == Kind.COMMAND
    play(g, "P1 command P1:B1Z1")
    assert piles(g, 2)["destroyed"] == ["Banshee", "Chain Wraith"]


def test_a_stunned_spahbed_cannot_command():
    g = new_game(CAV, SPE)
    deploy_round(g, {1: [("Spahbed", 1), ("Cataphracts", 2), ("Flank Attack", 2)], 2: [("Banshee", 1)]})
    play(g, "P1 choose P1:B2Z1", "P1 choose B3")
    play(g, "P2 choose P1:B1Z1")  # Banshee stuns Spahbed
    assert tokens(g, "P1:B1Z1", "stun") == 1
    settle(g)
    # Round 2: P2 has no command ability, P1's only one is stunned: straight to the deploy phase.
    assert g.round == 2 and kind(g) == Kind.DEPLOY and g.pending.player == 2


# ============================================================================ Vampires
def test_villager_gains_two_when_an_ally_vampire_is_adjacent():
    g = new_game(VAM, SPE)
    deploy_round(g, {1: [("Fledgling", 1), ("Villager", 1), ("Villager", 2), ("Villager", 3)]},
                 essence={1: 5})  # no essence left: no Bites at the end of the round
    assert might(g, "P1:B1Z2") == 3  # next to the Fledgling in the same battlefield
    assert might(g, "P1:B2Z1") == 3  # same zone, battlefield next to it
    assert might(g, "P1:B3Z1") == 1  # two battlefields away: not adjacent


def test_bat_swarm_stops_the_next_opponent_instant_here():
    g = new_game(VAM, SPE)
    deploy_round(g, {1: [("Bat Swarm", 1)], 2: [("Lich", 1)]})
    assert side(g, 1, 1) == ["Bat Swarm"]  # the Lich's destroy was stopped
    assert g.players[1].stops == [0, 0, 0]


def test_blood_doll_gains_two_whenever_an_ally_vampire_is_revealed_adjacent():
    g = new_game(VAM, SPE)
    deploy_round(g, {1: [("Blood Doll", 1), ("Fledgling", 1), ("Mesmerist", 2), ("Fledgling", 3)]},
                 essence={1: 8})
    assert might(g, "P1:B1Z1") == 1 + 2 + 2  # Fledgling beside it, Mesmerist below it; not B3


def test_fledgling_bites_an_adjacent_ally_human_at_the_end_of_the_round():
    g = new_game(VAM, SPE)
    deploy_round(g, {1: [("Fledgling", 1), ("Villager", 1), ("Villager", 3)]}, essence={1: 5})
    # 1 essence left after deploying: the end-of-round Bite spends it.
    vill, fled = at(g, "P1:B1Z2"), at(g, "P1:B1Z1")
    far = at(g, "P1:B3Z1")
    settle(g)
    assert g.round == 2
    assert vill.might == 3 - 2 and fled.might == 1 + 2
    assert far.might == 1


def test_fledgling_does_not_bite_without_essence():
    g = new_game(VAM, SPE)
    deploy_round(g, {1: [("Fledgling", 1), ("Villager", 1)]}, essence={1: 3})
    settle(g)
    assert g.round == 2 and might(g, "P1:B1Z2") == 3 and might(g, "P1:B1Z1") == 1


def test_renfield_deploys_a_cheap_vampire_from_hand_here_revealed_at_once():
    g = new_game(VAM, SPE)
    ev = Events(g)
    set_hand(g, 1, "Fledgling", "Mesmerist", "Villager")
    deploy_round(g, {1: [("Renfield", 2)]}, essence={1: 2})
    fled = at(g, "P1:B2Z2")
    assert fled is not None and fled.name == "Fledgling" and fled.face_up and fled.might == 1
    assert hand(g, 1) == ["Mesmerist", "Villager"]
    # The deploy by ability cost nothing: 2 essence paid Renfield, none was left for a Bite.
    assert ev.of("bite") == [] and might(g, "P1:B2Z1") == 1


def test_blood_tithe_discards_then_draws_two_and_beggar_adds_essence_when_discarded():
    g = new_game(VAM, SPE)
    set_hand(g, 1, "Beggar", "Villager")
    deploy_round(g, {1: [("Blood Tithe", 1)]})
    assert kind(g) == Kind.DISCARD
    play(g, "P1 choose Beggar")
    assert piles(g, 1)["discard"] == ["Beggar"]
    assert g.players[0].next_adjust == 1  # Beggar, discarded (the round is still going on)
    play(g, "C draw P1 Lord of the Evernight", "C draw P1 Sire")
    assert hand(g, 1) == ["Lord of the Evernight", "Sire", "Villager"]


def test_mesmerist_stuns_an_opponent_card():
    g = new_game(VAM, SPE, first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1)], 1: [("Mesmerist", 3)]})
    finish_round(g)
    _taker_stunned_does_not_trigger(g, "P2:B1Z1")


def test_dire_wolves_anchor_an_opponent_card_here():
    g = new_game(VAM, CAV, first_player=2)
    deploy_round(g, {2: [("Horse Archers", 1), ("Horse Archers", 2)], 1: [("Dire Wolves", 1)]})
    assert tokens(g, "P2:B1Z1", "anchor") == 1 and tokens(g, "P2:B2Z1", "anchor") == 0
    finish_round(g)
    deploy_round(g, {1: [], 2: [("Flank Attack", 1)]})  # only the B2 Horse Archers can move
    play(g, "P2 choose B3")
    assert side(g, 2, 1) == ["Horse Archers", "Flank Attack"] and side(g, 2, 3) == ["Horse Archers"]


def test_mist_walker_shifts_an_ally_card_to_the_next_open_zone():
    g = new_game(VAM, SPE)
    deploy_round(g, {1: [("Villager", 1), ("Villager", 1), ("Mist Walker", 1)]}, essence={1: 5})
    first = at(g, "P1:B1Z1")
    play(g, "P1 yes", "P1 choose P1:B1Z1")
    assert side(g, 1, 1) == ["Villager", "Mist Walker", "Villager"]
    assert at(g, "P1:B1Z3") is first and first.might == 1


def test_nosferatu_bites_each_opponent_card_revealed_here():
    g = new_game(VAM, SPE)
    ev = Events(g)
    deploy_round(g, {1: [("Nosferatu", 1)], 2: [("Soul of the Living", 1), ("Soul of the Living", 2)]},
                 essence={1: 5})
    assert might(g, "P2:B1Z1") == 0 and might(g, "P1:B1Z1") == 3 + 1
    assert might(g, "P2:B2Z1") == 1  # not Here
    assert ev.of("bite") == [("bite", "Nosferatu", "Soul of the Living", 1, 0)]


def test_drain_dry_banishes_an_opponent_card_here_with_two_or_less_might():
    g = new_game(VAM, SPE, first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 1), ("Taker of Souls", 1)], 1: [("Drain Dry", 1)]})
    assert piles(g, 2) == {"discard": [], "destroyed": [], "banished": ["Soul of the Living"]}
    assert g.players[1].next_adjust == 0  # banished, not destroyed: no Soul essence
    assert side(g, 2, 1) == ["Taker of Souls"] and might(g, "P2:B1Z1") == 4


def test_crypt_keeper_shields_an_ally_vampire():
    g = new_game(VAM, SPE)
    deploy_round(g, {1: [("Fledgling", 1), ("Crypt Keeper", 1)], 2: [("Lich", 1)]}, essence={1: 6})
    assert tokens(g, "P1:B1Z1", "shield") == 1
    play(g, "P2 choose P1:B1Z1")  # the Lich tries the shielded Fledgling
    assert side(g, 1, 1) == ["Fledgling", "Crypt Keeper"]


def test_matriarch_applies_two_might_to_each_ally_human_between_two_ally_vampires():
    g = new_game(VAM, SPE)
    deploy_round(g, {1: [("Fledgling", 1), ("Villager", 1), ("Villager", 1), ("Mesmerist", 3),
                         ("Villager", 2), ("Blood Doll", 3), ("Matriarch", 1)]}, essence={1: 14})
    assert [c.might for c in g.board[0][0]] == [1, 3 + 2, 1 + 2, 3]  # both between Z1 and Z4
    assert might(g, "P1:B2Z1") == 3 + 2  # between B1Z1 and B3Z1 (same zone, middle battlefield)
    assert might(g, "P1:B3Z2") == 1  # Blood Doll beside the Mesmerist, but not between two Vampires


def test_sire_swaps_an_ally_human_with_a_vampire_from_hand():
    g = new_game(VAM, SPE, first_player=2)
    set_hand(g, 1, "Villager", "Sire", "Mesmerist", "Blood Doll")
    deploy_round(g, {2: [("Taker of Souls", 1)], 1: [("Villager", 2), ("Sire", 2)]})
    assert side(g, 1, 2) == ["Mesmerist", "Sire"]
    mes = at(g, "P1:B2Z1")
    assert mes.face_up and mes.might == 2
    assert tokens(g, "P2:B1Z1", "stun") == 1  # the Mesmerist's ability resolved
    assert hand(g, 1) == ["Blood Doll", "Villager"]
    vill = next(c for c in g.players[0].hand if c.name == "Villager")
    assert vill.might == 0 and not vill.face_up


def test_nights_embrace_deploys_a_card_from_the_discard_pile():
    g = new_game(VAM, SPE)
    set_hand(g, 1, "Beggar", "Villager")
    deploy_round(g, {1: [("Blood Tithe", 1), ("Night's Embrace", 1)]})
    play(g, "P1 choose Beggar")
    settle(g)  # the two draws
    assert kind(g) == Kind.TARGET_BATTLEFIELD
    play(g, "P1 choose B3")
    beggar = at(g, "P1:B3Z1")
    assert beggar.name == "Beggar" and beggar.face_up and beggar.might == 3
    assert piles(g, 1)["discard"] == []


def test_baroness_of_ash_makes_the_opponent_discard_and_adds_essence():
    g = new_game(VAM, SPE)
    set_hand(g, 2, "Lich", "Banshee")
    deploy_round(g, {1: [("Baroness of Ash", 1)]})
    assert kind(g) == Kind.DISCARD and g.pending.player == 2
    play(g, "P2 choose Lich")
    assert piles(g, 2)["discard"] == ["Lich"] and "Lich" not in hand(g, 2)
    settle(g)
    assert g.round == 2 and g.players[0].essence == 3 + 1


def test_elder_vampire_counts_humans_here_and_bites_when_its_side_is_full():
    # B1 is The Closing Walls: five zones.
    g = new_game(VAM, SPE, first_player=2)
    ev = Events(g)
    deploy_round(g, {2: [("Taker of Souls", 1)],
                     1: [("Villager", 1), ("Villager", 1), ("Villager", 1), ("Blood Doll", 1),
                         ("Elder Vampire", 1)]}, essence={1: 11})
    elder, taker = at(g, "P1:B1Z5"), at(g, "P2:B1Z1")
    # revealed: 4 + 1 for each of the 4 Humans Here; end of round, full side, 1 essence left: Bite
    assert taker.might == 4 - 2 and elder.might == 4 + 4 + 2
    assert ev.of("bite") == [("bite", "Elder Vampire", "Taker of Souls", 2, 0)]


def test_elder_vampire_does_not_bite_when_its_side_is_not_full():
    g = new_game(VAM, SPE, first_player=2)
    deploy_round(g, {2: [("Taker of Souls", 1)], 1: [("Villager", 1), ("Elder Vampire", 1)]},
                 essence={1: 10})
    settle(g)
    assert g.round == 2 and might(g, "P2:B1Z1") == 4 and might(g, "P1:B1Z2") == 5


def test_countess_takes_captives_each_round_and_gains_for_them_at_the_end_of_the_game():
    g = new_game(VAM, SPE)
    deploy_round(g, {1: [("Villager", 2), ("Countess of the Evernight", 2), ("Villager", 2)]},
                 essence={1: 9})
    countess = at(g, "P1:B2Z2")
    finish_round(g)
    assert countess.tokens.get("captive") == 2  # two adjacent Humans
    finish_round(g)
    assert countess.tokens.get("captive") == 4
    while not g.over:
        finish_round(g)
    assert countess.tokens.get("captive") == 20
    assert countess.might == 5 + 6  # at most 6


def test_blood_baron_bites_an_opponent_card_for_two_essence_at_the_end_of_the_round():
    g = new_game(VAM, SPE)
    ev = Events(g)
    deploy_round(g, {1: [("Blood Baron", 1)], 2: [("Taker of Souls", 3), ("Soul of the Living", 2)]},
                 essence={1: 9})
    assert kind(g) == Kind.TARGET_CARD
    play(g, "P1 choose P2:B3Z1")
    assert might(g, "P2:B3Z1") == 1 and might(g, "P1:B1Z1") == 5 + 3
    assert ev.of("bite") == [("bite", "Blood Baron", "Taker of Souls", 3, 0)]  # 2 essence spent


def test_lord_of_the_evernight_bites_each_opponent_card_here_while_essence_lasts():
    g = new_game(VAM, SPE, first_player=2)
    ev = Events(g)
    deploy_round(g, {2: [("Soul of the Living", 1), ("Taker of Souls", 1), ("Chain Wraith", 1)],
                     1: [("Lord of the Evernight", 1)]}, essence={1: 10})
    assert [c.might for c in g.board[0][1]] == [0, 3, 2]  # 2 essence: two Bites, lowest zones first
    assert might(g, "P1:B1Z1") == 6 + 2
    assert [e[2:] for e in ev.of("bite")] == [("Soul of the Living", 1, 1), ("Taker of Souls", 1, 0)]


def test_horse_archers_returned_and_redeployed_resolve_their_ability_again():
    g = new_game(CAV, SPE, first_player=2)
    deploy_round(g, {2: [("Soul of the Living", 1), ("Soul of the Living", 1)],
                     1: [("Horse Archers", 1), ("Feigned Retreat", 2)]})
    play(g, "P1 choose P2:B1Z1")  # revealed: take 1 might from one of the two Souls
    assert [c.might for c in g.board[0][1]] == [0, 1]
    assert "Horse Archers" in hand(g, 1)  # Feigned Retreat brought them back
    finish_round(g)  # round 2: P1 first
    deploy_round(g, {1: [("Horse Archers", 1)]})
    play(g, "P1 choose P2:B1Z2")  # revealed again: take 1 from the other Soul
    assert [c.might for c in g.board[0][1]] == [0, 0]
    assert side(g, 1, 1) == ["Horse Archers"] and might(g, "P1:B1Z1") == 2


# ============================================================================ every card tested
def test_every_cavalry_and_vampire_card_is_exercised_by_a_test_here():
    src = Path(__file__).read_text(encoding="utf-8")
    for file in ("cavalry.yaml", "vampires.yaml"):
        for c in raw_deck(file)["cards"]:
            assert f'"{c["name"]}"' in src, f"{c['name']} is not used by any test in this file"


# ============================================================================ coverage
ACTION_KEYS = {"each", "then", "else", "prompt"}


def _walk_actions(actions, out):
    for a in actions or []:
        for k, v in a.items():
            if k in ACTION_KEYS:
                if k in ("each", "then", "else"):
                    _walk_actions(v, out)
                continue
            out.append((k, v, a))
            if k == "may":
                _walk_actions(v, out)


def _walk_selectors(node, out):
    """Every mapping that looks like a selector (anything under target/onto/count/of/subject)."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("target", "onto", "count", "of", "subject", "for_each") and isinstance(v, dict):
                out.append(v)
            _walk_selectors(v, out)
    elif isinstance(node, list):
        for v in node:
            _walk_selectors(v, out)


def test_catalog_uses_every_keyword():
    decks = [raw_deck(f) for f in ("spectres.yaml", "cavalry.yaml", "vampires.yaml")]
    cards = [c for d in decks for c in d["cards"]]
    bfs = raw_battlefields()["battlefields"]
    effects = [e for c in cards for e in c.get("effects", [])] + [e for b in bfs for e in b.get("effects", [])]
    actions = []
    for e in effects:
        _walk_actions(e["do"], actions)
    verbs = {k for k, _, _ in actions}
    args = lambda verb: [v for k, v, _ in actions if k == verb]  # noqa: E731
    selectors = []
    _walk_selectors([e for e in effects], selectors)
    conditions = [e["if"] for e in effects if "if" in e] + args("if")
    token_ops = [(op, v[op]) for v in args("token") for op in ("apply", "remove") if op in v]
    sides = {s.get("side") for s in selectors}
    wheres = {s.get("where") for s in selectors}
    card_triggers = {e["when"] for c in cards for e in c.get("effects", [])}
    bf_triggers = {e["when"] for b in bfs for e in b.get("effects", [])}
    bf_once = {e.get("once") for b in bfs for e in b.get("effects", [])}
    rules = {k for b in bfs for k in (b.get("rules") or {})}

    have = {
        "Acquire": "acquire" in verbs,
        "Add essence": any("add" in v for v in args("essence")),
        "Subtract essence": any("sub" in v for v in args("essence")),
        "Adjacent": "adjacent" in wheres,
        "Ally": "ally" in sides,
        "Opponent": "opponent" in sides,
        "Apply tokens": any(op == "apply" for op, _ in token_ops),
        "Remove tokens": any(op == "remove" for op, _ in token_ops),
        "Banish": "banish" in verbs,
        "Between": "between" in wheres,
        "Bites": "bite" in verbs,
        "Deploy from hand": any(v.get("from", "hand") == "hand" for v in args("deploy")),
        "Deploy from discard": any(v.get("from") == "discard" for v in args("deploy")),
        "Deploy from destroy pile": any(v.get("from") == "destroyed" for v in args("deploy")),
        "Destroy": "destroy" in verbs,
        "Destroy-shift": any(v.get("shift") for v in args("destroy")),
        "Discard": "discard" in verbs,
        "Draw": "draw" in verbs,
        "Fills/Full": "fill" in bf_triggers or any("full" in c for c in conditions),
        "Full (condition)": any("full" in c for c in conditions),
        "Fill (trigger)": "fill" in bf_triggers,
        "Here": "here" in wheres or any(v.get("where", "here") == "here" for v in args("stop")),
        "Move": "move" in verbs,
        "Move several (pick: all)": any(v["target"].get("pick") == "all" for v in args("move")
                                        if isinstance(v["target"], dict)),
        "Return": "return" in verbs,
        "Shift": "shift" in verbs,
        "Stack": "stack" in verbs,
        "Swap": "swap" in verbs,
        "Stop": "stop" in verbs,
        "Stun": ("apply", "stun") in token_ops,
        "Shield": ("apply", "shield") in token_ops,
        "Anchor": ("apply", "anchor") in token_ops,
        "Move tokens": ("apply", "move") in token_ops,
        "Captive tokens": ("apply", "captive") in token_ops,
        "Maximum might": any("max_might" in c for c in cards),
        "Instant": any(c.get("ability") == "instant" for c in cards),
        "Conditional": any(c.get("ability") == "conditional" for c in cards),
        "Passive": any(c.get("ability") == "passive" for c in cards),
        "Command ability": "command" in card_triggers,
        "Repeat (resolve again)": "repeat" in verbs,
        "Card trigger moved": "moved" in card_triggers,
        "BF trigger deploy": "deploy" in bf_triggers,
        "BF trigger first_deploy": "first_deploy" in bf_triggers,
        "BF trigger reveal": "reveal" in bf_triggers,
        "BF trigger end_of_round": "end_of_round" in bf_triggers,
        "BF trigger end_of_game": "end_of_game" in bf_triggers,
        "BF once: game": "game" in bf_once,
        "BF once: player": "player" in bf_once,
        "BF rule ability_might_bonus": "ability_might_bonus" in rules,
        "BF rule cost": "cost" in rules,
        "BF rule destroy_to_hand": "destroy_to_hand" in rules,
        "Five-zone battlefield": any(b.get("zones") == 5 for b in bfs),
    }
    missing = sorted(k for k, ok in have.items() if not ok)
    assert not missing, f"keywords no card or battlefield uses: {missing}"
    assert len(bfs) >= 9
    # Every verb of the effect language that a card keyword needs is exercised by real data.
    assert {"gain", "might", "essence", "token", "stop", "destroy", "banish", "return", "move",
            "shift", "stack", "swap", "discard", "draw", "acquire", "deploy", "bite", "may", "if",
            "repeat"} <= verbs


def test_keyword_coverage_check_can_fail():
    """The coverage walk really looks at the data: a deck without its Bites loses the keyword."""
    vam = raw_deck("vampires.yaml")
    acts = []
    for c in vam["cards"]:
        for e in c.get("effects", []):
            _walk_actions(e["do"], acts)
    assert any(k == "bite" for k, _, _ in acts)
    stripped = [c for c in vam["cards"] if "bite" not in repr(c.get("effects"))]
    acts = []
    for c in stripped:
        for e in c.get("effects", []):
            _walk_actions(e["do"], acts)
    assert not any(k == "bite" for k, _, _ in acts)


def test_card_texts_name_their_keywords():
    """Cheap honesty check on the rules texts: a card whose effects use a keyword verb says so."""
    words = {"bite": r"\bBites?\b", "banish": r"\bBanish", "shift": r"\bShift", "stack": r"\bStack",
             "swap": r"\bSwap", "move": r"\bMove", "return": r"\bReturn", "discard": r"\bdiscards?\b|\bDiscard",
             "draw": r"\bDraws?\b", "destroy": r"\bDestroy", "stop": r"Stop token",
             "deploy": r"\bDeploy", "repeat": r"again"}
    for file in ("cavalry.yaml", "vampires.yaml"):
        for c in raw_deck(file)["cards"]:
            acts = []
            for e in c.get("effects", []):
                _walk_actions(e["do"], acts)
            for verb, pat in words.items():
                if any(k == verb for k, _, _ in acts):
                    assert re.search(pat, c["text"]), f"{c['name']}: text does not mention {verb}"
            for op, tok in [(op, v[op]) for k, v, _ in acts if k == "token" for op in ("apply", "remove")
                            if op in v]:
                assert re.search(tok, c["text"], re.I), f"{c['name']}: text does not mention {tok} tokens"


# ============================================================================ the reference's examples
def test_every_yaml_example_in_the_effect_language_reference_compiles():
    """docs/effect-language.md: each ```yaml block is a deck or battlefield file, a card, a list of
    effects, a list of actions, or lines of 'key: value' (selectors, amounts, conditions, actions)."""
    import yaml

    from engine.bfe.catalog import compile_battlefield
    from engine.bfe.effects import (
        BF_TRIGGERS,
        CARD_TRIGGERS,
        compile_actions,
        compile_amount,
        compile_condition,
        compile_effects,
        compile_selector,
    )
    doc = (Path(__file__).parents[2] / "docs" / "effect-language.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", doc, re.S)
    assert len(blocks) >= 10
    for block in blocks:
        data = yaml.safe_load(block)
        if isinstance(data, dict) and "deck" in data:
            for i, c in enumerate(data["cards"]):
                compile_card(c, data["deck"], "doc", i)
        elif isinstance(data, dict) and "battlefields" in data:
            for i, b in enumerate(data["battlefields"]):
                compile_battlefield(b, "doc", i)
        elif isinstance(data, list) and data and "when" in data[0]:
            compile_effects(data, "doc", CARD_TRIGGERS | BF_TRIGGERS)
        elif isinstance(data, list) and data and "name" in data[0]:
            for i, c in enumerate(data):
                compile_card({"type": "T", "cost": 1, "might": 0, "text": "t", **c}, "D", "doc", i)
        elif isinstance(data, list):
            compile_actions(data, "doc")
        else:  # one-line snippets: each line is "key: value"
            for line in block.strip().splitlines():
                key, value = line.split("#")[0].strip().split(":", 1)
                value = yaml.safe_load(value)
                if key == "target":
                    compile_selector(value, "doc")
                elif key == "gain":
                    compile_amount(value, "doc")
                elif key == "if":
                    compile_condition(value, "doc")
                else:
                    raise AssertionError(f"unexpected example line {line!r}")
    # Every verb of the language is documented with its name in bold.
    from engine.bfe.effects import VERBS
    for v in VERBS:
        assert f"**`{v}:" in doc, f"verb {v} is not in the reference"


# ============================================================================ engine bugs found
# Each test below showed an engine bug found while building these decks (now fixed).
def test_applying_a_decision_to_a_clone_leaves_the_original_untouched():
    g = Game(CATALOG, [list(CATALOG.decks[CAV]), list(CATALOG.decks[VAM])],
             [CATALOG.battlefields[b] for b in QUIET], seed=1)
    assert g.pending.kind == Kind.DRAFT_KEEP
    who = g.pending.player
    before = sorted(c.name for c in g.players[who - 1].hand)
    h = g.clone()
    h.apply(next(h.legal_decisions()))
    assert sorted(c.name for c in g.players[who - 1].hand) == before


def _test_card(name, effects, ability="conditional"):
    raw = {"name": name, "type": "Test", "cost": 1, "might": 0, "ability": ability,
           "text": f"test card {name}", "effects": effects}
    return compile_card(raw, "Test deck", "test_cards", 0)[0]


def test_once_on_a_card_effect_is_honoured():
    oncer = _test_card("Oncer", [{"when": "ally_revealed", "once": "game", "do": [{"gain": 1}]}])
    fled = CATALOG.cards["Fledgling"]
    g = Game(CATALOG, [[oncer] + [fled] * 7, list(CATALOG.decks[SPE])],
             [CATALOG.battlefields[b] for b in QUIET], first_player=1)
    to_deploy(g)
    deploy_round(g, {1: [("Oncer", 1), ("Fledgling", 1), ("Fledgling", 1)]}, essence={1: 5})
    assert at(g, "P1:B1Z1").might == 1  # gained once, not once per ally revealed


def test_a_card_deployed_by_ability_in_the_end_phase_is_revealed():
    caller = _test_card("Night Caller", [
        {"when": "end_of_round", "do": [{"deploy": {"from": "hand", "name": "Villager", "to": "here"}}]}])
    vill = CATALOG.cards["Villager"]
    g = Game(CATALOG, [[caller] + [vill] * 7, list(CATALOG.decks[SPE])],
             [CATALOG.battlefields[b] for b in QUIET], first_player=1)
    to_deploy(g)
    deploy_round(g, {1: [("Night Caller", 2)]}, essence={1: 1})
    finish_round(g)
    finish_round(g)  # the Villager deployed at the end of round 1 had round 2 to be revealed in
    assert side(g, 1, 2)[:2] == ["Night Caller", "Villager"]
    assert at(g, "P1:B2Z2").face_up
