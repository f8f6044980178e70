"""Each game's catalog (its cards, species, maps …) as data, for recorders and other tools:

- ``GET /api/v1/catalog`` — the catalog versions this engine has, and the default (newest).
- ``GET /api/v1/catalog/{version}`` — one version. For Battle for Empyrean: premade decks (name and
  24 cards), battlefields (name, zones, text), every card (name, deck, type, cost, might, ability,
  text) and the deck template a mash-up must keep (engine.bfe.catalog.catalog_data); for another
  game, its own data (its rules object's ``catalog_data``), with ``version`` and ``notice``.

Both take ``?game=`` (a game's key; left out, Battle for Empyrean, as before games had keys).

Public and cacheable: a catalog version never changes once published (errata go into a new one),
so answers carry an ETag (a conditional GET is a 304) and Cache-Control.
"""

from __future__ import annotations

import functools

from flask import Blueprint, current_app, jsonify, request

from engine import games

from .errors import error_response
from .games import BadParameter, game_parameter

blueprint = Blueprint("catalog", __name__)

# A version's content is fixed, but a deployment may add versions: the list is cached briefly.
LIST_MAX_AGE_S = 300
VERSION_MAX_AGE_S = 86400


@functools.cache
def _version_body(game: str, version: str) -> bytes:
    """The JSON of one version, made once per process (the ETag is computed from it per request)."""
    return jsonify(games.rules_for(game).catalog_data(version)).get_data()


def _game() -> str:
    return game_parameter() or games.DEFAULT_GAME


@blueprint.errorhandler(BadParameter)
def _bad_parameter(exc: BadParameter):
    return error_response(400, "Bad Request", exc.message, parameter=exc.parameter)


def _cached(response, max_age: int):
    response.cache_control.public = True
    response.cache_control.max_age = max_age
    response.add_etag()
    return response.make_conditional(request)


@blueprint.get("/catalog")
def catalog_versions():
    game = _game()
    versions = games.rules_for(game).catalog_versions()
    query = "" if game == games.DEFAULT_GAME and "game" not in request.args else f"?game={game}"
    body = {"game": game, "versions": versions, "default": versions[-1],
            "urls": {v: f"/api/v1/catalog/{v}{query}" for v in versions}}
    return _cached(jsonify(body), LIST_MAX_AGE_S)


@blueprint.get("/catalog/<version>")
def catalog_version(version: str):
    game = _game()
    versions = games.rules_for(game).catalog_versions()
    if version not in versions:
        return error_response(404, "Not Found", f"there is no catalog version {version!r} of "
                              f"{games.info(game).name}; this engine has {', '.join(versions)}")
    response = current_app.response_class(_version_body(game, version), mimetype="application/json")
    return _cached(response, VERSION_MAX_AGE_S)
