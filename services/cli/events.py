"""``empyrean event create``: an event (a tournament) of one game, made through the service's API
(POST /api/v1/events), found where ``empyrean upload`` finds the service and its token
(services.cli.upload.service_address)."""

from __future__ import annotations

import datetime as dt
import sys

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
@click.option("--url", "--api", "api_url", envvar="EMPYREAN_API_URL",
              help="The service's base URL (or EMPYREAN_API_URL). Left out: the `empyrean up` running with "
              f"EMPYREAN_DATA_DIR, else {DEFAULT_API}.")
@click.option("--token", envvar="EMPYREAN_TOKEN", help="An organiser's or admin's API token (or EMPYREAN_TOKEN). "
              "Left out with --url left out too: the running `empyrean up`'s admin token.")
def create(name: str, game: str | None, starts_on: dt.datetime | None, api_url: str | None,
           token: str | None) -> None:
    """Create an event of a game (or find the one of that name) and print its id.

    The id alone goes to standard output (`id=$(empyrean event create ...)`); what was done, to
    standard error. Exit status: 0 created or found, 1 the service refused (why is printed), 2 when
    the service cannot be used."""
    from services.cli.upload_client import ApiClient, UploadError
    from services.games.game_names import game_words

    api_url, token = service_address(api_url, token)
    client = ApiClient(api_url, token=require_token(token, "creating an event needs an organiser's API token"))
    try:
        body = client.event(name, game=game, starts_on=starts_on.date().isoformat() if starts_on else None)
    except UploadError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1 if exc.status is not None and exc.status < 500 and exc.status != 429 else 2)
    click.echo(body["id"])
    done = "created" if body.get("created") else "already there, unchanged"
    click.echo(f"event {body['id']} ({body['name']}), of {game_words(body['game'])}: {done}", err=True)


COMMANDS = (event,)
