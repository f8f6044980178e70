"""Elysian Battlefields' parts of a game log: the setup (how many players), the claimed result (a
rank per seat and how the game ended) and the checks across fields a schema cannot express. The
schema of these parts is ``data/log-v1.schema.json`` beside this module. Heroes, tiles and
everything else chosen at the table are decision lines, so a log's heroes are read from its lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..games import CHANCE
from ..log import field_at


@dataclass(frozen=True)
class Setup:
    players: int


@dataclass(frozen=True)
class Result:
    ranks: tuple[int, ...]
    reason: str | None = None

    @property
    def winner(self) -> int | None:
        firsts = [s for s, r in enumerate(self.ranks, 1) if r == 1]
        return firsts[0] if len(firsts) == 1 else None


def line_problems(value: dict, decoded: list, texts: list[str]) -> list[tuple[list, str]]:
    out: list[tuple[list, str]] = []
    if field_at(value, "chance", "type") == "seeded":
        out += [(["decisions", i], "in a log with seeded chance the rolls, tiles and dice come from the seed and "
                 "are not written") for i, d in decoded if d.actor == CHANCE]
    players = field_at(value, "setup", "players")
    if not isinstance(players, int) or players < 2:  # the schema says what is wrong with it, once
        players = None
    ranks = field_at(value, "result", "ranks")
    if isinstance(players, int) and isinstance(ranks, list) and len(ranks) != players:
        out.append((["result", "ranks"], f"the result gives {len(ranks)} ranks for {players} players"))
    if isinstance(players, int):
        out += [(["decisions", i], f"there is no P{d.actor} in a {players}-player game")
                for i, d in decoded if d.actor > players]
    return out


def read_log_parts(value: dict) -> tuple[Setup, tuple, Result | None]:
    r = value.get("result")
    return (Setup(value["setup"]["players"]), (),
            None if r is None else Result(tuple(r["ranks"]), r.get("reason")))


def dump_setup(setup: Setup) -> dict:
    return {"players": setup.players}


def dump_result(result: Result) -> dict:
    return {"ranks": list(result.ranks), **({"reason": result.reason} if result.reason else {})}


def heroes(decisions: Any, players: int) -> list[str]:
    """Each seat's hero as the log's lines choose them ("?" for a seat whose choice is not written)."""
    out = ["?"] * players
    for text in decisions:
        words = text.split(" ")
        if len(words) == 3 and words[1] == "hero" and words[0][1:].isdigit() and 1 <= int(words[0][1:]) <= players:
            out[int(words[0][1:]) - 1] = words[2]
    return out
