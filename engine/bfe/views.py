"""What one seat sees of a Battle for Empyrean game, for engine.seats (seat views, merging): the
kinds of answer only their owner sees, how another seat writes such an answer, and the cards a
seeded game draws (no decisions, so the trace is told of them) as lines of recorded chance."""

from __future__ import annotations

import dataclasses
from typing import Any

from .catalog import Catalog
from .decisions import UNSEEN_NAME, Decision, Kind
from .game import PRIVATE_KINDS, Answer, Game
from .observe import GameObserver
from .state import CardInst


@dataclasses.dataclass(frozen=True)
class Drawn:
    """A card drawn, put in the answer list where it happened (Game.trace plus these)."""

    seat: int
    name: str
    round: int

    @property
    def decision(self) -> Decision:
        return Decision(0, "draw", card=self.name, player=self.seat)


class DrawsInTrace(GameObserver):
    """Puts the cards drawn in a seeded game, which are no decisions, in its answer list."""

    def on_draw(self, g: Game, player: int, card: CardInst) -> None:
        if g.trace is not None and g.rng is not None:
            g.trace.append(Drawn(player, card.name, g.round))


def is_private(entry: Answer | Drawn) -> bool:
    """An answer only its owner sees (a card drawn, kept, discarded or acquired)."""
    return isinstance(entry, Drawn) or entry.kind in PRIVATE_KINDS


def as_seen(entry: Answer | Drawn, hidden: bool, omit: bool, catalog: Catalog) -> Decision | None:
    """The line a writer writes for ``entry`` (None: nothing) when the owner's hidden cards are
    ``hidden`` from them: draws and keeps left out (``omit``) or '?', discards '?' unless the card's
    own discard ability showed it, acquires '?' unless only one card could be acquired."""
    d = entry.decision
    if isinstance(entry, Drawn):
        if not hidden:
            return d
        return None if omit else d._replace(card=UNSEEN_NAME)
    if d.verb == "first" or (d.verb == "nothing" and entry.how != "line"):
        return None
    if not hidden or entry.kind not in PRIVATE_KINDS:
        return d
    if entry.kind == Kind.DISCARD:
        # a card whose own discard ability resolves shows itself to the table; the others are
        # written '?' so that the order of the discards stays known
        shown = d.card in catalog.cards and "discarded" in catalog.cards[d.card].effects
        return d if shown else d._replace(card=UNSEEN_NAME)
    if entry.kind == Kind.ACQUIRE:
        return d if entry.names == 1 else d._replace(card=UNSEEN_NAME)
    if not omit and d.card is not None:
        return d._replace(card=UNSEEN_NAME)
    return None


def is_unseen(d: Any) -> bool:
    """A line that names no card where a card left sight ('?')."""
    return d.card == UNSEEN_NAME
