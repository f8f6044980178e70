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

from .bfe.decisions import CHANCE, parse_decision
from .bfe.game import Game
from .bfe.state import AT_DRAWN, CardInst, PlayerState
from .log import GameLog, LogFormatError, parse_log
from .reader import Way, read
from .replay import Verdict, VerdictStatus, build_game, engine_error, replay


@dataclass
class Timeline:
    frames: list[dict[str, Any]]
    verdict: Verdict
    # For an illegal game: the frame the illegal decision was attempted at (frames[failing_frame]
    # is the board just before it, its ``index`` equals the verdict's decision index).
    failing_frame: int | None = None
    failure: dict[str, Any] | None = None  # frame, index, reason, decision, legal, round, phase, player
    players: list[dict[str, Any]] = field(default_factory=list)  # seat, deck, name (from meta)
    battlefields: list[dict[str, Any]] = field(default_factory=list)  # label, name, zones, text
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
    tl = Timeline([], verdict, decisions=list(log.decisions), lines=list(range(len(log.decisions))),
                  catalog=log.catalog, players=_players(log))
    if verdict.status is VerdictStatus.MALFORMED:
        return tl  # no game can be set up (unknown deck, battlefield or catalog)
    try:
        _fill(tl, log, res.way)
    except Exception as exc:
        tl.verdict = engine_error(exc)
    return tl


def _players(log: GameLog) -> list[dict[str, Any]]:
    names = log.meta.get("players")  # seat order, when the log gives them
    out = []
    for i, ref in enumerate(log.setup.decks):
        name = names[i] if names is not None and i < len(names) else None
        out.append({"seat": i + 1, "deck": ref.name, "name": name, "mashup": ref.cards is not None})
    return out


def _fill(tl: Timeline, log: GameLog, way: Way) -> None:
    """Frames in the order the rules took the log's lines (draws and keeps written in another
    player order are taken in the rules' order); ``tl.decisions`` lists the lines in that order,
    then the line that broke the rules and the ones after it, as written."""
    g = build_game(log)
    tl.battlefields = [{"label": f"B{b + 1}", "name": bf.name, "zones": bf.zones, "text": list(bf.text)}
                       for b, bf in enumerate(g.bfs)]
    v = tl.verdict
    illegal = v.status is VerdictStatus.ILLEGAL
    tl.frames.append(snapshot(g, 0, None))
    taken: list[int] = []
    if not (illegal and v.index is None):  # a setup that breaks the rules: no line is read

        def after(i: int) -> None:
            taken.append(i)
            tl.frames.append(snapshot(g, len(tl.frames), log.decisions[i], line=i))

        lines = [parse_decision(text) for text in log.decisions]
        r = read(g, lines, way=way, on_line=after)
        expected = v.index if illegal and v.index is not None and v.index < len(lines) else None
        if (r.failure.index if r.failure else None) != expected:
            raise RuntimeError("the timeline's reading of the log disagrees with replay's")
        if not g.over and log.result is not None and log.result.reason == "time" and not illegal:
            g.call_time(log.result.time_rule or "tally")
            tl.frames.append(snapshot(g, len(tl.frames), None))
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


# ---------------------------------------------------------------------------- snapshots
def snapshot(g: Game, index: int, decision: str | None, line: int | None = None) -> dict[str, Any]:
    """The board as a JSON-ready dict: who is to move and on what, every player's piles, every
    battlefield's zones. Face-down cards are named (the log knows them) with ``face_up: false``;
    a card nobody at the recording seat saw is named ``?``. ``line``: the index in the log of the
    line just applied."""
    pend = g.pending
    return {
        "index": index,
        "decision": decision,
        "line": line,
        "round": g.round,
        "phase": g.phase.label,
        "first_player": g.first or None,
        "to_move": pend.player if pend is not None else None,
        "to_move_label": _who(pend.player) if pend is not None else None,
        "kind": pend.kind.value if pend is not None else None,
        "prompt": pend.prompt if pend is not None else None,
        "over": g.over,
        "winner": g.winner if g.over else None,
        "players": [_player(ps) for ps in g.players],
        "battlefields": [_battlefield(g, b) for b in range(g.nbf)],
        "might": g.might_table(),
    }


def _who(player: int) -> str:
    return "chance" if player == CHANCE else f"P{player}"


def _player(ps: PlayerState) -> dict[str, Any]:
    return {
        "seat": ps.num,
        "deck": ps.deck_name,
        "essence": ps.essence,
        "hand": [c.name for c in ps.hand],
        # the two cards drawn in the draft, one to keep (also listed in hand)
        "drafting": [c.name for c in ps.hand if c.loc is AT_DRAWN],
        "deck_size": len(ps.deck),
        "discard": [c.name for c in ps.discard],
        "destroyed": [c.name for c in ps.destroyed],
        "banished": [c.name for c in ps.banished],
        "stops": list(ps.stops),
    }


def _battlefield(g: Game, b: int) -> dict[str, Any]:
    return {
        "label": f"B{b + 1}",
        "name": g.bfs[b].name,
        "sides": [{"seat": p + 1, "might": sum(c.might for c in side), "stops": g.players[p].stops[b],
                   "zones": [_zone(z, c) for z, c in enumerate(side, 1)]}
                  for p, side in enumerate(g.board[b])],
    }


def _zone(z: int, c: CardInst) -> dict[str, Any]:
    return {
        "zone": z,
        "card": c.name,
        "face_up": c.face_up,
        "cost": c.cdef.cost,
        "might": c.might,
        "tokens": {k: v for k, v in c.tokens.items() if v},
        "under": [u.name for u in c.under],
    }
