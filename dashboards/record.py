"""The recorder: a rules-checked scoresheet for a game played with real cards (docs/recording.md).

- ``GET /record`` — the board mode, Battle for Empyrean's. Everything else happens in the browser
  (static/record.js): the game's setup, then each decision chosen among the legal answers the
  positions API gives for the log so far (``POST /api/v1/positions``, stateless: the page sends the
  whole log each time), the log kept in the browser's storage after every decision, and at the end
  the service's normal upload (``POST /api/v1/games`` with the recorder's API token), a download, or
  a link to the replay.

The page holds no game of its own on the server: a recorded game reaches the database only by that
upload, through the same verification, dispute and statistics path as any other log.

- ``GET /<key>/record`` — the recorder of any registered game: Battle for Empyrean's is its board mode
  (a redirect to /record); every other game's is the lines mode (static/record_lines.js), which needs
  nothing of the game but what the engine offers every game: the setup from the game's log schema
  (services/games/setup_form.py), then each legal next line as a button, grouped by its verb. A game
  with a board renderer (replay.BOARDS) has its board drawn above the lines, from the positions API's
  frame and layout; a renderer may write a legal line from the board itself (Spells & Steam's build by
  a tap on a hex).
"""

from __future__ import annotations

from flask import Blueprint, render_template, url_for

from engine import games
from services.games.setup_form import claims_winner, setup_form

from .games import known_or_404
from .replay import BOARDS

blueprint = Blueprint("record", __name__, template_folder="templates")


def _urls() -> dict[str, str]:
    """The API endpoints the page talks to, from the app's own routes (never written twice)."""
    return {
        "positions": url_for("api_v1.positions.post_position"),
        "catalog": url_for("api_v1.catalog.catalog_versions"),
        "events": url_for("api_v1.events.list_events"),
        "event": url_for("api_v1.events.get_event", event_id=0).rsplit("/", 1)[0] + "/",
        "games": url_for("api_v1.games.upload_game"),
        "replay": url_for("replay.replay_page", game_id=0).replace("/0/", "/{id}/"),
    }


@blueprint.get("/record")
def record_page():
    config = {"urls": _urls(), "game": games.info(games.DEFAULT_GAME).to_dict()}
    return render_template("record.html", config=config, page_title="Record a game")


@blueprint.get("/<game>/record")
def record_game(game: str):
    known_or_404(game)  # /bfe/record is not here: dashboards/games.py sends it to /record, the board mode
    info = games.info(game)
    form = setup_form(game)
    config = {"urls": _urls(), "game": info.to_dict(), "setup": form.to_dict(),
              "claims_winner": claims_winner(game)}
    return render_template("record_lines.html", config=config, game=info, form=form, board=BOARDS.get(game),
                           page_title=f"Record a game of {info.name}")
