"""Battle for Empyrean behind the game interface (engine.games): its description, declared once
here, and its rules object, ``RULES``, which the shared machinery calls for what is particular to
this game."""

from __future__ import annotations

from ..games import GameInfo, Outcome, OutcomeKind, SeatOutcome
from ..log import GameLog
from .decisions import Decision, format_decision, parse_decision
from .game import BATTLEFIELDS, ROUNDS, Game, battlefield_winners
from .selfplay import BOTS, self_play

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

    bots = tuple(BOTS)  # the bots self_play knows, by name

    def self_play(self, seed: int, *, bot: str = "random", players: int = 2, checkpoints: bool = False) -> dict:
        """One seeded game played by bots (``bot``: a name in ``bots``), its log as a JSON-ready dict."""
        return self_play(seed, bot=bot, players=players, checkpoints=checkpoints)

    def parse_line(self, text: str) -> Decision:
        """One decision line read (DecisionSyntaxError, naming what is wrong, if it does not read)."""
        return parse_decision(text)

    def format_line(self, d: Decision) -> str:
        return format_decision(d)

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
