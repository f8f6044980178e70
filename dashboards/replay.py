"""The replay viewer: step through one stored game, decision by decision, and see the board.

- ``GET /games/<id>/replay`` — the page (``?step=N`` opens it after N decisions; an illegal game
  opens at the decision that broke the rules, with the reason and the legal alternatives).
- ``GET /games/<id>/timeline.json`` — the same timeline as JSON (engine.timeline, plus the game's
  stored facts).

The timeline is rebuilt from the stored raw log on each request (a game replays in about a
millisecond; building its ~100 frames takes a few more), so the page always shows what this
engine makes of the log — while the header shows the stored status and verdict from the pipeline.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request, url_for
from psycopg.rows import dict_row

from engine.timeline import timeline

blueprint = Blueprint("replay", __name__, template_folder="templates")

DB_TIMEOUT_S = 5.0
MAX_BIGINT = 2**63 - 1
PENDING = ("received", "queued", "replaying")


def _load_game(game_id: int) -> dict[str, Any] | None:
    """The stored game: raw log, status, verdict, event name; None when there is no such game."""
    if game_id > MAX_BIGINT:
        return None
    pool = current_app.extensions["empyrean"].db_pool
    with pool.connection(timeout=DB_TIMEOUT_S) as conn:
        # a cursor's row factory, not the connection's: pooled connections are shared by requests
        return conn.cursor(row_factory=dict_row).execute(
            """SELECT g.id, g.status, g.status_message, g.raw_log, g.uploader, g.catalog_version, g.played_on,
                      g.received_at, e.name AS event, v.status AS verdict_status, v.message AS verdict_message
               FROM games g LEFT JOIN events e ON e.id = g.event_id
                            LEFT JOIN verdicts v ON v.game_id = g.id
               WHERE g.id = %s""", (game_id,)).fetchone()


def _log_meta(raw: bytes) -> dict[str, Any]:
    """The log's meta (event, date, players), if it reads as JSON at all: shown even when the
    engine finds the log malformed. Values are shown as text, never interpreted."""
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return {}
    meta = doc.get("meta") if isinstance(doc, dict) else None
    return meta if isinstance(meta, dict) else {}


def _game_facts(game: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
    event = game["event"] or (meta.get("event") if isinstance(meta.get("event"), str) else None)
    date = game["played_on"].isoformat() if game["played_on"] else (
        meta.get("date") if isinstance(meta.get("date"), str) else None)
    return {
        "id": game["id"],
        "status": game["status"],
        "pending": game["status"] in PENDING,
        "message": game["status_message"],
        "verdict_status": game["verdict_status"],
        "verdict_message": game["verdict_message"],
        "event": event,
        "date": date,
        "uploader": game["uploader"],
        "received_at": game["received_at"].isoformat(),
        "status_url": url_for("api_v1.games.get_game", game_id=game["id"]),
        "log_url": url_for("api_v1.games.get_log", game_id=game["id"]),
        "timeline_url": url_for("replay.timeline_json", game_id=game["id"]),
    }


def _start_step(tl: dict[str, Any]) -> int:
    """``?step=N`` if given (clamped to the frames there are); else the failing frame of an illegal
    game, else the start."""
    last = max(0, len(tl["frames"]) - 1)
    raw = request.args.get("step", "")
    if raw.strip().isdigit():
        return min(int(raw), last)
    return tl["failing_frame"] if tl["failing_frame"] is not None else 0


def _not_found(game_id: int):
    return render_template("replay_missing.html", game_id=game_id), 404


@blueprint.get("/games/<int:game_id>/replay")
def replay_page(game_id: int):
    game = _load_game(game_id)
    if game is None:
        return _not_found(game_id)
    raw = bytes(game["raw_log"])
    tl = timeline(raw).to_dict()
    facts = _game_facts(game, _log_meta(raw))
    return render_template("replay.html", game=facts, tl=tl, step=_start_step(tl),
                           page_title=f"Game {game_id}")


@blueprint.get("/games/<int:game_id>/timeline.json")
def timeline_json(game_id: int):
    game = _load_game(game_id)
    if game is None:
        # JSON for a JSON URL, in the API's error shape
        response = jsonify({"error": {"status": 404, "title": "Not Found",
                                      "message": f"there is no game {game_id}"}})
        response.status_code = 404
        return response
    raw = bytes(game["raw_log"])
    return jsonify({"game": _game_facts(game, _log_meta(raw)), **timeline(raw).to_dict()})
