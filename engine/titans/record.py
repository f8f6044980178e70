"""What the statistics need of one Titans game, built by observing a replay (``State.observers``):
per seat its species, ally (a mixed squad), whether it won and the maneuvers it played; per titan
whether it survived, the damage it dealt and took and whether its initiative was the highest of the
game; how the game ended and after how many rounds (``decisions`` and ``unseen`` are filled in by
the replay). Written to its rows by services.games.records (``GAME_ROWS``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class TitanRecord:
    seat: int
    titan: str
    species: str
    survived: bool = True
    damage_dealt: int = 0  # by its attacks and abilities (collisions and hazards are nobody's)
    damage_taken: int = 0  # every point of damage put on it, from any source
    # its initiative is the highest of the eight (ties: every titan holding it)
    top_initiative: bool = False


@dataclass
class Record:
    species: list[str] = field(default_factory=list)
    allies: list[str | None] = field(default_factory=list)  # per seat: the ally's species (mixed squad)
    titans: list[TitanRecord] = field(default_factory=list)  # seat 1's, then seat 2's, in setup order
    maneuvers: list[Counter] = field(default_factory=lambda: [Counter(), Counter()])  # per seat: plays
    # the seat of the titan that acted first in round 1: the highest initiative, ties by rule C1
    first_to_act: int | None = None
    winner: int | None = None
    end: str | None = None
    rounds: int = 0
    decisions: int = 0
    unseen: list[int] = field(default_factory=list)

    @property
    def mixed(self) -> list[bool]:
        return [ally is not None for ally in self.allies]

    @property
    def top_initiative_seat(self) -> int | None:
        """The seat whose titans alone hold the game's highest initiative (None: both sides do)."""
        seats = {t.seat for t in self.titans if t.top_initiative}
        return seats.pop() if len(seats) == 1 else None


class RecordBuilder:
    """Watches a game (``State.observers``) and keeps its record. It learns the squads at the first
    event it sees and keeps per-titan numbers by the titan's index in ``State.titans``."""

    def __init__(self) -> None:
        self.record = Record()

    def _titans(self, g: Any) -> list[TitanRecord]:
        r = self.record
        if not r.titans:
            top = max(t.card.initiative for t in g.titans)
            r.titans = [TitanRecord(t.player, t.key, t.card.species, top_initiative=t.card.initiative == top)
                        for t in g.titans]
        return r.titans

    def on_round(self, g: Any) -> None:
        if g.round == 1:
            self.record.first_to_act = g.titans[g.order[0]].player

    def on_damage(self, g: Any, target: Any, amount: int, source: Any) -> None:
        titans = self._titans(g)
        titans[g.titans.index(target)].damage_taken += amount
        if source is not None:
            titans[g.titans.index(source)].damage_dealt += amount

    def on_play(self, g: Any, t: Any, card: str) -> None:
        self.record.maneuvers[t.player - 1][card] += 1

    def on_death(self, g: Any, t: Any) -> None:
        self._titans(g)[g.titans.index(t)].survived = False

    def on_game_end(self, g: Any) -> None:
        r = self.record
        self._titans(g)
        r.species = [s.species for s in g.sides]
        r.allies = [next((t.card.species for t in g.titans if t.player == p and t.card.species != side.species),
                         None) for p, side in enumerate(g.sides, 1)]
        r.winner, r.end, r.rounds = g.winner, str(g.end), g.round
