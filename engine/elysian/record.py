"""What the statistics need of one Elysian Battlefields game, built by observing a replay
(``State.observers``): each seat's hero, rank and conquest points, how the game was won and after
how many rounds, who went out in which order, the cards each seat played, and every face of every
attack die with whose dice they were (the dice audit). ``decisions`` and ``unseen`` are filled in
by the replay."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Record:
    players: int = 0
    heroes: list[str] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    conquest: list[int] = field(default_factory=list)
    first: int | None = None  # the seat that took the first turn
    winner: int | None = None
    end: str | None = None
    rounds: int = 0
    gone: list[int] = field(default_factory=list)  # seats out, in order
    cards: list[Counter] = field(default_factory=list)  # per seat: cards played (orders, upgrades, items, effects)
    faces: list[Counter] = field(default_factory=list)  # per seat: faces of the attack dice rolled for them
    sets: list[int] = field(default_factory=list)  # per seat: full sets of three rolled
    repelled: list[int] = field(default_factory=list)  # per seat: full sets of three blocks
    ravaged: list[int] = field(default_factory=list)  # per seat: full sets of three sixes
    attacks: int = 0
    decisions: int = 0
    unseen: list[int] = field(default_factory=list)


class RecordBuilder:
    def __init__(self) -> None:
        self.record = Record()

    def _seats(self, g: Any) -> Record:
        r = self.record
        if not r.players:
            n = r.players = g.n
            r.cards, r.faces = [Counter() for _ in range(n)], [Counter() for _ in range(n)]
            r.sets, r.repelled, r.ravaged = [0] * n, [0] * n, [0] * n
        return r

    def on_turn(self, g: Any, seat: int) -> None:
        r = self._seats(g)
        if r.first is None:
            r.first = seat

    def on_card(self, g: Any, seat: int, key: str) -> None:
        self._seats(g).cards[seat - 1][key] += 1

    def on_attack(self, g: Any, attack: Any) -> None:
        self._seats(g).attacks += 1

    def on_dice(self, g: Any, attack: Any, faces: list[int]) -> None:
        r = self._seats(g)
        i = attack.attacker - 1
        r.faces[i].update(faces)
        if len(faces) == 3:
            r.sets[i] += 1
            r.repelled[i] += all(f <= 2 for f in faces)
            r.ravaged[i] += all(f == 6 for f in faces)

    def on_attack_end(self, g: Any, attack: Any) -> None:
        return None

    def on_destroyed(self, g: Any, unit: Any, by: int | None) -> None:
        return None

    def on_out(self, g: Any, seat: int) -> None:
        self._seats(g).gone.append(seat)

    def on_game_end(self, g: Any) -> None:
        r = self._seats(g)
        r.heroes = [p.hero or "?" for p in g.players]
        r.ranks = g.ranks()
        r.conquest = [p.conquest for p in g.players]
        r.winner, r.end, r.rounds = g.winner, str(g.end), g.round
