"""Storing one uploaded game log: the first step of the ingest path (docs/services.md, "Ingest").

The bytes are stored exactly as received, keyed by the log's canonical content hash, before anything
else happens to them; the replay task is sent by the caller only after this transaction commits
(``services.games.dispatch``). A log that cannot be parsed is stored too, already judged ``malformed``
(the engine's JSON-pointer errors are its verdict; replaying it again could only say the same).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from psycopg import Connection
from psycopg.types.json import Jsonb

from engine.log import GameLog, LogFormatError, canonical_hash, parse_log
from engine.replay import ENGINE_VERSION, replay
from services.platform.storable import storable


QUEUED_MESSAGE = "waiting for a worker"


class NotAnObject(ValueError):
    """The body is not a JSON object at all: rejected before storage (400), nothing stored."""


@dataclass(frozen=True)
class Stored:
    id: int
    status: str
    duplicate: bool  # the same content was stored before: this is that row


@dataclass(frozen=True)
class Parsed:
    raw: bytes
    content_hash: str
    log: GameLog | None  # None: malformed
    errors: list[dict]  # the engine's [{path, message}] when malformed


def parse_upload(raw: bytes) -> Parsed:
    """Parse a body; raise NotAnObject for bodies that are not a JSON object (nothing to store)."""
    try:
        log = parse_log(raw)
    except LogFormatError as exc:
        # Only now pay for a second decode: to tell "not JSON / not an object" (rejected) from
        # "a JSON object that is not a valid log" (stored as malformed).
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError) as decode_error:
            # the engine's reader says why in a player's words (not UTF-8, nested too deeply, where
            # the JSON breaks); json's own message only when it has none
            said = [e["message"] for e in exc.errors if e["path"] == ""]
            raise NotAnObject(said[0] if said else f"the log is not valid JSON: {decode_error}") from None
        if not isinstance(value, dict):
            raise NotAnObject(f"a game log must be a JSON object, not {_json_kind(value)}") from None
        return Parsed(raw, hashlib.sha256(raw).hexdigest(), None, exc.errors)
    return Parsed(raw, canonical_hash(log), log, [])


def _json_kind(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), "a number")


def store_upload(conn: Connection, parsed: Parsed, uploader: str | None, *, event_id: int | None = None) -> Stored:
    """Insert the game (or find the one with the same content) in the caller's transaction.

    ``event_id``: the event the game was uploaded into (a tournament bundle); else the event its
    log names in ``meta.event``, if any."""
    # A game already stored is answered before any lock is taken. Re-uploads are common (clients
    # retry), and the event and match rows below are locked by the replay worker too (it checks the
    # match for disputes while it holds the game's row): taking the match row first and then
    # waiting on the game row a worker is finishing would deadlock with it.
    existing = conn.execute("SELECT id, status FROM games WHERE content_hash = %s", (parsed.content_hash,)).fetchone()
    if existing is not None:
        return Stored(existing[0], existing[1], True)
    meta = parsed.log.meta if parsed.log is not None else {}
    if event_id is None and "event" in meta:
        event_id = find_or_create_event(conn, meta["event"])
    match_id = None
    if event_id is not None and all(k in meta for k in ("round", "table", "players")):
        match_id = find_or_create_match(conn, event_id, meta["round"], meta["table"], meta["players"])
    # replay() on bytes that do not parse gives the engine's malformed verdict, in its own words
    verdict = replay(parsed.raw, record=False).verdict if parsed.log is None else None
    # 'queued' at once: the caller sends the task after the commit (services.games.dispatch)
    status = "queued" if verdict is None else "malformed"
    message = QUEUED_MESSAGE if verdict is None else storable(verdict.message)
    row = conn.execute(
        """INSERT INTO games (content_hash, raw_log, uploader, event_id, match_id, catalog_version,
                              played_on, status, status_message, queued_at, finished_at, engine_version)
           VALUES (%(hash)s, %(raw)s, %(uploader)s, %(event)s, %(match)s, %(catalog)s, %(date)s,
                   %(status)s, %(message)s, CASE WHEN %(status)s = 'queued' THEN now() END,
                   CASE WHEN %(status)s = 'malformed' THEN now() END, %(engine)s)
           ON CONFLICT (content_hash) DO NOTHING
           RETURNING id""",
        {"hash": parsed.content_hash, "raw": parsed.raw, "uploader": uploader, "event": event_id,
         "match": match_id, "catalog": parsed.log.catalog if parsed.log else None,
         "date": meta.get("date"), "status": status, "message": message,
         "engine": ENGINE_VERSION if parsed.log is None else None},
    ).fetchone()
    if row is None:
        # Another upload of the same content won (ON CONFLICT waited for it to commit, so this new
        # statement sees its row).
        game_id, current = conn.execute("SELECT id, status FROM games WHERE content_hash = %s",
                                        (parsed.content_hash,)).fetchone()
        return Stored(game_id, current, True)
    game_id = row[0]
    if verdict is not None:
        conn.execute(
            """INSERT INTO verdicts (game_id, status, message, errors, engine_version)
               VALUES (%s, %s, %s, %s, %s)""",
            (game_id, verdict.status, message, Jsonb(storable(verdict.errors)), ENGINE_VERSION))
    return Stored(game_id, status, False)


def store_batch(conn: Connection, batch: list[Parsed], uploader: str | None, *, event_id: int,
                visibility: str = "public") -> list[Stored]:
    """Store a bundle's games (``batch``: a slice of it, in order) in the caller's transaction, as
    store_upload would one by one, in a handful of statements: one lookup of the hashes already
    stored, one upsert of the matches, one INSERT of every new game (the games-table triggers then
    fire once per batch, not per game) and one for the verdicts of malformed logs. A game repeated
    in the batch is a duplicate of its first copy. Returns one Stored per entry, in order.

    New games are stored ``queued``, not ``received``: the caller sends their tasks right after the
    commit and sets back to ``received`` (services.games.dispatch.mark_unsent) the few it could not send,
    which saves an UPDATE of every game of the bundle."""
    hashes = [parsed.content_hash for parsed in batch]
    known = {h: Stored(gid, status, True) for h, gid, status in conn.execute(
        "SELECT content_hash, id, status FROM games WHERE content_hash = ANY(%s)", (sorted(set(hashes)),))}
    new: dict[str, Parsed] = {}
    for parsed in batch:
        if parsed.content_hash not in known:
            new.setdefault(parsed.content_hash, parsed)
    matches = _find_or_create_matches(conn, event_id, [p.log.meta for p in new.values() if p.log is not None])
    rows = []
    for h, parsed in new.items():
        meta = parsed.log.meta if parsed.log is not None else {}
        verdict = replay(parsed.raw, record=False).verdict if parsed.log is None else None
        rows.append((h, parsed.raw, matches.get(_match_key(meta)), parsed.log.catalog if parsed.log else None,
                     meta.get("date"), "queued" if verdict is None else "malformed",
                     QUEUED_MESSAGE if verdict is None else storable(verdict.message), verdict))
    inserted = {}
    if rows:
        inserted = dict(conn.execute(
            """INSERT INTO games (content_hash, raw_log, uploader, event_id, visibility, match_id, catalog_version,
                                  played_on, status, status_message, queued_at, finished_at, engine_version)
               SELECT h, raw, %(uploader)s, %(event)s, %(visibility)s, m, cat, d, st, msg,
                      CASE WHEN st = 'queued' THEN now() END, CASE WHEN st = 'malformed' THEN now() END,
                      CASE WHEN st = 'malformed' THEN %(engine)s END
               FROM unnest(%(hashes)s::text[], %(raws)s::bytea[], %(matches)s::bigint[], %(catalogs)s::text[],
                           %(dates)s::date[], %(statuses)s::text[], %(messages)s::text[])
                    AS u(h, raw, m, cat, d, st, msg)
               ON CONFLICT (content_hash) DO NOTHING
               RETURNING content_hash, id""",
            {"uploader": uploader, "event": event_id, "visibility": visibility, "engine": ENGINE_VERSION,
             **dict(zip(("hashes", "raws", "matches", "catalogs", "dates", "statuses", "messages"),
                        (list(column) for column in zip(*(row[:7] for row in rows)))))}).fetchall())
        malformed = [(inserted[row[0]], row[7]) for row in rows if row[7] is not None and row[0] in inserted]
        if malformed:
            with conn.cursor() as cur:
                cur.executemany(
                    """INSERT INTO verdicts (game_id, status, message, errors, engine_version)
                       VALUES (%s, %s, %s, %s, %s)""",
                    [(gid, v.status, storable(v.message), Jsonb(storable(v.errors)), ENGINE_VERSION)
                     for gid, v in malformed])
        statuses = {row[0]: row[5] for row in rows}
        for h, gid in inserted.items():
            known[h] = Stored(gid, statuses[h], False)
        # stored meanwhile by a concurrent upload (ON CONFLICT waited for it to commit): duplicates
        raced = [row[0] for row in rows if row[0] not in inserted]
        if raced:
            for h, gid, status in conn.execute(
                    "SELECT content_hash, id, status FROM games WHERE content_hash = ANY(%s)", (raced,)):
                known[h] = Stored(gid, status, True)
    out, seen = [], set()
    for h in hashes:
        stored = known[h]
        out.append(stored if h not in seen or stored.duplicate else Stored(stored.id, stored.status, True))
        seen.add(h)
    return out


def _match_key(meta: dict) -> tuple | None:
    if not all(k in meta for k in ("round", "table", "players")):
        return None
    return meta["round"], str(meta["table"]), tuple(sorted(meta["players"]))


def _find_or_create_matches(conn: Connection, event_id: int, metas: list[dict]) -> dict[tuple, int]:
    """find_or_create_match for many logs' meta in one statement; {match key: match id}. Keys are
    upserted in sorted order (lock order, as the aggregates) and once each (ON CONFLICT may touch a
    row once per statement)."""
    keys = sorted({key for meta in metas if (key := _match_key(meta)) is not None})
    if not keys:
        return {}
    rows = conn.execute(
        """INSERT INTO event_matches (event_id, round, table_label, players)
           SELECT %s, (e->>0)::int, e->>1, ARRAY(SELECT jsonb_array_elements_text(e->2))
           FROM jsonb_array_elements(%s) WITH ORDINALITY AS k(e, n) ORDER BY n
           ON CONFLICT ON CONSTRAINT event_matches_key DO UPDATE SET round = EXCLUDED.round
           RETURNING id, round, table_label, players""", (event_id, Jsonb([list(key) for key in keys]))).fetchall()
    return {(round_, table, tuple(players)): match_id for match_id, round_, table, players in rows}


def find_or_create_event(conn: Connection, name: str) -> int:
    # DO UPDATE (a no-op write) rather than DO NOTHING so RETURNING always yields the id, also
    # when a concurrent upload created the event a moment ago.
    return conn.execute(
        """INSERT INTO events (name) VALUES (%s)
           ON CONFLICT ON CONSTRAINT events_name_key DO UPDATE SET name = EXCLUDED.name
           RETURNING id""", (name,)).fetchone()[0]


def find_or_create_match(conn: Connection, event_id: int, round_: int, table: Any, players: Any) -> int:
    # Players sorted: uploads that list the seats in another order are the same match.
    return conn.execute(
        """INSERT INTO event_matches (event_id, round, table_label, players) VALUES (%s, %s, %s, %s)
           ON CONFLICT ON CONSTRAINT event_matches_key DO UPDATE SET round = EXCLUDED.round
           RETURNING id""", (event_id, round_, str(table), sorted(players))).fetchone()[0]
