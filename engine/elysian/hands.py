"""Cards in Elysian Battlefields: the three public decks and each player's private hand.

A card drawn is not written: its face is seen when it is played, traded, discarded or used as a
reaction, and the log names it then. In a seeded game every card is known from the seed; in a
recorded one a hand holds cards known only by their deck, and a card named from it must still be
possible: fewer of its copies shown (in a discard pile, kept as an upgrade, carried as an item)
than the deck holds (docs/elysian-rules.md, C12). A deck that runs out takes its discard pile back,
shuffled, and the cards in it are unknown again.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..rng import SplitMix64
from .catalog import DECKS, Catalog


@dataclass
class Deck:
    pile: list = field(default_factory=list)  # top first: card keys (seeded) or None (recorded)
    discard: list = field(default_factory=list)  # card keys; None for a hand thrown away unseen

    def can_draw(self) -> bool:
        return bool(self.pile or self.discard)


def new_decks(cat: Catalog, rng: SplitMix64 | None) -> dict[str, Deck]:
    out = {}
    for name in DECKS:
        cards = [k for k, n in cat.decks[name].items() for _ in range(n)]
        if rng is not None:
            rng.shuffle(cards)
            out[name] = Deck(cards)
        else:
            out[name] = Deck([None] * len(cards))
    return out


def draw(decks: dict[str, Deck], shown: Counter, name: str, rng: SplitMix64 | None) -> tuple[str, str | None]:
    deck = decks[name]
    if not deck.pile:
        back = deck.discard
        shown.subtract(k for k in back if k is not None)
        deck.discard = []
        if rng is not None:
            rng.shuffle(back)
            deck.pile = back
        else:
            deck.pile = [None] * len(back)
    return name, deck.pile.pop(0)


def possible(cat: Catalog, shown: Counter, hand: list[tuple[str, str | None]], kinds: frozenset[str] | None,
             *, trigger: str | None = None) -> list[str]:
    """The cards a player could name from ``hand``: the known ones, and for each deck of which the hand
    holds an unknown card, every card of it not all of whose copies are shown; of ``kinds`` only
    (None: any), and with ``trigger`` when one is given."""
    out: dict[str, None] = {}
    unknown = {d for d, k in hand if k is None}
    for d, k in hand:
        if k is not None:
            out[k] = None
    for d in DECKS:
        if d in unknown:
            for k, n in cat.decks[d].items():
                if n > shown[k]:
                    out[k] = None
    return [k for k in out if (kinds is None or cat.cards[k].kind in kinds)
            and (trigger is None or cat.cards[k].trigger == trigger)]


def take(cat: Catalog, shown: Counter, hand: list[tuple[str, str | None]], key: str) -> None:
    """Take card ``key`` out of ``hand`` (the known copy, else an unknown card of its deck), counting it
    as shown."""
    deck = cat.cards[key].deck
    i = next((i for i, (d, k) in enumerate(hand) if k == key), None)
    if i is None:
        i = next(i for i, (d, k) in enumerate(hand) if d == deck and k is None)
    del hand[i]
    shown[key] += 1


def throw_away(decks: dict[str, Deck], shown: Counter, hand: list[tuple[str, str | None]]) -> None:
    """A hand discarded unseen (an eliminated player's; known cards stay named)."""
    for d, k in hand:
        decks[d].discard.append(k)
        if k is not None:
            shown[k] += 1
    hand.clear()
