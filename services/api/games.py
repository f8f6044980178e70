"""Single games: upload one log, see where it is in the pipeline, its verdict and record, its log.

- ``POST /api/v1/games`` — body: one game log (``Content-Type: application/json``). Stored exactly
  as received, then a replay task is sent (after the commit). New: 202. The same content again: 200
  with ``duplicate: true`` and the existing game's id — nothing new was accepted, so not 202.
- ``GET /api/v1/games/{id}`` — status with its message, verdict, record, and the replay viewer's URL;
  who uploaded it (``uploaded_by``: the API token's owner, name and role, as the service knows it,
  and ``uploader``: that owner alone; ``uploader_label``: the ``X-Uploader`` header, the uploader's own
  words, unchecked); whether the statistics count it, and why not (one match counts once).
  ``event`` is the name of the event the game is filed under; a game whose log names an event that
  did not exist when it was uploaded has ``"event": null`` and that name in ``event_named_in_log``
  (uploads never create events: services.games.events).
- ``GET /api/v1/games/{id}/log`` — the stored bytes, unchanged.
- ``GET /api/v1/games?game=&event=&deck=&player=&status=&before=&limit=`` — the games the reader may see,
  newest first, a page at a time (keyset by id: ``next`` is the URL of the next page;
  services.games.listing says why). An unknown value of a filter is a 400 naming the parameter (an
  unknown deck lists the decks there are). ``GET /api/v1/events/{id}/games`` is the same list for
  one event (services.api.events).

A new log of a match whose dispute is resolved is refused (409), nothing stored: the organiser's
ruling is not joined by later uploads (services.games.disputes). So is a log of one game filed under
an event of another (409 naming both games, ``pointer`` /game): an event is of one game.

Every game says its ``game`` (the key of engine.games: its log's); the list filters by it
(``?game=``, a known key; else a 400 naming the games there are).

Who may open a dispute (services.games.disputes, "Standing uploads"): the upload of a match answers
``standing`` — its token is an admin's, the event organiser's, or bound to the event — and, when it
is not, ``standing_note`` says in words what follows: while the match has a standing upload, this
one is stored and verified but neither counts nor opens a dispute. ``GET /api/v1/games/{id}`` says
the same in ``statistics`` (``standing``, and ``why`` it is not counted).

An unlisted game, or a game of an unlisted event, is read by id only with a token that may see it
(services.api.access.may_read_game); anyone else gets 404.

Requests rejected before storage (wrong content type, too large, not a JSON object) store nothing;
a JSON object that is not a valid log is stored, as ``malformed`` with the engine's JSON pointers.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from engine import games
from engine.log import longest_name
from services.games import listing, views
from services.games.disputes import UPLOAD_NOT_STANDING
from services.games.events import VISIBILITIES, WrongGame, event_name, event_owner
from services.games.status import GameStatus
from services.games.store import NotAnObject, parse_upload, store_upload

from .access import current_token, forbidden, may_read_event, may_read_game, reader_of, require
from .bodies import read_log_body
from .errors import error_response

blueprint = Blueprint("games", __name__)

DB_TIMEOUT_S = 5.0  # an upload answers 503 rather than hang when PostgreSQL is away
MAX_UPLOADER_CHARS = 200


def visibility_param():
    """``?visibility=public|unlisted`` of an upload: (value, None) or (None, a 400 answer)."""
    value = request.args.get("visibility", "public")
    if value not in VISIBILITIES:
        return None, error_response(400, "Bad Request", f"query parameter 'visibility': expected public or "
                                    f"unlisted, got {value!r}", parameter="visibility")
    return value, None


def uploader_header():
    """The ``X-Uploader`` header of an upload (who recorded it, in words; optional): (value or None,
    None) or (None, a 400 answer)."""
    uploader = (request.headers.get("X-Uploader") or "").strip() or None
    if uploader is not None and len(uploader) > MAX_UPLOADER_CHARS:
        return None, error_response(400, "Bad Request", f"the X-Uploader header is longer than "
                                    f"{MAX_UPLOADER_CHARS} characters", header="X-Uploader")
    return uploader, None


def refused_upload(dispute_id: int):
    """409: the log's match is settled (its dispute resolved); nothing was stored."""
    return error_response(409, "Conflict", refusal_message(dispute_id), dispute=dispute_id,
                          dispute_url=f"/api/v1/disputes/{dispute_id}")


def wrong_game_upload(wrong: WrongGame):
    """409: the log is a game other than its event's; nothing was stored."""
    return error_response(409, "Conflict", wrong.message, pointer="/game", game=wrong.game, event=wrong.event_id,
                          event_game=wrong.event_game)


def refusal_message(dispute_id: int) -> str:
    return (f"this log's match (same event, round, table and players) was settled by its organiser: dispute "
            f"{dispute_id} is resolved, so no further log of it is taken and nothing was stored; if the ruling "
            "is wrong, ask the event's organiser")


def _resources():
    return current_app.extensions["empyrean"]


@blueprint.post("/games")
@require("uploader", "organiser")
def upload_game():
    config = _resources().config
    visibility, err = visibility_param()
    if err:
        return err
    raw, err = read_log_body(config.max_upload_bytes)
    if err:
        return err
    uploader, err = uploader_header()
    if err:
        return err
    try:
        parsed = parse_upload(raw)
    except NotAnObject as exc:
        return error_response(400, "Bad Request", str(exc), pointer="")

    resources = _resources()
    token = current_token()
    with resources.db_pool.connection(timeout=DB_TIMEOUT_S) as conn, conn.transaction():
        bound = None
        if token.event_id is not None:  # an uploader token bound to one event uploads into it only
            bound = token.event_id
            name = event_name(conn, bound)
            claimed = parsed.log.meta.get("event") if parsed.log is not None else None
            if claimed is not None and claimed != name:
                return forbidden(f"this token may only upload games of event {bound} ({name!r}); "
                                 f"the log's meta.event is {claimed!r}")
        stored = store_upload(conn, parsed, uploader, event_id=bound, visibility=visibility, uploaded_by=token)
    if stored.refused_by_dispute is not None:
        return refused_upload(stored.refused_by_dispute)
    if stored.wrong_game is not None:
        return wrong_game_upload(stored.wrong_game)
    # Committed: only now may a worker hear of it (services.games.dispatch).
    status = stored.status
    if not stored.duplicate and status == GameStatus.QUEUED:
        resources.sender.submit(stored.id)  # sent within ReplaySender.LINGER_S, with its neighbours
    status_url = url_for("api_v1.games.get_game", game_id=stored.id)
    body = {"id": stored.id, "status": status, "duplicate": stored.duplicate, "game": stored.game,
            "status_url": status_url,
            "log_url": url_for("api_v1.games.get_log", game_id=stored.id),
            "content_hash": parsed.content_hash}
    if parsed.log is None:
        body["errors"] = parsed.errors
    if stored.match_id is not None:  # the upload of a match: may it open a dispute (services.games.disputes)
        body["standing"] = stored.standing
        if not stored.standing:
            body["standing_note"] = UPLOAD_NOT_STANDING
    response = jsonify(body)
    response.status_code = 200 if stored.duplicate else 202
    response.headers["Location"] = status_url
    return response


@blueprint.get("/games/<int:game_id>")
def get_game(game_id: int):
    if game_id > views.MAX_ID:
        return _no_game(game_id)
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        game = views.game_view(conn, game_id, record=True)
    if game is None or not may_read_game(current_token(), game):
        return _no_game(game_id)
    body = {
        "id": game.id, "game": game.game, "title": game.title, "status": str(game.status),
        "message": game.status_message,
        "log_url": url_for("api_v1.games.get_log", game_id=game_id),
        "replay_url": url_for("replay.replay_page", game_id=game_id),
        "uploaded_by": game.uploaded_by, "uploader": views.uploader_owner(game.uploaded_by),
        "uploader_label": game.uploader,
        "statistics": {"counted": game.counted, "why": game.counted_why,
                       "standing": game.standing if game.match_id is not None else None},
        **{k: getattr(game, k) for k in ("content_hash", "event_id", "event")},
        "event_named_in_log": game.named_event, "visibility": game.visibility,
        **{k: getattr(game, k) for k in ("match_id", "dispute_id", "catalog_version", "engine_version", "played_on",
                                         "attempts", "received_at", "queued_at", "replay_started_at", "finished_at")},
        "verdict": game.verdict, "record": game.record,
    }
    return jsonify(_jsonable(body))


@blueprint.get("/games/<int:game_id>/log")
def get_log(game_id: int):
    if game_id > views.MAX_ID:
        return _no_game(game_id)
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        game = views.game_view(conn, game_id, log=True)
    if game is None or not may_read_game(current_token(), game):
        return _no_game(game_id)
    return Response(game.raw_log, mimetype="application/json")


def _no_game(game_id: int):
    return error_response(404, "Not Found", f"there is no game {game_id} (an unlisted game is shown only with a "
                          "token that may see it: its uploader's, its event's organiser's, an admin's)")


def _jsonable(value):
    """Dates and times as ISO 8601 text (Flask's default would write them as HTTP dates)."""
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


# --- the games list ----------------------------------------------------------------------------------

LIST_PARAMETERS = ("game", "event", "deck", "player", "status", "before", "limit")
# a deck's or player's name in a filter: no longer than a log can write one
MAX_FILTER_NAME_CHARS = max(longest_name("deck"), longest_name("player"))


class BadParameter(ValueError):
    def __init__(self, parameter: str, message: str):
        super().__init__(message)
        self.parameter, self.message = parameter, message


def _single(name: str) -> str | None:
    values = request.args.getlist(name)
    if len(values) > 1:
        raise BadParameter(name, f"'{name}' is given {len(values)} times; give it once")
    return values[0].strip() if values else None


def game_parameter() -> str | None:
    """``?game=``: a known game's key (engine.games), or None when not given; else a BadParameter
    naming the games there are. The games list, the events list and the export filter by it."""
    value = _single("game")
    if value is not None and not games.is_known(value):
        raise BadParameter("game", f"'game' must be a game's key: {games.unknown_game_words(value)}")
    return value


def _whole(name: str, low: int, high: int) -> int | None:
    value = _single(name)
    if value is None:
        return None
    if not (value.isascii() and value.isdigit()) or not low <= int(value) <= high:
        raise BadParameter(name, f"'{name}' must be a whole number from {low} to {high}; got {value!r}")
    return int(value)


def _name(name: str) -> str | None:
    value = _single(name)
    if value is not None and (not 1 <= len(value) <= MAX_FILTER_NAME_CHARS or "\x00" in value):
        raise BadParameter(name, f"'{name}' must be a name of 1 to {MAX_FILTER_NAME_CHARS} characters; got {value!r}")
    return value


def _list_filters(conn, reader: listing.Reader, event_id: int | None, allowed: tuple[str, ...]):
    """The list's filters and paging from the query string, each value checked against what there
    is (an unknown event, deck, player or status is a BadParameter naming it)."""
    unknown = sorted(set(request.args) - set(allowed))
    if unknown:
        raise BadParameter(unknown[0], f"unknown parameter {unknown[0]!r}; the games list takes "
                           + ", ".join(allowed))
    if event_id is None:
        event_id = _whole("event", 1, views.MAX_ID)
        if event_id is not None and not _event_readable(conn, event_id):
            raise BadParameter("event", f"there is no event {event_id} (an unlisted event is shown only with a "
                               "token that may see it); GET /api/v1/events lists them")
    game = game_parameter()
    status = _single("status")
    if status is not None and status not in listing.STATUSES:
        raise BadParameter("status", f"'status' must be one of {', '.join(listing.STATUSES)}; got {status!r}")
    deck = _name("deck")
    if deck is not None and not listing.deck_known(conn, deck):
        raise BadParameter("deck", f"unknown deck {deck!r}: no game was played with it; the decks are "
                           + ", ".join(listing.known_decks(conn)))
    player = _name("player")
    if player is not None and not listing.player_known(conn, player, reader):
        raise BadParameter("player", f"no game you may see was played by {player!r} (a name exactly as the "
                           "logs write it, in meta.players)")
    filters = listing.GameFilters(game=game, event=event_id, deck=deck, player=player, status=status)
    before = _whole("before", 1, views.MAX_ID)
    limit = _whole("limit", 1, listing.MAX_LIMIT) or listing.DEFAULT_LIMIT
    return filters, before, limit


def _event_readable(conn, event_id: int) -> bool:
    owner = event_owner(conn, event_id)
    return owner is not None and may_read_event(current_token(), event_id, owner.visibility, owner.organiser)


def games_page(event_id: int | None = None):
    """A page of the games list as JSON (``event_id``: one event's, GET /events/{id}/games, which has
    checked that the reader may see it)."""
    reader = reader_of(current_token())
    allowed = LIST_PARAMETERS if event_id is None else tuple(p for p in LIST_PARAMETERS if p != "event")
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        try:
            filters, before, limit = _list_filters(conn, reader, event_id, allowed)
        except BadParameter as exc:
            return error_response(400, "Bad Request", exc.message, parameter=exc.parameter)
        games, more = listing.list_games(conn, filters, reader, before=before, limit=limit)
    for game in games:
        game |= {"url": url_for("api_v1.games.get_game", game_id=game["id"]),
                 "log_url": url_for("api_v1.games.get_log", game_id=game["id"]),
                 "replay_url": url_for("replay.replay_page", game_id=game["id"])}
    applied = {"game": filters.game, "event": filters.event, "deck": filters.deck, "player": filters.player,
               "status": filters.status, "before": before, "limit": limit}
    next_url = None
    if more:
        query = {k: v for k, v in applied.items() if v is not None and not (k == "event" and event_id is not None)}
        query["before"] = games[-1]["id"]
        next_url = (url_for("api_v1.events.list_event_games", event_id=event_id, **query) if event_id is not None
                    else url_for("api_v1.games.list_games", **query))
    return jsonify({"filters": applied, "games": games, "next": next_url})


@blueprint.get("/games")
def list_games():
    return games_page()
