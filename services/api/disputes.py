"""Disputes: uploads of one match (same event, round, table and players) that disagree.

- ``GET /api/v1/disputes`` — newest first; ``status`` = open (default) | resolved | all, ``event``
  (an event id) narrows it; ``limit`` (1–500, default 100) and ``before`` (a dispute id) page it.
- ``GET /api/v1/disputes/{id}`` — the match, why its uploads disagree, and every side: each game
  uploaded for the match with its upload facts, the result its log claims, the engine's verdict on
  it (for an illegal game: the decision, the rule it breaks, the legal alternatives) and the result
  by the rules — which is what an organiser settles the dispute with.

- ``POST /api/v1/disputes/{id}/resolve`` (the event's organiser, or an admin) —
  ``{"resolution": "..."}``: closes the dispute with the organiser's ruling, in words.

Disputes are opened by the replay worker when a match's games disagree. The list leaves out the
disputes of unlisted events unless ``event`` names the event (docs/security.md, "Visibility").
"""

from __future__ import annotations

import json

from flask import Blueprint, current_app, jsonify, request, url_for
from psycopg.rows import dict_row

from .access import current_token, may_manage_event, not_your_event, require
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
    event, err = _int_param("event", None, 1, 2**63 - 1)
    if err:
        return err
    limit, err = _int_param("limit", 100, 1, MAX_LIMIT)
    if err:
        return err
    before, err = _int_param("before", None, 1, 2**63 - 1)
    if err:
        return err
    sql = """
        SELECT d.id, d.status, d.reason, d.opened_at, d.resolved_at,
               m.event_id, e.name AS event_name, m.round, m.table_label, m.players,
               (SELECT count(*) FROM games g WHERE g.match_id = m.id) AS games
        FROM disputes d
        JOIN event_matches m ON m.id = d.match_id
        JOIN events e ON e.id = m.event_id
        WHERE (%(status)s = 'all' OR d.status = %(status)s)
          AND (%(event)s::bigint IS NULL AND e.visibility = 'public' OR m.event_id = %(event)s)
          AND (%(before)s::bigint IS NULL OR d.id < %(before)s)
        ORDER BY d.id DESC
        LIMIT %(limit)s
    """
    params = {"status": status, "event": event, "before": before, "limit": limit}
    with current_app.extensions["empyrean"].db_pool.connection() as conn:
        rows = conn.cursor(row_factory=dict_row).execute(sql, params).fetchall()
    disputes = [_summary(r) for r in rows]
    body = {"filters": {"status": status, "event": event, "limit": limit, "before": before},
            "disputes": disputes}
    if len(rows) == limit:
        body["next"] = f"/api/v1/disputes?status={status}&limit={limit}&before={rows[-1]['id']}" + (
            f"&event={event}" if event else "")
    return jsonify(body)


def _summary(r: dict) -> dict:
    return {
        "id": r["id"], "status": r["status"], "reason": r["reason"],
        "opened_at": r["opened_at"].isoformat(),
        "resolved_at": r["resolved_at"].isoformat() if r["resolved_at"] else None,
        "match": {"event": {"id": r["event_id"], "name": r["event_name"]}, "round": r["round"],
                  "table": r["table_label"], "players": r["players"]},
        "games": r["games"],
        "url": f"/api/v1/disputes/{r['id']}",
    }


@blueprint.get("/disputes/<int:dispute_id>")
def get_dispute(dispute_id: int):
    if dispute_id > 2**63 - 1:
        return error_response(404, "Not Found", f"there is no dispute {dispute_id}")
    with current_app.extensions["empyrean"].db_pool.connection() as conn:
        cur = conn.cursor(row_factory=dict_row)
        head = cur.execute("""
            SELECT d.id, d.status, d.reason, d.resolution, d.opened_at, d.resolved_at, d.match_id,
                   m.event_id, e.name AS event_name, m.round, m.table_label, m.players,
                   (SELECT count(*) FROM games g WHERE g.match_id = m.id) AS games
            FROM disputes d
            JOIN event_matches m ON m.id = d.match_id
            JOIN events e ON e.id = m.event_id
            WHERE d.id = %s""", (dispute_id,)).fetchone()
        if head is None:
            return error_response(404, "Not Found", f"there is no dispute {dispute_id}")
        sides = cur.execute("""
            SELECT g.id, g.uploader, g.received_at, g.status, g.status_message, g.raw_log,
                   v.status AS verdict_status, v.message AS verdict_message, v.decision_index,
                   v.round AS verdict_round, v.phase, v.player, v.decision, v.rule, v.legal,
                   v.errors, r.winner, r.margin
            FROM games g
            LEFT JOIN verdicts v ON v.game_id = g.id
            LEFT JOIN game_records r ON r.game_id = g.id
            WHERE g.match_id = %s
            ORDER BY g.received_at, g.id""", (head["match_id"],)).fetchall()
        might = _final_might(cur, [s["id"] for s in sides])
    body = _summary(head)
    body["resolution"] = head["resolution"]
    body["sides"] = [_side(s, might.get(s["id"])) for s in sides]
    return jsonify(body)


def _final_might(cur, game_ids: list[int]) -> dict[int, list[int]]:
    """Each game's final might per seat (total over the battlefields), by the rules."""
    if not game_ids:
        return {}
    rows = cur.execute("""
        SELECT game_id, array_agg(final_might ORDER BY seat) AS might
        FROM game_players WHERE game_id = ANY(%s) GROUP BY game_id""", (game_ids,)).fetchall()
    return {r["game_id"]: r["might"] for r in rows}


def _claimed_result(raw: bytes) -> dict | None:
    """The result the uploaded log claims, if it can be read at all (a malformed log may not)."""
    try:
        log = json.loads(bytes(raw))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    result = log.get("result") if isinstance(log, dict) else None
    return result if isinstance(result, dict) else None


def _side(s: dict, might: list[int] | None) -> dict:
    verdict = None
    if s["verdict_status"] is not None:
        verdict = {"status": s["verdict_status"], "message": s["verdict_message"]}
        if s["verdict_status"] == "illegal":
            verdict.update(index=s["decision_index"], round=s["verdict_round"], phase=s["phase"],
                           player=s["player"], decision=s["decision"], rule=s["rule"], legal=s["legal"])
        elif s["errors"]:
            verdict["errors"] = s["errors"]
    by_rules = None
    if s["verdict_status"] in ("valid", "mismatch"):
        by_rules = {"winner": s["winner"], "margin": s["margin"], "final_might": might}
    return {
        "game": s["id"], "uploader": s["uploader"], "received_at": s["received_at"].isoformat(),
        "status": s["status"], "status_message": s["status_message"],
        "claimed_result": _claimed_result(s["raw_log"]),
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
                              'the other upload broke rule 4.2"} with Content-Type: application/json', pointer="")
    unknown = sorted(set(body) - {"resolution"})
    if unknown:
        return error_response(400, "Bad Request", f"unknown field {unknown[0]!r}; send only resolution",
                              pointer=f"/{unknown[0]}")
    resolution = body.get("resolution")
    if not isinstance(resolution, str) or not 1 <= len(resolution.strip()) <= MAX_RESOLUTION_CHARS:
        return error_response(400, "Bad Request", f"resolution must be text of 1 to {MAX_RESOLUTION_CHARS} "
                              "characters: the ruling, in words", pointer="/resolution")
    if dispute_id > 2**63 - 1:
        return error_response(404, "Not Found", f"there is no dispute {dispute_id}")
    with current_app.extensions["empyrean"].db_pool.connection() as conn, conn.transaction():
        cur = conn.cursor(row_factory=dict_row)
        row = cur.execute("""SELECT d.status, m.event_id, e.organiser FROM disputes d
                             JOIN event_matches m ON m.id = d.match_id JOIN events e ON e.id = m.event_id
                             WHERE d.id = %s FOR UPDATE OF d""", (dispute_id,)).fetchone()
        if row is None:
            return error_response(404, "Not Found", f"there is no dispute {dispute_id}")
        if not may_manage_event(current_token(), row["organiser"]):
            return not_your_event(row["event_id"])
        if row["status"] == "resolved":
            return error_response(409, "Conflict", f"dispute {dispute_id} is already resolved")
        cur.execute("""UPDATE disputes SET status = 'resolved', resolution = %s, resolved_at = now(),
                                           updated_at = now() WHERE id = %s""", (resolution.strip(), dispute_id))
    return get_dispute(dispute_id)
