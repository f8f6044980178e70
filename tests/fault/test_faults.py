"""The three faults of docs/operations.md, each against real servers of its own, killed by PID:

(a) kill -9 of a worker in the middle of a bulk batch (its pool process, then the whole worker);
(b) a Redis restart (SIGKILL: the queues are lost) while a bundle is being processed;
(c) a PostgreSQL restart (SIGKILL of every PostgreSQL process) while uploads arrive.

After each, once things settle: every stored game has exactly one verdict and a final status, and the
aggregate tables equal a recount from the game records (Rig.assert_exactly_once).
"""

from __future__ import annotations

import datetime
import gzip
import json
import threading
import time

import pytest
from fault_rig import FINAL, upload

from engine.bfe.selfplay import self_play

pytestmark = pytest.mark.slow


def make_logs(count: int, first_seed: int = 0) -> list[dict]:
    """Simulated 2- and 3-player games spread over five weeks (so the weekly roll-ups see several)."""
    start = datetime.date(2026, 9, 1)
    return [self_play(seed, players=3 if seed % 5 == 0 else 2,
                      meta={"date": (start + datetime.timedelta(days=seed % 35)).isoformat()})
            for seed in range(first_seed, first_seed + count)]


def upload_bundle(rig, name: str, logs: list[dict]) -> int:
    status, _, event = upload(rig.base_url, "/api/v1/events", json.dumps({"name": name}).encode())
    assert status == 201, event
    body = gzip.compress("".join(json.dumps(log) + "\n" for log in logs).encode())
    status, _, report = upload(rig.base_url, f"/api/v1/events/{event['id']}/games", body,
                               "application/x-ndjson", {"Content-Encoding": "gzip"}, timeout=120)
    assert status in (200, 201, 202) and report["accepted"] == len(logs), report
    return event["id"]


def finished(rig, event: int | None = None) -> int:
    """Games with a final status (of ``event`` only, if given)."""
    with rig.db() as conn:
        return conn.execute("SELECT count(*) FROM games "
                            "WHERE status = ANY(%s) AND (%s::bigint IS NULL OR event_id = %s)",
                            (list(FINAL), event, event)).fetchone()[0]


def wait_finished(rig, at_least: int, timeout: float = 60, event: int | None = None) -> int:
    deadline = time.monotonic() + timeout
    while (done := finished(rig, event)) < at_least:
        assert time.monotonic() < deadline, (rig.counts(), rig.worker_logs()[-3000:])
        time.sleep(0.02)
    return done


def wait_replayed(rig, at_least: int, timeout: float = 60) -> int:
    """Wait until ``at_least`` games have a verdict written by a replay: a chunk's verdicts come with
    its commit, while the final statuses of valid games wait for a fold, which behind a stream of
    chunks counts several of them at once (services.games.fold.FoldCadence)."""
    deadline = time.monotonic() + timeout
    while True:
        with rig.db() as conn:
            done = conn.execute("SELECT count(*) FROM verdicts").fetchone()[0]
        if done >= at_least:
            return done
        assert time.monotonic() < deadline, (rig.counts(), rig.worker_logs()[-3000:])
        time.sleep(0.02)


def test_kill_9_of_a_worker_mid_batch(make_rig):
    # No sweeper (an hour away): what recovers here is the broker alone — the main process
    # requeueing a killed pool process's message, and Redis's unacked restore after a whole worker
    # died. A short visibility timeout makes the latter take seconds.
    rig = make_rig(broker_visibility_timeout=20, sweep_after_s=3600, sweep_interval_s=3600)
    rig.start_api()
    total = 400  # 16 bulk chunks of 25 (dispatch.bundle_chunk_size)
    upload_bundle(rig, "Kill Open", make_logs(total))
    assert rig.counts() == {"queued": total}

    # 1. SIGKILL the pool process while it is replaying a chunk (rig.kill_busy_pool_process: the
    # process Celery says runs the task, frozen, and killed only if the chunk is still uncommitted).
    worker = rig.start_worker()
    wait_finished(rig, 10)
    killed, chunk = rig.kill_busy_pool_process()
    killed_at = time.monotonic()
    # the main process lives on, sees its pool process lost mid-task, forks a new one and requeues
    # the chunk at once
    deadline = time.monotonic() + 30
    while "WorkerLostError" not in rig.worker_log(1).read_text(errors="replace"):
        assert time.monotonic() < deadline, rig.worker_log(1).read_text(errors="replace")[-3000:]
        time.sleep(0.1)
    rig.pool_children(other_than=(killed,))
    assert worker.poll() is None

    # 2. SIGKILL the whole worker (main process and pool process together) in the middle of a later
    # chunk; a new worker gets the chunk back from Redis once the visibility timeout has passed.
    done = wait_replayed(rig, 250)
    assert done < total, "the batch was over before the second kill"
    rig.kill_whole_worker(worker)
    whole_killed_at = time.monotonic()
    rig.start_worker()
    took = rig.wait_settled(total, timeout=rig.config.broker_visibility_timeout + 40)

    summary = rig.assert_exactly_once(total)
    # Games of both killed chunks were replayed again (idempotently): more attempts than games, and
    # every game of the chunk killed mid-replay was claimed at least twice.
    assert summary["attempts"] > total, summary
    with rig.db() as conn:
        attempts = conn.execute("SELECT min(attempts) FROM games WHERE id = ANY(%s)", (chunk,)).fetchone()[0]
    assert attempts >= 2, (chunk, attempts)
    assert time.monotonic() - killed_at < 120 and took < rig.config.broker_visibility_timeout + 40
    print(f"settled {time.monotonic() - whole_killed_at:.1f} s after the whole worker was killed; {summary}")


def test_redis_restart_while_a_bundle_is_processed(make_rig):
    # The sweeper is what brings back games whose messages Redis lost: quick here.
    rig = make_rig(broker_visibility_timeout=20, sweep_after_s=5, sweep_interval_s=1)
    rig.start_api()
    total = 300
    upload_bundle(rig, "Redis Open", make_logs(total, first_seed=1000))
    worker = rig.start_worker(beat=True)
    done = wait_finished(rig, 10)
    rig.kill_redis()
    down_at = time.monotonic()
    time.sleep(3)
    rig.start_redis_again()
    assert done < total, "the bundle was over before Redis went down"

    took = rig.wait_settled(total, timeout=90)
    assert worker.poll() is None, "the worker died with Redis"
    # the service takes new work after the restart as before (the API's producer reconnects too)
    status, _, body = upload(rig.base_url, "/api/v1/games", json.dumps(make_logs(1, first_seed=5000)[0]).encode())
    assert status == 202, body
    rig.wait_settled(total + 1, timeout=60)
    summary = rig.assert_exactly_once(total + 1)
    assert "sweeper: re-sent" in rig.worker_logs(), rig.worker_logs()[-3000:]  # what Redis lost, re-sent
    print(f"settled {time.monotonic() - down_at:.1f} s after Redis was killed ({took:.1f} s after restart); {summary}")


def test_postgres_restart_while_uploads_arrive(make_rig):
    # Tasks that meet the database down retry with backoff (the log must show it). The sweeper is
    # needed too: a replay commits its verdict without waiting for the WAL flush (synchronous_commit
    # off), so a crash can take back a verdict whose task already acked; that game comes back
    # 'replaying' with no verdict, and only the sweeper sends it again.
    rig = make_rig(broker_visibility_timeout=20, sweep_after_s=5, sweep_interval_s=1)
    rig.start_api()
    rig.start_worker(beat=True)
    singles = iter(make_logs(400, first_seed=2000))  # uploaded until told to stop
    lock, stop = threading.Lock(), threading.Event()
    answers: list[tuple[int, str | None, float]] = []  # status, Retry-After, seconds taken
    accepted: list[int] = []
    failures: list[BaseException] = []

    def uploader():
        try:
            while not stop.is_set():
                with lock:
                    log = next(singles, None)
                if log is None:
                    return
                body = json.dumps(log).encode()
                while True:
                    start = time.monotonic()
                    status, headers, reply = upload(rig.base_url, "/api/v1/games", body, timeout=30)
                    answers.append((status, headers.get("Retry-After"), time.monotonic() - start))
                    if status in (200, 202):
                        accepted.append(reply["id"])
                        break
                    if status != 503:
                        raise AssertionError(f"upload answered {status}: {reply}")
                    time.sleep(0.3)  # (a client honours Retry-After; the test keeps it short)
                time.sleep(0.1)
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)

    # two clients, each uploading one game after the other
    threads = [threading.Thread(target=uploader, daemon=True) for _ in range(2)]
    for thread in threads:
        thread.start()
    while len(accepted) < 10:
        assert all(thread.is_alive() for thread in threads), failures
        time.sleep(0.02)
    # a bulk backlog, so the worker is in the middle of work when PostgreSQL dies
    bundle = make_logs(200, first_seed=3000)
    event = upload_bundle(rig, "Postgres Open", bundle)
    assert wait_finished(rig, 30, event=event) < len(bundle), "the bundle was over before the crash"
    rig.kill_postgres()
    killed_at = len(answers)
    time.sleep(6)  # uploads go on meanwhile, answered 503
    rig.start_postgres_again()
    time.sleep(2)  # and a little after
    stop.set()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads) and not failures, failures

    statuses = {status for status, _, _ in answers}
    assert statuses <= {200, 202, 503}, answers
    assert 503 in statuses, f"no upload met the database down: {answers[killed_at - 2:]}"
    assert all(retry == "5" for status, retry, _ in answers if status == 503), answers
    assert max(seconds for _, _, seconds in answers) < 10, max(answers, key=lambda a: a[2])

    expect = len(accepted) + len(bundle)
    took = rig.wait_settled(expect, timeout=90)
    summary = rig.assert_exactly_once(expect)
    with rig.db() as conn:
        stored = {r[0] for r in conn.execute("SELECT id FROM games WHERE event_id IS NULL")}
    assert set(accepted) == stored and len(stored) == len(accepted)
    assert "Retry in" in rig.worker_logs(), rig.worker_logs()[-3000:]  # the worker backed off and retried
    print(f"{sum(1 for a in answers if a[0] == 503)} of {len(answers)} answers 503, slowest answer "
          f"{max(a[2] for a in answers):.1f} s; settled {took:.1f} s after the uploads ended; {summary}")
