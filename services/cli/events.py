"""``empyrean event create``: an event (a tournament) of one game, made through the service's API
(POST /api/v1/events), found where ``empyrean upload`` finds the service and its token
(services.cli.upload.service_address)."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

import click

from services.cli.games import game_option
from services.cli.upload import DEFAULT_API, require_token, service_address


@click.group()
def event() -> None:
    """Events (tournaments) on the service."""


@event.command("create")
@click.option("--name", required=True, help="The event's name (what logs write in meta.event).")
@game_option("The game it is of, for good: only its logs are filed under it. Left out: an event of that "
             "name is found whatever its game; a new one is of the game of a log that names none.")
@click.option("--date", "starts_on", type=click.DateTime(["%Y-%m-%d"]), help="The day it starts (YYYY-MM-DD).")
@click.option("--points", "points_text", metavar="JSON|@FILE",
              help="The match points of its standings, as JSON or @ a JSON file: '{\"win\": 3, \"draw\": 1, "
              "\"loss\": 0}' for a game with one winner, '{\"by_rank\": {\"3\": [2, 1, 0], \"4\": [3, 2, 1, 0]}}' "
              "(each table size the game allows) for a game decided by ranks. Left out: the game's default "
              "(docs/services.md, \"Standings\").")
@click.option("--url", "--api", "api_url", envvar="EMPYREAN_API_URL",
              help="The service's base URL (or EMPYREAN_API_URL). Left out: the `empyrean up` running with "
              f"EMPYREAN_DATA_DIR, else {DEFAULT_API}.")
@click.option("--token", envvar="EMPYREAN_TOKEN", help="An organiser's or admin's API token (or EMPYREAN_TOKEN). "
              "Left out with --url left out too: the running `empyrean up`'s admin token.")
def create(name: str, game: str | None, starts_on: dt.datetime | None, points_text: str | None,
           api_url: str | None, token: str | None) -> None:
    """Create an event of a game (or find the one of that name) and print its id.

    The id alone goes to standard output (`id=$(empyrean event create ...)`); what was done, to
    standard error. Exit status: 0 created or found, 1 the service refused (why is printed), 2 when
    the service cannot be used."""
    from services.cli.upload_client import ApiClient, UploadError
    from services.games.game_names import game_words

    points = _points(points_text) if points_text is not None else None
    api_url, token = service_address(api_url, token)
    client = ApiClient(api_url, token=require_token(token, "creating an event needs an organiser's API token"))
    try:
        body = client.event(name, game=game, starts_on=starts_on.date().isoformat() if starts_on else None,
                            points=points)
    except UploadError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1 if exc.status is not None and exc.status < 500 and exc.status != 429 else 2)
    click.echo(body["id"])
    done = "created" if body.get("created") else "already there, unchanged"
    click.echo(f"event {body['id']} ({body['name']}), of {game_words(body['game'])}: {done}; points "
               f"{json.dumps(body.get('points'))}", err=True)


def _points(text: str) -> object:
    """--points as JSON: the text, or the file named after an @; the service checks what it says."""
    where = "--points"
    if text.startswith("@"):
        where = f"--points file {text[1:]!r}"
        try:
            text = Path(text[1:]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise click.BadParameter(f"cannot read {text[1:]!r}: {exc}", param_hint="--points") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"{where} is not JSON ({exc})", param_hint="--points") from None


COMMANDS = (event,)
