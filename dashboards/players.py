"""A player's page, ``/players/<name>``: their matches in the service's public events, the decks they
played, their results and win rate (with its 95% Wilson interval), each game linked to its replay.

A player is a name as the logs write it (``meta.players``), matched exactly. Their matches are read
by services.games.views.player_matches (public events only: an unlisted event never shows here) and
settled by services.games.standings, the same rule as the event's standings: a match counts once,
through the game the service counts, and a disputed, pending or invalid match is listed with its
state but is not in the results. Only games anyone may see are linked (an unlisted game of a public
event is not).
"""

from __future__ import annotations

from collections import defaultdict

from flask import Blueprint, current_app, render_template, url_for

from engine.log import longest_name
from services.games import standings, views
from services.platform.storable import storable
from services.stats.intervals import rates

from .panels import Link, Panel, Table, rate_cell

blueprint = Blueprint("players", __name__, template_folder="templates")

MAX_PLAYER_NAME_CHARS = longest_name("player")  # no log can name a longer player
RESULT_WORDS = {"win": "won", "draw": "draw", "loss": "lost"}


def player_path(name: str) -> str:
    return url_for("players.player_page", name=name)


def player_links(names) -> list[Link]:
    return [Link(n, player_path(n)) for n in names]


def _not_found(name: str):
    return render_template("not_found.html", page_title="No such player",
                           message=f"No match of a public event names the player {name!r} "
                                   "(names are matched exactly, as the logs write them)."), 404


def _record(results: list[str]) -> dict:
    return {"matches": len(results), "wins": results.count("win"), "draws": results.count("draw"),
            "losses": results.count("loss")}


@blueprint.get("/players/<path:name>")
def player_page(name: str):
    if not 1 <= len(name) <= MAX_PLAYER_NAME_CHARS or storable(name) != name:  # no log can name such a player
        return _not_found(storable(name))
    with current_app.extensions["empyrean"].db_pool.connection() as conn:
        matches = views.player_matches(conn, name)
    if not matches:
        return _not_found(name)
    settled = sorted((standings.settle(m) for m in matches),
                     key=lambda s: (s.match.played_on or "", s.match.event_id, s.match.round, s.match.table),
                     reverse=True)
    counted = [s for s in settled if s.state == standings.COUNTED]
    overall = _record([s.outcome[name] for s in counted])
    by_deck: dict[str, list[str]] = defaultdict(list)
    by_event: dict[tuple[int, str], list[standings.Settled]] = defaultdict(list)
    for s in settled:
        by_event[s.match.event_id, s.match.event].append(s)
        if s.state == standings.COUNTED:
            by_deck[s.deck_of(name) or "unknown"].append(s.outcome[name])
    decks = sorted(by_deck.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    deck_rates = rates([(r.count("win"), len(r)) for _, r in decks])
    [win_rate] = rates([(overall["wins"], overall["matches"])])

    deck_table = Table(["deck", "win rate (95% CI)", "matches", "wins", "draws", "losses"],
                       [[deck, rate_cell(rate), len(r), r.count("win"), r.count("draw"), r.count("loss")]
                        for (deck, r), rate in zip(decks, deck_rates)], numeric={2, 3, 4, 5})
    event_table = Table(["event", "counted", "wins", "draws", "losses", "points", "left out"], [
        [Link(event, f"/events/{event_id}#panel-standings"), *_event_cells(name, found)]
        for (event_id, event), found in by_event.items()], numeric={1, 2, 3, 4, 5, 6})
    match_table = Table(
        ["result", "opponents", "deck", "their decks", "event", "round", "table", "date", "games (replay)", "note"],
        [_match_row(name, s) for s in settled], numeric={5})
    panels = [
        Panel("player-decks", "Decks played", table=deck_table,
              note="Counted matches only. A draw is a match not won; the interval is the 95% Wilson interval."),
        Panel("player-events", "Events", table=event_table,
              note="Points: win 3, draw 1. Each event's standings are on its page."),
        Panel("player-matches", f"Matches ({len(settled)})", table=match_table,
              note="Newest first. A match that is disputed, waiting for its replay or has no valid upload is "
                   "listed with its state and is not in the results."),
    ]
    return render_template("players.html", page_title=name, panels=panels, record=overall,
                           win_rate=rate_cell(win_rate), left_out=len(settled) - len(counted))


def _event_cells(name: str, found: list[standings.Settled]) -> list:
    record = _record([s.outcome[name] for s in found if s.state == standings.COUNTED])
    points = standings.match_points(record["wins"], record["draws"], record["losses"])
    return [record["matches"], record["wins"], record["draws"], record["losses"], points,
            len(found) - record["matches"]]


def _match_row(name: str, s: standings.Settled) -> list:
    m = s.match
    opponents = [p for p in m.players if p != name]
    counted = s.state == standings.COUNTED
    games = [Link(f"game {g.id} ({g.status})", url_for("replay.replay_page", game_id=g.id))
             for g in m.games if g.visible]
    return [RESULT_WORDS[s.outcome[name]] if counted else s.state, player_links(opponents), s.deck_of(name) or "",
            ", ".join(s.deck_of(p) or "?" for p in opponents), Link(m.event, f"/events/{m.event_id}"), m.round,
            m.table, m.played_on or "", games, "" if counted else s.why]
