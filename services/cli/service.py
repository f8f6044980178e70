"""The commands that run or administer the service: ``empyrean up`` (everything, on embedded
defaults, with the demo data), ``reprocess``, ``token`` (API tokens) and ``db`` (migrations)."""

from __future__ import annotations

import sys

import click


def _config():
    """The settings from the environment (services.platform.config); an unusable one is a usage error."""
    from services.platform.config import Config, ConfigError

    try:
        return Config.from_env()
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


@click.command()
@click.option("--demo/--no-demo", default=True, envvar="EMPYREAN_DEMO", show_default=True,
              help="Load the demo data (a simulated league and a Titans event, uploaded through the API) if it is "
                   "not there yet.")
def up(demo: bool) -> None:
    """Start the whole service: PostgreSQL and Redis (embedded unless DATABASE_URL / REDIS_URL are
    set), migrations, a Celery worker and the API, and the demo data. Prints the URLs; Ctrl-C stops
    everything.

    Configured by environment variables only (docs/services.md): EMPYREAN_DATA_DIR (default ./var),
    EMPYREAN_API_HOST / EMPYREAN_API_PORT (127.0.0.1:8000), EMPYREAN_WORKER_CONCURRENCY (2) …"""
    from services.platform.launcher import ServiceLauncher

    config = _config()
    launcher = ServiceLauncher(config, echo=click.echo, on_ready=[_load_demo] if demo else [])
    sys.exit(launcher.run())


def _load_demo(running) -> None:
    """A simulated league and Titans event uploaded through the real API (services.cli.demo); a failure is reported,
    and the service keeps running without it."""
    from services.cli.demo import load_demo
    from services.cli.upload_client import UploadError

    try:
        load_demo(running.api_url.removesuffix("/api/v1"), click.echo, token=running.token)
    except UploadError as exc:
        click.echo(f"demo data: not loaded ({exc})")


@click.command()
@click.option("--event", "event_id", type=click.IntRange(min=1), help="Only this event's games (its id).")
def reprocess(event_id: int | None) -> None:
    """Replay every stored game again (e.g. after an engine or catalog update), on the bulk lane.

    Uses DATABASE_URL and REDIS_URL, or the servers of the `empyrean up` running in EMPYREAN_DATA_DIR."""
    from services.games.dispatch import reprocess as reprocess_games
    from services.platform.broker import make_celery
    from services.platform.launcher import running_service_urls
    from services.platform.pool import create_pool

    config = _config()
    if not (config.database_url and config.redis_url):
        urls = running_service_urls(config.data_dir)
        if urls is None:
            raise click.UsageError("set DATABASE_URL and REDIS_URL, or start `empyrean up` "
                                   f"(none is running with the data folder {config.data_dir})")
        config = config.with_servers(config.database_url or urls["database_url"], config.redis_url or urls["redis_url"])
    pool = create_pool(config.require_database_url(), max_size=1, name="reprocess")
    pool.wait()
    celery = make_celery(config)
    try:
        marked, sent = reprocess_games(pool, celery, event_id=event_id)
    finally:
        pool.close()
        celery.close()
    click.echo(f"{marked} games marked for replay, {sent} sent to the workers (bulk lane)"
               + ("" if sent == marked else "; the sweeper sends the rest"))


@click.group()
def token() -> None:
    """API tokens (docs/security.md): create, list, revoke.

    Uses DATABASE_URL, or the embedded PostgreSQL in EMPYREAN_DATA_DIR when it is unset."""


@token.command("create")
@click.option("--role", type=click.Choice(["uploader", "organiser", "admin"]), required=True,
              help="uploader: upload games; organiser: create events and manage its own; admin: everything.")
@click.option("--event", "event_id", type=click.IntRange(min=1),
              help="Bind an uploader token to this event (its id): it may upload into that event only.")
@click.option("--name", default="", help="A label, to know the token again in `empyrean token list`.")
@click.option("--owner", help="The organiser the token acts for (default: --name); every organiser token of "
              "one owner manages the same events.")
def token_create(role: str, event_id: int | None, name: str, owner: str | None) -> None:
    """Create a token and print it, once: only its hash is kept, so it cannot be shown again."""
    from services.platform.tokens import TokenError, create_token

    def create(url: str) -> None:
        import psycopg

        with psycopg.connect(url) as conn:
            try:
                text, made = create_token(conn, role, name=name, owner=owner, event_id=event_id)
            except TokenError as exc:
                raise click.UsageError(str(exc)) from None
        click.echo(text)
        bound = f", bound to event {made.event_id}" if made.event_id else ""
        click.echo(f"{made.role} token {made.prefix} for {made.owner!r}{bound}: keep it secret; it is not "
                   "shown again (revoke it with `empyrean token revoke " + made.prefix + "`)", err=True)

    _with_database(create)


@token.command("list")
def token_list() -> None:
    """Every token: prefix, role, owner, bound event, created, last used, revoked (never a secret)."""
    from services.platform.tokens import list_tokens

    def show(url: str) -> None:
        import psycopg

        with psycopg.connect(url) as conn:
            rows = list_tokens(conn)
        if not rows:
            click.echo("no tokens yet: create one with `empyrean token create --role ...`")
        for r in rows:
            when = lambda t: t.strftime("%Y-%m-%d %H:%M") if t else "-"  # noqa: E731
            state = f"revoked {when(r['revoked_at'])}" if r["revoked_at"] else "live"
            event = f"event {r['event_id']}" if r["event_id"] else "any event"
            click.echo(f"{r['prefix']}  {r['role']:<9}  {r['owner']!r:<24}  {event:<12}"
                       f"  created {when(r['created_at'])}  last used {when(r['last_used_at'])}  {state}  {r['name']}")

    _with_database(show)


@token.command("revoke")
@click.argument("prefix")
def token_revoke(prefix: str) -> None:
    """Revoke the token with this PREFIX (the 8 characters after emp_): it stops working at once."""
    from services.platform.tokens import revoke_token

    def revoke(url: str) -> None:
        import psycopg

        with psycopg.connect(url) as conn:
            done = revoke_token(conn, prefix)
        if not done:
            raise click.UsageError(f"no live token has the prefix {prefix!r} (see `empyrean token list`)")
        click.echo(f"token {prefix} revoked")

    _with_database(revoke)


@click.group()
def db() -> None:
    """The database schema: apply or inspect migrations (Alembic).

    Uses DATABASE_URL, or the embedded PostgreSQL in EMPYREAN_DATA_DIR when it is unset."""


def _with_database(action) -> None:
    """Run action(database_url) on DATABASE_URL, or on the embedded server (started for the
    purpose and let go afterwards; a server that `empyrean up` is using keeps running)."""
    from services.platform.embedded import EmbeddedPostgres

    config = _config()
    if config.database_url:
        action(config.database_url)
        return
    server = EmbeddedPostgres(config.data_dir / "postgres")
    try:
        action(server.start())
    finally:
        server.stop()


@db.command("upgrade")
@click.argument("revision", default="head")
def db_upgrade(revision: str) -> None:
    """Apply migrations up to REVISION (default: the newest). Already there: nothing happens."""
    _migrate("upgrade", revision)


@db.command("downgrade")
@click.argument("revision")
def db_downgrade(revision: str) -> None:
    """Revert migrations down to REVISION ('base' removes every table: all data is lost)."""
    _migrate("downgrade", revision)


def _migrate(direction: str, revision: str) -> None:
    """Migrate up or down to ``revision``, then say where the database is."""
    from services.platform import migrate

    def run(url: str) -> None:
        getattr(migrate, direction)(url, revision)
        _echo_revision(url)

    _with_database(run)


@db.command("current")
def db_current() -> None:
    """Print the revision the database is at, and the newest this code knows."""
    _with_database(_echo_revision)


def _echo_revision(url: str) -> None:
    import psycopg

    from services.platform import migrate

    with psycopg.connect(url) as conn:
        current = migrate.current_revision(conn)
    head = migrate.head_revision()
    state = "up to date" if current == head else f"behind: the newest is {head}"
    click.echo(f"database at revision {current or '(none)'} ({state})")


COMMANDS = (up, reprocess, token, db)
