"""Storing one uploaded game log: the first step of the ingest path (docs/services.md, "Ingest").

The bytes are stored exactly as received, keyed by the log's canonical content hash, before anything
else happens to them; the replay task is sent by the caller only after this transaction commits
(``services.games.dispatch``). A log that cannot be parsed is stored too, already judged ``malformed``
(the engine's JSON-pointer errors are its verdict; replaying it again could only say the same).

Every game is stored with its game (``games.game``, migration 0018): its log's ``game`` (a log
without one is Battle for Empyrean, engine.games.DEFAULT_GAME). A log of one game is not filed under
an event of another: it is refused, nothing stored (``Stored.wrong_game``), before its match is made.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from psycopg import Connection
from psycopg.types.json import Jsonb

from engine import games
from engine.log import FORMAT, GameLog, LogFormatError, canonical_hash, dump_log, parse_log
from engine.replay import ENGINE_VERSION, malformed
from services.games.disputes import STANDING_SQL, claimed_winner, resolved_disputes
from services.games.events import WrongGame, event_games
from services.games.status import Move
from services.platform.storable import storable
from services.platform.tokens import Reader, Token


class NotAnObject(ValueError):
    """The body is not a JSON object at all: rejected before storage (400), nothing stored."""


@dataclass(frozen=True)
class Stored:
    id: int | None  # None: refused
    status: str
    duplicate: bool  # the same content was stored before: this is that row
    # refused, not stored: its match's dispute (this id) is resolved, and an organiser's ruling is not
    # joined by new uploads (services.games.disputes)
    refused_by_dispute: int | None = None
    match_id: int | None = None  # the match it is an upload of (None: its log names none, or no event)
    # its uploader is standing for its match (games.standing: services.games.disputes.STANDING_SQL)
    standing: bool = True
    # refused, not stored: its log is a game other than its event's
    wrong_game: WrongGame | None = None
    game: str | None = None  # the key of its game (games.game); None: refused


REFUSED = "refused"  # Stored.status of an upload refused: its match is settled, or its event is of another game


@dataclass(frozen=True)
class Parsed:
    raw: bytes
    content_hash: str
    log: GameLog | None  # None: malformed
    errors: list[dict]  # the engine's [{path, message}] when malformed
    claimed: dict | None = None  # the result the log claims, as written (when it can be read at all)
    # the object says it is a game log ("format": "empyrean-log"), however malformed; False: a JSON
    # object that is no game log at all (a bundle made mostly of those is refused: services/api/events.py)
    says_log: bool = True
    # the key of the game it is of (log_game); None: a malformed log naming a game not known here
    game: str | None = games.DEFAULT_GAME


def read_log(raw: bytes) -> tuple[GameLog | None, list[dict], dict | None]:
    """The one parse of a body that should be one game log: (the log, [], None), or for a JSON
    object that is not a valid log (None, the engine's errors, the object). Raises NotAnObject for
    a body that is not a JSON object at all (refused, nothing stored). Uploads and the positions
    API (services/api/positions.py) read their bodies with it, so both refuse the same bodies."""
    try:
        return parse_log(raw), [], None
    except LogFormatError as exc:
        # Only now pay for a second decode: to tell "not JSON / not an object" (rejected) from
        # "a JSON object that is not a valid log" (stored as malformed).
        try:
            # UTF-8 only, as the engine reads it: json.loads would also take UTF-16 and UTF-32 bytes
            # and the log would be stored as malformed instead of refused (docs/security.md)
            value = json.loads(raw.decode("utf-8-sig"))
        except (ValueError, RecursionError) as decode_error:  # UnicodeDecodeError is a ValueError
            # the engine's reader says why in a player's words (not UTF-8, nested too deeply, where
            # the JSON breaks); json's own message only when it has none
            said = [e["message"] for e in exc.errors if e["path"] == ""]
            raise NotAnObject(said[0] if said else f"the log is not valid JSON: {decode_error}") from None
        if not isinstance(value, dict):
            raise NotAnObject(f"a game log must be a JSON object, not {_json_kind(value)}") from None
        return None, exc.errors, value


def parse_upload(raw: bytes) -> Parsed:
    """Parse a body; raise NotAnObject for bodies that are not a JSON object (nothing to store)."""
    log, errors, value = read_log(raw)
    if log is None:
        assert value is not None  # read_log gives the object of a malformed log
        claimed = value.get("result")
        return Parsed(raw, hashlib.sha256(raw).hexdigest(), None, errors,
                      claimed if isinstance(claimed, dict) else None, value.get("format") == FORMAT, log_game(value))
    return Parsed(raw, canonical_hash(log), log, [], dump_log(log).get("result"), game=log.game)


def log_game(value: dict) -> str | None:
    """The game a log's JSON object is of, as far as it can be told: its ``game`` (a log without one
    is the default game, as the engine reads it); None when it names a game not known here (the
    engine's errors say so at /game)."""
    game = value.get("game", games.DEFAULT_GAME)
    return game if games.is_known(game) else None


def _json_kind(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), "a number")


def store_upload(conn: Connection, parsed: Parsed, uploader: str | None, *, event_id: int | None = None,
                 visibility: str = "public", uploaded_by: Token | None = None) -> Stored:
    """Store one game: a batch of one (store_batch)."""
    return store_batch(conn, [parsed], uploader, event_id=event_id, visibility=visibility,
                       uploaded_by=uploaded_by)[0]


def store_batch(conn: Connection, batch: list[Parsed], uploader: str | None, *, event_id: int | None = None,
                visibility: str = "public", uploaded_by: Token | None = None) -> list[Stored]:
    """Insert games (or find the ones with the same content) in the caller's transaction, in a handful
    of statements: one lookup of the hashes already stored, one upsert of the matches, one INSERT of
    every new game (the games-table triggers then fire once per batch, not per game) and one for the
    verdicts of malformed logs. A game repeated in the batch is a duplicate of its first copy.
    Returns one Stored per entry, in order.

    ``event_id``: the event the games were uploaded into (a tournament bundle, a token bound to an
    event); else each game's event is the one its log names in ``meta.event`` if an event of that
    name exists. An upload never creates an event (only an organiser does: services.games.events):
    a game naming one that does not exist is stored without an event, the name kept in
    ``games.named_event``.

    ``uploader``: the ``X-Uploader`` label, the uploader's own words (games.uploader, shown as a
    label); ``uploaded_by``: the API token that uploaded them, all from this one token: its id in
    ``games.uploaded_by`` (migration 0012: the uploader may read back an unlisted game), its owner,
    name and role in ``games.uploaded_by_owner/_name/_role`` (migration 0013): who uploaded a game,
    as the service knows it. None only for games stored by other means (tests, tools).

    A new log whose match has a resolved dispute is refused (``refused_by_dispute``), not stored; so
    is one of another game than its event's (``wrong_game``), before its match is looked up or made.
    Each game is stored with its log's game; a malformed log that names no game known here, with
    its event's (else the default game's).

    New games are stored ``queued``, not ``received``: the caller sends their tasks right after the
    commit and sets back to ``received`` (services.games.dispatch.mark_unsent) the few it could not
    send, which saves an UPDATE of every game."""
    hashes = [parsed.content_hash for parsed in batch]
    # Games already stored are answered before any lock is taken. Re-uploads are common (clients
    # retry), and the event and match rows below are locked by the replay worker too (it checks the
    # match for disputes while it holds the game's row): taking the match row first and then waiting
    # on the game row a worker is finishing would deadlock with it.
    known = {h: Stored(gid, status, True, match_id=match, standing=standing, game=game)
             for h, gid, status, match, standing, game in conn.execute(_KNOWN, (sorted(set(hashes)),))}
    new: dict[str, Parsed] = {}
    for parsed in batch:
        if parsed.content_hash not in known:
            new.setdefault(parsed.content_hash, parsed)
    named = {h: _meta_event(parsed) for h, parsed in new.items()} if event_id is None else {}
    found = find_events(conn, {name for name in named.values() if name is not None}, uploaded_by)
    events = {h: event_id if event_id is not None else found.get(named[h]) for h in new}
    of_events = event_games(conn, {e for e in events.values() if e is not None})
    for h, parsed in list(new.items()):
        if events[h] is not None and parsed.game is not None and parsed.game != of_events[events[h]][0]:
            event_game, event_title = of_events[events[h]]
            known[h] = Stored(None, REFUSED, False, wrong_game=WrongGame(parsed.game, events[h], event_title,
                                                                         event_game))
            del new[h]
    stored_game = {h: p.game or (of_events[events[h]][0] if events[h] is not None else games.DEFAULT_GAME)
                   for h, p in new.items()}
    # the log names an event that does not exist: kept as text beside the game
    unfiled = {h: storable(named[h]) if events[h] is None and named.get(h) is not None else None for h in new}
    matches = _find_or_create_matches(conn, [(events[h], p.log.meta) for h, p in new.items() if p.log is not None])
    # the match rows are locked now (the upsert): a resolution committed meanwhile is seen
    settled = resolved_disputes(conn, sorted(set(matches.values())))
    rows = []
    for h, parsed in list(new.items()):
        meta = parsed.log.meta if parsed.log is not None else {}
        dispute = settled.get(matches.get(_match_key(events[h], meta)))
        if dispute is not None:
            known[h] = Stored(None, REFUSED, False, refused_by_dispute=dispute)
            del new[h]
            continue
        verdict = malformed(parsed.errors).verdict if parsed.log is None else None
        move = Move.STORE if verdict is None else Move.STORE_MALFORMED
        rows.append((h, parsed.raw, events[h], matches.get(_match_key(events[h], meta)),
                     parsed.log.catalog if parsed.log else None, meta.get("date"), str(move.target),
                     move.message or storable(verdict.message), *claim_columns(parsed), unfiled[h], stored_game[h],
                     verdict))
    inserted = {}
    if rows:
        # standing: the one rule (services.games.disputes.STANDING_SQL) over the token and the event
        inserted = {h: (gid, match, standing, game) for h, gid, match, standing, game in conn.execute(
            f"""INSERT INTO games (content_hash, raw_log, uploader, uploaded_by, uploaded_by_owner, uploaded_by_name,
                                  uploaded_by_role, event_id, visibility, match_id, catalog_version,
                                  played_on, status, status_message, claimed_winner, claimed_result, queued_at,
                                  finished_at,
                                  engine_version, named_event, game, standing)
               SELECT h, raw, %(uploader)s, %(by_token)s, %(by_owner)s, %(by_name)s, %(by_role)s, u.e, %(visibility)s,
                      m, cat, d, st, msg, winner, claim,
                      CASE WHEN st = %(queued)s THEN now() END, CASE WHEN st = %(malformed)s THEN now() END,
                      CASE WHEN st = %(malformed)s THEN %(engine)s END, named, u.game, {STANDING_SQL}
               FROM unnest(%(hashes)s::text[], %(raws)s::bytea[], %(events)s::bigint[], %(matches)s::bigint[],
                           %(catalogs)s::text[], %(dates)s::date[], %(statuses)s::text[], %(messages)s::text[],
                           %(winners)s::text[], %(claims)s::jsonb[], %(named)s::text[], %(games)s::text[])
                    AS u(h, raw, e, m, cat, d, st, msg, winner, claim, named, game)
               LEFT JOIN events e ON e.id = u.e LEFT JOIN api_tokens t ON t.id = %(by_token)s
               ON CONFLICT (content_hash) DO NOTHING
               RETURNING content_hash, id, match_id, standing, game""",
            {"uploader": uploader, "visibility": visibility, "engine": ENGINE_VERSION,
             "by_token": uploaded_by.id if uploaded_by else None,
             "by_owner": uploaded_by.owner if uploaded_by else None,
             "by_name": uploaded_by.name if uploaded_by else None, "by_role": uploaded_by.role if uploaded_by else None,
             "queued": str(Move.STORE.target), "malformed": str(Move.STORE_MALFORMED.target),
             **dict(zip(("hashes", "raws", "events", "matches", "catalogs", "dates", "statuses", "messages", "claims",
                         "winners", "named", "games"), (list(column) for column in zip(*(row[:12] for row in rows)))))}
        )}
        judged = [(inserted[row[0]][0], row[12]) for row in rows if row[12] is not None and row[0] in inserted]
        if judged:
            with conn.cursor() as cur:
                cur.executemany(
                    """INSERT INTO verdicts (game_id, status, message, errors, engine_version)
                       VALUES (%s, %s, %s, %s, %s)""",
                    [(gid, v.status, storable(v.message), Jsonb(storable(v.errors)), ENGINE_VERSION)
                     for gid, v in judged])
        statuses = {row[0]: row[6] for row in rows}
        for h, (gid, match, standing, game) in inserted.items():
            known[h] = Stored(gid, statuses[h], False, match_id=match, standing=standing, game=game)
        # stored meanwhile by a concurrent upload (ON CONFLICT waited for it to commit): duplicates
        raced = [row[0] for row in rows if row[0] not in inserted]
        if raced:
            for h, gid, status, match, standing, game in conn.execute(_KNOWN, (raced,)):
                known[h] = Stored(gid, status, True, match_id=match, standing=standing, game=game)
    out, seen = [], set()
    for h in hashes:
        stored = known[h]
        out.append(stored if h not in seen or stored.duplicate or stored.id is None
                   else dataclasses.replace(stored, duplicate=True))
        seen.add(h)
    return out


# games already stored with these content hashes: what Stored answers of them
_KNOWN = "SELECT content_hash, id, status, match_id, standing, game FROM games WHERE content_hash = ANY(%s)"


def claim_columns(parsed: Parsed) -> tuple[Jsonb | None, str]:
    """What an upload stores of its log's claim: games.claimed_result (the result object as written)
    and games.claimed_winner (who won, in the words a dispute uses); a malformed log's claim may hold
    text PostgreSQL cannot store (NUL), replaced as everywhere (services.platform.storable)."""
    claimed = Jsonb(storable(parsed.claimed)) if parsed.claimed is not None else None
    return claimed, storable(claimed_winner(parsed.log))


def claim_of(raw: bytes) -> tuple[Jsonb | None, str]:
    """claim_columns of a log already stored (migration 0011 fills them in for games stored before)."""
    try:
        return claim_columns(parse_upload(raw))
    except NotAnObject:  # never stored by an upload: written by other means
        return None, claimed_winner(None)


def _meta_event(parsed: Parsed) -> str | None:
    """The event the log names in meta.event (a log the engine could read; else none)."""
    meta = parsed.log.meta if parsed.log is not None else {}
    return meta["event"] if isinstance(meta.get("event"), str) else None


def find_events(conn: Connection, names: set[str], token: Token | None) -> dict[str, int]:
    """{name: id} of the events among ``names`` that ``token`` may read (the rule of
    services.api.access.may_read_event): an unlisted event is found only by its organiser, an admin
    or a token bound to it, and to any other uploader its name names nothing, as an unknown one (the
    game is stored without an event, the name kept as text). ``token`` None: a tool of ours, which
    finds them all. A lookup only; an upload never creates an event (services.games.events does, for
    an organiser)."""
    if not names:
        return {}
    readable = Reader(admin=True) if token is None else Reader.of(token)
    where = readable.events_sql()
    where.add("name = ANY(%(names)s)", names=sorted(names))
    return dict(conn.execute(f"SELECT name, id FROM events WHERE {where.sql()}", where.params).fetchall())


def _match_key(event_id: int | None, meta: dict) -> tuple | None:
    if event_id is None or not all(k in meta for k in ("round", "table", "players")):
        return None
    return event_id, meta["round"], str(meta["table"]), tuple(sorted(meta["players"]))


def _find_or_create_matches(conn: Connection, metas: list[tuple[int | None, dict]]) -> dict[tuple, int]:
    """The matches of these (event, meta) pairs, created where new, in one statement; {match key: match
    id}. Keys are upserted in sorted order (lock order, as the aggregates) and once each (ON CONFLICT
    may touch a row once per statement). Players are sorted: uploads that list the seats in another
    order are the same match."""
    keys = sorted({key for event_id, meta in metas if (key := _match_key(event_id, meta)) is not None})
    if not keys:
        return {}
    rows = conn.execute(
        """INSERT INTO event_matches (event_id, round, table_label, players)
           SELECT (e->>0)::bigint, (e->>1)::int, e->>2, ARRAY(SELECT jsonb_array_elements_text(e->3))
           FROM jsonb_array_elements(%s) WITH ORDINALITY AS k(e, n) ORDER BY n
           ON CONFLICT ON CONSTRAINT event_matches_key DO UPDATE SET round = EXCLUDED.round
           RETURNING id, event_id, round, table_label, players""", (Jsonb([list(key) for key in keys]),)).fetchall()
    return {(event_id, round_, table, tuple(players)): match_id
            for match_id, event_id, round_, table, players in rows}
