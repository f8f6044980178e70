"""Events (tournaments): creating them, who owns them, what they and their games show the public.

An event is owned by the organiser that created it (``events.organiser``; none for an event a
game's ``meta.event`` made, until an organiser names it: ``create_event`` then claims it). Events
and games are ``public`` or ``unlisted``: an unlisted one is left out of lists but found by its id
(docs/security.md, "Visibility"). Who may manage an event is the API's to decide
(services.api.access.may_manage_event), from the owner read here. What events look like to readers
(their game counts, disputes, flagged games): services.games.views.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from psycopg import Connection

from .store import find_or_create_event

VISIBILITIES = ("public", "unlisted")
EVENT_FIELDS = ("name", "starts_on", "ends_on", "visibility")  # what an organiser may set


@dataclass(frozen=True)
class Owner:
    organiser: str | None  # None: nobody owns the event (only an admin manages it)


class DatesOutOfOrder(ValueError):
    """ends_on is before starts_on."""


class NameTaken(ValueError):
    """Another event already has the name."""


def event_owner(conn: Connection, event_id: int) -> Owner | None:
    """Who owns the event; None when there is no such event."""
    row = conn.execute("SELECT organiser FROM events WHERE id = %s", (event_id,)).fetchone()
    return None if row is None else Owner(row[0])


def event_name(conn: Connection, event_id: int) -> str | None:
    row = conn.execute("SELECT name FROM events WHERE id = %s", (event_id,)).fetchone()
    return None if row is None else row[0]


def create_event(conn: Connection, name: str, starts_on: dt.date | None, ends_on: dt.date | None,
                 visibility: str, owner: str | None) -> tuple[int, bool, Owner]:
    """Create the event, owned by ``owner``, in the caller's transaction: (id, True, its owner). When
    an event of that name exists: (its id, False, its owner), which ``owner`` becomes first if the
    event had none (an event made by a game's meta.event is claimed by the organiser that names it
    first); the row stays locked until the transaction ends."""
    created = conn.execute(
        """INSERT INTO events (name, starts_on, ends_on, visibility, organiser) VALUES (%s, %s, %s, %s, %s)
           ON CONFLICT ON CONSTRAINT events_name_key DO NOTHING RETURNING id""",
        (name, starts_on, ends_on, visibility, owner)).fetchone() is not None
    event_id = find_or_create_event(conn, name)
    if created:
        return event_id, True, Owner(owner)
    organiser = conn.execute("SELECT organiser FROM events WHERE id = %s FOR UPDATE", (event_id,)).fetchone()[0]
    if organiser is None and owner is not None:
        conn.execute("UPDATE events SET organiser = %s WHERE id = %s", (owner, event_id))
        organiser = owner
    return event_id, False, Owner(organiser)


def edit_event(conn: Connection, event_id: int, fields: dict) -> None:
    """Set the event's ``fields`` (of EVENT_FIELDS) in the caller's transaction, the row locked.
    Raises DatesOutOfOrder or NameTaken, having changed nothing."""
    unknown = set(fields) - set(EVENT_FIELDS)
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
        conn.execute(f"UPDATE events SET {sets} WHERE id = %(id)s", {**fields, "id": event_id})
