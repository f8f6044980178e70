"""A player's page, ``/players/<name>``: their matches in the service's public events, the factions
they played (a deck, a colour …), their results and win rate (with its 95% Wilson interval), each game
linked to its replay, each match and event saying its game. Of every game, or of one: ``?game=<key>``,
and ``/<key>/players/<name>`` in that game's navigation (dashboards/games.py).

A player is a name as the logs write it (``meta.players``), matched exactly. Their matches are read
by services.games.views.player_matches (public events only: an unlisted event never shows here) and
settled by services.games.standings, the same rule as the event's standings: a match counts once,
through the game the service counts, and a disputed, pending or invalid match is listed with its
state but is not in the results. Only games anyone may see are linked (an unlisted game of a public
event is not).
"""

from __future__ import annotations

from collections import defaultdict

from flask import Blueprint, current_app, redirect, render_template, url_for

from engine import games
from engine.log import longest_name
from services.games import standings, views
from services.games.points import Points, plain
from services.platform.storable import storable
from services.stats.intervals import rates

from .game_figures import ordinal
from .games import game_choices, game_filter, game_name, known_or_404, player_url, set_page_game
from .panels import Link, Panel, Table, rate_cell

blueprint = Blueprint("players", __name__, template_folder="templates")

MAX_PLAYER_NAME_CHARS = longest_name("player")  # no log can name a longer player
RESULT_WORDS = {"win": "won", "draw": "draw", "loss": "lost"}


def player_links(names, game: str | None = None) -> list[Link]:
    """Links to players' pages: from a list of one game (``game``), to their page of that game; Battle
    for Empyrean's lists link the page of every game, as they always have."""
    key = None if game == games.DEFAULT_GAME else game
    return [Link(n, player_url(n, key)) for n in names]


def _not_found(name: str, game: str | None):
    of = f" of {game_name(game)}" if game else ""
    return render_template("not_found.html", page_title="No such player",
                           message=f"No match of a public event{of} names the player {name!r} "
                                   "(names are matched exactly, as the logs write them)."), 404


def _record(results: list[str]) -> dict:
    return {"matches": len(results), "wins": results.count("win"), "draws": results.count("draw"),
            "losses": results.count("loss")}


@blueprint.get("/players/<path:name>")
def player_page(name: str):
    """A player's matches of every game; ``?game=<key>`` of one."""
    return _player(name, game_filter())


@blueprint.get("/<game>/players/<path:name>")
def game_player_page(game: str, name: str):
    """A player's matches of one game, in its navigation (Battle for Empyrean's: /players/<name>?game=bfe)."""
    known_or_404(game)
    if game == games.DEFAULT_GAME:
        return redirect(url_for("players.player_page", name=name, game=game))
    return _player(name, game)


def _player(name: str, game: str | None):
    set_page_game(game)
    if not 1 <= len(name) <= MAX_PLAYER_NAME_CHARS or storable(name) != name:  # no log can name such a player
        return _not_found(storable(name), game)
    with current_app.extensions["empyrean"].db_pool.connection() as conn:
        matches = views.player_matches(conn, name, game)
        event_rules = views.event_games_and_points(conn, sorted({m.event_id for m in matches}))
    of_event = {event_id: game for event_id, (game, _) in event_rules.items()}
    if not matches:
        return _not_found(name, game)
    settled = sorted((standings.settle(m) for m in matches),
                     key=lambda s: (s.match.played_on or "", s.match.event_id, s.match.round, s.match.table),
                     reverse=True)
    counted = [s for s in settled if s.state == standings.COUNTED]
    overall = _record([s.outcome[name] for s in counted])
    by_faction: dict[tuple[str, str], list[str]] = defaultdict(list)
    by_event: dict[tuple[int, str], list[standings.Settled]] = defaultdict(list)
    for s in settled:
        by_event[s.match.event_id, s.match.event].append(s)
        if s.state == standings.COUNTED:
            by_faction[of_event[s.match.event_id], s.deck_of(name) or "unknown"].append(s.outcome[name])
    factions = sorted(by_faction.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    faction_rates = rates([(r.count("win"), len(r)) for _, r in factions])
    [win_rate] = rates([(overall["wins"], overall["matches"])])
    played = sorted(set(of_event.values()))
    # what a seat plays as, in the words of the games shown ("deck"; "deck or colour" across games)
    faction = " or ".join(dict.fromkeys(games.info(k).faction if games.is_known(k) else "faction" for k in played))

    faction_table = Table(["game", faction, "win rate (95% CI)", "matches", "wins", "draws", "losses"],
                          [[game_name(key), played_as, rate_cell(rate), len(r), r.count("win"), r.count("draw"),
                            r.count("loss")]
                           for ((key, played_as), r), rate in zip(factions, faction_rates)], numeric={3, 4, 5, 6})
    event_table = Table(["event", "game", "counted", "wins", "draws", "losses", "points", "left out"], [
        [Link(event, f"/events/{event_id}#panel-standings"), game_name(of_event[event_id]),
         *_event_cells(name, found, event_rules[event_id][1])]
        for (event_id, event), found in by_event.items()], numeric={2, 3, 4, 5, 6, 7}, phrase={0, 1})
    # a game decided by ranks: every seat's place and score in the game that counts, after the result
    places = any(s.match.ranked for s in settled)
    shift = int(places)
    match_table = Table(
        ["result", *(["places (score)"] if places else []), "game", "opponents", faction, f"their {faction}s",
         "event", "round", "table", "date", "games (replay)", "note"],
        [_match_row(name, s, of_event[s.match.event_id], places) for s in settled], numeric={6 + shift},
        phrase={1, 1 + shift, 2 + shift, 5 + shift, 9 + shift}, prose={10 + shift})
    panels = [
        Panel("player-decks", f"{faction.capitalize()}s played", table=faction_table,
              note="Counted matches only. A draw is a match not won; the interval is the 95% Wilson interval."),
        Panel("player-events", "Events", table=event_table,
              note="Points as each event's standings count them (its own, else its game's: the standings' "
                   "note on the event's page says which)."),
        Panel("player-matches", f"Matches ({len(settled)})", table=match_table,
              note="Newest first. A match that is disputed, waiting for its replay or has no valid upload is "
                   "listed with its state and is not in the results."),
    ]
    return render_template("players.html", page_title=name, panels=panels, record=overall,
                           win_rate=rate_cell(win_rate), left_out=len(settled) - len(counted), game=game,
                           choices=game_choices(game, lambda key: player_url(name, key), among=played),
                           every_game_url=player_url(name),
                           game_title=game_name(game) if game else None)


def _event_cells(name: str, found: list[standings.Settled], points: Points | None) -> list:
    """The player's counted matches of one event, their results and the points the event's standings
    give them (``points``: the event's; None, a game this process does not know: win 3, draw 1)."""
    counted = [s for s in found if s.state == standings.COUNTED]
    record = _record([s.outcome[name] for s in counted])
    awarded = sum((points or Points()).of(s.counts.seats)[name] for s in counted)
    return [record["matches"], record["wins"], record["draws"], record["losses"], plain(awarded),
            len(found) - record["matches"]]


def _match_row(name: str, s: standings.Settled, game: str, places: bool) -> list:
    """One match of the player's; ``places``: with the places column (places_text)."""
    m = s.match
    opponents = [p for p in m.players if p != name]
    counted = s.state == standings.COUNTED
    replays = [Link(f"game {g.id} ({g.status})", url_for("replay.replay_page", game_id=g.id))
               for g in m.games if g.visible]
    return [RESULT_WORDS[s.outcome[name]] if counted else s.state, *([places_text(s)] if places else []),
            game_name(game), player_links(opponents, game),
            s.deck_of(name) or "", ", ".join(s.deck_of(p) or "?" for p in opponents),
            Link(m.event, f"/events/{m.event_id}"), m.round, m.table, m.played_on or "", replays,
            "" if counted else s.why]


def places_text(s: standings.Settled) -> str:
    """Each seat's place and score in the game that counts, of a game decided by ranks: "1st Ana (52),
    2nd Ben (47)"; empty for a game with one winner or a match no game counts."""
    if not s.match.ranked:
        return ""
    return ", ".join(f"{ordinal(seat.rank)} {seat.player}" + ("" if seat.score is None else f" ({seat.score})")
                     for seat in s.places())
