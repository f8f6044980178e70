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
from typing import Any

from .games import CHANCE, Outcome, rules_for
from .log import GameLog, LogFormatError, decisions_of, parse_log
from .reader import Reading, Way, read_lines
from .words import decision_words, seat_names

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
    record: Any = None  # the game's record (engine.bfe.record.GameRecord …), when one was asked for
    log: GameLog | None = None
    game: Any = None  # the game's state at the end of the reading, when kept
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


def _alternatives(rules: Any, g: Any) -> list[str]:
    return [rules.format_line(d) for d in islice(g.legal_decisions(), MAX_ALTERNATIVES)]


def replay(source: Any, *, record: bool = True, catalog: Any = None,
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


class _Attempt:
    """One reading of a log: a fresh game each time it is asked, with the record builder (when a
    record is wanted) and the game's check of the log's checkpoints watching it."""

    def __init__(self, log: GameLog, rules: Any, catalog: Any, want_record: bool) -> None:
        self.log = log
        self.rules = rules
        self.catalog = catalog
        self.want_record = want_record
        self.builder: Any = None
        self.check: Any = None
        self.way = Way()
        self.reading: Reading | None = None

    def new_game(self) -> Any:
        rules = self.rules
        self.builder = rules.record_builder() if self.want_record else None
        self.check = rules.checkpoint_check(self.log)
        observers = [o for o in (self.builder, self.check) if o is not None]
        return rules.new_game(self.log, self.catalog, observers)


def _replay(source: Any, want_record: bool, catalog: Any, keep_game: bool) -> ReplayResult:
    try:
        log = source if isinstance(source, GameLog) else parse_log(source)
    except LogFormatError as e:
        return malformed(e.errors)
    rules = rules_for(log.game)
    attempt = _Attempt(log, rules, catalog, want_record)
    try:
        g = attempt.new_game()
    except LogFormatError as e:
        return malformed(e.errors)
    bad_setup = rules.setup_illegality(log, g)
    if bad_setup is not None:  # no decision is at fault, so the verdict has no decision index
        return _result(log, g, attempt, keep_game, Verdict(VerdictStatus.ILLEGAL, index=None, board=None, **bad_setup))

    lines = decisions_of(log)
    g, reading = read_lines(attempt.new_game, lines, rules, first=g)
    attempt.way = reading.way
    attempt.reading = reading
    if reading.failure is not None:
        f = reading.failure
        pt = _point(rules, g)
        rule = f.reason
        if f.forced is not None and (g.pending is None or f.forced.seat != g.pending.seat or
                                     g.pending.kind.verbs.isdisjoint({lines[f.index].verb})):
            rule = (f"player {f.forced.seat} had only one legal answer there, '{rules.format_line(f.forced)}', "
                    f"which may be left out or written, but not otherwise ({f.reason})")
        verdict = Verdict(
            VerdictStatus.ILLEGAL, f"{decision_words(f.index)} ({log.decisions[f.index]!r}) {rules.where_words(g)} "
            f"is not allowed: {rule}", index=f.index, decision=log.decisions[f.index], rule=rule,
            legal=_alternatives(rules, g), board=rules.describe(g), **pt)
        return _result(log, g, attempt, keep_game, verdict)

    rules.end_as_claimed(log, g)
    if not g.over:
        pt = _point(rules, g)
        pend = g.pending
        assert pend is not None  # a game that is not over is waiting for a decision
        who = "chance" if pend.player == CHANCE else f"player {pend.player}"
        rule = f"the log ends before the game is over: {who} still had to decide ({pend.kind.value}: {pend.prompt})"
        return _result(log, g, attempt, keep_game, Verdict(
            VerdictStatus.ILLEGAL, rule, index=len(log.decisions), decision=None, rule=rule,
            legal=_alternatives(rules, g), board=rules.describe(g), **pt))

    names = seat_names(log.meta, g.n)
    mismatches = rules.claim_mismatches(log, g, names, attempt.check)
    where = _point(rules, g)
    del where["player"]
    if mismatches:
        verdict = Verdict(VerdictStatus.MISMATCH, "the decisions are legal but the log's claims disagree with the "
                          "rules: " + mismatches[0]["message"], errors=mismatches, **where)
    else:
        verdict = Verdict(VerdictStatus.VALID, rules.result_words(g, names) + _unseen_words(g), **where)
    return _result(log, g, attempt, keep_game, verdict)


def _point(rules: Any, g: Any) -> dict:
    """Where the game is, for a verdict: round (or turn), phase and the player to decide."""
    rnd, phase = rules.where(g)
    pend = g.pending
    return {"round": rnd, "phase": phase, "player": pend.player if pend else None}


def _unseen_words(g: Any) -> str:
    """"; 14 of P2's cards were not seen, and every card P2 showed was possible" (or nothing)."""
    unseen = [(p + 1, n) for p, n in enumerate(g.unseen()) if n]
    if not unseen:
        return ""
    counts = " and ".join(f"{n} of P{p}'s" for p, n in unseen)
    who = f"P{unseen[0][0]}" if len(unseen) == 1 else "they"
    return f"; {counts} cards were not seen, and every card {who} showed was possible"


def _result(log: GameLog, g: Any, attempt: _Attempt, keep_game: bool, verdict: Verdict) -> ReplayResult:
    verdict.unseen = g.unseen()
    builder = attempt.builder
    rec = builder.record if builder else None
    if rec is not None:
        rec.decisions = len(log.decisions)
        rec.unseen = verdict.unseen
    return ReplayResult(verdict, rec, log, g if keep_game else None, attempt.way, attempt.reading,
                        attempt.rules.outcome(g))
