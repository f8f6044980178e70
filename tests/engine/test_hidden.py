"""engine.bfe.hidden: what is known of cards nobody saw. The check is exact: a card may show itself
only if some arrangement of every unseen card is consistent with everything seen, and hidden
choices between different cards keep each way they may have gone."""

from __future__ import annotations

from rules_helpers import card

from engine.bfe.hidden import Knowledge
from engine.bfe.state import UNSEEN, CardInst

A, B, C = card("Card A"), card("Card B"), card("Card C")


def setup(*deck):
    tokens = [CardInst(100 + i, 1, UNSEEN) for i in range(len(deck))]
    return Knowledge(1, "Test Deck", tokens, list(deck)), tokens


def names(tokens):
    return [t.cdef.name for t in tokens]


def test_copies_cannot_be_exceeded_and_the_refusal_says_so():
    k, t = setup(A, A, B, C)
    assert k.identify(t[:1], "Card A") is t[0] and t[0].cdef is A
    assert k.identify(t[1:2], "Card A") is t[1]
    assert k.identify(t[2:3], "Card A") is None and t[2].cdef is UNSEEN  # refused, nothing changed
    assert k.explain("Card A", "revealed") == (
        "P1 revealed a third Card A; their deck holds two, and two were already seen")
    assert k.explain("Lich", "revealed") == "P1's deck (Test Deck) holds no Lich"
    assert k.possible_names(t[2:]) == ["Card B", "Card C"]


def test_a_discard_nobody_saw_from_a_hand_with_a_known_card_keeps_both_ways_open():
    # hand: a known Card A and two unseen cards; the deck holds one Card A
    k, t = setup(A, B, C, C)
    hand, deck = t[:3], t[3:]
    assert k.identify(hand[:1], "Card A") is hand[0]
    gone = k.take_unseen(hand)  # one card of the hand, nobody saw which, to the discard pile
    hand.remove(gone)
    discard = [gone]
    assert k.could_be(hand, "Card A") and k.could_be(discard, "Card A")
    assert k.identify([c for c in discard if c.cdef is UNSEEN], "Card A") is not None
    # the A was the card discarded, so it is no longer in the hand, nor in the deck
    assert not k.could_be(hand, "Card A") and not k.could_be(deck, "Card A")
    assert k.possible_names(hand) == ["Card B", "Card C"]


def test_which_way_a_hidden_choice_went_is_settled_when_a_card_shows_itself():
    k, t = setup(A, B, C, C)
    hand = t[:3]
    k.identify(hand[:1], "Card A")
    gone = k.take_unseen(hand)
    hand.remove(gone)
    assert k.identify([c for c in hand if c.cdef is UNSEEN], "Card A") is not None  # the A stayed in hand
    assert not k.could_be([gone], "Card A")  # so the discard was something else
    assert len(k.worlds) == 1


def test_a_kept_card_is_one_of_the_two_drawn_and_the_other_went_to_the_bottom():
    # the two drafted cards were seen (B and C); which one was kept was not
    k, t = setup(A, B, C)
    drawn = t[:2]
    k.identify(drawn[:1], "Card B")
    k.identify(drawn[1:], "Card C")
    kept = k.take_unseen(drawn)
    bottom = drawn[1] if kept is drawn[0] else drawn[0]
    assert kept.cdef is UNSEEN and bottom.cdef is UNSEEN
    assert k.possible_names([kept]) == ["Card B", "Card C"] and not k.could_be([kept], "Card A")
    assert k.identify([kept], "Card C") is kept
    assert bottom.cdef is B  # the other one is certain now: it shows itself without being seen


def test_restrictions_are_matched_together_not_one_by_one():
    k, t = setup(A, B, C)
    # two unseen cards that were both found not to be a Card C (an ability looked for one)
    assert k.restrict(t[:2], frozenset({"Card A", "Card B"}))
    assert k.could_be(t[2:], "Card C") and not k.could_be(t[2:], "Card A")
    assert k.identify(t[2:], "Card A") is None  # then A and B could not both be among the first two
    assert not k.could_avoid(t[:2], frozenset({"Card A"}))  # one of the first two is the A
    assert k.could_avoid(t[2:], frozenset({"Card A", "Card B"}))
    assert not k.restrict(t[2:], frozenset({"Card A"}))  # impossible: refused, nothing changed
    assert k.could_be(t[2:], "Card C")


def test_an_unseen_choice_may_be_limited_to_what_it_could_have_been():
    kagemusha = card("Loud", effects=[{"when": "discarded", "do": [{"essence": {"add": 2}}]}])
    shy = card("Shy", effects=[{"when": "discarded", "do": [{"may": [{"gain": 1}]}]}])
    k, t = setup(kagemusha, shy, A)
    assert k.silent_discards == frozenset({"Shy", "Card A"})  # a "may" can be declined unseen
    k.identify(t[:1], "Loud")
    assert not k.could_take_unseen(t[:1], k.silent_discards)  # the Loud card shows itself when discarded
    gone = k.take_unseen(t[:2], k.silent_discards)
    assert gone is not None and gone.cdef is UNSEEN
    assert not k.could_be([gone], "Loud") and names([c for c in t[:2] if c is not gone]) == ["Loud"]
