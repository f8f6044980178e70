"""Disputes: uploads of one match (same event, round, table and players) that disagree.

- ``GET /api/v1/disputes`` — newest first; ``status`` = open (default) | resolved | all, ``event``
  (an event id) narrows it; ``limit`` (1–500, default 100) and ``before`` (a dispute id) page it.
- ``GET /api/v1/disputes/{id}`` — the match, why its uploads disagree, and every side: each game
  uploaded for the match with its upload facts, the result its log claims, the engine's verdict on
  it (for an illegal game: the decision, the rule it breaks, the legal alternatives) and the result
  by the rules — which is what an organiser settles the dispute with.

- ``POST /api/v1/disputes/{id}/resolve`` (the event's organiser, or an admin) —
  ``{"resolution": "...", "counts": <game id> | null}``: closes the dispute with the organiser's
  ruling, in words, and the game of the match that the statistics count (a valid one of its
  uploads), or null for none; that game is added to the statistics at once.

Disputes are opened by the replay worker when a match's games disagree — its standing uploads (an
admin's, the event organiser's, a token bound to the event) when it has any: the others do not
open one (services.games.disputes, "Standing uploads"); each side says if it is ``standing``.
While one is open, no game of its match counts. A resolved dispute stays resolved: a new log of its
match is refused (409) at upload (services.games.disputes).

Each side shows who uploaded it: ``uploaded_by``, the API token's owner, name and role, as the
service knows it; ``uploader``, that owner alone; ``uploader_label``, the
``X-Uploader`` header: the uploader's own words, not checked by anyone. The list leaves out the
disputes of unlisted events unless ``event`` names the event (docs/security.md, "Visibility"); an
unlisted event's disputes (listed by ``event`` or one by id) need a token that may see the event
(services.api.access.may_read_event), else they are not there (an empty list, 404).
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request, url_for

from services.games import views
from services.games.disputes import CannotCount, NotASide, lock_dispute, resolve
from services.games.status import GameStatus

from .access import current_token, may_manage_event, may_read_event, not_your_event, require
from .errors import error_response

blueprint = Blueprint("disputes", __name__)

MAX_LIMIT = 500
_STATUSES = ("open", "resolved", "all")


def _game_links(game_id: int) -> dict:
    return {"game": f"/api/v1/games/{game_id}", "log": f"/api/v1/games/{game_id}/log"}


def _bad(param: str, message: str):
    return error_response(400, "Bad Request", f"query parameter '{param}': {message}")


def _int_param(name: str, default: int | None, lo: int, hi: int):
    raw = request.args.get(name)
    if raw is None:
        return default, None
    if not raw.isdigit() or not lo <= int(raw) <= hi:
        return None, _bad(name, f"expected a whole number from {lo} to {hi}, got {raw!r}")
    return int(raw), None


@blueprint.get("/disputes")
def list_disputes():
    status = request.args.get("status", "open")
    if status not in _STATUSES:
        return _bad("status", f"expected one of {', '.join(_STATUSES)}, got {status!r}")
    event, err = _int_param("event", None, 1, views.MAX_ID)
    if err:
        return err
    limit, err = _int_param("limit", 100, 1, MAX_LIMIT)
    if err:
        return err
    before, err = _int_param("before", None, 1, views.MAX_ID)
    if err:
        return err
    with current_app.extensions["empyrean"].db_pool.connection() as conn:
        found = views.dispute_summaries(conn, status=status, event_id=event, before=before, limit=limit)
    token = current_token()
    found = [d for d in found if may_read_event(token, d.event_id, d.event_visibility, d.event_organiser)]
    body = {"filters": {"status": status, "event": event, "limit": limit, "before": before},
            "disputes": [_summary(d) for d in found]}
    if len(found) == limit:
        body["next"] = f"/api/v1/disputes?status={status}&limit={limit}&before={found[-1].id}" + (
            f"&event={event}" if event else "")
    return jsonify(body)


def _summary(d: views.DisputeSummary) -> dict:
    return {
        "id": d.id, "status": d.status, "reason": d.reason,
        "opened_at": d.opened_at.isoformat(),
        "resolved_at": d.resolved_at.isoformat() if d.resolved_at else None,
        "match": {"event": {"id": d.event_id, "name": d.event_name}, "round": d.round,
                  "table": d.table_label, "players": d.players},
        "games": len(d.games),
        "url": f"/api/v1/disputes/{d.id}",
    }


@blueprint.get("/disputes/<int:dispute_id>")
def get_dispute(dispute_id: int):
    if dispute_id > views.MAX_ID:
        return error_response(404, "Not Found", f"there is no dispute {dispute_id}")
    with current_app.extensions["empyrean"].db_pool.connection() as conn:
        found = views.dispute_view(conn, dispute_id)
    if found is None or not may_read_event(current_token(), found.dispute.event_id, found.dispute.event_visibility,
                                           found.dispute.event_organiser):
        return error_response(404, "Not Found", f"there is no dispute {dispute_id}")
    body = _summary(found.dispute)
    body["resolution"] = found.dispute.resolution
    body["counts"] = found.dispute.counts_game_id
    body["resolved_by"] = found.dispute.resolved_by
    body["sides"] = [_side(s) for s in found.sides]
    return jsonify(body)


def _side(s: dict) -> dict:
    verdict = None
    if s["verdict_status"] is not None:
        verdict = {"status": s["verdict_status"], "message": s["verdict_message"]}
        if s["verdict_status"] == GameStatus.ILLEGAL:
            verdict.update(index=s["decision_index"], round=s["verdict_round"], phase=s["phase"],
                           player=s["player"], decision=s["decision"], rule=s["rule"], legal=s["legal"])
        elif s["errors"]:
            verdict["errors"] = s["errors"]
    by_rules = None
    if s["verdict_status"] in (GameStatus.VALID, GameStatus.MISMATCH):
        by_rules = {"winner": s["winner"], "margin": s["margin"], "final_might": s["final_might"]}
    return {
        "game": s["id"], "uploaded_by": s["uploaded_by"], "uploader_label": s["uploader"],
        "uploader": views.uploader_owner(s["uploaded_by"]),
        "counted": s["counted"], "standing": s["standing"], "received_at": s["received_at"].isoformat(),
        "status": s["status"], "status_message": s["status_message"],
        "claimed_result": s["claimed_result"],
        "verdict": verdict, "result_by_rules": by_rules, "links": _game_links(s["id"]),
        # the board at each decision (for an illegal side it opens at the illegal one)
        "replay_url": url_for("replay.replay_page", game_id=s["id"]),
    }


MAX_RESOLUTION_CHARS = 5000


@blueprint.post("/disputes/<int:dispute_id>/resolve")
@require("organiser")
def resolve_dispute(dispute_id: int):
    body = request.get_json(silent=True) if request.mimetype == "application/json" else None
    if not isinstance(body, dict):
        return error_response(400, "Bad Request", 'send a JSON object like {"resolution": "game 12 stands: '
                              'the other upload broke rule 4.2", "counts": 12} with Content-Type: application/json',
                              pointer="")
    unknown = sorted(set(body) - {"resolution", "counts"})
    if unknown:
        return error_response(400, "Bad Request", f"unknown field {unknown[0]!r}; send resolution and counts",
                              pointer=f"/{unknown[0]}")
    counts = body.get("counts")
    if "counts" not in body or counts is not None and (
            type(counts) is not int or not 1 <= counts <= views.MAX_ID):
        return error_response(400, "Bad Request", "counts must name the game of this match that the statistics "
                              "count (its id, a whole number), or be null when none of them should count",
                              pointer="/counts")
    resolution = body.get("resolution")
    if not isinstance(resolution, str) or not 1 <= len(resolution.strip()) <= MAX_RESOLUTION_CHARS:
        return error_response(400, "Bad Request", f"resolution must be text of 1 to {MAX_RESOLUTION_CHARS} "
                              "characters: the ruling, in words", pointer="/resolution")
    if dispute_id > views.MAX_ID:
        return error_response(404, "Not Found", f"there is no dispute {dispute_id}")
    with current_app.extensions["empyrean"].db_pool.connection() as conn, conn.transaction():
        found = lock_dispute(conn, dispute_id)
        token = current_token()
        # a dispute of an unlisted event this token may not read is not there (as GET answers)
        if found is None or not may_read_event(token, found.event_id, found.event_visibility, found.organiser):
            return error_response(404, "Not Found", f"there is no dispute {dispute_id}")
        if not may_manage_event(token, found.organiser):
            return not_your_event(found.event_id)
        if found.status == "resolved":
            return error_response(409, "Conflict", f"dispute {dispute_id} is already resolved")
        try:
            resolve(conn, found, resolution.strip(), counts, (token.owner, token.name, token.role))
        except NotASide as exc:
            return error_response(400, "Bad Request", str(exc), pointer="/counts")
        except CannotCount as exc:
            return error_response(409, "Conflict", str(exc), pointer="/counts")
    return get_dispute(dispute_id)
