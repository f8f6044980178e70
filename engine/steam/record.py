"""What the statistics need of one Spells & Steam game, built by observing a replay
(``State.observers``): each seat's company, captain, rank and score by its parts, the teams, the start
player, how the game ended and after how many rounds, the specialists each seat hired, the spellcars
each took and activated, the awards in play and the points each seat scored from them. ``decisions``
and ``unseen`` are filled in by the replay."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Record:
    players: int = 0
    companies: list[str] = field(default_factory=list)  # per seat
    captains: list[str] = field(default_factory=list)  # per seat (a wild captain too)
    ranks: list[int] = field(default_factory=list)  # per seat; in a team game, the team's rank
    scores: list[int] = field(default_factory=list)  # per seat: its own victory points (goods + demand + awards)
    goods: list[int] = field(default_factory=list)  # per seat: victory points from goods delivered
    demand: list[int] = field(default_factory=list)  # per seat: victory points from demand tiles
    awards: list[int] = field(default_factory=list)  # per seat: victory points from awards
    teams: list[int | None] = field(default_factory=list)  # per seat: its team (1, 2, …), None without teams
    team_scores: list[int] = field(default_factory=list)  # per team, in team order (the colour bonus in)
    start: int | None = None  # the start player's seat
    winner: int | None = None  # the one seat ranked first (None: a tie at the top, or a team game)
    end: str | None = None  # demand, trains, concession, time, round limit
    rounds: int = 0
    variants: list[str] = field(default_factory=list)  # awards, expert, epic, open, friendly
    hired: list[list[str]] = field(default_factory=list)  # per seat: specialists hired, in order (no captain)
    taken: list[Counter] = field(default_factory=list)  # per seat: spellcars gained, by key
    activated: list[Counter] = field(default_factory=list)  # per seat: spellcar activations, by key
    awards_in_play: list[str] = field(default_factory=list)
    award_points: list[dict[str, int]] = field(default_factory=list)  # per seat: award key -> points
    decisions: int = 0
    unseen: list[int] = field(default_factory=list)


class RecordBuilder:
    def __init__(self) -> None:
        self.record = Record()

    def _seats(self, g: Any) -> Record:
        r = self.record
        if not r.players:
            n = r.players = g.n
            r.hired = [[] for _ in range(n)]
            r.taken, r.activated = [Counter() for _ in range(n)], [Counter() for _ in range(n)]
        return r

    def on_turn(self, g: Any, seat: int) -> None:
        self._seats(g)

    def on_spellcar(self, g: Any, seat: int, key: str) -> None:
        self._seats(g).taken[seat - 1][key] += 1

    def on_activate(self, g: Any, seat: int, key: str) -> None:
        self._seats(g).activated[seat - 1][key] += 1

    def on_hire(self, g: Any, seat: int, key: str) -> None:
        self._seats(g).hired[seat - 1].append(key)

    def on_game_end(self, g: Any) -> None:
        r = self._seats(g)
        sheet = g.score_sheet()
        r.companies = [c.company or "?" for c in g.companies]
        r.captains = [c.captain or "?" for c in g.companies]
        r.ranks = g.ranks()
        r.scores = [s.total for s in sheet.seats]
        r.goods = [s.goods for s in sheet.seats]
        r.demand = [s.demand for s in sheet.seats]
        r.awards = [s.awards for s in sheet.seats]
        r.award_points = [dict(s.by_award) for s in sheet.seats]
        r.teams = [g.team_of(s) for s in range(1, g.n + 1)]
        r.team_scores = list(sheet.teams)
        r.start, r.winner, r.end, r.rounds = g.start, g.winner, str(g.end) if g.end else None, g.round
        r.variants = sorted(g.variants)
        r.awards_in_play = list(g.awards)
