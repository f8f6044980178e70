"""POST /api/v1/positions and GET /api/v1/catalog through the real app (PostgreSQL and Redis for
the app's pool and rate limits; the positions themselves touch neither): answers agree with the
engine, bad bodies get the upload's 4xx answers, nothing is stored, the limit is its own."""

from __future__ import annotations

import dataclasses
import json
import secrets

import pytest
from service_helpers import anonymous_client, make_token, running_app, token_client

from engine.position import position
from engine.seats import as_recorded
from engine.selfplay import self_play

URL = "/api/v1/positions"


@pytest.fixture(scope="module")
def app(config):
    with running_app(config) as app:
        yield app


@pytest.fixture
def client(app):
    return app.test_client()


def post(client, body, content_type="application/json", **headers):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.post(URL, data=data, content_type=content_type, headers=headers)


def recorded(seed: int, players: int = 2) -> dict:
    return as_recorded(self_play(seed, players=players))


def test_an_unfinished_log_is_in_progress_with_every_legal_line(client):
    log = recorded(1701)
    cut = {**log, "decisions": log["decisions"][:30]}
    response = post(client, cut)
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert body["status"] == "in progress" and body["verdict"] is None
    assert body["decisions"] == 30
    assert log["decisions"][30] in body["legal"]
    assert body == json.loads(json.dumps(position(cut).to_dict()))  # the engine's answer, as JSON
    assert body["board"]["round"] == body["round"] and body["board"]["players"][0]["seat"] == 1
    assert len(body["might"]) == 2 and all(len(row) == 3 for row in body["might"])
    assert body["totals"] == [sum(row) for row in body["might"]]
    assert response.headers["Cache-Control"] == "no-store"


def test_a_chance_draw_lists_the_possible_cards_and_the_unseen_one(client):
    log = recorded(1702)
    body = post(client, {**log, "decisions": []}).get_json()
    assert body["to_decide"] == "C" and body["kind"] == "chance: card drawn"
    first = body["board"]["first_player"]
    assert body["legal"][-1] == f"C draw P{first} ?"
    assert log["decisions"][0] in body["legal"]
    assert all(line.startswith(f"C draw P{first} ") for line in body["legal"])


def test_a_finished_log_answers_its_verdict_and_outcome(client):
    log = recorded(1703, players=3)
    body = post(client, log).get_json()
    assert body["status"] == "valid" and body["verdict"]["status"] == "valid"
    assert body["legal"] == [] and body["to_decide"] is None
    assert body["outcome"]["winner"] == log["result"]["winner"]
    assert body["outcome"]["might"] == log["result"]["might"]


def test_an_illegal_line_is_the_verdict_with_its_details(client):
    log = recorded(1704)
    bad = {**log, "decisions": log["decisions"][:20] + ["P1 deploy Nothing Such to B1"]}
    body = post(client, bad).get_json()
    assert body["status"] == "illegal"
    assert body["verdict"]["index"] == 20 and body["verdict"]["decision"] == "P1 deploy Nothing Such to B1"
    assert body["legal"] == []


def stored_games(app) -> int:
    with app.extensions["empyrean"].db_pool.connection(timeout=5) as conn:
        return conn.execute("SELECT count(*) FROM games").fetchone()[0]


def test_a_json_object_that_is_no_log_is_malformed_with_the_engines_errors(app, client):
    before = stored_games(app)
    response = post(client, {"format": "empyrean-log", "version": 1})
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "malformed" and body["board"] is None
    assert {e["path"] for e in body["verdict"]["errors"]} >= {"/catalog", "/setup"}
    assert stored_games(app) == before  # nothing stored


@pytest.mark.parametrize("data, content_type, status, words", [
    (b"{}", "text/plain", 415, "Content-Type"),
    (b"", "application/json", 400, "empty"),
    (b"[1, 2]", "application/json", 400, "JSON object"),
    (b'{"a": 1', "application/json", 400, "not valid JSON"),
    ('{"a": 1}'.encode("utf-16"), "application/json", 400, "UTF-8"),
])
def test_bad_bodies_get_the_same_answers_as_uploads(client, data, content_type, status, words):
    response = post(client, data, content_type)
    assert response.status_code == status
    error = response.get_json()["error"]
    assert error["status"] == status and words.lower() in error["message"].lower()


def test_a_body_over_the_upload_limit_is_413(client, config):
    response = post(client, b" " * (config.max_upload_bytes + 1))
    assert response.status_code == 413
    assert "EMPYREAN_MAX_UPLOAD_BYTES" in response.get_json()["error"]["message"]


def test_positions_are_counted_per_address_under_their_own_limit(config):
    low = dataclasses.replace(config, rate_limit_positions="3/minute", rate_limit_anonymous="1/minute")
    with running_app(low) as app:
        address = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"
        anonymous = anonymous_client(app)
        with_token = token_client(app, make_token(app, "uploader", name="recorder"))
        for c in (anonymous, with_token):
            c.environ_base["REMOTE_ADDR"] = address
        log = recorded(1705)
        # three under the positions limit, the anonymous limit (1/minute) does not count them,
        # and a token does not get a count of its own
        codes = [post(c, log).status_code for c in (anonymous, with_token, anonymous, with_token)]
        assert codes == [200, 200, 200, 429]
        assert "address" in post(anonymous, log).get_json()["error"]["message"]
        assert anonymous.get("/api/v1/events").status_code == 200  # its own count


def test_the_catalog_lists_versions_and_serves_each_with_an_etag(client):
    response = client.get("/api/v1/catalog")
    assert response.status_code == 200
    listing = response.get_json()
    assert listing["default"] in listing["versions"]
    one = client.get(f"/api/v1/catalog/{listing['default']}")
    assert one.status_code == 200 and "public" in one.headers["Cache-Control"]
    data = one.get_json()
    assert data["version"] == listing["default"]
    assert all(len(d["cards"]) == data["template"]["deck_size"] for d in data["decks"])
    names = {c["name"] for c in data["cards"]}
    assert all(set(d["cards"]) <= names for d in data["decks"])
    assert all({"cost", "might", "text", "type"} <= set(c) for c in data["cards"])
    assert all(bf["zones"] >= 1 and bf["text"] for bf in data["battlefields"])
    again = client.get(f"/api/v1/catalog/{listing['default']}", headers={"If-None-Match": one.headers["ETag"]})
    assert again.status_code == 304
    missing = client.get("/api/v1/catalog/1999.9")
    assert missing.status_code == 404 and "2026" in missing.get_json()["error"]["message"]


def test_the_openapi_examples_are_what_the_api_answers(client):
    """Each request example of POST /positions, posted, answers exactly its response example, and
    the answer fits the documented schema."""
    from test_openapi import response_validator

    from services.api.openapi import document

    operation = document()["paths"]["/positions"]["post"]
    requests = operation["requestBody"]["content"]["application/json"]["examples"]
    answers = operation["responses"]["200"]["content"]["application/json"]["examples"]
    assert set(requests) == set(answers) == {"unfinished", "malformed"}
    validator = response_validator("/positions", "post", 200)
    for name, example in requests.items():
        body = post(client, example["value"]).get_json()
        assert body == answers[name]["value"], name
        validator.validate(body)
    assert answers["unfinished"]["value"]["status"] == "in progress"
    assert answers["malformed"]["value"]["status"] == "malformed"


def test_answers_fit_the_documented_schemas(client):
    from test_openapi import response_validator

    log = recorded(1706, players=3)
    validator = response_validator("/positions", "post", 200)
    for cut in (0, 40, len(log["decisions"])):
        validator.validate(post(client, {**log, "decisions": log["decisions"][:cut]}).get_json())
    response_validator("/catalog", "get", 200).validate(client.get("/api/v1/catalog").get_json())
    response_validator("/catalog/{version}", "get", 200).validate(client.get("/api/v1/catalog/2026.1").get_json())
