"""``GET /api/v1/export/games.csv`` and ``GET /api/v1/export/games.parquet``: the counted games'
records, one row per game and seat (services.games.export: which games, the columns, the writers;
docs/export.md: the schema).

Query: ``event`` (an event's id) and/or ``from`` and ``to`` (YYYY-MM-DD, the days played, both
inclusive; a range at most ``MAX_RANGE_DAYS`` long). At least one of event and a whole range:
an unbounded dump of everything is not a request anyone means. ``game``: the game whose games are
exported (a key of engine.games; an export is of one game, its columns are that game's): by default
the event's game, else the default game; a game other than the event's is a 400. Each bad or unknown
value is a 400 naming its parameter; an unlisted event the reader may not see is unknown (as in the
games list).

The body is written whole before it is sent (services.platform.spool): the view reads the rows with
a connection of the exports' own small pool (on the read replica when there is one), a batch at a
time, writes the file aside, gives the connection back and only then answers. So a client that stops
reading holds no connection, and an export that finds the exports' pool busy is a JSON 503 with
Retry-After, decided before any 200. Exports are rate-limited in a count of their own
(EMPYREAN_RATE_LIMIT_EXPORTS, services.api.access).
"""

from __future__ import annotations

import datetime as dt
import io

from flask import Blueprint, Response, current_app, request
from psycopg_pool import PoolTimeout

from engine.games import DEFAULT_GAME
from services.games import export, views
from services.games.events import event_owner
from services.games.game_names import game_words
from services.platform.spool import sent, spool

from .access import current_token, may_read_event, reader_of
from .errors import error_response
from .games import DB_TIMEOUT_S, BadParameter, game_parameter

blueprint = Blueprint("export", __name__, url_prefix="/export")

PARAMETERS = ("game", "event", "from", "to")
MAX_RANGE_DAYS = 366
EXPORT_RETRY_S = 5  # Retry-After when every export connection is busy


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
    game = game_parameter()
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
        if game is not None and game != owner.game:
            raise BadParameter("game", f"event {event_id} is of {game_words(owner.game)}, not "
                               f"{game_words(game)}: leave out 'game', or give game={owner.game}")
        game = owner.game
    start, end = _day("from"), _day("to")
    if start is not None and end is not None and end < start:
        raise BadParameter("to", f"'to' ({end}) is before 'from' ({start})")
    if event_id is None and (start is None or end is None):
        raise BadParameter("from" if start is None else "to", "give an event (event=<id>) or a range of days "
                           "(from=YYYY-MM-DD&to=YYYY-MM-DD), or both")
    if start is not None and end is not None and (end - start).days + 1 > MAX_RANGE_DAYS:
        raise BadParameter("to", f"a range of at most {MAX_RANGE_DAYS} days is exported at once; "
                           f"{start} to {end} is {(end - start).days + 1} days — export it in parts")
    return export.ExportFilter(event=event_id, start=start, end=end, game=game or DEFAULT_GAME)


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
    try:
        with current_app.extensions["empyrean"].export_pool.connection(timeout=DB_TIMEOUT_S) as conn:
            held = spool(export.chunks(fmt, export.row_batches(conn, selection, reader)))
    except PoolTimeout:
        return error_response(503, "Service Unavailable", "other exports are being written right now (each "
                              "server writes a few at a time); try again in a few seconds",
                              headers=[("Retry-After", str(EXPORT_RETRY_S))])
    size = held.seek(0, io.SEEK_END)
    held.seek(0)
    headers = {"Content-Disposition": f'attachment; filename="{_filename(selection, fmt)}"',
               "Content-Length": str(size),
               "Cache-Control": "no-store"}  # new games are counted at any time
    return Response(sent(held), content_type=export.MEDIA_TYPES[fmt], headers=headers)
