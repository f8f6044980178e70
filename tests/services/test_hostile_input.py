"""Hostile and broken input through the real API, worker and Postgres: every rejection is a 4xx with
a JSON error naming what is wrong (a JSON pointer where there is one), nothing is partially written,
and no request gets a 5xx."""

from __future__ import annotations

import gzip
import io
import json

import pytest

from engine.bfe.selfplay import self_play
from services.platform.storable import storable

DEEP = 1000


def games_count(db) -> int:
    return db.execute("SELECT count(*) FROM games").fetchone()[0]


def assert_error(response, status: int, *, pointer: str | None = None, words: str = "") -> dict:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:500])
    assert response.is_json, response.get_data(as_text=True)[:300]
    error = response.get_json()["error"]
    assert error["status"] == status and error["message"]
    if pointer is not None:
        assert error.get("pointer") == pointer, error
    assert words.lower() in error["message"].lower(), error
    return error


def post_game(client, data, content_type="application/json", **headers):
    return client.post("/api/v1/games", data=data, content_type=content_type, headers=headers)


def make_event(client, name: str) -> int:
    return client.post("/api/v1/events", json={"name": name}).get_json()["id"]


@pytest.mark.parametrize("body", [
    b"[" * DEEP + b"]" * DEEP,
    b'{"a": ' * DEEP + b"1" + b"}" * DEEP,
    b'{"format": "empyrean-log", "meta": ' + b"[" * DEEP + b"]" * DEEP + b"}",
    b"[" * 100_000,
])
def test_deeply_nested_json_is_a_400_and_stores_nothing(admin_client, db, body):
    before = games_count(db)
    error = assert_error(post_game(admin_client, body), 400)
    assert "nested too deeply" in error["message"] or "not valid JSON" in error["message"], error
    assert games_count(db) == before


def test_deep_nesting_inside_a_bundle_rejects_that_line_only(admin_client, db):
    event = make_event(admin_client, "Deep Cup")
    good = json.dumps(self_play(77)).encode()
    body = b"\n".join([good, b"[" * DEEP + b"]" * DEEP, b'{"x": ' * DEEP + b"1" + b"}" * DEEP]) + b"\n"
    response = admin_client.post(f"/api/v1/events/{event}/games", data=body, content_type="application/x-ndjson")
    assert response.status_code == 202, response.get_json()
    report = response.get_json()
    assert report["accepted"] == 1 and report["rejected"] == 2
    assert all("nested too deeply" in g["error"] for g in report["games"][1:]), report["games"]


@pytest.mark.parametrize("data, content_type, status, words", [
    (b"\xff\xfe{not utf-8}", "application/json", 400, "UTF-8"),
    (b'{"format": "empyrean-log", "meta": {"players": ["\xe9\xe9"]}}', "application/json", 400, "UTF-8"),
    (b"{}", "text/plain", 415, "Content-Type"),
    (b"{}", "application/x-www-form-urlencoded", 415, "Content-Type"),
    (b"", "application/json", 400, "empty"),
    (b"   \n ", "application/json", 400, "empty"),
    (b"null", "application/json", 400, "JSON object"),
    (b'"a string"', "application/json", 400, "JSON object"),
    (b"12", "application/json", 400, "JSON object"),
    (b'{"a": 1', "application/json", 400, "not valid JSON"),
])
def test_broken_bodies_are_4xx_with_a_json_error(admin_client, db, data, content_type, status, words):
    before = games_count(db)
    assert_error(post_game(admin_client, data, content_type), status, words=words)
    assert games_count(db) == before


def test_a_json_object_that_is_not_a_log_is_stored_as_malformed_with_pointers(admin_client):
    response = post_game(admin_client, b'{"a": NaN}')
    assert response.status_code == 202
    body = response.get_json()
    assert body["status"] == "malformed" and {"path": "/a", "message": "NaN is not allowed in a log; numbers must "
                                              "be finite"} in body["errors"]


class Spaces(io.RawIOBase):
    """An endless-looking body made on the fly: '[' and then ``size`` spaces, never held in memory."""

    def __init__(self, size: int):
        self.left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self.left)
        buffer[:n] = b" " * n
        self.left -= n
        return n


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/events/{event}/games"])
def test_a_body_over_the_limit_without_content_length_is_a_413(admin_client, db, path):
    """Chunked transfer (no Content-Length), as a WSGI server hands it over: wsgi.input_terminated."""
    event = make_event(admin_client, "Chunked Cup")
    before = games_count(db)
    size = 600 * 1024 * 1024 if "events" in path else 2 * 1024 * 1024
    response = admin_client.post(path.format(event=event), content_type="application/json",
                                 environ_overrides={"wsgi.input": Spaces(size), "wsgi.input_terminated": True})
    assert_error(response, 413)
    assert games_count(db) == before


def test_enormous_strings_and_wrong_types_are_reported_by_pointer_not_crashed_on(admin_client, db):
    log = self_play(78)
    cases = [
        ({**log, "meta": {"players": ["x" * 900_000, "y"]}}, None),
        ({**log, "decisions": "P1 pass"}, "/decisions"),
        ({**log, "setup": {**log["setup"], "first_player": "one"}}, "/setup/first_player"),
        ({**log, "version": 1.5}, "/version"),
        ({**log, "decisions": [None] * 10}, "/decisions/0"),
        ({**log, "setup": []}, "/setup"),
    ]
    for bad, pointer in cases:
        response = post_game(admin_client, json.dumps(bad))
        assert response.status_code in (200, 202, 400, 413), response.get_json()
        body = response.get_json()
        if pointer is not None:
            assert response.status_code == 202 and body["status"] == "malformed", body
            assert any(e["path"] == pointer for e in body["errors"]), (pointer, body["errors"])


def test_truncated_gzip_bundle_is_a_400_and_stores_nothing(admin_client, db):
    event = make_event(admin_client, "Truncated Cup")
    body = gzip.compress(b"".join(json.dumps(self_play(s)).encode() + b"\n" for s in range(80, 83)))
    before = games_count(db)
    response = admin_client.post(f"/api/v1/events/{event}/games", data=body[: len(body) // 2],
                                 content_type="application/x-ndjson", headers={"Content-Encoding": "gzip"})
    assert_error(response, 400, words="gzip")
    assert games_count(db) == before  # nothing partially written


def test_gzip_bomb_is_refused(admin_client, db):
    event = make_event(admin_client, "Bomb Cup")
    body = gzip.compress(b" " * (64 * 1024 * 1024))
    before = games_count(db)
    response = admin_client.post(f"/api/v1/events/{event}/games", data=body, content_type="application/x-ndjson",
                                 headers={"Content-Encoding": "gzip"})
    assert response.status_code in (400, 413)
    assert games_count(db) == before


def test_unknown_content_encoding_is_a_415(admin_client, db):
    event = make_event(admin_client, "Brotli Cup")
    before = games_count(db)
    assert_error(admin_client.post(f"/api/v1/events/{event}/games", data=b"{}", content_type="application/x-ndjson",
                                   headers={"Content-Encoding": "br"}), 415, words="Content-Encoding")
    assert_error(post_game(admin_client, gzip.compress(b"{}"), **{"Content-Encoding": "gzip"}), 415,
                       words="Content-Encoding")
    assert games_count(db) == before


@pytest.mark.parametrize("path", ["/api/v1/games/abc", "/api/v1/games/-1", "/api/v1/games/99999999999999999999",
                                  "/api/v1/events/1e5", "/api/v1/disputes/%00", "/games/1%27/replay",
                                  "/meta?from=%00", "/download/decks.csv?to=%ff"])
def test_odd_urls_are_4xx(client, path):
    response = client.get(path)
    assert 400 <= response.status_code < 500, (path, response.status_code)


def test_nul_characters_and_lone_surrogates_never_reach_postgres_as_a_500(admin_client, db):
    for name in [b"a\\u0000b", b"\\ud800x"]:  # JSON escapes: the decoded names hold NUL, a lone surrogate
        response = admin_client.post("/api/v1/events", data=b'{"name": "%s"}' % name, content_type="application/json")
        assert_error(response, 400, pointer="/name", words="NUL character or an unpaired surrogate")
    log = self_play(79, meta={"event": "Open\x00", "players": ["Ann", "Bo\x00"]})
    response = post_game(admin_client, json.dumps(log))
    assert response.status_code == 202 and response.get_json()["status"] == "malformed"
    assert {e["path"] for e in response.get_json()["errors"]} == {"/meta/event", "/meta/players/1"}
    malformed = b'{"format": "empyrean-log", "\\u0000key": 1, "\\ud800": [1]}'
    response = post_game(admin_client, malformed)
    assert response.status_code == 202 and response.get_json()["status"] == "malformed"
    stored = db.execute("SELECT errors FROM verdicts WHERE game_id = %s", (response.get_json()["id"],)).fetchone()[0]
    assert stored  # stored, with its errors, rather than a 500
    assert storable({"k\x00": ["\ud800", 1]}) == {"k\ufffd": ["\ufffd", 1]}
