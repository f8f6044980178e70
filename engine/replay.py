"""replay(log): feed a game log's decisions through the rules and say whether it was legal.

Parsing (engine.log) is separate from replay; replay only sees a GameLog, and engine.reader matches
its lines to the game's decision points. The game record is built by an observer only when asked
for, so verification alone builds no statistics. ``replay`` never raises: any
input gives a ReplayResult whose verdict is valid, illegal, mismatch or malformed (and, should the
engine itself fail, ``error`` — a bug of ours, reported as such rather than hidden).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from itertools import islice
from typing import Any, Sequence

from .bfe.board import describe
from .bfe.catalog import Catalog, available_versions, load_catalog
from .bfe.decisions import CHANCE, format_decision, parse_decision
from .bfe.game import End, Game
from .bfe.observe import GameObserver
from .bfe.record import GameRecord, RecordBuilder
from .games import Outcome, rules_for
from .log import GameLog, LogFormatError, parse_log
from .reader import Reading, Way, read_lines
from .words import decision_words, in_round, might_words, result_words, seat_names

ENGINE_VERSION = "1.1.0"  # 1.1.0: choices that cannot change anything may be left out (docs/rules.md)
MAX_ALTERNATIVES = 24


class VerdictStatus(StrEnum):
    """What a replay says of a log. A ``str``: it compares equal to its value and is written as
    its value (JSON, the database's ``verdicts.status``)."""

    VALID = "valid"  # every decision legal and every claim of the log true
    ILLEGAL = "illegal"  # a decision the rules do not allow there, or the log ends too early
    MISMATCH = "mismatch"  # legal decisions, but a checkpoint or the result disagrees with the rules
    MALFORMED = "malformed"  # not a log (format, schema) or no game can be set up from it
    ERROR = "error"  # the engine itself failed: a bug of ours, not the log's


@dataclass
class Verdict:
    status: VerdictStatus
    message: str
    index: int | None = None  # index of the first illegal decision in log["decisions"]
    round: int | None = None
    phase: str | None = None
    player: int | None = None  # 0 = chance
    decision: str | None = None  # the decision as written
    rule: str | None = None  # the rule it breaks, in plain words
    legal: list[str] = field(default_factory=list)  # legal alternatives at that point
    errors: list[dict] = field(default_factory=list)  # malformed: [{path, message}]; mismatch: checks
    board: str | None = None  # the board at the failing point, for people
    unseen: list[int] = field(default_factory=list)  # per player: cards that left the deck unseen and stayed so

    def __post_init__(self) -> None:
        self.status = VerdictStatus(self.status)  # a caller may name it by its value

    @property
    def ok(self) -> bool:
        return self.status is VerdictStatus.VALID

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ReplayResult:
    verdict: Verdict
    record: GameRecord | None = None
    log: GameLog | None = None
    game: Game | None = None
    # how the reading took lines that could be read two ways (engine.reader.read_lines): a second
    # pass over the same lines this way gives the same reading
    way: Way = field(default_factory=Way)
    # the reading itself (where the last line left the game, the points left out after it), when
    # the lines were read
    reading: Reading | None = None
    outcome: Outcome | None = None  # how the game ended, seat by seat, once it is over


def malformed(errors: list[dict]) -> ReplayResult:
    """The verdict on a log that does not read, from the errors parse_log raised: what replay()
    gives it, without reading it again."""
    first = errors[0] if errors else {"path": "", "message": "malformed log"}
    where = f" at {first['path']}" if first["path"] else ""
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    return ReplayResult(Verdict(VerdictStatus.MALFORMED, f"the log is malformed{where}: {first['message']}{more}",
                                errors=errors))


def build_game(log: GameLog, catalog: Catalog | None = None,
               observers: Sequence[GameObserver] | None = None, *, trace: bool = False) -> Game:
    """A Game set up as the log says, told to ``observers``; raises LogFormatError naming the
    field at fault. ``trace``: keep every answer (Game.trace)."""
    errors = []
    if catalog is None:
        try:
            catalog = load_catalog(log.catalog)
        except KeyError:
            raise LogFormatError([{"path": "/catalog", "message": f"unknown catalog version {log.catalog!r}; "
                                   f"this engine has {', '.join(available_versions())}"}]) from None
    decks, names = [], []
    for i, ref in enumerate(log.setup.decks):
        if ref.cards is None:
            cards = catalog.decks.get(ref.name)
            if cards is None:
                errors.append({"path": f"/setup/decks/{i}", "message": f"unknown premade deck {ref.name!r}; "
                               f"catalog {catalog.version} has {', '.join(sorted(catalog.decks))}"})
                continue
            decks.append(list(cards))
        else:
            problems = catalog.deck_problems(list(ref.cards))
            if problems:
                errors.append({"path": f"/setup/decks/{i}/cards",
                               "message": f"mash-up deck {ref.name!r}: " + "; ".join(problems)})
                continue
            decks.append([catalog.cards[n] for n in ref.cards])
        names.append(ref.name)
    bfs = []
    for i, name in enumerate(log.setup.battlefields):
        bf = catalog.battlefields.get(name)
        if bf is None:
            errors.append({"path": f"/setup/battlefields/{i}", "message": f"unknown battlefield {name!r}"})
        bfs.append(bf)
    if errors:
        raise LogFormatError(errors)
    seed = log.chance.seed if log.chance.type == "seeded" else None
    first = None if seed is not None else log.setup.first_player
    return Game(catalog, decks, bfs, seed=seed, first_player=first, deck_names=names, observers=observers,
                view=log.chance.view, trace=trace)


def _point(g: Game) -> dict:
    pend = g.pending
    return {"round": g.round, "phase": g.phase.label, "player": pend.player if pend else None}


def _alternatives(g: Game) -> list[str]:
    return [format_decision(d) for d in islice(g.legal_decisions(), MAX_ALTERNATIVES)]


def replay(source: Any, *, record: bool = True, catalog: Catalog | None = None,
           keep_game: bool = False) -> ReplayResult:
    """Replay a log (bytes, JSON text, a decoded dict, or a GameLog). Never raises."""
    try:
        return _replay(source, record, catalog, keep_game)
    except Exception as exc:  # an engine bug: say so plainly instead of crashing the caller
        return ReplayResult(engine_error(exc))


def engine_error(exc: Exception) -> Verdict:
    """The verdict when the engine itself failed on a log (``exc``): a bug of ours, said plainly."""
    return Verdict(VerdictStatus.ERROR, f"internal engine error ({type(exc).__name__}: {exc}); "
                   "this is a bug in the engine, not in the log")


class _Attempt(GameObserver):
    """One reading of a log: the game, its record builder and the checkpoints it checked (as each
    round ends: it observes the game when the log has checkpoints)."""

    def __init__(self, log: GameLog, catalog: Catalog | None, want_record: bool) -> None:
        self.log = log
        self.catalog = catalog
        self.want_record = want_record
        self.builder: RecordBuilder | None = None
        self.mismatches: list[dict] = []
        self.checked: set[int] = set()
        self.checkpoints = {c.round: (i, c) for i, c in enumerate(log.checkpoints)}
        self.way = Way()
        self.reading: Reading | None = None

    def new_game(self) -> Game:
        self.builder = RecordBuilder() if self.want_record else None
        self.mismatches = []
        self.checked = set()
        observers: list[GameObserver] = [self.builder] if self.builder else []
        if self.checkpoints:
            observers.append(self)
        return build_game(self.log, self.catalog, observers)

    def on_round_end(self, g: Game) -> None:
        if g.round in self.checkpoints:
            i, cp = self.checkpoints[g.round]
            self.checked.add(g.round)
            got = g.might_table()
            want = [list(r) for r in cp.might]
            if got != want:
                self.mismatches.append({"path": f"/checkpoints/{i}", "message": f"after round {g.round} the log "
                                        f"says might per battlefield {want} but the rules give {got}"})


def _replay(source, want_record, catalog, keep_game) -> ReplayResult:
    try:
        log = source if isinstance(source, GameLog) else parse_log(source)
    except LogFormatError as e:
        return malformed(e.errors)
    attempt = _Attempt(log, catalog, want_record)
    try:
        g = attempt.new_game()
    except LogFormatError as e:
        return malformed(e.errors)
    if log.chance.type == "seeded" and log.setup.first_player and log.setup.first_player != g.first:
        # A setup-level illegality: no decision is at fault, so it has no decision index.
        return _result(log, g, attempt, keep_game, Verdict(
            VerdictStatus.ILLEGAL, f"the log says player {log.setup.first_player} goes first, but seed "
            f"{log.chance.seed} gives player {g.first}", index=None, round=0, phase="setup", player=CHANCE,
            rule="in seeded chance the first player is drawn from the seed", board=None,
            errors=[{"path": "/setup/first_player", "message": "the seed decides who goes first"}]))

    lines = [parse_decision(text) for text in log.decisions]
    g, reading = read_lines(attempt.new_game, lines, first=g)
    attempt.way = reading.way
    attempt.reading = reading
    if reading.failure is not None:
        f = reading.failure
        pt = _point(g)
        rule = f.reason
        if f.forced is not None and (g.pending is None or f.forced.seat != g.pending.seat or
                                     g.pending.kind.verbs.isdisjoint({lines[f.index].verb})):
            rule = (f"player {f.forced.seat} had only one legal answer there, '{format_decision(f.forced)}', "
                    f"which may be left out or written, but not otherwise ({f.reason})")
        verdict = Verdict(
            VerdictStatus.ILLEGAL, f"{decision_words(f.index)} ({log.decisions[f.index]!r}) in round {pt['round']}, "
            f"{pt['phase']} phase is not allowed: {rule}", index=f.index, decision=log.decisions[f.index], rule=rule,
            legal=_alternatives(g), board=describe(g), **pt)
        return _result(log, g, attempt, keep_game, verdict)

    result = log.result
    time_called = result is not None and result.reason == End.TIME.value
    if not g.over and time_called:
        assert result is not None
        g.call_time(result.time_rule or "tally")
    if not g.over:
        pt = _point(g)
        pend = g.pending
        assert pend is not None  # a game that is not over is waiting for a decision
        who = "chance" if pend.player == CHANCE else f"player {pend.player}"
        rule = f"the log ends before the game is over: {who} still had to decide ({pend.kind.value}: {pend.prompt})"
        return _result(log, g, attempt, keep_game, Verdict(
            VerdictStatus.ILLEGAL, rule, index=len(log.decisions), decision=None, rule=rule,
            legal=_alternatives(g), board=describe(g), **pt))

    names = seat_names(log.meta, g.n)
    mismatches = attempt.mismatches
    for rnd, (i, _) in attempt.checkpoints.items():
        if rnd not in attempt.checked and g.end is not End.SCORE:
            mismatches.append({"path": f"/checkpoints/{i}", "message": f"the log has a checkpoint after round {rnd}, "
                               f"but the game ended in round {g.round} ({_ended(g)})"})
    if result is not None:
        if result.reason is not None and result.reason != g.end.value:  # type: ignore[union-attr]
            mismatches.append({"path": "/result/reason", "message": f"the log says the game ended by "
                               f"{_REASONS[result.reason]}, but {_ended(g)}"})
        if result.winner != g.winner:
            said = f"{names[result.winner - 1]} (P{result.winner}) won" if result.winner else "a draw"
            mismatches.append({"path": "/result/winner", "message": f"the log claims {said}, but by the rules "
                               f"{result_words(g, names)}"})
        if result.might is not None and [list(r) for r in result.might] != g.final_might:
            bfs = [bf.name for bf in g.bfs]
            mismatches.append({"path": "/result/might", "message": "the log claims the final might "
                               + might_words(names, bfs, result.might, result.winner)
                               + ", but the rules give " + might_words(names, bfs, g.final_might, g.winner)})
    if mismatches:
        verdict = Verdict(VerdictStatus.MISMATCH, "the decisions are legal but the log's claims disagree with the "
                          "rules: " + mismatches[0]["message"], errors=mismatches, round=g.round, phase=g.phase.label)
    else:
        verdict = Verdict(VerdictStatus.VALID, result_words(g, names) + _unseen_words(g), round=g.round,
                          phase=g.phase.label)
    return _result(log, g, attempt, keep_game, verdict)


_REASONS = {"score": "the tally at the end of the game", "concession": "a concession", "time": "time being called"}


def _ended(g: Game) -> str:
    if g.end is End.CONCESSION:
        return f"P{g.conceded_by} conceded {in_round(g.round)}"
    if g.end is End.TIME:
        return f"time was called {in_round(g.round)}"
    return "it was played to the end and tallied"


def _unseen_words(g: Game) -> str:
    """"; 14 of P2's cards were not seen, and every card P2 showed was possible" (or nothing)."""
    unseen = [(p + 1, n) for p, n in enumerate(g.unseen()) if n]
    if not unseen:
        return ""
    counts = " and ".join(f"{n} of P{p}'s" for p, n in unseen)
    who = f"P{unseen[0][0]}" if len(unseen) == 1 else "they"
    return f"; {counts} cards were not seen, and every card {who} showed was possible"


def _result(log: GameLog, g: Game, attempt: _Attempt, keep_game: bool, verdict: Verdict) -> ReplayResult:
    verdict.unseen = g.unseen()
    builder = attempt.builder
    rec = builder.record if builder else None
    if rec is not None:
        rec.decisions = len(log.decisions)
        rec.unseen = verdict.unseen
    return ReplayResult(verdict, rec, log, g if keep_game else None, attempt.way, attempt.reading,
                        rules_for(log.game).outcome(g))
