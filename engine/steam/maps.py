"""A catalog's terrain boards and the maps laid from them (maps.yaml), compiled and checked: each board
5 rows of 6 hexes with its cities where its letters say, and each player count's maps laid with the
boards the manual's set-up calls for, six cities of six colours, no city next to another. The map is
in odd-r offset coordinates (odd rows sit half a hex to the right); a board laid at (column, row)
covers those cells onwards."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from ..catalog_files import fail
from .content import Board
from .pieces import CITY, COLOURS, WASTELAND

FILE = "maps.yaml"
LETTERS = {"d": "desert", "f": "forest", "g": "glacier", "l": "lake", "v": "lava", "m": "mountain", "w": WASTELAND,
           "C": CITY}  # a board's letters
CITIES_ON = {"A": 2, "B": 2, "C": 1}  # cities printed on a board of each side
# boards of side A or B (all of one side) and of side C, by player count (the manual's set-up)
SIDES = {2: (3, 0), 3: (3, 0), 4: (2, 2), 5: (1, 4), 6: (0, 6)}
Placed = tuple[tuple[str, int, int], ...]  # (board, column, row)


def neighbour_cells(col: int, row: int) -> list[tuple[int, int]]:
    """The six cells next to a cell in odd-r offset coordinates."""
    if row % 2 == 0:
        deltas = ((1, 0), (-1, 0), (0, -1), (-1, -1), (0, 1), (-1, 1))
    else:
        deltas = ((1, 0), (-1, 0), (1, -1), (0, -1), (1, 1), (0, 1))
    return [(col + dc, row + dr) for dc, dr in deltas]


def compile_boards(raw: list[dict[str, Any]]) -> dict[str, Board]:
    boards: dict[str, Board] = {}
    for b in raw:
        item = f"board {b['key']!r}"
        if b["key"] in boards:
            fail(FILE, item, "key", "this key is used by an earlier board")
        cities = {tuple(int(x) for x in cell.split(",")): colour for cell, colour in b["cities"].items()}
        drawn = {(c, r) for r, letters in enumerate(b["rows"]) for c, letter in enumerate(letters) if letter == "C"}
        for cell in sorted(set(cities) ^ drawn):
            said = "cities but not in rows (letter C)" if cell in cities else "rows but not in cities"
            fail(FILE, item, "cities" if cell in cities else f"rows[{cell[1]}]",
                 f"hex {cell[0]},{cell[1]} is a city in {said}")
        side = b["key"][0]
        if len(cities) != CITIES_ON[side]:
            fail(FILE, item, "cities", f"a board of side {side} has {CITIES_ON[side]} cities, not {len(cities)}")
        if len(set(cities.values())) != len(cities):
            fail(FILE, item, "cities", "two cities of one board have one colour")
        boards[b["key"]] = Board(b["key"], side, tuple(b["rows"]), dict(sorted(cities.items())))
    return boards


def compile_layouts(raw: list[dict[str, Any]], boards: dict[str, Board],
                    players: Iterable[int]) -> dict[int, dict[str, Placed]]:
    """Each player count's maps by name; every count of ``players`` laid exactly once."""
    layouts: dict[int, dict[str, Placed]] = {}
    for i, entry in enumerate(raw):
        for n in entry["players"]:
            if n in layouts:
                fail(FILE, f"layout #{i + 1}", "players", f"{n} players are laid out by an earlier layout")
            layouts[n] = {}
            for name, placed in entry["maps"].items():
                for j, p in enumerate(placed):
                    if p["board"] not in boards:
                        fail(FILE, f"map {name!r} for {n} players", f"maps.{name}[{j}].board",
                             f"there is no board {p['board']!r}; the boards are {', '.join(boards)}")
                layouts[n][name] = tuple((p["board"], p["col"], p["row"]) for p in placed)
    missing = [n for n in players if n not in layouts]
    if missing:
        fail(FILE, None, "layouts", f"no map for {', '.join(map(str, missing))} players")
    return dict(sorted(layouts.items()))


def check_layouts(layouts: dict[int, dict[str, Placed]], boards: dict[str, Board]) -> None:
    """Each map: the boards the set-up calls for, none overlapping, six cities of six colours, none next
    to another."""
    for n, maps in layouts.items():
        for name, placed in maps.items():
            item = f"map {name!r} for {n} players"
            sides = Counter(boards[k].side for k, _, _ in placed)
            wanted_ab, wanted_c = SIDES[n]
            if sides["C"] != wanted_c or sides["A"] + sides["B"] != wanted_ab or (sides["A"] and sides["B"]):
                fail(FILE, item, f"maps.{name}", f"{n} players lay {wanted_ab} boards of side A or of side B "
                                                 f"(all one side) and {wanted_c} of side C, not "
                                                 + ", ".join(f"{v} of side {s}" for s, v in sorted(sides.items())))
            cities: dict[tuple[int, int], str] = {}
            cells: set[tuple[int, int]] = set()
            for j, (key, dc, dr) in enumerate(placed):
                board = boards[key]
                mine = {(c + dc, r + dr) for r, letters in enumerate(board.rows) for c in range(len(letters))}
                if mine & cells:
                    fail(FILE, item, f"maps.{name}[{j}]", f"board {key} laid at {dc},{dr} overlaps an earlier board")
                cells |= mine
                cities.update({(c + dc, r + dr): colour for (c, r), colour in board.cities.items()})
            colours = Counter(cities.values())
            if len(cities) != len(COLOURS) or set(colours) != set(COLOURS):
                fail(FILE, item, f"maps.{name}", "a map has six cities, one of each colour; this one has "
                                                 + ", ".join(f"{v} {c}" for c, v in sorted(colours.items())))
            for (c, r) in sorted(cities):
                near = [cell for cell in neighbour_cells(c, r) if cell in cities]
                if near:
                    fail(FILE, item, f"maps.{name}", f"the cities at {c},{r} and {near[0][0]},{near[0][1]} (map "
                                                     "cells) are next to each other")
