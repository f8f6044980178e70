"""The recorder: a rules-checked scoresheet for a game played with real cards (docs/recording.md).

- ``GET /record`` — the page. Everything else happens in the browser (static/record.js): the game's
  setup, then each decision chosen among the legal answers the positions API gives for the log so
  far (``POST /api/v1/positions``, stateless: the page sends the whole log each time), the log kept
  in the browser's storage after every decision, and at the end the service's normal upload
  (``POST /api/v1/games`` with the recorder's API token), a download, or a link to the replay.

The page holds no game of its own on the server: a recorded game reaches the database only by that
upload, through the same verification, dispute and statistics path as any other log.
"""

from __future__ import annotations

from flask import Blueprint, render_template, url_for

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
    return render_template("record.html", config={"urls": _urls()}, page_title="Record a game")
