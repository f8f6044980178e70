"""The replay tasks' retry policy (workers.tasks.GameTask): the longest wait between retries stays
below the broker's visibility timeout, so a retrying task is never handed to a second worker."""

from __future__ import annotations

import dataclasses

from services.platform.config import Config
from workers.tasks import GameTask, retry_backoff_max


def test_the_longest_retry_wait_is_half_the_visibility_timeout_and_at_most_a_minute():
    config = Config.from_env({})
    assert retry_backoff_max(dataclasses.replace(config, broker_visibility_timeout=30)) == 15
    assert retry_backoff_max(dataclasses.replace(config, broker_visibility_timeout=600)) == 60
    assert retry_backoff_max(dataclasses.replace(config, broker_visibility_timeout=1)) == 1


def test_every_game_task_retries_a_lost_database_connection():
    import psycopg

    assert GameTask.autoretry_for == (psycopg.OperationalError,) and GameTask.retry_jitter


def test_only_a_postgres_process_of_this_machine_is_a_session_the_worker_may_renice():
    import os

    from workers.tasks import _local_postgres

    me = os.getpid()  # a process of this machine, but not PostgreSQL
    assert not _local_postgres("/tmp/empyrean", me)
    assert not _local_postgres("db.example.org", me)
    assert not _local_postgres("127.0.0.1", 2**22 + 7)  # no such process
