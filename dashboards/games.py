"""The games of the site: the switcher in the navigation, each game's index under ``/<key>/``, and the
navigation of the page shown (docs/dashboards.md, "Games").

- ``GET /<key>/`` — a game's index. Battle for Empyrean's is its meta overview: ``/bfe/`` redirects
  to ``/meta`` (with the query string, the filters), so that every page keeps the one URL its links,
  bookmarks and shared filters already use. A game with no pages of its own yet gets a page saying
  what the game is, with its recorder and the other games. A key that looks like a game's but names
  none is the site's 404 page, naming the games there are.
- ``GET /bfe/<page>`` — each Battle for Empyrean page under its game's key too (``/bfe/matchups``):
  a redirect to where it has always been.

The games come from the engine's registry (engine.games), read on every request: a game registered
while the process runs (the tests' Pips) is on the next page drawn.
"""

from __future__ import annotations

import re

from flask import Blueprint, abort, current_app, g, redirect, render_template, request, url_for

from engine import games
from services.stats.filters import PARAMETERS

from .elysian import KEY as ELYSIAN
from .elysian import NAV as ELYSIAN_PAGES
from .pages import NAV as BFE_PAGES
from .steam import KEY as STEAM
from .steam import NAV as STEAM_PAGES
from .titans import KEY as TITANS
from .titans import NAV as TITANS_PAGES

blueprint = Blueprint("games", __name__, template_folder="templates")

BFE = games.DEFAULT_GAME
KEY = re.compile(games.KEY_PATTERN)
# what a game without pages of its own offers in the navigation, besides what every game shares
GAME_PAGES = [("games.index", "About the game"), ("record.record_game", "Record a game"),
              ("events.game_events", "Events & disputes")]
# a game's own statistics pages (before those), by game key
STATISTICS_PAGES = {TITANS: TITANS_PAGES, ELYSIAN: ELYSIAN_PAGES, STEAM: STEAM_PAGES}


def current_game() -> str:
    """The game whose page this is: the one the view set (set_page_game: an event's, a replayed
    game's, a list narrowed by ?game=), else the key in the URL, else Battle for Empyrean (every other
    page is one of its pages or one every game shares)."""
    key = g.get("page_game") or (request.view_args or {}).get("game")
    return key if games.is_known(key) else BFE


def set_page_game(key: str | None) -> None:
    """This page is of game ``key`` (None: of every game): its switcher and navigation are that game's."""
    g.page_game = key


def game_name(key: str) -> str:
    """A game as people name it, from the registry; a game no longer registered here by its key."""
    return games.info(key).name if games.is_known(key) else key


def events_url(key: str) -> str:
    """The events of one game: Battle for Empyrean's on the shared page narrowed (/events?game=bfe, its
    /bfe/events being the shared page as it has always been), any other game's under its key."""
    return url_for("events.events", game=key) if key == BFE else url_for("events.game_events", game=key)


def player_url(name: str, key: str | None = None) -> str:
    """A player's page: of every game (``key`` None), or of one, as events_url."""
    if key is None or key == BFE:
        return url_for("players.player_page", name=name, **({"game": key} if key else {}))
    return url_for("players.game_player_page", game=key, name=name)


class UnknownGame(Exception):
    """A ?game= filter naming no registered game."""


def game_filter() -> str | None:
    """The ``game`` parameter of a shared page: a registered game's key, or None (every game). An
    empty value is every game (the form sends one); an unknown key raises UnknownGame."""
    key = request.args.get("game", "").strip()
    if not key:
        return None
    if not games.is_known(key):
        raise UnknownGame(key)
    return key


@blueprint.app_errorhandler(UnknownGame)
def unknown_game(exc: UnknownGame):
    """The page of a bad filter: a 400 naming the parameter and the games there are."""
    key = str(exc)[:40]
    return render_template("not_found.html", page_title="No such game",
                           message=f"game: there is no game “{key}” here; leave it out for every game, "
                                   "or choose one of the games below.", name_games=True), 400


def _nav_args() -> dict:
    """The meta pages carry their filters from page to page."""
    return {k: v for k, v in request.args.to_dict(flat=False).items() if k in PARAMETERS}


def _links(key: str) -> list[dict]:
    """The navigation's links for game ``key``: its pages, then those every game shares."""
    if key == BFE:
        args = _nav_args()
        return [{"url": url_for(endpoint, **args), "label": label, "current": request.endpoint == endpoint}
                for endpoint, label in BFE_PAGES]
    own = [{"url": url_for(endpoint, **_nav_args()), "label": label, "current": request.endpoint == endpoint}
           for endpoint, label in STATISTICS_PAGES.get(key, ())]
    return own + [{"url": url_for(endpoint, game=key), "label": label, "current": request.endpoint == endpoint}
                  for endpoint, label in GAME_PAGES]


# the pages every game has a version of: endpoint -> the URL of game key's version
_COUNTERPARTS = {
    "events.events": lambda key: events_url(key),
    "events.game_events": lambda key: events_url(key),
    "players.player_page": lambda key: player_url(request.view_args["name"], key),
    "players.game_player_page": lambda key: player_url(request.view_args["name"], key),
}


def _switch_url(key: str) -> str:
    """Where the switcher takes game ``key``: this page's version of it, else its index."""
    counterpart = _COUNTERPARTS.get(request.endpoint or "")
    return counterpart(key) if counterpart and request.view_args is not None else index_url(key)


@blueprint.app_context_processor
def navigation() -> dict:
    """On every page: the games (the switcher), the one this page is of, and its navigation."""
    key = current_game()
    return {"site_games": game_choices(key, _switch_url), "site_game": games.info(key), "nav_links": _links(key)}


def game_choices(game: str | None, url_of, among=None) -> list[dict]:
    """Each registered game as a link: {key, name, url: ``url_of(key)``, current: it is ``game``};
    ``among``: only those keys (and ``game``)."""
    return [{"key": i.key, "name": i.name, "url": url_of(i.key), "current": i.key == game}
            for i in games.known() if among is None or i.key in among or i.key == game]


def index_url(key: str) -> str:
    """Where a game's index is: Battle for Empyrean's meta overview, or /<key>/."""
    return url_for("pages.meta") if key == BFE else url_for("games.index", game=key)


def _reserved() -> set[str]:
    """The first parts of the site's other URLs (api, events, record …): never a game's key, so that
    /api/ stays the API's 404 and not a page about a game named "api"."""
    found = current_app.extensions.setdefault("empyrean_reserved_paths", set())
    if not found:
        for rule in current_app.url_map.iter_rules():
            first = rule.rule.strip("/").split("/", 1)[0]
            if first and "<" not in first:
                found.add(first)
    return found


def known_or_404(key: str) -> None:
    """Go on only for a registered game. A key that could be one but is not gets the 404 page naming
    the games there are; anything else (/api/, a word no key is written as, a client that asks for
    JSON), the site's usual 404."""
    if games.is_known(key):
        return
    wants_page = request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html"
    if not KEY.fullmatch(key) or key in _reserved() or not wants_page:
        abort(404)
    abort(current_app.make_response((render_template(
        "not_found.html", page_title="No such game", message=f"There is no game “{key}” here.",
        name_games=True), 404)))


# strict_slashes=False: /pips is Pips's index as well, and an unknown /no-such-page is not first
# redirected to /no-such-page/ (it stays the site's 404, as it was before games had pages)
@blueprint.get("/<game>/", strict_slashes=False)
def index(game: str):
    known_or_404(game)
    if game == BFE:
        return redirect(url_for("pages.meta", **request.args.to_dict(flat=False)))
    info = games.info(game)
    others = [(g, index_url(g.key)) for g in games.known() if g.key != game]
    stats_pages = [(url_for(endpoint), label) for endpoint, label in STATISTICS_PAGES.get(game, ())]
    return render_template("game_index.html", page_title=info.name, game=info, stats_pages=stats_pages,
                           chance=sorted(info.chance_kinds), others=others,
                           factions_url=url_for("api_v1.stats.factions", game=game), events_url=events_url(game))


@blueprint.get(f"/{BFE}/<page>")
def bfe_page(page: str):
    """Battle for Empyrean's pages under its key as well (its recorder too: /bfe/record): each redirects
    to the URL it has always had."""
    for endpoint, _ in BFE_PAGES:
        if url_for(endpoint) == f"/{page}":
            return redirect(url_for(endpoint, **request.args.to_dict(flat=False)))
    abort(404)
