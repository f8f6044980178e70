"""Empyreal: Spells & Steam's statistics pages under ``/steam/`` (issue 30): companies, captains, the
score's parts, specialists, spellcars, awards, endings and seats, teams. Each is at one table size (the
form's *Players*, 2 to 6), reads services.stats.steam on one snapshot (dashboards.pages.render_stats:
the filter form, a bad filter a 400 naming it), shows n on every figure and table and greys thin rows,
and links its CSV (dashboards.datasets: ``steam-*``). Linked from the game's index and navigation
(dashboards/games.py)."""

from __future__ import annotations

from functools import cache

from flask import Blueprint

from engine.steam.catalog import DEFAULT_VERSION, load
from engine.steam.game import End
from services.stats import steam as stats
from services.stats.filters import Filters

from . import steam_figures as figures
from .figures import percent
from .game_figures import game_lengths, mean_bars, mean_text, ordinal, rate_bars
from .pages import render_stats
from .panels import Panel, Table, number, rate_cell

KEY = stats.KEY
blueprint = Blueprint("steam", __name__, url_prefix=f"/{KEY}", template_folder="templates")

# Its pages in the navigation and on its index, in order
NAV = [("steam.companies", "Companies"), ("steam.captains", "Captains"), ("steam.scores", "Scores"),
       ("steam.specialists", "Specialists"), ("steam.spellcars", "Spellcars"), ("steam.awards", "Awards"),
       ("steam.endings", "Endings & seats"), ("steam.teams", "Teams")]


@cache
def _names() -> dict[str, str]:
    """Every key of the default catalog's companies, specialists (captains too), spellcars and awards,
    as the catalog names it."""
    cat = load(DEFAULT_VERSION)
    return {key: item.name for kind in (cat.companies, cat.specialists, cat.spellcars, cat.awards)
            for key, item in kind.items()}


def name(key: str | None) -> str:
    """A company, captain, specialist, spellcar or award as the catalog names it (a key it does not
    know, from another version, as it is)."""
    return "–" if key is None else _names().get(key, key)


def end_words(end: str) -> str:
    """What ended a game, in words ("A company out of train cars")."""
    try:
        words = End(end).words
    except ValueError:
        return end
    return words[0].upper() + words[1:]


def _render(title: str, intro: str, compute):
    return render_stats(title, intro, compute, game=KEY, refuse=stats.refuse_filters_not_taken)


def _at(f: Filters) -> str:
    return f"{f.players}-player games"


def _ranks_cell(ranks: list[dict]) -> str:
    """A rank distribution in one cell: '1st 40% · 2nd 35% · 3rd 25%'."""
    return " · ".join(f"{ordinal(r['rank'])} {percent(r['rate'])}" for r in ranks if r["rate"] is not None) or "–"


def _result_table(rows: list[dict], key: str, extra_header: list[str], extra) -> Table:
    return Table([key, "seat-games", "wins", "win rate (95% CI)", *extra_header, "mean rank",
                  "mean victory points (95% CI)", "places"],
                 [[name(r[key]), r["games"], r["wins"], rate_cell(r["win_rate"]), *extra(r), number(r["rank_mean"]),
                   mean_text(r["score"]), _ranks_cell(r["ranks"])] for r in rows],
                 thin=[r["thin"] for r in rows], numeric={1, 2}, secondary={2, 4 + len(extra_header)},
                 phrase={0})


def _result_panels(f: Filters, summary: dict, rows: list[dict], key: str, words: str, table: Table,
                   dataset: str) -> list[Panel]:
    return [
        Panel(f"{key}-win-rates", f"Win rate by {key}",
              rate_bars(rows, lambda r: name(r[key]), "win_rate", "games",
                        f"{words} win rates, {_at(f)} — grey: fewer than {f.min_games} seat-games; dotted: 1 in "
                        f"{f.players}", "win rate, 95% interval", even=summary["even"]),
              table, dataset,
              note=f"{summary['games']} games of {f.players} players. A seat-game is one company at one table; in a "
                   f"team game a seat wins with its team. Sorted by the interval's lower bound."),
        Panel(f"{key}-places", "Where each finishes",
              figures.rank_distribution(rows, lambda r: name(r[key]),
                                        f"Places, {_at(f)} — share of each {key}'s seat-games; faded: fewer than "
                                        f"{f.min_games}"), dataset=dataset),
        Panel(f"{key}-scores", "Victory points",
              mean_bars(sorted(rows, key=lambda r: -(r["score"]["mean"] or 0)), lambda r: name(r[key]), "score",
                        f"Mean victory points by {key}, {_at(f)} — 95% t interval; grey: fewer than {f.min_games}",
                        "mean victory points"), dataset=dataset),
    ]


@blueprint.get("/companies")
def companies():
    def compute(conn, f: Filters) -> list[Panel]:
        summary, rows = stats.company_stats(conn, f)
        table = _result_table(rows, "company", ["pick rate (95% CI)"], lambda r: [rate_cell(r["pick_rate"])])
        return _result_panels(f, summary, rows, "company", "Company", table, "steam-companies")
    return _render("Spells & Steam: companies", "Which companies win, where they finish and what they score, at "
                   "one table size.", compute)


@blueprint.get("/captains")
def captains():
    def compute(conn, f: Filters) -> list[Panel]:
        summary, rows = stats.captain_stats(conn, f)
        table = _result_table(rows, "captain", ["companies led"],
                              lambda r: [", ".join(f"{name(c['company'])} ({c['games']})" for c in r["companies"])])
        return _result_panels(f, summary, rows, "captain", "Captain", table, "steam-captains")
    return _render("Spells & Steam: captains", "Which captains — wild captains too — win, where they finish and "
                   "what they score.", compute)


def _parts_cells(r: dict) -> list:
    return [r["games"], mean_text(r["score"]),
            *(f"{mean_text(r[p])} · {percent(r[p]['share'])}" for p in figures.PART_WORDS)]


@blueprint.get("/scores")
def scores():
    def compute(conn, f: Filters) -> list[Panel]:
        overall, rows = stats.score_part_stats(conn, f)
        headers = ["company", "seat-games", "victory points (95% CI)",
                   *(f"{w} (95% CI) · share" for w in figures.PART_WORDS.values())]
        table = Table(headers, [[name(r["company"]), *_parts_cells(r)] for r in rows] + [["every seat",
                                                                                            *_parts_cells(overall)]],
                      thin=[r["thin"] for r in rows] + [overall["thin"]], numeric={1}, secondary={1},
                      phrase={0, 2, 3, 4, 5})
        return [Panel("score-parts", "Where the points come from",
                      figures.score_parts([{**overall, "company": None}, *rows],
                                          lambda r: "every seat" if r["company"] is None else name(r["company"]),
                                          f"Mean victory points and their parts, {_at(f)} — faded: fewer than "
                                          f"{f.min_games} seat-games"),
                      table, "steam-score-parts",
                      note="A seat's own points: goods delivered, demand tiles and awards (a team game's colour "
                           "bonus is its team's: see Teams). Each mean with its 95% t interval; the share is the "
                           "part's share of the points.")]
    return _render("Spells & Steam: scores", "Where a company's victory points come from: goods, demand tiles and "
                   "awards.", compute)


@blueprint.get("/specialists")
def specialists():
    def compute(conn, f: Filters) -> list[Panel]:
        seat_games, rows = stats.specialist_stats(conn, f)
        table = Table(["specialist", "seat-games hired in", "win rate when hired (95% CI)", "hired in (95% CI)",
                       "hires"],
                      [[name(r["specialist"]), r["hired_games"], rate_cell(r["win_rate"]), rate_cell(r["hired_in"]),
                        r["hires"]] for r in rows],
                      thin=[r["thin"] for r in rows], numeric={1, 4}, secondary={3, 4})
        return [Panel("specialist-win-rates", "Win rate when hired",
                      rate_bars(rows, lambda r: name(r["specialist"]), "win_rate", "hired_games",
                                f"Win rate when hired, {_at(f)} — grey: hired in fewer than {f.min_games} seat-games; "
                                f"dotted: 1 in {f.players}", "win rate, 95% interval", even=1 / f.players),
                      table, "steam-specialists",
                      note=f"Of {seat_games} seat-games: those in which the company hired the specialist (engineers, "
                           "surveyors and station masters; a captain is chosen, not hired: see Captains).")]
    return _render("Spells & Steam: specialists", "Which specialists are hired, and how their companies do.",
                   compute)


@blueprint.get("/spellcars")
def spellcars():
    def compute(conn, f: Filters) -> list[Panel]:
        seat_games, rows = stats.spellcar_stats(conn, f)
        table = Table(["spellcar", "seat-games taken in", "win rate when taken (95% CI)", "taken in (95% CI)",
                       "taken", "seat-games activated in", "win rate when activated (95% CI)", "activations",
                       "activations a game"],
                      [[name(r["spellcar"]), r["taken_games"], rate_cell(r["win_rate_taken"]), rate_cell(r["taken_in"]),
                        r["taken"], r["activated_games"], rate_cell(r["win_rate_activated"]), r["activations"],
                        number(r["activations_mean"])] for r in rows],
                      thin=[r["thin"] for r in rows], numeric={1, 4, 5, 7, 8}, secondary={3, 4, 5, 6, 7, 8})
        by_use = sorted(({**r, "n": r["activated_in"]["n"], "thin": r["activated_games"] < f.min_games}
                         for r in rows), key=lambda r: (-r["activated_games"], name(r["spellcar"])))
        return [
            Panel("spellcar-win-rates", "Win rate when taken",
                  rate_bars(rows, lambda r: name(r["spellcar"]), "win_rate_taken", "taken_games",
                            f"Win rate when taken, {_at(f)} — grey: taken in fewer than {f.min_games} seat-games; "
                            f"dotted: 1 in {f.players}", "win rate, 95% interval", even=1 / f.players),
                  table, "steam-spellcars",
                  note=f"Of {seat_games} seat-games: those in which the company took the spellcar from the market, "
                       "and those in which it activated it (a folio's printed spellcars are activated without being "
                       "taken)."),
            Panel("spellcar-activations", "How often each is activated",
                  rate_bars(by_use, lambda r: name(r["spellcar"]), "activated_in", "n",
                            f"Activated in — share of the {seat_games} seat-games", "activated in, 95% interval",
                            even=None), dataset="steam-spellcars"),
        ]
    return _render("Spells & Steam: spellcars", "Which spellcars are taken and activated, and how their companies "
                   "do.", compute)


@blueprint.get("/awards")
def awards():
    def compute(conn, f: Filters) -> list[Panel]:
        summary, rows, by_company = stats.award_stats(conn, f)
        table = Table(["award", "games in play", "in play (95% CI)", "seats scoring (95% CI)", "seats first (95% CI)",
                       "mean points a seat"],
                      [[name(r["award"]), r["in_play_games"], rate_cell(r["in_play"]), rate_cell(r["scored"]),
                        rate_cell(r["first"]), number(r["points_mean"])] for r in rows],
                      thin=[r["thin"] for r in rows], numeric={1, 5}, secondary={3, 5})
        company_table = Table(["award", "company", "seat-games in play", "first (95% CI)", "wins", "mean points"],
                              [[name(r["award"]), name(r["company"]), r["games"], rate_cell(r["first"]), r["wins"],
                                number(r["points_mean"])] for r in by_company],
                              thin=[r["thin"] for r in by_company], numeric={2, 4, 5}, secondary={4, 5})
        return [
            Panel("awards-in-play", "Awards in play",
                  rate_bars(rows, lambda r: name(r["award"]), "in_play", "in_play_games",
                            f"Games with the award in play, {_at(f)} — share of the {summary['games']} games",
                            "in play, 95% interval", even=None),
                  table, "steam-awards",
                  note="Awards are a variant; a game played without it has none in play. Two awards are dealt a "
                       "game; a team game plays without them."),
            Panel("award-winners", "Who wins each award",
                  figures.firsts_by_company(by_company, name, name,
                                            f"First on each award by company, {_at(f)} — share of the award's firsts"),
                  company_table, "steam-award-companies",
                  note="First: the seat took the most points from the award (tied seats are each first)."),
        ]
    return _render("Spells & Steam: awards", "Which awards are in play, and which companies take them.", compute)


@blueprint.get("/endings")
def endings():
    def compute(conn, f: Filters) -> list[Panel]:
        summary, rows, lengths = stats.ending_stats(conn, f)
        seat_summary, seats, positions = stats.seat_stats(conn, f)
        end_table = Table(["ended by", "games", "share (95% CI)", "mean rounds"],
                          [[end_words(r["end_trigger"]), r["games"], rate_cell(r["share"]), number(r["rounds_mean"])]
                           for r in rows], thin=[r["thin"] for r in rows], numeric={1, 3}, phrase={0})

        def seat_table(by: list[dict], key: str, words) -> Table:
            return Table([key, "seat-games", "wins", "win rate (95% CI)", "mean rank"],
                         [[words(r[key]), r["games"], r["wins"], rate_cell(r["win_rate"]), number(r["rank_mean"])]
                          for r in by], thin=[r["thin"] for r in by], numeric={1, 2, 4}, secondary={2})

        start = seat_summary["start_player"]
        return [
            Panel("end-triggers", "What ends the game",
                  rate_bars(rows, lambda r: end_words(r["end_trigger"]), "share", "games",
                            f"End triggers, {_at(f)} — share of the {summary['games']} games; grey: fewer than "
                            f"{f.min_games}", "share of games, 95% interval", even=None),
                  end_table, "steam-endings"),
            Panel("lengths", "Game length",
                  game_lengths([{**r, "end_reason": r["end_trigger"]} for r in lengths], summary["games"], end_words),
                  dataset="steam-lengths",
                  note=f"Mean rounds: {number(summary['rounds_mean'])}."),
            Panel("positions", "Does starting give an edge?",
                  rate_bars(positions, lambda r: "start player" if r["position"] == 1 else f"{ordinal(r['position'])}"
                                                 " in turn order", "win_rate", "games",
                            f"Win rate by turn-order position, {_at(f)} — grey: fewer than {f.min_games} seat-games; "
                            f"dotted: 1 in {f.players}", "win rate, 95% interval", even=seat_summary["even"]),
                  seat_table(positions, "position", lambda p: f"{ordinal(p)}{' (start player)' if p == 1 else ''}"),
                  "steam-positions",
                  note=f"The start player wins {rate_cell(start)} of their games (n={start['n']}); the others follow "
                       "in turn order."),
            Panel("seats", "Win rate by seat",
                  rate_bars(seats, lambda r: f"seat {r['seat']}", "win_rate", "games",
                            f"Win rate by seat, {_at(f)} — dotted: 1 in {f.players}", "win rate, 95% interval",
                            even=seat_summary["even"]),
                  seat_table(seats, "seat", lambda s: f"seat {s}"), "steam-seats",
                  note="A seat is its place in the log (P1, P2 …); the start player is any of them."),
        ]
    return _render("Spells & Steam: endings & seats", "What ends the games and when, and whether the start player "
                   "or a seat wins more.", compute)


@blueprint.get("/teams")
def teams():
    def compute(conn, f: Filters) -> list[Panel]:
        summary, rows, started = stats.team_stats(conn, f)
        table = Table(["teams", "games", "mean team score", "mean colour bonus", "colour bonus share of points",
                       "places"],
                      [[r["team_shape"], r["games"], number(r["score_mean"]), number(r["bonus_mean"]),
                        percent(r["bonus_share"]),
                        " · ".join(f"{ordinal(p['rank'])} {p['teams']}" for p in r["ranks"])] for r in rows],
                      thin=[r["thin"] for r in rows], numeric={1, 2, 3, 4}, secondary={5})
        start_table = Table(["teams", "the start player's team?", "team-games", "wins", "win rate (95% CI)"],
                            [[r["team_shape"], "yes" if r["started"] else "no", r["teams"], r["wins"],
                              rate_cell(r["win_rate"])] for r in started],
                            thin=[r["thin"] for r in started], numeric={2, 3})
        return [
            Panel("team-shapes", "Team games", None, table, "steam-teams",
                  note=f"{summary['team_games']} of the {summary['games']} games of {f.players} players were played "
                       "in teams. A team's score is its players' goods and demand tiles with the colour bonus (5 "
                       "points a colour of goods it delivered the most of)."),
            Panel("team-start", "Does the start player's team win more?",
                  rate_bars(started, lambda r: f"{r['team_shape']} · {'start' if r['started'] else 'other'} team",
                            "win_rate", "teams",
                            f"Team win rate by whether the start player was on it, {_at(f)} — grey: fewer than "
                            f"{f.min_games} team-games", "win rate, 95% interval", even=None),
                  start_table, "steam-team-start",
                  note="With no edge a team wins 1 in 2 (2v2, 3v3) or 1 in 3 (2v2v2)."),
        ]
    return _render("Spells & Steam: teams", "How teams do: their scores, the colour bonus, and whether the team "
                   "that starts wins more.", compute)
