"""EMPYREAN_READ_DATABASE_URL: the statistics (the stats API and the dashboards' figures) are read
from a second database, as from a read replica, while everything else stays on DATABASE_URL. The
"replica" here is a separate migrated database holding other numbers, so the test can tell which
one answered."""

from __future__ import annotations

import dataclasses

import psycopg
import pytest
from service_helpers import as_admin, running_app

from services.platform import migrate
from services.platform.config import Config

DECK = "Legends of the Parthenon"


@pytest.fixture(scope="module")
def replica_config(config, fresh_database):
    primary, replica = fresh_database(), fresh_database()
    for url in (primary, replica):
        migrate.upgrade(url)
    with psycopg.connect(replica) as conn:
        conn.execute("""INSERT INTO agg_deck_results (played_on, event_id, players, deck, games, wins, draws,
                                                      first_player_games, first_player_wins)
                        VALUES ('2026-03-04', NULL, 2, %s, 7, 5, 0, 4, 3)""", (DECK,))
    return dataclasses.replace(config, database_url=primary, read_database_url=replica)


def test_the_setting_is_read_from_the_environment_and_passed_on():
    config = Config.from_env({"DATABASE_URL": "postgresql:///a", "EMPYREAN_READ_DATABASE_URL": "postgresql:///b"})
    assert config.read_database_url == "postgresql:///b"
    assert config.environment()["EMPYREAN_READ_DATABASE_URL"] == "postgresql:///b"
    assert Config.from_env({"DATABASE_URL": "postgresql:///a"}).read_database_url is None


def test_statistics_come_from_the_read_database_and_everything_else_from_the_primary(replica_config):
    with running_app(replica_config) as app:
        client = as_admin(app)  # it creates an event
        rows = client.get("/api/v1/stats/decks").get_json()["rows"]
        assert [(r["deck"], r["games"], r["wins"]) for r in rows] == [(DECK, 7, 5)]
        page = client.get("/meta?from=2026-03-01&to=2026-03-31")
        assert page.status_code == 200 and DECK in page.get_data(as_text=True)
        # writes and the rest of the API use the primary: an event created there is not in the replica
        created = client.post("/api/v1/events", json={"name": "Primary Only Open"})
        assert created.status_code == 201
        assert client.get(f"/api/v1/events/{created.get_json()['id']}").status_code == 200
        with psycopg.connect(replica_config.read_database_url) as conn:
            assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 0
        ready = client.get("/api/v1/ready").get_json()
        assert ready["status"] == "ready" and ready["checks"]["postgres_read"]["ok"]


def test_a_read_database_that_is_down_is_named_by_ready(replica_config):
    down = dataclasses.replace(replica_config, read_database_url="postgresql://127.0.0.1:1/nothing")
    with running_app(down) as app:
        ready = app.test_client().get("/api/v1/ready")
        assert ready.status_code == 503 and ready.get_json()["down"] == ["postgres_read"]
