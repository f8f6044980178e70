"""Events and disputes: per event its games by verdict and its disputes, each side of a dispute and
each flagged game linked to the replay viewer.

Everything shown is read by services.games.views (the reads the events API makes too): counts by
status from the per-event aggregate, an event's disputes (a handful of rows) and its flagged games
(through a partial index), never the event's valid games.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, url_for

from services.api.access import current_token, may_read_event
from services.games import views
from services.games.status import FINISHED, PENDING, GameStatus

from . import figures
from .datasets import to_csv
from .panels import Link, Panel, Table

blueprint = Blueprint("events", __name__, template_folder="templates")

VERDICTS = tuple(str(s) for s in GameStatus if s in FINISHED)  # valid, illegal, mismatch, malformed, error
MAX_FLAGGED = 200


def replay_path(game_id: int) -> str:
    """The replay viewer of a game (dashboards.replay)."""
    return f"/games/{game_id}/replay"


def _verdicts(counts: dict[str, int]) -> dict[str, int]:
    out = {v: counts.get(v, 0) for v in VERDICTS}
    out["pending"] = sum(counts.get(s, 0) for s in PENDING)
    return out


def _summary(e: views.EventSummary) -> dict:
    return {"id": e.id, "name": e.name, "starts_on": e.starts_on, "ends_on": e.ends_on,
            "games": sum(e.games.values()), "verdicts": _verdicts(e.games), "open_disputes": e.open_disputes}


def _pool():
    return current_app.extensions["empyrean"].db_pool


def _all_summaries() -> list[dict]:
    with _pool().connection() as conn:
        return [_summary(e) for e in views.event_summaries(conn)]


@blueprint.get("/events")
def events():
    summaries = _all_summaries()
    table = Table(["event", "dates", "games", *VERDICTS, "pending", "open disputes"],
                  [[Link(e["name"], f"/events/{e['id']}"), _dates(e), e["games"],
                    *[e["verdicts"][v] for v in VERDICTS], e["verdicts"]["pending"], e["open_disputes"]]
                   for e in summaries], numeric=set(range(2, 9)))
    panel = Panel("events", "Events", figures.event_verdicts(summaries[:40]), table,
                  note="The 40 newest events are drawn; the table has them all (newest first).",
                  csv_url=url_for("events.events_csv"))
    return render_template("events.html", page_title="Events & disputes", panels=[panel], event=None)


@blueprint.get("/events.csv")
def events_csv():
    rows = [{"id": e["id"], "name": e["name"], "starts_on": e["starts_on"], "ends_on": e["ends_on"],
             "games": e["games"], **e["verdicts"], "open_disputes": e["open_disputes"]} for e in _all_summaries()]
    return _csv(rows, "events")


def _csv(rows: list[dict], name: str, columns: list[str] | None = None) -> Response:
    return Response(to_csv(rows, columns), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="empyrean-{name}.csv"'})


def _dates(e: dict) -> str:
    if e["starts_on"] and e["ends_on"] and e["ends_on"] != e["starts_on"]:
        return f"{e['starts_on']} – {e['ends_on']}"
    return str(e["starts_on"] or e["ends_on"] or "")


def _event_detail(event_id: int) -> tuple[dict, list[views.DisputeSummary], list[dict]] | None:
    """(summary, disputes with the open ones first, flagged games) of one event; None when there is
    no such event."""
    if event_id > views.MAX_ID:
        return None
    with _pool().connection() as conn:
        found = views.event_summaries(conn, event_id)
        # an unlisted event: only with a token that may see it (a browser sends none)
        if not found or not may_read_event(current_token(), event_id, found[0].visibility, found[0].organiser):
            return None
        disputes = views.dispute_summaries(conn, event_id=event_id)
        flagged = views.flagged_games(conn, event_id, MAX_FLAGGED)
    disputes.sort(key=lambda d: d.status != "open")  # stable: newest first within open, then resolved
    return _summary(found[0]), disputes, flagged


def uploaded_by_text(uploaded_by: dict | None) -> str:
    """Who uploaded a game as the service knows it (its API token), in words; the X-Uploader label is
    shown apart, as a label."""
    if uploaded_by is None:
        return "not recorded (uploaded before the service kept it)"
    name = f", token {uploaded_by['name']!r}" if uploaded_by["name"] else ""
    return f"{uploaded_by['owner']} ({uploaded_by['role']}{name})"


def _not_found(event_id: int):
    return render_template("not_found.html", page_title="No such event",
                           message=f"There is no event {event_id}."), 404


@blueprint.get("/events/<int:event_id>")
def event(event_id: int):
    detail = _event_detail(event_id)
    if detail is None:
        return _not_found(event_id)
    summary, disputes, flagged = detail
    dispute_table = Table(
        ["dispute", "status", "round", "table", "players", "why", "counts", "uploads (replay)"],
        [[Link(f"#{d.id}", f"/api/v1/disputes/{d.id}"), d.status, d.round, d.table_label,
          ", ".join(d.players), d.reason,
          "none until resolved" if d.status == "open" else (f"game {d.counts_game_id}" if d.counts_game_id
                                                              else "none"),
          [Link(f"game {g} ({s})", replay_path(g)) for g, s in zip(d.games, d.statuses)]]
         for d in disputes], numeric={2})
    flagged_table = Table(
        ["game", "verdict", "why", "uploaded by (token)", "label (X-Uploader, unchecked)", "received"],
        [[Link(f"game {g['id']}", replay_path(g["id"])), g["status"], g["status_message"],
          uploaded_by_text(g["uploaded_by"]), g["uploader"] or "",
          g["received_at"].strftime("%Y-%m-%d %H:%M")] for g in flagged])
    def csv(table: str) -> str:
        return url_for("events.event_csv", event_id=event_id, table=table)

    panels = [
        Panel("event-verdicts", "Games by verdict", figures.event_verdicts([summary])),
        Panel("disputes", f"Disputes ({sum(d.status == 'open' for d in disputes)} open)", table=dispute_table,
              note="Open disputes first. Each upload of the match links to its replay.", csv_url=csv("disputes")),
        Panel("flagged", "Games that are not valid", table=flagged_table, csv_url=csv("flagged"),
              note=f"Illegal, mismatched, malformed or failed games (up to {MAX_FLAGGED}), each with its replay."),
    ]
    return render_template("events.html", page_title=summary["name"], panels=panels, event=summary)


EVENT_CSV_COLUMNS = {
    "disputes": ["dispute", "status", "round", "table", "players", "reason", "resolution", "counts", "games",
                 "statuses"],
    "flagged": ["game", "status", "why", "uploaded_by", "uploader_label", "received_at"],
}


@blueprint.get("/events/<int:event_id>/<any(disputes, flagged):table>.csv")
def event_csv(event_id: int, table: str):
    detail = _event_detail(event_id)
    if detail is None:
        return _not_found(event_id)
    _, disputes, flagged = detail
    if table == "disputes":
        rows = [{"dispute": d.id, "status": d.status, "round": d.round, "table": d.table_label,
                 "players": ", ".join(d.players), "reason": d.reason, "resolution": d.resolution,
                 "counts": d.counts_game_id,
                 "games": " ".join(map(str, d.games)), "statuses": " ".join(d.statuses)} for d in disputes]
    else:
        rows = [{"game": g["id"], "status": g["status"], "why": g["status_message"],
                 "uploaded_by": uploaded_by_text(g["uploaded_by"]), "uploader_label": g["uploader"],
                 "received_at": g["received_at"].isoformat()} for g in flagged]
    return _csv(rows, f"event-{event_id}-{table}", EVENT_CSV_COLUMNS[table])
