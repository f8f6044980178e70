"""The deck and battlefield names a filter may use, and the check that refuses others.

A deck filter names a premade deck of some catalog version, or a mash-up deck the statistics have
counted (mash-up names are the players' own); a battlefield filter names a battlefield of some
catalog version, or one the statistics have counted (a catalog may drop one that old games used).
``?deck=Nope`` is refused with the names there are, rather than answered with no rows, which
reads as "no games" when it means "no such deck".
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from engine.bfe.catalog import available_versions, load_catalog
from services.platform.sql import Where
from services.platform.tokens import Reader
from services.stats.filters import FilterError, Filters

MAX_LISTED = 40  # names an error lists at most


@lru_cache(maxsize=1)
def card_facts() -> dict[str, tuple[int, int]]:
    """Card name -> (cost, might) as the newest catalog version that has the card prints it (the
    card tables show them; a card errata'd since keeps its newest numbers)."""
    facts: dict[str, tuple[int, int]] = {}
    for version in available_versions():  # oldest first: a newer version overwrites
        for name, card in load_catalog(version).cards.items():
            facts[name] = (card.cost, card.might)
    return facts


def deck_order(names) -> list[str]:
    """The order every figure and table lists decks in: the premade decks of the catalogs, then
    mash-up decks (the players' own names), each alphabetically, case aside. It depends on nothing
    but the names, so a deck keeps its place on every heatmap, on every page and under every filter
    (an order by win rate would reshuffle with each filter)."""
    premade = set(catalog_names()[0])
    return sorted(set(names), key=lambda name: (name not in premade, name.casefold(), name))


SHORT_NAME_LENGTH = 16  # a mash-up deck's name is cut to this many characters on a phone


def short_deck_names(names) -> dict[str, str]:
    """Each deck's name as a phone shows it: a premade deck by what comes before " of " ("Zulus",
    "Azteca & Mexica"), a mash-up cut to SHORT_NAME_LENGTH characters with "…". Names that would
    come out the same keep their full name, so no two decks look alike."""
    premade = set(catalog_names()[0])
    short = {}
    for name in set(names):
        if name in premade and " of " in name:
            short[name] = name.split(" of ", 1)[0]
        else:
            short[name] = name if len(name) <= SHORT_NAME_LENGTH else name[:SHORT_NAME_LENGTH - 1].rstrip() + "…"
    seen: dict[str, int] = {}
    for value in short.values():
        seen[value] = seen.get(value, 0) + 1
    return {name: value if seen[value] == 1 else name for name, value in short.items()}


@lru_cache(maxsize=1)
def catalog_names() -> tuple[list[str], list[str]]:
    """Deck and battlefield names of every catalog version (no database)."""
    decks: set[str] = set()
    battlefields: set[str] = set()
    for version in available_versions():
        catalog = load_catalog(version)
        decks |= set(catalog.decks)
        battlefields |= set(catalog.battlefields)
    return sorted(decks), sorted(battlefields)


def hide_unreadable(conn, filters: Filters, reader: Reader) -> Filters:
    """``filters`` with the unlisted events of its event filter that ``reader`` may not read (the rule
    of services.api.access.may_read_event) marked unreadable: they select nothing, so their numbers
    read as those of an id no event has (an empty answer), and an event's id is no key to what its
    organiser keeps unlisted."""
    if not filters.events:
        return filters
    where = Where("visibility = 'unlisted'", "id = ANY(%(ids)s)", params={"ids": list(filters.events)})
    readable = reader.events_sql()
    where.add(f"NOT ({readable.sql()})", **readable.params)
    hidden = tuple(row[0] for row in conn.execute(f"SELECT id FROM events WHERE {where.sql()}", where.params))
    return dataclasses.replace(filters, unreadable=hidden) if hidden else filters


def check_names(conn, filters: Filters) -> None:
    """Raise FilterError naming the first deck or battlefield of ``filters`` that the service does
    not know, with the names it does (the catalog's)."""
    decks, battlefields = catalog_names()
    if filters.battlefield is not None and _unknown(
            conn, [filters.battlefield], battlefields,
            "SELECT DISTINCT battlefield FROM agg_battlefield_first_player WHERE battlefield = ANY(%s)"):
        raise FilterError("battlefield", f"unknown battlefield {filters.battlefield!r}; the battlefields are "
                          + ", ".join(battlefields[:MAX_LISTED]))
    unknown = _unknown(conn, list(filters.decks or ()), decks,
                       "SELECT DISTINCT deck FROM agg_deck_results WHERE deck = ANY(%s)")
    if unknown:
        raise FilterError("deck", f"unknown deck {unknown[0]!r}; the premade decks are "
                          f"{', '.join(decks[:MAX_LISTED])} (a mash-up deck is known once a game with it is counted)")


def _unknown(conn, names: list[str], catalog: list[str], counted_sql: str) -> list[str]:
    """The names neither in the catalog nor counted in the statistics (``counted_sql`` finds those
    of a list that are), in the order given."""
    others = [n for n in names if n not in catalog]
    if not others:
        return []
    counted = {row[0] for row in conn.execute(counted_sql, (others,))}
    return [n for n in others if n not in counted]

