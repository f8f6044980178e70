"""position(log): the game at the point after a log's last line — who decides, what is legal, the
tally — for recorders (the positions API, ``empyrean record``). Never raises, like ``replay``.

A log is usually unfinished. It is replayed once (engine.replay, no record); if the only thing
wrong with it is that it ends before the game is over, the game is **in progress** at the decision
point the replay stopped at, and the position says who decides there (a player, or ``"C"`` for a
chance draw), every legal answer as a log line, and the board and tally. Any other verdict (valid,
illegal at some decision, mismatch, malformed, error) is the position's status, with the verdict's
usual details; the board and tally are still given when a game could be set up.

Where the replay stops, as the reader reads logs (engine.reader):

* points with one legal answer are taken by the engine itself: never asked, listed in ``forced``;
* points a log may leave out (``DecisionPoint.default``) are taken with their default after the
  last line: in one seat's view (``"view": n``) the other players' draws, keeps and unseen discards
  ("C draw P2 ?"); a choice among unseen cards that may have found nothing ("P2 choose nothing").
  They are in ``forced`` too, and each in ``left_out`` with the answers a log may write there
  instead (a discard that showed itself, named): writing one of those is legal next as well;
* a chance draw (recorded chance) lists every card the deck can still give, then "C draw P1 ?"
  (always allowed: a card the writer did not see). In seeded chance there are no chance points.

In one seat's view, a deploy by another player is made face down: this seat learns its card only at
the reveal. When such a deploy is pending and the seat's own deploy turn comes later in the round
(another player holds the first player token), ``deploys_before_seat`` names the players who deploy
from now until the seat, in order: a recorder lets the seat enter its own deploys first and writes
them after those players' (docs/dashboards.md, "The recorder"; ``empyrean record``).

Every line listed (``legal``, ``left_out``'s and ``concede``) may be written next; the only other
lines that may are the ``forced`` answers written out, as a log may write them (docs/log-format.md,
"What may come next: recorders").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any

from .games import CHANCE, DEFAULT_GAME, rules_for
from .log import GameLog, LogFormatError, parse_log
from .reader import Reading
from .replay import ReplayResult, Verdict, VerdictStatus, engine_error, malformed, replay

IN_PROGRESS = "in progress"  # the status of a position whose game goes on (else: the verdict's status)


@dataclass(frozen=True)
class LeftOutPoint:
    """A point after the last line that the log may leave out: its default was taken (and is in
    ``forced``); ``legal`` are the lines a log may write there instead."""

    to_decide: int | str
    kind: str
    prompt: str
    default: str
    legal: list[str]


@dataclass(frozen=True)
class Pending:
    """The decision point the game waits at."""

    to_decide: int | str  # the player (1..3), or "C" for chance
    kind: str  # engine.bfe.decisions.Kind's value, e.g. "deploy or pass", "chance: card drawn"
    prompt: str
    legal: list[str]  # every legal answer, as log lines, in the engine's order


@dataclass
class Position:
    verdict: Verdict | None  # None while the game is in progress
    decisions: int = 0  # how many lines of the log were read
    round: int | None = None
    phase: str | None = None
    pending: Pending | None = None
    forced: list[str] = field(default_factory=list)
    left_out: list[LeftOutPoint] = field(default_factory=list)
    # "Pn concede" for each player: legal at every point of a game in progress, whoever decides
    # (docs/log-format.md, "Concession"); kept apart from ``legal``, the answers to the point
    concede: list[str] = field(default_factory=list)
    # a seat view at another player's face-down deploy, the seat's own turn to come this round: the
    # players who deploy before the seat, the pending one first (else empty)
    deploys_before_seat: list[int] = field(default_factory=list)
    tallies: list[Any] = field(default_factory=list)  # each seat's running counts (the game's Tally)
    # the game's tallies by kind, one list per count, seat by seat (BfE: essence, might, totals …);
    # empty lists when no game could be set up (of the log's game, else the default game's)
    columns: dict[str, list] = field(default_factory=lambda: _no_columns(DEFAULT_GAME))
    outcome: Any = None  # how the finished game came out (the game's Outcome)
    board: dict[str, Any] | None = None  # the game's frame of the board, as the replay viewer draws it
    # the board's layout (the game's ``layout``: BfE's battlefields, Titans' hexes), so that a recorder
    # draws the board of the catalog version the log names
    layout: list[Any] | None = None

    @property
    def in_progress(self) -> bool:
        return self.verdict is None

    @property
    def status(self) -> str:
        return IN_PROGRESS if self.verdict is None else self.verdict.status.value

    @property
    def legal(self) -> list[str]:
        return self.pending.legal if self.pending is not None else []

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, status first."""
        pend = self.pending
        return {
            "status": self.status,
            "verdict": self.verdict.to_dict() if self.verdict is not None else None,
            "decisions": self.decisions,
            "round": self.round,
            "phase": self.phase,
            "to_decide": pend.to_decide if pend else None,
            "kind": pend.kind if pend else None,
            "prompt": pend.prompt if pend else None,
            "legal": list(self.legal),
            "forced": list(self.forced),
            "left_out": [asdict(p) for p in self.left_out],
            "concede": list(self.concede),
            "deploys_before_seat": list(self.deploys_before_seat),
            **self.columns,
            "players": [_plain(t) for t in self.tallies],
            "outcome": _plain(self.outcome),
            "board": self.board,
            "layout": self.layout,
        }


def position(source: Any, *, catalog: Any = None) -> Position:
    """The position after the last line of a log (bytes, JSON text, a decoded dict, or a GameLog).
    ``catalog``: judge under this catalog instead of the one the log names. Never raises."""
    try:
        log = source if isinstance(source, GameLog) else parse_log(source)
    except LogFormatError as e:
        return Position(malformed(e.errors).verdict)
    except Exception as exc:  # an engine bug: said plainly, as replay does
        return Position(engine_error(exc))
    try:
        return _position(log, replay(log, record=False, catalog=catalog, keep_game=True))
    except Exception as exc:
        return Position(engine_error(exc), decisions=len(log.decisions))


def malformed_position(errors: list[dict]) -> Position:
    """The position of a log that does not read, from the errors parse_log raised (for a caller
    that has parsed already)."""
    return Position(malformed(errors).verdict)


def _no_columns(game: str) -> dict[str, list]:
    return rules_for(game).tally_columns([])  # type: ignore[no-any-return]


def _plain(value: Any) -> Any:
    """A game's tally or outcome, JSON-ready (a dataclass as a dict)."""
    return asdict(value) if is_dataclass(value) and not isinstance(value, type) else value


def _who(player: int) -> int | str:
    return "C" if player == CHANCE else player


def _lines(rules: Any, decisions: Any) -> list[str]:
    return [rules.format_line(d) for d in decisions]


def ends_early(verdict: Verdict, log: GameLog) -> bool:
    """The verdict says only that the log ends before the game is over (no line is at fault)."""
    return (verdict.status is VerdictStatus.ILLEGAL and verdict.decision is None
            and verdict.index == len(log.decisions))


def _position(log: GameLog, res: ReplayResult) -> Position:
    g = res.game
    in_progress = ends_early(res.verdict, log)
    pos = Position(None if in_progress else res.verdict, decisions=len(log.decisions),
                   columns=_no_columns(log.game))
    if g is None:
        return pos  # no game could be set up (malformed, or an engine error)
    rules = rules_for(log.game)
    pos.round, pos.phase = rules.where(g)
    pos.tallies = rules.tallies(g)
    pos.columns = rules.tally_columns(pos.tallies)
    last = len(log.decisions) - 1
    pos.board = rules.frame(g, len(log.decisions), log.decisions[last] if last >= 0 else None,
                            line=last if last >= 0 else None)
    pos.layout = rules.layout(g)
    pos.outcome = rules.game_outcome(g)
    if in_progress and g.pending is not None:
        pend = g.pending
        pos.pending = Pending(_who(pend.player), pend.kind.value, pend.prompt, _lines(rules, g.legal_decisions()))
        pos.forced, pos.left_out = _since_last_line(rules, g, res.reading)
        pos.concede = [rules.concede_line(p) for p in range(1, g.n + 1)]
        pos.deploys_before_seat = rules.deploys_before_seat(g)
    return pos


def _since_last_line(rules: Any, g: Any, reading: Reading | None) -> tuple[list[str], list[LeftOutPoint]]:
    if reading is None:
        return [], []
    forced = [rules.format_line(rules.answer_of(entry)) for entry in g.auto[reading.after_last_line:]]
    left = [LeftOutPoint(_who(p.player), p.kind.value, p.prompt, rules.format_line(p.default),
                         _lines(rules, p.answers)) for p in reading.left_out]
    return forced, left
