"""The web app as the API's entry point builds it (the API with the dashboards mounted), health and
readiness against real PostgreSQL and Redis, JSON errors for the API and HTML ones for pages."""

from __future__ import annotations

import dataclasses

import pytest
from flask import request

from services.platform.embedded import EmbeddedRedis
from services.platform.entrypoints import api_app


@pytest.fixture
def make_app():
    """api_app(config), with every app's pool and Redis client closed after the test."""
    apps = []

    def make(config):
        apps.append(api_app(config))
        return apps[-1]

    yield make
    for app in apps:
        app.extensions["empyrean"].close()


@pytest.fixture
def client(make_app, config):
    return make_app(config).test_client()


def test_health_says_the_process_is_up(client):
    response = client.get("/api/v1/health")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_ready_when_postgres_is_migrated_and_redis_answers(client):
    response = client.get("/api/v1/ready")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["status"] == "ready" and body["down"] == []
    assert body["checks"]["postgres"]["ok"] and body["checks"]["redis"]["ok"]


def test_not_ready_when_redis_port_is_dead(make_app, config):
    app = make_app(dataclasses.replace(config, redis_url="redis://127.0.0.1:1/0"))
    response = app.test_client().get("/api/v1/ready")
    assert response.status_code == 503
    body = response.get_json()
    assert body["status"] == "unavailable" and body["down"] == ["redis"]
    assert "Redis did not answer PING" in body["checks"]["redis"]["error"]
    assert body["checks"]["postgres"]["ok"]


def test_not_ready_once_redis_stops(make_app, config, tmp_path):
    redis_server = EmbeddedRedis(tmp_path / "redis")
    url = redis_server.start()
    try:
        client = make_app(dataclasses.replace(config, redis_url=url)).test_client()
        assert client.get("/api/v1/ready").status_code == 200
    finally:
        redis_server.stop()
    response = client.get("/api/v1/ready")
    assert response.status_code == 503
    assert response.get_json()["down"] == ["redis"]


def test_not_ready_when_the_schema_is_not_migrated(make_app, config, fresh_database):
    client = make_app(dataclasses.replace(config, database_url=fresh_database())).test_client()
    response = client.get("/api/v1/ready")
    assert response.status_code == 503
    body = response.get_json()
    assert body["down"] == ["postgres"]
    assert "empyrean db upgrade" in body["checks"]["postgres"]["error"]


def test_not_ready_when_postgres_is_unreachable(make_app, config, tmp_path):
    nowhere = f"postgresql://postgres@/empyrean?host={tmp_path}&connect_timeout=1"
    client = make_app(dataclasses.replace(config, database_url=nowhere)).test_client()
    response = client.get("/api/v1/ready")
    assert response.status_code == 503
    body = response.get_json()
    assert body["down"] == ["postgres"]
    assert "no PostgreSQL connection" in body["checks"]["postgres"]["error"]


@pytest.mark.parametrize("path", ["/api/v1/nothing-here", "/no-such-page", "/api/v2/health"])
def test_unknown_url_is_a_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.is_json
    error = response.get_json()["error"]
    assert error["status"] == 404 and path in error["message"]


def test_a_browser_gets_an_html_404_outside_the_api(client):
    response = client.get("/no-such-page", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert "There is no page /no-such-page." in response.get_data(as_text=True)
    api = client.get("/api/v1/nothing", headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.is_json


def test_wrong_method_is_a_json_405_with_allow(client):
    response = client.post("/api/v1/health")
    assert response.status_code == 405
    assert response.is_json
    assert "GET" in response.headers["Allow"]
    assert "does not accept POST" in response.get_json()["error"]["message"]


def test_bad_request_and_unexpected_errors_are_json(make_app, config):
    app = make_app(config)

    @app.post("/api/v1/test-echo")
    def echo():
        return {"got": request.get_json()}

    @app.get("/api/v1/test-crash")
    def crash():
        raise RuntimeError("secret internals")

    client = app.test_client()
    bad = client.post("/api/v1/test-echo", data="{not json", content_type="application/json")
    assert bad.status_code == 400 and bad.is_json
    assert bad.get_json()["error"]["status"] == 400
    ok = client.post("/api/v1/test-echo", json={"a": 1})
    assert ok.get_json() == {"got": {"a": 1}}
    crashed = client.get("/api/v1/test-crash")
    assert crashed.status_code == 500 and crashed.is_json
    assert "secret internals" not in crashed.get_data(as_text=True)
