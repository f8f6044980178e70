"""Events and disputes: the events of every game (``/events``, each row saying its game; ``?game=<key>``
one game's) and of one game under its key (``/<key>/events``, dashboards/games.py); per event its
standings, its games by verdict and its disputes, each side of a dispute and each flagged game linked
to the replay viewer, each player to their page. An event is of one game: its page is that game's.

Everything shown is read by services.games.views (the reads the events API makes too): counts by
status from the per-event aggregate, an event's disputes (a handful of rows) and its flagged games
(through a partial index); the standings from its matches with every upload's verdict and record
seats (services.games.standings decides, as GET /api/v1/events/{id}/standings does).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for

from engine import games
from services.api.access import current_token, may_read_event
from services.games import standings, views
from services.games.status import FINISHED, PENDING, GameStatus

from . import figures
from .datasets import to_csv
from .games import events_url, game_choices, game_filter, game_name, known_or_404, set_page_game
from .panels import Link, Panel, Table, number
from .players import player_links

blueprint = Blueprint("events", __name__, template_folder="templates")

VERDICTS = tuple(str(s) for s in GameStatus if s in FINISHED)  # valid, illegal, mismatch, malformed, error
MAX_FLAGGED = 200
MAX_STANDING_ROWS = 1000  # players (and matches left out) drawn on the page; the CSVs and the API have all
# disputes drawn on the event page (the open ones first); the CSV, its disputes page and the API have all
MAX_DISPUTE_ROWS = 200


def replay_path(game_id: int) -> str:
    """The replay viewer of a game (dashboards.replay)."""
    return f"/games/{game_id}/replay"


def _verdicts(counts: dict[str, int]) -> dict[str, int]:
    out = {v: counts.get(v, 0) for v in VERDICTS}
    out["pending"] = sum(counts.get(s, 0) for s in PENDING)
    return out


def _summary(e: views.EventSummary) -> dict:
    return {"id": e.id, "name": e.name, "game": e.game, "game_name": game_name(e.game),
            "starts_on": e.starts_on, "ends_on": e.ends_on,
            "played_from": e.played_from, "played_to": e.played_to,
            "games": sum(e.games.values()), "verdicts": _verdicts(e.games), "open_disputes": e.open_disputes}


def _pool():
    return current_app.extensions["empyrean"].db_pool


def _all_summaries(game: str | None) -> list[dict]:
    with _pool().connection() as conn:
        return [_summary(e) for e in views.event_summaries(conn, game=game)]


def _events_page(game: str | None):
    """The events list: of every game (``game`` None), each row saying its game, or of one game."""
    set_page_game(game)
    summaries = _all_summaries(game)
    table = Table(["event", "game", "dates", "games", *VERDICTS, "pending", "open disputes"],
                  [[Link(e["name"], f"/events/{e['id']}"), Link(e["game_name"], events_url(e["game"])), _dates(e),
                    e["games"], *[e["verdicts"][v] for v in VERDICTS], e["verdicts"]["pending"], e["open_disputes"]]
                   for e in summaries], numeric=set(range(3, 10)), phrase={0, 1})
    panel = Panel("events", "Events", figures.event_verdicts(summaries[:40]), table,
                  note="The 40 newest events are drawn; the table has them all (newest first).",
                  csv_url=url_for("events.events_csv", **({"game": game} if game else {})))
    title = f"Events & disputes of {game_name(game)}" if game else "Events & disputes"
    return render_template("events.html", page_title=title, panels=[panel], event=None, game=game,
                           choices=game_choices(game, events_url), every_game_url=url_for("events.events"))


@blueprint.get("/events")
def events():
    """Every game's events; ``?game=<key>`` one game's."""
    return _events_page(game_filter())


@blueprint.get("/<game>/events")
def game_events(game: str):
    """One game's events, in its navigation (Battle for Empyrean's /bfe/events is /events: games.bfe_page)."""
    known_or_404(game)
    if game == games.DEFAULT_GAME:
        return redirect(url_for("events.events", **request.args.to_dict(flat=False)))
    return _events_page(game)


@blueprint.get("/events.csv")
def events_csv():
    rows = [{"id": e["id"], "name": e["name"], "game": e["game"], "starts_on": e["starts_on"], "ends_on": e["ends_on"],
             "games": e["games"], **e["verdicts"], "open_disputes": e["open_disputes"]}
            for e in _all_summaries(game_filter())]
    return _csv(rows, "events")


def _csv(rows: list[dict], name: str, columns: list[str] | None = None) -> Response:
    return Response(to_csv(rows, columns), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="empyrean-{name}.csv"'})


def _dates(e: dict) -> str:
    """The event's dates as its organiser set them; else the days its counted games were played."""
    if e["starts_on"] or e["ends_on"]:
        return _span(e["starts_on"], e["ends_on"])
    if e["played_from"]:
        return _span(e["played_from"], e["played_to"]) + " (games)"
    return ""


def _span(first, last) -> str:
    if first and last and last != first:
        return f"{first} – {last}"
    return str(first or last)


@dataclass(frozen=True)
class _Detail:
    """What an event's page and its CSVs show, read on one connection."""

    summary: dict
    disputes: list[views.DisputeSummary]  # the open ones first
    flagged: list[dict]
    standings: standings.Standings | None  # with_standings only
    outside: int  # games in no match (views.games_outside_matches)


def _event_detail(event_id: int, *, with_standings: bool = True) -> _Detail | None:
    """One event's summary, disputes (the open ones first), flagged games and (``with_standings``)
    standings; None when there is no such event (or it is unlisted: a browser sends no token)."""
    if event_id > views.MAX_ID:
        return None
    with _pool().connection() as conn:
        found = views.event_summaries(conn, event_id)
        # an unlisted event: only with a token that may see it (a browser sends none)
        if not found or not may_read_event(current_token(), event_id, found[0].visibility, found[0].organiser):
            return None
        disputes = views.dispute_summaries(conn, event_id=event_id)
        flagged = views.flagged_games(conn, event_id, MAX_FLAGGED)
        table = views.event_standings(conn, event_id) if with_standings else None
        outside = views.games_outside_matches(conn, event_id) if with_standings else 0
    disputes.sort(key=lambda d: d.status != "open")  # stable: newest first within open, then resolved
    return _Detail(_summary(found[0]), disputes, flagged, table, outside)


def uploaded_by_text(uploaded_by: dict | None) -> str:
    """Who uploaded a game as the service knows it (its API token), in words; the X-Uploader label is
    shown apart, as a label."""
    if uploaded_by is None:
        return "not recorded (uploaded before the service kept it)"
    name = f", token {uploaded_by['name']!r}" if uploaded_by["name"] else ""
    return f"{uploaded_by['owner']} ({uploaded_by['role']}{name})"


def counts_text(d: views.DisputeSummary) -> str:
    """Which game of a disputed match the statistics count, in words."""
    if d.status == "open":
        return "none until resolved"
    return f"game {d.counts_game_id}" if d.counts_game_id else "none"


def disputes_table(disputes: list[views.DisputeSummary]) -> Table:
    """An event's disputes, each linked to its desk (dashboards.disputes) and each upload to its replay,
    with the ruling of those resolved."""
    return Table(
        ["dispute", "status", "round", "table", "players", "why", "counts", "ruling", "uploads (replay)", "game"],
        [[Link(f"#{d.id}", url_for("dispute_desk.dispute_page", dispute_id=d.id)), d.status, d.round,
          d.table_label, player_links(d.players, d.game), d.reason, counts_text(d), d.resolution or "–",
          [Link(f"game {g} ({s})", replay_path(g)) for g, s in zip(d.games, d.statuses)], game_name(d.game)]
         for d in disputes], numeric={2}, prose={5, 7}, phrase={4, 6, 8, 9})


def _not_found(event_id: int):
    return render_template("not_found.html", page_title="No such event",
                           message=f"There is no event {event_id}."), 404


def standings_note(table: standings.Standings) -> str:
    """What the standings panel says of how it counts, with the event's points (and, a game decided by
    ranks, what its scores are)."""
    scores = SCORES_NOTE if table.scored else ""
    return f"From the counted matches only. Points: {table.points.words()}. {scores}{TIE_BREAKERS_NOTE}"


SCORES_NOTE = ("Total score: the player's scores in the game's own terms over their counted games; mean score: "
               "per game. Shown, not compared: the places already rank each table. ")


TIE_BREAKERS_NOTE = (
    "Ties are broken by opponents' match-win % (OMW: each opponent's points / the most their matches could "
    "give, at least 33%), then game-win % (GW: one game per match, so the player's own match-win %, at least "
    "33%), then opponents' opponents' match-win % (OOMW). "
    "'Left out': the player's matches not counted yet (disputed, waiting for a replay, no valid upload).")


SCORE_COLUMNS = ["total score", "mean score"]  # a game decided by ranks (Standings.scored), after the W–D–L


def _standings_table(table: standings.Standings, game: str) -> Table:
    scores = SCORE_COLUMNS if table.scored else []
    return Table(
        ["#", "player", "points", "W–D–L", *scores, "OMW", "GW", "OOMW", "left out", "deck"],
        [[r.rank, player_links([r.player], game)[0], d["points"], f"{r.wins}–{r.draws}–{r.losses}",
          *([d["total_score"], number(d["mean_score"])] if table.scored else []),
          figures.percent(d["opponents_match_win"]), figures.percent(d["game_win"]),
          figures.percent(d["opponents_opponents_match_win"]), r.left_out or "", ", ".join(r.decks) or "–"]
         for r, d in ((r, r.as_dict(table.scored)) for r in table.rows[:MAX_STANDING_ROWS])],
        numeric=set(range(len(scores) + 8)) - {1})


def _left_out_table(left_out: list[standings.Settled], game: str) -> Table:
    return Table(["round", "table", "players", "state", "why", "uploads (replay)"],
                 [[s.match.round, s.match.table, player_links(s.match.players, game), s.state, s.why,
                   [Link(f"game {g.id} ({g.status})", replay_path(g.id)) for g in s.match.games]]
                  for s in left_out[:MAX_STANDING_ROWS]], numeric={0}, prose={4}, phrase={2, 3, 5})


def _more(shown: int, total: int, what: str) -> str:
    return (f" The first {shown:,} of {total:,} {what} are drawn here; the CSV and the API have them all."
            if total > shown else "")


@blueprint.get("/events/<int:event_id>")
def event(event_id: int):
    detail = _event_detail(event_id)
    if detail is None:
        return _not_found(event_id)
    summary, disputes, flagged = detail.summary, detail.disputes, detail.flagged
    dispute_table = disputes_table(disputes[:MAX_DISPUTE_ROWS])
    set_page_game(summary["game"])
    flagged_table = Table(
        ["game", "verdict", "why", "uploaded by (token)", "label (X-Uploader, unchecked)", "received", "which game"],
        [[Link(f"game {g['id']}", replay_path(g["id"])), g["status"], g["status_message"],
          uploaded_by_text(g["uploaded_by"]), g["uploader"] or "",
          g["received_at"].strftime("%Y-%m-%d %H:%M"), game_name(g["game"])] for g in flagged],
        prose={2}, phrase={3, 4, 5, 6})
    def csv(table: str) -> str:
        return url_for("events.event_csv", event_id=event_id, table=table)

    counted, left_out = detail.standings.counted, detail.standings.left_out
    outside = (f" {detail.outside} of its games name no round, table or players in their logs: they are in no "
               "match and not in the standings." if detail.outside else "")
    game = summary["game"]
    panels = [
        Panel("standings", f"Standings ({counted} counted matches)", table=_standings_table(detail.standings, game),
              note=standings_note(detail.standings) + outside
              + _more(MAX_STANDING_ROWS, len(detail.standings.rows), "players"),
              csv_url=csv("standings")),
        Panel("left-out", f"Matches not in the standings ({len(left_out)})", table=_left_out_table(left_out, game),
              note="Disputed, waiting for their replay, or with no valid upload: counted once settled."
                   + _more(MAX_STANDING_ROWS, len(left_out), "matches"), csv_url=csv("left-out")),
        Panel("event-verdicts", "Games by verdict", figures.event_verdicts([summary])),
        Panel("disputes", f"Disputes ({sum(d.status == 'open' for d in disputes)} open)", table=dispute_table,
              note="Open disputes first. Each dispute links to its desk (both uploads side by side, the ruling); "
                   "each upload of the match to its replay." + _more(MAX_DISPUTE_ROWS, len(disputes), "disputes"),
              csv_url=csv("disputes")),
        Panel("flagged", "Games that are not valid", table=flagged_table, csv_url=csv("flagged"),
              note=f"Illegal, mismatched, malformed or failed games (up to {MAX_FLAGGED}), each with its replay."),
    ]
    return render_template("events.html", page_title=summary["name"], panels=panels, event=summary,
                           game_events_url=events_url(summary["game"]),
                           meta_url=url_for("pages.meta", event=event_id) if summary["game"] == games.DEFAULT_GAME
                           else url_for("games.index", game=summary["game"]))


# the standings' columns are the API's (standings.Row.as_dict: with scores for a game decided by ranks)
EVENT_CSV_COLUMNS = {
    "left-out": ["match", "round", "table", "players", "state", "why", "dispute", "games", "statuses"],
    "disputes": ["dispute", "status", "round", "table", "players", "reason", "resolution", "counts", "games",
                 "statuses"],
    "flagged": ["game", "status", "why", "uploaded_by", "uploader_label", "received_at"],
}


@blueprint.get('/events/<int:event_id>/<any(standings, "left-out", disputes, flagged):table>.csv')
def event_csv(event_id: int, table: str):
    detail = _event_detail(event_id, with_standings=table in ("standings", "left-out"))
    if detail is None:
        return _not_found(event_id)
    columns = EVENT_CSV_COLUMNS.get(table)
    if table == "standings":
        scored = detail.standings.scored
        columns = list(standings.Row("").as_dict(scored))
        rows = [{**r.as_dict(scored), "decks": ", ".join(r.decks)} for r in detail.standings.rows]
    elif table == "left-out":
        rows = [{"match": s.match.id, "round": s.match.round, "table": s.match.table,
                 "players": ", ".join(s.match.players), "state": s.state, "why": s.why,
                 "dispute": s.match.dispute.id if s.match.dispute else None,
                 "games": " ".join(str(g.id) for g in s.match.games),
                 "statuses": " ".join(g.status for g in s.match.games)} for s in detail.standings.left_out]
    elif table == "disputes":
        rows = [{"dispute": d.id, "status": d.status, "round": d.round, "table": d.table_label,
                 "players": ", ".join(d.players), "reason": d.reason, "resolution": d.resolution,
                 "counts": d.counts_game_id,
                 "games": " ".join(map(str, d.games)), "statuses": " ".join(d.statuses)} for d in detail.disputes]
    else:
        rows = [{"game": g["id"], "status": g["status"], "why": g["status_message"],
                 "uploaded_by": uploaded_by_text(g["uploaded_by"]), "uploader_label": g["uploader"],
                 "received_at": g["received_at"].isoformat()} for g in detail.flagged]
    return _csv(rows, f"event-{event_id}-{table}", columns)
