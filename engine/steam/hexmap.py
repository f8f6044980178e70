"""The hex map of a Spells & Steam game: the boards of the set-up placed as the catalog's layout says,
in odd-r offset coordinates (odd rows sit half a hex to the right), each hex named by its column
letter and row number as players read them off the map ("c4"). What stands on the map (goods, cars,
wastelands placed) is the game's (``game.py``); this module is the geometry, worked out once per
layout and shared by every game on it."""

from __future__ import annotations

import string
from dataclasses import dataclass, field

from .content import Catalog
from .maps import LETTERS, neighbour_cells
from .pieces import TERRAINS

COLUMNS = string.ascii_lowercase


@dataclass(frozen=True)
class HexMap:
    """A laid-out map: hexes numbered 0…n-1 in reading order (row by row)."""

    names: tuple[str, ...]  # "c4"
    cells: tuple[tuple[int, int], ...]  # (column, row)
    terrains: tuple[str, ...]  # as printed: a terrain, wasteland or city
    cities: tuple[str | None, ...]  # a city's colour
    around: tuple[tuple[int, ...], ...]  # the hexes next to each
    edge: tuple[bool, ...]  # on the edge of the map (fewer than six neighbours on it)
    boards: tuple[tuple[str, int, int], ...]  # (board, column, row) as laid
    at: dict[str, int] = field(default_factory=dict, hash=False, compare=False)  # a hex's number by its name

    @property
    def size(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int | None:
        return self.at.get(name)

    def city_hexes(self) -> list[int]:
        return [h for h, c in enumerate(self.cities) if c is not None]


def hex_name(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def layout_names(cat: Catalog, players: int) -> list[str]:
    """The map names the catalog lays for a player count ("A", "B"; "C" for six)."""
    return sorted(cat.layouts.get(players, {}))


_BUILT: dict[tuple[int, int, str], tuple[Catalog, HexMap]] = {}


def build(cat: Catalog, players: int, name: str) -> HexMap:
    """The map of ``players`` players named ``name`` (KeyError: the catalog has no such layout), worked out
    once per catalog and layout."""
    key = (id(cat), players, name)
    found = _BUILT.get(key)
    if found is None or found[0] is not cat:
        found = _BUILT[key] = (cat, _lay(cat, players, name))
    return found[1]


def _lay(cat: Catalog, players: int, name: str) -> HexMap:
    placed = cat.layouts[players][name]
    found: dict[tuple[int, int], tuple[str, str | None]] = {}
    for board_key, dc, dr in placed:
        board = cat.boards[board_key]
        for r, letters in enumerate(board.rows):
            for c, letter in enumerate(letters):
                found[(c + dc, r + dr)] = (LETTERS[letter], board.cities.get((c, r)))
    cells = tuple(sorted(found, key=lambda cr: (cr[1], cr[0])))
    at = {cr: i for i, cr in enumerate(cells)}
    around = tuple(tuple(at[n] for n in neighbour_cells(*cr) if n in at) for cr in cells)
    return HexMap(names=tuple(hex_name(*cr) for cr in cells), cells=cells,
                  terrains=tuple(found[cr][0] for cr in cells), cities=tuple(found[cr][1] for cr in cells),
                  around=around, edge=tuple(len(a) < 6 for a in around), boards=tuple(placed),
                  at={hex_name(*cr): i for i, cr in enumerate(cells)})


def producing(terrain: str) -> bool:
    return terrain in TERRAINS
