"""The field of Elysian Battlefields: land tiles of three territories laid on a hex grid.

A territory is one hex (axial coordinates ``(q, r)``); a land tile covers three hexes that touch
each other (a triangle), its territories ``<tile>a``, ``<tile>b`` and ``<tile>c`` going clockwise
as printed (a tile is never turned over: docs/elysian-rules.md, C1). Two territories are adjacent
when their hexes share a side; a gap between tiles is not a territory and is never counted
(the book's range rule). Tiles touch ("contact") when a hex of one is adjacent to a hex of the other.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field

Hex = tuple[int, int]
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # E, NE, NW, W, SW, SE
HEX_WORD = re.compile(r"^(-?[0-9]{1,2}),(-?[0-9]{1,2})$")
LETTERS = "abc"


def hex_name(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def read_hex(word: str) -> Hex | None:
    m = HEX_WORD.match(word)
    return (int(m.group(1)), int(m.group(2))) if m else None


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


def _screen(h: Hex) -> tuple[float, float]:
    return h[0] + h[1] / 2, h[1] * 0.8660254


def clockwise(a: Hex, b: Hex, c: Hex) -> bool:
    """Whether a → b → c turns clockwise as drawn (pointy-top hexes, rows going down the page)."""
    (ax, ay), (bx, by), (cx, cy) = _screen(a), _screen(b), _screen(c)
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0


def triangles_at(h: Hex) -> list[tuple[Hex, Hex, Hex]]:
    """The six triangles of hexes that include ``h``, each in clockwise order starting at ``h``."""
    out = []
    for i in range(6):
        b = (h[0] + DIRECTIONS[i][0], h[1] + DIRECTIONS[i][1])
        c = (h[0] + DIRECTIONS[(i + 1) % 6][0], h[1] + DIRECTIONS[(i + 1) % 6][1])
        out.append((h, b, c) if clockwise(h, b, c) else (h, c, b))
    return out


def is_triangle(a: Hex, b: Hex, c: Hex) -> bool:
    return b in neighbours(a) and c in neighbours(a) and c in neighbours(b)


def rotations(tri: tuple[Hex, Hex, Hex]) -> list[tuple[Hex, Hex, Hex]]:
    a, b, c = tri
    return [(a, b, c), (b, c, a), (c, a, b)]


@dataclass(frozen=True)
class Territory:
    name: str
    tile: str
    terrain: str
    hex: Hex


@dataclass
class Field:
    """The tiles laid so far: territories by name and by hex."""

    territories: dict[str, Territory] = field(default_factory=dict)
    at: dict[Hex, str] = field(default_factory=dict)
    tiles: list[str] = field(default_factory=list)  # in the order laid
    # worked out from the above when first asked, and again after a tile is laid (a copy shares them
    # until then: they are never changed in place)
    _adjacent: dict[str, list[str]] = field(default_factory=dict)
    _distance: dict[str, dict[str, int]] = field(default_factory=dict)

    def copy(self) -> Field:
        return Field(dict(self.territories), dict(self.at), list(self.tiles), self._adjacent, self._distance)

    def lay(self, tile: str, terrains: tuple[str, ...], hexes: tuple[Hex, Hex, Hex]) -> None:
        for letter, terrain, h in zip(LETTERS, terrains, hexes):
            t = Territory(f"{tile}{letter}", tile, terrain, h)
            self.territories[t.name] = t
            self.at[h] = t.name
        self.tiles.append(tile)
        self._adjacent, self._distance = {}, {}

    def adjacent(self, name: str) -> list[str]:
        out = self._adjacent.get(name)
        if out is None:
            out = self._adjacent[name] = [self.at[n] for n in neighbours(self.territories[name].hex) if n in self.at]
        return out

    def distance(self, a: str, b: str) -> int:
        """Steps from territory ``a`` to ``b`` over the field, any terrain (a large number when no path)."""
        row = self._distance.get(a)
        if row is None:
            row = self._distance[a] = self.distances(a, len(self.territories))
        return row.get(b, 1_000)

    def tiles_touched(self, hexes: tuple[Hex, ...]) -> set[str]:
        return {self.territories[self.at[n]].tile for h in hexes for n in neighbours(h) if n in self.at}

    def placements(self) -> list[tuple[Hex, Hex, Hex]]:
        """Every free triangle next to the field (or around 0,0 on an empty one), each in its three
        clockwise rotations; whether it touches enough tiles is the caller's rule."""
        if not self.at:
            spots = [(0, 0)]
        else:
            spots = sorted({n for h in self.at for n in neighbours(h) if n not in self.at})
        seen, out = set(), []
        for s in spots:
            for tri in triangles_at(s):
                key = frozenset(tri)
                if key in seen or any(h in self.at for h in tri):
                    continue
                if self.at or (0, 0) in tri:
                    seen.add(key)
                    out += rotations(tri)
        return out

    def distances(self, start: str, limit: int) -> dict[str, int]:
        """Territories within ``limit`` steps of ``start`` over the field (any terrain), with their
        distance: how far a unit reaches to attack."""
        out = {start: 0}
        todo = deque([start])
        while todo:
            t = todo.popleft()
            if out[t] == limit:
                continue
            for n in self.adjacent(t):
                if n not in out:
                    out[n] = out[t] + 1
                    todo.append(n)
        return out

    def reachable(self, start: str, steps: int, passable) -> dict[str, int]:
        """Where a unit at ``start`` can move in up to ``steps`` territories, entering only those
        ``passable`` says yes to (a unit moves into or through them), with the steps taken."""
        out = {start: 0}
        todo = deque([start])
        while todo:
            t = todo.popleft()
            if out[t] == steps:
                continue
            for n in self.adjacent(t):
                if n not in out and passable(n):
                    out[n] = out[t] + 1
                    todo.append(n)
        del out[start]
        return out
