"""What the pipeline tests of the games after Battle for Empyrean count from the logs themselves (each
replayed by engine.replay): each faction's results, and each player's points by place (services.games.
points: a point for each player finished ahead of, half for each finished level)."""

from __future__ import annotations

import json
from fractions import Fraction

from engine.games import rules_for
from engine.log import parse_log
from engine.replay import replay


def faction_counts(game: str, logs: list[dict]) -> dict[str, list[int]]:
    """Per faction (what a seat played as), from the logs: [seat-games, wins, seat-games without one winner]."""
    rules = rules_for(game)
    counts: dict[str, list[int]] = {}
    for log in logs:
        outcome = replay(log).outcome
        for seat, faction in zip(outcome.seats, rules.factions(parse_log(log))):
            row = counts.setdefault(faction, [0, 0, 0])
            row[0] += 1
            row[1] += seat.won
            row[2] += outcome.winner is None
    return counts


def points_by_place(ranks: list[int]) -> list[Fraction]:
    """A point per opponent ranked below, half a point per opponent ranked the same."""
    return [sum(Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs else Fraction(0)
                for j, theirs in enumerate(ranks) if j != i) for i, mine in enumerate(ranks)]


def place_points(logs: list[dict]) -> dict[str, float]:
    """Each player's (meta.players) points by place over the logs' games."""
    points: dict[str, Fraction] = {}
    for log in logs:
        ranks = [s.rank for s in replay(json.dumps(log).encode()).outcome.seats]
        for name, earned in zip(log["meta"]["players"], points_by_place(ranks)):
            points[name] = points.get(name, Fraction(0)) + earned
    return {name: float(p) for name, p in points.items()}
