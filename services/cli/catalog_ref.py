"""The catalog as a reference for people: search it (``empyrean cards``), check an organiser's new
deck or battlefield file against it (``empyrean catalog check``), and render docs/catalog.md.

Everything here reads the engine's compiled catalog; nothing is written by hand twice."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from engine.bfe.catalog import (
    BattlefieldDef,
    CardDef,
    Catalog,
    CatalogError,
    compile_battlefield,
    load_catalog,
    load_catalog_dir,
    load_deck_file,
    read_yaml,
)


def _copies(cat: Catalog, deck: str) -> Counter[str]:
    return Counter(c.name for c in cat.decks[deck])


def card_line(card: CardDef, copies: int) -> str:
    might = f"might {card.might}" + (f" (max {card.max_might})" if card.max_might is not None else "")
    tokens = f", affixed {', '.join(card.affixed)}" if card.affixed else ""
    return (f"{card.name} — {card.deck}; cost {card.cost}, {might}, {card.type}, {card.ability}"
            f"{tokens}; ×{copies}\n    {card.text}")


def battlefield_line(bf: BattlefieldDef) -> str:
    return f"{bf.name} — battlefield, {bf.zones} zones\n" + "\n".join(f"    {i}. {t}" for i, t in enumerate(bf.text, 1))


def search(cat: Catalog, query: str = "") -> list[str]:
    """Cards and battlefields whose name, deck, type or text contains every word of ``query``."""
    words = query.lower().split()

    def hit(*fields: str) -> bool:
        text = " ".join(fields).lower()
        return all(w in text for w in words)

    out = []
    for deck in sorted(cat.decks):
        copies = _copies(cat, deck)
        for name in dict.fromkeys(c.name for c in cat.decks[deck]):
            card = cat.cards[name]
            if hit(card.name, card.deck, card.type, card.ability, card.text, " ".join(card.affixed)):
                out.append(card_line(card, copies[name]))
    for bf in sorted(cat.battlefields.values(), key=lambda b: b.name):
        if hit(bf.name, "battlefield", *bf.text):
            out.append(battlefield_line(bf))
    return out


def search_data(data: dict, query: str = "") -> list[str]:
    """A game's catalog data (its rules' ``catalog_data``) searched: each entry — an object with a
    "name" in one of its lists (cards, species, maneuvers …) — whose words contain every word of
    ``query``, one line each: "name (kind): its other fields"."""
    words = query.lower().split()
    out = []
    for kind, entries in data.items():
        if not isinstance(entries, list):
            continue
        for entry in entries:
            if not isinstance(entry, dict) or "name" not in entry:
                continue
            fields = [f"{k}: {v}" for k, v in entry.items() if k != "name" and isinstance(v, (str, int, float))]
            line = f"{entry['name']} ({kind})" + (f" — {'; '.join(fields)}" if fields else "")
            if all(w in line.lower() for w in words):
                out.append(line)
    return out


def check_file(path: Path, base: Catalog | None = None) -> str:
    """Validate an organiser's deck file, battlefield file or whole catalog folder; returns a
    one-line summary, raises CatalogError naming file, card and field."""
    base = base or load_catalog()
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


# Which battlefield carries each publicly described theme (../shared/rules/README.md); the rest are ours.
THEMES = """
Public battlefield themes and the battlefields that carry them: the Fountain of Janus and River of
Rebirth by name; a bargain to extend your lead — The Devil's Bargain; gifts to both players — Hall
of Gifts; fill it quickly for essence — Oasis of Plenty; a prison — The Prison; walls closing in on
rounds 7 and 8 — The Closing Walls; cheap cards cost more but gain might — The Grand Bazaar; a
throne to seize — The Throne; the Sirens — The Sirens' Shore; first to 10 might — The Summit of
Valor; each new card weakens the previous one, your 8-cost costs less — The Waning Forge; a reward
for winning before the last round — The Victor's Laurels; each new card strengthens the previous
one, a full side penalised — The Tower of Ascent; the first-player token a curse — The Cursed
Crown; exactly one card gives extra might but feeds the opponent — The Lonely Champion; sacrifices
to the Creators repaid later — The Altar of the Creators; scales of hand against cards here — The
Scales of Judgement; Stop tokens cost much more — The Hall of Silence. The others are our own.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(cat: Catalog) -> str:
    """docs/catalog.md: every deck and battlefield of the catalog, with its text."""
    lines = [
        f"# Catalog {cat.version}: {cat.title}",
        "",
        "Generated from `engine/bfe/data/catalog/` by `empyrean catalog docs`; do not edit by hand (a test",
        "fails when this file is stale).",
        "",
        f"> {' '.join(cat.notice.split())}",
        "",
        f"{len(cat.decks)} decks, {len(cat.cards)} different cards, {len(cat.battlefields)} battlefields.",
        "",
        "## Decks",
        "",
    ]
    lines += [f"- [{d}](#{_anchor(d)})" for d in sorted(cat.decks)]
    for deck in sorted(cat.decks):
        copies = _copies(cat, deck)
        lines += ["", f"### {deck}", "",
                  "| card | cost | × | might | type | ability | text |",
                  "| --- | ---: | ---: | ---: | --- | --- | --- |"]
        for name in sorted(copies, key=lambda n: (cat.cards[n].cost, n)):
            c = cat.cards[name]
            might = f"{c.might}" + (f" (max {c.max_might})" if c.max_might is not None else "")
            ability = c.ability + (f"; affixed {', '.join(c.affixed)}" if c.affixed else "")
            lines.append(f"| {_cell(c.name)} | {c.cost} | {copies[name]} | {might} | {_cell(c.type)} | "
                         f"{ability} | {_cell(c.text)} |")
    lines += ["", "## Battlefields", ""]
    lines += [line.rstrip() for line in THEMES.strip("\n").splitlines()] + [""]
    lines += ["| battlefield | zones | effects |", "| --- | ---: | --- |"]
    for bf in sorted(cat.battlefields.values(), key=lambda b: b.name):
        effects = "<br>".join(f"{i}. {_cell(t)}" for i, t in enumerate(bf.text, 1))
        lines.append(f"| {_cell(bf.name)} | {bf.zones} | {effects} |")
    return "\n".join(lines) + "\n"


def _anchor(title: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes."""
    return "".join(ch for ch in title.lower() if ch.isalnum() or ch in " -_").replace(" ", "-")
