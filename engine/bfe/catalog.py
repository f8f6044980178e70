"""The card catalog: decks and battlefields as data files, compiled once at load.

Layout of one catalog version (``engine/bfe/data/catalog/<version>/``)::

    catalog.yaml        version, title, notice (the catalog is unofficial)
    decks/*.yaml        one premade deck per file: deck name, complexity, cards
    battlefields.yaml   the battlefield deck

Loading never half-succeeds: any problem raises CatalogError naming the file, the card and the
field. Catalogs are cached per version and immutable once loaded, so errata go into a new version
and old logs keep replaying under the version they name.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, NoReturn

import yaml

from .decisions import NOTHING, UNSEEN_NAME
from .effects import (
    BF_TRIGGERS,
    CARD_TRIGGERS,
    LISTENING,
    EffectError,
    compile_amount,
    compile_effects,
)
from .game import DECK_SIZE, TEMPLATE, Ctx
from .state import CARD_TOKENS, BattlefieldDef, CardDef

ABILITY_TYPES = ("instant", "conditional", "passive", "none")
DEFAULT_VERSION = "2026.2"
CARD_KEYS = {"name", "type", "cost", "might", "max_might", "copies", "ability", "tokens", "text", "effects"}
BF_KEYS = {"name", "zones", "text", "rules", "effects"}


class CatalogError(ValueError):
    def __init__(self, file: str, card: str | None, field: str | None, message: str) -> None:
        where = file + (f", card {card!r}" if card else "") + (f", field {field}" if field else "")
        super().__init__(f"{where}: {message}")
        self.file, self.card, self.field, self.message = file, card, field, message


@dataclass(frozen=True, eq=False)
class Catalog:
    version: str
    title: str
    notice: str
    cards: dict[str, CardDef]
    decks: dict[str, tuple[CardDef, ...]]  # premade deck name -> 24 cards in list order
    battlefields: dict[str, BattlefieldDef]

    def deck_problems(self, names: list[str]) -> list[str]:
        """Why a 24-card list breaks the deck template (empty when it keeps it)."""
        problems = []
        unknown = [n for n in names if n not in self.cards]
        if unknown:
            problems.append("unknown card(s): " + ", ".join(sorted(set(unknown))))
            return problems
        if len(names) != DECK_SIZE:
            problems.append(f"a deck has {DECK_SIZE} cards, this one has {len(names)}")
        got = Counter(self.cards[n].cost for n in names)
        for cost, want in TEMPLATE.items():
            if got.get(cost, 0) != want:
                problems.append(f"the template needs {want} card(s) of cost {cost}, found {got.get(cost, 0)}")
        return problems


def _fail(file: str, card: str | None, fld: str | None, msg: str) -> NoReturn:
    raise CatalogError(file, card, fld, msg)


def compile_card(raw: Any, deck: str, file: str, idx: int) -> tuple[CardDef, int]:
    if not isinstance(raw, dict):
        _fail(file, None, f"cards[{idx}]", "a card is a mapping with name, type, cost, might, ability, text")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        _fail(file, None, f"cards[{idx}].name", "every card needs a name")
    if name.strip() in (UNSEEN_NAME, NOTHING):
        _fail(file, name, "name", f"{name.strip()!r} cannot be a card's name: logs use it for a card nobody saw "
              "or for no card at all")
    unknown = set(raw) - CARD_KEYS
    if unknown:
        _fail(file, name, sorted(unknown)[0], f"unknown field; expected {sorted(CARD_KEYS)}")
    for key in ("type", "text"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            _fail(file, name, key, "required text is missing")
    cost, might = raw.get("cost"), raw.get("might")
    if not isinstance(cost, int) or isinstance(cost, bool) or not 1 <= cost <= 8:
        _fail(file, name, "cost", f"essence cost must be a whole number 1..8, got {cost!r}")
    if not isinstance(might, int) or isinstance(might, bool) or not 0 <= might <= 20:
        _fail(file, name, "might", f"reveal might must be a whole number 0..20, got {might!r}")
    max_might = raw.get("max_might")
    if max_might is not None and (not isinstance(max_might, int) or max_might < might):
        _fail(file, name, "max_might", "maximum might must be a whole number at least the reveal might")
    copies = raw.get("copies", 1)
    if not isinstance(copies, int) or not 1 <= copies <= 5:
        _fail(file, name, "copies", "copies must be 1..5")
    ability = raw.get("ability", "none")
    if ability not in ABILITY_TYPES:
        _fail(file, name, "ability", f"ability type must be one of {ABILITY_TYPES}")
    tokens = raw.get("tokens", [])
    if not isinstance(tokens, list) or any(t not in CARD_TOKENS for t in tokens):
        _fail(file, name, "tokens", f"affixed tokens must be a list of {CARD_TOKENS}")
    try:
        effects = compile_effects(raw.get("effects"), "effects", CARD_TRIGGERS)
    except EffectError as e:
        _fail(file, name, e.field, e.message)
    if ability == "instant" and set(effects) - {"reveal"}:
        _fail(file, name, "effects", "an instant ability resolves once, on reveal: only 'when: reveal' effects")
    if ability == "none" and effects:
        _fail(file, name, "ability", "a card with effects needs an ability type")
    if ability != "none" and not effects:
        _fail(file, name, "effects", f"a {ability} ability needs at least one effect")
    listens = tuple(t for t in effects if t in LISTENING)
    cdef = CardDef(name.strip(), deck, raw["type"].strip(), cost, might, max_might, ability,
                   tuple(tokens), " ".join(raw["text"].split()), effects, listens,
                   _shows_when_discarded(raw.get("effects")))
    return cdef, copies


def _shows_when_discarded(effects: Any) -> bool:
    """Whether the card's own "when discarded" ability does something everyone sees. Only an
    ability that is all "may" can pass unseen: its owner may simply decline it."""
    return any(e.get("when") == "discarded" and any(not (isinstance(a, dict) and "may" in a) for a in e.get("do") or ())
               for e in effects or () if isinstance(e, dict))


def _bf_rules(raw: Any, file: str, name: str) -> tuple[tuple, tuple, tuple]:
    if raw is None:
        return (), (), ()
    if not isinstance(raw, dict):
        _fail(file, name, "rules", "rules is a mapping")
    bonus, cost, to_hand = [], [], []
    for key, val in raw.items():
        f = f"rules.{key}"
        if key == "ability_might_bonus":
            if not isinstance(val, int) or val < 1:
                _fail(file, name, f, "expected a positive whole number")
            bonus.append(lambda g, card, _n=val: _n)
        elif key == "cost":
            if not isinstance(val, dict) or "delta" not in val:
                _fail(file, name, f, "cost needs delta (an amount) and optionally min_cost, max_cost, type")
            try:
                delta = compile_amount(val["delta"], f + ".delta")
            except EffectError as e:
                _fail(file, name, e.field, e.message)
            lo, hi, typ = val.get("min_cost", 0), val.get("max_cost", 99), val.get("type")

            def rule(g, card, _d=delta, _lo=lo, _hi=hi, _t=typ):
                cd = card.cdef
                if not (_lo <= cd.cost <= _hi) or (_t is not None and cd.type != _t):
                    return 0
                return _d(g, Ctx(card.owner, None, None, card, True))
            cost.append(rule)
        elif key == "destroy_to_hand":
            if val not in ("opponent", "any"):
                _fail(file, name, f, "expected opponent or any")
            to_hand.append((lambda g, card, by: True) if val == "any"
                           else (lambda g, card, by: card.owner != by))
        else:
            _fail(file, name, f, "unknown rule; known: ability_might_bonus, cost, destroy_to_hand")
    return tuple(bonus), tuple(cost), tuple(to_hand)


def compile_battlefield(raw: Any, file: str, idx: int) -> BattlefieldDef:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
        _fail(file, None, f"battlefields[{idx}]", "a battlefield is a mapping with name, text, effects")
    name = raw["name"]
    unknown = set(raw) - BF_KEYS
    if unknown:
        _fail(file, name, sorted(unknown)[0], f"unknown field; expected {sorted(BF_KEYS)}")
    zones = raw.get("zones", 6)
    if not isinstance(zones, int) or not 3 <= zones <= 8:
        _fail(file, name, "zones", "zones must be 3..8")
    text = raw.get("text")
    if not isinstance(text, list) or len(text) != 2 or not all(isinstance(t, str) for t in text):
        _fail(file, name, "text", "a battlefield has exactly two effects' texts")
    try:
        effects = compile_effects(raw.get("effects"), "effects", BF_TRIGGERS)
    except EffectError as e:
        _fail(file, name, e.field, e.message)
    bonus, cost, to_hand = _bf_rules(raw.get("rules"), file, name)
    if not effects and not (bonus or cost or to_hand) and zones == 6:
        _fail(file, name, "effects", "a battlefield needs effects or rules")
    return BattlefieldDef(name, zones, tuple(" ".join(t.split()) for t in text), effects, bonus, cost, to_hand)


def read_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise CatalogError(path.name, None, None, f"not valid YAML: {e}") from None
    except OSError as e:  # e.g. a folder given as a catalog version without its catalog.yaml
        raise CatalogError(path.name, None, None, f"cannot be read ({e.strerror or e})") from None


def load_deck_file(path: Path, errata: dict[str, tuple[Any, str]] | None = None
                   ) -> tuple[str, list[tuple[CardDef, int]]]:
    """One deck file, compiled; ``errata`` (card name -> (definition, file)) replaces cards."""
    raw = read_yaml(path)
    file = path.name
    if not isinstance(raw, dict) or not isinstance(raw.get("deck"), str) or not isinstance(raw.get("cards"), list):
        raise CatalogError(file, None, None, "a deck file needs 'deck: <name>' and 'cards: [...]'")
    deck = raw["deck"]
    cards = []
    for i, c in enumerate(raw["cards"]):
        name = c.get("name") if isinstance(c, dict) else None
        fixed = errata.get(name) if errata and isinstance(name, str) else None
        if fixed is None:
            cards.append(compile_card(c, deck, file, i))
        else:  # an erratum is a whole card definition; it keeps the original's copies unless it says
            erratum, efile = fixed
            cards.append(compile_card({"copies": c.get("copies", 1), **erratum}, deck, efile, i))
    got: Counter[int] = Counter()
    for cdef, copies in cards:
        got[cdef.cost] += copies
    for cost, want in TEMPLATE.items():
        if got.get(cost, 0) != want:
            names = [c.name for c, _ in cards if c.cost == cost]
            raise CatalogError(file, names[0] if names else None, "cost",
                               f"deck {deck!r} breaks the template: it needs {want} card(s) of cost {cost}, "
                               f"has {got.get(cost, 0)}")
    extra = set(got) - set(TEMPLATE)
    if extra:
        raise CatalogError(file, None, "cost", f"costs outside the template: {sorted(extra)}")
    return deck, cards


@dataclass
class _Sources:
    """The files a catalog version is made of, after following ``extends``: deck files by file
    name, battlefield definitions by name (in order), card errata by name — each with its file."""

    meta: dict
    deck_files: dict[str, Path]
    battlefields: dict[str, tuple[Any, str]]
    errata: dict[str, tuple[Any, str]]


def _sources(root: Path, seen: tuple[str, ...] = ()) -> _Sources:
    """A version folder's sources. ``extends: <version>`` in catalog.yaml starts from that version:
    a deck file of the same file name replaces the base's, a battlefield of the same name replaces
    the base's, ``errata.yaml`` replaces single cards; everything else is inherited unchanged."""
    meta = read_yaml(root / "catalog.yaml")
    if not isinstance(meta, dict) or not isinstance(meta.get("version"), str):
        raise CatalogError("catalog.yaml", None, "version", "catalog.yaml needs a version")
    base_version = meta.get("extends")
    if base_version is None:
        src = _Sources(meta, {}, {}, {})
    else:
        base = root.parent / str(base_version)
        if not isinstance(base_version, str) or not (base / "catalog.yaml").exists():
            raise CatalogError("catalog.yaml", None, "extends",
                               f"there is no catalog version {base_version!r} to extend")
        if base_version in seen:
            raise CatalogError("catalog.yaml", None, "extends", f"versions extend each other in a loop: {seen}")
        src = _sources(base, seen + (meta["version"],))
        src.meta = meta
    for path in sorted((root / "decks").glob("*.yaml")):
        src.deck_files[path.name] = path
    bf_path = root / "battlefields.yaml"
    if bf_path.exists():
        bfs_raw = read_yaml(bf_path)
        if not isinstance(bfs_raw, dict) or not isinstance(bfs_raw.get("battlefields"), list):
            raise CatalogError("battlefields.yaml", None, None, "needs 'battlefields: [...]'")
        names_here: set[str] = set()
        for i, raw in enumerate(bfs_raw["battlefields"]):
            name = raw.get("name") if isinstance(raw, dict) else None
            if not isinstance(name, str):
                _fail("battlefields.yaml", None, f"battlefields[{i}]",
                      "a battlefield is a mapping with name, text, effects")
            if name in names_here:
                raise CatalogError("battlefields.yaml", name, "name", "battlefield names must be unique")
            names_here.add(name)
            src.battlefields[name] = (raw, "battlefields.yaml")
    errata_path = root / "errata.yaml"
    if errata_path.exists():
        raw = read_yaml(errata_path)
        if not isinstance(raw, dict) or not isinstance(raw.get("cards", []), list):
            raise CatalogError("errata.yaml", None, None, "needs 'cards: [...]' (whole card definitions)")
        for i, card in enumerate(raw.get("cards", [])):
            if not isinstance(card, dict) or not isinstance(card.get("name"), str):
                _fail("errata.yaml", None, f"cards[{i}].name", "an erratum is a whole card definition with its name")
            src.errata[card["name"]] = (card, "errata.yaml")
    return src


def load_catalog_dir(root: Path) -> Catalog:
    src = _sources(root)
    cards: dict[str, CardDef] = {}
    decks: dict[str, tuple[CardDef, ...]] = {}
    for file, path in sorted(src.deck_files.items()):
        deck, entries = load_deck_file(path, src.errata)
        if deck in decks:
            raise CatalogError(file, None, "deck", f"deck {deck!r} is defined twice")
        listing = []
        for cdef, copies in entries:
            if cdef.name in cards:
                raise CatalogError(file, cdef.name, "name", "card names must be unique in a catalog")
            cards[cdef.name] = cdef
            listing.extend([cdef] * copies)
        decks[deck] = tuple(listing)
    unused = set(src.errata) - set(cards)
    if unused:
        name = sorted(unused)[0]
        raise CatalogError(src.errata[name][1], name, "name", "an erratum must name a card of the catalog")
    battlefields: dict[str, BattlefieldDef] = {}
    for i, (raw, file) in enumerate(src.battlefields.values()):
        bf = compile_battlefield(raw, file, i)
        battlefields[bf.name] = bf
    meta = src.meta
    return Catalog(meta["version"], str(meta.get("title", "")), str(meta.get("notice", "")),
                   cards, decks, battlefields)


def check_path(path: Path, base: Catalog) -> str:
    """Validate an organiser's deck file, battlefield file or whole catalog folder (a deck or a
    battlefield against catalog ``base``); returns a one-line summary, raises CatalogError naming
    file, card and field."""
    if path.is_dir():
        cat = load_catalog_dir(path)
        return (f"catalog {cat.version}: {len(cat.decks)} decks, {len(cat.cards)} cards, "
                f"{len(cat.battlefields)} battlefields")
    raw = read_yaml(path)
    if isinstance(raw, dict) and "battlefields" in raw:
        if not isinstance(raw["battlefields"], list):
            raise CatalogError(path.name, None, "battlefields", "expected a list of battlefields")
        bfs = [compile_battlefield(b, path.name, i) for i, b in enumerate(raw["battlefields"])]
        dup = [n for n, k in Counter(b.name for b in bfs).items() if k > 1]
        if dup:
            raise CatalogError(path.name, dup[0], "name", "battlefield names must be unique")
        new = [b.name for b in bfs if b.name not in base.battlefields]
        return (f"{path.name}: {len(bfs)} battlefield(s) valid ({len(new)} new, "
                f"{len(bfs) - len(new)} replacing catalog {base.version}'s of the same name)")
    deck, entries = load_deck_file(path)
    for cdef, _ in entries:
        other = base.cards.get(cdef.name)
        if other is not None and other.deck != deck:
            raise CatalogError(path.name, cdef.name, "name",
                               f"catalog {base.version} already has a card of that name in {other.deck!r}")
    names = Counter(cdef.name for cdef, _ in entries)
    dup = [n for n, k in names.items() if k > 1]
    if dup:
        raise CatalogError(path.name, dup[0], "name", "card names must be unique in a deck")
    total = sum(copies for _, copies in entries)
    replaces = " (replaces the deck of that name)" if deck in base.decks else ""
    return f"{path.name}: deck {deck!r} valid, {len(entries)} cards, {total} in the deck, template kept{replaces}"


def catalog_root() -> Path:
    return Path(__file__).resolve().parent / "data" / "catalog"


def available_versions() -> list[str]:
    return sorted(p.name for p in catalog_root().iterdir() if (p / "catalog.yaml").exists())


@lru_cache(maxsize=None)
def load_catalog(version: str = DEFAULT_VERSION) -> Catalog:
    """The packaged catalog of that version (KeyError if there is none)."""
    if version not in available_versions():
        raise KeyError(version)
    return load_catalog_dir(catalog_root() / version)


def catalog_data(cat: Catalog) -> dict[str, Any]:
    """A catalog as plain data (JSON-ready), for recorders: what a setup offers (premade decks,
    battlefields, the deck template a mash-up must keep) and what each card shows (cost, might,
    type, deck, text). Premade decks list their 24 cards in deck-list order, copies repeated."""
    return {
        "version": cat.version,
        "title": cat.title,
        "notice": cat.notice,
        "template": {"deck_size": DECK_SIZE, "costs": {str(cost): n for cost, n in TEMPLATE.items()}},
        "decks": [{"name": name, "cards": [c.name for c in cards]} for name, cards in sorted(cat.decks.items())],
        "battlefields": [{"name": bf.name, "zones": bf.zones, "text": list(bf.text)}
                         for _, bf in sorted(cat.battlefields.items())],
        "cards": [{"name": c.name, "deck": c.deck, "type": c.type, "cost": c.cost, "might": c.might,
                   "max_might": c.max_might, "ability": c.ability, "tokens": list(c.affixed), "text": c.text}
                  for _, c in sorted(cat.cards.items())],
    }
