"""What readers see of the stored games: one function a view, each taking a connection and giving
plain values (dataclasses and dicts of the rows), so that the API (services/api) serialises them and
the dashboards (dashboards/) draw them from the same reads. No writes here.

- ``game_view``: one game with who uploaded it (``uploaded_by``: the API token; ``uploader``: the
  X-Uploader label), whether the statistics count it and why, its event, its match's dispute, its
  verdict (and on request its stored log and its record), with what deciding who may read it needs
  (its and its event's visibility, its event's owner, the id of the token that uploaded it:
  services.api.access.may_read_game); ``replay_of`` reads that log once into the replay viewer's
  timeline.
- ``event_summaries``: events with their game counts by status and open disputes (of one game, or
  every game); ``flagged_games``: an event's games that are not valid; ``public_event_names``: the
  filter form's events; ``event_games``: the game each event is of.
- ``dispute_summaries``, ``dispute_summary`` and ``dispute_view``: disputes, listed, one, or one with
  every side; ``match_uploads``: a dispute's sides with their stored logs and final boards (the
  dispute desk).
- ``event_matches`` and ``player_matches``: matches with every upload (a player's of one game, or of
  every game), for the standings and the player pages (services.games.standings makes them into
  results); ``games_outside_matches``.

Ids above ``MAX_ID`` (PostgreSQL's bigint) name nothing; the callers answer "not found" for them
before they ask for a connection.
"""

from __future__ import annotations

import datetime as dt
import gc
import json
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from psycopg import Connection
from psycopg.rows import dict_row

from engine.log import LogFormatError, parse_log
from engine.replay import malformed
from engine.timeline import Timeline, timeline
from engine.words import game_title

from . import points as match_points
from . import standings
from .disputes import NOT_STANDING, MatchDispute, read_by_rule_sql
from .events import event_points
from .status import PENDING, GameStatus

MAX_ID = 2**63 - 1  # ids are bigint


def _cursor(conn: Connection):
    # a cursor's row factory, not the connection's: pooled connections are shared by requests
    return conn.cursor(row_factory=dict_row)


# --- games -----------------------------------------------------------------------------------------

# the verdicts row as GET /api/v1/games/{id} shows it, in this order
VERDICT_COLUMNS = ("status", "message", "decision_index", "round", "phase", "player", "decision", "rule", "legal",
                   "errors", "board", "unseen", "engine_version", "catalog_version", "replayed_at")


@dataclass(frozen=True)
class GameView:
    """One stored game: where it is in the pipeline, its event and its match's dispute, the verdict."""

    id: int
    game: str  # the key of the game it is of (engine.games): its log's
    status: GameStatus
    status_message: str | None
    content_hash: str
    uploader: str | None  # the X-Uploader label: the uploader's own words, unchecked
    uploaded_by: dict[str, str] | None  # the API token that uploaded it: owner, name, role (None: before 0013)
    event_id: int | None
    event: str | None  # the event's name
    match_id: int | None
    dispute_id: int | None  # the dispute of its match, if there is one
    catalog_version: str | None
    engine_version: str | None
    played_on: dt.date | None
    attempts: int
    received_at: dt.datetime
    queued_at: dt.datetime | None
    replay_started_at: dt.datetime | None
    finished_at: dt.datetime | None
    visibility: str  # the game's own: public | unlisted
    event_visibility: str | None  # its event's (None without an event)
    event_organiser: str | None  # its event's owner
    uploaded_by_token: int | None  # games.uploaded_by: the id of that token (None: stored before migration 0012)
    named_event: str | None  # the log's meta.event when the game was stored without an event (none had that name)
    verdict: dict[str, Any] | None  # VERDICT_COLUMNS; None until it is replayed
    counted: bool = False  # in the statistics (or being added to them)
    counted_why: str = ""  # why it is or is not, in words (one match counts once: services.games.disputes)
    standing: bool = True  # its uploader is standing for its match (games.standing: services.games.disputes)
    # "R3 · T14 · Ada vs Bo" (engine.words.game_title) from its match and the names its replay read;
    # None for a game of no match not replayed yet
    title: str | None = None
    raw_log: bytes | None = None  # with log=True
    record: dict[str, Any] | None = None  # with record=True: the game record, its seats and rounds

    @property
    def pending(self) -> bool:
        return self.status in PENDING


def game_view(conn: Connection, game_id: int, *, log: bool = False, record: bool = False) -> GameView | None:
    """The game ``game_id`` (None when there is none): one statement, two more reads of the record's
    tables with ``record``. ``log``: with the stored bytes (the replay viewer reads them)."""
    cur = _cursor(conn)
    verdict = ", ".join(f"v.{c} AS verdict_{c}" for c in VERDICT_COLUMNS)
    row = cur.execute(
        f"""SELECT g.id, g.game, g.status, g.status_message, g.content_hash, g.uploader, {_UPLOADED_BY},
                   g.uploaded_by AS uploaded_by_token, g.event_id, e.name AS event, g.match_id, d.id AS dispute_id,
                   g.catalog_version, g.engine_version, g.played_on, g.attempts, g.received_at, g.queued_at,
                   g.replay_started_at, g.finished_at, g.visibility, e.visibility AS event_visibility,
                   e.organiser AS event_organiser, g.named_event,
                   {"g.raw_log" if log else "NULL::bytea AS raw_log"}, v.game_id IS NOT NULL AS replayed, {verdict},
                   coalesce(r.counted OR r.pending, false) AS counted, d.status AS dispute_status,
                   d.counts_game_id, g.standing, {read_by_rule_sql("g")} AS read_by_rule,
                   (SELECT min(o.id) FROM games o JOIN verdicts ov ON ov.game_id = o.id
                    WHERE o.match_id = g.match_id AND ov.status = 'valid' AND {read_by_rule_sql("o")}) AS first_valid,
                   m.round AS match_round, m.table_label AS match_table, m.players AS match_players,
                   (SELECT array_agg(p.player_name ORDER BY p.seat) FROM game_players p
                    WHERE p.game_id = g.id) AS seat_names
            FROM games g LEFT JOIN events e ON e.id = g.event_id
                         LEFT JOIN event_matches m ON m.id = g.match_id
                         LEFT JOIN disputes d ON d.match_id = g.match_id
                         LEFT JOIN verdicts v ON v.game_id = g.id
                         LEFT JOIN game_records r ON r.game_id = g.id
            WHERE g.id = %s""", (game_id,)).fetchone()
    if row is None:
        return None
    extra = ("replayed", "dispute_status", "counts_game_id", "first_valid", "read_by_rule", *_UPLOADED_BY_COLUMNS,
             *_TITLE_COLUMNS)
    facts = {k: v for k, v in row.items() if not k.startswith("verdict_") and k not in extra}
    return GameView(**{**facts, "status": GameStatus(row["status"]),
                       "raw_log": bytes(row["raw_log"]) if log else None},
                    uploaded_by=uploaded_by(row), counted_why=_counted_why(row), title=_title(row),
                    verdict={c: row[f"verdict_{c}"] for c in VERDICT_COLUMNS} if row["replayed"] else None,
                    record=_record(cur, game_id) if record else None)


# who uploaded a game, as the service knows it: the token's owner, name and role (migration 0013; its
# id is games.uploaded_by, migration 0012, read by game_view alone): the columns and their view
_UPLOADED_BY_COLUMNS = ("uploaded_by_owner", "uploaded_by_name", "uploaded_by_role")
_UPLOADED_BY = "g.uploaded_by_owner, g.uploaded_by_name, g.uploaded_by_role"


def uploader_owner(uploaded_by: dict[str, str] | None) -> str | None:
    """Who uploaded a game, in one word: the owner of the API token (``uploaded_by``'s), or None
    for a game stored without one (before migration 0013, or by a tool of ours)."""
    return uploaded_by["owner"] if uploaded_by is not None else None


def uploaded_by(row: dict) -> dict[str, str] | None:
    """The API token that uploaded a game (owner, name, role), from a row selected with _UPLOADED_BY;
    None for a game stored before the service recorded it."""
    if row["uploaded_by_role"] is None:
        return None
    return {"owner": row["uploaded_by_owner"], "name": row["uploaded_by_name"], "role": row["uploaded_by_role"]}


_TITLE_COLUMNS = ("match_round", "match_table", "match_players", "seat_names")


def _title(row: dict) -> str | None:
    """The game's name as people say it: its match's round and table, and its players in seat order
    once a replay has read them (else the match's, by name)."""
    players = row["seat_names"] if row["seat_names"] and all(row["seat_names"]) else row["match_players"]
    if not players:
        return None
    return game_title({"round": row["match_round"], "table": row["match_table"], "players": players}, len(players))


def _counted_why(row: dict) -> str:
    """Why a game is counted in the statistics or not, in words (services.games.disputes)."""
    if row["counted"]:
        return "counted in the statistics" + (" (its match's dispute names it)" if row["dispute_status"] else "")
    if not row["replayed"] or row["status"] in PENDING:
        return "not replayed yet"
    if row["verdict_status"] != GameStatus.VALID:
        return f"only valid games are counted; this one is {row['verdict_status']}"
    if not row["read_by_rule"] and row["dispute_status"] is None:
        return (f"stored and verified (its verdict is above), but not counted and it opens no dispute: "
                f"{NOT_STANDING}, and the match has an upload by one of them"
                + (f" (game {row['first_valid']} counts for the match)" if row["first_valid"] else ""))
    if row["dispute_status"] == "open":
        return (f"its match is in dispute (dispute {row['dispute_id']}): none of its uploads counts until the "
                "event's organiser resolves it")
    if row["dispute_status"] == "resolved":
        named = row["counts_game_id"]
        return (f"dispute {row['dispute_id']} was resolved: " + (
            f"game {named} counts for the match" if named else "no game of the match counts"))
    return (f"game {row['first_valid']}, an earlier upload of the same match that agrees with it, is counted: "
            "a match counts once")


def _record(cur, game_id: int) -> dict | None:
    rec = cur.execute(
        """SELECT players, battlefields, first_player, winner, margin, decisions, end_reason, conceded_by,
                  played_on, event_id, counted
           FROM game_records WHERE game_id = %s""", (game_id,)).fetchone()
    if rec is None:
        return None
    seats = cur.execute(
        """SELECT seat, player_name, deck, is_first_player, won, final_might, battlefields_won, unseen
           FROM game_players WHERE game_id = %s ORDER BY seat""", (game_id,)).fetchall()
    by_seat = {s["seat"]: {**s, "battlefields": [], "cards": []} for s in seats}
    for bf in cur.execute(
            """SELECT seat, position, battlefield, might, won FROM game_player_battlefields
               WHERE game_id = %s ORDER BY seat, position""", (game_id,)):
        by_seat[bf.pop("seat")]["battlefields"].append(bf)
    for card in cur.execute(
            """SELECT seat, card, deployed, first_deployed_round, revealed, moved, destroyed, returned,
                      might_gained, might_at_end, on_board_at_end
               FROM game_player_cards WHERE game_id = %s ORDER BY seat, card""", (game_id,)):
        by_seat[card.pop("seat")]["cards"].append(card)
    rounds: dict[int, dict] = {}
    for r in cur.execute(
            """SELECT round, seat, is_first_player, essence_available, essence_spent, essence_unspent, might
               FROM game_player_rounds WHERE game_id = %s ORDER BY round, seat""", (game_id,)):
        entry = rounds.setdefault(r["round"], {"round": r["round"], "first_player": None, "seats": []})
        if r["is_first_player"]:
            entry["first_player"] = r["seat"]
        entry["seats"].append({"seat": r["seat"], "essence_available": r["essence_available"],
                               "essence_spent": r["essence_spent"], "essence_unspent": r["essence_unspent"],
                               "might": r["might"]})
    return {**rec, "seats": list(by_seat.values()), "rounds": list(rounds.values())}


# --- the replay viewer ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayView:
    """A game as the replay viewer shows it: its stored facts and what this engine makes of its log."""

    game: GameView
    timeline: Timeline
    event: str | None  # the game's event, else the one its log names
    date: str | None  # the day it was played (ISO), else the one its log names
    title: str | None = None  # the game as people name it, "R3 · T14 · Ada vs Bo" (None: the log does not read)


def replay_of(game: GameView) -> ReplayView:
    """Read the game's stored log (``game_view(..., log=True)``) once: the engine's parse gives the
    timeline and the meta shown beside it. A log the engine cannot read has no frames and the
    malformed verdict; its meta is then read as plain JSON, if it is JSON at all, and shown as text."""
    title = None
    try:
        log = parse_log(game.raw_log)
    except LogFormatError as exc:
        tl, meta = Timeline([], malformed(exc.errors).verdict), _json_meta(game.raw_log)
    else:
        tl, meta, title = timeline(log), log.meta, game_title(log.meta, log.setup.players)
    event = game.event or (meta.get("event") if isinstance(meta.get("event"), str) else None)
    date = game.played_on.isoformat() if game.played_on else (
        meta.get("date") if isinstance(meta.get("date"), str) else None)
    return ReplayView(game, tl, event, date, title)


def _json_meta(raw: bytes) -> dict[str, Any]:
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return {}
    meta = doc.get("meta") if isinstance(doc, dict) else None
    return meta if isinstance(meta, dict) else {}


# --- events ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventSummary:
    id: int
    name: str
    starts_on: dt.date | None
    ends_on: dt.date | None
    created_at: dt.datetime
    visibility: str
    organiser: str | None
    game: str  # the key of the game it is of (engine.games)
    games: dict[str, int]  # games by status (the statuses it has games in, in the order of their names)
    open_disputes: int
    # the first and last day its counted games were played (None: none counted yet)
    played_from: dt.date | None = None
    played_to: dt.date | None = None
    # its standings' match points: its own or its game's default (services.games.points; None: a game
    # this process does not know)
    points: match_points.Points | None = None


EVENTS_LISTED = 1000  # the events list shows the newest this many


def event_summaries(conn: Connection, event_id: int | None = None, *,
                   unlisted: bool | str = False, game: str | None = None) -> list[EventSummary]:
    """Events (one, or the newest EVENTS_LISTED public ones) with their game counts by status and open
    disputes and the days its counted games were played: four set-based queries, whatever the
    number of events. An unlisted event is left out
    of the list but found by its id (docs/security.md, "Visibility"); ``unlisted``: the list has
    every unlisted event too (True: an admin's), or those of this organiser (a name). The counts come
    from agg_event_games, kept by triggers on games (migration 0003): no scan of the games rows.
    ``game``: only the events of that game (events_game_idx, migration 0018)."""
    cur = _cursor(conn)
    rows = cur.execute("""SELECT id, name, starts_on, ends_on, created_at, visibility, organiser, game, points
                          FROM events
                          WHERE ((%(id)s::bigint IS NULL AND (visibility = 'public' OR %(every)s
                                                             OR organiser = %(organiser)s))
                                 OR id = %(id)s)
                            AND (%(game)s::text IS NULL OR game = %(game)s)
                          ORDER BY id DESC LIMIT %(limit)s""",
                       {"id": event_id, "limit": EVENTS_LISTED, "every": unlisted is True, "game": game,
                        "organiser": unlisted if isinstance(unlisted, str) else None}).fetchall()
    ids = [r["id"] for r in rows]
    counts: dict[int, dict[str, int]] = {i: {} for i in ids}
    for r in cur.execute("""SELECT event_id, status, games AS n FROM agg_event_games
                            WHERE event_id = ANY(%s) AND games <> 0 ORDER BY status""", (ids,)):
        counts[r["event_id"]][r["status"]] = r["n"]
    disputes = {r["event_id"]: r["n"] for r in cur.execute(
        """SELECT m.event_id, count(*) AS n FROM disputes d JOIN event_matches m ON m.id = d.match_id
           WHERE m.event_id = ANY(%s) AND d.status = 'open' GROUP BY m.event_id""", (ids,))}
    # agg_faction_results has a row per day, event, table size and faction with counted games, of every
    # game: the days played
    played = {r["event_id"]: (r["first"], r["last"]) for r in cur.execute(
        """SELECT event_id, min(played_on) AS first, max(played_on) AS last FROM agg_faction_results
           WHERE event_id = ANY(%s) AND games > 0 GROUP BY event_id""", (ids,))}
    return [EventSummary(**{**r, "points": match_points.of_event(r["game"], r["points"])},
                         games=counts[r["id"]], open_disputes=disputes.get(r["id"], 0),
                         played_from=played.get(r["id"], (None, None))[0],
                         played_to=played.get(r["id"], (None, None))[1]) for r in rows]


def flagged_games(conn: Connection, event_id: int, limit: int) -> list[dict]:
    """The event's games that are not valid (illegal, mismatch, malformed, error), oldest first, read
    through the partial index of migration 0003 (whose predicate this one repeats to the letter).
    Each: id, game (its key), status, status_message, uploader (the X-Uploader label), uploaded_by
    (uploaded_by()), received_at."""
    rows = _cursor(conn).execute(
        f"""SELECT g.id, g.game, g.status, g.status_message, g.uploader, {_UPLOADED_BY}, g.received_at
           FROM games g WHERE g.event_id = %s AND g.status IN ('illegal', 'mismatch', 'malformed', 'error')
           ORDER BY g.id LIMIT %s""", (event_id, limit)).fetchall()
    return [{**{k: v for k, v in r.items() if k not in _UPLOADED_BY_COLUMNS}, "uploaded_by": uploaded_by(r)}
            for r in rows]


def event_games_and_points(conn: Connection, event_ids: list[int]
                           ) -> dict[int, tuple[str, match_points.Points | None]]:
    """{event id: (the key of the game it is of, its standings' match points)} for these events (one
    statement; the points are the event's own, else its game's: services.games.points)."""
    rows = conn.execute("SELECT id, game, points FROM events WHERE id = ANY(%s)", (list(event_ids),)).fetchall()
    return {event_id: (game, match_points.of_event(game, points)) for event_id, game, points in rows}


def public_event_names(conn: Connection, limit: int, game: str | None = None) -> list[tuple[int, str]]:
    """(id, name) of the newest ``limit`` public events (unlisted ones are not offered); ``game``: of
    that game only."""
    return conn.execute("""SELECT id, name FROM events WHERE visibility = 'public'
                             AND (%(game)s::text IS NULL OR game = %(game)s)
                           ORDER BY id DESC LIMIT %(limit)s""", {"game": game, "limit": limit}).fetchall()


# --- disputes --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DisputeSummary:
    id: int
    status: str  # open | resolved
    reason: str
    resolution: str | None
    opened_at: dt.datetime
    resolved_at: dt.datetime | None
    match_id: int
    counts_game_id: int | None  # the game the resolution counts (None: none, or not resolved)
    event_id: int
    event_name: str
    game: str  # the key of the game its event is of (engine.games)
    event_visibility: str
    event_organiser: str | None
    round: int
    table_label: str
    players: list[str]
    games: list[int]  # the match's games, by id
    statuses: list[str]  # their statuses, in the same order
    # the API token that resolved it: owner, name, role (None: open, or resolved before migration 0015)
    resolved_by: dict[str, str] | None = None


_RESOLVED_BY_COLUMNS = ("resolved_by_owner", "resolved_by_name", "resolved_by_role")

_DISPUTES = """
    SELECT d.id, d.status, d.reason, d.resolution, d.opened_at, d.resolved_at, d.match_id, d.counts_game_id,
           d.resolved_by_owner, d.resolved_by_name, d.resolved_by_role,
           m.event_id, e.name AS event_name, e.game, e.visibility AS event_visibility, e.organiser AS event_organiser,
           m.round, m.table_label, m.players, g.games, g.statuses
    FROM disputes d
    JOIN event_matches m ON m.id = d.match_id
    JOIN events e ON e.id = m.event_id
    CROSS JOIN LATERAL (SELECT coalesce(array_agg(id ORDER BY id), '{}') AS games,
                               coalesce(array_agg(status ORDER BY id), '{}') AS statuses
                        FROM games WHERE match_id = m.id) g
"""


def dispute_summaries(conn: Connection, *, status: str = "all", event_id: int | None = None,
                      before: int | None = None, limit: int | None = None) -> list[DisputeSummary]:
    """Disputes, newest first: ``status`` open, resolved or all; those of one event, else of every
    public event (an unlisted event's only when it is named); ids below ``before``; ``limit`` of them."""
    rows = _cursor(conn).execute(
        _DISPUTES + """
        WHERE (%(status)s = 'all' OR d.status = %(status)s)
          AND (%(event)s::bigint IS NULL AND e.visibility = 'public' OR m.event_id = %(event)s)
          AND (%(before)s::bigint IS NULL OR d.id < %(before)s)
        ORDER BY d.id DESC
        LIMIT %(limit)s""", {"status": status, "event": event_id, "before": before, "limit": limit}).fetchall()
    return [_dispute_summary(r) for r in rows]


def _dispute_summary(row: dict) -> DisputeSummary:
    by = None if row["resolved_by_role"] is None else {
        "owner": row["resolved_by_owner"], "name": row["resolved_by_name"], "role": row["resolved_by_role"]}
    return DisputeSummary(**{k: v for k, v in row.items() if k not in _RESOLVED_BY_COLUMNS}, resolved_by=by)


def dispute_summary(conn: Connection, dispute_id: int) -> DisputeSummary | None:
    """One dispute, without its sides (the replay viewer's note on a disputed game)."""
    row = _cursor(conn).execute(_DISPUTES + "WHERE d.id = %s", (dispute_id,)).fetchone()
    return _dispute_summary(row) if row is not None else None


@dataclass(frozen=True)
class DisputeView:
    """A dispute with every side: each game uploaded for its match, oldest first."""

    dispute: DisputeSummary
    # per game: id, uploader (the X-Uploader label), uploaded_by (the token's owner, name, role, or
    # None), counted (in the statistics), standing (its uploader is standing for the match),
    # received_at, status, status_message, claimed_result (what its log claims, as
    # stored at its upload: services.games.store); the verdict (verdict_status,
    # verdict_message, decision_index, verdict_round, phase, player, decision, rule, legal, errors); the
    # result by the rules (winner, margin, final_might: per seat, None without a record)
    sides: list[dict]


def dispute_view(conn: Connection, dispute_id: int) -> DisputeView | None:
    cur = _cursor(conn)
    head = cur.execute(_DISPUTES + "WHERE d.id = %s", (dispute_id,)).fetchone()
    if head is None:
        return None
    sides = cur.execute("""
        SELECT g.id, g.uploader, {uploaded_by}, coalesce(r.counted OR r.pending, false) AS counted,
               g.standing, g.received_at, g.status, g.status_message, g.claimed_result,
               v.status AS verdict_status, v.message AS verdict_message, v.decision_index,
               v.round AS verdict_round, v.phase, v.player, v.decision, v.rule, v.legal,
               v.errors, r.winner, r.margin
        FROM games g
        LEFT JOIN verdicts v ON v.game_id = g.id
        LEFT JOIN game_records r ON r.game_id = g.id
        WHERE g.match_id = %s
        ORDER BY g.received_at, g.id""".format(uploaded_by=_UPLOADED_BY), (head["match_id"],)).fetchall()
    might = _final_might(cur, [s["id"] for s in sides])
    return DisputeView(_dispute_summary(head), [
        {**{k: v for k, v in s.items() if k not in _UPLOADED_BY_COLUMNS}, "uploaded_by": uploaded_by(s),
         "final_might": might.get(s["id"])} for s in sides])


def _final_might(cur, game_ids: list[int]) -> dict[int, list[int]]:
    """Each game's final might per seat (total over the battlefields), by the rules."""
    if not game_ids:
        return {}
    rows = cur.execute("""
        SELECT game_id, array_agg(final_might ORDER BY seat) AS might
        FROM game_players WHERE game_id = ANY(%s) GROUP BY game_id""", (game_ids,)).fetchall()
    return {r["game_id"]: r["might"] for r in rows}


@dataclass(frozen=True)
class Upload:
    """One upload of a match as the dispute desk (dashboards.disputes) reads it: its stored log, what
    deciding who may see it needs (the attributes services.api.access.may_read_game reads), and its
    final board by the rules from its record (valid and mismatch games have one; else empty)."""

    id: int
    raw_log: bytes
    visibility: str
    event_id: int | None
    event_visibility: str | None
    event_organiser: str | None
    uploaded_by_token: int | None
    battlefields: list[str]  # in order, B1 first
    names: list[str | None]  # the players in seat order (meta.players as recorded)
    might: list[list[int]]  # per seat, per battlefield: the might at the end of the game


def match_uploads(conn: Connection, game_ids: list[int]) -> dict[int, Upload]:
    """{game id: Upload} of these games (a dispute's sides): two statements."""
    cur = _cursor(conn)
    rows = cur.execute("""
        SELECT g.id, g.raw_log, g.visibility, g.event_id, e.visibility AS event_visibility,
               e.organiser AS event_organiser, g.uploaded_by AS uploaded_by_token,
               coalesce(r.battlefields, '{}') AS battlefields
        FROM games g LEFT JOIN events e ON e.id = g.event_id LEFT JOIN game_records r ON r.game_id = g.id
        WHERE g.id = ANY(%s)""", (game_ids,)).fetchall()
    seats: dict[int, dict[int, tuple[str | None, list[int]]]] = {}
    for r in cur.execute("""
            SELECT p.game_id, p.seat, p.player_name, array_agg(b.might ORDER BY b.position) AS might
            FROM game_players p JOIN game_player_battlefields b ON b.game_id = p.game_id AND b.seat = p.seat
            WHERE p.game_id = ANY(%s) GROUP BY p.game_id, p.seat""", (game_ids,)):
        seats.setdefault(r["game_id"], {})[r["seat"]] = (r["player_name"], r["might"])
    out = {}
    for r in rows:
        by_seat = [seats.get(r["id"], {})[s] for s in sorted(seats.get(r["id"], {}))]
        out[r["id"]] = Upload(**{**r, "raw_log": bytes(r["raw_log"])}, names=[n for n, _ in by_seat],
                              might=[m for _, m in by_seat])
    return out


# --- standings and players (services.games.standings decides; these read its rows) ----------------

_MATCH_HEADS = """
    SELECT m.id, m.event_id, e.name, m.round, m.table_label, m.players, d.id, d.status, d.counts_game_id, e.game
    FROM event_matches m JOIN events e ON e.id = m.event_id LEFT JOIN disputes d ON d.match_id = m.id
"""


def event_standings(conn: Connection, event_id: int) -> standings.Standings:
    """The event's standings by its match points (its own, else its game's: services.games.points)."""
    return standings.standings(event_matches(conn, event_id), event_points(conn, event_id))


def event_matches(conn: Connection, event_id: int) -> list[standings.Match]:
    """Every match of the event with all its uploads (whatever their visibility: which game counts
    depends on them all), each upload's verdict and its record's seats: three statements."""
    heads = conn.execute(_MATCH_HEADS + "WHERE m.event_id = %s", (event_id,)).fetchall()
    return _matches(conn, heads, "g.event_id = %(key)s AND g.match_id IS NOT NULL", event_id)


def player_matches(conn: Connection, player: str, game: str | None = None) -> list[standings.Match]:
    """The matches of public events in which ``player`` (a name as logs write it, exactly) played and
    of which some upload is public (a match known only from unlisted games is not listed), with all
    their uploads; each says whether anyone may see it (``visible``). Found through the players of
    event_matches (its GIN index, migration 0014). ``game``: only those of events of that game."""
    heads = conn.execute(_MATCH_HEADS + """WHERE m.players @> %(player)s::text[] AND e.visibility = 'public'
                                           AND (%(game)s::text IS NULL OR e.game = %(game)s)
                                           AND EXISTS (SELECT 1 FROM games g WHERE g.match_id = m.id
                                                       AND g.visibility = 'public')""",
                         {"player": [player], "game": game}).fetchall()
    return _matches(conn, heads, "g.match_id = ANY(%(key)s)", [h[0] for h in heads])


@contextmanager
def _collector_paused():
    """Python's cycle collector paused while a large read builds its rows (none of which form
    cycles): with it running, each of its passes walks every row built so far, and reading an
    event of 100,000 games takes twice as long (docs/performance.md, "Standings and the games list")."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _matches(conn: Connection, heads: list[tuple], games_where: str, key) -> list[standings.Match]:
    """The matches of ``heads`` (rows of _MATCH_HEADS) with their games (``games_where``) and seats.
    Plain tuple rows and NamedTuples: an event of 100,000 games is some 400,000 rows."""
    if not heads:
        return []
    with _collector_paused():
        return _build_matches(conn, heads, games_where, key)


def _build_matches(conn: Connection, heads: list[tuple], games_where: str, key) -> list[standings.Match]:
    # An event's matches are of its game: a game of another (none is stored so: services.games.store
    # refuses it) is read by none of them, and a match of such games alone is not one of the event's.
    # every game's seats (game_seats: each seat's faction, won, rank and score)
    seats: dict[int, list[standings.Seat]] = {}
    for game_id, name, faction, won, rank, score in conn.execute(
            f"""SELECT s.game_id, s.player_name, s.faction, s.won, s.rank, s.score FROM game_seats s
                JOIN games g ON g.id = s.game_id JOIN events e ON e.id = g.event_id
                WHERE {games_where} AND g.game = e.game""", {"key": key}):  # any order: by name
        seats.setdefault(game_id, []).append(standings.Seat(name, faction, won, rank, score))
    games: dict[int, list[standings.MatchGame]] = {}
    first_day: dict[int, dt.date] = {}
    of_another_game: set[int] = set()  # matches with a game of another game than their event's
    for game_id, match_id, status, claim, verdict, played_on, visible, standing, own in conn.execute(f"""
            SELECT g.id, g.match_id, g.status, g.claimed_winner, v.status, g.played_on,
                   g.visibility = 'public' AND e.visibility = 'public', g.standing, g.game = e.game
            FROM games g JOIN events e ON e.id = g.event_id LEFT JOIN verdicts v ON v.game_id = g.id
            WHERE {games_where} ORDER BY g.id""", {"key": key}):
        if not own:
            of_another_game.add(match_id)
            continue
        games.setdefault(match_id, []).append(
            standings.MatchGame(game_id, status, verdict, claim, tuple(seats.get(game_id, ())), visible, standing))
        if played_on is not None and (match_id not in first_day or played_on < first_day[match_id]):
            first_day[match_id] = played_on
    return [standings.Match(
        match_id, event_id, event, rnd, table, tuple(players), tuple(games.get(match_id, ())),
        MatchDispute(dispute_id, dispute_status, counts) if dispute_id is not None else None,
        first_day[match_id].isoformat() if match_id in first_day else None, match_points.ranked(game))
        for match_id, event_id, event, rnd, table, players, dispute_id, dispute_status, counts, game in heads
        if match_id in games or match_id not in of_another_game]


def games_outside_matches(conn: Connection, event_id: int) -> int:
    """How many of the event's games (of its game, as its matches: _build_matches) are in no match:
    their logs name no round, table or players."""
    return conn.execute("""SELECT count(*) FROM games WHERE event_id = %(event)s AND match_id IS NULL
                             AND game = (SELECT game FROM events WHERE id = %(event)s)""",
                        {"event": event_id}).fetchone()[0]
