"""``GET /api/v1/stats/...``: meta statistics read from the aggregate tables.

Every endpoint takes the filters of services.stats.filters (from, to, event, players, deck,
min_games) and answers ``{"filters": {...as applied...}, "rows": [...], "generated_at": ...}``
(some add a summary beside ``rows``). A bad parameter is a 400 whose error names it:
``{"error": {"status": 400, "title": "Bad Request", "message": ..., "parameter": "from"}}``.
What each number means: docs/services.md, "Statistics API".
"""

from __future__ import annotations

import datetime as dt

from flask import Blueprint, current_app, jsonify, request

from services.stats import queries
from services.stats.filters import FilterError, Filters, parse_filters
from services.stats.names import check_names, hide_unreadable

from .access import current_token, reader_of

blueprint = Blueprint("stats", __name__, url_prefix="/stats")


@blueprint.errorhandler(FilterError)
def bad_filter(exc: FilterError):
    response = jsonify({"error": {"status": 400, "title": "Bad Request", "message": exc.message,
                                  "parameter": exc.parameter}})
    response.status_code = 400
    return response


def _answer(compute):
    """Parse the filters, run ``compute(conn, filters)`` on one read-only snapshot, wrap it."""
    filters: Filters = parse_filters(request.args)
    pool = current_app.extensions["empyrean"].read_pool  # a read replica when there is one
    with pool.connection() as conn:
        queries.read_snapshot(conn)
        check_names(conn, filters)  # a FilterError is the 400 of bad_filter
        filters = hide_unreadable(conn, filters, reader_of(current_token()))
        body = compute(conn, filters)
    return jsonify({"filters": filters.as_json(), **body,
                    "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")})


@blueprint.get("/decks")
def decks():
    return _answer(lambda conn, f: {"rows": queries.deck_stats(conn, f)})


@blueprint.get("/matchups")
def matchups():
    return _answer(lambda conn, f: {"rows": queries.matchup_stats(conn, f)})


@blueprint.get("/battlefields")
def battlefields():
    def compute(conn, f):
        rows, first_player = queries.battlefield_stats(conn, f)
        return {"rows": rows, "battlefields": first_player}
    return _answer(compute)


@blueprint.get("/first-player")
def first_player():
    def compute(conn, f):
        overall, weeks = queries.first_player_stats(conn, f)
        return {"overall": overall, "rows": weeks}
    return _answer(compute)


@blueprint.get("/cards")
def cards():
    return _answer(lambda conn, f: {"rows": queries.card_stats(conn, f)})


@blueprint.get("/trends")
def trends():
    return _answer(lambda conn, f: {"rows": queries.trend_stats(conn, f)})


@blueprint.get("/margins")
def margins():
    def compute(conn, f):
        summary, rows = queries.margin_stats(conn, f)
        return {"summary": summary, "rows": rows}
    return _answer(compute)


@blueprint.get("/rounds")
def rounds():
    return _answer(lambda conn, f: {"battlefield_applied": False, "rows": queries.round_stats(conn, f)})
