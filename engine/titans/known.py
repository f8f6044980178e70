"""Who knows each card of a player's places: a titan's stack and the reserve (top first), the burned
pile (bottom first). Kept beside each place's cards as a list of ``Known`` that may be shorter than
the cards: a card past its end is known to nobody (the cards dealt face down are never written in
it). Cards leave a place from the front and come in at the back, so each list moves with its cards
(``take`` and ``put``).

What a seat knows (docs/titans-rules.md, C21): its own cards it has seen, since it may look at the
top card of any of its stacks at any time (rule 3.3) and a card keeps what is known of it as it moves
(replenished, burned face down, brought back by Regenerate); and every card that was face up
(played, active) wherever it goes. Nobody knows a card still where it was dealt, under the top.
"""

from __future__ import annotations

from enum import IntEnum


class Known(IntEnum):
    NOBODY = 0  # dealt face down, never on top since
    OWNER = 1  # its owner saw it on top of one of its stacks; it has been face down since
    EVERYONE = 2  # it was face up: played, or an active maneuver


def take(cards: list, known: list) -> tuple[str | None, Known]:
    """The front card of a place, taken, and who knows it."""
    return cards.pop(0), known.pop(0) if known else Known.NOBODY


def take_top(cards: list, known: list) -> tuple[str | None, Known]:
    """The top card of a stack or the reserve, taken: its owner knows it, having been free to look (3.3)."""
    card, who = take(cards, known)
    return card, max(who, Known.OWNER)


def put(cards: list, known: list, card: str | None, who: Known) -> None:
    """``card`` at the back of a place (under a stack, on the burned pile), known to ``who``."""
    del known[len(cards):]
    known.extend([Known.NOBODY] * (len(cards) - len(known)))
    cards.append(card)
    known.append(who)


def seen_by(cards: list, known: list, owner: int, seat: int | None) -> list[str | None]:
    """The cards of a stack or the reserve as ``seat`` knows them (None: the whole table, every card
    the log names), top first, each a card key or None (face down to the seat, or not named by the
    log). Its top card is one its owner knows (3.3)."""
    out: list[str | None] = []
    for i, card in enumerate(cards):
        who = known[i] if i < len(known) else Known.NOBODY
        if i == 0:
            who = max(who, Known.OWNER)
        sees = seat is None or who == Known.EVERYONE or (seat == owner and who >= Known.OWNER)
        out.append(card if sees else None)
    return out
