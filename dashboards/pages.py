"""The meta dashboards: one GET per page, the query string is the filter state (shareable URLs).

Every page reads only the aggregate statistics (services.stats.queries, on one read-only snapshot)
and the public events for the filter form (services.games.views); a bad filter is the page again with a 400 and the
parameter named, never a 500. Each panel links its CSV (GET /download/<dataset>.csv?<same query>).
"""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.datastructures import MultiDict

from services.games import views
from services.stats import queries
from services.stats.filters import PARAMETERS, FilterError, Filters, parse_filters
from services.stats.names import catalog_names, check_names

from . import figures
from .datasets import DATASETS, to_csv
from .panels import Panel, Table, number, rate_cell

blueprint = Blueprint("pages", __name__, template_folder="templates")

NAV = [
    ("pages.meta", "Meta"), ("pages.matchups", "Matchups"), ("pages.trends", "Trends"),
    ("pages.battlefields", "Battlefields"), ("pages.game_shape", "First player & game shape"),
    ("pages.cards", "Cards"), ("events.events", "Events & disputes"), ("record.record_page", "Record a game"),
]
MAX_EVENT_OPTIONS = 500


@blueprint.app_context_processor
def navigation() -> dict:
    """The nav bar on every page; the meta pages carry their filters from page to page."""
    args = {k: v for k, v in request.args.to_dict(flat=False).items() if k in PARAMETERS}
    return {"nav_pages": NAV, "nav_args": args}


def _pool():
    # statistics only: a read replica when there is one (EMPYREAN_READ_DATABASE_URL)
    return current_app.extensions["empyrean"].read_pool


def form_filters() -> Filters:
    """The filters of a page's query string. The form sends every field, empty ones too ("any"),
    so empty values are dropped here; anything else goes through the API's own parser."""
    return parse_filters(MultiDict([(k, v) for k, v in request.args.items(multi=True) if v.strip()]))


def _render(page_title: str, intro: str, compute, status: int = 200):
    """Parse the filters, run ``compute(conn, filters) -> list[Panel]`` on one snapshot, render."""
    error = None
    try:
        filters = form_filters()
    except FilterError as exc:
        error, filters, status = exc, Filters(), 400
    with _pool().connection() as conn:
        queries.read_snapshot(conn)
        # unlisted events are not offered (docs/security.md, "Visibility"); ?event=ID still filters by one
        events = views.public_event_names(conn, MAX_EVENT_OPTIONS)
        if error is None:
            try:
                check_names(conn, filters)
            except FilterError as exc:
                error, filters, status = exc, Filters(), 400
        panels = [] if error else compute(conn, filters)
    decks, battlefields = catalog_names()
    html = render_template("meta.html", page_title=page_title, intro=intro, panels=panels, filters=filters,
                           error=error, events=events, deck_options=decks, battlefield_options=battlefields,
                           query=request.query_string.decode("latin-1"))
    return Response(html, status=status, mimetype="text/html")


@blueprint.get("/")
def home():
    return redirect(url_for("pages.meta", **request.args.to_dict(flat=False)))


# --- pages -----------------------------------------------------------------------------------


@blueprint.get("/meta")
def meta():
    def compute(conn, f: Filters) -> list[Panel]:
        rows = queries.deck_stats(conn, f)
        table = Table(["deck", "games", "wins", "draws", "win rate (95% CI)", "meta share"],
                      [[r["deck"], r["games"], r["wins"], r["draws"], rate_cell(r["win_rate"]),
                        figures.percent(r["meta_share"])] for r in rows],
                      thin=[r["thin"] for r in rows], numeric={1, 2, 3})
        return [
            Panel("win-rates", "Win rates", figures.deck_win_rates(rows, f.min_games), table, "decks",
                  note="Sorted by the interval's lower bound, so a deck with few games cannot top the list on luck."),
            Panel("meta-share", "Meta share", figures.meta_share(rows, f.min_games), dataset="decks"),
        ]
    return _render("Meta overview", "Which decks win, and how much they are played.", compute)


@blueprint.get("/matchups")
def matchups():
    def compute(conn, f: Filters) -> list[Panel]:
        rows = queries.matchup_stats(conn, f)
        table = Table(["deck", "opponent", "games", "wins", "draws", "win rate (95% CI)"],
                      [[r["deck"], r["opponent_deck"], r["games"], r["wins"], r["draws"], rate_cell(r["win_rate"])]
                       for r in rows if r["games"]], thin=[r["thin"] for r in rows if r["games"]], numeric={2, 3, 4})
        return [Panel("matchups", "Matchup matrix", figures.matchup_matrix(rows, f.min_games), table, "matchups",
                      note="Hover a cell for n and the interval; ✕ marks cells with fewer games than the minimum.")]
    return _render("Matchups", "Each deck against each other deck.", compute)


@blueprint.get("/trends")
def trends():
    def compute(conn, f: Filters) -> list[Panel]:
        rows = queries.trend_stats(conn, f)
        table = Table(["week", "deck", "games", "meta share", "win rate (95% CI)"],
                      [[r["week"], r["deck"], r["games"], figures.percent(r["meta_share"]), rate_cell(r["win_rate"])]
                       for r in rows], thin=[r["thin"] for r in rows], numeric={2})
        return [Panel("trend-share", "Meta share by week", figures.trend_meta_share(rows), dataset="trends"),
                Panel("trend-win-rates", "Win rate by week", figures.trend_win_rates(rows, f.min_games), table,
                      "trends")]
    return _render("Trends", "How the meta shifts week by week (ISO weeks, Monday to Sunday).", compute)


@blueprint.get("/battlefields")
def battlefields():
    def compute(conn, f: Filters) -> list[Panel]:
        rows, first = queries.battlefield_stats(conn, f)
        table = Table(["battlefield", "deck", "games", "win rate here (95% CI)", "deck overall", "difference",
                       "won the battlefield", "average might"],
                      [[r["battlefield"], r["deck"], r["games"], rate_cell(r["win_rate"]),
                        figures.percent(r["deck_win_rate"]["rate"]),
                        "–" if r["difference"] is None else f"{100 * r['difference']:+.1f} pts",
                        figures.percent(r["battlefield_win_rate"]["rate"]), number(r["average_might"])]
                       for r in rows if r["games"]], thin=[r["thin"] for r in rows if r["games"]], numeric={2, 7})
        first_table = Table(["battlefield", "games", "first player won it (95% CI)", "first player won the game"],
                            [[r["battlefield"], r["games"], rate_cell(r["first_player_battlefield_win_rate"]),
                              rate_cell(r["first_player_game_win_rate"])] for r in first],
                            thin=[r["thin"] for r in first], numeric={1})
        return [Panel("battlefield-impact", "Battlefield × deck", figures.battlefield_impact(rows, f.min_games),
                      table, "battlefields"),
                Panel("battlefield-first-player", "First player per battlefield",
                      figures.battlefield_first_player(first, f.min_games), first_table, "battlefield-first-player")]
    return _render("Battlefields", "How each battlefield shifts each deck's chances.", compute)


@blueprint.get("/game-shape")
def game_shape():
    def compute(conn, f: Filters) -> list[Panel]:
        overall, weeks = queries.first_player_stats(conn, f)
        summary, margins = queries.margin_stats(conn, f)
        rounds = queries.round_stats(conn, f)
        note = "The deck filter does not apply to the first player or to margins."
        played_out = "Games played to the tally only: games conceded or stopped by time are left out."
        round_note = played_out + (" The battlefield filter does not apply here (might per round is not kept per "
                                   "battlefield)." if f.battlefield else "")
        return [Panel("first-player", "First-player advantage", figures.first_player_trend(overall, weeks),
                      dataset="first-player", note=note),
                Panel("margins", "Final might margins", figures.margin_distribution(summary, margins),
                      dataset="margins", note=played_out),
                Panel("rounds", "Might per round", figures.might_per_round(rounds, f.min_games), dataset="rounds",
                      note=round_note)]
    return _render("First player & game shape", "Seat advantage, how close games are, how they unfold.", compute)


@blueprint.get("/cards")
def cards():
    def compute(conn, f: Filters) -> list[Panel]:
        rows = queries.card_stats(conn, f)
        rows.sort(key=lambda r: (r["deck"], -(r["difference"] if r["difference"] is not None else -9)))
        table = Table(["deck", "card", "games deployed", "deploy rate", "win rate deployed (95% CI)",
                       "win rate not deployed (95% CI)", "difference", "average might contributed",
                       "average first round deployed"],
                      [[r["deck"], r["card"], r["games_deployed"], figures.percent(r["deploy_rate"]),
                        rate_cell(r["win_rate_deployed"]), rate_cell(r["win_rate_not_deployed"]),
                        "–" if r["difference"] is None else f"{100 * r['difference']:+.1f} pts",
                        number(r["average_might_contributed"]), number(r["average_first_deploy_round"])]
                       for r in rows], thin=[r["thin"] for r in rows], numeric={2, 7, 8})
        return [Panel("cards", "Card performance", figures.card_impact(rows, f.min_games), table, "cards",
                      note="Each card: games its deck played with it deployed vs without, every rate with its n.")]
    return _render("Cards", "Which cards carry a deck.", compute)


# --- CSV -------------------------------------------------------------------------------------


@blueprint.get("/download/<name>.csv")
def download(name: str):
    dataset = DATASETS.get(name)
    if dataset is None:
        return Response(f"no dataset {name!r}; there are: {', '.join(DATASETS)}\n", status=404,
                        mimetype="text/plain")
    try:
        filters = form_filters()
    except FilterError as exc:
        return Response(f"query parameter '{exc.parameter}': {exc.message}\n", status=400, mimetype="text/plain")
    with _pool().connection() as conn:
        queries.read_snapshot(conn)
        try:
            check_names(conn, filters)
        except FilterError as exc:
            return Response(f"query parameter '{exc.parameter}': {exc.message}\n", status=400, mimetype="text/plain")
        rows = dataset(conn, filters)
    return Response(to_csv(rows), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="empyrean-{name}.csv"'})
