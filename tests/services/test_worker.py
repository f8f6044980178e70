"""A real Celery worker process, fed through the real Redis: the ping round trip and the lanes."""

from __future__ import annotations

import subprocess
import sys

import pytest
from service_helpers import child_env, stop_process

from services.games.queues import PING_TASK, QUEUE_BULK, QUEUE_INTERACTIVE
from services.platform.broker import make_celery, worker_command


def start_worker(config, tmp_path, name: str) -> subprocess.Popen:
    log = open(tmp_path / f"{name}.log", "wb")
    return subprocess.Popen(worker_command(config, hostname=f"{name}@%h"), env=child_env(config),
                            stdout=log, stderr=subprocess.STDOUT)


@pytest.fixture
def producer(config):
    app = make_celery(config)
    yield app
    app.close()


@pytest.fixture
def purge(producer):
    """Start each test with empty lanes: the session's Redis is shared."""
    with producer.connection_for_write() as conn:
        for queue in (QUEUE_INTERACTIVE, QUEUE_BULK):
            conn.default_channel.queue_purge(queue)


def test_ping_goes_to_a_worker_and_back_on_both_lanes(config, producer, purge, tmp_path):
    worker = start_worker(config, tmp_path, "pingworker")
    try:
        interactive = producer.send_task(PING_TASK)
        bulk = producer.send_task(PING_TASK, queue=QUEUE_BULK)
        assert interactive.get(timeout=60) == {"pong": True, "worker": interactive.result["worker"]}
        assert interactive.result["worker"].startswith("pingworker@")
        assert bulk.get(timeout=60)["pong"] is True
    finally:
        assert stop_process(worker) == 0, (tmp_path / "pingworker.log").read_text()


def test_interactive_lane_is_served_before_bulk(config, producer, purge, tmp_path):
    # Both lanes hold work before the worker starts; with one process and one message reserved at
    # a time, the interactive task must run first although it was sent last.
    bulk = [producer.send_task(PING_TASK, queue=QUEUE_BULK) for _ in range(3)]
    interactive = producer.send_task(PING_TASK, queue=QUEUE_INTERACTIVE)
    worker = start_worker(config, tmp_path, "laneworker")
    try:
        for result in [*bulk, interactive]:
            result.get(timeout=60)
        assert all(interactive.date_done < b.date_done for b in bulk), (
            interactive.date_done, [b.date_done for b in bulk])
    finally:
        assert stop_process(worker) == 0, (tmp_path / "laneworker.log").read_text()


def test_importing_the_worker_module_needs_no_broker_setting():
    # `celery -A workers.celery_app` and producers import it; only using the app needs REDIS_URL.
    result = subprocess.run(
        [sys.executable, "-c", "import workers.celery_app as m, workers.tasks\n"
         "try:\n    m.app.conf.broker_url\nexcept Exception as e:\n    print(type(e).__name__, e)"],
        env=child_env(), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ConfigError REDIS_URL is not set")
