"""services/api/openapi.yaml: a valid OpenAPI 3.1 document, in sync with the app's URL map both
ways, served at GET /api/v1/openapi.json, and its schemas describe what the API really answers."""

from __future__ import annotations

import re

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import OpenAPIV31SpecValidator, validate
from service_helpers import running_app

from services.api import API_PREFIX
from services.api.openapi import document

IGNORED_METHODS = {"HEAD", "OPTIONS"}
HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


@pytest.fixture(scope="module")
def app(config):
    with running_app(config) as app:
        yield app


@pytest.fixture
def client(app):
    return app.test_client()


def app_operations(app) -> set[tuple[str, str]]:
    """(path relative to /api/v1 in OpenAPI form, method) for every URL rule under /api/v1."""
    operations = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(API_PREFIX + "/"):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule[len(API_PREFIX):])
        operations |= {(path, method.lower()) for method in rule.methods - IGNORED_METHODS}
    return operations


def documented_operations(doc: dict) -> set[tuple[str, str]]:
    return {(path, method) for path, item in doc["paths"].items() for method in item if method in HTTP_METHODS}


def test_the_document_is_valid_openapi_3_1():
    doc = document()
    assert doc["openapi"].startswith("3.1.")
    validate(doc, cls=OpenAPIV31SpecValidator)


def test_no_description_is_cut_by_a_comma():
    """A flow mapping's unquoted ``{type: string, description: The ruling, in words.}`` reads as the
    description "The ruling" and a key "in words." with no value: no key of the document is a piece
    of a sentence."""
    cut = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                if value is None and isinstance(key, str) and (" " in key or key.endswith((".", ")"))):
                    cut.append(f"{path}/{key}")
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}/{i}")

    walk(document(), "")
    assert cut == []


def test_the_server_url_is_the_api_prefix():
    assert document()["servers"] == [{"url": API_PREFIX}]


def test_every_route_of_the_app_is_documented(app):
    missing = app_operations(app) - documented_operations(document())
    assert not missing, f"routes not in services/api/openapi.yaml: {sorted(missing)}"


def test_every_documented_operation_exists_in_the_app(app):
    extra = documented_operations(document()) - app_operations(app)
    assert not extra, f"documented in services/api/openapi.yaml but not served: {sorted(extra)}"


def test_path_parameters_match_the_url_rules():
    doc = document()
    for path, item in doc["paths"].items():
        in_path = set(re.findall(r"{([^}]+)}", path))
        for method in HTTP_METHODS & set(item):
            declared = {p["name"] for p in map(lambda p: _resolve(doc, p), item[method].get("parameters", []))
                        if p["in"] == "path"}
            assert declared == in_path, (path, method)


def test_the_document_is_served_as_json(client):
    response = client.get(f"{API_PREFIX}/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.get_json() == document()


def _resolve(doc: dict, node: dict) -> dict:
    """Follow local ``$ref``s ("#/components/...") to what they name."""
    while "$ref" in node:
        target = doc
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


# The schemas against real answers (read-only requests on the session's database).
def response_validator(path: str, method: str, status: int) -> Draft202012Validator:
    """A JSON Schema validator for the documented application/json body of that response; the
    document's components ride along so its ``#/components/...`` references resolve."""
    doc = document()
    response = _resolve(doc, doc["paths"][path][method]["responses"][str(status)])
    schema = response["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": doc["components"]})


@pytest.mark.parametrize(("path", "query", "status"), [
    ("/health", "", 200),
    ("/ready", "", 200),
    ("/events", "", 200),
    ("/disputes", "", 200),
    ("/disputes", "status=all&limit=5", 200),
    ("/disputes", "limit=0", 400),
    ("/games/{game_id}", "", 404),
    ("/events/{event_id}", "", 404),
    ("/disputes/{dispute_id}", "", 404),
    ("/games", "", 200),
    ("/games", "status=valid&limit=5", 200),
    ("/games", "status=lost", 400),
    ("/events/{event_id}/games", "", 404),
    ("/events/{event_id}/standings", "", 404),
    *[(f"/stats/{name}", "", 200)
      for name in ("decks", "matchups", "battlefields", "first-player", "cards", "trends", "margins", "rounds")],
    *[(f"/stats/{name}", "battlefield=The+Throne&deck=Vikings+of+Valhalla", 200)
      for name in ("decks", "matchups", "battlefields", "first-player", "cards", "trends", "margins", "rounds")],
    ("/stats/decks", "from=2026-01-01&to=2026-12-31&event=1,none&players=3&deck=Vikings+of+Valhalla&min_games=0", 200),
    ("/stats/decks", "from=notadate", 400),
    ("/stats/cards", "colour=blue", 400),
    ("/export/games.csv", "from=2026-09-02&to=2026-09-01", 400),
    ("/export/games.parquet", "event=abc", 400),
    # games of several kinds (issue 27)
    ("/games/registry", "", 200),
    ("/games", "game=bfe", 200),
    ("/games", "game=nope", 400),
    ("/events", "game=bfe", 200),
    ("/export/games.csv", "game=nope&from=2026-09-01&to=2026-09-02", 400),
    *[(f"/stats/bfe/{name}", "deck=Vikings+of+Valhalla", 200)
      for name in ("decks", "matchups", "battlefields", "first-player", "cards", "trends", "margins", "rounds")],
])
def test_answers_match_their_documented_schemas(client, path, query, status):
    url = API_PREFIX + re.sub(r"{[^}]+}", "999999999", path) + (f"?{query}" if query else "")
    response = client.get(url)
    assert response.status_code == status, response.get_json()
    validator = response_validator(path, "get", status)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(response.get_json())]
    assert not errors, errors


@pytest.mark.parametrize("path, query", [("/stats/{game}", ""), ("/stats/{game}/factions", "min_games=0")])
def test_every_games_statistics_match_their_documented_schemas(client, path, query):
    """The statistics every game has, asked of Battle for Empyrean's, and of a key that is no game's (404)."""
    for game, status in (("bfe", 200), ("nope", 404)):
        response = client.get(API_PREFIX + path.format(game=game) + (f"?{query}" if query else ""))
        assert response.status_code == status, response.get_json()
        validator = response_validator(path, "get", status)
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(response.get_json())]
        assert not errors, errors


def test_a_bad_event_body_matches_the_error_schema(admin_client):
    response = admin_client.post(f"{API_PREFIX}/events", json={"name": "Open", "colour": "blue"})
    assert response.status_code == 400
    response_validator("/events", "post", 400).validate(response.get_json())
    assert response.get_json()["error"]["pointer"] == "/colour"


def test_the_schemas_reject_wrong_shapes():
    """The schemas say something: an answer missing a required key or of the wrong type fails."""
    validator = response_validator("/stats/decks", "get", 200)
    good = {"filters": {"from": None, "to": None, "event": None, "players": 2, "deck": None,
                        "battlefield": None, "min_games": 30},
            "rows": [{"deck": "A", "games": 1, "wins": 1, "draws": 0, "meta_share": 1.0, "thin": True,
                      "win_rate": {"successes": 1, "n": 1, "rate": 1.0, "low": 0.2, "high": 1.0}}],
            "generated_at": "2026-03-01T00:00:00+00:00"}
    assert validator.is_valid(good)
    no_rate = {**good, "rows": [{**good["rows"][0], "win_rate": {"successes": 1, "n": 1}}]}
    assert not validator.is_valid(no_rate)
    assert not validator.is_valid({**good, "rows": "none"})
    assert not response_validator("/health", "get", 200).is_valid({"status": "up"})


def test_mutating_operations_document_their_token_and_roles(app):
    """Every POST/PUT/PATCH/DELETE needs the bearer scheme, answers 401/403/429 as documented, and
    its x-roles are the roles the view really accepts (services/api/access.require); the ones
    marked public (services/api/access.public: they store nothing) document no token."""
    doc = document()
    assert doc["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    rules = {(re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", r.rule[len(API_PREFIX):]), m.lower()): r.endpoint
             for r in app.url_map.iter_rules() if r.rule.startswith(API_PREFIX + "/") for m in r.methods}
    checked = 0
    for path, item in doc["paths"].items():
        for method in {"post", "put", "patch", "delete"} & set(item):
            operation = item[method]
            view = app.view_functions[rules[path, method]]
            if hasattr(view, "public_because"):
                assert "security" not in operation and "x-roles" not in operation, (path, method)
                assert not hasattr(view, "required_roles") and "429" in operation["responses"], (path, method)
                continue
            assert operation.get("security") == [{"bearer": []}], (path, method)
            assert {"401", "403", "429"} <= set(operation["responses"]), (path, method)
            assert set(operation["x-roles"]) == set(view.required_roles), (path, method)
            checked += 1
    assert checked >= 6
