"""services.platform.config: each setting is declared once, with its environment variable, and
read (Config.from_env) and written for child processes (Config.environment) from that declaration."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from services.platform.config import (
    Config,
    ConfigError,
    redis_url_for_celery,
    redis_url_for_limits,
)

# A value other than the default for every setting.
CHANGED = Config(
    database_url="postgresql://db.example/empyrean",
    read_database_url="postgresql://replica.example/empyrean",
    redis_url="redis://cache.example:6379/1",
    data_dir=Path("/srv/empyrean"),
    api_host="0.0.0.0",
    api_port=9001,
    worker_concurrency=7,
    broker_visibility_timeout=600,
    db_pool_max_size=3,
    export_connections=5,
    max_upload_bytes=4096,
    max_bundle_bytes=8192,
    max_bundle_games=500,
    sweep_after_s=900,
    sweep_interval_s=30,
    extra_games="tests_games.pips:RULES",
    rate_limit_anonymous="10/minute",
    rate_limit_reads="20/minute;100/hour",
    rate_limit_uploads="30/second",
    rate_limit_bundles="1/minute",
    rate_limit_writes="40/minute",
    rate_limit_auth_failures="5/minute",
    rate_limit_positions="50/second",
    rate_limit_exports="3/hour",
)


def test_every_setting_changed_here():
    default = Config()
    assert [f.name for f in fields(Config) if getattr(CHANGED, f.name) == getattr(default, f.name)] == []


def test_round_trip_through_the_environment():
    env = CHANGED.environment()
    assert set(env) == set(Config.variables().values())  # every variable written, each once
    assert all(isinstance(v, str) for v in env.values())
    assert Config.from_env(env) == CHANGED


def test_nothing_set_is_the_defaults():
    assert Config.from_env({}) == Config()
    assert Config.from_env({name: "" for name in Config.variables().values()}) == Config()
    assert Config.from_env({name: "  " for name in Config.variables().values()}) == Config()
    assert Config.from_env(Config().environment()) == Config()


def test_servers_left_unset_are_not_passed_on():
    env = Config().environment()
    assert not {"DATABASE_URL", "EMPYREAN_READ_DATABASE_URL", "REDIS_URL"} & set(env)
    with_servers = Config().with_servers("postgresql:///a", "redis://x/0").environment()
    assert with_servers["DATABASE_URL"] == "postgresql:///a" and with_servers["REDIS_URL"] == "redis://x/0"


def test_the_variable_names():
    assert Config.variables() == {
        "database_url": "DATABASE_URL",
        "read_database_url": "EMPYREAN_READ_DATABASE_URL",
        "redis_url": "REDIS_URL",
        "data_dir": "EMPYREAN_DATA_DIR",
        "api_host": "EMPYREAN_API_HOST",
        "api_port": "EMPYREAN_API_PORT",
        "worker_concurrency": "EMPYREAN_WORKER_CONCURRENCY",
        "extra_games": "EMPYREAN_EXTRA_GAMES",
        "broker_visibility_timeout": "EMPYREAN_BROKER_VISIBILITY_TIMEOUT",
        "db_pool_max_size": "EMPYREAN_DB_POOL_MAX_SIZE",
        "export_connections": "EMPYREAN_EXPORT_CONNECTIONS",
        "max_upload_bytes": "EMPYREAN_MAX_UPLOAD_BYTES",
        "max_bundle_bytes": "EMPYREAN_MAX_BUNDLE_BYTES",
        "max_bundle_games": "EMPYREAN_MAX_BUNDLE_GAMES",
        "sweep_after_s": "EMPYREAN_SWEEP_AFTER",
        "sweep_interval_s": "EMPYREAN_SWEEP_INTERVAL",
        "rate_limit_anonymous": "EMPYREAN_RATE_LIMIT_ANONYMOUS",
        "rate_limit_reads": "EMPYREAN_RATE_LIMIT_READS",
        "rate_limit_uploads": "EMPYREAN_RATE_LIMIT_UPLOADS",
        "rate_limit_bundles": "EMPYREAN_RATE_LIMIT_BUNDLES",
        "rate_limit_writes": "EMPYREAN_RATE_LIMIT_WRITES",
        "rate_limit_auth_failures": "EMPYREAN_RATE_LIMIT_AUTH_FAILURES",
        "rate_limit_positions": "EMPYREAN_RATE_LIMIT_POSITIONS",
        "rate_limit_exports": "EMPYREAN_RATE_LIMIT_EXPORTS",
    }


@pytest.mark.parametrize("env, message", [
    ({"EMPYREAN_API_PORT": "eighty"}, "EMPYREAN_API_PORT must be a whole number, not 'eighty'"),
    ({"EMPYREAN_API_PORT": "65536"}, "EMPYREAN_API_PORT must be between 0 and 65535, not 65536"),
    ({"EMPYREAN_WORKER_CONCURRENCY": "0"}, "EMPYREAN_WORKER_CONCURRENCY must be at least 1, not 0"),
    ({"EMPYREAN_BROKER_VISIBILITY_TIMEOUT": "9"}, "EMPYREAN_BROKER_VISIBILITY_TIMEOUT must be at least 10, not 9"),
    ({"EMPYREAN_MAX_UPLOAD_BYTES": "1023"}, "EMPYREAN_MAX_UPLOAD_BYTES must be at least 1024, not 1023"),
    ({"EMPYREAN_RATE_LIMIT_WRITES": "lots"}, "EMPYREAN_RATE_LIMIT_WRITES must be a rate like 600/minute"),
])
def test_an_unusable_value_names_its_variable(env, message):
    with pytest.raises(ConfigError, match="^" + message.replace("(", r"\(")):
        Config.from_env(env)


def test_values_are_read_as_their_kind():
    config = Config.from_env({"EMPYREAN_API_PORT": " 0 ", "EMPYREAN_DATA_DIR": "data",
                              "EMPYREAN_RATE_LIMIT_READS": " 5/second;100/hour "})
    assert config.api_port == 0 and config.data_dir == Path("data")
    assert config.rate_limit_reads == "5/second;100/hour"


def test_a_server_that_is_needed_but_not_set_is_named():
    with pytest.raises(ConfigError, match="^DATABASE_URL is not set"):
        Config().require_database_url()
    with pytest.raises(ConfigError, match="^REDIS_URL is not set"):
        Config().require_redis_url()


def test_unix_socket_redis_urls_for_celery_and_limits():
    assert redis_url_for_celery("unix:///run/redis.sock?db=3") == "redis+socket:///run/redis.sock?virtual_host=3"
    assert redis_url_for_celery("redis://h:6379/2") == "redis://h:6379/2"
    assert redis_url_for_limits("unix:///run/redis.sock?db=3") == "redis+unix:///run/redis.sock?db=3"
    assert redis_url_for_limits("redis://h:6379/2") == "redis://h:6379/2"
