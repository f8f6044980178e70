"""One game seen from several seats: a log as one seat saw it, and seat views merged into one log.

* ``as_recorded(log)``: a game as a table where everyone saw every card would write it (recorded
  chance, every draw named): a seeded game's draws come from its seed.
* ``seat_view(log, seat)``: the log as that player's seat would write it (``"view": seat``): the
  other players' draws and keeps are left out; their discards are '?' unless the card showed itself
  (its own discard ability), and what they acquire is '?' unless only one card could be acquired.
* ``hide(log, seat)``: the log as a writer who never saw one player's hidden cards would write it,
  without a seat view: that player's draws and keeps written '?'.
* ``merge_logs(logs)``: two or three seat views (or any recorded logs) of one game as one log with
  every card any of them saw. Where they disagree about something both saw, ``MergeConflict``
  names the first such decision and both versions, and nothing is written.

Each works on the game's full answer list (``Game.trace``, with the draws added): the lines of
the new log are picked from it, then read into a game of the new view with every forced answer
written (``reader.Way(forced_first=True)``), which keeps only the lines that view needs.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

from .games import rules_for
from .log import Chance, GameLog, LogFormatError, decisions_of, dump_log, parse_log
from .reader import Way, read, read_lines
from .replay import VerdictStatus, replay
from .words import decision_words


class MergeConflict(ValueError):
    """Seat views that cannot be merged; ``versions`` are (log label, what it says) pairs."""

    def __init__(self, message: str, round: int | None = None, versions: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(message)
        self.round = round
        self.versions = list(versions)


def as_recorded(source: Any) -> dict:
    """The game of ``source`` written with recorded chance and every card named (JSON-ready)."""
    log = parse_log(source)
    rules = rules_for(log.game)
    entries = [e for e in _entries(log) if rules.is_drawn(e) or e.decision.verb != "first"]
    return _written(log, None, entries)


def seat_view(source: Any, seat: int) -> dict:
    """The game of a log with recorded chance as player ``seat`` saw it (JSON-ready)."""
    log = _recorded(source)
    if log.chance.view is not None and log.chance.view != seat:
        raise ValueError(f"the log is P{log.chance.view}'s view; P{seat}'s cannot be made from it")
    if not 1 <= seat <= log.setup.players:
        raise ValueError(f"there is no player {seat} in a {log.setup.players}-player game")
    unseen = set(range(1, log.setup.players + 1)) - {seat}
    return _written(log, seat, _seen_by(log, unseen, omit=True))


def hide(source: Any, seat: int) -> dict:
    """The game as a writer who never saw player ``seat``'s hidden cards would write it, without a
    seat view: that player's draws, keeps, unseen discards and acquires written '?' (JSON-ready)."""
    log = _recorded(source)
    if not 1 <= seat <= log.setup.players:
        raise ValueError(f"there is no player {seat} in a {log.setup.players}-player game")
    return _written(log, log.chance.view, _seen_by(log, {seat}, omit=False))


def _recorded(source: Any) -> GameLog:
    log = parse_log(source)
    return log if log.chance.type == "recorded" else parse_log(as_recorded(log))


def _seen_by(log: GameLog, unseen: set[int], *, omit: bool) -> list[tuple[Any, Any]]:
    """The game's answers as a writer who did not see the hidden cards of the players ``unseen``
    would write them (the game's ``as_seen``: left out (``omit``) or '?', unless a card showed
    itself). Answers the engine took itself are all kept (``_written`` drops the ones not needed)."""
    rules = rules_for(log.game)
    catalog = rules.new_game(log).catalog
    out = []
    for e in _entries(log):
        d = rules.as_seen(e, e.seat in unseen, omit, catalog)
        if d is not None:
            out.append((e, d))
    return out


def merge_logs(sources: Sequence[Any], labels: Sequence[str] | None = None) -> dict:
    """Seat views (or any recorded logs) of one game as one log with every card any of them saw."""
    if len(sources) < 2:
        raise ValueError("merging needs two or three logs of one game")
    labels = list(labels or [f"log {i + 1}" for i in range(len(sources))])
    logs = []
    for label, src in zip(labels, sources):
        try:
            logs.append(parse_log(src))
        except LogFormatError as e:
            raise MergeConflict(f"{label} cannot be read: {e}") from None
    first = logs[0]
    for label, log in zip(labels[1:], logs[1:]):
        if (log.catalog, log.setup) != (first.catalog, first.setup) or log.chance.type != "recorded":
            raise MergeConflict(f"{label} is not a seat view of the same game as {labels[0]}: the catalog, setup "
                                "(mode, decks, battlefields, first player) and recorded chance must be the same")
    if first.chance.type != "recorded":
        raise MergeConflict(f"{labels[0]} has seeded chance: every card of it is known already")
    views = [log.chance.view for log in logs]
    seen_twice = {v for v in views if v is not None and views.count(v) > 1}
    if seen_twice:
        raise MergeConflict(f"two logs are written from P{min(seen_twice)}'s seat; merge different seats")
    for label, log in zip(labels, logs):
        v = replay(log, record=False).verdict
        if v.status in (VerdictStatus.ILLEGAL, VerdictStatus.MALFORMED, VerdictStatus.ERROR):
            raise MergeConflict(f"{label} is not a legal game, so it cannot be merged: {v.message}")
    rules = rules_for(first.game)
    entries = [[e for e in _entries(log) if not rules.is_drawn(e) and e.decision.verb not in ("first", "nothing")]
               for log in logs]
    public = [[e for e in es if not rules.is_private(e)] for es in entries]
    for k in range(max(len(p) for p in public)):
        said = [(label, rules.format_line(p[k].decision) if k < len(p) else "(nothing: its game is over)")
                for label, p in zip(labels, public)]
        if len({text for _, text in said}) > 1:
            rnd = next(p[k].round for p in public if k < len(p))
            raise MergeConflict(f"the logs disagree about a decision both saw, in round {rnd}: "
                                + "; ".join(f"{label} says {text!r}" for label, text in said), rnd, said)
    private = _private_choices(rules, logs, labels, entries)
    taken = {q: 0 for q in private}
    lines: list[tuple[Any, Any]] = []
    for e in entries[0]:
        d = e.decision
        if rules.is_private(e):
            q = e.seat
            d = private[q][taken[q]]
            taken[q] += 1
        lines.append((e, d))
    meta = {}
    for log in reversed(logs):
        meta.update(dict(log.meta))
    merged = dataclasses.replace(first, chance=Chance("recorded"), meta=meta)
    return _written(merged, None, lines)


def _private_choices(rules: Any, logs: list[GameLog], labels: list[str], entries: list[list]) -> dict[int, list]:
    """For each player, their private answers (draws, keeps, discards, acquires) as the best
    informed log gave them: a named card over '?'; two logs naming different cards conflict."""
    out: dict[int, list] = {}
    players = logs[0].setup.players
    for q in range(1, players + 1):
        per_log = [[e for e in es if rules.is_private(e) and e.seat == q] for es in entries]
        counts = {len(p) for p in per_log}
        if len(counts) > 1:
            raise MergeConflict(f"the logs disagree about how many cards P{q} drew, kept, discarded or acquired: "
                                + "; ".join(f"{label}: {len(p)}" for label, p in zip(labels, per_log)))
        chosen = []
        for k in range(counts.pop() if counts else 0):
            named = {(label, rules.format_line(p[k].decision)) for label, p in zip(labels, per_log)
                     if not rules.is_unseen(p[k].decision)}
            texts = {text for _, text in named}
            if len(texts) > 1:
                rnd = per_log[0][k].round
                said = sorted(named)
                raise MergeConflict(f"the logs disagree about a card P{q} showed, in round {rnd}: "
                                    + "; ".join(f"{label} says {text!r}" for label, text in said), rnd, said)
            chosen.append(rules.parse_line(texts.pop()) if texts else per_log[0][k].decision)
        out[q] = chosen
    return out


def _entries(log: GameLog) -> list[Any]:
    """Every answer of the game, forced or not, and every card drawn, in order (the log must be
    legal up to its end); a point's default that the log left out is left out here too, unless it
    is private (merged with what its owner's log names)."""
    rules = rules_for(log.game)

    def new_game() -> Any:
        return rules.new_game(log, observers=[o for o in [rules.trace_observer()] if o is not None], trace=True)

    g, r = read_lines(new_game, decisions_of(log), rules)
    if r.failure is not None:
        raise ValueError(f"{decision_words(r.failure.index)} of the log is not legal: {r.failure.reason}")
    assert g.trace is not None
    return [e for e in g.trace if getattr(e, "how", None) != "default" or rules.is_private(e)]


def _written(log: GameLog, view: int | None, entries: list) -> dict:
    """The log with recorded chance from ``view``'s seat, written from ``entries`` (answers of the
    game, or (answer, decision to write) pairs), keeping only the lines a game of that view needs
    (forced answers left out) and writing 'choose nothing' where a choice among cards nobody saw at
    that seat found nothing and the next line could be misread as its answer."""
    rules = rules_for(log.game)
    pairs = [e if type(e) is tuple else (e, e.decision) for e in entries]  # an answer itself may be a NamedTuple
    lines = [rules.format_line(d) for _, d in pairs]
    new = dataclasses.replace(log, chance=Chance("recorded", view=view), decisions=tuple(lines))
    g = rules.new_game(new)

    def belongs(i: int, pend: Any) -> bool:
        src = pairs[i][0]
        return rules.is_drawn(src) or not src.prompt or (src.kind, src.prompt) == (pend.kind, pend.prompt)

    r = read(g, [d for _, d in pairs], rules, way=Way(forced_first=True), belongs=belongs)
    if r.failure is not None:  # pragma: no cover - a bug here, not in the log
        raise RuntimeError(f"could not write the log: line {r.failure.index} ({lines[r.failure.index]!r}) "
                           f"does not fit: {r.failure.reason}")
    out: list[str] = []
    nothing: dict[int, list] = {}
    for i, d in r.nothing_before:
        nothing.setdefault(i, []).append(d)
    for i in r.order + ([r.conceded_at] if r.conceded_at is not None else []):
        out.extend(rules.format_line(d) for d in nothing.get(i, ()))
        out.append(lines[i])
    return dump_log(dataclasses.replace(new, decisions=tuple(out)))
