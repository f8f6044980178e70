"""Match points: what a counted match gives each of its players in an event's standings
(services.games.standings), by the event's game's kind of outcome, or as the event's organiser set them.

**A game with one winner** (``OutcomeKind.WINNER``: Battle for Empyrean): ``{"win": 3, "draw": 1,
"loss": 0}`` by default, the usual Swiss convention. At a table of three the winner takes ``win``
and the others ``loss``; a game with no winner is a ``draw`` for everyone at the table. The most a
match gives is ``win``.

**A game decided by ranks** (``OutcomeKind.RANKS``: Elysian Battlefields, Spells & Steam): points by
place at a table of n players, ``{"by_rank": {"3": [2, 1, 0], "4": [3, 2, 1, 0], …}}``, one list per
table size the game allows, first place first. By default a place at a table of n is worth one point
for each player finished ahead of (n − 1 for first, 0 for last): each opponent at the table is a
win or a loss against them, as in a 2-player match, so a win over three players is worth more than
a win over one, and the match-win % below is the share of opponents beaten. Seats that share a rank
share the places they cover, each scoring the mean of those places' points (two seats tied for first
at a table of four: (3 + 2) / 2 = 2½ each, as half a point for the opponent they tied with): a tie
never makes a table worth more or less than its places.

**The most a match gives** (for the match-win %, services.games.standings): ``win``, or the first
place's points at the match's table size.

An organiser may set an event's own points when making it or later (``POST /api/v1/events``,
``PATCH /api/v1/events/{id}``: ``points``, checked against ``schema(game)``; ``empyrean event create
--points``); stored in ``events.points`` (migration 0020; null: the game's default).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from typing import Any, Mapping, Sequence

from engine import games
from engine.games import OutcomeKind
from engine.log import schema_problems

MOST_POINTS = 1000  # the most points one place (or a win) may be worth: room for any organiser's scheme


@dataclass(frozen=True)
class Points:
    """One event's match points: ``win``, ``draw``, ``loss`` (a game with one winner), or
    ``by_rank`` (a game decided by ranks: table size -> each place's points, first place first)."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    by_rank: Mapping[int, tuple[int, ...]] | None = None

    def of(self, seats: Sequence[Any]) -> dict[str, int | Fraction]:
        """What one counted game gives each player at its table (``seats``: player, won, rank); a
        Fraction only where seats sharing a rank share points that do not divide evenly."""
        if self.by_rank is None:
            if not any(s.won for s in seats):
                return {s.player: self.draw for s in seats}
            return {s.player: self.win if s.won else self.loss for s in seats}
        places = self.places(len(seats))
        out: dict[str, int | Fraction] = {}
        first = 0
        for _, group in groupby(sorted(seats, key=lambda s: s.rank), key=lambda s: s.rank):
            tied = list(group)
            shared = Fraction(sum(places[first:first + len(tied)]), len(tied))
            out.update((s.player, int(shared) if shared.denominator == 1 else shared) for s in tied)
            first += len(tied)
        return out

    def most(self, players: int) -> int:
        """The most a match at a table of ``players`` gives one player."""
        return self.win if self.by_rank is None else self.places(players)[0]

    def places(self, players: int) -> tuple[int, ...]:
        """The points of each place at a table of ``players`` (by default one per player finished
        ahead of, for a size the event's points do not give: never for points checked by ``read``)."""
        assert self.by_rank is not None
        return self.by_rank.get(players) or tuple(range(players - 1, -1, -1))

    def words(self) -> str:
        """"win 3, draw 1, loss 0"; "by place — 3 players: 2, 1, 0; 4 players: 3, 2, 1, 0 (…)"."""
        if self.by_rank is None:
            return f"win {self.win}, draw {self.draw}, loss {self.loss}"
        sizes = "; ".join(f"{n} players: {', '.join(map(str, p))}" for n, p in sorted(self.by_rank.items()))
        return f"by place — {sizes} (seats sharing a rank share their places' points)"

    def to_dict(self) -> dict[str, Any]:
        if self.by_rank is None:
            return {"win": self.win, "draw": self.draw, "loss": self.loss}
        return {"by_rank": {str(n): list(p) for n, p in sorted(self.by_rank.items())}}


def plain(points: int | Fraction) -> int | float:
    """Points as JSON and pages show them: whole, or a decimal where seats shared a rank."""
    return int(points) if Fraction(points).denominator == 1 else float(points)


def ranked(game: str) -> bool:
    """Games of ``game`` are decided by ranks (False for a game this process does not know)."""
    return games.is_known(game) and games.info(game).outcome is OutcomeKind.RANKS


def default(game: str) -> Points | None:
    """The points of an event of ``game`` that sets none; None for a game this process does not know
    (its rules not registered here: whether it has one winner or ranks is not known either)."""
    if not games.is_known(game):
        return None
    if not ranked(game):
        return Points()
    info = games.info(game)
    return Points(by_rank={n: tuple(range(n - 1, -1, -1)) for n in range(info.min_players, info.max_players + 1)})


def of_event(game: str, stored: Mapping[str, Any] | None) -> Points | None:
    """An event's points: as stored (``events.points``, checked when set), else its game's default."""
    if stored is None:
        return default(game)
    if "by_rank" in stored:
        return Points(by_rank={int(n): tuple(p) for n, p in stored["by_rank"].items()})
    return Points(stored["win"], stored["draw"], stored["loss"])


def schema(game: str) -> dict[str, Any]:
    """The JSON Schema of an event's ``points`` for ``game`` (its kind of outcome decides the shape)."""
    info = games.info(game)
    worth = {"type": "integer", "minimum": 0, "maximum": MOST_POINTS}
    if info.outcome is OutcomeKind.WINNER:
        return {"title": "points", "type": "object", "required": ["win", "draw", "loss"], "additionalProperties": False,
                "properties": {k: {"title": k, **worth} for k in ("win", "draw", "loss")}}
    sizes = [str(n) for n in range(info.min_players, info.max_players + 1)]
    return {"title": "points", "type": "object", "required": ["by_rank"], "additionalProperties": False,
            "properties": {"by_rank": {
                "title": "by_rank", "type": "object", "required": sizes, "additionalProperties": False,
                "properties": {n: {"title": f"points of each place at a table of {n}", "type": "array",
                                   "minItems": int(n), "maxItems": int(n), "items": {"title": "place", **worth}}
                               for n in sizes}}}}


def read(value: Any, game: str) -> tuple[Points | None, list[dict[str, str]]]:
    """An organiser's ``points`` for an event of ``game`` (a game this process knows): (its Points,
    []), or (None, the problems: each the JSON pointer of the field at fault, from ``/points``, and
    what is wrong in words). Beyond the schema: a better result is
    never worth fewer points than a worse one, and a win (or first place) is worth at least 1."""
    problems = schema_problems({"type": "object", "properties": {"points": schema(game)}}, {"points": value})
    if problems:
        return None, problems
    points = of_event(game, value)
    if points.by_rank is None:
        if not points.win >= points.draw >= points.loss:
            problems.append(_problem("/points", "a win must be worth at least a draw, and a draw at least a loss: "
                                     f"win {points.win}, draw {points.draw}, loss {points.loss}"))
        if points.win < 1:
            problems.append(_problem("/points/win", "a win must be worth at least 1 point"))
    for n, places in sorted((points.by_rank or {}).items()):
        if list(places) != sorted(places, reverse=True):
            problems.append(_problem(f"/points/by_rank/{n}", "a better place must never be worth fewer points "
                                     f"than a worse one: {list(places)} at a table of {n}"))
        if places[0] < 1:
            problems.append(_problem(f"/points/by_rank/{n}/0", f"first place at a table of {n} must be worth at "
                                     "least 1 point"))
    return (None, problems) if problems else (points, [])


def _problem(path: str, message: str) -> dict[str, str]:
    return {"path": path, "message": message}


__all__ = ["MOST_POINTS", "Points", "ranked", "default", "of_event", "schema", "read"]
