"""A player's 28 maneuvers: which cards it may hold (the named cards must fit), and the seeded deal.

The deck is the 21 basic cards and 7 species cards: chosen (written in the setup: a fixed multiset)
or random (any 7 of the species' 11; in a mixed squad at most 2 of them the lone titan's species).
A card named from a face-down place is possible while every card named so far still fits one such
deck (docs/titans-rules.md, C19): that is exact, as face-down cards of one player are alike to the
log until named.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .catalog import Catalog

SPECIES_IN_DECK = 7
LONE_MAX = 2  # mixing species: species cards that may be the lone titan's


@dataclass(frozen=True)
class DeckRule:
    basic: Counter
    main: Counter  # the main species' cards (copies), or the chosen ones
    lone: Counter  # the lone titan's species' cards, or the chosen ones of it
    chosen: bool  # the 7 species cards were written in the setup

    def allows(self, named: Counter) -> bool:
        s_main = s_lone = 0
        for card, n in named.items():
            if card in self.basic:
                if n > self.basic[card]:
                    return False
            elif card in self.main:
                if n > self.main[card]:
                    return False
                s_main += n
            elif card in self.lone:
                if n > self.lone[card]:
                    return False
                s_lone += n
            else:
                return False
        return self.chosen or (s_main + s_lone <= SPECIES_IN_DECK and s_lone <= LONE_MAX)

    def possible(self, named: Counter) -> list[str]:
        """Every card a face-down place may turn out to be, given the cards named so far (each
        once, sorted): those ``allows`` would still take one more of."""
        s_main = sum(n for c, n in named.items() if c in self.main)
        s_lone = sum(n for c, n in named.items() if c in self.lone)
        room = self.chosen or s_main + s_lone < SPECIES_IN_DECK
        lone_room = self.chosen or (room and s_lone < LONE_MAX)
        out = [c for c, n in self.basic.items() if named[c] < n]
        out += [c for c, n in self.main.items() if named[c] < n and room and c not in self.basic]
        out += [c for c, n in self.lone.items() if named[c] < n and lone_room and c not in self.basic]
        return sorted(set(out))

    def cards(self) -> list[str]:
        """Every card that may be in the deck (each once)."""
        return sorted(set(self.basic) | set(self.main) | set(self.lone))


def deck_rule(cat: Catalog, species: str, ally: str | None, chosen: tuple[str, ...] | None) -> DeckRule:
    basic = cat.basic_counts()
    if chosen is not None:
        picked = Counter(chosen)
        main = Counter({k: n for k, n in picked.items() if cat.maneuvers[k].species == species})
        return DeckRule(basic, main, picked - main, True)
    return DeckRule(basic, cat.species_counts(species), cat.species_counts(ally) if ally else Counter(), False)


def seeded_deck(cat: Catalog, rule: DeckRule, rng) -> list[str]:
    """The 28 cards of a seeded game, shuffled: the chosen species cards, or 7 of the main species'."""
    if rule.chosen:
        species = list((rule.main + rule.lone).elements())
    else:
        pool = sorted(rule.main.elements())
        rng.shuffle(pool)
        species = pool[:SPECIES_IN_DECK]
    cards = sorted(rule.basic.elements()) + sorted(species)
    rng.shuffle(cards)
    return cards
