"""The card catalog as data, for recorders and other tools (issue 17):

- ``GET /api/v1/catalog`` — the catalog versions this engine has, and the default (newest).
- ``GET /api/v1/catalog/{version}`` — one version: premade decks (name and 24 cards), battlefields
  (name, zones, text), every card (name, deck, type, cost, might, ability, text) and the deck
  template a mash-up must keep (engine.bfe.catalog.catalog_data).

Public and cacheable: a catalog version never changes once published (errata go into a new one),
so answers carry an ETag (a conditional GET is a 304) and Cache-Control.
"""

from __future__ import annotations

import functools

from flask import Blueprint, current_app, jsonify, request

from engine.bfe.catalog import DEFAULT_VERSION, available_versions, catalog_data, load_catalog

from .errors import error_response

blueprint = Blueprint("catalog", __name__)

# A version's content is fixed, but a deployment may add versions: the list is cached briefly.
LIST_MAX_AGE_S = 300
VERSION_MAX_AGE_S = 86400


@functools.cache
def _version_body(version: str) -> bytes:
    """The JSON of one version, made once per process (the ETag is computed from it per request)."""
    return jsonify(catalog_data(load_catalog(version))).get_data()


def _cached(response, max_age: int):
    response.cache_control.public = True
    response.cache_control.max_age = max_age
    response.add_etag()
    return response.make_conditional(request)


@blueprint.get("/catalog")
def catalog_versions():
    versions = available_versions()
    body = {"versions": versions, "default": DEFAULT_VERSION,
            "urls": {v: f"/api/v1/catalog/{v}" for v in versions}}
    return _cached(jsonify(body), LIST_MAX_AGE_S)


@blueprint.get("/catalog/<version>")
def catalog_version(version: str):
    versions = available_versions()
    if version not in versions:
        return error_response(404, "Not Found", f"there is no catalog version {version!r}; this engine has "
                              f"{', '.join(versions)}")
    response = current_app.response_class(_version_body(version), mimetype="application/json")
    return _cached(response, VERSION_MAX_AGE_S)
