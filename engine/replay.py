"""replay(log): feed a game log's decisions through the rules and say whether it was legal.

Parsing (engine.log) is separate from replay; replay only sees a GameLog. Consumers (observers of
the Game) are passed in, so verification alone builds no statistics. ``replay`` never raises: any
input gives a ReplayResult whose verdict is valid, illegal, mismatch or malformed (and, should the
engine itself fail, ``error`` — a bug of ours, reported as such rather than hidden).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from itertools import islice
from typing import Any, Callable, Iterable

from .catalog import Catalog, available_versions, load_catalog
from .decisions import CHANCE, format_decision, parse_decision
from .game import Game
from .log import GameLog, LogFormatError, parse_log
from .record import GameRecord, RecordBuilder

ENGINE_VERSION = "1.0.0"
MAX_ALTERNATIVES = 24


@dataclass
class Verdict:
    status: str  # valid | illegal | mismatch | malformed | error
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

    @property
    def ok(self) -> bool:
        return self.status == "valid"

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ReplayResult:
    verdict: Verdict
    record: GameRecord | None = None
    log: GameLog | None = None
    game: Game | None = None


def _malformed(errors: list[dict]) -> ReplayResult:
    first = errors[0] if errors else {"path": "", "message": "malformed log"}
    where = f" at {first['path']}" if first["path"] else ""
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    return ReplayResult(Verdict("malformed", f"the log is malformed{where}: {first['message']}{more}",
                                errors=errors))


def build_game(log: GameLog, catalog: Catalog | None = None, observers: list | None = None) -> Game:
    """A Game set up as the log says; raises LogFormatError naming the field at fault."""
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
    return Game(catalog, decks, bfs, seed=seed, first_player=first, deck_names=names, observers=observers)


def _point(g: Game) -> dict:
    pend = g.pending
    return {"round": g.round, "phase": g.phase.label, "player": pend.player if pend else None}


def _alternatives(g: Game) -> list[str]:
    return [format_decision(d) for d in islice(g.legal_decisions(), MAX_ALTERNATIVES)]


def replay(source: Any, *, consumers: Iterable[Callable] = (), record: bool = True,
           catalog: Catalog | None = None, keep_game: bool = False) -> ReplayResult:
    """Replay a log (bytes, JSON text, a decoded dict, or a GameLog). Never raises."""
    try:
        return _replay(source, list(consumers), record, catalog, keep_game)
    except Exception as exc:  # an engine bug: say so plainly instead of crashing the caller
        return ReplayResult(Verdict("error", f"internal engine error ({type(exc).__name__}: {exc}); "
                                    "this is a bug in the engine, not in the log"))


def _replay(source, consumers, want_record, catalog, keep_game) -> ReplayResult:
    try:
        log = source if isinstance(source, GameLog) else parse_log(source)
    except LogFormatError as e:
        return _malformed(e.errors)
    builder = RecordBuilder() if want_record else None
    observers = ([builder] if builder else []) + consumers
    mismatches: list[dict] = []
    checkpoints = {c.round: c for c in log.checkpoints}

    def check_round(event: str, g: Game, *args) -> None:
        if event == "round_end" and g.round in checkpoints:
            got = g.might_table()
            want = [list(r) for r in checkpoints[g.round].might]
            if got != want:
                mismatches.append({"path": f"/checkpoints/{list(checkpoints).index(g.round)}",
                                   "message": f"after round {g.round} the log says might per battlefield "
                                   f"{want} but the rules give {got}"})

    if checkpoints:
        observers.append(check_round)
    try:
        g = build_game(log, catalog, observers)
    except LogFormatError as e:
        return _malformed(e.errors)
    if log.chance.type == "seeded" and log.setup.first_player and log.setup.first_player != g.first:
        return _result(log, g, builder, keep_game, Verdict(
            "illegal", f"the log says player {log.setup.first_player} goes first, but seed "
            f"{log.chance.seed} gives player {g.first}", index=None, round=0, phase="setup", player=CHANCE,
            rule="in seeded chance the first player is drawn from the seed", board=None))

    for i, text in enumerate(log.decisions):
        d = parse_decision(text)
        reason = g.play(d)
        if reason is not None:
            pt = _point(g)
            verdict = Verdict(
                "illegal", f"decision {i} ({text!r}) in round {pt['round']}, {pt['phase']} phase is "
                f"not allowed: {reason}", index=i, decision=text, rule=reason,
                legal=_alternatives(g), board=g.describe(), **pt)
            return _result(log, g, builder, keep_game, verdict)

    if not g.over:
        pt = _point(g)
        pend = g.pending
        assert pend is not None  # a game that is not over is waiting for a decision
        who = "chance" if pend.player == CHANCE else f"player {pend.player}"
        rule = f"the log ends before the game is over: {who} still had to decide ({pend.kind.value}: {pend.prompt})"
        return _result(log, g, builder, keep_game, Verdict(
            "illegal", rule, index=len(log.decisions), decision=None, rule=rule,
            legal=_alternatives(g), board=g.describe(), **pt))

    if log.result is not None:
        if log.result.winner != g.winner:
            said = f"player {log.result.winner} won" if log.result.winner else "a draw"
            real = f"player {g.winner} wins" if g.winner else "it is a draw"
            mismatches.append({"path": "/result/winner", "message": f"the log claims {said}, but by the rules {real} "
                               f"(might per battlefield {g.final_might})"})
        if log.result.might is not None and [list(r) for r in log.result.might] != g.final_might:
            mismatches.append({"path": "/result/might", "message": f"the log claims final might "
                               f"{[list(r) for r in log.result.might]}, but the rules give {g.final_might}"})
    if mismatches:
        verdict = Verdict("mismatch", "the decisions are legal but the log's claims disagree with the rules: "
                          + mismatches[0]["message"], errors=mismatches, round=g.round, phase=g.phase.label)
    else:
        won = f"player {g.winner} wins" if g.winner else "a draw"
        verdict = Verdict("valid", f"valid: {won}; might per battlefield {g.final_might}",
                          round=g.round, phase=g.phase.label)
    return _result(log, g, builder, keep_game, verdict)


def _result(log, g, builder, keep_game, verdict) -> ReplayResult:
    rec = builder.record if builder else None
    if rec is not None:
        rec.decisions = len(log.decisions)
    return ReplayResult(verdict, rec, log, g if keep_game else None)
