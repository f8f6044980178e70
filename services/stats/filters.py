"""The filters every statistic takes, parsed from query parameters with errors that name them.

    from, to    ISO dates (YYYY-MM-DD), inclusive; the day a game was played (its log's date, else
                the day it was received). Either may be left out.
    event       event ids, repeatable or a comma list (event=3&event=5, event=3,5); "none" selects
                games uploaded without an event. Left out: every event and none.
    players     table size, one the statistic's game seats (Battle for Empyrean: 2 or 3; default 2, or
                the game's fewest players when it seats no 2). Statistics never mix table sizes.
    deck        deck names, repeatable: only rows of these decks (meta shares stay shares of all
                decks' games).
    battlefield one battlefield name: only games with that battlefield in play. Every statistic
                honours it except might per round (agg_deck_rounds has no battlefield key); those
                answers say ``"battlefield_applied": false``.
    min_games   rows with fewer games (their n) are flagged "thin": true — kept, not dropped.
                Default 30.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from engine import games
from services.platform.sql import Where

DEFAULT_PLAYERS = 2
DEFAULT_MIN_GAMES = 30
MAX_MIN_GAMES = 1_000_000_000
MAX_LIST = 500  # events or decks in one filter
PARAMETERS = ("from", "to", "event", "players", "deck", "battlefield", "min_games")


class FilterError(ValueError):
    """A query parameter that cannot be used; ``parameter`` names it."""

    def __init__(self, parameter: str, message: str):
        super().__init__(message)
        self.parameter = parameter
        self.message = message


@dataclass(frozen=True)
class Filters:
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    events: tuple[int, ...] | None = None  # None: no event filter
    no_event: bool = False                 # with an event filter: also games without an event
    players: int = DEFAULT_PLAYERS
    decks: tuple[str, ...] | None = None   # None: every deck
    min_games: int = DEFAULT_MIN_GAMES
    battlefield: str | None = None         # None: every game
    # events of ``events`` that the reader may not read (unlisted: services.stats.names.hide_unreadable
    # fills it): they select nothing, as an id no event has, and are echoed as asked
    unreadable: tuple[int, ...] = ()

    def as_json(self) -> dict:
        """The filters as applied, for the response's ``filters``."""
        event: list | None = None
        if self.events is not None:
            event = [*self.events, *(["none"] if self.no_event else [])]
        return {
            "from": self.date_from.isoformat() if self.date_from else None,
            "to": self.date_to.isoformat() if self.date_to else None,
            "event": event,
            "players": self.players,
            "deck": list(self.decks) if self.decks is not None else None,
            "battlefield": self.battlefield,
            "min_games": self.min_games,
        }

    def where(self, *, decks: bool = True, battlefield: bool = False) -> tuple[str, dict]:
        """A WHERE condition over an agg_* table's key columns and its parameters (always bound,
        never formatted in). ``decks=False`` leaves the deck filter out (for totals over all decks);
        ``battlefield=True`` adds the battlefield filter, for tables with a battlefield key."""
        where = Where("players = %(players)s", params={"players": self.players})
        where.when_set("played_on >= %(date_from)s", date_from=self.date_from)
        where.when_set("played_on <= %(date_to)s", date_to=self.date_to)
        if self.events is not None:
            either = Where()
            readable = [e for e in self.events if e not in self.unreadable]
            if readable:
                either.add("event_id = ANY(%(events)s)", events=readable)
            if self.no_event:
                either.add("event_id IS NULL")
            where.add(either.any_sql(), **either.params)
        if decks and self.decks is not None:
            where.add("deck = ANY(%(decks)s)", decks=list(self.decks))
        if battlefield:
            where.when_set("battlefield = %(battlefield)s", battlefield=self.battlefield)
        return where.sql(), where.params


# The filters that mean nothing to a game without decks or battlefields (every game but Battle for
# Empyrean): its statistics refuse them, not ignore them.
DECK_FILTERS = ("deck", "battlefield")


def refuse_deck_filters(args, game: str) -> None:
    """A FilterError naming the first parameter of ``args`` (a query string's) that statistics of
    ``game``, a game without decks or battlefields, do not take."""
    taken = [p for p in PARAMETERS if p not in DECK_FILTERS]
    for parameter in DECK_FILTERS:
        if parameter in args:
            raise FilterError(parameter, f"'{parameter}' does not apply to {games.info(game).name}'s statistics; "
                              f"they take {', '.join(taken)}")


def parse_filters(args, game: str = games.DEFAULT_GAME) -> Filters:
    """Filters from a werkzeug MultiDict (``request.args``) for statistics of ``game``; FilterError
    names the bad parameter."""
    unknown = sorted(set(args.keys()) - set(PARAMETERS))
    if unknown:
        raise FilterError(unknown[0], f"unknown parameter {unknown[0]!r}; the statistics take "
                          + ", ".join(PARAMETERS))
    date_from = _date(args, "from")
    date_to = _date(args, "to")
    if date_from and date_to and date_from > date_to:
        raise FilterError("from", f"'from' ({date_from}) is after 'to' ({date_to})")
    events, no_event = _events(args)
    info = games.info(game)
    sizes = tuple(range(info.min_players, info.max_players + 1))
    players = _int(args, "players", DEFAULT_PLAYERS if DEFAULT_PLAYERS in sizes else sizes[0], allowed=sizes)
    min_games = _int(args, "min_games", DEFAULT_MIN_GAMES, low=0, high=MAX_MIN_GAMES)
    decks = _decks(args)
    battlefield = _battlefield(args)
    return Filters(date_from, date_to, events, no_event, players, decks, min_games, battlefield)


def _single(args, name: str) -> str | None:
    values = args.getlist(name)
    if not values:
        return None
    if len(values) > 1:
        raise FilterError(name, f"'{name}' is given {len(values)} times; give it once")
    return values[0].strip()


def _date(args, name: str) -> dt.date | None:
    value = _single(args, name)
    if value is None or value == "":
        return None if value is None else _bad_date(name, value)
    try:
        if len(value) != 10:
            raise ValueError
        return dt.date.fromisoformat(value)
    except ValueError:
        return _bad_date(name, value)


def _bad_date(name: str, value: str):
    raise FilterError(name, f"'{name}' must be a date written YYYY-MM-DD, e.g. 2026-03-01; got {value!r}")


def _int(args, name: str, default: int, *, allowed=None, low=None, high=None) -> int:
    value = _single(args, name)
    if value is None:
        return default
    try:
        number = int(value, 10)
    except ValueError:
        number = None
    if allowed is not None:
        if number not in allowed:
            raise FilterError(name, f"'{name}' must be one of {', '.join(map(str, allowed))}; got {value!r}")
    elif number is None or number < low or number > high:
        raise FilterError(name, f"'{name}' must be a whole number from {low} to {high}; got {value!r}")
    return number


def _events(args) -> tuple[tuple[int, ...] | None, bool]:
    tokens = [t.strip() for v in args.getlist("event") for t in v.split(",")]
    if not tokens:
        return None, False
    ids: list[int] = []
    no_event = False
    for token in tokens:
        if token.lower() == "none":
            no_event = True
            continue
        if not (token.isascii() and token.isdigit()) or int(token) < 1 or int(token) > 2**63 - 1:
            raise FilterError("event", "'event' takes event ids (whole numbers from 1), repeated or "
                              f"comma-separated, or 'none' for games without an event; got {token!r}")
        if int(token) not in ids:
            ids.append(int(token))
    if len(ids) > MAX_LIST:
        raise FilterError("event", f"'event' lists {len(ids)} events; at most {MAX_LIST}")
    return tuple(sorted(ids)), no_event


def _battlefield(args) -> str | None:
    value = _single(args, "battlefield")
    if not value:
        return None
    if len(value) > 200 or "\x00" in value or value == "*":
        raise FilterError("battlefield", f"'battlefield' must be a battlefield name (1 to 200 characters); "
                          f"got {value!r}")
    return value


def _decks(args) -> tuple[str, ...] | None:
    values = [v.strip() for v in args.getlist("deck")]
    if not values:
        return None
    for v in values:
        if not v or len(v) > 200 or "\x00" in v:
            raise FilterError("deck", f"'deck' must be a deck name (1 to 200 characters); got {v!r}")
    if len(values) > MAX_LIST:
        raise FilterError("deck", f"'deck' lists {len(values)} decks; at most {MAX_LIST}")
    return tuple(dict.fromkeys(values))
