"""``GET /api/v1/openapi.json``: the API's OpenAPI 3.1 document.

The document is written as YAML (``services/api/openapi.yaml``, package data) and served as JSON;
it is read once per process. tests/services/test_openapi.py keeps it in sync with the URL map.
"""

from __future__ import annotations

import functools
from importlib import resources

import yaml
from flask import Blueprint, jsonify

blueprint = Blueprint("openapi", __name__)


@functools.cache
def document() -> dict:
    """The OpenAPI document as a dict (YAML parsed once; don't mutate it)."""
    text = resources.files(__package__).joinpath("openapi.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


@blueprint.get("/openapi.json")
def openapi_json():
    response = jsonify(document())
    response.cache_control.public = True
    response.cache_control.max_age = 300
    return response
