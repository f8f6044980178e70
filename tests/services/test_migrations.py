"""The schema comes from Alembic migrations, applied to real PostgreSQL."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import subprocess
import sys

import psycopg
import pytest
from alembic.script import ScriptDirectory
from service_helpers import as_admin, child_env, ended_early, running_app

from engine.bfe.selfplay import self_play
from engine.games import DEFAULT_GAME
from engine.log import canonical_decisions, canonical_hash, dump_log, parse_log
from engine.replay import ENGINE_VERSION, replay
from engine.seats import as_recorded
from services.games.records import (
    RECORD_COLUMNS,
    FinishedGame,
    _record_rows,
    recount_differences,
    write_records,
)
from services.platform import migrate
from services.platform.config import Config
from services.stats.aggregates import AGGREGATES, BFE

TABLES = {
    "events", "event_matches", "games", "verdicts", "game_records", "game_players",
    "game_player_battlefields", "game_player_cards", "game_player_rounds", "disputes",
    "agg_deck_results", "agg_matchups", "agg_battlefield_decks", "agg_first_player", "agg_card_metrics",
    "agg_battlefield_first_player", "agg_game_margins", "agg_deck_rounds", "agg_battlefield_matchups",
    "agg_battlefield_cards", "agg_event_games",
} | {f"{t}_weekly" for t in (  # migration 0004: the weekly roll-ups
    "agg_deck_results", "agg_matchups", "agg_battlefield_decks", "agg_first_player", "agg_card_metrics",
    "agg_battlefield_first_player", "agg_game_margins", "agg_deck_rounds", "agg_battlefield_matchups",
    "agg_battlefield_cards")} | {"api_tokens"} | {"game_seats", "agg_faction_results"} | {  # 0005: access; 0018, 0019
    "titans_games", "titans_seats", "titans_squad_titans", "titans_maneuvers_played", "agg_titans_matchups",
    "agg_titans_titans", "agg_titans_maneuvers", "agg_titans_endings", "agg_titans_initiative",
    "agg_titans_squads"} | {  # 0021: Titans of Empyrean's statistics
    "elysian_games", "elysian_seats", "elysian_cards_played", "agg_elysian_heroes", "agg_elysian_endings",
    "agg_elysian_positions", "agg_elysian_cards", "agg_elysian_dice"} | {  # 0022: Elysian Battlefields' statistics
    "steam_games", "steam_seats", "steam_teams", "steam_specialists", "steam_spellcars", "steam_awards",
    "agg_steam_results", "agg_steam_positions", "agg_steam_endings", "agg_steam_specialists", "agg_steam_spellcars",
    "agg_steam_awards", "agg_steam_teams"}  # 0023: Spells & Steam's statistics


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


def write_records_at(conn: psycopg.Connection, games: list[FinishedGame]) -> None:
    """write_records for a database at an older revision (the set-up of a test of a later one): the
    record tables and columns that revision does not have yet are left out, as the code of its day
    wrote them."""
    have = {(table, column) for table, column in conn.execute(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'")}
    with conn.cursor() as cur:
        for table, columns in RECORD_COLUMNS.items():
            names = [c.strip() for c in columns.split(",")]
            kept = [i for i, c in enumerate(names) if (table, c) in have]
            if not kept:
                continue
            rows = [row for game in games for row in _record_rows(game, ENGINE_VERSION, pending=False)[table]]
            with cur.copy(f"COPY {table} ({', '.join(names[i] for i in kept)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row([row[i] for i in kept])
    counted = sorted(game.game_id for game in games if game.counted)
    if counted:  # the aggregates that revision has, as it counted them (no game column before 0018)
        for aggregate in AGGREGATES:
            if (aggregate.table, "played_on") in have:
                before_games = ("game_records", "game") not in have
                statement = aggregate.contribution_sql_at("0017") if before_games else aggregate.contribution_sql
                conn.execute(statement, {"games": counted, "sign": 1})


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


def test_how_a_game_ended_is_one_of_three_and_a_concession_names_who(database_url):
    insert = """INSERT INTO game_records (game_id, players, battlefields, first_player, margin, decisions, played_on,
                                          engine_version, catalog_version, end_reason, conceded_by)
                VALUES (%s, 2, '{}', 1, 0, 0, '2026-03-14', 'x', 'x', %s, %s)"""
    for end_reason, conceded_by, error in [("concession", None, psycopg.errors.CheckViolation),
                                           ("score", 2, psycopg.errors.CheckViolation),
                                           ("concession", 3, psycopg.errors.CheckViolation),  # a 2-player game
                                           ("forfeit", None, psycopg.errors.CheckViolation),
                                           ("concession", 2, None), ("time", None, None)]:
        with psycopg.connect(database_url) as conn:
            game_id = conn.execute("INSERT INTO games (content_hash, raw_log) VALUES (%s, '{}') RETURNING id",
                                   (hashlib.sha256(f"{end_reason}{conceded_by}".encode()).hexdigest(),)).fetchone()[0]
            if error is None:
                conn.execute(insert, (game_id, end_reason, conceded_by))
            else:
                with pytest.raises(error):
                    conn.execute(insert, (game_id, end_reason, conceded_by))
            conn.rollback()


def test_downgrading_0009_leaves_the_counts_the_code_before_it_takes_out(fresh_database):
    """Since 0009 a game that ended early is not in the margins nor in might by round; the code
    before it takes every counted game out of both when it replays one. So the downgrade adds those
    counts: after it, the statements of revision 0008 (today's without the end_reason condition)
    take every counted game out to exactly zero."""
    url = fresh_database()
    migrate.upgrade(url)
    logs = [self_play(7401), ended_early(7402, {}, 6, {"winner": 1, "reason": "concession"}, concede="P2 concede"),
            ended_early(7403, {}, 5, {"winner": None, "reason": "time", "time_rule": "draw"})]
    with psycopg.connect(url) as conn:
        for n, log in enumerate(logs):
            raw = json.dumps(log).encode()
            result = replay(raw)
            assert result.verdict.status == "valid", result.verdict.message
            game_id = conn.execute("INSERT INTO games (content_hash, raw_log, status) VALUES (%s, %s, 'valid') "
                                   "RETURNING id", (canonical_hash(result.log), raw)).fetchone()[0]
            # as the replay writes it: a valid game counts by its verdict (recount_differences' rule)
            conn.execute("INSERT INTO verdicts (game_id, status, message, engine_version) "
                         "VALUES (%s, 'valid', 'valid', %s)", (game_id, ENGINE_VERSION))
            write_records(conn, [FinishedGame(game_id, result.record, result.log, played_on=f"2026-03-1{n}",
                                              event_id=None, counted=True)], engine_version=ENGINE_VERSION)
        assert conn.execute("SELECT sum(games) FROM agg_game_margins WHERE battlefield = '*'").fetchone()[0] == 1
        assert set(recount_differences(conn).values()) == {0}
        conn.commit()

    migrate.downgrade(url, "0008")
    # the statements of that revision: Battle for Empyrean's aggregates, before games had keys (0018,
    # 0019: the game filter, agg_faction_results) and before 0009's condition
    bfe = [a for a in AGGREGATES if a.game == BFE]
    at_0008 = [a.contribution_sql_at("0008") for a in bfe]
    before_0009 = [statement.replace(" AND r.end_reason = 'score'", "") for statement in at_0008]
    assert sum(a != b for a, b in zip(at_0008, before_0009)) == 2  # margins and might by round
    with psycopg.connect(url) as conn, conn.transaction(force_rollback=True):
        assert conn.execute("SELECT sum(games) FROM agg_game_margins WHERE battlefield = '*'").fetchone()[0] == 3
        ids = [r[0] for r in conn.execute("SELECT game_id FROM game_records WHERE counted")]
        for statement in before_0009:
            conn.execute(statement, {"games": ids, "sign": -1})
        for table in (a.table for a in bfe):
            values = [c.name for c in conn.execute(f"SELECT * FROM {table} LIMIT 0").description
                      if c.name not in ("played_on", "event_id", "players", "deck", "opponent_deck", "battlefield",
                                        "card", "margin", "round")]
            nonzero = " OR ".join(f"{v} <> 0" for v in values)
            assert conn.execute(f"SELECT count(*) FROM {table} WHERE {nonzero}").fetchone()[0] == 0, table

    # and up again: the records read 'score' (as that code counted them), still exact
    migrate.upgrade(url)
    with psycopg.connect(url) as conn:
        assert set(recount_differences(conn).values()) == {0}


# --- revision 0010: stored content hashes follow the canonical form ------------------------------------


def written_order_hash(raw: bytes) -> str:
    """The content hash before revision 0010: engine.log.to_json as it was, the decisions in the order
    written (draws and keeps of a simultaneous draft in whatever player order the writer chose)."""
    text = json.dumps(dump_log(parse_log(raw)), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def old_games() -> dict[str, bytes]:
    """Logs as stored before revision 0010, by name."""
    recorded = as_recorded(self_play(7303))
    by_player = {**recorded, "decisions": canonical_decisions(recorded["decisions"])}
    games = {
        "seeded": json.dumps(self_play(7301)).encode(),
        "seeded, other": json.dumps(self_play(7302), indent=1).encode(),
        "recorded": json.dumps(recorded).encode(),
        # the same game as "recorded", its draft written player by player (stored before too: a
        # different hash then)
        "recorded, by player": json.dumps(by_player).encode(),
        "malformed": b'{"format": "empyrean-log", "version": 1, "setup": {"mode": "5p"}}',
    }
    for name, raw in games.items():
        if name != "malformed":
            assert written_order_hash(raw) != canonical_hash(parse_log(raw)) or name == "recorded, by player"
    return games


def store_old(url: str, games: dict[str, bytes]) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {name: conn.execute(
            "INSERT INTO games (content_hash, raw_log) VALUES (%s, %s) RETURNING id",
            (hashlib.sha256(raw).hexdigest() if name == "malformed" else written_order_hash(raw), raw)).fetchone()[0]
            for name, raw in games.items()}


def stored_hashes(url: str, ids: dict[str, int]) -> dict[str, str]:
    with psycopg.connect(url) as conn:
        return {name: conn.execute("SELECT content_hash FROM games WHERE id = %s", (game_id,)).fetchone()[0]
                for name, game_id in ids.items()}


def test_stored_content_hashes_are_recomputed_so_a_reupload_is_still_a_duplicate(fresh_database, config, capfd):
    url = fresh_database()
    migrate.upgrade(url, "0009")
    games = old_games()
    ids = store_old(url, games)
    before = stored_hashes(url, ids)
    capfd.readouterr()

    migrate.upgrade(url)
    after = stored_hashes(url, ids)
    new = {name: canonical_hash(parse_log(raw)) for name, raw in games.items() if name != "malformed"}
    assert after["seeded"] == new["seeded"] and after["seeded, other"] == new["seeded, other"]
    assert after["recorded, by player"] == before["recorded, by player"] == new["recorded"]  # already canonical
    # the two writings of one game: the one stored in draft order keeps its old hash, and it is said
    assert after["recorded"] == before["recorded"] != new["recorded"]
    assert after["malformed"] == before["malformed"] == hashlib.sha256(games["malformed"]).hexdigest()
    err = capfd.readouterr().err
    assert "migration 0010: 2 games' content hashes recomputed (draws and keeps in a row listed by player)" in err
    assert (f"game {ids['recorded']} kept its old content hash: game {ids['recorded, by player']} already has "
            "the new one") in err

    # uploads of the same bytes (and of the game written another way) find the stored games
    with running_app(dataclasses.replace(config, database_url=url)) as app:
        client = as_admin(app)
        for name, same_as in [("seeded", "seeded"), ("seeded, other", "seeded, other"),
                              ("recorded", "recorded, by player"), ("malformed", "malformed")]:
            response = client.post("/api/v1/games", data=games[name], content_type="application/json")
            assert response.status_code == 200, (name, response.get_json())
            assert response.get_json()["duplicate"] is True and response.get_json()["id"] == ids[same_as], name
        reordered = json.dumps(json.loads(games["seeded"]), indent=3).encode()  # other whitespace: the same
        assert client.post("/api/v1/games", data=reordered, content_type="application/json").get_json()["id"] == \
            ids["seeded"]

    # downgrade: the hashes of the code before revision 0010 again
    migrate.downgrade(url, "0009")
    assert stored_hashes(url, ids) == before
    err = capfd.readouterr().err
    assert "migration 0010: 2 games' content hashes recomputed (decisions in the order written" in err


def test_rehash_goes_through_every_game_batch_by_batch(fresh_database):
    url = fresh_database()
    migrate.upgrade(url)
    games = old_games()
    ids = store_old(url, games)
    rehash = ScriptDirectory.from_config(migrate.alembic_config()).get_revision("0010").module
    with psycopg.connect(url) as conn:
        # three games a batch: the two writings of one game (stored third and fourth) fall in different ones
        changed, kept = rehash.rehash(conn, rehash.canonical_hash, batch=3)
    assert (changed, kept) == (2, [(ids["recorded"], ids["recorded, by player"])])
    assert stored_hashes(url, {n: ids[n] for n in ("seeded", "seeded, other")}) == {
        n: canonical_hash(parse_log(games[n])) for n in ("seeded", "seeded, other")}
    with psycopg.connect(url) as conn:  # run again: nothing left to change
        assert rehash.rehash(conn, rehash.canonical_hash, batch=2) == (0, [(ids["recorded"],
                                                                           ids["recorded, by player"])])


# --- revision 0013: one match counts once; who uploaded a game -----------------------------------------


def test_upgrading_to_0013_counts_each_shared_match_once(fresh_database):
    """Before 0013 every valid upload of a match was counted. The upgrade settles them by the rule:
    a match in open dispute counts nothing; one whose uploads were never disputed, its first valid
    game; and the aggregates then equal a recount under that rule. A game stored under 0012 knows its
    token's id only (games.uploaded_by): the upgrade fills in its owner, name and role."""
    url = fresh_database()
    migrate.upgrade(url, "0012")
    with psycopg.connect(url) as conn:
        token = conn.execute("INSERT INTO api_tokens (prefix, secret_hash, role, name, owner) "
                             "VALUES ('Abcd1234', %s, 'uploader', 'phone', 'a player') RETURNING id",
                             ("0" * 64,)).fetchone()[0]
        event = conn.execute("INSERT INTO events (name) VALUES ('Old Open') RETURNING id").fetchone()[0]
        matches = [conn.execute("INSERT INTO event_matches (event_id, round, table_label, players) "
                                "VALUES (%s, %s, '1', ARRAY['A', 'B']) RETURNING id", (event, n)).fetchone()[0]
                   for n in (1, 2)]
        ids = {}
        for n, (match, seed) in enumerate([(matches[0], 7801), (matches[0], 7802), (matches[0], 7803),
                                           (matches[1], 7804), (matches[1], 7805)]):
            raw = json.dumps(self_play(seed)).encode()
            result = replay(raw)
            game_id = conn.execute(
                "INSERT INTO games (content_hash, raw_log, status, event_id, match_id, claimed_winner, uploaded_by) "
                "VALUES (%s, %s, 'valid', %s, %s, 'A', %s) RETURNING id",
                (canonical_hash(result.log), raw, event, match, token if n == 0 else None)).fetchone()[0]
            conn.execute("INSERT INTO verdicts (game_id, status, message, engine_version) "
                         "VALUES (%s, 'valid', 'valid', %s)", (game_id, ENGINE_VERSION))
            write_records_at(conn, [FinishedGame(game_id, result.record, result.log, played_on="2026-04-01",
                                                 event_id=event, counted=True)])
            ids.setdefault(match, []).append(game_id)
        conn.execute("INSERT INTO disputes (match_id, reason) VALUES (%s, 'results differ')", (matches[0],))
        assert conn.execute("SELECT sum(games) FROM agg_first_player").fetchone()[0] == 5
    migrate.upgrade(url)
    with psycopg.connect(url) as conn:
        counted = [r[0] for r in conn.execute("SELECT game_id FROM game_records WHERE counted ORDER BY 1")]
        assert counted == [min(ids[matches[1]])]
        assert conn.execute("SELECT sum(games) FROM agg_first_player").fetchone()[0] == 1
        assert set(recount_differences(conn).values()) == {0}
        uploaded = conn.execute("SELECT uploaded_by, uploaded_by_owner, uploaded_by_name, uploaded_by_role FROM games "
                                "WHERE uploaded_by IS NOT NULL OR uploaded_by_role IS NOT NULL").fetchall()
        assert uploaded == [(token, "a player", "phone", "uploader")]


# --- revision 0017: who may open a dispute (uploads standing for their match) ---------------------------


def test_upgrading_to_0017_marks_standing_uploads_and_counts_the_standing_one(fresh_database):
    """Games stored before 0017 are marked standing or not from the token that uploaded them and
    their event (services.games.disputes.STANDING_SQL): an admin's, the organiser's, a token bound to
    the event, or none, are; a player's own token and an organiser of other events are not. Then
    every shared match is settled by the rule that reads the standing uploads only: a match whose
    first (counted) upload was a player's counts the organiser's log instead, and the aggregates
    equal a recount under the rule."""
    url = fresh_database()
    migrate.upgrade(url, "0016")
    with psycopg.connect(url) as conn:
        event, other = (conn.execute("INSERT INTO events (name, organiser) VALUES (%s, 'Org') RETURNING id",
                                     (name,)).fetchone()[0] for name in ("Old Cup", "Elsewhere"))

        def token(prefix: str, role: str, owner: str, event_id: int | None = None) -> int:
            return conn.execute("INSERT INTO api_tokens (prefix, secret_hash, role, owner, event_id) "
                                "VALUES (%s, %s, %s, %s, %s) RETURNING id",
                                (prefix, "0" * 64, role, owner, event_id)).fetchone()[0]

        tokens = {"player": token("Player01", "uploader", "a player"), "org": token("Organis1", "organiser", "Org"),
                  "stranger": token("Strange1", "organiser", "Someone"), "admin": token("Adminxx1", "admin", "ops"),
                  "bound": token("Boundxx1", "uploader", "table 1", event),
                  "elsewhere": token("Elsewhe1", "uploader", "table 9", other), "none": None}
        match = [conn.execute("INSERT INTO event_matches (event_id, round, table_label, players) "
                              "VALUES (%s, 1, %s, ARRAY['A', 'B']) RETURNING id", (event, str(n))).fetchone()[0]
                 for n in range(len(tokens))]
        ids = {}
        # match 0: the player's upload first (counted by the old rule), the organiser's agreeing one second;
        # every other match: one upload by one kind of token
        uploads = [("player", match[0]), ("org", match[0])] + [(who, match[n]) for n, who in enumerate(tokens) if n]
        for n, (who, match_id) in enumerate(uploads):
            raw = json.dumps(self_play(7900 + n)).encode()
            result = replay(raw)
            game_id = conn.execute(
                "INSERT INTO games (content_hash, raw_log, status, event_id, match_id, claimed_winner, uploaded_by) "
                "VALUES (%s, %s, 'valid', %s, %s, 'A', %s) RETURNING id",
                (canonical_hash(result.log), raw, event, match_id, tokens[who])).fetchone()[0]
            conn.execute("INSERT INTO verdicts (game_id, status, message, engine_version) "
                         "VALUES (%s, 'valid', 'valid', %s)", (game_id, ENGINE_VERSION))
            write_records_at(conn, [FinishedGame(game_id, result.record, result.log, played_on="2026-04-01",
                                                 event_id=event, counted=n != 1)])
            ids[(who, match_id)] = game_id
    migrate.upgrade(url)
    with psycopg.connect(url) as conn:
        standing = dict(conn.execute("SELECT id, standing FROM games").fetchall())
        assert {who: standing[gid] for (who, match_id), gid in ids.items() if match_id != match[0]} == {
            "org": True, "stranger": False, "admin": True, "bound": True, "elsewhere": False, "none": True}
        assert (standing[ids[("player", match[0])]], standing[ids[("org", match[0])]]) == (False, True)
        counted = {r[0] for r in conn.execute("SELECT game_id FROM game_records WHERE counted")}
        assert ids[("org", match[0])] in counted and ids[("player", match[0])] not in counted
        assert conn.execute("SELECT count(*) FROM disputes").fetchone()[0] == 0
        assert conn.execute("SELECT sum(games) FROM agg_first_player").fetchone()[0] == len(match)
        assert set(recount_differences(conn).values()) == {0}


# --- revision 0018: which game each row is of, and how each seat finished --------------------------------


def test_upgrading_to_0018_keeps_every_content_hash_and_gives_each_stored_record_its_seats(fresh_database, config):
    """Everything stored before 0018 is Battle for Empyrean's, and says so; no content hash changes
    (a BfE log is written without "game"), so a re-upload is still a duplicate; and every stored
    record gets its seats (game_seats) exactly as the replay writes them now, from the engine's
    outcome (rank, score, won, team) and the deck each seat played."""
    url = fresh_database()
    migrate.upgrade(url, "0017")
    logs = {"two players": self_play(8101, meta={"players": ["Ada", "Bo"]}),
            "three players": self_play(8102, players=3),
            "conceded": ended_early(8103, {}, 6, {"winner": 1, "reason": "concession"}, concede="P2 concede"),
            "time, a draw": ended_early(8104, {}, 5, {"winner": None, "reason": "time", "time_rule": "draw"})}
    ids, results = {}, {}
    with psycopg.connect(url) as conn:
        event = conn.execute("INSERT INTO events (name, organiser) VALUES ('Before Games Had Keys', 'Org') "
                             "RETURNING id").fetchone()[0]
        for name, log in logs.items():
            raw = json.dumps(log).encode()
            result = replay(raw)
            assert result.verdict.status == "valid", (name, result.verdict.message)
            game_id = conn.execute("INSERT INTO games (content_hash, raw_log, status, event_id) "
                                   "VALUES (%s, %s, 'valid', %s) RETURNING id",
                                   (canonical_hash(result.log), raw, event)).fetchone()[0]
            conn.execute("INSERT INTO verdicts (game_id, status, message, engine_version) "
                         "VALUES (%s, 'valid', 'valid', %s)", (game_id, ENGINE_VERSION))
            write_records_at(conn, [FinishedGame(game_id, result.record, result.log, played_on="2026-04-02",
                                                 event_id=event, counted=True)])
            ids[name], results[name] = game_id, result
        malformed = b'{"format": "empyrean-log", "version": 1}'
        conn.execute("INSERT INTO games (content_hash, raw_log, status) VALUES (%s, %s, 'malformed')",
                     (hashlib.sha256(malformed).hexdigest(), malformed))
        hashes = dict(conn.execute("SELECT id, content_hash FROM games").fetchall())

    migrate.upgrade(url)
    with psycopg.connect(url) as conn:
        assert dict(conn.execute("SELECT id, content_hash FROM games").fetchall()) == hashes
        assert {hashes[ids[name]] for name in logs} == {canonical_hash(results[name].log) for name in logs}
        for table in ("events", "games", "game_records"):
            assert conn.execute(f"SELECT array_agg(DISTINCT game) FROM {table}").fetchone()[0] == [DEFAULT_GAME]
        seats = conn.execute("SELECT game_id, seat, player_name, faction, rank, score, won, team FROM game_seats "
                             "ORDER BY game_id, seat").fetchall()
        names = {name: list(logs[name].get("meta", {}).get("players", [])) for name in logs}
        assert seats == [(ids[name], s.seat, names[name][s.seat - 1] if names[name] else None,
                          results[name].log.setup.decks[s.seat - 1].name, s.rank, s.score, s.won, s.team)
                         for name in logs for s in results[name].outcome.seats]
        by_game = {name: [row for row in seats if row[0] == ids[name]] for name in logs}
        assert len(by_game["three players"]) == 3 and by_game["two players"][0][2] == "Ada"
        draw = by_game["time, a draw"]
        assert [(rank, won) for *_, rank, _, won, _ in draw] == [(1, False), (1, False)]
        winner = results["conceded"].outcome.winner
        assert {(seat, rank, won) for _, seat, _, _, rank, _, won, _ in by_game["conceded"]} == {
            (seat, 1 if seat == winner else 2, seat == winner) for seat in (1, 2)}
        assert all(score is not None and 0 <= score <= 3 for *_, score, _, _ in seats)
        assert set(recount_differences(conn).values()) == {0}
        with pytest.raises(psycopg.errors.CheckViolation):  # a key is written as engine.games.KEY_PATTERN says
            conn.execute("UPDATE events SET game = 'Battle for Empyrean' WHERE id = %s", (event,))
        conn.rollback()
    with running_app(dataclasses.replace(config, database_url=url)) as app:  # the same logs again: duplicates
        client = as_admin(app)
        for name, log in logs.items():
            response = client.post("/api/v1/games", json=log)
            assert (response.status_code, response.get_json()["id"]) == (200, ids[name]), name

    migrate.downgrade(url, "0017")
    assert "game_seats" not in tables(url)
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM information_schema.columns WHERE column_name = 'game'"
                            ).fetchone()[0] == 0
        assert conn.execute("SELECT to_regclass('game_records_counted_played_on_idx') IS NOT NULL").fetchone()[0]
