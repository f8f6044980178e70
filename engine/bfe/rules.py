"""Battle for Empyrean behind the game interface (engine.games): its description, declared once
here, and its rules object, ``RULES``, which the shared machinery calls for what is particular to
this game."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from ..games import CHANCE, GameInfo, Outcome, OutcomeKind, SeatOutcome, another_winner
from ..log import GameLog, read_schema_file
from . import frames, logformat, verdicts, views
from .board import describe
from .catalog import DEFAULT_VERSION, Catalog, available_versions, catalog_data, check_path, load_catalog
from .decisions import NOTHING, UNSEEN_NAME, Decision, Kind, format_decision, parse_decision
from .game import ROUNDS, DecisionPoint, Game, battlefield_winners, forced_choice
from .observe import GameObserver
from .record import RecordBuilder
from .selfplay import BOTS, self_play
from .words import result_words

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


_CARD_KINDS = frozenset({Kind.DISCARD, Kind.ACQUIRE, Kind.CHOOSE_CARD})


class BfeRules:
    info = GAME_INFO

    # the log: its parts of the schema, the checks across fields, its values, its canonical order
    line_problems = staticmethod(logformat.line_problems)
    read_log_parts = staticmethod(logformat.read_parts)
    dump_setup = staticmethod(logformat.dump_setup)
    dump_checkpoint = staticmethod(logformat.dump_checkpoint)
    dump_result = staticmethod(logformat.dump_result)
    canonical_lines = staticmethod(logformat.canonical_lines)

    def log_schema_part(self) -> dict:
        return read_schema_file("engine.bfe")

    # replay: a game set up as the log says, and what its verdict needs
    setup_illegality = staticmethod(verdicts.setup_illegality)
    end_as_claimed = staticmethod(verdicts.end_as_claimed)
    claim_mismatches = staticmethod(verdicts.claim_mismatches)
    result_words = staticmethod(result_words)
    describe = staticmethod(describe)

    def new_game(self, log: GameLog, catalog: Catalog | None = None,
                 observers: Sequence[GameObserver] | None = None, *, trace: bool = False) -> Game:
        return verdicts.build_game(log, catalog, observers, trace=trace)

    def record_builder(self) -> RecordBuilder:
        return RecordBuilder()

    def checkpoint_check(self, log: GameLog) -> verdicts.CheckpointCheck | None:
        return verdicts.CheckpointCheck(log) if log.checkpoints else None

    def where(self, g: Game) -> tuple[int, str]:
        """Where the game is: its round and phase."""
        return g.round, g.phase.label

    def where_words(self, g: Game) -> str:
        return f"in round {g.round}, {g.phase.label} phase"

    # the board and the counts, for the viewer and the recorders
    seats = staticmethod(frames.seats)
    layout = staticmethod(frames.layout)
    frame = staticmethod(frames.frame)
    tallies = staticmethod(frames.tallies)
    tally_columns = staticmethod(frames.tally_columns)
    game_outcome = staticmethod(frames.game_outcome)
    deploys_before_seat = staticmethod(frames.deploys_before_seat)

    @staticmethod
    def concede_line(seat: int) -> str:
        return format_decision(Decision(seat, "concede"))

    # one seat's view of the game (engine.seats)
    as_seen = staticmethod(views.as_seen)
    is_private = staticmethod(views.is_private)
    is_unseen = staticmethod(views.is_unseen)

    @staticmethod
    def is_drawn(entry: Any) -> bool:
        """A card drawn by the seed, in the trace (no decision of the game's)."""
        return isinstance(entry, views.Drawn)

    @staticmethod
    def trace_observer() -> views.DrawsInTrace:
        return views.DrawsInTrace()

    # reading a log's lines (engine.reader): draws and keeps in a row come in any player order
    any_order_kinds = frozenset({Kind.CHANCE_DRAW, Kind.DRAFT_KEEP})
    answer_of = staticmethod(forced_choice)

    @staticmethod
    def seat_of(d: Decision) -> int:
        """The seat a line is about (Decision.seat, without the property: this runs for every draw and keep)."""
        return d.player if d.actor == CHANCE and d.player is not None else d.actor

    @staticmethod
    def writes_down(d: Decision, q: Decision) -> bool:
        """Whether line ``d`` writes down answer ``q``: the same, or with the card written '?'."""
        return q == d or (d.card == UNSEEN_NAME and q.card is not None and q.verb == d.verb
                          and q.actor == d.actor and q.player == d.player)

    @staticmethod
    def aims(d: Decision, pend: DecisionPoint) -> bool:
        """Whether ``d`` is written as an answer to ``pend``: the same player, a fitting verb, and for
        a choice the same kind of thing chosen (a card, a position, a battlefield)."""
        if d.seat != pend.seat or d.verb not in pend.kind.verbs:
            return False
        if d.verb != "choose":
            return True
        if pend.kind in _CARD_KINDS:
            return d.card is not None
        return d.card is None

    @staticmethod
    def verbs_like(d: Decision) -> frozenset[str]:
        """Verbs of answers to the same kind of point as ``d`` (a pass and a deploy, say)."""
        for kind in Kind:
            if d.verb in kind.verbs:
                return kind.verbs
        return frozenset({d.verb})

    @staticmethod
    def found_nothing(d: Decision) -> bool:
        """A default answer that found nothing (a choice among cards nobody saw)."""
        return d.verb == NOTHING

    bots = tuple(BOTS)  # the bots self_play knows, by name

    def self_play(self, seed: int, *, bot: str = "random", players: int = 2, checkpoints: bool = False,
                  factions: list[str] | None = None, meta: dict | None = None, catalog: str | None = None) -> dict:
        """One seeded game played by bots (``bot``: a name in ``bots``; ``factions``: each seat's
        deck, else drawn from the seed) under ``catalog`` (the newest when None), its log as a
        JSON-ready dict with ``meta`` as its meta."""
        return self_play(seed, decks=factions, bot=bot, players=players, checkpoints=checkpoints, meta=meta,
                         catalog=catalog or DEFAULT_VERSION)

    @staticmethod
    def faction_choices(catalog: str | None = None) -> list[str]:
        """Every premade deck of the catalog (the newest when None)."""
        return sorted(load_catalog(catalog or DEFAULT_VERSION).decks)

    @staticmethod
    def catalog_versions() -> list[str]:
        return available_versions()

    @staticmethod
    def catalog_data(version: str) -> dict:
        """A catalog version as data (engine.bfe.catalog.catalog_data); KeyError if there is none."""
        return catalog_data(load_catalog(version))

    @staticmethod
    def check_catalog(path: str, version: str) -> str:
        """An organiser's deck file, battlefields file or catalog folder checked (engine.bfe.catalog.check_path),
        a deck or a battlefield against catalog ``version``."""
        return check_path(Path(path), load_catalog(version))

    misclaimed_result = staticmethod(another_winner)

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
                        g.winner == seat) for seat in range(1, g.n + 1)), g.conceded_by)


RULES = BfeRules()
