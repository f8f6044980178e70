"""POST /api/v1/positions and GET /api/v1/catalog through the real app (PostgreSQL and Redis for
the app's pool and rate limits; the positions themselves touch neither): answers agree with the
engine, bad bodies get the upload's 4xx answers, nothing is stored, the limit is its own."""

from __future__ import annotations

import dataclasses
import json
import secrets

import pytest
from service_helpers import anonymous_client, make_token, running_app, token_client

from engine.bfe.selfplay import self_play
from engine.position import position
from engine.seats import as_recorded, seat_view

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


@pytest.mark.parametrize("cut", [0, 30, None])  # a draw to answer, mid-game, finished
def test_a_log_naming_its_game_bfe_answers_exactly_as_one_without_it(client, cut):
    """A Battle for Empyrean log may say "game": "bfe" or leave it out (engine.games.DEFAULT_GAME):
    the position is the same, to the byte, wherever the log stops."""
    log = recorded(1705)
    if cut is not None:
        log = {**log, "decisions": log["decisions"][:cut]}
        del log["result"]
    assert "game" not in log
    without, named = post(client, log), post(client, {**log, "game": "bfe"})
    assert without.status_code == named.status_code == 200
    assert named.get_data() == without.get_data()
    assert named.get_json()["status"] == ("valid" if cut is None else "in progress")


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


def test_the_catalog_of_a_game_named_is_that_games_and_an_unknown_game_is_a_400(client):
    """``?game=bfe`` answers as no game named does; an unknown game names the parameter and the games."""
    listing = client.get("/api/v1/catalog?game=bfe").get_json()
    assert listing["game"] == "bfe" and listing["versions"] == client.get("/api/v1/catalog").get_json()["versions"]
    assert listing["urls"][listing["default"]] == f"/api/v1/catalog/{listing['default']}?game=bfe"
    one = client.get(listing["urls"][listing["default"]])
    assert one.get_data() == client.get(f"/api/v1/catalog/{listing['default']}").get_data()
    for path in ("/api/v1/catalog?game=nope", "/api/v1/catalog/2026.1?game=nope"):
        error = client.get(path)
        assert error.status_code == 400, path
        body = error.get_json()["error"]
        assert body["parameter"] == "game" and "nope" in body["message"] and "bfe" in body["message"]


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


@pytest.mark.parametrize(("seed", "players", "view"), [(1710, 2, None), (1711, 3, None), (1712, 2, 2), (1713, 3, 1)])
def test_answers_agree_with_the_engine_along_whole_games(client, seed, players, view):
    """A sample of decision points through HTTP (every one is checked at the engine level in
    tests/engine/test_position.py): the answer is the engine's position, and the logged next line
    is legal there (or at a point the log left out)."""
    log = recorded(seed, players)
    if view is not None:
        log = seat_view(log, view)
    lines = log["decisions"]
    for k in range(0, len(lines), 6):
        cut = {**log, "decisions": lines[:k]}
        cut.pop("result", None)
        body = post(client, cut).get_json()
        assert body == json.loads(json.dumps(position(cut).to_dict())), k
        assert body["status"] == "in progress"
        assert lines[k] in body["legal"] or any(lines[k] in p["legal"] for p in body["left_out"]), k
    assert post(client, log).get_json()["status"] == "valid"


def _garbage_lines(n: int) -> list[str]:
    return [f"P{1 + i % 2} dploy Nothing{i} to B{i % 9}" for i in range(n)]


HOSTILE = [
    # (name, body bytes, content type, expected status, words in the error or status of the position)
    ("not json", b"this is not json", "application/json", 400, "not valid JSON"),
    ("a list", b"[{}, {}]", "application/json", 400, "JSON object"),
    ("a string", b'"log"', "application/json", 400, "JSON object"),
    ("utf-16", json.dumps({"format": "empyrean-log"}).encode("utf-16"), "application/json", 400, "UTF-8"),
    ("deep arrays", b"[" * 1000 + b"]" * 1000, "application/json", 400, ""),
    ("deep inside", b'{"format": "empyrean-log", "meta": ' + b"[" * 1000 + b"]" * 1000 + b"}", "application/json",
     400, ""),
    ("unclosed", b"[" * 100_000, "application/json", 400, ""),
    ("form post", b"a=1", "application/x-www-form-urlencoded", 415, "Content-Type"),
    ("whitespace", b"   \n ", "application/json", 400, "empty"),
]


@pytest.mark.parametrize(("name", "data", "content_type", "status", "words"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_bodies_are_refused_cleanly(client, name, data, content_type, status, words):
    response = post(client, data, content_type)
    assert response.status_code == status, (name, response.get_data(as_text=True)[:300])
    error = response.get_json()["error"]
    assert error["status"] == status and words.lower() in error["message"].lower()


def test_a_gzip_body_is_refused_as_uploads_refuse_it(client):
    import gzip

    response = post(client, gzip.compress(json.dumps(recorded(1714)).encode()), **{"Content-Encoding": "gzip"})
    assert response.status_code == 415 and response.get_json()["error"]["header"] == "Content-Encoding"


def test_hostile_logs_are_malformed_or_illegal_positions_never_a_500(client):
    log = recorded(1715)
    base = {k: v for k, v in log.items() if k != "result"}
    cases = {
        "5000 garbage lines": ({**base, "decisions": _garbage_lines(5000)}, "malformed", "/decisions/0"),
        "5001 lines": ({**base, "decisions": ["P1 pass"] * 5001}, "malformed", "/decisions"),
        "5000 passes": ({**base, "decisions": ["P1 pass"] * 5000}, "illegal", None),
        "unknown deck": ({**base, "setup": {**base["setup"], "decks": ["Nobody's Deck", base["setup"]["decks"][1]]}},
                         "malformed", "/setup/decks/0"),
        "mash-up of unknown cards": ({**base, "setup": {**base["setup"], "decks": [
            {"name": "Odd", "cards": [f"Card {i}" for i in range(24)]}, base["setup"]["decks"][1]]}},
            "malformed", "/setup/decks/0/cards"),
        "unknown catalog": ({**base, "catalog": "1999.9"}, "malformed", "/catalog"),
        "unknown battlefield": ({**base, "setup": {**base["setup"], "battlefields": ["Atlantis", "B", "C"]}},
                                "malformed", "/setup/battlefields/0"),
        "a player 3 in a 2-player game": ({**base, "decisions": ["P3 pass"]}, "malformed", "/decisions/0"),
        "long names": ({**base, "meta": {"players": ["x" * 10_000, "y"]}}, "malformed", "/meta/players/0"),
    }
    for name, (body, status, path) in cases.items():
        response = post(client, body)
        assert response.status_code == 200, (name, response.get_data(as_text=True)[:300])
        answer = response.get_json()
        assert answer["status"] == status, (name, answer["verdict"]["message"])
        if path is not None:
            assert path in {e["path"] for e in answer["verdict"]["errors"]}, (name, answer["verdict"]["errors"][:3])
        if status == "illegal":
            assert answer["verdict"]["rule"] and answer["verdict"]["index"] is not None


def test_a_thousand_mutated_logs_never_get_a_server_error(client):
    """The fuzz corpus of uploads (tests/fuzz/mutations.py) through POST /positions: a 4xx naming
    the body for what is not a JSON object (as the upload says of it: services.games.store), else
    a position whose status is a verdict or "in progress", never a 5xx and never an engine error."""
    import sys
    from pathlib import Path

    from hypothesis import HealthCheck, given, settings

    from services.games.store import NotAnObject, parse_upload

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))
    from mutations import mutated_bytes

    seen: dict[str, int] = {}

    @settings(max_examples=1_000, deadline=None, suppress_health_check=list(HealthCheck))
    @given(mutated_bytes())
    def ask(data):
        response = post(client, data)
        assert response.status_code < 500 and response.is_json, response.get_data(as_text=True)[:300]
        body = response.get_json()
        try:
            parse_upload(data)
            refused = None
        except NotAnObject as exc:
            refused = str(exc)
        if response.status_code == 200:
            assert refused is None
            assert body["status"] in ("in progress", "valid", "illegal", "mismatch", "malformed"), body["verdict"]
            seen[body["status"]] = seen.get(body["status"], 0) + 1
        else:
            assert response.status_code in (400, 413) and body["error"]["pointer"] == ""
            if not data.strip():
                assert "empty" in body["error"]["message"]  # as an upload's (services/api/bodies.py)
            else:
                assert response.status_code == 413 or body["error"]["message"] == refused
            seen["refused"] = seen.get("refused", 0) + 1

    ask()
    assert seen.get("malformed", 0) > 100 and seen.get("illegal", 0) + seen.get("in progress", 0) > 10, seen
