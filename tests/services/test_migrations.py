"""The schema comes from Alembic migrations, applied to real PostgreSQL."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import psycopg
import pytest
from service_helpers import child_env

from services.config import Config
from services.db import migrate

TABLES = {
    "events", "event_matches", "games", "verdicts", "game_records", "game_players",
    "game_player_battlefields", "game_player_cards", "game_player_rounds", "disputes",
    "agg_deck_results", "agg_matchups", "agg_battlefield_decks", "agg_first_player", "agg_card_metrics",
    "agg_battlefield_first_player", "agg_game_margins", "agg_deck_rounds", "agg_battlefield_matchups",
    "agg_battlefield_cards", "agg_event_games",
} | {f"{t}_weekly" for t in (  # migration 0004: the weekly roll-ups
    "agg_deck_results", "agg_matchups", "agg_battlefield_decks", "agg_first_player", "agg_card_metrics",
    "agg_battlefield_first_player", "agg_game_margins", "agg_deck_rounds", "agg_battlefield_matchups",
    "agg_battlefield_cards")} | {"api_tokens"}  # migration 0005: access control


def schema_snapshot(url: str) -> dict:
    """Tables, columns (with types and defaults), constraints and indexes of the public schema."""
    with psycopg.connect(url) as conn:
        columns = conn.execute(
            "SELECT table_name, column_name, data_type, is_nullable, column_default"
            " FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2").fetchall()
        constraints = conn.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)"
            " FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2").fetchall()
        indexes = conn.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1").fetchall()
        revision = migrate.current_revision(conn)
    return {"columns": columns, "constraints": constraints, "indexes": indexes, "revision": revision}


def tables(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()
    return {r[0] for r in rows} - {"alembic_version"}


def test_migrations_create_every_table_at_head(database_url):
    assert tables(database_url) == TABLES
    with psycopg.connect(database_url) as conn:
        assert migrate.current_revision(conn) == migrate.head_revision()


def test_upgrading_again_changes_nothing(database_url):
    before = schema_snapshot(database_url)
    migrate.upgrade(database_url)
    assert schema_snapshot(database_url) == before


def test_downgrade_to_base_and_back(fresh_database):
    url = fresh_database()
    migrate.upgrade(url)
    migrated = schema_snapshot(url)
    migrate.downgrade(url, "base")
    assert tables(url) == set()
    with psycopg.connect(url) as conn:
        assert migrate.current_revision(conn) is None
    migrate.upgrade(url)
    assert schema_snapshot(url) == migrated


def test_game_status_is_one_of_the_explicit_states(database_url):
    with psycopg.connect(database_url) as conn:
        for status in ("received", "queued", "replaying", "valid", "illegal", "mismatch", "malformed", "error"):
            conn.execute("INSERT INTO games (content_hash, raw_log, status) VALUES (%s, %s, %s)",
                         (hashlib.sha256(status.encode()).hexdigest(), b"{}", status))
        with pytest.raises(psycopg.errors.CheckViolation):
            conn.execute("INSERT INTO games (content_hash, raw_log, status) VALUES (%s, %s, %s)",
                         ("f" * 64, b"{}", "pending"))
        conn.rollback()


def test_the_same_content_hash_is_stored_once(database_url):
    with psycopg.connect(database_url) as conn:
        insert = "INSERT INTO games (content_hash, raw_log) VALUES (%s, %s)"
        conn.execute(insert, ("ab" * 32, b'{"a": 1}'))
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute(insert, ("ab" * 32, b'{"a":1}'))
        conn.rollback()


def test_raw_log_keeps_exactly_the_bytes_received(database_url):
    raw = b'{"format": "empyrean-log", "format": 1, \xff\x00}'  # duplicate key, not UTF-8, a NUL
    with psycopg.connect(database_url) as conn:
        game_id = conn.execute("INSERT INTO games (content_hash, raw_log) VALUES (%s, %s) RETURNING id",
                               ("cd" * 32, raw)).fetchone()[0]
        assert conn.execute("SELECT raw_log FROM games WHERE id = %s", (game_id,)).fetchone()[0] == raw
        conn.rollback()


def test_aggregate_rows_accumulate_per_key_including_no_event(database_url):
    """Aggregates are updated incrementally: adding to an existing key (event or none) sums into
    one row, and taking a game's contribution back out returns the row to what it was."""
    upsert = """
        INSERT INTO agg_deck_results (played_on, event_id, players, deck, games, wins)
        VALUES (%s, %s, 2, %s, %s, %s)
        ON CONFLICT (played_on, event_id, players, deck) DO UPDATE
        SET games = agg_deck_results.games + EXCLUDED.games, wins = agg_deck_results.wins + EXCLUDED.wins
    """
    with psycopg.connect(database_url) as conn:
        event_id = conn.execute("INSERT INTO events (name) VALUES ('Spring Open') RETURNING id").fetchone()[0]
        for event in (None, None, event_id, None):
            conn.execute(upsert, ("2026-03-14", event, "Cavalry", 1, 1))
        conn.execute(upsert, ("2026-03-14", None, "Cavalry", -1, -1))  # a replayed game's old share out
        rows = conn.execute("SELECT event_id, games, wins FROM agg_deck_results ORDER BY event_id NULLS FIRST"
                            ).fetchall()
        assert rows == [(None, 2, 2), (event_id, 1, 1)]
        conn.rollback()


def test_db_commands_report_and_apply_migrations(fresh_database, tmp_path):
    url = fresh_database()
    env = child_env(Config(data_dir=tmp_path).with_servers(url, "redis://unused"))

    def empyrean(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "services.cli", "db", *args], env=env,
                              capture_output=True, text=True, timeout=120)

    before = empyrean("current")
    assert before.returncode == 0, before.stderr
    assert "database at revision (none) (behind" in before.stdout
    upgraded = empyrean("upgrade")
    assert upgraded.returncode == 0, upgraded.stderr
    assert f"database at revision {migrate.head_revision()} (up to date)" in upgraded.stdout
    assert tables(url) == TABLES
