"""Titans' content as versioned data: species, titans, maneuvers, the field and hazard layouts.

One catalog version is a folder ``data/catalog/<version>/`` of four YAML files (catalog.yaml,
basic.yaml, species.yaml, board.yaml), validated against ``data/catalog.schema.json`` with
jsonschema and compiled once (effects: ``effects.py``). Loading never half-succeeds: a problem
raises ``CatalogError`` naming the file, the item (a species, titan, maneuver or layout by key) and
the field. The content is unofficial (catalog.yaml says so) and replaceable as data.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from .. import catalog_files
from ..catalog_files import CatalogError, fail

__all__ = ["CatalogError"]  # raised by load and check_path: importable from here
from .board import Board
from .effects import Effect, EffectError, compile_effects

DEFAULT_VERSION = "2"  # the newest; 1 stays for the logs played under it (docs/titans.md, "Content")
DATA = Path(__file__).resolve().parent / "data"
FILES = ("catalog.yaml", "basic.yaml", "species.yaml", "board.yaml")
BASIC_CARDS = 21  # the basic maneuvers in every deck
SPECIES_CARDS = 11  # each species' maneuvers
SQUAD = 4  # titans in a squad, and in a species (docs/titans-rules.md, K1)
DECK_CARDS = 28  # a player's maneuvers: the basic ones and 7 of the species' (rule 2.2)
HAZARDS = ("regenerate", "portal", "air-pocket", "foom", "soothing-wind", "toxic-blast", "air-current",
           "whirlwind", "lightning")



@dataclass(frozen=True)
class Maneuver:
    key: str
    name: str
    active: bool  # active (stays in play) or burn-immediately
    copies: int
    species: str | None  # None: a basic maneuver
    text: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Titan:
    key: str
    name: str
    species: str
    stack: int
    initiative: int
    strength: int
    endurance: int
    ability_name: str
    text: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Species:
    key: str
    name: str
    titans: tuple[str, ...]
    maneuvers: tuple[str, ...]  # keys, one per distinct card


@dataclass(frozen=True, eq=False)
class Catalog:
    version: str
    title: str
    notice: str
    species: dict[str, Species]
    titans: dict[str, Titan]
    maneuvers: dict[str, Maneuver]
    basic: tuple[str, ...]
    board: Board
    hazard_pile: dict[str, int]
    layouts: dict[str, tuple[str, ...]]

    def basic_counts(self) -> Counter:
        return Counter({k: self.maneuvers[k].copies for k in self.basic})

    def species_counts(self, species: str) -> Counter:
        return Counter({k: self.maneuvers[k].copies for k in self.species[species].maneuvers})



@lru_cache(maxsize=None)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads((DATA / "catalog.schema.json").read_text(encoding="utf-8")))


def _item_and_field(doc: Any, path: list) -> tuple[str | None, str]:
    """The innermost keyed item on ``path`` ("titan 'ashmaw'") and the field below it."""
    item, rest, node, kind = None, list(path), doc, None
    for i, step in enumerate(path):
        if isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
            if isinstance(node, dict) and isinstance(node.get("key"), str):
                item, rest = f"{kind or 'item'} {node['key']!r}", path[i + 1:]
        elif isinstance(node, dict) and step in node:
            kind = {"titans": "titan", "maneuvers": "maneuver", "species": "species",
                    "hazard_layouts": "layout"}.get(step, kind)
            node = node[step]
        else:
            break
    return item, ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in rest).replace(".[", "[") or "(the item)"


def validate(file: str, doc: Any) -> None:
    """The file's shape against the schema; the first problem as a CatalogError."""
    root = _validator().schema["properties"][file]
    errors = sorted(_validator().evolve(schema={**root, "$defs": _validator().schema["$defs"]}).iter_errors(doc),
                    key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        e = errors[0]
        item, fld = _item_and_field(doc, list(e.absolute_path))
        fail(file, item, fld, e.message)


def _maneuver(raw: dict, species: str | None, file: str) -> Maneuver:
    try:
        effects = compile_effects(raw["effects"], "effects")
    except EffectError as e:
        fail(file, f"maneuver {raw['key']!r}", e.field, e.message)
    return Maneuver(raw["key"], raw["name"], raw["kind"] == "active", raw["copies"], species, raw["text"], effects)


def _titan(raw: dict, species: str, file: str) -> Titan:
    ab = raw["ability"]
    try:
        effects = compile_effects(ab["effects"], "ability.effects")
    except EffectError as e:
        fail(file, f"titan {raw['key']!r}", e.field, e.message)
    return Titan(raw["key"], raw["name"], species, raw["stack"], raw["initiative"], raw["strength"],
                 raw["endurance"], ab["name"], ab["text"], effects)


def compile_catalog(docs: dict[str, Any]) -> Catalog:
    """A catalog from the four files' decoded contents (by file name)."""
    for file in FILES:
        validate(file, docs.get(file))
    head, board_doc = docs["catalog.yaml"], docs["board.yaml"]
    maneuvers: dict[str, Maneuver] = {}
    titans: dict[str, Titan] = {}

    def add(table: dict, value: Any, file: str, kind: str) -> None:
        if value.key in table or value.key in maneuvers or value.key in titans:
            fail(file, f"{kind} {value.key!r}", "key", "this key is used twice in the catalog")
        table[value.key] = value

    basic = []
    for raw in docs["basic.yaml"]["maneuvers"]:
        add(maneuvers, _maneuver(raw, None, "basic.yaml"), "basic.yaml", "maneuver")
        basic.append(raw["key"])
    if sum(maneuvers[k].copies for k in basic) != BASIC_CARDS:
        fail("basic.yaml", None, "maneuvers", f"the basic maneuvers come to {BASIC_CARDS} cards with their copies")
    species: dict[str, Species] = {}
    for raw in docs["species.yaml"]["species"]:
        key = raw["key"]
        if key in species:
            fail("species.yaml", f"species {key!r}", "key", "this species is listed twice")
        if len(raw["titans"]) != SQUAD:
            fail("species.yaml", f"species {key!r}", "titans", f"a species has {SQUAD} titans")
        for t in raw["titans"]:
            add(titans, _titan(t, key, "species.yaml"), "species.yaml", "titan")
        for m in raw["maneuvers"]:
            add(maneuvers, _maneuver(m, key, "species.yaml"), "species.yaml", "maneuver")
        if sum(m["copies"] for m in raw["maneuvers"]) != SPECIES_CARDS:
            fail("species.yaml", f"species {key!r}", "maneuvers",
                  f"a species has {SPECIES_CARDS} maneuver cards with their copies")
        species[key] = Species(key, raw["name"], tuple(t["key"] for t in raw["titans"]),
                               tuple(m["key"] for m in raw["maneuvers"]))
    _check_stacks(species, titans)
    b = board_doc["board"]
    sides = sorted(b["sides"], key=lambda s: s["player"])
    if [s["player"] for s in sides] != [1, 2]:
        fail("board.yaml", None, "board.sides", "one side for player 1 and one for player 2")
    board = Board(b["radius"], tuple(tuple(s["facings"]) for s in sides))
    pile = dict(board_doc["hazard_pile"])
    unknown = sorted(set(pile) - set(HAZARDS))
    if unknown:
        fail("board.yaml", None, f"hazard_pile.{unknown[0]}", f"no such hazard; the hazards are {', '.join(HAZARDS)}")
    layouts: dict[str, tuple[str, ...]] = {}
    for raw in board_doc["hazard_layouts"]:
        where = f"layout {raw['key']!r}"
        bad = [h for h in raw["hexes"] if board.hex_named(h) is None]
        if bad:
            fail("board.yaml", where, "hexes", f"{bad[0]} is not a hex of the field")
        if len(set(raw["hexes"])) != len(raw["hexes"]) or len(raw["hexes"]) > sum(pile.values()):
            fail("board.yaml", where, "hexes", "each hex once, and no more hexes than hazard tokens")
        layouts[raw["key"]] = tuple(raw["hexes"])
    return Catalog(head["version"], head["title"], head["notice"], species, titans, maneuvers, tuple(basic),
                   board, pile, layouts)


def _check_stacks(species: dict[str, Species], titans: dict[str, Titan]) -> None:
    """Every squad the rules allow is dealt from one deck: a species' four titans, or three of them
    and an ally's (rule 10.1), must have stacks of at most ``DECK_CARDS`` cards together."""
    for key, s in species.items():
        own = sorted((titans[t] for t in s.titans), key=lambda t: -t.stack)
        ally = max((t for t in titans.values() if t.species != key), key=lambda t: t.stack, default=None)
        for squad in (own, own[:SQUAD - 1] + ([ally] if ally else [])):
            total = sum(t.stack for t in squad)
            if total > DECK_CARDS:
                fail("species.yaml", f"species {key!r}", "titans",
                      f"the stacks of {', '.join(t.key for t in squad)} come to {total} cards, more than the "
                      f"{DECK_CARDS} of a deck (a squad of the species, or three of it and an ally)")


@lru_cache(maxsize=None)
def load(version: str = DEFAULT_VERSION) -> Catalog:
    """The catalog of ``version`` (cached): CatalogError for a bad file, KeyError for no such version."""
    folder = _folder(version)
    cat = compile_catalog(read_files(folder))
    if cat.version != version:
        fail("catalog.yaml", None, "version", f"says {cat.version!r} but lies in the folder {version!r}")
    return cat


def _folder(version: str) -> Path:
    folder = DATA / "catalog" / version
    if not version or "/" in version or not folder.is_dir():
        raise KeyError(f"unknown Titans catalog version {version!r}; known: {', '.join(versions())}")
    return folder


def read_files(folder: Path, names: tuple[str, ...] = FILES) -> dict[str, Any]:
    return catalog_files.read_files(folder, names)


def check_path(path: Path, version: str) -> str:
    """An organiser's catalog checked: a folder of the four files, or one of them (by its name) put in
    place of that file of catalog ``version``; a one-line summary, or CatalogError naming the file,
    the item and the field."""
    cat, said = catalog_files.check_path(path, _folder(version), FILES, "Titans", compile_catalog)
    return (f"{said}catalog {cat.version}: {len(cat.species)} species, {len(cat.titans)} titans, "
            f"{len(cat.maneuvers)} maneuvers, {len(cat.layouts)} hazard layout(s)")


def versions() -> list[str]:
    """The catalog versions, oldest first (numbers by value: 10 comes after 9); the last is the default."""
    return catalog_files.versions(DATA / "catalog")


def catalog_data(cat: Catalog) -> dict[str, Any]:
    """A catalog as plain data (JSON-ready), for recorders and searching: each species with its
    titans and its maneuvers' keys, every titan (its numbers and ability), every maneuver (kind,
    species, copies, text), the field and the hazard tokens and layouts."""
    return {
        "version": cat.version,
        "title": cat.title,
        "notice": cat.notice,
        "species": [{"key": s.key, "name": s.name, "titans": list(s.titans), "maneuvers": list(s.maneuvers)}
                    for s in cat.species.values()],
        "titans": [{"key": t.key, "name": t.name, "species": t.species, "stack": t.stack,
                    "initiative": t.initiative, "strength": t.strength, "endurance": t.endurance,
                    "ability": t.ability_name, "text": t.text} for t in cat.titans.values()],
        "maneuvers": [{"key": m.key, "name": m.name, "kind": "active" if m.active else "burn immediately",
                       "species": m.species or "basic", "copies": m.copies, "text": m.text}
                      for m in cat.maneuvers.values()],
        "board": {"radius": cat.board.radius, "hexes": [cat.board.name(h) for h in cat.board.hexes],
                  "entry_facings": [list(f) for f in cat.board.entry_facings]},
        "hazards": [{"name": name, "tokens": n} for name, n in cat.hazard_pile.items()],
        "layouts": {name: list(hexes) for name, hexes in cat.layouts.items()},
    }
