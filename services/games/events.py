"""Events (tournaments): creating them, who owns them, what they and their games show the public.

An event is of one game (``events.game``, migration 0018: a key of engine.games, given when it is
made and never changed): an upload of a log of another game into it is refused, nothing stored
(services.games.store; ``WrongGame`` says why in words).

Only ``create_event`` makes an event (``POST /api/v1/events``, an organiser or an admin), and always
with an owner (``events.organiser``: the token's owner; an admin's token's owner for an admin's
event). A name never moves ownership: naming an existing event answers it to its owner and is a
conflict for anyone else. An upload never creates an event (services.games.store.find_events looks
them up). Events left without an owner by earlier versions (migration 0012) are managed by an admin
only, who may give one an owner (``set_owner``). Events and games are ``public`` or ``unlisted``
(docs/security.md, "Visibility"). Who may manage or read an event is the API's to decide
(services.api.access), from the owner read here. What events look like to readers (their game
counts, disputes, flagged games): services.games.views.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from psycopg import Connection, errors
from psycopg.types.json import Jsonb

from engine import games
from services.games import points as match_points
from services.games.game_names import game_words

VISIBILITIES = ("public", "unlisted")
# what an organiser may set (points: the standings' match points, services.games.points; null: the game's)
EVENT_FIELDS = ("name", "starts_on", "ends_on", "visibility", "points")
CREATE_FIELDS = ("game",)  # what is set when the event is made, never changed
ADMIN_FIELDS = ("organiser",)  # what only an admin may set: the owner


@dataclass(frozen=True)
class Owner:
    organiser: str | None  # None: nobody owns the event (only an admin manages it)
    visibility: str = "public"
    game: str = games.DEFAULT_GAME  # the key of the game the event is of


@dataclass(frozen=True)
class WrongGame:
    """An upload refused because its log is a game other than its event's."""

    game: str  # the log's
    event_id: int
    event_name: str
    event_game: str

    @property
    def message(self) -> str:
        return (f"this log is a game of {game_words(self.game)} but event {self.event_name!r} is for "
                f"{game_words(self.event_game)}; nothing was stored: upload it into an event of "
                f"{games.info(self.game).name}, or without an event")


class DatesOutOfOrder(ValueError):
    """ends_on is before starts_on."""


class NameTaken(ValueError):
    """Another event already has the name."""


def _stored(points: match_points.Points | None) -> Jsonb | None:
    """``events.points`` of these points (None: the game's default)."""
    return None if points is None else Jsonb(points.to_dict())


def event_points(conn: Connection, event_id: int) -> match_points.Points | None:
    """The match points of the event's standings (its own, else its game's default; None: no such
    event, or a game this process does not know)."""
    row = conn.execute("SELECT game, points FROM events WHERE id = %s", (event_id,)).fetchone()
    return None if row is None else match_points.of_event(*row)


def event_owner(conn: Connection, event_id: int) -> Owner | None:
    """Who owns the event (and its visibility and game); None when there is no such event."""
    row = conn.execute("SELECT organiser, visibility, game FROM events WHERE id = %s", (event_id,)).fetchone()
    return None if row is None else Owner(*row)


def event_games(conn: Connection, event_ids: set[int]) -> dict[int, tuple[str, str]]:
    """{event id: (its game, its name)} of these events."""
    if not event_ids:
        return {}
    return {event_id: (game, name) for event_id, game, name in conn.execute(
        "SELECT id, game, name FROM events WHERE id = ANY(%s)", (sorted(event_ids),))}


def event_game_named(conn: Connection, name: str) -> str | None:
    """The game of the event called ``name``; None when there is none."""
    row = conn.execute("SELECT game FROM events WHERE name = %s", (name,)).fetchone()
    return None if row is None else row[0]


def event_name(conn: Connection, event_id: int) -> str | None:
    row = conn.execute("SELECT name FROM events WHERE id = %s", (event_id,)).fetchone()
    return None if row is None else row[0]


def create_event(conn: Connection, name: str, starts_on: dt.date | None, ends_on: dt.date | None,
                 visibility: str, owner: str, game: str = games.DEFAULT_GAME,
                 points: match_points.Points | None = None) -> tuple[int, bool, Owner]:
    """Create the event of ``game``, owned by ``owner``, in the caller's transaction: (id, True, its
    owner); ``points``: its standings' match points (checked: services.games.points.read; None: the
    game's default). When an event of that name exists: (its id, False, its owner and game), unchanged —
    whoever owns it (or nobody) stays its owner, and its game stays; the caller answers a conflict to
    anyone else, and to a request for another game. Concurrent calls with one name make one event (the
    unique name decides)."""
    if not owner:
        raise ValueError("an event always has an owner")
    for _ in range(3):  # the existing event may be renamed between the INSERT and the SELECT
        row = conn.execute(
            """INSERT INTO events (name, starts_on, ends_on, visibility, organiser, game, points)
               VALUES (%s, %s, %s, %s, %s, %s, %s)
               ON CONFLICT ON CONSTRAINT events_name_key DO NOTHING RETURNING id""",
            (name, starts_on, ends_on, visibility, owner, game, _stored(points))).fetchone()
        if row is not None:
            return row[0], True, Owner(owner, visibility, game)
        row = conn.execute("SELECT id, organiser, visibility, game FROM events WHERE name = %s", (name,)).fetchone()
        if row is not None:
            return row[0], False, Owner(*row[1:])
    raise NameTaken(name)  # pragma: no cover - renamed back and forth three times meanwhile


def edit_event(conn: Connection, event_id: int, fields: dict) -> None:
    """Set the event's ``fields`` (of EVENT_FIELDS and ADMIN_FIELDS: the caller checks who may set
    which; ``points`` a checked services.games.points.Points, or None for the game's default) in the
    caller's transaction, the row locked. Raises DatesOutOfOrder or NameTaken, having
    changed nothing — also when a concurrent rename took the name first (the unique constraint)."""
    unknown = set(fields) - set(EVENT_FIELDS) - set(ADMIN_FIELDS)
    if unknown:
        raise ValueError(f"not a field of an event: {sorted(unknown)}")
    starts, ends = conn.execute("SELECT starts_on, ends_on FROM events WHERE id = %s FOR UPDATE",
                                (event_id,)).fetchone()
    starts, ends = fields.get("starts_on", starts), fields.get("ends_on", ends)
    if starts and ends and ends < starts:
        raise DatesOutOfOrder("ends_on is before starts_on")
    if "name" in fields and conn.execute("SELECT 1 FROM events WHERE name = %s AND id <> %s",
                                         (fields["name"], event_id)).fetchone():
        raise NameTaken(fields["name"])
    if fields:
        # column names come from EVENT_FIELDS only (checked above), never from a request
        sets = ", ".join(f"{f} = %({f})s" for f in fields)
        try:
            with conn.transaction():  # a savepoint: the caller's transaction survives the conflict
                values = {**fields, "points": _stored(fields.get("points"))}
                conn.execute(f"UPDATE events SET {sets} WHERE id = %(id)s", {**values, "id": event_id})
        except errors.UniqueViolation as exc:
            # another request renamed its event to this name after the check above
            raise NameTaken(fields["name"]) from exc
