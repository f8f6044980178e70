"""Replaying a chunk of games in one transaction (services.games.replay.replay_stored_games), the bulk path:
every kind of verdict in one chunk, a chunk replayed twice, a chunk whose write fails, two games of
one match in one chunk. Against the real PostgreSQL; the games are stored without being sent to a
worker, so the test alone replays them."""

from __future__ import annotations

import dataclasses
import json
import time
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from test_ingest import aggregates

from engine.bfe.selfplay import self_play
from engine.rng import SplitMix64
from services.games.dispatch import (
    MAX_CHUNK,
    MIN_CHUNK,
    SPREAD,
    bundle_chunk_size,
    mark_reprocess,
    sweep_stuck_games,
)
from services.games.events import create_event
from services.games.fold import fold_pending_counts
from services.games.records import (
    COUNTING_RULE,
    FOLD_LOCK,
    apply_contribution,
    recount_differences,
    rollup_differences,
)
from services.games.replay import replay_stored_games
from services.games.store import parse_upload, store_upload
from services.platform import migrate
from services.platform.broker import make_celery
from services.platform.pool import create_pool
from services.simulation.simulate import make_illegal
from services.stats.aggregates import AGGREGATES


@pytest.fixture
def pool(ingest_config):
    pool = create_pool(ingest_config.database_url, max_size=2, name="test-chunks")
    pool.wait()
    yield pool
    pool.close()


def store(db, logs: list, event: str | None = None) -> list[int]:
    """Store logs as an upload would, without sending them to a worker."""
    with db.transaction():
        event_id = create_event(db, event, None, None, "public", "chunk tests")[0] if event else None
        return [store_upload(db, parse_upload(json.dumps(log).encode()), "chunk-test", event_id=event_id).id
                for log in logs]


def mismatch(log: dict) -> dict:
    out = json.loads(json.dumps(log))
    out["result"] = {"winner": 3 - log["result"]["winner"]} if log["result"]["winner"] in (1, 2) else {"winner": 1}
    return out


def verdicts(db, ids: list[int]) -> dict[int, str]:
    return dict(db.execute("SELECT game_id, status FROM verdicts WHERE game_id = ANY(%s)", (ids,)).fetchall())


def test_a_chunk_with_every_kind_of_game_gets_every_verdict_and_exact_counts(db, pool):
    valid = [self_play(7100 + i, players=3 if i % 4 == 3 else 2, meta={"date": f"2026-03-{1 + i:02d}"})
             for i in range(12)]
    illegal = make_illegal(self_play(7150), SplitMix64(3))
    wrong_claim = mismatch(self_play(7151))
    broken = self_play(7152)
    del broken["setup"]  # malformed: judged when stored; a reprocess replays it with the rest
    ids = store(db, [*valid, illegal, wrong_claim, broken], event="Chunk Open")
    assert mark_reprocess(db, game_ids=ids) == [ids[-1]]
    statuses = replay_stored_games(pool, ids)
    assert statuses == {**{gid: "valid" for gid in ids[:12]}, ids[12]: "illegal", ids[13]: "mismatch",
                        ids[14]: "malformed"}
    assert verdicts(db, ids) == statuses
    games = dict(db.execute("SELECT id, status FROM games WHERE id = ANY(%s)", (ids,)).fetchall())
    assert games == statuses
    # record rows for valid and mismatch games, counted only for valid ones
    records = dict(db.execute("SELECT game_id, counted FROM game_records WHERE game_id = ANY(%s)", (ids,)).fetchall())
    assert records == {**{gid: True for gid in ids[:12]}, ids[13]: False}
    seats = db.execute("SELECT count(*) FROM game_players WHERE game_id = ANY(%s)", (ids[:12],)).fetchone()[0]
    assert seats == sum(3 if i % 4 == 3 else 2 for i in range(12))
    with db.transaction():
        assert set(recount_differences(db).values()) == {0}
        assert set(rollup_differences(db).values()) == {0}
    # each game claimed once for this replay
    assert {r[0] for r in db.execute("SELECT attempts FROM games WHERE id = ANY(%s)", (ids,))} == {1}


def test_a_chunk_replayed_again_counts_every_game_once(db, pool):
    ids = store(db, [self_play(7200 + i, meta={"date": "2026-04-06"}) for i in range(10)])
    replay_stored_games(pool, ids)
    before = aggregates(db)
    # a stale message for games already finished (a sweeper re-send of games that were only
    # waiting their turn): not replayed, not claimed, nothing taken out of the statistics
    assert replay_stored_games(pool, ids[:4]) == {}
    assert replay_stored_games(pool, ids[4:6], claim=False, defer_counts=True) == {}
    assert {r[0] for r in db.execute("SELECT attempts FROM games WHERE id = ANY(%s)", (ids,))} == {1}
    assert aggregates(db) == before
    # reprocessed, overlapping another chunk, in another order: nothing moves
    assert mark_reprocess(db, game_ids=ids) == ids
    assert set(replay_stored_games(pool, list(reversed(ids)) + ids[:3]).values()) == {"valid"}
    assert aggregates(db) == before
    assert db.execute("SELECT count(*) FROM game_records WHERE game_id = ANY(%s)", (ids,)).fetchone()[0] == 10
    with db.transaction():
        assert set(recount_differences(db).values()) == {0}


def test_a_chunk_that_fails_to_write_is_replayed_game_by_game(db, pool, monkeypatch):
    import services.games.replay

    ids = store(db, [self_play(7300 + i) for i in range(5)])
    bad = ids[2]
    real = services.games.replay.copy_record_rows

    def fails_on_one_game(conn, games, **kwargs):
        if any(game.game_id == bad for game in games):
            raise RuntimeError("simulated bug")
        return real(conn, games, **kwargs)

    monkeypatch.setattr(services.games.replay, "copy_record_rows", fails_on_one_game)
    statuses = replay_stored_games(pool, ids)
    assert statuses == {**{gid: "valid" for gid in ids if gid != bad}, bad: "error"}
    assert verdicts(db, ids) == statuses
    message = db.execute("SELECT status_message FROM games WHERE id = %s", (bad,)).fetchone()[0]
    assert "simulated bug" in message
    # the failed chunk left nothing behind: the others were written once, by their own replays
    assert db.execute("SELECT count(*) FROM game_records WHERE game_id = ANY(%s)", (ids,)).fetchone()[0] == 4
    with db.transaction():
        assert set(recount_differences(db).values()) == {0}


def test_two_games_of_one_match_in_one_chunk_open_one_dispute(db, pool):
    meta = {"event": "Chunk Dispute Cup", "round": 1, "table": 4, "players": ["Ed", "Flo"]}
    honest = self_play(7400, meta=meta)
    ids = store(db, [honest, mismatch(honest), self_play(7401)], event="Chunk Dispute Cup")
    statuses = replay_stored_games(pool, ids)
    assert [statuses[gid] for gid in ids] == ["valid", "mismatch", "valid"]
    match_id = db.execute("SELECT match_id FROM games WHERE id = %s", (ids[0],)).fetchone()[0]
    disputes = db.execute("SELECT reason FROM disputes WHERE match_id = %s", (match_id,)).fetchall()
    assert len(disputes) == 1
    reason = disputes[0][0]
    # written after both verdicts were in: no side is 'not replayed yet'
    assert "claim different results" in reason and "verdicts differ" in reason and "not replayed" not in reason


def counted_flags(db, ids: list[int]) -> dict[int, tuple[bool, bool]]:
    return {gid: (counted, pending) for gid, counted, pending in db.execute(
        "SELECT game_id, counted, pending FROM game_records WHERE game_id = ANY(%s)", (ids,))}


def test_a_pending_game_whose_match_falls_into_dispute_is_not_folded_later(db, pool):
    """One match counts once (services.games.disputes), also for games the fold adds later: a valid
    game left pending by a bulk replay, then a disagreeing log of its match replayed — the dispute
    opens, the pending game is no longer pending (its status its verdict, not 'replaying') and the
    fold adds nothing."""
    meta = {"event": "Fold Dispute Cup", "round": 1, "table": 9, "players": ["Gil", "Hal"]}
    honest = self_play(7600, meta=meta)
    ids = store(db, [honest], event="Fold Dispute Cup")
    assert replay_stored_games(pool, [ids[0]], defer_counts=True) == {ids[0]: "valid"}
    assert counted_flags(db, ids) == {ids[0]: (False, True)}
    ids += store(db, [mismatch(honest)], event="Fold Dispute Cup")
    assert replay_stored_games(pool, [ids[1]], defer_counts=True) == {ids[1]: "mismatch"}
    assert counted_flags(db, ids) == {ids[0]: (False, False), ids[1]: (False, False)}
    assert db.execute("SELECT status FROM games WHERE id = %s", (ids[0],)).fetchone()[0] == "valid"
    fold_pending_counts(pool)
    assert counted_flags(db, ids)[ids[0]] == (False, False)
    assert db.execute("SELECT count(*) FROM disputes d JOIN games g ON g.match_id = d.match_id WHERE g.id = %s",
                      (ids[0],)).fetchone()[0] == 1
    with db.transaction():
        assert set(recount_differences(db).values()) == {0}


def test_agreeing_logs_of_a_match_count_once_whichever_is_replayed_first(db, pool):
    """Two logs of one match that agree (same result, both valid, other bytes): no dispute; the first
    upload counts, whichever of them the workers replay first; the recount check sees a second one
    counted."""
    meta = {"event": "Agreeing Cup", "round": 3, "table": 1, "players": ["Ida", "Jo"]}
    log = self_play(7700, meta=meta)
    again = json.loads(json.dumps(log))
    again["meta"]["x-seat"] = 2
    first, second = store(db, [log, again], event="Agreeing Cup")
    replay_stored_games(pool, [second])
    assert counted_flags(db, [first, second]) == {second: (True, False)}
    replay_stored_games(pool, [first])
    assert counted_flags(db, [first, second]) == {first: (True, False), second: (False, False)}
    assert db.execute("SELECT count(*) FROM disputes d JOIN games g ON g.match_id = d.match_id WHERE g.id = %s",
                      (first,)).fetchone()[0] == 0
    assert db.execute("""SELECT sum(games) FROM agg_first_player
                         WHERE event_id = (SELECT event_id FROM games WHERE id = %s)""", (first,)).fetchone()[0] == 1
    with db.transaction():
        assert set(recount_differences(db).values()) == {0}
    with db.transaction(force_rollback=True):  # the second one counted too: the aggregates agree, the rule not
        apply_contribution(db, [second], 1)
        db.execute("UPDATE game_records SET counted = true WHERE game_id = %s", (second,))
        differences = recount_differences(db)
        assert differences[COUNTING_RULE] == 1 and sum(differences.values()) == 1


def test_games_that_no_longer_exist_are_left_out(db, pool):
    ids = store(db, [self_play(7500)])
    assert replay_stored_games(pool, [ids[0], 987654321]) == {ids[0]: "valid"}
    assert replay_stored_games(pool, [987654321]) == {}


def test_bundles_are_cut_into_chunks_that_many_workers_can_share():
    assert bundle_chunk_size(1) == MIN_CHUNK
    assert bundle_chunk_size(300) == MIN_CHUNK  # 12 chunks of 25
    assert bundle_chunk_size(10_000) == 625  # SPREAD chunks
    assert bundle_chunk_size(100_000) == MAX_CHUNK
    for games in (1, 50, 399, 400, 401, 5_000, 16_001, 1_000_000):
        size = bundle_chunk_size(games)
        chunks = -(-games // size)
        assert MIN_CHUNK <= size <= MAX_CHUNK
        assert chunks >= min(SPREAD, -(-games // MIN_CHUNK))


def test_every_aggregate_table_leaves_room_for_updates(db):
    # migration 0007: fillfactor 50, so the worker's upserts update rows in place (HOT updates)
    rows = db.execute("""SELECT relname, reloptions FROM pg_class
                         WHERE relkind = 'r' AND relname LIKE 'agg\\_%' ORDER BY relname""").fetchall()
    # every aggregate services.stats.aggregates declares, the weekly roll-ups of those that have one, and
    # agg_event_games (the events page's)
    assert {name for name, _ in rows} == ({a.table for a in AGGREGATES} | {"agg_event_games"}
                                         | {a.weekly_table for a in AGGREGATES if a.weekly})
    assert {name: options for name, options in rows if options != ["fillfactor=50"]} == {}


def test_a_bulk_chunk_leaves_its_valid_games_pending_until_the_fold_counts_them(db, pool):
    logs = [self_play(7600 + i, meta={"date": "2026-05-04"}) for i in range(8)]
    ids = store(db, [*logs, make_illegal(self_play(7610), SplitMix64(5))])
    replay_stored_games(pool, ids[:8])  # counted at once, as a single upload's replay is
    counted_once = aggregates(db)
    # reprocessed in bulk: the old contribution is taken out, the new one waits for the fold
    mark_reprocess(db, game_ids=ids[:8])
    assert replay_stored_games(pool, ids, defer_counts=True) == {**{gid: "valid" for gid in ids[:8]},
                                                                 ids[8]: "illegal"}
    games = dict(db.execute("SELECT id, status FROM games WHERE id = ANY(%s)", (ids,)).fetchall())
    assert games == {**{gid: "replaying" for gid in ids[:8]}, ids[8]: "illegal"}
    assert db.execute("SELECT count(*) FROM game_records WHERE game_id = ANY(%s) AND pending AND NOT counted",
                      (ids,)).fetchone()[0] == 8
    assert aggregates(db) != counted_once
    with db.transaction():
        assert set(recount_differences(db).values()) == {0}  # pending games are in no aggregate
    # a bulk replay of a pending game drops its pending record; nothing is counted twice
    replay_stored_games(pool, ids[:3], defer_counts=True)
    assert fold_pending_counts(pool) >= 8
    assert aggregates(db) == counted_once
    games = dict(db.execute("SELECT id, status FROM games WHERE id = ANY(%s)", (ids,)).fetchall())
    assert games == {**{gid: "valid" for gid in ids[:8]}, ids[8]: "illegal"}
    finished = db.execute("SELECT count(*) FROM games WHERE id = ANY(%s) AND finished_at IS NOT NULL",
                          (ids,)).fetchone()[0]
    assert finished == 9
    with db.transaction():
        assert set(recount_differences(db).values()) == {0}
        assert set(rollup_differences(db).values()) == {0}


def test_one_fold_at_a_time_and_nothing_pending_is_left_behind(db, pool, ingest_config):
    ids = store(db, [self_play(7700 + i) for i in range(4)])
    replay_stored_games(pool, ids, defer_counts=True)
    with psycopg.connect(ingest_config.database_url) as holder:
        # another worker folding right now: this call leaves it to that one and returns at once
        assert holder.execute("SELECT pg_try_advisory_xact_lock(%s)", (FOLD_LOCK,)).fetchone()[0]
        started = time.monotonic()
        assert fold_pending_counts(pool) == 0
        assert time.monotonic() - started < 5
        assert db.execute("SELECT count(*) FROM game_records WHERE game_id = ANY(%s) AND pending",
                          (ids,)).fetchone()[0] == 4
        # a game held by a replay under way is skipped, not waited for: its replay folds it after
        holder.rollback()
        holder.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (ids[0],))
        assert fold_pending_counts(pool) == 3
        holder.rollback()
    assert fold_pending_counts(pool) == 1
    assert {r[0] for r in db.execute("SELECT status FROM games WHERE id = ANY(%s)", (ids,))} == {"valid"}


def test_the_sweeper_leaves_games_waiting_for_their_count_to_the_fold(db, pool, ingest_config):
    ids = store(db, [self_play(7800 + i) for i in range(3)])
    replay_stored_games(pool, ids, defer_counts=True)
    db.execute("UPDATE games SET updated_at = now() - interval '1 hour' WHERE id = ANY(%s)", (ids,))
    celery = make_celery(ingest_config)
    sweep_stuck_games(pool, celery, older_than_s=60)
    assert {r[0] for r in db.execute("SELECT status FROM games WHERE id = ANY(%s)", (ids,))} == {"replaying"}
    assert db.execute("SELECT sum(attempts) FROM games WHERE id = ANY(%s)", (ids,)).fetchone()[0] == 3
    assert fold_pending_counts(pool) >= 3
    assert {r[0] for r in db.execute("SELECT status FROM games WHERE id = ANY(%s)", (ids,))} == {"valid"}


def test_games_left_pending_by_a_worker_that_died_are_counted_by_the_sweeper(db, pool, worker):
    # As if a worker had committed its chunk and died before folding: the running worker's beat
    # (a sweep every second in these tests) folds them, and does not replay them again.
    ids = store(db, [self_play(7900 + i) for i in range(4)])
    replay_stored_games(pool, ids, defer_counts=True)
    deadline = time.monotonic() + 30
    while {r[0] for r in db.execute("SELECT status FROM games WHERE id = ANY(%s)", (ids,))} != {"valid"}:
        assert time.monotonic() < deadline, "the sweeper did not count the pending games"
        time.sleep(0.2)
    assert db.execute("SELECT sum(attempts) FROM games WHERE id = ANY(%s)", (ids,)).fetchone()[0] == 4
    with db.transaction():
        assert set(recount_differences(db).values()) == {0}


def test_an_interruption_leaves_the_games_replaying_for_the_sweeper(db, pool, monkeypatch):
    """A task's time limit (Celery's SoftTimeLimitExceeded, passed as an interruption) stops a
    replay without judging its games: nothing is written and they stay 'replaying'. Any other
    exception is a bug of ours and ends the game in 'error' (the test above)."""
    import services.games.replay

    class OutOfTime(Exception):
        pass

    def out_of_time(conn, games, **kwargs):
        raise OutOfTime

    ids = store(db, [self_play(7820 + i) for i in range(3)])
    monkeypatch.setattr(services.games.replay, "copy_record_rows", out_of_time)
    with pytest.raises(OutOfTime):
        replay_stored_games(pool, ids, interruptions=(OutOfTime,))
    assert dict(db.execute("SELECT id, status FROM games WHERE id = ANY(%s)", (ids,)).fetchall()) == {
        gid: "replaying" for gid in ids}
    assert verdicts(db, ids) == {}
    # not an interruption: judged, one by one, as the pipeline's own failure
    assert set(replay_stored_games(pool, ids).values()) == {"error"}


def test_a_fold_out_of_time_hands_the_rest_on(db, pool):
    """A fold past its time budget stops after the batch under way and says so (a worker sends a
    fold task then); within its budget it does not."""
    handed_on = []
    ids = store(db, [self_play(7850 + i) for i in range(3)])
    replay_stored_games(pool, ids, defer_counts=True)
    assert fold_pending_counts(pool, on_budget_spent=lambda: handed_on.append("fold")) == 3
    assert handed_on == []
    more = store(db, [self_play(7860 + i) for i in range(2)])
    replay_stored_games(pool, more, defer_counts=True)
    assert fold_pending_counts(pool, budget_s=0, on_budget_spent=lambda: handed_on.append("fold")) == 2
    assert handed_on == ["fold"]


def test_a_sweep_resends_at_most_its_limit_and_the_next_sweep_takes_the_rest(ingest_config, fresh_database):
    # A database and a Redis database of their own: the module's worker (its beat sweeps every
    # second) must neither sweep these games first nor receive what this sweep sends.
    url = fresh_database()
    migrate.upgrade(url)
    nobody_listens = urlunsplit(urlsplit(ingest_config.redis_url)._replace(query="db=15"))
    config = dataclasses.replace(ingest_config, database_url=url, redis_url=nobody_listens)
    sweeper_pool = create_pool(url, max_size=1, name="test-sweep-limit")
    with psycopg.connect(url, autocommit=True) as db:
        ids = store(db, [self_play(7850 + i) for i in range(3)])
        db.execute("UPDATE games SET updated_at = now() - interval '1 hour' WHERE id = ANY(%s)", (ids,))
        celery = make_celery(config)
        try:
            assert sweep_stuck_games(sweeper_pool, celery, older_than_s=60, limit=2) == 2
            fresh = "SELECT count(*) FROM games WHERE status = 'queued' AND updated_at > now() - interval '1 minute'"
            assert db.execute(fresh).fetchone()[0] == 2
            # the games just re-sent are fresh again: only the one left over is old enough now
            assert sweep_stuck_games(sweeper_pool, celery, older_than_s=60, limit=2) == 1
            assert db.execute(fresh).fetchone()[0] == 3
        finally:
            sweeper_pool.close()


@pytest.mark.parametrize("cadence", [False, True])
def test_games_committed_while_a_fold_runs_are_chased_or_left_to_a_later_fold(db, pool, monkeypatch, cadence):
    """Without ``left_over`` (the sweeper) a fold goes on until nothing is pending; with it (a worker's
    fold cadence) it stops after a batch that was not full and hands what came meanwhile to a later
    fold, rather than folding a few games at a time behind a stream of uploads."""
    import services.games.fold

    seed = 8470 + 20 * cadence  # games of their own for each case: a stored game is not stored again
    first = store(db, [self_play(seed + i) for i in range(3)])
    later = store(db, [self_play(seed + 10 + i) for i in range(2)])
    replay_stored_games(pool, first, defer_counts=True)
    real_fold_pending, handed_on = services.games.fold.fold_pending, []

    def another_worker_commits_meanwhile(conn, limit):
        ids = real_fold_pending(conn, limit)
        if ids and set(ids) <= set(first):
            replay_stored_games(pool, later, defer_counts=True)
        return ids

    monkeypatch.setattr(services.games.fold, "fold_pending", another_worker_commits_meanwhile)
    left_over = (lambda: handed_on.append("later")) if cadence else None
    assert fold_pending_counts(pool, left_over=left_over) == (3 if cadence else 5)
    assert handed_on == (["later"] if cadence else [])
    pending = db.execute("SELECT count(*) FROM game_records WHERE game_id = ANY(%s) AND pending",
                         (later,)).fetchone()[0]
    assert pending == (2 if cadence else 0)
    monkeypatch.undo()
    assert fold_pending_counts(pool) == pending
