"""``empyrean upload``: game logs to the service, one by one or as a tournament bundle, through its
HTTP API (services.cli.upload_client)."""

from __future__ import annotations

import sys

import click

from services.cli.sources import Unreadable, iter_sources


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--event", help="Send everything as one tournament bundle into this event (created if new).")
@click.option("--api", "api_url", envvar="EMPYREAN_API_URL", default="http://127.0.0.1:8000", show_default=True,
              help="The service's base URL (or EMPYREAN_API_URL).")
@click.option("--uploader", envvar="EMPYREAN_UPLOADER", help="Who is uploading (or EMPYREAN_UPLOADER).")
@click.option("--token", envvar="EMPYREAN_TOKEN", help="An API token (or EMPYREAN_TOKEN): uploader, organiser or "
              "admin; --event needs an organiser's or admin's. `empyrean up` writes one to "
              "EMPYREAN_DATA_DIR/api-token.")
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
                click.echo(f"{label}: game {body['id']}{dup} {status.upper()}{message}")
    except UploadError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    sys.exit(0 if ok else 1)


COMMANDS = (upload,)
