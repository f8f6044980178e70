"""Spells & Steam's parts of a game log: the setup (players, the map, the variants played, the teams),
the claimed result (a rank per seat, optionally each company's score, and how the game ended) and the
checks across fields a schema cannot express. The schema of these parts is ``data/log-v1.schema.json``
beside this module. Companies, captains and everything else chosen at the table are decision lines, so
a log's companies are read from its lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..games import CHANCE
from ..log import field_at
from .pieces import TEAM_SHAPES, TEAM_SHAPES_3V3

VARIANTS = ("awards", "expert", "epic", "open", "friendly")


@dataclass(frozen=True)
class Setup:
    players: int
    map: str = "A"
    variants: tuple[str, ...] = ()
    teams: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class Result:
    ranks: tuple[int, ...]
    reason: str | None = None
    scores: tuple[int, ...] | None = None

    @property
    def winner(self) -> int | None:
        firsts = [s for s, r in enumerate(self.ranks, 1) if r == 1]
        return firsts[0] if len(firsts) == 1 else None


def team_shapes(players: int) -> list[tuple[tuple[int, ...], ...]]:
    """The team games the manual allows at a table of ``players``: 2v2; 2v2v2 and 3v3 (seats alternate)."""
    shapes = [TEAM_SHAPES[players]] if players in TEAM_SHAPES else []
    return shapes + ([TEAM_SHAPES_3V3] if players == 6 else [])


def setup_problems(value: dict) -> list[tuple[list, str]]:
    out: list[tuple[list, str]] = []
    players = field_at(value, "setup", "players")
    variants = field_at(value, "setup", "variants") or []
    teams = field_at(value, "setup", "teams")
    if not isinstance(players, int):
        return out
    if isinstance(teams, list) and teams:
        shape = tuple(tuple(t) for t in teams if isinstance(t, list))
        if shape not in team_shapes(players):
            allowed = "; ".join(str([list(t) for t in s]) for s in team_shapes(players)) or "none"
            out.append((["setup", "teams"], f"a {players}-player team game seats the teams alternately: {allowed}"))
        if isinstance(variants, list) and ("awards" in variants or "expert" in variants):
            out.append((["setup", "variants"], "a team game is played without awards"))
    if isinstance(variants, list) and "expert" in variants and "awards" not in variants:
        out.append((["setup", "variants"], "the Expert award draft is a way of dealing awards: it needs 'awards'"))
    return out


def line_problems(value: dict, decoded: list, texts: list[str]) -> list[tuple[list, str]]:
    out = setup_problems(value)
    if field_at(value, "chance", "type") == "seeded":
        out += [(["decisions", i], "in a log with seeded chance the start player, awards, market deals and stacks "
                 "come from the seed and are not written") for i, d in decoded if d.actor == CHANCE]
    players = field_at(value, "setup", "players")
    if not isinstance(players, int) or players < 2:
        players = None
    for key in ("ranks", "scores"):
        got = field_at(value, "result", key)
        if isinstance(players, int) and isinstance(got, list) and len(got) != players:
            out.append((["result", key], f"the result gives {len(got)} {key} for {players} players"))
    if isinstance(players, int):
        out += [(["decisions", i], f"there is no P{d.actor} in a {players}-player game")
                for i, d in decoded if d.actor > players]
    return out


def read_log_parts(value: dict) -> tuple[Setup, tuple, Result | None]:
    s = value["setup"]
    r = value.get("result")
    setup = Setup(s["players"], s.get("map", "A"), tuple(sorted(s.get("variants", ()))),
                  tuple(tuple(t) for t in s.get("teams", ())))
    result = None if r is None else Result(tuple(r["ranks"]), r.get("reason"),
                                           tuple(r["scores"]) if "scores" in r else None)
    return setup, (), result


def dump_setup(setup: Setup) -> dict:
    out: dict[str, Any] = {"players": setup.players, "map": setup.map}
    if setup.variants:
        out["variants"] = list(setup.variants)
    if setup.teams:
        out["teams"] = [list(t) for t in setup.teams]
    return out


def dump_result(result: Result) -> dict:
    return {"ranks": list(result.ranks), **({"scores": list(result.scores)} if result.scores is not None else {}),
            **({"reason": result.reason} if result.reason else {})}


def companies(decisions: Any, players: int) -> list[str]:
    """Each seat's company as the log's lines choose them ("?" for a seat whose choice is not written)."""
    out = ["?"] * players
    for text in decisions:
        words = text.split(" ")
        if len(words) == 4 and words[1] == "company" and words[0][1:].isdigit() and 1 <= int(words[0][1:]) <= players:
            out[int(words[0][1:]) - 1] = words[2]
    return out
