"""The games list (``GET /api/v1/games``, ``GET /api/v1/events/{id}/games``): filters, who may see
which game, and pages by id. No writes.

**Pages: keyset by id, newest first.** A page is the ``limit`` games with the highest ids below
``before`` (the last id of the previous page), read as a range of an index (the primary key, or
``games_event_idx (event_id, id)`` for one event): every page costs the same, however deep, and a
game stored while a client pages is never shown twice nor makes it skip one — it has a higher id, so
it is on no page after the first. ``OFFSET`` paging would read and throw away every row before the
page (slower page after page over a million games) and shift by one at each new upload.

**Who sees what** is ``services.api.access.may_read_game``'s rule, written here as SQL
(``visible_sql``) so that a page is filtered in the database: public games of public events (or of
none) for anyone; an admin everything; a token also the games it uploaded, and those of the events
its owner organises or it is bound to. tests/services/test_games_list.py checks that the two agree
for every game and token.

A player's games are the games of their matches (event_matches.players, the names the logs give);
a deck's games are those with a record (valid and mismatch games: the others were never played
through, so their decks were not recorded).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from psycopg import Connection
from psycopg.rows import dict_row

from services.platform.sql import Where
from services.platform.tokens import Reader
from services.stats.names import MAX_LISTED, catalog_names

from .status import GameStatus

MAX_LIMIT = 500  # games in one page
DEFAULT_LIMIT = 100
STATUSES = tuple(str(s) for s in GameStatus)


@dataclass(frozen=True)
class GameFilters:
    game: str | None = None  # a game's key (engine.games)
    event: int | None = None
    deck: str | None = None
    player: str | None = None
    status: str | None = None


def visible_sql(reader: Reader) -> Where:
    """A condition on ``games g LEFT JOIN events e``: ``reader`` may see the game (may_read_game)."""
    if reader.admin:
        return Where()
    either = Where("(g.visibility <> 'unlisted' AND coalesce(e.visibility, 'public') <> 'unlisted')")
    either.when_set("g.uploaded_by = %(reader_token)s", reader_token=reader.token_id)
    either.when_set("(g.event_id IS NOT NULL AND e.organiser = %(reader_owner)s)", reader_owner=reader.organiser)
    either.when_set("g.event_id = %(reader_event)s", reader_event=reader.event_id)
    return Where(either.any_sql(), params=either.params)


def _filtered(filters: GameFilters, reader: Reader) -> Where:
    where = visible_sql(reader)
    where.when_set("g.game = %(game)s", game=filters.game)
    where.when_set("g.event_id = %(event)s", event=filters.event)
    where.when_set("g.status = %(status)s", status=filters.status)
    where.when_set("EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = g.id AND p.deck = %(deck)s)",
                   deck=filters.deck)
    if filters.player is not None:
        where.add("g.match_id IN (SELECT id FROM event_matches WHERE players @> %(player)s::text[])",
                  player=[filters.player])
    return where


_LIST = """
    SELECT g.id, g.game, g.status, g.status_message, g.event_id, e.name AS event, g.match_id, m.round,
           m.table_label, m.players AS match_players, s.players AS seat_players, s.decks, s.won,
           g.played_on, g.received_at, g.visibility, d.id AS dispute_id,
           coalesce(r.counted OR r.pending, false) AS counted
    FROM games g
    LEFT JOIN events e ON e.id = g.event_id
    LEFT JOIN event_matches m ON m.id = g.match_id
    LEFT JOIN disputes d ON d.match_id = g.match_id
    LEFT JOIN game_records r ON r.game_id = g.id
    LEFT JOIN LATERAL (SELECT array_agg(p.player_name ORDER BY p.seat) AS players,
                              array_agg(p.deck ORDER BY p.seat) AS decks,
                              array_agg(p.won ORDER BY p.seat) AS won
                       FROM game_players p WHERE p.game_id = g.id) s ON r.game_id IS NOT NULL
"""


def list_games(conn: Connection, filters: GameFilters, reader: Reader, *, before: int | None = None,
               limit: int = DEFAULT_LIMIT) -> tuple[list[dict], bool]:
    """(a page of games, newest first, with ids below ``before``; whether more follow)."""
    where = _filtered(filters, reader)
    where.when_set("g.id < %(before)s", before=before)
    rows = conn.cursor(row_factory=dict_row).execute(
        _LIST + " WHERE " + where.sql() + " ORDER BY g.id DESC LIMIT %(limit)s",
        where.params | {"limit": limit + 1}).fetchall()
    return [_row(r) for r in rows[:limit]], len(rows) > limit


def _row(r: dict) -> dict:
    """A game of the list: who played (seat order when it has a record, else the match's names,
    sorted), their decks and who won (with a record), its match and its status."""
    winner = None
    if r["won"] is not None:
        winner = next((name for name, won in zip(r["seat_players"], r["won"]) if won), None)
    return {
        "id": r["id"], "game": r["game"], "status": r["status"], "message": r["status_message"],
        "event": None if r["event_id"] is None else {"id": r["event_id"], "name": r["event"]},
        "match": None if r["match_id"] is None else {"id": r["match_id"], "round": r["round"],
                                                    "table": r["table_label"]},
        "players": r["seat_players"] or r["match_players"] or [],
        "decks": r["decks"], "winner": winner,
        "draw": r["won"] is not None and not any(r["won"]),
        "counted": r["counted"], "dispute": r["dispute_id"], "visibility": r["visibility"],
        "played_on": r["played_on"].isoformat() if isinstance(r["played_on"], dt.date) else None,
        "received_at": r["received_at"].isoformat(),
    }


def player_known(conn: Connection, player: str, reader: Reader) -> bool:
    """Some game that ``reader`` may see is of a match ``player`` played."""
    visible = visible_sql(reader)
    return conn.execute(
        f"""SELECT EXISTS (SELECT 1 FROM event_matches m JOIN games g ON g.match_id = m.id
                           LEFT JOIN events e ON e.id = g.event_id
                           WHERE m.players @> %(player)s::text[] AND {visible.sql()})""",
        visible.params | {"player": [player]}).fetchone()[0]


def deck_known(conn: Connection, deck: str) -> bool:
    """A premade deck, or a deck some replayed game was played with (a mash-up's name). Not only the
    decks the statistics counted (services.stats.names): the list shows uncounted games too."""
    return deck in catalog_names()[0] or conn.execute(
        "SELECT EXISTS (SELECT 1 FROM game_players WHERE deck = %s)", (deck,)).fetchone()[0]


def known_decks(conn: Connection) -> list[str]:
    """The premade decks, then up to MAX_LISTED in all with the decks of replayed games: what an
    unknown deck is answered with. The recorded ones are read as a loose index scan of
    game_players_deck_idx (one index probe per distinct deck, not a read of every seat)."""
    premade = catalog_names()[0]
    recorded = [r[0] for r in conn.execute("""
        WITH RECURSIVE d(deck) AS (
            (SELECT deck FROM game_players ORDER BY deck LIMIT 1)
            UNION ALL
            SELECT (SELECT p.deck FROM game_players p WHERE p.deck > d.deck ORDER BY p.deck LIMIT 1)
            FROM d WHERE d.deck IS NOT NULL)
        SELECT deck FROM d WHERE deck IS NOT NULL LIMIT %s""", (MAX_LISTED,))]
    return (premade + sorted(set(recorded) - set(premade)))[:MAX_LISTED]
