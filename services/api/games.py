"""Single games: upload one log, see where it is in the pipeline, its verdict and record, its log.

- ``POST /api/v1/games`` — body: one game log (``Content-Type: application/json``). Stored exactly
  as received, then a replay task is sent (after the commit). New: 202. The same content again: 200
  with ``duplicate: true`` and the existing game's id — nothing new was accepted, so not 202.
- ``GET /api/v1/games/{id}`` — status with its message, verdict, record, and the replay viewer's URL.
- ``GET /api/v1/games/{id}/log`` — the stored bytes, unchanged.

Requests rejected before storage (wrong content type, too large, not a JSON object) store nothing;
a JSON object that is not a valid log is stored, as ``malformed`` with the engine's JSON pointers.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from psycopg.rows import dict_row

from services.games.store import NotAnObject, parse_upload, store_upload

from .access import current_token, forbidden, require
from .errors import error_response

blueprint = Blueprint("games", __name__)

DB_TIMEOUT_S = 5.0  # an upload answers 503 rather than hang when PostgreSQL is away
MAX_UPLOADER_CHARS = 200
MAX_BIGINT = 2**63 - 1
VISIBILITIES = ("public", "unlisted")


def visibility_param():
    """``?visibility=public|unlisted`` of an upload: (value, None) or (None, a 400 answer)."""
    value = request.args.get("visibility", "public")
    if value not in VISIBILITIES:
        return None, error_response(400, "Bad Request", f"query parameter 'visibility': expected public or "
                                    f"unlisted, got {value!r}", parameter="visibility")
    return value, None


def mark_unlisted(conn, game_ids: list[int]) -> None:
    """Games uploaded with ?visibility=unlisted (new ones only: a duplicate keeps its own)."""
    if game_ids:
        conn.execute("UPDATE games SET visibility = 'unlisted' WHERE id = ANY(%s)", (game_ids,))


def _resources():
    return current_app.extensions["empyrean"]


@blueprint.post("/games")
@require("uploader", "organiser")
def upload_game():
    config = _resources().config
    visibility, err = visibility_param()
    if err:
        return err
    if request.mimetype != "application/json":
        return error_response(415, "Unsupported Media Type", "send the game log as JSON with "
                              f"Content-Type: application/json (got {request.mimetype or 'none'!r})",
                              pointer="")
    encoding = (request.headers.get("Content-Encoding") or "identity").strip().lower()
    if encoding != "identity":
        return error_response(415, "Unsupported Media Type", f"Content-Encoding {encoding!r} is not taken here: send "
                              "one log uncompressed, or many (gzip allowed) to POST /api/v1/events/{id}/games",
                              header="Content-Encoding")
    limit = config.max_upload_bytes
    if request.content_length is not None and request.content_length > limit:
        return _too_large(limit)
    raw = request.stream.read(limit + 1)  # also bounds bodies sent without a Content-Length
    if len(raw) > limit:
        return _too_large(limit)
    if not raw.strip():
        return error_response(400, "Bad Request", "the body is empty: send one game log (a JSON object)",
                              pointer="")
    uploader = (request.headers.get("X-Uploader") or "").strip() or None
    if uploader is not None and len(uploader) > MAX_UPLOADER_CHARS:
        return error_response(400, "Bad Request", f"the X-Uploader header is longer than "
                              f"{MAX_UPLOADER_CHARS} characters", header="X-Uploader")
    try:
        parsed = parse_upload(raw)
    except NotAnObject as exc:
        return error_response(400, "Bad Request", str(exc), pointer="")

    resources = _resources()
    token = current_token()
    with resources.db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        with conn.transaction():
            bound = None
            if token.event_id is not None:  # an uploader token bound to one event uploads into it only
                bound = token.event_id
                name = conn.execute("SELECT name FROM events WHERE id = %s", (bound,)).fetchone()[0]
                claimed = parsed.log.meta.get("event") if parsed.log is not None else None
                if claimed is not None and claimed != name:
                    return forbidden(f"this token may only upload games of event {bound} ({name!r}); "
                                     f"the log's meta.event is {claimed!r}")
            stored = store_upload(conn, parsed, uploader, event_id=bound)
            if visibility == "unlisted" and not stored.duplicate:
                mark_unlisted(conn, [stored.id])
    # Committed: only now may a worker hear of it (services.games.dispatch).
    status = stored.status
    if not stored.duplicate and status == "queued":
        resources.sender.submit(stored.id)  # sent within ReplaySender.LINGER_S, with its neighbours
    status_url = url_for("api_v1.games.get_game", game_id=stored.id)
    body = {"id": stored.id, "status": status, "duplicate": stored.duplicate, "status_url": status_url,
            "log_url": url_for("api_v1.games.get_log", game_id=stored.id),
            "content_hash": parsed.content_hash}
    if parsed.log is None:
        body["errors"] = parsed.errors
    response = jsonify(body)
    response.status_code = 200 if stored.duplicate else 202
    response.headers["Location"] = status_url
    return response


def _too_large(limit: int):
    return error_response(413, "Content Too Large", f"the body is larger than {limit} bytes, the most one "
                          "game log may be (EMPYREAN_MAX_UPLOAD_BYTES)", pointer="")


@blueprint.get("/games/<int:game_id>")
def get_game(game_id: int):
    if game_id > MAX_BIGINT:
        return _no_game(game_id)
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        # a cursor's row factory, not the connection's: pooled connections are shared by requests
        cur = conn.cursor(row_factory=dict_row)
        game = cur.execute(
            """SELECT g.id, g.status, g.status_message, g.content_hash, g.uploader, g.event_id, e.name AS event,
                      g.match_id, g.catalog_version, g.engine_version, g.played_on, g.attempts,
                      g.received_at, g.queued_at, g.replay_started_at, g.finished_at, d.id AS dispute_id
               FROM games g LEFT JOIN events e ON e.id = g.event_id
                            LEFT JOIN disputes d ON d.match_id = g.match_id
               WHERE g.id = %s""", (game_id,)).fetchone()
        if game is None:
            return _no_game(game_id)
        verdict = cur.execute(
            """SELECT status, message, decision_index, round, phase, player, decision, rule, legal, errors,
                      board, unseen, engine_version, catalog_version, replayed_at
               FROM verdicts WHERE game_id = %s""", (game_id,)).fetchone()
        record = _record(cur, game_id)
    body = {
        "id": game["id"], "status": game["status"], "message": game["status_message"],
        "log_url": url_for("api_v1.games.get_log", game_id=game_id),
        "replay_url": url_for("replay.replay_page", game_id=game_id),
        **{k: game[k] for k in ("content_hash", "uploader", "event_id", "event", "match_id", "dispute_id",
                                "catalog_version", "engine_version", "played_on", "attempts", "received_at",
                                "queued_at", "replay_started_at", "finished_at")},
        "verdict": verdict, "record": record,
    }
    return jsonify(_jsonable(body))


@blueprint.get("/games/<int:game_id>/log")
def get_log(game_id: int):
    if game_id > MAX_BIGINT:
        return _no_game(game_id)
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        row = conn.execute("SELECT raw_log FROM games WHERE id = %s", (game_id,)).fetchone()
    if row is None:
        return _no_game(game_id)
    return Response(bytes(row[0]), mimetype="application/json")


def _no_game(game_id: int):
    return error_response(404, "Not Found", f"there is no game {game_id}")


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


def _jsonable(value):
    """Dates and times as ISO 8601 text (Flask's default would write them as HTTP dates)."""
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value
