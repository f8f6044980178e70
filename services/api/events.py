"""Events (tournaments) and their bundles of games.

- ``POST /api/v1/events`` (organiser) — ``{"name", "game"?, "starts_on"?, "ends_on"?, "visibility"?,
  "points"?}``: creates the event of that game (a key of engine.games; default the default game,
  Battle for Empyrean), its standings counted with ``points`` (its own match points, checked against
  the schema of the game's kind of outcome: services.games.points; else the game's), owned by the
  token's owner (201; an admin's event too: owned by the admin token's owner), or answers the
  existing event of that name (200) when the token may manage it, so an organiser's script can
  simply say it again (naming another game than the event's is a 409 at /game, and other points
  than the event's a 409 at /points); anyone else's event of that name: 409 (a name never moves
  ownership). The only way an event is made: uploads never create one. An event is of one game for
  good: its games are of it.
- ``GET /api/v1/events`` — every public event with its game counts by status (unlisted ones are
  left out: docs/security.md, "Visibility"); ``?game=`` the events of one game.
- ``GET /api/v1/events/{id}`` — one event: counts by status, open disputes. An unlisted one only
  with a token that may see it (its organiser's, an admin's, an uploader's bound to it); else 404.
- ``GET /api/v1/events/{id}/standings`` — its Swiss standings (services.games.standings: the event's
  match points, then opponents' match-win %, game-win %, opponents' opponents' match-win %) from its
  counted matches, and the matches left out (disputed, pending, not valid) with why.
- ``GET /api/v1/events/{id}/games`` — its games the reader may see, a page at a time (the games list
  of services.api.games, for one event).
- ``PATCH /api/v1/events/{id}`` (its organiser) — change name, dates, visibility, points (null: the
  game's again); an admin may also
  set ``organiser`` (give an event an owner, e.g. one left without by migration 0012).
- ``POST /api/v1/events/{id}/reprocess`` (its organiser) — replay its finished games again.
- ``POST /api/v1/events/{id}/games`` (its organiser, or an uploader token bound to it) — a
  tournament bundle (services.games.bundles: a JSON array, NDJSON or one log, gzip or not;
  thousands of games), read as a stream. Every readable entry is stored as
  received under this event in batches (each batch one transaction), and after each commit its
  games are sent to the workers in chunks on the bulk lane. The answer is a per-game acceptance
  report: accepted (new, with its id), duplicate (the id it already has), malformed (stored, with
  the engine's pointers), rejected (not stored, with the reason: not a JSON object, a new log of a
  match whose dispute is resolved, with that ``dispute``, a log of another game than the event's,
  with its ``game``, or — from an uploader token bound to the event — a log whose ``meta.event``
  names another event). Every stored game records the token that
  uploaded it (games.uploaded_by, its id; uploaded_by_owner/_name/_role); ``X-Uploader`` is kept
  only as a label. Its size is bounded whatever the bundle's (``_Report``): every entry counted,
  rows for at most 1,000 entries, the problems first. At most EMPYREAN_MAX_BUNDLE_GAMES entries
  (413); a bundle that is mostly not game logs is refused (400), nothing stored.
"""

from __future__ import annotations

import datetime as dt

from flask import Blueprint, current_app, jsonify, request, url_for

from engine import games
from engine.log import longest_name
from services.games import points as match_points
from services.games import standings, views
from services.games.bundles import BundleError, BundleLimits, bundle_kind, held_body, read_bundle
from services.games.dispatch import enqueue_bundle, reprocess
from services.games.events import (
    ADMIN_FIELDS,
    CREATE_FIELDS,
    EVENT_FIELDS,
    VISIBILITIES,
    DatesOutOfOrder,
    NameTaken,
    event_game_named,
    event_name,
    event_owner,
    event_points,
)
from services.games.events import create_event as store_event
from services.games.events import edit_event as change_event
from services.games.game_names import game_words
from services.games.store import NotAnObject, Parsed, parse_upload, store_batch
from services.platform.storable import storable
from services.platform.tokens import MAX_TOKEN_TEXT_CHARS, Token

from .access import (
    current_token,
    forbidden,
    may_manage_event,
    may_read_event,
    not_your_event,
    require,
    unauthorized,
)
from .errors import error_response
from .games import (
    DB_TIMEOUT_S,
    BadParameter,
    game_parameter,
    games_page,
    refusal_message,
    uploader_header,
    visibility_param,
)

blueprint = Blueprint("events", __name__)

MAX_EVENT_NAME_CHARS = longest_name("event")  # an event's name is one a log can write in meta.event


TITLES = {400: "Bad Request", 413: "Content Too Large", 415: "Unsupported Media Type"}


def _resources():
    return current_app.extensions["empyrean"]


def _event_body(e: views.EventSummary) -> dict:
    return {
        "id": e.id, "name": e.name, "game": e.game,
        "starts_on": e.starts_on.isoformat() if e.starts_on else None,
        "ends_on": e.ends_on.isoformat() if e.ends_on else None,
        "created_at": e.created_at.isoformat(),
        "visibility": e.visibility, "organiser": e.organiser,
        "games": e.games, "open_disputes": e.open_disputes,
        "points": e.points.to_dict() if e.points is not None else None,
        "url": url_for("api_v1.events.get_event", event_id=e.id),
        "games_url": url_for("api_v1.events.list_event_games", event_id=e.id),
        "standings_url": url_for("api_v1.events.get_standings", event_id=e.id),
    }


def _date(body: dict, field: str):
    value = body.get(field)
    if value is None:
        return None, None
    try:
        return dt.date.fromisoformat(value), None
    except (TypeError, ValueError):
        return None, error_response(400, "Bad Request", f"{field} must be a date like 2026-05-30, got {value!r}",
                                    pointer=f"/{field}")


def _event_fields(body, *, creating: bool):
    """The checked fields of a POST/PATCH body: (fields, None) or (None, a 400 answer)."""
    if not isinstance(body, dict):
        example = '{"name": "Spring Open 2026"}' if creating else '{"visibility": "unlisted"}'
        return None, error_response(400, "Bad Request", f"send a JSON object like {example} "
                                    "with Content-Type: application/json", pointer="")
    settable = EVENT_FIELDS + CREATE_FIELDS if creating else EVENT_FIELDS + ADMIN_FIELDS
    if not creating and "game" in body:
        return None, error_response(400, "Bad Request", "an event's game cannot be changed: its games were "
                                    "checked against it; make a new event for another game", pointer="/game")
    unknown = sorted(set(body) - set(settable))
    if unknown:
        return None, error_response(400, "Bad Request", f"unknown field {unknown[0]!r}; an event has "
                                    + ", ".join(settable), pointer=f"/{unknown[0]}")
    fields = {}
    if creating or "name" in body:
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_EVENT_NAME_CHARS:
            return None, error_response(400, "Bad Request", f"name must be text of 1 to {MAX_EVENT_NAME_CHARS} "
                                        "characters", pointer="/name")
        if storable(name) != name:
            return None, error_response(400, "Bad Request", "name contains the NUL character or an unpaired "
                                        "surrogate (\\ud800-\\udfff), which cannot be stored", pointer="/name")
        fields["name"] = name.strip()
    if "game" in body:
        if not games.is_known(body["game"]):
            return None, error_response(400, "Bad Request", f"game: {games.unknown_game_words(body['game'])}",
                                        pointer="/game", known_games=games.keys())
        fields["game"] = body["game"]
    for field in ("starts_on", "ends_on"):
        if field in body:
            fields[field], err = _date(body, field)
            if err:
                return None, err
    if "visibility" in body:
        if body["visibility"] not in VISIBILITIES:
            return None, error_response(400, "Bad Request", "visibility must be public or unlisted, got "
                                        f"{body['visibility']!r}", pointer="/visibility")
        fields["visibility"] = body["visibility"]
    if "organiser" in body:
        owner = body["organiser"]
        if (not isinstance(owner, str) or not 1 <= len(owner.strip()) <= MAX_TOKEN_TEXT_CHARS
                or storable(owner) != owner):
            return None, error_response(400, "Bad Request", f"organiser must be text of 1 to {MAX_TOKEN_TEXT_CHARS} "
                                        "characters: the owner of an organiser token (empyrean token list)",
                                        pointer="/organiser")
        fields["organiser"] = owner.strip()
    if "points" in body:
        fields["points"] = body["points"]  # checked against the event's game: _points
    return fields, None


def _points(fields: dict, game: str):
    """The request's ``points`` for an event of ``game`` checked (services.games.points.read): (its
    Points, or None for the game's default; None), or (None, the 400 answer naming the field)."""
    raw = fields.get("points")
    if raw is None:
        return None, None
    if not games.is_known(game):
        return None, error_response(400, "Bad Request", f"points cannot be checked for an event of {game!r}, a "
                                    "game this service does not know", pointer="/points")
    points, problems = match_points.read(raw, game)
    if problems:
        first = problems[0]
        return None, error_response(400, "Bad Request", f"{first['path'][1:]}: {first['message']}",
                                    pointer=first["path"], problems=problems,
                                    expected=match_points.default(game).to_dict())
    return points, None


def _request_json():
    return request.get_json(silent=True) if request.mimetype == "application/json" else None


@blueprint.post("/events")
@require("organiser")
def create_event():
    """Creates the event, owned by the token's owner (201); the same name again answers the
    existing event (200) when this token may manage it, and 409 (pointer /name) when it may not:
    another organiser's event, or one nobody owns (left so by migration 0012, an admin's to give).
    A name never moves ownership."""
    fields, err = _event_fields(_request_json(), creating=True)
    if err:
        return err
    starts, ends = fields.get("starts_on"), fields.get("ends_on")
    if starts and ends and ends < starts:
        return error_response(400, "Bad Request", "ends_on is before starts_on", pointer="/ends_on")
    token = current_token()
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn, conn.transaction():
        # points are checked against the game asked for, else that of the event of that name, if any
        game = fields.get("game") or event_game_named(conn, fields["name"]) or games.DEFAULT_GAME
        points, err = _points(fields, game)
        if err:
            return err
        event_id, created, found = store_event(conn, fields["name"], starts, ends, fields.get("visibility", "public"),
                                               token.owner, fields.get("game", games.DEFAULT_GAME), points)
        if not created and not may_manage_event(token, found.organiser):
            if not may_read_event(token, event_id, found.visibility, found.organiser):
                # names are unique, so the name is taken; nothing more is said of an unlisted event
                return error_response(409, "Conflict", f"the name {fields['name']!r} cannot be used for a new "
                                      "event; choose another name", pointer="/name")
            return error_response(409, "Conflict", f"there is already an event called {fields['name']!r}, "
                                  "which this token may not manage; choose another name", pointer="/name")
        # the same name again finds the event whatever its game; naming another game is a mistake
        if not created and "game" in fields and fields["game"] != found.game:
            return error_response(409, "Conflict", f"there is already an event called {fields['name']!r}, for "
                                  f"{game_words(found.game)}, not {game_words(fields['game'])}; an event's game "
                                  "cannot change: choose another name for the new event", pointer="/game",
                                  event=event_id, event_game=found.game)
        if not created and points is not None and points != event_points(conn, event_id):
            return error_response(409, "Conflict", f"there is already an event called {fields['name']!r}, with "
                                  "other points; change its points with PATCH /api/v1/events/{id}, or choose "
                                  "another name for the new event", pointer="/points", event=event_id)
        [summary] = views.event_summaries(conn, event_id)
    response = jsonify(_event_body(summary) | {"created": created})
    response.status_code = 201 if created else 200
    response.headers["Location"] = url_for("api_v1.events.get_event", event_id=event_id)
    return response


def _owned_event(conn, event_id: int):
    """None when the request's token may manage event ``event_id``, else the 404/403 answer."""
    if event_id > views.MAX_ID:
        return _no_event(event_id)
    owner = event_owner(conn, event_id)
    token = current_token()
    # an unlisted event is not there for a token that may not see it (not even a 403 says so)
    if owner is None or not may_read_event(token, event_id, owner.visibility, owner.organiser):
        return _no_event(event_id)
    if not may_manage_event(token, owner.organiser):
        return not_your_event(event_id)
    return None


@blueprint.patch("/events/<int:event_id>")
@require("organiser")
def edit_event(event_id: int):
    """Change an event's name, dates or visibility (only the fields sent)."""
    fields, err = _event_fields(_request_json(), creating=False)
    if err:
        return err
    if "organiser" in fields and not current_token().is_admin:
        return forbidden("only an admin may give an event another owner (the field organiser)")
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn, conn.transaction():
        err = _owned_event(conn, event_id)
        if err:
            return err
        if "points" in fields:
            fields["points"], err = _points(fields, event_owner(conn, event_id).game)
            if err:
                return err
        try:
            change_event(conn, event_id, fields)
        except DatesOutOfOrder:
            return error_response(400, "Bad Request", "ends_on is before starts_on", pointer="/ends_on")
        except NameTaken:
            return error_response(409, "Conflict", f"another event is already called {fields['name']!r}",
                                  pointer="/name")
        [summary] = views.event_summaries(conn, event_id)
    return jsonify(_event_body(summary))


@blueprint.post("/events/<int:event_id>/reprocess")
@require("organiser")
def reprocess_event(event_id: int):
    """Replay every finished game of the event again, on the bulk lane (services.games.dispatch.reprocess)."""
    resources = _resources()
    with resources.db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        err = _owned_event(conn, event_id)
    if err:
        return err
    marked, sent = reprocess(resources.db_pool, resources.celery, event_id=event_id)
    return jsonify({"event": event_id, "marked": marked, "sent_to_workers": sent,
                    "url": url_for("api_v1.events.get_event", event_id=event_id)}), 202


@blueprint.get("/events")
def list_events():
    """The public events, newest first; ``?for=upload`` (with a token): the events that token may
    upload games into — a bound uploader's one event, an organiser's public and own unlisted events,
    every event for an admin (the recorder offers these: docs/recording.md); ``bound_event`` then says
    which event the token is bound to (null when it is not)."""
    purpose = request.args.get("for")
    if purpose not in (None, "upload"):
        return error_response(400, "Bad Request", f"query parameter 'for': expected upload, got {purpose!r}",
                              parameter="for")
    try:
        game = game_parameter()
    except BadParameter as exc:
        return error_response(400, "Bad Request", exc.message, parameter=exc.parameter)
    token = current_token()
    if purpose == "upload" and token is None:
        return unauthorized("?for=upload lists the events a token may upload into: send one "
                            "(Authorization: Bearer <token>)")
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        if purpose is None:
            found = views.event_summaries(conn, game=game)
        elif token.event_id is not None:
            found = views.event_summaries(conn, token.event_id, game=game)
        else:
            found = views.event_summaries(conn, unlisted=True if token.is_admin else
                                          token.owner if token.role == "organiser" else False, game=game)
    body = {"events": [_event_body(e) for e in found]}
    if purpose == "upload":  # a bound token uploads into its event only: the recorder locks its choice to it
        body["bound_event"] = token.event_id
    return jsonify(body)


@blueprint.get("/events/<int:event_id>")
def get_event(event_id: int):
    if event_id > views.MAX_ID:
        return _no_event(event_id)
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        found = views.event_summaries(conn, event_id)
    if not found or not may_read_event(current_token(), event_id, found[0].visibility, found[0].organiser):
        return _no_event(event_id)
    return jsonify(_event_body(found[0]))


def _readable(event_id: int):
    """None when the request may read event ``event_id``, else the 404 answer."""
    if event_id > views.MAX_ID:
        return _no_event(event_id)
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        owner = event_owner(conn, event_id)
    if owner is None or not may_read_event(current_token(), event_id, owner.visibility, owner.organiser):
        return _no_event(event_id)
    return None


@blueprint.get("/events/<int:event_id>/games")
def list_event_games(event_id: int):
    """The event's games the reader may see, newest first, a page at a time (as GET /games?event=)."""
    return _readable(event_id) or games_page(event_id)


@blueprint.get("/events/<int:event_id>/standings")
def get_standings(event_id: int):
    """The event's Swiss standings from its counted matches, and the matches left out of them."""
    err = _readable(event_id)
    if err:
        return err
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        table = views.event_standings(conn, event_id)
        outside = views.games_outside_matches(conn, event_id)
    return jsonify({
        "event": event_id,
        "rules": {"points": table.points.to_dict(), "tie_breakers": list(standings.TIE_BREAKERS),
                  "floor": float(standings.FLOOR)},
        "counted_matches": table.counted,
        "standings": [r.as_dict(table.scored) | {"player_url": url_for("players.player_page", name=r.player)}
                      for r in table.rows],
        "left_out": [s.as_dict() for s in table.left_out],
        "games_outside_matches": outside,
    })


def _no_event(event_id: int):
    return error_response(404, "Not Found", f"there is no event {event_id} (an unlisted event is shown only with "
                          "a token of its organiser or an admin); create one with POST /api/v1/events")


@blueprint.post("/events/<int:event_id>/games")
@require("uploader", "organiser")
def upload_bundle(event_id: int):
    resources = _resources()
    token = current_token()
    # an uploader token uploads only into the event it is bound to (an unbound one: POST /games)
    if token.role == "uploader" and token.event_id != event_id:
        return forbidden(f"this uploader token may not upload bundles into event {event_id}"
                         + (f"; it is bound to event {token.event_id}" if token.event_id else
                            "; it is bound to no event, so it uploads single games (POST /games)"))
    if event_id > views.MAX_ID:
        return _no_event(event_id)
    bound_name = None  # an uploader token bound to the event: lines naming another event are rejected
    with resources.db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        if token.role == "uploader":
            if event_owner(conn, event_id) is None:
                return _no_event(event_id)
            bound_name = event_name(conn, event_id)
        else:
            err = _owned_event(conn, event_id)
            if err:
                return err
    visibility, err = visibility_param()
    if err:
        return err
    uploader, err = uploader_header()
    if err:
        return err
    limits = BundleLimits(max_body_bytes=resources.config.max_bundle_bytes,
                          max_game_bytes=resources.config.max_upload_bytes, max_games=resources.config.max_bundle_games)
    if request.content_length is not None and request.content_length > limits.max_body_bytes:
        return error_response(413, TITLES[413], f"the bundle is larger than {limits.max_body_bytes:,} bytes "
                              "(EMPYREAN_MAX_BUNDLE_BYTES); split it", pointer="")
    report = _Report()
    try:
        bundle_kind(request.content_type, request.headers.get("Content-Encoding"))
        # Read whole before a connection is taken: a client that trickles its body holds a file,
        # never one of the pool's connections (services.platform.spool).
        body = held_body(request.stream, limits)
    except BundleError as exc:
        return _bundle_refused(exc, report)
    # The whole bundle is stored in ONE transaction: a bundle that breaks off part-way (a truncated
    # gzip, an array that stops being JSON, too big without a Content-Length) stores nothing, so the
    # organiser resends it whole and nothing is half there. Workers hear of the games only after
    # the commit (services.games.dispatch).
    with body, resources.db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        try:
            with conn.transaction():
                _store_bundle(conn, body, request.content_type, request.headers.get("Content-Encoding"),
                              limits, uploader, event_id, visibility, report, token=token, bound_name=bound_name)
        except BundleError as exc:
            return _bundle_refused(exc, report)
    sent = len(enqueue_bundle(resources.db_pool, resources.celery, report.new_ids))
    return jsonify(report.body(event_id, sent)), 202 if report.counts["accepted"] else 200


def _bundle_refused(exc: BundleError, report: _Report):
    """A bundle refused whole: the reason, and how many entries were read before it."""
    read = exc.entries_read if exc.entries_read is not None else report.received
    stored = "nothing was stored; fix the bundle and send it again" if read else "nothing was stored"
    return error_response(exc.status, TITLES.get(exc.status, "Bad Request"), f"{exc.message}; {stored}",
                          pointer="", read_before_error=read)


STORE_BATCH = 1000  # games parsed, then stored together (services.games.store.store_batch) ...
STORE_BATCH_BYTES = 4 * 1_048_576  # ... or fewer, once their logs come to this many bytes
REPORT_ROWS = 1000  # per-game rows in a bundle's answer (every entry is counted)
REPORT_ERRORS = 10  # a malformed game's errors in its row (all of them: GET /api/v1/games/{id})
# A bundle is refused (nothing stored) once more than NOT_LOGS entries, and more than half of
# those read, are not game logs: the wrong file, not a tournament with a few broken lines.
NOT_LOGS = 100


class _Report:
    """A bundle's acceptance report, of a bounded size whatever the bundle's: every entry is counted,
    and rows are kept for at most REPORT_ROWS entries — the problems (rejected, malformed) first,
    since those are what the organiser acts on, then accepted and duplicate entries while room
    remains — and answered in bundle order."""

    def __init__(self) -> None:
        self.counts = {"accepted": 0, "duplicates": 0, "malformed": 0, "rejected": 0}
        self.received = 0
        self.problems: list[dict] = []
        self.others: list[dict] = []
        self.problems_seen = 0
        self.new_ids: list[int] = []  # the games to send to the workers (an int each)
        self.not_logs = 0
        self.first_not_log = ""

    def add(self, kind: str, row: dict) -> None:
        self.received += 1
        self.counts[kind] += 1
        if kind in ("rejected", "malformed"):
            self.problems_seen += 1
            if len(self.problems) < REPORT_ROWS:
                self.problems.append(row)
        elif len(self.others) < REPORT_ROWS:
            self.others.append(row)

    def not_a_log(self, index: int, why: str) -> None:
        """Entry ``index`` (0-based) is no game log; raises BundleError when most of the bundle so far is not."""
        self.not_logs += 1
        if not self.first_not_log:
            self.first_not_log = f"entry {index}: {why[:200]}"
        if self.not_logs > NOT_LOGS and 2 * self.not_logs > index + 1:
            raise BundleError(f"this is not a bundle of game logs: {self.not_logs:,} of its first {index + 1:,} "
                              'entries are not game logs (a game log is a JSON object with "format": '
                              f'"empyrean-log"; {self.first_not_log})')

    def body(self, event_id: int, sent: int) -> dict:
        rows = sorted(self.problems + self.others[:REPORT_ROWS - len(self.problems)], key=lambda r: r["index"])
        omitted, problems_omitted = self.received - len(rows), self.problems_seen - len(self.problems)
        body = {"event": event_id, "received": self.received, **self.counts, "sent_to_workers": sent,
                "games": rows, "games_omitted": omitted, "problems_omitted": problems_omitted}
        if omitted:
            body["more"] = (
                f"{omitted:,} of the {self.received:,} entries have no row here: at most {REPORT_ROWS:,} are "
                "listed, the rejected and malformed ones first; every entry is counted above. The event's "
                f"games by status: {url_for('api_v1.events.get_event', event_id=event_id)}; its games that "
                f"are not valid, with their replays: the event's dashboard page, /events/{event_id}."
                + (f" {problems_omitted:,} more rejected or malformed entries are not listed: fix the listed "
                   "ones and send the bundle again (the games already stored come back as duplicates)."
                   if problems_omitted else ""))
        return body


def _errors_row(errors: list[dict], game_id: int) -> list[dict]:
    if len(errors) <= REPORT_ERRORS:
        return errors
    return errors[:REPORT_ERRORS] + [{"path": "", "message": f"... and {len(errors) - REPORT_ERRORS} more: "
                                      f"{url_for('api_v1.games.get_game', game_id=game_id)}"}]


def _store_bundle(conn, stream, content_type, content_encoding, limits: BundleLimits, uploader, event_id: int,
                  visibility: str, report: _Report, *, token: Token, bound_name: str | None) -> None:
    """Read the bundle's entries and store them in ``conn``'s transaction, a batch at a time,
    filling the report; raises BundleError when the bundle cannot be read to its end, or is
    mostly not game logs. ``bound_name``: the event's name when an uploader token bound to it sends
    the bundle; a log whose meta.event names another event is then rejected (as POST /games answers
    it 403)."""
    batch: list[tuple[int, Parsed]] = []
    batch_bytes = 0

    def flush() -> None:
        stored_all = store_batch(conn, [parsed for _, parsed in batch], uploader, event_id=event_id,
                                 visibility=visibility, uploaded_by=token)
        for (index, parsed), stored in zip(batch, stored_all):
            if stored.refused_by_dispute is not None:
                report.add("rejected", {"index": index, "status": "rejected", "dispute": stored.refused_by_dispute,
                                        "error": refusal_message(stored.refused_by_dispute)})
                continue
            if stored.wrong_game is not None:  # a log of another game than the event's
                report.add("rejected", {"index": index, "status": "rejected", "game": stored.wrong_game.game,
                                        "error": stored.wrong_game.message})
                continue
            row = {"index": index, "id": stored.id, "status": stored.status}
            if stored.duplicate:
                row["duplicate"] = True
                report.add("duplicates", row)
            elif parsed.log is None:
                row["errors"] = _errors_row(parsed.errors, stored.id)
                report.add("malformed", row)
            else:
                report.new_ids.append(stored.id)
                report.add("accepted", row)
        batch.clear()

    def reject(index: int, why: str) -> None:
        report.add("rejected", {"index": index, "status": "rejected", "error": why})
        report.not_a_log(index, why)

    try:
        for entry in read_bundle(stream, content_type=content_type, content_encoding=content_encoding, limits=limits):
            if entry.raw is None:
                reject(entry.index, entry.error or "unreadable")
                continue
            try:
                parsed = parse_upload(entry.raw)
            except NotAnObject as exc:
                reject(entry.index, str(exc))
                continue
            named = parsed.log.meta.get("event") if parsed.log is not None else None
            if bound_name is not None and named is not None and named != bound_name:
                report.add("rejected", {"index": entry.index, "status": "rejected",
                                        "error": f"this log's meta.event is {named!r}, but this token may only "
                                                 f"upload games of event {event_id} ({bound_name!r}); not stored"})
                continue
            if not parsed.says_log:
                report.not_a_log(entry.index, 'a JSON object without "format": "empyrean-log"')
            batch.append((entry.index, parsed))
            batch_bytes += len(parsed.raw)
            if len(batch) >= STORE_BATCH or batch_bytes >= STORE_BATCH_BYTES:
                flush()
                batch_bytes = 0
    except BundleError as exc:
        exc.entries_read = report.received + len(batch)  # the transaction is rolled back: nothing stored
        raise
    if batch:
        flush()
