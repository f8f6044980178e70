"""The replay viewer: step through one stored game, decision by decision, and see the board.

- ``GET /games/<id>/replay`` — the page (``?step=N`` opens it after N decisions; an illegal game
  opens at the decision that broke the rules, with the reason and the legal alternatives).
- ``GET /games/<id>/timeline.json`` — the same timeline as JSON (engine.timeline, plus the game's
  stored facts).

The timeline is rebuilt from the stored raw log on each request (services.games.views.replay_of:
the log is read once, for the frames and the meta shown beside them), so the page always shows
what this engine makes of the log — while the header shows the stored status and verdict from the
pipeline (services.games.views.game_view, the same read as GET /api/v1/games/{id}).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request, url_for

from services.api.access import current_token, may_read_game
from services.games import views

blueprint = Blueprint("replay", __name__, template_folder="templates")

DB_TIMEOUT_S = 5.0


def _load_replay(game_id: int) -> views.ReplayView | None:
    """The stored game and its log read into a timeline; None when there is no such game, or it is
    unlisted (or of an unlisted event) and the request has no token that may see it (browsers send
    none: unlisted games have no replay page for them; docs/security.md, "Visibility")."""
    if game_id > views.MAX_ID:
        return None
    with current_app.extensions["empyrean"].db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        game = views.game_view(conn, game_id, log=True)
    if game is None or not may_read_game(current_token(), game):
        return None
    return views.replay_of(game)  # the connection is back in the pool


def _game_facts(replay: views.ReplayView) -> dict[str, Any]:
    game, verdict = replay.game, replay.game.verdict
    return {
        "id": game.id,
        "status": str(game.status),
        "pending": game.pending,
        "message": game.status_message,
        "verdict_status": verdict["status"] if verdict else None,
        "verdict_message": verdict["message"] if verdict else None,
        "event": replay.event,
        "date": replay.date,
        "uploaded_by": game.uploaded_by,  # the API token that uploaded it (owner, name, role)
        "uploader_label": game.uploader,  # the X-Uploader header: the uploader's own words
        "uploader": game.uploader,  # the label's old name
        "received_at": game.received_at.isoformat(),
        "status_url": url_for("api_v1.games.get_game", game_id=game.id),
        "log_url": url_for("api_v1.games.get_log", game_id=game.id),
        "timeline_url": url_for("replay.timeline_json", game_id=game.id),
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
    replay = _load_replay(game_id)
    if replay is None:
        return _not_found(game_id)
    tl = replay.timeline.to_dict()
    return render_template("replay.html", game=_game_facts(replay), tl=tl, step=_start_step(tl),
                           page_title=f"Game {game_id}")


@blueprint.get("/games/<int:game_id>/timeline.json")
def timeline_json(game_id: int):
    replay = _load_replay(game_id)
    if replay is None:
        # JSON for a JSON URL, in the API's error shape
        response = jsonify({"error": {"status": 404, "title": "Not Found",
                                      "message": f"there is no game {game_id}"}})
        response.status_code = 404
        return response
    return jsonify({"game": _game_facts(replay), **replay.timeline.to_dict()})
