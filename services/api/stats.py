"""``GET /api/v1/stats/...``: meta statistics read from the aggregate tables.

Each game has statistics of its own, under ``/api/v1/stats/<game>/`` (``GAME_STATISTICS``: the path
and view of each, per game key; ``GET /api/v1/stats/<game>`` lists them). Battle for Empyrean's are
also served where they were before games had keys, ``/api/v1/stats/<path>`` (the default game's:
same views, same answers). A game adds its statistics by adding its paths to ``GAME_STATISTICS``
(and to services/api/openapi.yaml, under a tag of its own); a ``/stats/...`` URL no route answers is
a 404 that names the games and the statistics there are (an unknown game key among them).

Every endpoint takes the filters of services.stats.filters (from, to, event, players, deck,
min_games) and answers ``{"filters": {...as applied...}, "rows": [...], "generated_at": ...}``
(some add a summary beside ``rows``). A bad parameter is a 400 whose error names it:
``{"error": {"status": 400, "title": "Bad Request", "message": ..., "parameter": "from"}}``.
What each number means: docs/services.md, "Statistics API".
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from flask import Blueprint, current_app, jsonify, request, url_for
from werkzeug.exceptions import NotFound

from engine import games
from engine.bfe.rules import GAME_INFO as BATTLE_FOR_EMPYREAN
from engine.elysian.rules import GAME_INFO as ELYSIAN
from engine.steam.rules import GAME_INFO as STEAM
from engine.titans.rules import GAME_INFO as TITANS
from services.stats import elysian, queries, steam, titans
from services.stats.filters import FilterError, Filters, parse_filters
from services.stats.names import check_names, hide_unreadable

from .access import current_token, reader_of
from .errors import error_response

blueprint = Blueprint("stats", __name__, url_prefix="/stats")


@blueprint.errorhandler(FilterError)
def bad_filter(exc: FilterError):
    response = jsonify({"error": {"status": 400, "title": "Bad Request", "message": exc.message,
                                  "parameter": exc.parameter}})
    response.status_code = 400
    return response


def _answer(compute, game: str = BATTLE_FOR_EMPYREAN.key):
    """Parse the filters (for statistics of ``game``), run ``compute(conn, filters)`` on one read-only
    snapshot, wrap it."""
    filters: Filters = parse_filters(request.args, game)
    pool = current_app.extensions["empyrean"].read_pool  # a read replica when there is one
    with pool.connection() as conn:
        queries.read_snapshot(conn)
        check_names(conn, filters)  # a FilterError is the 400 of bad_filter
        filters = hide_unreadable(conn, filters, reader_of(current_token()))
        body = compute(conn, filters)
    return jsonify({"filters": filters.as_json(), **body,
                    "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")})


def decks():
    return _answer(lambda conn, f: {"rows": queries.deck_stats(conn, f)})


def matchups():
    return _answer(lambda conn, f: {"rows": queries.matchup_stats(conn, f)})


def battlefields():
    def compute(conn, f):
        rows, first_player = queries.battlefield_stats(conn, f)
        return {"rows": rows, "battlefields": first_player}
    return _answer(compute)


def first_player():
    def compute(conn, f):
        overall, weeks = queries.first_player_stats(conn, f)
        return {"overall": overall, "rows": weeks}
    return _answer(compute)


def cards():
    return _answer(lambda conn, f: {"rows": queries.card_stats(conn, f)})


def trends():
    return _answer(lambda conn, f: {"rows": queries.trend_stats(conn, f)})


def margins():
    def compute(conn, f):
        summary, rows = queries.margin_stats(conn, f)
        return {"summary": summary, "rows": rows}
    return _answer(compute)


def rounds():
    return _answer(lambda conn, f: {"battlefield_applied": False, "rows": queries.round_stats(conn, f)})


def factions(game: str):
    if not games.is_known(game):
        return _not_found()
    return _answer(lambda conn, f: {"game": game, "rows": queries.faction_stats(conn, f, game)}, game)


def _named(stat, *names: str):
    """The compute of a view whose statistic answers a tuple: its parts under ``names``, in order."""
    def compute(conn, f):
        return dict(zip(names, stat(conn, f), strict=True))
    return compute


# Titans of Empyrean's (services.stats.titans).
def _titans_answer(compute):
    titans.refuse_filters_not_taken(request.args)
    return _answer(compute, TITANS.key)


def species():
    return _titans_answer(lambda conn, f: {"rows": titans.species_stats(conn, f)})


def species_matchups():
    return _titans_answer(lambda conn, f: {"rows": titans.matchup_stats(conn, f)})


def titans_picked():
    return _titans_answer(lambda conn, f: {"rows": titans.titan_stats(conn, f)})


def maneuvers():
    return _titans_answer(_named(titans.maneuver_stats, "seat_games", "rows"))


def endings():
    return _titans_answer(_named(titans.ending_stats, "summary", "rows", "lengths"))


def initiative():
    return _titans_answer(lambda conn, f: {"overall": titans.initiative_stats(conn, f)})


def squads():
    return _titans_answer(_named(titans.squad_stats, "summary", "rows"))


# Elysian Battlefields' (services.stats.elysian), each at one table size (the players filter).
def _elysian_answer(compute):
    elysian.refuse_filters_not_taken(request.args)
    return _answer(compute, ELYSIAN.key)


def heroes():
    return _elysian_answer(_named(elysian.hero_stats, "summary", "rows"))


def victories():
    return _elysian_answer(_named(elysian.victory_stats, "rows", "heroes"))


def seats():
    return _elysian_answer(_named(elysian.seat_stats, "summary", "rows"))


def length():
    return _elysian_answer(_named(elysian.length_stats, "summary", "rows", "lengths"))


def eliminations():
    return _elysian_answer(_named(elysian.elimination_stats, "summary", "rows", "places"))


def elysian_cards():
    return _elysian_answer(_named(elysian.card_stats, "seat_games", "rows"))


def dice():
    return _elysian_answer(elysian.dice_audit)


# Empyreal: Spells & Steam's (services.stats.steam), each at one table size (the players filter).
def _steam_answer(compute):
    steam.refuse_filters_not_taken(request.args)
    return _answer(compute, STEAM.key)


def companies():
    return _steam_answer(_named(steam.company_stats, "summary", "rows"))


def captains():
    return _steam_answer(_named(steam.captain_stats, "summary", "rows"))


def score_parts():
    return _steam_answer(_named(steam.score_part_stats, "overall", "rows"))


def specialists():
    return _steam_answer(_named(steam.specialist_stats, "seat_games", "rows"))


def spellcars():
    return _steam_answer(_named(steam.spellcar_stats, "seat_games", "rows"))


def steam_endings():
    return _steam_answer(_named(steam.ending_stats, "summary", "rows", "lengths"))


def steam_seats():
    return _steam_answer(_named(steam.seat_stats, "summary", "rows", "positions"))


def awards():
    return _steam_answer(_named(steam.award_stats, "summary", "rows", "companies"))


def teams():
    return _steam_answer(_named(steam.team_stats, "summary", "rows", "started"))


# The statistics every registered game has, under /stats/<game>/ (from the tables every game fills).
EVERY_GAME_STATISTICS: dict[str, Callable] = {"factions": factions}

# Each game's own statistics, by game key: the path of each under /stats/<game>/ and the view answering it.
GAME_STATISTICS: dict[str, dict[str, Callable]] = {
    BATTLE_FOR_EMPYREAN.key: {"decks": decks, "matchups": matchups, "battlefields": battlefields,
                              "first-player": first_player, "cards": cards, "trends": trends,
                              "margins": margins, "rounds": rounds},
    TITANS.key: {"species": species, "matchups": species_matchups, "titans": titans_picked, "maneuvers": maneuvers,
                 "endings": endings, "initiative": initiative, "squads": squads},
    ELYSIAN.key: {"heroes": heroes, "victories": victories, "seats": seats, "length": length,
                  "eliminations": eliminations, "cards": elysian_cards, "dice": dice},
    STEAM.key: {"companies": companies, "captains": captains, "score-parts": score_parts, "specialists": specialists,
                "spellcars": spellcars, "endings": steam_endings, "seats": steam_seats, "awards": awards,
                "teams": teams},
}


def statistics_url(game: str) -> str:
    """Where a game's statistics are listed (GET /api/v1/stats/<game>)."""
    return url_for("api_v1.stats.game_statistics", game=game)


def _statistics_of(game: str) -> list[str]:
    return [*GAME_STATISTICS.get(game, {}), *EVERY_GAME_STATISTICS]


def described(info: games.GameInfo) -> dict:
    """A game as the API describes it (the registry, a game's statistics): its GameInfo, its players in
    words and where its statistics are."""
    return info.to_dict() | {"players": info.players_words(), "statistics_url": statistics_url(info.key)}


def game_statistics(game: str):
    """A game's statistics: its description and each statistic's name and URL."""
    if not games.is_known(game):
        return _not_found()
    own = [(path, url_for(f"api_v1.stats.{game}_{view.__name__}"))
           for path, view in GAME_STATISTICS.get(game, {}).items()]
    every = [(path, url_for(f"api_v1.stats.{view.__name__}", game=game))
             for path, view in EVERY_GAME_STATISTICS.items()]
    return jsonify({"game": described(games.info(game)),
                    "statistics": [{"name": path, "url": url} for path, url in own + every]})


def _not_found():
    """The 404 of a /stats/... URL: it names what there is — the games known here when the first
    segment is no game's key, the game's statistics when it is one."""
    from . import API_PREFIX  # here: services.api imports this module

    root = f"{API_PREFIX}/stats/"
    key, _, statistic = request.path[len(root):].partition("/")
    if games.is_known(key):
        message = (f"{games.info(key).name} has no statistic {statistic!r}; its statistics are "
                   + ", ".join(_statistics_of(key)) + f" ({statistics_url(key)})")
    elif not statistic:
        message = (f"there is no statistic or game {key!r} under {root}: " + games.unknown_game_words(key)
                   + "; each game's statistics are under " + root + "<game>/")
    else:
        message = f"{games.unknown_game_words(key)} (the game of {request.path})"
    return error_response(404, "Not Found", message, known_games=games.keys())


blueprint.add_url_rule("/<game>", "game_statistics", game_statistics)
for _path, _view in EVERY_GAME_STATISTICS.items():
    blueprint.add_url_rule(f"/<game>/{_path}", _view.__name__, _view)
for _game, _statistics in GAME_STATISTICS.items():
    for _path, _view in _statistics.items():
        blueprint.add_url_rule(f"/{_game}/{_path}", f"{_game}_{_view.__name__}", _view)
        if _game == games.DEFAULT_GAME:  # where they were served before games had keys
            blueprint.add_url_rule(f"/{_path}", _view.__name__, _view)


@blueprint.before_app_request
def no_such_statistics():
    """A /stats/... URL that no route answers: a 404 that names what there is — the games known here
    when the first segment is no game's key, the game's statistics when it is one."""
    from . import API_PREFIX  # here: services.api imports this module

    if not isinstance(request.routing_exception, NotFound) or not request.path.startswith(f"{API_PREFIX}/stats/"):
        return None
    return _not_found()
