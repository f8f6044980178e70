"""The catalog as a reference for people: search it (``empyrean cards``) and render it (``empyrean
catalog docs``: docs/catalog.md, and another game's docs/catalog-<key>.md from its catalog data).
Checking an organiser's files is each game's own (its rules' ``check_catalog``).

Everything here reads the engine's compiled catalog; nothing is written by hand twice."""

from __future__ import annotations

from collections import Counter

from engine.bfe.catalog import BattlefieldDef, CardDef, Catalog


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


def render_data_markdown(info, data: dict) -> str:
    """The catalog reference of a game other than Battle for Empyrean (docs/catalog-<key>.md), from its
    rules' ``catalog_data`` alone: each list of entries (species, titans, maneuvers …) a table whose
    columns are its entries' fields, each other part a list of its values."""
    head = f"# Catalog {data['version']}: {data.get('title') or info.name}"
    lines = [head, "",
             f"Generated from the game's catalog data by `empyrean catalog --game {info.key} docs`; do not edit by",
             "hand (a test fails when this file is stale).", ""]
    if data.get("notice"):
        lines += [f"> {' '.join(str(data['notice']).split())}", ""]
    for kind, part in data.items():
        if kind in ("version", "title", "notice"):
            continue
        lines += [f"## {kind.replace('_', ' ').capitalize()}", ""]
        if isinstance(part, list) and part and all(isinstance(e, dict) for e in part):
            columns = list(dict.fromkeys(k for entry in part for k in entry))
            lines += [f"{len(part)} {kind.replace('_', ' ')}.", "",
                      "| " + " | ".join(columns) + " |", "| " + " | ".join("---" for _ in columns) + " |"]
            lines += ["| " + " | ".join(_value(entry.get(k, "")) for k in columns) + " |" for entry in part]
        elif isinstance(part, dict):
            lines += [f"- {k}: {_value(v)}" for k, v in part.items()]
        else:
            lines.append(_value(part))
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _value(value) -> str:
    """A value of the catalog data in a table cell or a list: lists joined, the rest as written."""
    if isinstance(value, list):  # a list of lists keeps its inner lists apart: [NE, NW], [SE, SW]
        return ", ".join(f"[{_value(v)}]" if isinstance(v, list) else _value(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k} {_value(v)}" for k, v in value.items())
    return _cell(str(value))
