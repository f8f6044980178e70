"""Battle for Empyrean behind the game interface (engine.games): its description, declared once
here, and its rules object, ``RULES``, which the shared machinery calls for what is particular to
this game."""

from __future__ import annotations

from ..games import GameInfo, Outcome, OutcomeKind, SeatOutcome
from ..log import GameLog
from .game import BATTLEFIELDS, ROUNDS, Game, battlefield_winners

GAME_INFO = GameInfo(
    key="bfe",
    name="Battle for Empyrean",
    min_players=min(ROUNDS),
    max_players=max(ROUNDS),
    chance_kinds=frozenset({"draw"}),  # shuffles come from the seed or are never written
    any_order=frozenset({"draw", "keep"}),  # the opening hands and the draft are simultaneous
    owner_only=frozenset({"draw", "keep", "discard", "acquire"}),
    outcome=OutcomeKind.WINNER,
    faction="deck",
)


class BfeRules:
    info = GAME_INFO
    battlefields = BATTLEFIELDS

    def factions(self, log: GameLog) -> list[str]:
        """What each seat plays as, in seat order: its deck's name."""
        return [deck.name for deck in log.setup.decks]

    def outcome(self, g: Game) -> Outcome | None:
        """The finished game's outcome: the winner ranks first and every other seat second (a
        draw: all first); a seat's score is the battlefields it held at the end (none when the
        board was not tallied)."""
        if not g.over or g.end is None:
            return None
        held = [0] * g.n
        if g.final_might is not None:
            for p in battlefield_winners(g.final_might, list(range(g.n))):
                if p is not None:
                    held[p] += 1
        scored = g.final_might is not None
        return Outcome(g.end.value, tuple(
            SeatOutcome(seat, 1 if g.winner in (None, seat) else 2, held[seat - 1] if scored else None,
                        g.winner == seat) for seat in range(1, g.n + 1)))


RULES = BfeRules()
