"""What the viewer, the recorders and a verdict show of a Titans game: the board as data (one
frame per decision) and in words, and the running counts. A frame is what the log's seat knows
(``State.view``; no seat: the whole table, every card the log names): the face-down cards of each
stack and reserve are counted, and those the seat knows named (known.py); the words and the counts
are public."""

from __future__ import annotations

from typing import Any

from .game import State
from .known import seen_by


def titan_view(g: State, t: Any) -> dict:
    board = g.cat.board
    return {"player": t.player, "titan": t.key, "name": t.card.name, "alive": t.alive,
            "hex": board.name(t.hex) if t.hex is not None else None, "facing": t.facing if t.hex else None,
            "damage": t.damage, "endurance": g.endurance(t), "strength": g.strength(t),
            "initiative": t.card.initiative, "stack": len(t.stack), "stack_size": t.card.stack, "active": t.active,
            "known": seen_by(t.stack, t.stack_known, t.player, g.view)}


def frame(g: State, index: int, decision: str | None, line: int | None = None) -> dict:
    board = g.cat.board
    return {"index": index, "decision": decision, "line": line, "round": g.round, "phase": g.phase, "over": g.over,
            "view": g.view, "titans": [titan_view(g, t) for t in g.titans],
            "reserve": [len(s.reserve) for s in g.sides], "burned": [len(s.burned) for s in g.sides],
            "reserve_known": [seen_by(s.reserve, s.reserve_known, p, g.view) for p, s in enumerate(g.sides, 1)],
            "hazards": sorted(board.name(h) for h in g.hazards)}


def layout(g: State) -> list[dict]:
    board = g.cat.board
    return [{"hex": board.name(h), "q": h[0], "r": h[1]} for h in board.hexes]


def describe(g: State) -> str:
    board = g.cat.board
    parts = [f"Round {g.round}, {g.phase} phase"]
    for p in (1, 2):
        ts = []
        for t in (t for t in g.titans if t.player == p):
            if not t.alive:
                ts.append(f"{t.card.name} dead")
                continue
            where = f"at {board.name(t.hex)} facing {t.facing}" if t.hex is not None else "off the field"
            active = f", active {g.cat.maneuvers[t.active].name}" if t.active else ""
            ts.append(f"{t.card.name} {where}, {t.damage} damage (endurance {g.endurance(t)}), "
                      f"{len(t.stack)}/{t.card.stack} in its stack{active}")
        side = g.sides[p - 1]
        parts.append(f"P{p} ({side.species}): " + "; ".join(ts) + f"; reserve {len(side.reserve)}")
    if g.hazards:
        parts.append("hazard tokens face down at " + ", ".join(sorted(board.name(h) for h in g.hazards)))
    return ". ".join(parts)


def tallies(g: State) -> list[dict]:
    return [{"seat": p, "titans": sum(t.alive for t in g.titans if t.player == p),
             "on_field": sum(t.on_field for t in g.titans if t.player == p), "unturned": g.unturned(p),
             "reserve": len(g.sides[p - 1].reserve)} for p in (1, 2)]


def tally_columns(tallies: list) -> dict[str, list]:
    return {k: [t[k] for t in tallies] for k in ("titans", "on_field", "unturned", "reserve")}
