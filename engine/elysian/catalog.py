"""Elysian Battlefields' content as versioned data: land tiles, hero cards and the three decks.

One catalog version is a folder ``data/catalog/<version>/`` of four YAML files (catalog.yaml,
tiles.yaml, heroes.yaml, cards.yaml), checked against ``data/catalog.schema.json`` with jsonschema,
then against the book's numbers and the effect vocabulary (``VERBS``: which kinds of card may use
each verb and the fields it needs; what each verb does is said once, in the schema's descriptions),
and compiled once. Loading
never half-succeeds: a problem raises ``CatalogError`` naming the file, the item (a tile, hero or
card by key) and the field. The rule book prints no card or hero text, so version 1 is ours, says
it is unofficial, and is replaceable as data.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, NamedTuple

from jsonschema import Draft202012Validator

from .. import catalog_files
from ..catalog_files import CatalogError, fail

__all__ = ["CatalogError"]  # raised by load and check_path: importable from here

DEFAULT_VERSION = "1"
DATA = Path(__file__).resolve().parent / "data"
FILES = ("catalog.yaml", "tiles.yaml", "heroes.yaml", "cards.yaml")
DECKS = ("conquest", "rule", "reign")
DECK_SIZES = {"conquest": 31, "rule": 24, "reign": 25}  # the book's components list
HEROES = 5  # hero cards in the box
TILES = 15  # 3 land tiles per player, 5 players at most
TERRAINS = ("plains", "forest", "mountain", "water")



@dataclass(frozen=True)
class Effect:
    do: str  # the verb, one of VERBS
    n: int = 0
    unit: str | None = None
    what: str | None = None
    where: str | None = None


@dataclass(frozen=True)
class Tile:
    key: str
    name: str
    terrains: tuple[str, str, str]  # of its territories <key>a, <key>b, <key>c


@dataclass(frozen=True)
class Hero:
    key: str
    name: str
    attack: int
    defense: int
    move: int
    range: int
    ability: str  # the ability's name
    text: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Card:
    key: str
    name: str
    deck: str
    kind: str  # order, effect, upgrade or item
    copies: int
    text: str
    effects: tuple[Effect, ...]
    trigger: str | None  # effect cards only: when they are played


@dataclass(frozen=True, eq=False)
class Catalog:
    version: str
    title: str
    notice: str
    tiles: dict[str, Tile]
    heroes: dict[str, Hero]
    cards: dict[str, Card]
    decks: dict[str, Counter]  # deck -> Counter(card key -> copies)


# The vocabulary. ``kinds`` maps each kind of card that may use a verb ("ability": a hero's) to the
# sign its number must have there: 1 for one or more, -1 for minus one or less, 0 for either (not
# zero). ``fields`` are the fields the verb needs, each with the values it takes there.
class Verb(NamedTuple):
    kinds: dict[str, int]
    fields: Mapping[str, tuple[str, ...]] = {}  # never changed


_ORDER = {"order": 1}
_LASTING = {"upgrade": 1, "ability": 1}
VERBS = {
    "power": Verb({"order": 1, "effect": -1}),
    "attacks": Verb(_ORDER),
    "moves": Verb(_ORDER),
    "speed": Verb(_ORDER),
    "range": Verb(_ORDER),
    "deploy": Verb(_ORDER, {"unit": ("infantry", "archer", "cavalry", "any"), "where": ("settlement", "forces")}),
    "draw": Verb(_ORDER),
    "play": Verb(_ORDER),
    "build": Verb(_ORDER, {"what": ("outpost", "walls", "temple")}),
    "upgrade": Verb(_ORDER, {"what": ("fortress", "palace")}),
    "strike": Verb(_ORDER),
    "trap": Verb({"effect": 1}),
    "shield": Verb({"effect": 1}),
    "stat": Verb({"upgrade": 0, "ability": 0, "item": 0},
                 {"unit": ("infantry", "archer", "cavalry", "standard", "hero"),
                  "what": ("attack", "defense", "move", "range")}),
    "produce": Verb(_LASTING, {"what": ("cards", "units")}),
    "hand": Verb(_LASTING),
    "walls": Verb(_LASTING),
}
EFFECT_FIELDS = ("unit", "what", "where")
KIND_WORDS = {"order": "an order", "effect": "an Effect card", "upgrade": "an upgrade", "item": "a heroic item",
              "ability": "a hero's ability"}
SIGN_WORDS = {1: "1 or more", -1: "negative", 0: "a number other than 0"}


class EffectError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


def compile_effect(raw: dict[str, Any], kind: str, where: str) -> Effect:
    """One effect of the YAML form (``{deploy: 2, unit: any, where: settlement}``) as an Effect, for a
    card of ``kind`` (or "ability"); EffectError naming the field below ``where`` for anything the
    vocabulary does not allow there."""
    verbs = [k for k in raw if k in VERBS]
    if len(verbs) != 1:
        raise EffectError(where, f"an effect has exactly one verb ({', '.join(VERBS)}); this one has "
                                  f"{' and '.join(verbs) or 'none'}")
    do, n = verbs[0], raw[verbs[0]]
    verb = VERBS[do]
    if kind not in verb.kinds:
        allowed, who = ", ".join(v for v, spec in VERBS.items() if kind in spec.kinds), KIND_WORDS[kind]
        raise EffectError(f"{where}.{do}", f"{do!r} is not for {who}; the verbs of {who} are {allowed}")
    sign = verb.kinds[kind]
    if n == 0 or n * sign < 0:
        raise EffectError(f"{where}.{do}", f"on {KIND_WORDS[kind]}, {do} is {SIGN_WORDS[sign]}, not {n}")
    for name in EFFECT_FIELDS:
        values, value = verb.fields.get(name), raw.get(name)
        if values is None and value is not None:
            raise EffectError(f"{where}.{name}", f"{do} takes no {name!r}")
        if values is not None and value not in values:
            raise EffectError(f"{where}.{name}", f"{do} needs {name}: one of {', '.join(values)}"
                                                  + (f", not {value!r}" if value is not None else ""))
    if kind == "item" and raw.get("unit") != "hero":
        raise EffectError(f"{where}.unit", "a heroic item changes only its hero's statistics: unit: hero")
    return Effect(do, n, raw.get("unit"), raw.get("what"), raw.get("where"))


def effect_data(e: Effect) -> dict[str, Any]:
    """An effect in its YAML form again: the verb with its number, then the fields it has."""
    return {e.do: e.n, **{name: getattr(e, name) for name in EFFECT_FIELDS if getattr(e, name) is not None}}



@lru_cache(maxsize=None)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads((DATA / "catalog.schema.json").read_text(encoding="utf-8")))


_ITEM_KINDS = {"tiles": "tile", "heroes": "hero", "cards": "card"}


def validate(file: str, doc: Any) -> None:
    """A file's shape against the schema; its first problem as a CatalogError."""
    catalog_files.validate(_validator(), file, doc, _ITEM_KINDS)


def _effects(raw: list, kind: str, file: str, item: str, where: str) -> tuple[Effect, ...]:
    try:
        return tuple(compile_effect(e, kind, f"{where}[{i}]") for i, e in enumerate(raw))
    except EffectError as e:
        fail(file, item, e.field, e.message)


def _entries(docs: dict[str, Any], plural: str, build, count: int | None = None) -> dict[str, Any]:
    """The list ``plural`` of its file (tiles.yaml holds tiles …) by key, in file order, each built by
    ``build(raw, item)``; a key or a name used twice, or a count other than ``count``, refused."""
    file, kind = f"{plural}.yaml", _ITEM_KINDS[plural]
    out: dict[str, Any] = {}
    names: set[str] = set()
    for raw in docs[file][plural]:
        item = f"{kind} {raw['key']!r}"
        for fld, seen in (("key", out), ("name", names)):
            if raw[fld] in seen:
                fail(file, item, fld, f"this {fld} is used by an earlier {kind}")
        out[raw["key"]] = build(raw, item)
        names.add(raw["name"])
    if count is not None and len(out) != count:
        fail(file, None, plural, f"the game has {count} {plural}, not {len(out)}")
    return out


def _tile(raw: dict, _item: str) -> Tile:
    return Tile(raw["key"], raw["name"], tuple(raw["terrains"]))


def _hero(raw: dict, item: str) -> Hero:
    ab = raw["ability"]
    return Hero(raw["key"], raw["name"], raw["attack"], raw["defense"], raw["move"], raw["range"], ab["name"],
                ab["text"], _effects(ab["effects"], "ability", "heroes.yaml", item, "ability.effects"))


def _card(raw: dict, item: str) -> Card:
    kind, trigger = raw["kind"], raw.get("trigger")
    if (kind == "effect") != (trigger is not None):
        fail("cards.yaml", item, "trigger", "an Effect card needs a trigger (when it is played)" if kind == "effect"
              else f"only Effect cards have a trigger; this card is {KIND_WORDS[kind]}")
    return Card(raw["key"], raw["name"], raw["deck"], kind, raw["copies"], raw["text"],
                _effects(raw["effects"], kind, "cards.yaml", item, "effects"), trigger)


def compile_catalog(docs: dict[str, Any]) -> Catalog:
    """A catalog from the four files' decoded contents (by file name)."""
    for file in FILES:
        validate(file, docs.get(file))
    head = docs["catalog.yaml"]
    tiles = _entries(docs, "tiles", _tile, TILES)
    for i, key in enumerate(tiles, 1):
        if key != str(i):
            fail("tiles.yaml", f"tile {key!r}", "key", f"tiles are keyed 1 to {TILES} in order: this one is {i}")
    heroes = _entries(docs, "heroes", _hero, HEROES)
    cards = _entries(docs, "cards", _card)
    decks = {d: Counter({c.key: c.copies for c in cards.values() if c.deck == d}) for d in DECKS}
    for d, counts in decks.items():
        if counts.total() != DECK_SIZES[d]:
            fail("cards.yaml", f"deck {d!r}", "copies",
                  f"the {d} deck holds {DECK_SIZES[d]} cards; its cards' copies add up to {counts.total()}")
    return Catalog(head["version"], head["title"], head["notice"], tiles, heroes, cards, decks)


def load(version: str = DEFAULT_VERSION) -> Catalog:
    """The catalog of ``version``, compiled once: CatalogError for a bad file, KeyError for no such version."""
    return _load(version)  # one cache entry whether the version is given or not


@lru_cache(maxsize=None)
def _load(version: str) -> Catalog:
    cat = compile_catalog(read_files(_folder(version)))
    if cat.version != version:
        fail("catalog.yaml", None, "version", f"says {cat.version!r} but lies in the folder {version!r}")
    return cat


def versions() -> list[str]:
    """The catalog versions, oldest first (numbers by value: 10 comes after 9); the last is the default."""
    return catalog_files.versions(DATA / "catalog")



def _folder(version: str) -> Path:
    folder = DATA / "catalog" / version
    if not version or "/" in version or "\\" in version or version.startswith(".") or not folder.is_dir():
        raise KeyError(f"there is no Elysian Battlefields catalog version {version!r}; the versions are "
                       f"{', '.join(versions())}")
    return folder


def read_files(folder: Path, names: tuple[str, ...] = FILES) -> dict[str, Any]:
    return catalog_files.read_files(folder, names)


def check_path(path: Path, version: str) -> str:
    """An organiser's catalog checked: a folder of the four files, or one of them (by its name) put in
    place of that file of catalog ``version``; a one-line summary, or CatalogError naming the file,
    the item and the field."""
    cat, said = catalog_files.check_path(path, _folder(version), FILES, "Elysian Battlefields", compile_catalog)
    decks = ", ".join(f"{d} {len(cat.decks[d])} cards ({cat.decks[d].total()} with copies)" for d in DECKS)
    return f"{said}catalog {cat.version}: {len(cat.tiles)} tiles, {len(cat.heroes)} heroes; {decks}"


def catalog_data(cat: Catalog) -> dict[str, Any]:
    """A catalog as plain data (JSON-ready), for recorders, searching and the catalog's page: every
    tile with its terrains, every hero (numbers, ability), every card (deck, kind, copies, text,
    trigger, on Effect cards), each with its effects in their YAML form, and each deck's size."""
    return {
        "version": cat.version,
        "title": cat.title,
        "notice": cat.notice,
        "tiles": [{"key": t.key, "name": t.name, "terrains": list(t.terrains)} for t in cat.tiles.values()],
        "heroes": [{"key": h.key, "name": h.name, "attack": h.attack, "defense": h.defense, "move": h.move,
                    "range": h.range, "ability": h.ability, "text": h.text,
                    "effects": [effect_data(e) for e in h.effects]} for h in cat.heroes.values()],
        "cards": [{"key": c.key, "name": c.name, "deck": c.deck, "kind": c.kind, "copies": c.copies,
                   "text": c.text, **({"trigger": c.trigger} if c.trigger else {}),
                   "effects": [effect_data(e) for e in c.effects]} for c in cat.cards.values()],
        "decks": {d: counts.total() for d, counts in cat.decks.items()},
    }
