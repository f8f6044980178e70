"""A game in the words people use at a table, whatever the game: "R3 · T14 · Ada vs Bo" rather than
seat numbers, and a decision by the number people give it (each game says its result in its own
words: engine.bfe.words …). Verdict messages (engine.replay), the
command line and the pages use these.

One numbering of decisions everywhere: decisions are counted from 1 in the order of the log's
``decisions`` lines, so "decision 30" is the log's 30th decision line (``decisions[29]``). Machine
fields (a verdict's ``index``, the API's ``decision_index``) keep the 0-based index; everything a
person reads says ``decision_number(index)`` (docs/log-format.md, "Numbering decisions").
"""

from __future__ import annotations

from typing import Any, Mapping

DASH = "–"  # between the players' numbers: 12–11


def seat_names(meta: Mapping[str, Any], n: int) -> list[str]:
    """The players' names in seat order (the log's meta.players), else P1, P2 …"""
    names = meta.get("players")
    if isinstance(names, (list, tuple)) and len(names) == n and all(isinstance(x, str) and x for x in names):
        return list(names)
    return [f"P{i}" for i in range(1, n + 1)]


def game_title(meta: Mapping[str, Any], n: int) -> str:
    """"R3 · T14 · Ada vs Bo": the tournament round and table when the log gives them, and who played."""
    parts = []
    if meta.get("round") is not None:
        parts.append(f"R{meta['round']}")
    if meta.get("table") is not None:
        parts.append(f"T{meta['table']}")
    parts.append(" vs ".join(seat_names(meta, n)))
    return " · ".join(parts)


def decision_number(index: int) -> int:
    """The number people give the decision at ``index`` (0-based) of a log's decisions: its line
    counted from 1."""
    return index + 1


def decision_words(index: int | None, written: bool = True) -> str:
    """Where a verdict points, as people say it: "decision 30"; "the setup" (no decision index);
    "the end of the log, after decision 62" when the log stops early (``written`` False: the index
    is one past its last line, so that line's number is the index itself)."""
    if index is None:
        return "the setup"
    if not written:
        return f"the end of the log, after decision {index}" if index else "the end of the log, before any decision"
    return f"decision {decision_number(index)}"


def in_round(number: int) -> str:
    """When in the game a thing happened: "in round 3", or "before round 1" during the set-up (round 0)."""
    return f"in round {number}" if number else "before round 1"
