"""The hex field: names of hexes and facings, neighbours, arcs and distances.

Axial coordinates (q, r) of pointy-topped hexes; the field is every hex within ``radius`` of the
centre. Rows are lettered from the far side of player 1 (``A``, r = -radius) down; hexes in a row
are numbered from the left. Off the board is any coordinate outside that.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

FACINGS = ("NE", "NW", "W", "SW", "SE", "E")  # counter-clockwise: a left turn is the next one
STEPS = {"NE": (1, -1), "NW": (0, -1), "W": (-1, 0), "SW": (-1, 1), "SE": (0, 1), "E": (1, 0)}
TURNS = {"left": 1, "right": -1, "around": 3}

Hex = tuple[int, int]


def turned(facing: str, way: str) -> str:
    return FACINGS[(FACINGS.index(facing) + TURNS[way]) % 6]


def step(h: Hex, facing: str) -> Hex:
    dq, dr = STEPS[facing]
    return h[0] + dq, h[1] + dr


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def arc(facing: str, front: bool = True) -> tuple[str, ...]:
    """The three facings of the front (or rear) arc: the face and one hex on either side (rule K3)."""
    face = facing if front else turned(facing, "around")
    return face, turned(face, "left"), turned(face, "right")


@dataclass(frozen=True)
class Board:
    radius: int
    entry_facings: tuple[tuple[str, ...], ...]  # per player (index 0: player 1)

    def on(self, h: Hex) -> bool:
        q, r = h
        return max(abs(q), abs(r), abs(q + r)) <= self.radius

    @cached_property
    def hexes(self) -> tuple[Hex, ...]:
        n = self.radius
        return tuple((q, r) for r in range(-n, n + 1) for q in range(-n, n + 1) if self.on((q, r)))

    @cached_property
    def _names(self) -> dict[Hex, str]:
        out = {}
        for r in range(-self.radius, self.radius + 1):
            row = sorted(q for q, rr in self.hexes if rr == r)
            for i, q in enumerate(row, 1):
                out[(q, r)] = f"{chr(ord('A') + r + self.radius)}{i}"
        return out

    @cached_property
    def _by_name(self) -> dict[str, Hex]:
        return {name: h for h, name in self._names.items()}

    def name(self, h: Hex) -> str:
        return self._names[h]

    def hex_named(self, name: str) -> Hex | None:
        return self._by_name.get(name)

    def entries(self, facings: tuple[str, ...] = FACINGS) -> list[tuple[Hex, str]]:
        """Every (border hex, facing) a titan may come in by: the hex behind it is off the board."""
        return [(h, f) for h, f in self._entries if f in facings]

    @cached_property
    def _entries(self) -> list[tuple[Hex, str]]:
        return [(h, f) for h in self.hexes for f in FACINGS if not self.on(step(h, turned(f, "around")))]
