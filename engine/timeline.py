"""timeline(log): the game as a list of board snapshots, one per decision, for the replay viewer.

Frame 0 is the board after setup, before the first decision; frame i+1 is the board after decision
i. Every frame is a small JSON-ready dict (names, numbers, lists), so a service can send the whole
timeline to a browser as it is.

The verdict is engine.replay's own (the log is replayed once by ``replay`` for it): this module
only steps a second Game through the same reading of the lines (engine.reader, with the re-readings
replay settled on) to take the snapshots, so the verdict logic lives in one place and replay's hot
loop pays nothing for the viewer. Frames follow the order the rules took the lines in.

Like ``replay``, ``timeline`` never raises: a malformed log gives no frames and a malformed
verdict; an engine failure gives the frames built so far and an ``error`` verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .games import rules_for
from .log import GameLog, LogFormatError, decisions_of, parse_log
from .reader import Way, read
from .replay import Verdict, VerdictStatus, engine_error, replay


@dataclass
class Timeline:
    frames: list[dict[str, Any]]
    verdict: Verdict
    # For an illegal game: the frame the illegal decision was attempted at (frames[failing_frame]
    # is the board just before it, its ``index`` equals the verdict's decision index).
    failing_frame: int | None = None
    failure: dict[str, Any] | None = None  # frame, index, reason, decision, legal, round, phase, player
    players: list[dict[str, Any]] = field(default_factory=list)  # the game's seats (BfE: seat, deck, name)
    # the game's board layout (BfE: battlefields), as it stands after the last line read: a board laid
    # during the game (Elysian's tiles) has every place any frame names
    battlefields: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)  # the log's decisions, as written
    lines: list[int] = field(default_factory=list)  # where each of ``decisions`` is in the log (0-based)
    catalog: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "catalog": self.catalog,
            "players": self.players,
            "battlefields": self.battlefields,
            "decisions": self.decisions,
            "lines": self.lines,
            "verdict": self.verdict.to_dict(),
            "failing_frame": self.failing_frame,
            "failure": self.failure,
            "frames": self.frames,
        }


def timeline(source: Any) -> Timeline:
    """Replay a log (bytes, JSON text, a decoded dict, or a GameLog) into frames. Never raises."""
    try:
        log = source if isinstance(source, GameLog) else parse_log(source)
    except LogFormatError:
        return Timeline([], replay(source, record=False).verdict)
    except Exception as exc:  # an engine bug
        return Timeline([], engine_error(exc))
    res = replay(log, record=False)
    verdict = res.verdict
    rules = rules_for(log.game)
    tl = Timeline([], verdict, decisions=list(log.decisions), lines=list(range(len(log.decisions))),
                  catalog=log.catalog, players=rules.seats(log))
    if verdict.status is VerdictStatus.MALFORMED:
        return tl  # no game can be set up (unknown deck, battlefield or catalog)
    try:
        _fill(tl, log, rules, res.way)
    except Exception as exc:
        tl.verdict = engine_error(exc)
    return tl


def _fill(tl: Timeline, log: GameLog, rules: Any, way: Way) -> None:
    """Frames in the order the rules took the log's lines (draws and keeps written in another
    player order are taken in the rules' order); ``tl.decisions`` lists the lines in that order,
    then the line that broke the rules and the ones after it, as written."""
    g = rules.new_game(log)
    tl.battlefields = rules.layout(g)
    frame = rules.frame
    v = tl.verdict
    illegal = v.status is VerdictStatus.ILLEGAL
    tl.frames.append(frame(g, 0, None))
    taken: list[int] = []
    if not (illegal and v.index is None):  # a setup that breaks the rules: no line is read

        def after(i: int) -> None:
            taken.append(i)
            tl.frames.append(frame(g, len(tl.frames), log.decisions[i], line=i))

        lines = decisions_of(log)
        r = read(g, lines, rules, way=way, on_line=after)
        tl.battlefields = rules.layout(g)
        expected = v.index if illegal and v.index is not None and v.index < len(lines) else None
        if (r.failure.index if r.failure else None) != expected:
            raise RuntimeError("the timeline's reading of the log disagrees with replay's")
        if not g.over and not illegal:
            rules.end_as_claimed(log, g)
            if g.over:
                tl.frames.append(frame(g, len(tl.frames), None))
    rest = sorted(set(range(len(log.decisions))) - set(taken))
    if illegal and v.index is not None and v.index in rest:
        rest.remove(v.index)  # the line that broke the rules comes right after the ones read
        rest.insert(0, v.index)
    tl.lines = taken + rest
    tl.decisions = [log.decisions[i] for i in tl.lines]
    if illegal:
        tl.failing_frame = len(taken)
        tl.failure = {"frame": tl.failing_frame, "index": v.index, "reason": v.rule or v.message, "message": v.message,
                      "decision": v.decision, "legal": list(v.legal), "round": v.round, "phase": v.phase,
                      "player": v.player}
