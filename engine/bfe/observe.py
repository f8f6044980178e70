"""What a game tells its observers: ``GameObserver``, one method per event, each doing nothing.

An observer subclasses it and overrides the events it needs (engine.bfe.record's ``RecordBuilder``,
replay's checkpoint check, engine.seats' draw list); a game given ``observers=[...]`` calls
``observer.on_<event>(game, ...)`` on each of them, in order, when the event happens, and calls
nothing when it has none. Observers read the game; they never change it. Cards are the game's own
``CardInst`` objects; battlefields are 0-based indices, players 1-based numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game
    from .state import CardInst

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # installed with mypy, which only the compiled engine's build needs
    def mypyc_attr(*_: Any, **__: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


# Compiled, the engine's own observers are called directly; observers written elsewhere (the
# tests, tools) subclass it too.
@mypyc_attr(allow_interpreted_subclasses=True)
class GameObserver:
    """Override the events you need; the others do nothing."""

    # ------------------------------------------------------------------ rounds
    def on_round_start(self, g: Game) -> None:
        """A round has begun (``g.round``): every player's essence is set, no begin-of-round
        effect has resolved yet."""

    def on_round_end(self, g: Game) -> None:
        """The end phase is over, end-of-round effects resolved; ``g.first`` is still this round's
        first player."""

    def on_game_end(self, g: Game) -> None:
        """The game is over, tallied, conceded or stopped by time (``g.end``); ``g.winner`` and
        ``g.final_might`` are set."""

    # ------------------------------------------------------------------ hands and decks
    def on_draw(self, g: Game, player: int, card: CardInst) -> None:
        """``card`` came from ``player``'s deck into their hand: an opening hand, the draft's two
        cards (before one is kept) or an ability's draw."""

    def on_draft(self, g: Game, player: int, kept: CardInst, other: CardInst) -> None:
        """``player`` kept one of the two cards drafted; ``other`` went to the bottom of the deck."""

    def on_discard(self, g: Game, card: CardInst) -> None:
        """``card`` went from its owner's hand to the discard pile, before its own or its allies'
        "when discarded" abilities resolve."""

    def on_acquire(self, g: Game, card: CardInst) -> None:
        """``card`` was taken from its owner's deck into their hand (the shuffle follows)."""

    def on_shuffle(self, g: Game, player: int) -> None:
        """``player``'s deck was shuffled."""

    # ------------------------------------------------------------------ the board
    def on_deploy(self, g: Game, card: CardInst, bf: int, by_ability: bool) -> None:
        """``card`` was deployed face down to battlefield ``bf``, by its owner's deploy decision or
        by an ability; the battlefield's deploy effects have not resolved yet."""

    def on_reveal(self, g: Game, card: CardInst) -> None:
        """``card`` was turned face up with its might and affixed tokens, before its own ability
        and any reveal triggers resolve."""

    def on_stopped(self, g: Game, card: CardInst) -> None:
        """``card``'s instant ability was stopped: a stop token on its side was used up instead."""

    def on_command(self, g: Game, card: CardInst) -> None:
        """``card``'s command ability was used, before it resolves."""

    def on_might(self, g: Game, card: CardInst, amount: int, source: CardInst | None) -> None:
        """``card``'s might changed by ``amount`` (negative: lost) through ``source``'s effect (None:
        a battlefield's)."""

    def on_token(self, g: Game, card: CardInst, token: str, count: int) -> None:
        """An effect put ``count`` specialty tokens (``token``: stun, shield, anchor, move, captive)
        on ``card`` (the tokens a card has affixed come with its reveal, unannounced)."""

    def on_destroy(self, g: Game, card: CardInst, source: CardInst | None) -> None:
        """``card`` is being destroyed by ``source``'s effect (None: a battlefield's): its might is
        gone (a destroy-shift keeps it), its own and its allies' "when destroyed" abilities come
        next, then it goes to its pile (a destroy-shift only slides it down its side)."""

    def on_move(self, g: Game, card: CardInst, from_bf: int, to_bf: int) -> None:
        """``card`` moved from battlefield ``from_bf`` to the lowest open zone of ``to_bf``."""

    def on_return(self, g: Game, card: CardInst) -> None:
        """``card`` (and any cards stacked under it) went back from the board to its owner's hand."""

    def on_banish(self, g: Game, card: CardInst) -> None:
        """``card`` was banished from the board, a hand or a discard pile."""

    def on_stack(self, g: Game, top: CardInst, bottom: CardInst) -> None:
        """``top`` and ``bottom`` became one stack in one zone; the might is ``top``'s."""

    def on_swap(self, g: Game, old: CardInst, new: CardInst) -> None:
        """``new`` took ``old``'s zone face up; ``old`` went where ``new`` came from (hand or deck)."""

    def on_bite(self, g: Game, biter: CardInst, victim: CardInst, taken: int) -> None:
        """``biter`` paid essence and took ``taken`` might from ``victim`` (after both might events)."""
