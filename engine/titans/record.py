"""What the statistics need of one Titans game: species and titans per seat, how it ended, who
survived, the maneuvers played (``decisions`` and ``unseen`` are filled in by the replay)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Record:
    species: list[str] = field(default_factory=list)
    titans: list[list[str]] = field(default_factory=list)
    winner: int | None = None
    end: str | None = None
    rounds: int = 0
    died: list[str] = field(default_factory=list)  # "P1 ashmaw", in the order they died
    damage_left: dict[str, int] = field(default_factory=dict)  # survivors' damage at the end
    decisions: int = 0
    unseen: list[int] = field(default_factory=list)


class RecordBuilder:
    """Watches a game (``State.observers``) and keeps its record."""

    def __init__(self) -> None:
        self.record = Record()

    def on_death(self, g: Any, t: Any) -> None:
        self.record.died.append(f"P{t.player} {t.key}")

    def on_game_end(self, g: Any) -> None:
        r = self.record
        r.species = [s.species for s in g.sides]
        r.titans = [[t.key for t in g.titans if t.player == p] for p in (1, 2)]
        r.winner, r.end, r.rounds = g.winner, str(g.end), g.round
        r.damage_left = {f"P{t.player} {t.key}": t.damage for t in g.titans if t.alive}
