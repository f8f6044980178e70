"""Service configuration, read only from environment variables.

Every setting has a documented default (see docs/services.md). ``DATABASE_URL`` and ``REDIS_URL`` are
the exception: unset means "no external server" — ``empyrean up`` (and the test suite) then start an
embedded PostgreSQL and Redis (services.platform.embedded) and pass their URLs on to the API and the worker
through these same variables. A process that needs a server but was given none (the API or a worker
started on its own) fails at start with a message saying which variable to set.

Each setting is declared once, as a field of ``Config`` with its variable's name and how its text
is read (``setting(...)``); ``Config.from_env`` (variables → settings) and ``Config.environment``
(settings → variables, for child processes) are both derived from those declarations. A variable
that is unset, empty or blank means the default.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit


class ConfigError(ValueError):
    """A setting is missing or not usable; the message names the environment variable."""


# How a variable's text (never empty) becomes a setting's value: (variable name, text) → value,
# raising ConfigError that names the variable when the text is not usable.
Parse = Callable[[str, str], Any]


def _text(name: str, text: str) -> str:
    return text


def _path(name: str, text: str) -> Path:
    return Path(text)


def _whole(*, low: int, high: int | None = None) -> Parse:
    def parse(name: str, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ConfigError(f"{name} must be a whole number, not {text!r}") from None
        if value < low or (high is not None and value > high):
            bound = f"between {low} and {high}" if high is not None else f"at least {low}"
            raise ConfigError(f"{name} must be {bound}, not {value}")
        return value
    return parse


def _rate(name: str, text: str) -> str:
    from limits import parse_many

    try:
        parse_many(text)
    except ValueError:
        raise ConfigError(f"{name} must be a rate like 600/minute (several joined by ';'), not {text!r}") from None
    return text


def setting(variable: str, default: Any, parse: Parse = _text) -> Any:
    """A field of Config read from the environment variable ``variable`` by ``parse``, written back
    as ``str(value)``; a default of None means unset (and the variable is then not written)."""
    return field(default=default, metadata={"variable": variable, "parse": parse})


@dataclass(frozen=True)
class Config:
    # PostgreSQL, as a libpq URL or key=value string (psycopg 3 takes either). None: embedded.
    database_url: str | None = setting("DATABASE_URL", None)
    # Where the statistics are read (the stats API and the dashboards' figures): a read replica of
    # DATABASE_URL (a hot standby). None: DATABASE_URL itself.
    read_database_url: str | None = setting("EMPYREAN_READ_DATABASE_URL", None)
    # Redis, in redis-py's URL forms: redis://host:port/db, rediss://…, unix:///path/to.sock?db=0.
    redis_url: str | None = setting("REDIS_URL", None)
    # Where the embedded servers keep their data (and `empyrean up` its logs).
    data_dir: Path = setting("EMPYREAN_DATA_DIR", Path("var"), _path)  # noqa: RUF009 (a field())
    api_host: str = setting("EMPYREAN_API_HOST", "127.0.0.1")
    api_port: int = setting("EMPYREAN_API_PORT", 8000, _whole(low=0, high=65535))
    # Worker processes for `empyrean up`'s Celery worker (prefork pool).
    worker_concurrency: int = setting("EMPYREAN_WORKER_CONCURRENCY", 2, _whole(low=1))
    # Seconds a message taken by a worker may stay unacknowledged before Redis hands it to another
    # worker. Tasks ack late, so this is how long a game waits after its whole worker died (kill -9
    # of the main process) before it is retried (a killed pool child is requeued at once). Short,
    # so faults heal quickly; every task must finish well within it (the task time limits are
    # derived from it, see workers.celery_app; docs/operations.md).
    broker_visibility_timeout: int = setting("EMPYREAN_BROKER_VISIBILITY_TIMEOUT", 120, _whole(low=10))
    # Upper bound of each process's Postgres connection pool.
    db_pool_max_size: int = setting("EMPYREAN_DB_POOL_MAX_SIZE", 8, _whole(low=1))
    # Connections of each API process for exports, a pool of their own: an export holds one only
    # while it reads its rows (never while a client downloads), and however many exports come at
    # once, the other requests' pool is never theirs.
    export_connections: int = setting("EMPYREAN_EXPORT_CONNECTIONS", 2, _whole(low=1))
    # Largest single-game upload (POST /api/v1/games) in bytes; a real log is 5-30 KB.
    max_upload_bytes: int = setting("EMPYREAN_MAX_UPLOAD_BYTES", 1_048_576, _whole(low=1024))
    # Largest tournament bundle (POST /api/v1/events/{id}/games), decompressed, in bytes.
    max_bundle_bytes: int = setting("EMPYREAN_MAX_BUNDLE_BYTES", 512 * 1_048_576, _whole(low=1024))
    # Most entries (game logs, and lines that are not) in one tournament bundle: 413 beyond it.
    max_bundle_games: int = setting("EMPYREAN_MAX_BUNDLE_GAMES", 100_000, _whole(low=1))
    # The sweeper re-sends games left in received/queued/replaying this many seconds after their
    # last change (longer than a task may run, so a game still being replayed is not re-sent) ...
    sweep_after_s: int = setting("EMPYREAN_SWEEP_AFTER", 300, _whole(low=1))
    # ... and runs this often (Celery beat, inside `empyrean up`'s worker).
    sweep_interval_s: int = setting("EMPYREAN_SWEEP_INTERVAL", 60, _whole(low=1))
    # Games beyond the ones the engine ships, as ``module:attribute`` of each one's rules object,
    # joined by commas (services.platform.games); unset: only the shipped games.
    extra_games: str | None = setting("EMPYREAN_EXTRA_GAMES", None)
    # Rate limits (docs/security.md, "Rate limits"), in the `limits` notation ("N/minute", several
    # joined by ";"), counted in Redis so every API process shares them. Requests with a valid
    # token are counted per token and kind; requests without one per client IP; requests with a bad
    # one in a count of their own per client IP (failed authentication).
    # per IP: requests without a token (public reads)
    rate_limit_anonymous: str = setting("EMPYREAN_RATE_LIMIT_ANONYMOUS", "300/minute", _rate)
    # per token: GET requests
    rate_limit_reads: str = setting("EMPYREAN_RATE_LIMIT_READS", "1200/minute", _rate)
    # per token: POST /games (single games)
    rate_limit_uploads: str = setting("EMPYREAN_RATE_LIMIT_UPLOADS", "1200/minute", _rate)
    # per token: POST /events/{id}/games (tournament bundles)
    rate_limit_bundles: str = setting("EMPYREAN_RATE_LIMIT_BUNDLES", "30/minute", _rate)
    # per token: every other POST/PATCH (events, reprocess, disputes)
    rate_limit_writes: str = setting("EMPYREAN_RATE_LIMIT_WRITES", "120/minute", _rate)
    # per client IP, with or without a token: POST /positions (the recorder asks once per decision,
    # some 150 a game; a venue's tables often share one address, and a position costs ~1 ms of CPU
    # and no database, so the limit stops floods, not tables: 600/minute is ten answers a second)
    rate_limit_positions: str = setting("EMPYREAN_RATE_LIMIT_POSITIONS", "600/minute", _rate)
    # per token, else per client IP: GET /export/games.csv|.parquet (each streams up to a year of
    # games from a database connection held for the whole download), in a count of its own
    rate_limit_exports: str = setting("EMPYREAN_RATE_LIMIT_EXPORTS", "30/hour", _rate)
    # per client IP: requests whose token is not valid (token guessing), on every route that checks
    # tokens (health and readiness too); over it, every request from the address that sends a token
    # is refused (429) without looking the token up, until the window has passed
    rate_limit_auth_failures: str = setting("EMPYREAN_RATE_LIMIT_AUTH_FAILURES", "20/minute", _rate)

    @classmethod
    def variables(cls) -> dict[str, str]:
        """Each setting's environment variable, by field name."""
        return {f.name: f.metadata["variable"] for f in fields(cls)}

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        env = os.environ if env is None else env
        values = {}
        for f in fields(cls):
            name = f.metadata["variable"]
            text = (env.get(name) or "").strip()
            if text:
                values[f.name] = f.metadata["parse"](name, text)
        return cls(**values)

    def environment(self) -> dict[str, str]:
        """This configuration as environment variables, for child processes (worker, API); a
        setting that is None (no external server) is left out."""
        return {f.metadata["variable"]: str(value) for f in fields(self)
                if (value := getattr(self, f.name)) is not None}

    def with_servers(self, database_url: str, redis_url: str) -> Config:
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
