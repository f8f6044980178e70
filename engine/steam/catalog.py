"""Empyreal: Spells & Steam's content as versioned data: spellcars, specialists (captains too),
companies' folios, awards, and the terrain boards with the maps laid from them.

One catalog version is a folder ``data/catalog/<version>/`` of six YAML files (``FILES``), checked
against ``data/catalog.schema.json`` with jsonschema, then against the manual's counts, the effect
vocabulary (``vocabulary.py``) and what ties the files together (captains' companies and spellcars,
folios' printed spellcars, the maps' cities), and compiled once to the values of ``content.py``.
Loading never half-succeeds: a problem raises ``CatalogError`` naming the file, the item (by key) and
the field. The manual names every spellcar, specialist and award but shows the boards, the folios and
the common spellcars' terrains only in pictures: version 1 invents those, marks them ``unofficial``,
and is replaceable as data.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from jsonschema import Draft202012Validator

from .. import catalog_files
from ..catalog_files import CatalogError, fail
from .content import Award, Catalog, Company, Specialist, Spellcar
from .maps import check_layouts, compile_boards, compile_layouts
from .pieces import MAX_PLAYERS, MIN_PLAYERS
from .vocabulary import BOTH_WAYS, STANDING, EffectError, compile_effects, effect_data

__all__ = ["CatalogError"]  # raised by load and check_path: importable from here

DEFAULT_VERSION = "1"
DATA = Path(__file__).resolve().parent / "data"
FILES = ("catalog.yaml", "maps.yaml", "companies.yaml", "spellcars.yaml", "specialists.yaml", "awards.yaml")
# the manual's components list
MARKET_TILES = 67  # spellcar tiles in the market pool (the company spellcars are printed on folios)
UNIQUE_SPELLCARS = 31
SPECIALISTS = {"captain": 8, "engineer": 17, "surveyor": 17, "station": 17}
COMPANIES = 6
AWARDS = 10
ITEM_KINDS = {"boards": "board", "layouts": "layout", "companies": "company", "spellcars": "spellcar",
              "specialists": "specialist", "awards": "award"}
LISTS = {"specialists": "specialists", "captain": "captains", "engineer": "engineers", "surveyor": "surveyors",
         "station": "station_masters"}


@lru_cache(maxsize=None)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads((DATA / "catalog.schema.json").read_text(encoding="utf-8")))


def validate(file: str, doc: Any) -> None:
    """A file's shape against the schema; its first problem as a CatalogError."""
    catalog_files.validate(_validator(), file, doc, ITEM_KINDS)


def _entries(docs: dict[str, Any], file: str, plural: str, build: Callable[[dict, str], Any]) -> dict[str, Any]:
    """The list ``plural`` of ``file`` by key, in file order, each built by ``build(raw, item)``; a key
    or a name used twice refused."""
    kind = ITEM_KINDS[plural]
    out: dict[str, Any] = {}
    names: set[str] = set()
    for raw in docs[file][plural]:
        item = f"{kind} {raw['key']!r}"
        for fld, seen in (("key", out), ("name", names)):
            if raw.get(fld) in seen:
                fail(file, item, fld, f"this {fld} is used by an earlier {kind}")
        out[raw["key"]] = build(raw, item)
        names.add(raw.get("name"))
    return out


def _effects(raw: dict, file: str, item: str):
    try:
        return compile_effects(raw["effects"], "effects")
    except EffectError as e:
        fail(file, item, e.field, e.message)


def _spellcar(raw: dict, item: str) -> Spellcar:
    kind, copies = raw["kind"], raw["copies"]
    if (kind == "company") != (copies == 0):
        fail("spellcars.yaml", item, "copies", "a company spellcar is printed on its folio, never in the market: "
              "copies 0" if kind == "company" else f"a {kind} spellcar is in the market: copies 1 or more")
    return Spellcar(raw["key"], raw["name"], kind, copies, raw["cost"], raw["text"],
                    _effects(raw, "spellcars.yaml", item), raw.get("friendly", True))


def _specialist(raw: dict, item: str) -> Specialist:
    kind, trigger = raw["kind"], raw.get("trigger", "use")
    effects = _effects(raw, "specialists.yaml", item)
    if trigger == "passive" and kind != "station":
        fail("specialists.yaml", item, "trigger", f"only station masters have standing rules; this is a {kind}")
    for i, e in enumerate(effects):
        if trigger == "passive" and e.op not in STANDING | BOTH_WAYS:
            fail("specialists.yaml", item, f"effects[{i}].op",
                 f"a passive station master's effects are standing rules ({', '.join(sorted(STANDING | BOTH_WAYS))}); "
                 f"{e.op} is done when used: trigger use")
        if trigger == "use" and e.op in STANDING:
            fail("specialists.yaml", item, f"effects[{i}].op", f"{e.op} is a standing rule: only a passive station "
                                                                 "master has it (trigger passive)")
    for fld in ("company", "spellcar"):
        if kind != "captain" and raw.get(fld) is not None:
            fail("specialists.yaml", item, fld, f"only a captain has a {fld}; this is a {kind}")
    return Specialist(raw["key"], raw["name"], kind, raw["cost"], raw["text"], effects, trigger,
                      raw.get("company"), raw.get("spellcar"), raw.get("friendly", True))


def _company(raw: dict, _item: str) -> Company:
    printed = tuple((p["column"], p["row"], p["spellcar"]) for p in raw["printed"])
    return Company(raw["key"], raw["name"], raw["colour"], raw["home"], raw["captain"], raw["columns"], printed,
                   raw.get("text", ""))


def _award(raw: dict, _item: str) -> Award:
    return Award(raw["key"], raw["name"], raw["text"], raw["metric"], raw.get("most", True),
                 raw.get("two_players", True))


def _count(file: str, item: str | None, field: str, what: str, wanted: int, got: int) -> None:
    if wanted != got:
        fail(file, item, field, f"the game has {wanted} {what}, not {got}")


def _check_counts(spellcars: dict[str, Spellcar], specialists: dict[str, Specialist],
                  companies: dict[str, Company], awards: dict[str, Award]) -> None:
    market = [s for s in spellcars.values() if s.kind != "company"]
    _count("spellcars.yaml", None, "spellcars", "unique spellcars", UNIQUE_SPELLCARS,
           sum(s.kind == "unique" for s in market))
    for s in market:
        if s.kind == "unique" and s.copies != 1:
            fail("spellcars.yaml", f"spellcar {s.key!r}", "copies", "a unique spellcar is one tile: copies 1")
    _count("spellcars.yaml", None, "copies", "spellcar tiles in the market pool", MARKET_TILES,
           sum(s.copies for s in market))
    kinds = Counter(s.kind for s in specialists.values())
    for kind, wanted in SPECIALISTS.items():
        _count("specialists.yaml", None, "specialists", LISTS[kind].replace("_", " "), wanted, kinds[kind])
    _count("companies.yaml", None, "companies", "companies", COMPANIES, len(companies))
    _count("awards.yaml", None, "awards", "awards", AWARDS, len(awards))


def _check_ties(spellcars: dict[str, Spellcar], specialists: dict[str, Specialist],
                companies: dict[str, Company]) -> None:
    """Captains' companies and spellcars exist; each folio has its captain's spellcar and prints only
    company spellcars, each once, in slots inside the folio; every company spellcar is printed."""
    for s in specialists.values():
        item = f"specialist {s.key!r}"
        if s.kind != "captain":
            continue
        if s.company is not None and s.company not in companies:
            fail("specialists.yaml", item, "company", f"there is no company {s.company!r} in companies.yaml")
        if (s.company is None) != (s.spellcar is None):
            fail("specialists.yaml", item, "spellcar", "a company's captain has a company spellcar" if s.company
                 else "a wild captain has no company spellcar")
        if s.spellcar is not None and getattr(spellcars.get(s.spellcar), "kind", None) != "company":
            fail("specialists.yaml", item, "spellcar", f"{s.spellcar!r} is not a company spellcar of spellcars.yaml")
    printed: dict[str, str] = {}
    colours: dict[str, str] = {}
    for c in companies.values():
        item = f"company {c.key!r}"
        captain = specialists.get(c.captain)
        if captain is None or captain.company != c.key:
            fail("companies.yaml", item, "captain", f"{c.captain!r} is not a captain of this company in "
                                                    "specialists.yaml")
        if c.colour.lower() in colours:
            fail("companies.yaml", item, "colour", f"{colours[c.colour.lower()]} draws its cars in this colour")
        colours[c.colour.lower()] = c.key
        slots = set()
        for i, (column, row, key) in enumerate(c.printed):
            field = f"printed[{i}]"
            if column > c.columns:
                fail("companies.yaml", item, f"{field}.column", f"the folio has {c.columns} columns, not {column}")
            if (column, row) in slots:
                fail("companies.yaml", item, field, f"slot {column}:{row} is printed twice")
            slots.add((column, row))
            if getattr(spellcars.get(key), "kind", None) != "company":
                fail("companies.yaml", item, f"{field}.spellcar", f"{key!r} is not a company spellcar of "
                                                                  "spellcars.yaml")
            if key in printed:
                fail("companies.yaml", item, f"{field}.spellcar", f"{key!r} is printed on {printed[key]}'s folio too")
            printed[key] = c.key
        if captain.spellcar not in (k for _, _, k in c.printed):
            fail("companies.yaml", item, "printed", f"the folio does not print its captain's spellcar "
                                                    f"{captain.spellcar!r}")
    for s in spellcars.values():
        if s.kind == "company" and s.key not in printed:
            fail("spellcars.yaml", f"spellcar {s.key!r}", "kind", "a company spellcar is printed on a folio; "
                                                                  "no company in companies.yaml prints this one")


def compile_catalog(docs: dict[str, Any]) -> Catalog:
    """A catalog from the six files' decoded contents (by file name)."""
    for file in FILES:
        validate(file, docs.get(file))
    boards = compile_boards(docs["maps.yaml"]["boards"])
    layouts = compile_layouts(docs["maps.yaml"]["layouts"], boards, range(MIN_PLAYERS, MAX_PLAYERS + 1))
    check_layouts(layouts, boards)
    spellcars = _entries(docs, "spellcars.yaml", "spellcars", _spellcar)
    specialists = _entries(docs, "specialists.yaml", "specialists", _specialist)
    companies = _entries(docs, "companies.yaml", "companies", _company)
    awards = _entries(docs, "awards.yaml", "awards", _award)
    _check_counts(spellcars, specialists, companies, awards)
    _check_ties(spellcars, specialists, companies)
    head = docs["catalog.yaml"]
    return Catalog(head["version"], head["notice"], boards, layouts, companies, spellcars, specialists, awards,
                   raw=docs)


def load(version: str = DEFAULT_VERSION) -> Catalog:
    """The catalog of ``version``, compiled once: CatalogError for a bad file, KeyError for no such version."""
    return _load(version)  # one cache entry whether the version is given or not


@lru_cache(maxsize=None)
def _load(version: str) -> Catalog:
    cat = compile_catalog(catalog_files.read_files(_folder(version), FILES))
    if cat.version != version:
        fail("catalog.yaml", None, "version", f"says {cat.version!r} but lies in the folder {version!r}")
    return cat


def versions() -> list[str]:
    """The catalog versions, oldest first (numbers by value: 10 comes after 9); the last is the default."""
    return catalog_files.versions(DATA / "catalog")


def _folder(version: str) -> Path:
    folder = DATA / "catalog" / version
    if not version or "/" in version or "\\" in version or version.startswith(".") or not folder.is_dir():
        raise KeyError(f"there is no Spells & Steam catalog version {version!r}; the versions are "
                       f"{', '.join(versions())}")
    return folder


def check_path(path: Path, version: str) -> str:
    """An organiser's catalog checked: a folder of the six files, or one of them (by its name) put in
    place of that file of catalog ``version``; a one-line summary, or CatalogError naming the file,
    the item and the field."""
    cat, said = catalog_files.check_path(path, _folder(version), FILES, "Spells & Steam", compile_catalog)
    kinds = Counter(s.kind for s in cat.spellcars.values())
    people = Counter(s.kind for s in cat.specialists.values())
    maps = sum(len(m) for m in cat.layouts.values())
    return (f"{said}catalog {cat.version}: {sum(s.copies for s in cat.spellcars.values())} spellcar tiles "
            f"({kinds['unique']} unique, {kinds['common']} common) and {kinds['company']} printed on folios; "
            + ", ".join(f"{people[k]} {LISTS[k].replace('_', ' ')}" for k in SPECIALISTS)
            + f"; {len(cat.companies)} companies; {len(cat.awards)} awards; {len(cat.boards)} boards in {maps} maps")


def _marks(cat: Catalog, file: str, plural: str) -> dict[str, dict[str, Any]]:
    """The ``unofficial`` and ``notes`` fields of a list's entries as written, by key."""
    docs = cat.raw or {}
    return {e["key"]: {k: e[k] for k in ("unofficial", "notes") if k in e}
            for e in (docs.get(file) or {}).get(plural, [])}


def catalog_data(cat: Catalog) -> dict[str, Any]:
    """A catalog as plain data (JSON-ready), for recorders, searching and the catalog's page: each
    list of entries (spellcars, captains, engineers, surveyors, station masters, companies, awards,
    boards, layouts) with its fields, effects in their YAML form, and what is unofficial marked."""
    cars, people = _marks(cat, "spellcars.yaml", "spellcars"), _marks(cat, "specialists.yaml", "specialists")
    firms = _marks(cat, "companies.yaml", "companies")
    data: dict[str, Any] = {"version": cat.version, "notice": cat.notice}
    data["spellcars"] = [{"key": s.key, "name": s.name, "kind": s.kind, "copies": s.copies, "cost": s.cost,
                          "text": s.text, "friendly": s.friendly, "effects": [effect_data(e) for e in s.effects],
                          **cars.get(s.key, {})} for s in cat.spellcars.values()]
    for kind in SPECIALISTS:
        data[LISTS[kind]] = [
            {"key": s.key, "name": s.name, "kind": s.kind, "cost": s.cost, "trigger": s.trigger, "text": s.text,
             "friendly": s.friendly, **({"company": s.company, "spellcar": s.spellcar} if kind == "captain" else {}),
             "effects": [effect_data(e) for e in s.effects], **people.get(s.key, {})} for s in cat.of_kind(kind)]
    data["companies"] = [{"key": c.key, "name": c.name, "colour": c.colour, "home": c.home, "captain": c.captain,
                          "columns": c.columns, "text": c.text,
                          "printed": [{"column": col, "row": row, "spellcar": key} for col, row, key in c.printed],
                          **firms.get(c.key, {})} for c in cat.companies.values()]
    data["awards"] = [{"key": a.key, "name": a.name, "text": a.text, "metric": a.metric, "most": a.most,
                       "two_players": a.two_players} for a in cat.awards.values()]
    data["boards"] = [{"key": b.key, "side": b.side, "rows": list(b.rows),
                       "cities": {f"{c},{r}": colour for (c, r), colour in b.cities.items()}}
                      for b in cat.boards.values()]
    data["layouts"] = [{"players": n, "maps": {name: [{"board": k, "col": c, "row": r} for k, c, r in placed]
                                               for name, placed in maps.items()}}
                       for n, maps in cat.layouts.items()]
    return data
