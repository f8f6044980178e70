"""Empyreal: Spells & Steam behind the game interface (engine.games): its description, declared once
here, and its rules object ``RULES``. The rules themselves: docs/steam-rules.md."""

from __future__ import annotations

from typing import Any

from ..games import GameInfo, Outcome, OutcomeKind, SeatOutcome, another_first
from ..log import GameLog, LogFormatError
from ..turn_rules import TurnRules
from . import catalog as catalog_module
from . import logformat, views
from .bots import BOTS, KEY, new_state, self_play
from .catalog import DEFAULT_VERSION, load
from .game import End, State
from .lines import Kind, Line, format_line, parse_line
from .pieces import MAX_PLAYERS, MIN_PLAYERS
from .record import RecordBuilder
from .scoring import score_sheet

GAME_INFO = GameInfo(
    key=KEY,
    name="Empyreal: Spells & Steam",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    chance_kinds=frozenset({"start", "award", "market", "stack"}),
    any_order=frozenset(),  # companies act one at a time; a late specialist pick is read wherever it is legal
    owner_only=frozenset(),  # a pick from a stack is named when made, face up on the folio
    outcome=OutcomeKind.RANKS,
    faction="company",
    teams=True,
)


class SteamRules(TurnRules):
    package = "engine.steam"
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
        s = log.setup
        if s.map not in cat.layouts.get(s.players, {}):
            maps = ", ".join(sorted(cat.layouts.get(s.players, {})))
            raise LogFormatError([{"path": "/setup/map", "message": f"a {s.players}-player game is played on map "
                                   f"{maps}, not {s.map}"}])
        seed = log.chance.seed if log.chance.type == "seeded" else None
        return new_state(cat, s, seed, trace=trace, observers=observers)

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
                        f"rules they are {g.ranks()} ({score_words(g)})"})
        sheet = score_sheet(g)
        if r.scores is not None and list(r.scores) != [s.total for s in sheet.seats]:
            out.append({"path": "/result/scores", "message": f"the log claims the scores {list(r.scores)}, but by "
                        f"the rules they are: {score_words(g)}"})
        if r.reason is not None and r.reason != g.end:
            out.append({"path": "/result/reason", "message": f"the log says the game ended by {r.reason!r}, but by "
                        f"the rules it ended by {g.end!r}" if g.end else
                        f"the log says the game ended by {r.reason!r}, but it has not ended"})
        return out

    def result_words(self, g: State, names: list[str]) -> str:
        who = f"{names[g.winner - 1]} wins" if g.winner else "no single winner"
        how = g.end.words if g.end else "in progress"
        return f"{who} ({how}) after {g.round} round(s); ranks {g.ranks()}; {score_words(g)}"

    describe = staticmethod(views.describe)

    def where(self, g: State) -> tuple[int, str]:
        return g.round, g.phase

    def where_words(self, g: State) -> str:
        return f"in round {g.round}, {g.phase}" + (f" (P{g.current}'s turn)" if g.current else "")

    def outcome(self, g: State) -> Outcome | None:
        if not g.over or g.end is None:
            return None
        ranks = g.ranks()
        sheet = score_sheet(g)
        return Outcome(str(g.end), tuple(SeatOutcome(s, ranks[s - 1], sheet.seats[s - 1].total, ranks[s - 1] == 1,
                                                     g.team_of(s)) for s in range(1, g.n + 1)), g.conceded_by)

    def factions(self, log: GameLog) -> list[str]:
        return logformat.companies(log.decisions, log.setup.players)

    # reading lines (engine.reader)
    @staticmethod
    def writes_down(d: Line, q: Line) -> bool:
        return d == q

    # the board and counts
    @staticmethod
    def seats(log: GameLog) -> list[dict]:
        names = log.meta.get("players")
        companies = logformat.companies(log.decisions, log.setup.players)
        teams = log.setup.teams
        try:
            known = load(log.catalog).companies
        except KeyError:
            known = {}
        return [{"seat": s, "company": companies[s - 1],
                 "company_name": known[companies[s - 1]].name if companies[s - 1] in known else None,
                 "name": names[s - 1] if names and s <= len(names) else None,
                 "team": next((i + 1 for i, t in enumerate(teams) if s in t), None)}
                for s in range(1, log.setup.players + 1)]

    layout = staticmethod(views.layout)
    frame = staticmethod(views.frame)
    tallies = staticmethod(views.tallies)
    tally_columns = staticmethod(views.tally_columns)

    @staticmethod
    def game_outcome(g: State) -> dict | None:
        if not g.over:
            return None
        sheet = score_sheet(g)
        return {"end": str(g.end), "winner": g.winner, "ranks": g.ranks(), "rounds": g.round,
                "scores": [{"seat": s.seat, "goods": s.goods, "demand": s.demand, "awards": s.awards,
                            "total": s.total} for s in sheet.seats], "teams": sheet.teams or None}

    # self-play
    def self_play(self, seed: int, *, bot: str = "random", players: int = 2, checkpoints: bool = False,
                  factions: list[str] | None = None, meta: dict | None = None, catalog: str | None = None) -> dict:
        return self_play(seed, bot=bot, players=players, factions=factions, meta=meta,
                         catalog=catalog or DEFAULT_VERSION)

    @staticmethod
    def faction_choices(catalog: str | None = None) -> list[str]:
        return list(load(catalog or DEFAULT_VERSION).companies)

    misclaimed_result = staticmethod(another_first)


def score_words(g: State) -> str:
    """Each company's score by its parts: "P1 31 (goods 18, demand 9, awards 4), P2 …"."""
    sheet = score_sheet(g)
    out = ", ".join(f"P{s.seat} {s.total} (goods {s.goods}, demand tiles {s.demand}, awards {s.awards})"
                    for s in sheet.seats)
    if sheet.teams:
        out += "; teams " + ", ".join(f"{i + 1}: {t} (colour bonus {b})" for i, (t, b) in
                                      enumerate(zip(sheet.teams, sheet.bonus)))
    return out


RULES = SteamRules()
