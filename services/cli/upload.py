"""``empyrean upload``: game logs to the service, one by one or as a tournament bundle, through its
HTTP API (services.cli.upload_client)."""

from __future__ import annotations

import sys

import click

from services.cli.sources import Unreadable, iter_sources

DEFAULT_API = "http://127.0.0.1:8000"


def service_address(api_url: str | None, token: str | None) -> tuple[str, str | None]:
    """Where to upload, and with which token: ``api_url`` when given; else the `empyrean up`
    running with EMPYREAN_DATA_DIR (its address, and its admin token unless ``token`` is given);
    else DEFAULT_API."""
    if api_url:
        return api_url, token
    from services.platform.config import Config
    from services.platform.launcher import TOKEN_FILE, running_service_urls

    data_dir = Config.from_env().data_dir
    running = running_service_urls(data_dir)
    if running is None:
        return DEFAULT_API, token
    if token is None:
        try:
            token = (data_dir / TOKEN_FILE).read_text().strip() or None
        except OSError:
            pass
    return running["api_url"].removesuffix("/api/v1"), token


def require_token(token: str | None, needs: str) -> str:
    """The token found by service_address, or exit 2 saying how to give one (``needs``: what needs it,
    in words: "uploads need an API token")."""
    if token is None:
        from services.platform.config import Config

        click.echo(f"error: {needs}, and no `empyrean up` was found running with its data in "
                   f"{Config.from_env().data_dir.resolve()} (it lends its admin token). Run this in the folder "
                   "where `empyrean up` runs (or set EMPYREAN_DATA_DIR to its var folder), or give --api URL and "
                   "--token (or EMPYREAN_API_URL and EMPYREAN_TOKEN).", err=True)
        sys.exit(2)
    return token


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--event", help="Send everything as one tournament bundle into this event (created if new).")
@click.option("--api", "api_url", envvar="EMPYREAN_API_URL",
              help="The service's base URL (or EMPYREAN_API_URL). Left out: the `empyrean up` running with "
              f"EMPYREAN_DATA_DIR, else {DEFAULT_API}.")
@click.option("--uploader", envvar="EMPYREAN_UPLOADER", help="Who is uploading (or EMPYREAN_UPLOADER).")
@click.option("--token", envvar="EMPYREAN_TOKEN", help="An API token (or EMPYREAN_TOKEN): uploader, organiser or "
              "admin; --event needs an organiser's or admin's. Left out with --api left out too: the admin "
              "token the running `empyrean up` wrote to EMPYREAN_DATA_DIR/api-token.")
@click.option("--wait", is_flag=True, help="Wait for each game's verdict and print it (single uploads).")
def upload(paths: tuple[str, ...], event: str | None, api_url: str, uploader: str | None, token: str | None,
           wait: bool) -> None:
    """Upload game logs (files, folders, '-' for stdin; JSON, arrays or NDJSON) to the service.

    Prints one line per game: its id and status (with --wait, its verdict) and its game, or why it
    was refused;
    with --event, the entries the service rejected or found malformed, then the event's counts
    (accepted, duplicates, malformed, rejected). A progress bar on stderr counts the games sent.
    Exit status: 0 every game accepted (and, with --wait, valid), 1 otherwise, 2 when the service
    cannot be used."""
    from tqdm import tqdm

    from services.cli.games import game_tag
    from services.cli.upload_client import ApiClient, UploadError, as_bytes

    api_url, token = service_address(api_url, token)
    client = ApiClient(api_url, uploader, token=require_token(token, "uploads need an API token"))
    games = iter_sources(paths)
    ok = True
    try:
        if event:
            try:
                ev = client.event(event)
            except UploadError as exc:
                if exc.status != 403:
                    raise
                click.echo("error: this token may not create or find events (an uploader's token). If it is "
                           "bound to an event, leave out --event: its games go into that event. Else use an "
                           "organiser's token (--token).", err=True)
                sys.exit(2)
            unreadable = []
            # the bar's total: the files are read once more to count their games (stdin cannot be)
            total = None if "-" in paths else sum(1 for _ in iter_sources(paths))

            def readable():
                for label, raw in tqdm(games, desc="uploading", unit="game", leave=False, total=total):
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
            click.echo(f"event {ev['id']} ({ev['name']}): {counts}{game_tag(ev.get('game'))}")
            if report.get("problems_omitted"):
                click.echo(f"... and {report['problems_omitted']:,} more rejected or malformed entries not listed "
                           "(the answer lists 1,000): fix those above and upload again")
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
                title = f" ({body['title']})" if wait and body.get("title") else ""
                tag = game_tag(body.get("game"))
                click.echo(f"{label}: game {body['id']}{title}{dup} {status.upper()}{message}{tag}")
    except UploadError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    sys.exit(0 if ok else 1)


COMMANDS = (upload,)
