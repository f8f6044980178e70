"""The ``empyrean`` command line. Each command imports what it needs lazily, so ``empyrean verify``
works on a laptop with no database, broker or web stack installed."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Iterator

import click

LOG_SUFFIXES = (".json", ".ndjson", ".jsonl", ".gz")  # .gz: gzip of any of the others
GZIP_MAGIC = b"\x1f\x8b"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Empyrean Replay: verify, store and analyse Battle for Empyrean game logs."""


def iter_games(text: str, source: str) -> Iterator[tuple[str, object]]:
    """Split one file's text into games: a JSON object, a JSON array of objects, or NDJSON.
    Yields (label, raw) where raw is a decoded value or the undecodable text itself."""
    stripped = text.strip()
    if not stripped:
        yield source, stripped
        return
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        lines = [ln for ln in stripped.splitlines() if ln.strip()]
        if len(lines) > 1:  # NDJSON: one game per line, a bad line is that game's problem only
            for n, line in enumerate(lines, 1):
                yield f"{source}:{n}", line
            return
        yield source, stripped
        return
    if isinstance(value, list):
        for n, item in enumerate(value):
            yield f"{source}[{n}]", item
    else:
        yield source, value


class Unreadable(str):
    """A source that could not even be read as text (the reason, in words): reported, never sent."""


def iter_sources(paths: tuple[str, ...]) -> Iterator[tuple[str, object]]:
    for p in paths:
        if p == "-":
            yield from iter_games(sys.stdin.read(), "<stdin>")
            continue
        path = Path(p)
        files = sorted(f for f in path.rglob("*") if f.suffix in LOG_SUFFIXES) if path.is_dir() else [path]
        for f in files:
            data = f.read_bytes()
            if data.startswith(GZIP_MAGIC):  # a gzipped bundle, e.g. from `empyrean simulate`
                try:
                    data = gzip.decompress(data)
                except (OSError, EOFError) as exc:
                    yield str(f), Unreadable(f"the file looks like gzip but cannot be decompressed ({exc})")
                    continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                yield str(f), data  # the engine reports it as malformed, naming the problem
                continue
            yield from iter_games(text, str(f))


def describe_verdict(label: str, v) -> str:
    if v.status == "illegal":
        who = "chance" if v.player == 0 else f"P{v.player}" if v.player else "setup"
        at = f"decision {v.index}" if v.index is not None else "setup"
        wrote = f" {v.decision!r}" if v.decision else ""
        return f"{label}: ILLEGAL at {at} (round {v.round}, {v.phase} phase, {who}){wrote}: {v.rule}"
    if v.status == "malformed":
        return f"{label}: MALFORMED: " + "; ".join(f"{e['path'] or '/'}: {e['message']}" for e in v.errors)
    if v.status == "mismatch":
        return f"{label}: MISMATCH: " + "; ".join(f"{e['path']}: {e['message']}" for e in v.errors)
    return f"{label}: {v.status.upper()}: {v.message}"


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--explain", is_flag=True, help="Print the board and the legal alternatives at a failing decision.")
@click.option("--json", "as_json", is_flag=True, help="One JSON verdict per line instead of text.")
def verify(paths: tuple[str, ...], explain: bool, as_json: bool) -> None:
    """Replay game logs (files, folders, '-' for stdin; JSON or NDJSON) and say if each was legal.

    Exit status: 0 all valid, 1 some not valid, 2 usage error."""
    from engine.replay import Verdict, replay

    for p in paths:
        if p != "-" and not Path(p).exists():
            raise click.UsageError(f"no such file or folder: {p}")
    counts: dict[str, int] = {}
    for label, raw in iter_sources(paths):
        if isinstance(raw, Unreadable):
            v = Verdict("malformed", raw, errors=[{"path": "", "message": str(raw)}])
        else:
            v = replay(raw, record=False).verdict
        counts[v.status] = counts.get(v.status, 0) + 1
        if as_json:
            click.echo(json.dumps({"source": label, **v.to_dict()}))
            continue
        click.echo(describe_verdict(label, v))
        if explain and v.status == "illegal":
            if v.board:
                click.echo("  board at that point:")
                click.echo("\n".join("    " + ln for ln in v.board.splitlines()))
            if v.legal:
                click.echo("  legal decisions there: " + "; ".join(v.legal))
    total = sum(counts.values())
    if total == 0:
        raise click.UsageError("no game logs found in the given paths")
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    click.echo(f"{total} game(s): {summary}", err=as_json)
    sys.exit(0 if counts.get("valid", 0) == total else 1)


@main.command()
@click.option("--demo/--no-demo", default=True, envvar="EMPYREAN_DEMO", show_default=True,
              help="Load the demo league (simulated games, uploaded through the API) if it is not there yet.")
def up(demo: bool) -> None:
    """Start the whole service: PostgreSQL and Redis (embedded unless DATABASE_URL / REDIS_URL are
    set), migrations, a Celery worker and the API, and the demo data. Prints the URLs; Ctrl-C stops
    everything.

    Configured by environment variables only (docs/services.md): EMPYREAN_DATA_DIR (default ./var),
    EMPYREAN_API_HOST / EMPYREAN_API_PORT (127.0.0.1:8000), EMPYREAN_WORKER_CONCURRENCY (2) …"""
    from services.platform.config import Config, ConfigError
    from services.platform.launcher import ServiceLauncher

    try:
        config = Config.from_env()
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    launcher = ServiceLauncher(config, echo=click.echo, on_ready=[_load_demo] if demo else [])
    sys.exit(launcher.run())


def _load_demo(running) -> None:
    """A simulated league uploaded through the real API (services.simulation.demo); a failure is reported, and
    the service keeps running without it."""
    from services.simulation.demo import load_demo
    from services.cli.upload_client import UploadError

    try:
        load_demo(running.api_url.removesuffix("/api/v1"), click.echo, token=running.token)
    except UploadError as exc:
        click.echo(f"demo data: not loaded ({exc})")


@main.command()
@click.option("--event", "event_id", type=click.IntRange(min=1), help="Only this event's games (its id).")
def reprocess(event_id: int | None) -> None:
    """Replay every stored game again (e.g. after an engine or catalog update), on the bulk lane.

    Uses DATABASE_URL and REDIS_URL, or the servers of the `empyrean up` running in EMPYREAN_DATA_DIR."""
    from services.platform.config import Config, ConfigError
    from services.platform.pool import create_pool
    from services.platform.launcher import running_service_urls
    from services.games.reprocess import reprocess as reprocess_games
    from workers.celery_app import make_celery

    try:
        config = Config.from_env()
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
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


@main.group()
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
            click.echo(f"{r['prefix']}  {r['role']:<9}  {r['owner']!r:<24}  {event:<12}  created {when(r['created_at'])}"
                       f"  last used {when(r['last_used_at'])}  {state}  {r['name']}")

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


@main.group()
def db() -> None:
    """The database schema: apply or inspect migrations (Alembic).

    Uses DATABASE_URL, or the embedded PostgreSQL in EMPYREAN_DATA_DIR when it is unset."""


def _with_database(action) -> None:
    """Run action(database_url) on DATABASE_URL, or on the embedded server (started for the
    purpose and let go afterwards; a server that `empyrean up` is using keeps running)."""
    from services.platform.config import Config, ConfigError
    from services.platform.embedded import EmbeddedPostgres

    try:
        config = Config.from_env()
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
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
    from services.platform import migrate

    def upgrade(url: str) -> None:
        migrate.upgrade(url, revision)
        _echo_revision(url)

    _with_database(upgrade)


@db.command("downgrade")
@click.argument("revision")
def db_downgrade(revision: str) -> None:
    """Revert migrations down to REVISION ('base' removes every table: all data is lost)."""
    from services.platform import migrate

    def downgrade(url: str) -> None:
        migrate.downgrade(url, revision)
        _echo_revision(url)

    _with_database(downgrade)


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


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--event", help="Send everything as one tournament bundle into this event (created if new).")
@click.option("--api", "api_url", envvar="EMPYREAN_API_URL", default="http://127.0.0.1:8000", show_default=True,
              help="The service's base URL (or EMPYREAN_API_URL).")
@click.option("--uploader", envvar="EMPYREAN_UPLOADER", help="Who is uploading (or EMPYREAN_UPLOADER).")
@click.option("--token", envvar="EMPYREAN_TOKEN", help="An API token (or EMPYREAN_TOKEN): uploader, organiser or "
              "admin; --event needs an organiser's or admin's. `empyrean up` writes one to EMPYREAN_DATA_DIR/api-token.")
@click.option("--wait", is_flag=True, help="Wait for each game's verdict and print it (single uploads).")
def upload(paths: tuple[str, ...], event: str | None, api_url: str, uploader: str | None, token: str | None,
           wait: bool) -> None:
    """Upload game logs (files, folders, '-' for stdin; JSON, arrays or NDJSON) to the service.

    Prints one line per game: its id and status, or why it was refused. Exit status: 0 every game
    accepted (and, with --wait, valid), 1 otherwise, 2 when the service cannot be used."""
    from tqdm import tqdm

    from services.cli.upload_client import ApiClient, UploadError, as_bytes

    client = ApiClient(api_url, uploader, token=token)
    games = iter_sources(paths)
    ok = True
    try:
        if event:
            ev = client.event(event)
            unreadable = []

            def readable():
                for label, raw in tqdm(games, desc="uploading", unit="game", leave=False):
                    if isinstance(raw, Unreadable):
                        unreadable.append(f"{label}: NOT SENT: {raw}")
                    else:
                        yield as_bytes(raw)
            report = client.post_bundle(ev["id"], readable())
            for line in unreadable:
                ok = False
                click.echo(line)
            for entry in report.get("games", []):
                if entry.get("error") or entry.get("status") == "malformed":
                    ok = False
                    click.echo(f"entry {entry['index']}: {entry.get('status', 'rejected').upper()}: "
                               f"{entry.get('error') or entry.get('message', '')}")
            counts = ", ".join(f"{k} {report[k]}" for k in ("accepted", "duplicates", "malformed", "rejected")
                               if k in report)
            click.echo(f"event {ev['id']} ({ev['name']}): {counts}")
            if report.get("error"):
                ok = False
                click.echo(f"the bundle stopped early: {report['error']}")
        else:
            for label, raw in tqdm(list(games), desc="uploading", unit="game", leave=False):
                if isinstance(raw, Unreadable):
                    ok = False
                    click.echo(f"{label}: NOT SENT: {raw}")
                    continue
                body = client.post_game(as_bytes(raw))
                if body.get("rejected"):
                    ok = False
                    message = body.get("error", {}).get("message", "")
                    click.echo(f"{label}: REFUSED ({body['status_code']}): {message}")
                    continue
                if wait:
                    body = client.wait(body["id"])
                dup = " (already uploaded)" if body.get("duplicate") else ""
                status = body.get("status", "?")
                ok = ok and (status == "valid" if wait else status != "malformed")
                message = f": {body.get('status_message') or body.get('message') or ''}" if wait else ""
                click.echo(f"{label}: game {body['id']}{dup} {status.upper()}{message}")
    except UploadError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    sys.exit(0 if ok else 1)



# The catalog, game-generation and seat commands live in their own module (cards, catalog, simulate,
# balance, merge).
from services.cli.tools import register  # noqa: E402  (after main is defined)

register(main)
