"""Events (tournaments) and their bundles of games.

- ``POST /api/v1/events`` — ``{"name", "starts_on"?, "ends_on"?}``: creates the event (201), or
  answers the existing event of that name (200), so an organiser's script can simply say it again.
- ``GET /api/v1/events`` — every event with its game counts by status.
- ``GET /api/v1/events/{id}`` — one event: counts by status, open disputes.
- ``POST /api/v1/events/{id}/games`` — a tournament bundle (services.bundles: a JSON array, NDJSON or
  one log, gzip or not; thousands of games), read as a stream. Every readable entry is stored as
  received under this event in batches (each batch one transaction), and after each commit its
  games are sent to the workers in chunks on the bulk lane. The answer is a per-game acceptance
  report: accepted (new, with its id), duplicate (the id it already has), malformed (stored, with
  the engine's pointers), rejected (not a JSON object: not stored, with the reason).
"""

from __future__ import annotations

import datetime as dt

from flask import Blueprint, current_app, jsonify, request, url_for
from psycopg.rows import dict_row

from services.bundles import BundleError, BundleLimits, read_bundle
from services.dispatch import enqueue_bundle
from services.db.event_summary import load_events
from services.ingest import NotAnObject, find_or_create_event, parse_upload, store_upload

from .errors import error_response
from .games import DB_TIMEOUT_S, MAX_BIGINT, MAX_UPLOADER_CHARS

blueprint = Blueprint("events", __name__)

MAX_NAME_CHARS = 200


TITLES = {400: "Bad Request", 413: "Content Too Large", 415: "Unsupported Media Type"}


def _resources():
    return current_app.extensions["empyrean"]


def _event_body(row: dict, counts: dict[str, int], open_disputes: int) -> dict:
    return {
        "id": row["id"], "name": row["name"],
        "starts_on": row["starts_on"].isoformat() if row["starts_on"] else None,
        "ends_on": row["ends_on"].isoformat() if row["ends_on"] else None,
        "created_at": row["created_at"].isoformat(),
        "games": counts, "open_disputes": open_disputes,
        "url": url_for("api_v1.events.get_event", event_id=row["id"]),
        "games_url": url_for("api_v1.events.upload_bundle", event_id=row["id"]),
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


@blueprint.post("/events")
def create_event():
    body = request.get_json(silent=True) if request.mimetype == "application/json" else None
    if not isinstance(body, dict):
        return error_response(400, "Bad Request", 'send a JSON object like {"name": "Spring Open 2026"} '
                              "with Content-Type: application/json", pointer="")
    name = body.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME_CHARS:
        return error_response(400, "Bad Request", f"name must be text of 1 to {MAX_NAME_CHARS} characters",
                              pointer="/name")
    unknown = sorted(set(body) - {"name", "starts_on", "ends_on"})
    if unknown:
        return error_response(400, "Bad Request", f"unknown field {unknown[0]!r}; an event has name, "
                              "starts_on, ends_on", pointer=f"/{unknown[0]}")
    starts, err = _date(body, "starts_on")
    if err:
        return err
    ends, err = _date(body, "ends_on")
    if err:
        return err
    if starts and ends and ends < starts:
        return error_response(400, "Bad Request", "ends_on is before starts_on", pointer="/ends_on")
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn, conn.transaction():
        cur = conn.cursor(row_factory=dict_row)
        created = cur.execute(
            """INSERT INTO events (name, starts_on, ends_on) VALUES (%s, %s, %s)
               ON CONFLICT ON CONSTRAINT events_name_key DO NOTHING RETURNING id""",
            (name.strip(), starts, ends)).fetchone() is not None
        event_id = find_or_create_event(conn, name.strip())
        [(row, counts, disputes)] = load_events(cur, event_id)
    response = jsonify(_event_body(row, counts, disputes) | {"created": created})
    response.status_code = 201 if created else 200
    response.headers["Location"] = url_for("api_v1.events.get_event", event_id=event_id)
    return response


@blueprint.get("/events")
def list_events():
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        events = [_event_body(*e) for e in load_events(conn.cursor(row_factory=dict_row))]
    return jsonify({"events": events})


@blueprint.get("/events/<int:event_id>")
def get_event(event_id: int):
    if event_id > MAX_BIGINT:
        return _no_event(event_id)
    with _resources().db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        found = load_events(conn.cursor(row_factory=dict_row), event_id)
    if not found:
        return _no_event(event_id)
    return jsonify(_event_body(*found[0]))


def _no_event(event_id: int):
    return error_response(404, "Not Found", f"there is no event {event_id}; create it with POST /api/v1/events")


@blueprint.post("/events/<int:event_id>/games")
def upload_bundle(event_id: int):
    resources = _resources()
    if event_id > MAX_BIGINT:
        return _no_event(event_id)
    with resources.db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        if conn.execute("SELECT 1 FROM events WHERE id = %s", (event_id,)).fetchone() is None:
            return _no_event(event_id)
    uploader = (request.headers.get("X-Uploader") or "").strip() or None
    if uploader is not None and len(uploader) > MAX_UPLOADER_CHARS:
        return error_response(400, "Bad Request", f"the X-Uploader header is longer than "
                              f"{MAX_UPLOADER_CHARS} characters", header="X-Uploader")
    limits = BundleLimits(max_body_bytes=resources.config.max_bundle_bytes,
                          max_game_bytes=resources.config.max_upload_bytes)
    if request.content_length is not None and request.content_length > limits.max_body_bytes:
        return error_response(413, TITLES[413], f"the bundle is larger than {limits.max_body_bytes:,} bytes "
                              "(EMPYREAN_MAX_BUNDLE_BYTES); split it", pointer="")
    report: list[dict] = []
    counts = {"accepted": 0, "duplicates": 0, "malformed": 0, "rejected": 0}
    new_ids: list[int] = []
    # The whole bundle is stored in ONE transaction: a bundle that breaks off part-way (a truncated
    # gzip, an array that stops being JSON, too big without a Content-Length) stores nothing, so the
    # organiser resends it whole and nothing is half there. Workers hear of the games only after
    # the commit (services.dispatch).
    with resources.db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        try:
            with conn.transaction():
                _store_bundle(conn, request.stream, request.content_type, request.headers.get("Content-Encoding"),
                              limits, uploader, event_id, report, counts, new_ids)
        except BundleError as exc:
            stored = ("nothing was stored; fix the bundle and send it again" if report
                      else "nothing was stored")
            return error_response(exc.status, TITLES.get(exc.status, "Bad Request"), f"{exc.message}; {stored}",
                                  pointer="", read_before_error=len(report))
    sent = len(enqueue_bundle(resources.db_pool, resources.celery, new_ids))
    body = {"event": event_id, "received": len(report), **counts, "sent_to_workers": sent,
            "games": sorted(report, key=lambda e: e["index"])}
    return jsonify(body), 202 if counts["accepted"] else 200


def _store_bundle(conn, stream, content_type, content_encoding, limits: BundleLimits, uploader, event_id: int,
                  report: list[dict], counts: dict, new_ids: list[int]) -> None:
    """Read the bundle's entries and store them in ``conn``'s transaction, filling the report;
    raises BundleError when the bundle cannot be read to its end."""
    for entry in read_bundle(stream, content_type=content_type, content_encoding=content_encoding, limits=limits):
        if entry.raw is None:
            counts["rejected"] += 1
            report.append({"index": entry.index, "status": "rejected", "error": entry.error})
            continue
        try:
            parsed = parse_upload(entry.raw)
        except NotAnObject as exc:
            counts["rejected"] += 1
            report.append({"index": entry.index, "status": "rejected", "error": str(exc)})
            continue
        stored = store_upload(conn, parsed, uploader, event_id=event_id)
        row = {"index": entry.index, "id": stored.id, "status": stored.status}
        if stored.duplicate:
            counts["duplicates"] += 1
            row["duplicate"] = True
        elif parsed.log is None:
            counts["malformed"] += 1
            row["errors"] = parsed.errors
        else:
            counts["accepted"] += 1
            new_ids.append(stored.id)
        report.append(row)
