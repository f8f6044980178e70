"""Elysian Battlefields behind the game interface (engine.games): its description, declared once
here, and its rules object ``RULES``. The rules themselves: docs/elysian-rules.md."""

from __future__ import annotations

from typing import Any

from ..games import GameInfo, Outcome, OutcomeKind, SeatOutcome, another_first
from ..log import GameLog, LogFormatError
from ..turn_rules import TurnRules
from . import catalog as catalog_module
from . import logformat, views
from .bots import BOTS, KEY, self_play
from .catalog import DEFAULT_VERSION, load
from .game import End, State
from .lines import Kind, Line, format_line, parse_line
from .record import RecordBuilder

GAME_INFO = GameInfo(
    key=KEY,
    name="Elysian Battlefields",
    min_players=2,
    max_players=5,  # five heroes (choice C5)
    chance_kinds=frozenset({"rolls", "tile", "dice"}),
    any_order=frozenset(),  # players act one at a time
    owner_only=frozenset(),  # a card drawn is never written; its face is seen when it is played
    outcome=OutcomeKind.RANKS,
    faction="hero",
)


class ElysianRules(TurnRules):
    package = "engine.elysian"
    kinds = Kind
    catalog = catalog_module
    info = GAME_INFO
    bots = tuple(BOTS)

    # the log
    line_problems = staticmethod(logformat.line_problems)
    read_log_parts = staticmethod(logformat.read_log_parts)
    dump_setup = staticmethod(logformat.dump_setup)
    dump_result = staticmethod(logformat.dump_result)

    @staticmethod
    def parse_line(text: str) -> Line:
        return parse_line(text)

    @staticmethod
    def format_line(d: Line) -> str:
        return format_line(d)

    # replay and the verdict
    def new_game(self, log: GameLog, catalog: Any = None, observers: Any = None, *, trace: bool = False) -> State:
        try:
            cat = catalog if catalog is not None else load(log.catalog)
        except KeyError as e:
            raise LogFormatError([{"path": "/catalog", "message": str(e.args[0])}]) from None
        seed = log.chance.seed if log.chance.type == "seeded" else None
        return State.new(cat, log.setup.players, seed, trace=trace, observers=observers)

    def record_builder(self) -> RecordBuilder:
        return RecordBuilder()

    def end_as_claimed(self, log: GameLog, g: State) -> None:
        if log.result is not None and log.result.reason == End.TIME and not g.over:
            g.call_time()

    def claim_mismatches(self, log: GameLog, g: State, names: list[str], check: Any) -> list[dict]:
        r = log.result
        if r is None:
            return []
        out = []
        if list(r.ranks) != g.ranks():
            out.append({"path": "/result/ranks", "message": f"the log claims the ranks {list(r.ranks)}, but by the "
                        f"rules they are {g.ranks()} ({_how(g)})"})
        if r.reason is not None and r.reason != g.end:
            out.append({"path": "/result/reason", "message": f"the log says the game ended by {r.reason!r}, but by "
                        f"the rules it ended by {g.end!r}" if g.end else
                        f"the log says the game ended by {r.reason!r}, but it has not ended"})
        return out

    def result_words(self, g: State, names: list[str]) -> str:
        who = f"{names[g.winner - 1]} wins" if g.winner else "no single winner"
        return f"{who} ({_how(g)}) after {g.round} round(s); ranks {g.ranks()}"

    describe = staticmethod(views.describe)

    def where(self, g: State) -> tuple[int, str]:
        return g.round, g.phase

    def where_words(self, g: State) -> str:
        return f"in round {g.round}, {g.phase}" + (f" (P{g.current}'s turn)" if g.current else "")

    def outcome(self, g: State) -> Outcome | None:
        if not g.over or g.end is None:
            return None
        ranks = g.ranks()
        return Outcome(g.end, tuple(SeatOutcome(s, ranks[s - 1], g.player(s).conquest, g.winner == s)
                                    for s in range(1, g.n + 1)), g.conceded_by)

    def factions(self, log: GameLog) -> list[str]:
        return logformat.heroes(log.decisions, log.setup.players)

    # reading lines (engine.reader)
    @staticmethod
    def writes_down(d: Line, q: Line) -> bool:
        return d == q

    # the board and counts
    @staticmethod
    def seats(log: GameLog) -> list[dict]:
        names = log.meta.get("players")
        heroes = logformat.heroes(log.decisions, log.setup.players)
        return [{"seat": s, "hero": heroes[s - 1], "name": names[s - 1] if names and s <= len(names) else None}
                for s in range(1, log.setup.players + 1)]

    layout = staticmethod(views.layout)
    frame = staticmethod(views.frame)
    tallies = staticmethod(views.tallies)
    tally_columns = staticmethod(views.tally_columns)

    @staticmethod
    def game_outcome(g: State) -> dict | None:
        return {"end": g.end, "winner": g.winner, "ranks": g.ranks(), "rounds": g.round} if g.over else None

    # self-play
    def self_play(self, seed: int, *, bot: str = "random", players: int = 2, checkpoints: bool = False,
                  factions: list[str] | None = None, meta: dict | None = None, catalog: str | None = None) -> dict:
        return self_play(seed, bot=bot, players=players, factions=factions, meta=meta,
                         catalog=catalog or DEFAULT_VERSION)

    @staticmethod
    def faction_choices(catalog: str | None = None) -> list[str]:
        return list(load(catalog or DEFAULT_VERSION).heroes)

    misclaimed_result = staticmethod(another_first)


def _how(g: State) -> str:
    return g.end.words if g.end is not None else "in progress"


RULES = ElysianRules()
