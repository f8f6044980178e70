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

from engine import games
from services.games import views
from services.platform.tokens import Reader
from services.stats import queries
from services.stats.filters import FilterError, Filters, parse_filters
from services.stats.names import card_facts, catalog_names, check_names, deck_order, hide_unreadable, short_deck_names
from services.stats.significance import battlefield_evidence, matchup_evidence

from . import figures
from .datasets import DATASETS, dataset_game, to_csv
from .panels import Panel, Table, evidence_cell, number, rate_cell

blueprint = Blueprint("pages", __name__, template_folder="templates")

# Battle for Empyrean's pages in the navigation (dashboards/games.py draws it, with the game switcher)
NAV = [
    ("pages.meta", "Meta"), ("pages.matchups", "Matchups"), ("pages.trends", "Trends"),
    ("pages.battlefields", "Battlefields"), ("pages.game_shape", "First player & game shape"),
    ("pages.cards", "Cards"), ("events.events", "Events & disputes"), ("record.record_page", "Record a game"),
]
MAX_EVENT_OPTIONS = 500
HEATMAP_NOTE = ("Each cell shows its value and n; hover for the 95% interval and the test. A cell is faded when it "
                "has fewer than {min_games} games, or when its difference from {even} could be luck: each cell is "
                "tested, then the Benjamini–Hochberg correction across the whole heatmap allows for testing so "
                "many cells at once (docs/dashboards.md, \"Reading the heatmaps\").")


def _pool():
    # statistics only: a read replica when there is one (EMPYREAN_READ_DATABASE_URL)
    return current_app.extensions["empyrean"].read_pool


def form_args() -> MultiDict:
    """A page's query string without its empty values: the form sends every field, empty ones too
    ("any")."""
    return MultiDict([(k, v) for k, v in request.args.items(multi=True) if v.strip()])


def form_filters(game: str = games.DEFAULT_GAME) -> Filters:
    """The filters of a page's query string (of statistics of ``game``), through the API's own parser."""
    return parse_filters(form_args(), game)


def points(difference: float | None) -> str:
    """A difference of rates in percentage points, "+4.2 pts"; "0.0 pts", never "-0.0", near zero."""
    return "–" if difference is None else figures.signed(100 * difference, 1) + " pts"


def render_stats(page_title: str, intro: str, compute, game: str = games.DEFAULT_GAME, refuse=None):
    """Parse the filters (of statistics of ``game``; ``refuse(args)`` raises the FilterError of a
    parameter the page does not take), run ``compute(conn, filters) -> list[Panel]`` on one snapshot,
    render. The form offers decks and battlefields for Battle for Empyrean only; another game's page
    has that game's switcher and navigation."""
    if game != games.DEFAULT_GAME:
        from .games import set_page_game  # here: dashboards.games imports this module (its navigation)

        set_page_game(game)
    error, status = None, 200
    try:
        if refuse is not None:
            refuse(form_args())
        filters = form_filters(game)
    except FilterError as exc:
        error, filters, status = exc, parse_filters(MultiDict(), game), 400
    with _pool().connection() as conn:
        queries.read_snapshot(conn)
        # unlisted events are not offered (docs/security.md, "Visibility"); ?event=ID still filters by one.
        # These are the game's statistics: another game's events would show nothing.
        events = views.public_event_names(conn, MAX_EVENT_OPTIONS, game)
        if error is None:
            try:
                check_names(conn, filters)
            except FilterError as exc:
                error, filters, status = exc, parse_filters(MultiDict(), game), 400
            filters = hide_unreadable(conn, filters, Reader())  # the pages are anyone's
        panels = [] if error else compute(conn, filters)
    decks, battlefields = catalog_names() if game == games.DEFAULT_GAME else ([], [])
    info = games.info(game)
    html = render_template("meta.html", page_title=page_title, intro=intro, panels=panels, filters=filters,
                           error=error, events=events, deck_options=decks, short_names=short_deck_names(decks),
                           battlefield_options=battlefields,
                           player_options=list(range(info.min_players, info.max_players + 1)),
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
                      thin=[r["thin"] for r in rows], numeric={1, 2, 3}, secondary={2, 3})
        return [
            Panel("win-rates", "Win rates", figures.deck_win_rates(rows, f.min_games), table, "decks",
                  note="Sorted by the interval's lower bound, so a deck with few games cannot top the list on luck."),
            Panel("meta-share", "Meta share", figures.meta_share(rows, f.min_games), dataset="decks"),
        ]
    return render_stats("Meta overview", "Which decks win, and how much they are played.", compute)


@blueprint.get("/matchups")
def matchups():
    def compute(conn, f: Filters) -> list[Panel]:
        rows = queries.matchup_stats(conn, f)
        evidence = matchup_evidence(rows)
        order = {deck: i for i, deck in enumerate(deck_order(r["deck"] for r in rows))}
        shown = sorted((i for i, r in enumerate(rows) if r["games"]),
                       key=lambda i: (order[rows[i]["deck"]], order.get(rows[i]["opponent_deck"], len(order)),
                                      rows[i]["opponent_deck"]))
        table = Table(["deck", "opponent", "games", "wins", "draws", "win rate (95% CI)",
                       "clearly not 50%? (adjusted p)"],
                      [[rows[i]["deck"], rows[i]["opponent_deck"], rows[i]["games"], rows[i]["wins"], rows[i]["draws"],
                        rate_cell(rows[i]["win_rate"]), evidence_cell(evidence[i])] for i in shown],
                      thin=[rows[i]["thin"] for i in shown], numeric={2, 3, 4}, secondary={3, 4})
        return [Panel("matchups", "Matchup matrix", figures.matchup_matrix(rows, f.min_games, evidence), table,
                      "matchups", note=HEATMAP_NOTE.format(even="50%", min_games=f.min_games))]
    return render_stats("Matchups", "Each deck against each other deck.", compute)


@blueprint.get("/trends")
def trends():
    def compute(conn, f: Filters) -> list[Panel]:
        rows = queries.trend_stats(conn, f)
        table = Table(["week", "deck", "games", "meta share", "win rate (95% CI)"],
                      [[r["week"], r["deck"], r["games"], figures.percent(r["meta_share"]), rate_cell(r["win_rate"])]
                       for r in rows], thin=[r["thin"] for r in rows], numeric={2}, secondary={3})
        return [Panel("trend-share", "Meta share by week", figures.trend_meta_share(rows), dataset="trends"),
                Panel("trend-win-rates", "Win rate by week",
                      figures.trend_win_rates(rows, f.min_games, len(f.decks) if f.decks else figures.DEFAULT_DRAWN),
                      table, "trends",
                      note=f"The {figures.DEFAULT_DRAWN} most played decks are drawn; pick others below the chart.")]
    return render_stats("Trends", "How the meta shifts week by week (ISO weeks, Monday to Sunday).", compute)


@blueprint.get("/battlefields")
def battlefields():
    def compute(conn, f: Filters) -> list[Panel]:
        rows, first = queries.battlefield_stats(conn, f)
        evidence = battlefield_evidence(rows)
        shown = [i for i, r in enumerate(rows) if r["games"]]
        table = Table(["battlefield", "deck", "games", "win rate here (95% CI)", "deck overall", "difference",
                       "clearly not 0? (adjusted p)", "won the battlefield", "average might"],
                      [[rows[i]["battlefield"], rows[i]["deck"], rows[i]["games"], rate_cell(rows[i]["win_rate"]),
                        figures.percent(rows[i]["deck_win_rate"]["rate"]), points(rows[i]["difference"]),
                        evidence_cell(evidence[i]), figures.percent(rows[i]["battlefield_win_rate"]["rate"]),
                        number(rows[i]["average_might"])] for i in shown],
                      thin=[rows[i]["thin"] for i in shown], numeric={2, 5, 8}, secondary={4, 7, 8})
        first_table = Table(["battlefield", "games", "first player won it (95% CI)", "first player won the game"],
                            [[r["battlefield"], r["games"], rate_cell(r["first_player_battlefield_win_rate"]),
                              rate_cell(r["first_player_game_win_rate"])] for r in first],
                            thin=[r["thin"] for r in first], numeric={1})
        return [Panel("battlefield-impact", "Battlefield × deck",
                      figures.battlefield_impact(rows, f.min_games, evidence), table, "battlefields",
                      note=HEATMAP_NOTE.format(even="0 (the deck wins as often without the battlefield)",
                                               min_games=f.min_games)),
                Panel("battlefield-first-player", "First player per battlefield",
                      figures.battlefield_first_player(first, f.min_games), first_table, "battlefield-first-player")]
    return render_stats("Battlefields", "How each battlefield shifts each deck's chances.", compute)


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
    return render_stats("First player & game shape", "Seat advantage, how close games are, how they unfold.", compute)


@blueprint.get("/cards")
def cards():
    def compute(conn, f: Filters) -> list[Panel]:
        rows = queries.card_stats(conn, f)
        facts = card_facts()
        order = {deck: i for i, deck in enumerate(deck_order(r["deck"] for r in rows))}
        rows.sort(key=lambda r: (order[r["deck"]], facts.get(r["card"], (99, 0))[0], r["card"]))
        table = Table(["deck", "card", "cost", "might", "games deployed", "deploy rate", "win rate deployed (95% CI)",
                       "vs not deployed", "average might contributed"],
                      [[r["deck"], r["card"], *(facts.get(r["card"]) or (None, None)), r["games_deployed"],
                        figures.percent(r["deploy_rate"]), rate_cell(r["win_rate_deployed"]),
                        points(r["difference"]), number(r["average_might_contributed"])]
                       for r in rows], thin=[r["thin"] for r in rows], numeric={2, 3, 4, 5, 7, 8},
                      secondary={2, 3, 5, 7}, open=True)
        return [Panel("cards", "Card performance", table=table, dataset="cards",
                      note="Each card: the games its deck played with it deployed, and how the deck did in them "
                           "(the difference is against the deck's games without it). Click a column's header to sort "
                           "by it. The CSV adds the win rate not deployed, deploys, cards destroyed, might gained and "
                           "the first round deployed."),
                Panel("card-impact", "Card impact", figures.card_impact(rows, f.min_games), dataset="cards",
                      note="Each dot a card: how often it is deployed against how much more its deck wins with it.")]
    return render_stats("Cards", "Which cards carry a deck.", compute)


# --- CSV -------------------------------------------------------------------------------------


@blueprint.get("/download/<name>.csv")
def download(name: str):
    dataset = DATASETS.get(name)
    if dataset is None:
        return Response(f"no dataset {name!r}; there are: {', '.join(DATASETS)}\n", status=404,
                        mimetype="text/plain")
    try:
        filters = form_filters(dataset_game(name))
    except FilterError as exc:
        return Response(f"query parameter '{exc.parameter}': {exc.message}\n", status=400, mimetype="text/plain")
    with _pool().connection() as conn:
        queries.read_snapshot(conn)
        try:
            check_names(conn, filters)
        except FilterError as exc:
            return Response(f"query parameter '{exc.parameter}': {exc.message}\n", status=400, mimetype="text/plain")
        rows = dataset(conn, hide_unreadable(conn, filters, Reader()))
    return Response(to_csv(rows), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="empyrean-{name}.csv"'})
