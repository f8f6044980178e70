"""The dispute desk: one disputed match as an organiser settles it, and an event's disputes.

- ``GET /disputes/<id>`` — the match ("R3 · T14 · Ada vs Bo"), the dispute's status and reason; its
  uploads side by side, each with who uploaded it (the API token's owner), when, what its log claims,
  the rules' verdict, its final board battlefield by battlefield and a link to its replay; the first
  decision where the logs part; which claim the rules support; the ruling once resolved, and a form
  with which the event's organiser (or an admin) resolves it (static/dispute_desk.js posts it to
  ``POST /api/v1/disputes/{id}/resolve`` with the token typed into the page).
- ``GET /events/<id>/disputes`` — the event's disputes, each linked to its desk.

What is shown is read by services.games.views (``dispute_view``, the read GET /api/v1/disputes/{id}
makes, and ``match_uploads``: the stored logs and final boards); each stored log is parsed once
(engine.log.parse_log) for its decisions, players, battlefields and claim. The desk's sentences come
from dashboards.dispute_desk (pure functions).

Visibility as for the events and replay pages (docs/security.md, "Visibility"): a dispute of an
unlisted event, or one with an unlisted upload, needs a token that may read them all; a browser sends
none, so it gets the 404 page, as for an unknown id.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template, url_for

from engine.log import GameLog, LogFormatError, parse_log
from engine.words import game_title
from services.api.access import current_token, may_read_event, may_read_game
from services.games import views
from services.games.status import GameStatus

from . import dispute_desk as desk
from .events import counts_text, disputes_table, replay_path, uploaded_by_text
from .games import game_name, set_page_game
from .panels import Panel

blueprint = Blueprint("dispute_desk", __name__, template_folder="templates")

DB_TIMEOUT_S = 5.0


def _pool():
    return current_app.extensions["empyrean"].db_pool


def _not_found(what: str):
    return render_template("not_found.html", page_title="Not found", message=f"There is no {what}."), 404


def _load(dispute_id: int) -> tuple[views.DisputeView, dict[int, views.Upload], list] | None:
    """The dispute, its uploads and its event's disputes; None when there is none, or when the request
    may not see its event or one of its uploads."""
    if dispute_id > views.MAX_ID:
        return None
    token = current_token()
    with _pool().connection(timeout=DB_TIMEOUT_S) as conn:
        found = views.dispute_view(conn, dispute_id)
        if found is None:
            return None
        d = found.dispute
        if not may_read_event(token, d.event_id, d.event_visibility, d.event_organiser):
            return None
        # the sides' ids, not d.games: an upload stored between the two reads is in one only
        uploads = views.match_uploads(conn, [s["id"] for s in found.sides])
        if not all(may_read_game(token, u) for u in uploads.values()):
            return None
        others = views.dispute_summaries(conn, event_id=d.event_id)
    return found, uploads, others


def _parse(raw: bytes) -> GameLog | None:
    try:
        return parse_log(raw)
    except LogFormatError:
        return None


def _claim_words(log: GameLog | None) -> str:
    """What a log claims, in words: the winner, how the game ended if not by the tally, the might."""
    if log is None:
        return "unreadable (not a log the engine can read)"
    result, names = log.result, list(log.meta.get("players", ()))
    if result is None:
        return "no result claimed"
    words = desk.outcome_words(names, result.winner)
    # how it ended and the might: what a Battle for Empyrean result claims (another game's claims its winner)
    reason, might = getattr(result, "reason", None), getattr(result, "might", None)
    if reason in ("concession", "time"):
        words += " (by concession)" if reason == "concession" else " (time was called)"
    if might is not None:
        words += " " + desk.might_words(names, log.setup.battlefields, might, result.winner)
    return words


def _upload(position: int, side: dict, upload: views.Upload, log: GameLog | None) -> dict[str, Any]:
    """One column of the desk."""
    names = upload.names or (list(log.meta.get("players", ())) if log else [])
    verdict = side["verdict_status"]
    by_rules = None
    if upload.might:
        by_rules = (desk.outcome_words(names, side["winner"]) + " "
                    + desk.might_words(names, upload.battlefields, upload.might, side["winner"]))
    illegal = None
    if verdict == GameStatus.ILLEGAL and side["decision_index"] is not None:
        illegal = {"number": side["decision_index"] + 1, "line": side["decision"], "rule": side["rule"]}
    return {
        "position": position, "id": side["id"], "status": side["status"], "verdict": verdict,
        "message": side["verdict_message"] or side["status_message"],
        "uploaded_by": uploaded_by_text(side["uploaded_by"]), "label": side["uploader"],
        "received_at": side["received_at"].strftime("%Y-%m-%d %H:%M"),
        "claimed": _claim_words(log),
        "claimed_winner": _claimed_outcome(log),
        "by_rules": by_rules, "by_rules_outcome": desk.outcome_words(names, side["winner"]) if upload.might else None,
        "tally": desk.tally(upload.battlefields, upload.might), "names": [desk.name_of(names, s + 1)
                                                                          for s in range(len(upload.might))],
        "illegal": illegal, "counted": side["counted"], "decisions": len(log.decisions) if log else None,
        "can_count": verdict == GameStatus.VALID,
        "replay_url": replay_path(side["id"]),
        "log_url": url_for("api_v1.games.get_log", game_id=side["id"]),
    }


def _claimed_outcome(log: GameLog | None) -> str:
    if log is None:
        return "unreadable"
    if log.result is None:
        return "no result claimed"
    return desk.outcome_words(list(log.meta.get("players", ())), log.result.winner)


def _title(d: views.DisputeSummary, logs: list[GameLog | None]) -> str:
    """The match as people name it, from the first readable log's meta; else from the match's row."""
    log = next((x for x in logs if x is not None), None)
    if log is not None:
        return game_title(log.meta, log.setup.players)
    return f"R{d.round} · T{d.table_label} · " + " vs ".join(d.players)


def _difference(columns: list[dict], logs: list[GameLog | None]) -> dict[str, Any] | None:
    """The first decision where the readable logs part, with each one's line there and the line
    before it (on which they all agree); None with fewer than two readable logs."""
    readable = [(c, log) for c, log in zip(columns, logs) if log is not None]
    if len(readable) < 2:
        return None
    diff = desk.first_difference([log.decisions for _, log in readable])
    labels = [f"game {c['id']}" for c, _ in readable]
    before = None
    if diff.number is not None and diff.number > 1:
        before = readable[0][1].decisions[diff.number - 2]
    setups = {(log.setup, log.chance) for _, log in readable}
    return {"diff": diff, "words": desk.difference_words(diff, labels), "before": before,
            "rows": [(c["id"], line) for (c, _), line in zip(readable, diff.lines)],
            "same_setup": len(setups) == 1}


@blueprint.get("/disputes/<int:dispute_id>")
def dispute_page(dispute_id: int):
    loaded = _load(dispute_id)
    if loaded is None:
        return _not_found(f"dispute {dispute_id}")
    found, uploads, others = loaded
    d = found.dispute
    set_page_game(d.game)
    logs = [_parse(uploads[s["id"]].raw_log) for s in found.sides]
    columns = [_upload(i + 1, s, uploads[s["id"]], log) for i, (s, log) in enumerate(zip(found.sides, logs))]
    difference = _difference(columns, logs)
    claims = [desk.Claim(c["id"], c["verdict"], c["message"], c["claimed_winner"], c["by_rules_outcome"])
              for c in columns]
    support = desk.support_words(claims, difference["diff"] if difference else None)
    others.sort(key=lambda o: o.status != "open")  # stable: newest first within open, then resolved
    others_panel = Panel("event-disputes", f"Disputes of {d.event_name}", table=disputes_table(others),
                         note="Open disputes first; this one included.")
    return render_template(
        "disputes.html", page_title=f"Dispute #{d.id}: {_title(d, logs)}", dispute=d, columns=columns,
        difference=difference, support=support, counts=counts_text(d),
        resolved_by=uploaded_by_text(d.resolved_by) if d.resolved_by else "not recorded",
        resolve_url=url_for("api_v1.disputes.resolve_dispute", dispute_id=d.id),
        event_url=url_for("events.event", event_id=d.event_id), panels=[others_panel])


@blueprint.get("/events/<int:event_id>/disputes")
def event_disputes(event_id: int):
    if event_id > views.MAX_ID:
        return _not_found(f"event {event_id}")
    with _pool().connection(timeout=DB_TIMEOUT_S) as conn:
        found = views.event_summaries(conn, event_id)
        if not found or not may_read_event(current_token(), event_id, found[0].visibility, found[0].organiser):
            return _not_found(f"event {event_id}")
        disputes = views.dispute_summaries(conn, event_id=event_id)
    disputes.sort(key=lambda o: o.status != "open")  # stable: newest first within open, then resolved
    event = found[0]
    set_page_game(event.game)
    panel = Panel("event-disputes", f"Disputes ({sum(o.status == 'open' for o in disputes)} open)",
                  table=disputes_table(disputes),
                  note="Open disputes first. Each links to its desk: the uploads side by side, the ruling.",
                  csv_url=url_for("events.event_csv", event_id=event_id, table="disputes"))
    return render_template("event_disputes.html", page_title=f"Disputes of {event.name}", panels=[panel],
                           event_url=url_for("events.event", event_id=event_id), game_name=game_name(event.game))
