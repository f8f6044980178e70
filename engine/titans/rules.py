"""Titans of Empyrean behind the game interface (engine.games): its description, declared once
here, and its rules object ``RULES``. The rules themselves: docs/titans-rules.md."""

from __future__ import annotations

from typing import Any

from ..games import GameInfo, Outcome, OutcomeKind, SeatOutcome, another_winner
from ..log import GameLog, LogFormatError
from ..turn_rules import TurnRules
from . import catalog as catalog_module
from . import logformat, views
from .bots import BOTS, KEY, self_play
from .catalog import DEFAULT_VERSION, load
from .game import End, State
from .lines import Kind, Line, format_line, is_face_down_burn, parse_line, unseen_form
from .record import RecordBuilder

GAME_INFO = GameInfo(
    key=KEY,
    name="Titans of Empyrean",
    min_players=2,
    max_players=2,
    chance_kinds=frozenset({"hazard"}),  # the deal is never written; a hazard token is named when flipped
    any_order=frozenset(),  # titans act one at a time
    owner_only=frozenset({"burn", "burn-turn", "resolve"}),  # a stack card burned face down: its owner may name it
    outcome=OutcomeKind.WINNER,
    faction="species",
)


class TitansRules(TurnRules):
    package = "engine.titans"
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
        squads = [logformat.squad_of(cat, q, i) for i, q in enumerate(log.setup.squads)]
        hexes = logformat.hazard_hexes(cat, log.setup.hazards)
        seed = log.chance.seed if log.chance.type == "seeded" else None
        return State.new(cat, squads, hexes, seed, trace=trace, observers=observers, view=log.chance.view)

    def record_builder(self) -> RecordBuilder:
        return RecordBuilder()

    def end_as_claimed(self, log: GameLog, g: State) -> None:
        if log.result is not None and log.result.reason == End.TIME and not g.over:
            g.decide_by_cards(End.TIME)  # choice C17

    def claim_mismatches(self, log: GameLog, g: State, names: list[str], check: Any) -> list[dict]:
        r = log.result
        if r is None:
            return []
        out = []
        if r.winner != g.winner:
            out.append({"path": "/result/winner", "message": f"the log claims {_said(r.winner, names)}, but by the "
                        f"rules {_said(g.winner, names)} ({_how(g)})"})
        if r.reason is not None and r.reason != g.end:
            out.append({"path": "/result/reason", "message": f"the log says the game ended by {r.reason!r}, but by "
                        f"the rules it ended by {g.end!r}"})
        return out

    def result_words(self, g: State, names: list[str]) -> str:
        return f"{_said(g.winner, names)} ({_how(g)}) after {g.round} round(s)"

    describe = staticmethod(views.describe)

    def where(self, g: State) -> tuple[int, str]:
        return g.round, g.phase

    def where_words(self, g: State) -> str:
        return f"in round {g.round}, {g.phase} phase"

    def outcome(self, g: State) -> Outcome | None:
        if not g.over or g.end is None:
            return None
        return Outcome(g.end, tuple(SeatOutcome(s, 1 if g.winner in (None, s) else 2,
                                                sum(t.alive for t in g.titans if t.player == s), g.winner == s)
                                    for s in (1, 2)), g.conceded_by)

    def factions(self, log: GameLog) -> list[str]:
        return [q.species for q in log.setup.squads]

    # reading lines (engine.reader)
    @staticmethod
    def writes_down(d: Line, q: Line) -> bool:
        return d == q or (is_face_down_burn(d) and d.card is None and unseen_form(q) == d)

    # the board and counts
    @staticmethod
    def seats(log: GameLog) -> list[dict]:
        names = log.meta.get("players")
        return [{"seat": s, "species": q.species, "ally": q.ally,
                 "name": names[s - 1] if names and s <= len(names) else None}
                for s, q in enumerate(log.setup.squads, 1)]

    layout = staticmethod(views.layout)
    frame = staticmethod(views.frame)
    tallies = staticmethod(views.tallies)
    tally_columns = staticmethod(views.tally_columns)

    @staticmethod
    def game_outcome(g: State) -> dict | None:
        return {"end": g.end, "winner": g.winner, "rounds": g.round} if g.over else None

    # seat views (engine.seats): a card burned face down from a stack is '?' to the other seat
    @staticmethod
    def as_seen(entry: Any, hidden: bool, omit: bool, catalog: Any) -> Line:
        d = entry.decision
        return unseen_form(d) if hidden and is_face_down_burn(d) else d

    @staticmethod
    def is_private(entry: Any) -> bool:
        return is_face_down_burn(entry.decision)

    @staticmethod
    def is_unseen(d: Line) -> bool:
        return is_face_down_burn(d) and d.card is None

    # self-play
    def self_play(self, seed: int, *, bot: str = "random", players: int = 2, checkpoints: bool = False,
                  factions: list[str] | None = None, meta: dict | None = None, catalog: str | None = None) -> dict:
        return self_play(seed, bot=bot, players=players, factions=factions, meta=meta,
                         catalog=catalog or DEFAULT_VERSION)

    @staticmethod
    def faction_choices(catalog: str | None = None) -> list[str]:
        return list(load(catalog or DEFAULT_VERSION).species)

    misclaimed_result = staticmethod(another_winner)


def _said(winner: int | None, names: list[str]) -> str:
    return f"{names[winner - 1]} wins" if winner else "a draw"


def _how(g: State) -> str:
    return g.end.words if g.end is not None else "in progress"


RULES = TitansRules()
