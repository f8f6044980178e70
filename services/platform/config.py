"""Service configuration, read only from environment variables.

Every setting has a documented default (see docs/services.md). ``DATABASE_URL`` and ``REDIS_URL`` are
the exception: unset means "no external server" — ``empyrean up`` (and the test suite) then start an
embedded PostgreSQL and Redis (services.platform.embedded) and pass their URLs on to the API and the worker
through these same variables. A process that needs a server but was given none (the API or a worker
started on its own) fails at start with a message saying which variable to set.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Mapping
from urllib.parse import parse_qs, urlencode, urlsplit


class ConfigError(ValueError):
    """A setting is missing or not usable; the message names the environment variable."""


@dataclass(frozen=True)
class Config:
    # PostgreSQL, as a libpq URL or key=value string (psycopg 3 takes either). None: embedded.
    database_url: str | None = None
    # Where the statistics are read (the stats API and the dashboards' figures): a read replica of
    # DATABASE_URL (a hot standby). None: DATABASE_URL itself.
    read_database_url: str | None = None
    # Redis, in redis-py's URL forms: redis://host:port/db, rediss://…, unix:///path/to.sock?db=0.
    redis_url: str | None = None
    # Where the embedded servers keep their data (and `empyrean up` its logs).
    data_dir: Path = Path("var")
    api_host: str = "127.0.0.1"
    api_port: int = 8000
    # Worker processes for `empyrean up`'s Celery worker (prefork pool).
    worker_concurrency: int = 2
    # Seconds a message taken by a worker may stay unacknowledged before Redis hands it to another
    # worker. Tasks ack late, so this is how long a game waits after its whole worker died (kill -9
    # of the main process) before it is retried (a killed pool child is requeued at once). Short,
    # so faults heal quickly; every task must finish well within it (the task time limits are
    # derived from it, see workers.celery_app; docs/operations.md).
    broker_visibility_timeout: int = 120
    # Upper bound of each process's Postgres connection pool.
    db_pool_max_size: int = 8
    # Largest single-game upload (POST /api/v1/games) in bytes; a real log is 5-30 KB.
    max_upload_bytes: int = 1_048_576
    # Largest tournament bundle (POST /api/v1/events/{id}/games), decompressed, in bytes.
    max_bundle_bytes: int = 512 * 1_048_576
    # The sweeper re-sends games left in received/queued/replaying this many seconds after their
    # last change (longer than a task may run, so a game still being replayed is not re-sent) ...
    sweep_after_s: int = 300
    # ... and runs this often (Celery beat, inside `empyrean up`'s worker).
    sweep_interval_s: int = 60
    # Rate limits (docs/security.md, "Rate limits"), in the `limits` notation ("N/minute", several
    # joined by ";"), counted in Redis so every API process shares them. Requests with a valid
    # token are counted per token and kind; requests without one (or with a bad one) per client IP.
    rate_limit_anonymous: str = "300/minute"   # per IP: public reads, and failed authentication
    rate_limit_reads: str = "1200/minute"      # per token: GET requests
    rate_limit_uploads: str = "1200/minute"    # per token: POST /games (single games)
    rate_limit_bundles: str = "30/minute"      # per token: POST /events/{id}/games (tournament bundles)
    rate_limit_writes: str = "120/minute"      # per token: every other POST/PATCH (events, reprocess, disputes)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Config":
        env = os.environ if env is None else env
        return cls(
            database_url=env.get("DATABASE_URL") or None,
            read_database_url=env.get("EMPYREAN_READ_DATABASE_URL") or None,
            redis_url=env.get("REDIS_URL") or None,
            data_dir=Path(env.get("EMPYREAN_DATA_DIR") or cls.data_dir),
            api_host=env.get("EMPYREAN_API_HOST") or cls.api_host,
            api_port=_int(env, "EMPYREAN_API_PORT", cls.api_port, low=0, high=65535),
            worker_concurrency=_int(env, "EMPYREAN_WORKER_CONCURRENCY", cls.worker_concurrency, low=1),
            broker_visibility_timeout=_int(env, "EMPYREAN_BROKER_VISIBILITY_TIMEOUT",
                                           cls.broker_visibility_timeout, low=10),
            db_pool_max_size=_int(env, "EMPYREAN_DB_POOL_MAX_SIZE", cls.db_pool_max_size, low=1),
            max_upload_bytes=_int(env, "EMPYREAN_MAX_UPLOAD_BYTES", cls.max_upload_bytes, low=1024),
            max_bundle_bytes=_int(env, "EMPYREAN_MAX_BUNDLE_BYTES", cls.max_bundle_bytes, low=1024),
            sweep_after_s=_int(env, "EMPYREAN_SWEEP_AFTER", cls.sweep_after_s, low=1),
            sweep_interval_s=_int(env, "EMPYREAN_SWEEP_INTERVAL", cls.sweep_interval_s, low=1),
            **{field: _rate(env, name, getattr(cls, field)) for field, name in RATE_LIMIT_ENV.items()},
        )

    def with_servers(self, database_url: str, redis_url: str) -> "Config":
        return replace(self, database_url=database_url, redis_url=redis_url)

    def require_database_url(self) -> str:
        if not self.database_url:
            raise ConfigError("DATABASE_URL is not set: point it at a PostgreSQL database, "
                              "or start everything with `empyrean up`, which runs an embedded one")
        return self.database_url

    def require_redis_url(self) -> str:
        if not self.redis_url:
            raise ConfigError("REDIS_URL is not set: point it at a Redis server, "
                              "or start everything with `empyrean up`, which runs an embedded one")
        return self.redis_url

    @property
    def celery_broker_url(self) -> str:
        return redis_url_for_celery(self.require_redis_url())

    def environment(self) -> dict[str, str]:
        """This configuration as environment variables, for child processes (worker, API)."""
        env = {
            "EMPYREAN_DATA_DIR": str(self.data_dir),
            "EMPYREAN_API_HOST": self.api_host,
            "EMPYREAN_API_PORT": str(self.api_port),
            "EMPYREAN_WORKER_CONCURRENCY": str(self.worker_concurrency),
            "EMPYREAN_BROKER_VISIBILITY_TIMEOUT": str(self.broker_visibility_timeout),
            "EMPYREAN_DB_POOL_MAX_SIZE": str(self.db_pool_max_size),
            "EMPYREAN_MAX_UPLOAD_BYTES": str(self.max_upload_bytes),
            "EMPYREAN_MAX_BUNDLE_BYTES": str(self.max_bundle_bytes),
            "EMPYREAN_SWEEP_AFTER": str(self.sweep_after_s),
            "EMPYREAN_SWEEP_INTERVAL": str(self.sweep_interval_s),
            **{name: getattr(self, field) for field, name in RATE_LIMIT_ENV.items()},
        }
        if self.database_url:
            env["DATABASE_URL"] = self.database_url
        if self.read_database_url:
            env["EMPYREAN_READ_DATABASE_URL"] = self.read_database_url
        if self.redis_url:
            env["REDIS_URL"] = self.redis_url
        return env


RATE_LIMIT_ENV = {
    "rate_limit_anonymous": "EMPYREAN_RATE_LIMIT_ANONYMOUS",
    "rate_limit_reads": "EMPYREAN_RATE_LIMIT_READS",
    "rate_limit_uploads": "EMPYREAN_RATE_LIMIT_UPLOADS",
    "rate_limit_bundles": "EMPYREAN_RATE_LIMIT_BUNDLES",
    "rate_limit_writes": "EMPYREAN_RATE_LIMIT_WRITES",
}


def redis_url_for_limits(url: str) -> str:
    """The `limits` library (Flask-Limiter's storage) spells a unix-socket Redis
    ``redis+unix:///path?db=N`` where redis-py says ``unix:///path?db=N``; TCP URLs are the same."""
    return "redis+" + url if url.startswith("unix://") else url


def redis_url_for_celery(url: str) -> str:
    """Celery/kombu spell a unix-socket Redis ``redis+socket:///path?virtual_host=N`` where redis-py
    says ``unix:///path?db=N``; TCP URLs are the same for both."""
    parts = urlsplit(url)
    if parts.scheme != "unix":
        return url
    query = parse_qs(parts.query)
    db = query.pop("db", ["0"])[0]
    rest = {k: v[-1] for k, v in query.items()}
    return f"redis+socket://{parts.path}?" + urlencode({"virtual_host": db, **rest})


def _rate(env: Mapping[str, str], name: str, default: str) -> str:
    text = (env.get(name) or "").strip()
    if not text:
        return default
    from limits import parse_many

    try:
        parse_many(text)
    except ValueError:
        raise ConfigError(f"{name} must be a rate like 600/minute (several joined by ';'), not {text!r}") from None
    return text


def _int(env: Mapping[str, str], name: str, default: int, *, low: int, high: int | None = None) -> int:
    text = env.get(name)
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {text!r}") from None
    if value < low or (high is not None and value > high):
        bound = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise ConfigError(f"{name} must be {bound}, not {value}")
    return value
