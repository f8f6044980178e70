"""``empyrean export``: the counted games' records of an event or a range of days, as CSV or Parquet,
downloaded from the service's API (GET /api/v1/export/games.csv|.parquet, services.api.export) to a
file, a chunk at a time."""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path

import click

from services.cli.games import game_option
from services.cli.upload import DEFAULT_API, service_address

CHUNK_BYTES = 1 << 16


@click.command()
@game_option("Whose games (an export is of one game). Left out: the event's game, else the game of a log that "
             "names none.")
@click.option("--event", "event_id", type=click.IntRange(min=1), help="The event's id (GET /api/v1/events lists them).")
@click.option("--from", "start", type=click.DateTime(["%Y-%m-%d"]), help="First day played (YYYY-MM-DD).")
@click.option("--to", "end", type=click.DateTime(["%Y-%m-%d"]), help="Last day played (YYYY-MM-DD), included.")
@click.option("--format", "fmt", type=click.Choice(["csv", "parquet"]), default=None,
              help="csv or parquet. Left out: from the output file's extension, else csv.")
@click.option("-o", "--output", required=True,
              type=click.Path(dir_okay=False, writable=True, allow_dash=True, path_type=Path),
              help="The file to write ('-' for standard output).")
@click.option("--api", "api_url", envvar="EMPYREAN_API_URL",
              help="The service's base URL (or EMPYREAN_API_URL). Left out: the `empyrean up` running with "
              f"EMPYREAN_DATA_DIR, else {DEFAULT_API}.")
@click.option("--token", envvar="EMPYREAN_TOKEN", help="An API token (or EMPYREAN_TOKEN), to include the unlisted "
              "games it may see. Left out with --api left out too: the running `empyrean up`'s admin token.")
def export(game: str | None, event_id: int | None, start: dt.datetime | None, end: dt.datetime | None,
           fmt: str | None, output: Path, api_url: str | None, token: str | None) -> None:
    """Download the counted games' records: one row per game and seat (decks, battlefields, first
    player, result, might and margins, cards deployed; the columns: docs/export.md), of an event
    (--event), of a range of days (--from and --to, at most a year), or of an event's days in a range.

    Prints where it wrote and how many bytes; a progress bar on stderr counts the bytes received.
    Exit status: 0 written, 1 the service refused the request (why is printed; nothing written),
    2 when the service cannot be used."""
    import requests
    from tqdm import tqdm

    if fmt is None:
        fmt = "parquet" if output.suffix.lower() == ".parquet" else "csv"
    query = {"game": game, "event": event_id, "from": start and start.date().isoformat(),
             "to": end and end.date().isoformat()}
    api_url, token = service_address(api_url, token)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    url = f"{api_url.rstrip('/')}/api/v1/export/games.{fmt}"
    try:
        response = requests.get(url, params={k: v for k, v in query.items() if v is not None}, headers=headers,
                                stream=True, timeout=60)
    except requests.RequestException as exc:
        click.echo(f"error: could not reach the API at {api_url}: {exc}", err=True)
        sys.exit(2)
    with response:
        if response.status_code != 200:
            try:
                message = response.json()["error"]["message"]
            except (ValueError, KeyError, TypeError):
                message = response.text[:500]
            click.echo(f"error: the service answered {response.status_code}: {message}", err=True)
            sys.exit(1 if 400 <= response.status_code < 500 and response.status_code != 429 else 2)
        try:
            written = _save(response, output, tqdm)
        except requests.RequestException as exc:
            click.echo(f"error: the download was cut off: {exc}; nothing was kept, try again", err=True)
            sys.exit(2)
    click.echo(f"{output}: {written:,} bytes ({fmt})" if str(output) != "-" else f"{written:,} bytes ({fmt})",
               err=str(output) == "-")


def _save(response, output: Path, tqdm) -> int:
    """Write the body as it arrives; a file is written beside its final name and moved there once
    whole, so an interrupted download never leaves a file that looks complete."""
    written = 0
    length = response.headers.get("Content-Length")  # the service sends it: the bar knows its end
    bar = tqdm(desc="downloading", unit="B", unit_scale=True, leave=False,
               total=int(length) if length and length.isdigit() else None)
    if str(output) == "-":
        for chunk in response.iter_content(CHUNK_BYTES):
            sys.stdout.buffer.write(chunk)
            written += len(chunk)
            bar.update(len(chunk))
        bar.close()
        return written
    partial = output.with_name(output.name + ".part")
    try:
        with open(partial, "wb") as out:
            for chunk in response.iter_content(CHUNK_BYTES):
                out.write(chunk)
                written += len(chunk)
                bar.update(len(chunk))
        os.replace(partial, output)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        bar.close()
    return written


COMMANDS = (export,)
