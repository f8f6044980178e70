"""Security headers on every kind of answer the web app gives (docs/security.md, "Security
headers"): JSON, a dashboard page, the replay page, a raw stored log, static files, plotly.js, and
errors (JSON and HTML 404, 405, 401, 429, 500). The same pages under this policy in a real browser,
with no CSP violation reported: tests/browser."""

from __future__ import annotations

import dataclasses
import re
import secrets

import pytest
from service_helpers import anonymous_client, as_admin, running_app, token_client

from engine.bfe.selfplay import self_play
from services.api.headers import CONTENT_SECURITY_POLICY, SECURITY_HEADERS

HTML = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def directives(policy: str) -> dict[str, list[str]]:
    parts = (part.split() for part in policy.split(";") if part.strip())
    return {name: values for name, *values in parts}


def assert_secured(response, what: str) -> None:
    headers = response.headers
    assert headers.get("Content-Security-Policy") == CONTENT_SECURITY_POLICY, what
    assert headers.get("X-Content-Type-Options") == "nosniff", what
    assert headers.get("X-Frame-Options") == "DENY", what
    assert headers.get("Referrer-Policy") == "same-origin", what


def test_the_policy_allows_no_inline_script_and_no_framing():
    policy = directives(CONTENT_SECURITY_POLICY)
    assert policy["default-src"] == ["'none'"]
    assert policy["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval', no other host
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert "'unsafe-eval'" not in CONTENT_SECURITY_POLICY
    assert set(SECURITY_HEADERS) == {"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options",
                                     "Referrer-Policy"}


@pytest.fixture(scope="module")
def stored_game(app):
    uploaded = as_admin(app).post("/api/v1/games", json=self_play(16_007))
    assert uploaded.status_code == 202, uploaded.get_json()
    return uploaded.get_json()["id"]


@pytest.mark.parametrize("what, path, headers", [
    ("JSON", "/api/v1/events", {}),
    ("JSON health", "/api/v1/health", {}),
    ("OpenAPI", "/api/v1/openapi.json", {}),
    ("dashboard page", "/meta", HTML),
    ("events page", "/events", HTML),
    ("CSV download", "/download/decks.csv", {}),
    ("timeline JSON", "/games/999999999/timeline.json", {}),
    ("our script", "/static/dash/app.js", {}),
    ("our stylesheet", "/static/dash/app.css", {}),
    ("plotly.js", "/static/plotly.min.js", {}),
    ("redirect", "/", HTML),
    ("JSON 404", "/api/v1/nothing-here", {}),
    ("HTML 404", "/no-such-page", HTML),
    ("missing static file", "/static/dash/nothing.js", {}),
])
def test_every_kind_of_answer_carries_the_headers(app, what, path, headers):
    response = anonymous_client(app).get(path, headers=headers)
    assert response.status_code < 500, (what, response.status_code)
    assert_secured(response, what)


def test_a_replay_page_and_a_raw_log_carry_the_headers(app, stored_game):
    client = anonymous_client(app)
    page = client.get(f"/games/{stored_game}/replay", headers=HTML)
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert_secured(page, "replay page")
    # every script is a file or a JSON data block: nothing the policy would refuse
    for tag in re.findall(r"<script[^>]*>", page.get_data(as_text=True)):
        assert " src=" in tag or 'type="application/json"' in tag, tag
    log = client.get(f"/api/v1/games/{stored_game}/log")
    assert log.status_code == 200 and log.mimetype == "application/json"
    assert_secured(log, "raw log")
    missing = client.get("/games/999999999/replay", headers=HTML)
    assert missing.status_code == 404
    assert_secured(missing, "replay of no game")


def test_error_answers_carry_the_headers(app, ingest_config):
    client = anonymous_client(app)
    wrong_method = client.post("/api/v1/health")
    assert wrong_method.status_code == 405
    assert_secured(wrong_method, "405")
    no_token = client.post("/api/v1/events", json={"name": "x"})
    assert no_token.status_code == 401
    assert_secured(no_token, "401 without a token")
    bad_token = token_client(app, "emp_notatoken").get("/api/v1/events")
    assert bad_token.status_code == 401
    assert_secured(bad_token, "401 with a bad token")
    with running_app(dataclasses.replace(ingest_config, rate_limit_anonymous="1/minute")) as limited:
        @limited.get("/api/v1/test-crash")
        def crash():
            raise RuntimeError("secret internals")

        other = anonymous_client(limited)
        other.environ_base["REMOTE_ADDR"] = f"10.16.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"
        other.get("/api/v1/events")
        over = other.get("/api/v1/events")
        assert over.status_code == 429
        assert_secured(over, "429")
        crashed = anonymous_client(limited).get("/api/v1/test-crash", environ_base={"REMOTE_ADDR": "10.16.255.1"})
        assert crashed.status_code == 500
        assert_secured(crashed, "500")
