"""``GET /api/v1/export/games.csv`` and ``GET /api/v1/export/games.parquet``: the counted games'
records, one row per game and seat (services.games.export: which games, the columns, the writers;
docs/export.md: the schema).

Query: ``event`` (an event's id) and/or ``from`` and ``to`` (YYYY-MM-DD, the days played, both
inclusive; a range at most ``MAX_RANGE_DAYS`` long). At least one of event and a whole range:
an unbounded dump of everything is not a request anyone means. Each bad or unknown value is a 400
naming its parameter; an unlisted event the reader may not see is unknown (as in the games list).

The body is streamed: the view checks the request, then answers with a generator that holds a
read connection (a read replica when configured) for the length of the download and sends one
batch of rows at a time. Exports are rate-limited in a count of their own
(EMPYREAN_RATE_LIMIT_EXPORTS, services.api.access).
"""

from __future__ import annotations

import datetime as dt

from flask import Blueprint, Response, current_app, request, stream_with_context

from services.games import export, views
from services.games.events import event_owner

from .access import current_token, may_read_event, reader_of
from .errors import error_response
from .games import DB_TIMEOUT_S, BadParameter

blueprint = Blueprint("export", __name__, url_prefix="/export")

PARAMETERS = ("event", "from", "to")
MAX_RANGE_DAYS = 366


def _single(name: str) -> str | None:
    values = request.args.getlist(name)
    if len(values) > 1:
        raise BadParameter(name, f"'{name}' is given {len(values)} times; give it once")
    return values[0].strip() if values else None


def _day(name: str) -> dt.date | None:
    value = _single(name)
    if value is None:
        return None
    try:
        if len(value) == 10:  # fromisoformat alone also takes 20261003 and 2026-W40-6
            return dt.date.fromisoformat(value)
    except ValueError:
        pass
    raise BadParameter(name, f"'{name}' must be a day written YYYY-MM-DD; got {value!r}")


def _selection(conn) -> export.ExportFilter:
    unknown = sorted(set(request.args) - set(PARAMETERS))
    if unknown:
        raise BadParameter(unknown[0], f"unknown parameter {unknown[0]!r}; the export takes "
                           + ", ".join(PARAMETERS))
    event = _single("event")
    event_id = None
    if event is not None:
        if not (event.isascii() and event.isdigit()) or not 1 <= int(event) <= views.MAX_ID:
            raise BadParameter("event", f"'event' must be an event's id, a whole number; got {event!r}")
        event_id = int(event)
        owner = event_owner(conn, event_id)
        if owner is None or not may_read_event(current_token(), event_id, owner.visibility, owner.organiser):
            raise BadParameter("event", f"there is no event {event_id} (an unlisted event is shown only with a "
                               "token that may see it); GET /api/v1/events lists them")
    start, end = _day("from"), _day("to")
    if start is not None and end is not None and end < start:
        raise BadParameter("to", f"'to' ({end}) is before 'from' ({start})")
    if event_id is None and (start is None or end is None):
        raise BadParameter("from" if start is None else "to", "give an event (event=<id>) or a range of days "
                           "(from=YYYY-MM-DD&to=YYYY-MM-DD), or both")
    if start is not None and end is not None and (end - start).days + 1 > MAX_RANGE_DAYS:
        raise BadParameter("to", f"a range of at most {MAX_RANGE_DAYS} days is exported at once; "
                           f"{start} to {end} is {(end - start).days + 1} days — export it in parts")
    return export.ExportFilter(event=event_id, start=start, end=end)


def _filename(selection: export.ExportFilter, fmt: str) -> str:
    """Made of numbers only (an event's name may hold anything, and it would go in a header)."""
    parts = ["empyrean-games"]
    if selection.event is not None:
        parts.append(f"event-{selection.event}")
    if selection.start is not None:
        parts.append(f"{selection.start}")
    if selection.end is not None:
        parts.append(f"to-{selection.end}")
    return "-".join(parts) + f".{fmt}"


@blueprint.get("/games.csv", defaults={"fmt": "csv"})
@blueprint.get("/games.parquet", defaults={"fmt": "parquet"})
def export_games(fmt: str):
    pool = current_app.extensions["empyrean"].read_pool  # a read replica when there is one
    with pool.connection(timeout=DB_TIMEOUT_S) as conn:
        try:
            selection = _selection(conn)
        except BadParameter as exc:
            return error_response(400, "Bad Request", exc.message, parameter=exc.parameter)
    reader = reader_of(current_token())

    def body():
        # A connection of its own for the download, given back when the generator ends or the client
        # goes away (the generator is closed: the cursor's transaction rolls back).
        with pool.connection(timeout=DB_TIMEOUT_S) as conn:
            yield from export.chunks(fmt, export.row_batches(conn, selection, reader))

    headers = {"Content-Disposition": f'attachment; filename="{_filename(selection, fmt)}"',
               "Cache-Control": "no-store"}  # new games are counted at any time
    return Response(stream_with_context(body()), content_type=export.MEDIA_TYPES[fmt], headers=headers)
