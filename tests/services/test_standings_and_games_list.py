"""Event standings, player pages and the games list (issue 18, part 4), end to end: a simulated,
flawed Swiss tournament goes through the bundle endpoint and the real worker into PostgreSQL; then
GET /api/v1/events/{id}/standings (and its CSV), /players/<name>, GET /api/v1/events/{id}/games and
GET /api/v1/games with their filters, paging and visibility.

The standings' points are checked against a count made here from the bundle itself — each upload
judged by the engine, a match counting when all its uploads are valid and agree — not against the
service's own reads; the tie-breaker arithmetic has its unit tests (tests/test_standings.py)."""

from __future__ import annotations

import csv
import io
import json
import secrets
from collections import defaultdict
from urllib.parse import quote

import pytest
from service_helpers import as_admin, make_token, token_client
from test_match_counting import finished, logs_won_by, match_meta, new_event, upload
from test_openapi import response_validator
from tournament import load_tournament

from engine.replay import replay
from services.api.access import may_read_game
from services.games import views
from services.platform.tokens import authenticate


@pytest.fixture(scope="module")
def tournament(app):
    return load_tournament(as_admin(app))


def expected_results(bundle) -> tuple[dict[str, list[str]], int]:
    """Per player, the results of their counted matches ('win', 'draw', 'loss') and how many matches
    count, from the bundle's logs: uploads of one match (round, table) are judged by the engine; the
    match counts when every upload is valid and all claim the same winner (duplicates are one game)."""
    matches: dict[tuple, list[dict]] = defaultdict(list)
    for log in bundle.uploads:
        matches[log["meta"]["round"], log["meta"]["table"]].append(log)
    results: dict[str, list[str]] = defaultdict(list)
    counted = 0
    for uploads in matches.values():
        players = uploads[0]["meta"]["players"]
        verdicts = {replay(log, record=False).verdict.status for log in uploads}
        winners = {log["result"]["winner"] for log in uploads}
        if verdicts != {"valid"} or len(winners) != 1:
            for name in players:
                results.setdefault(name, [])
            continue
        counted += 1
        [winner] = winners
        for seat, name in enumerate(players, 1):
            results[name].append("draw" if winner is None else "win" if winner == seat else "loss")
    return results, counted


def test_standings_count_each_verified_match_once_and_leave_the_rest_out(client, tournament):
    body = client.get(f"/api/v1/events/{tournament['event']}/standings").get_json()
    response_validator("/events/{event_id}/standings", "get", 200).validate(body)  # as documented
    want, counted = expected_results(tournament["bundle"])
    assert body["counted_matches"] == counted
    got = {r["player"]: r for r in body["standings"]}
    assert set(got) == set(want)
    for name, results in want.items():
        row = got[name]
        assert (row["wins"], row["draws"], row["losses"]) == (
            results.count("win"), results.count("draw"), results.count("loss")), name
        assert row["points"] == 3 * results.count("win") + results.count("draw")
    # standing order: points first, ranks shared only by equals
    points = [r["points"] for r in body["standings"]]
    assert points == sorted(points, reverse=True)
    assert [r["rank"] for r in body["standings"]][0] == 1
    for r in body["standings"]:
        assert r["player_url"] == "/players/" + quote(r["player"])
        if r["matches"]:
            assert 1 / 3 <= r["opponents_match_win"] <= 1 and 1 / 3 <= r["game_win"] <= 1
    # the simulator's flaws: each dispute, illegal game and wrong claim leaves its match out, with why
    flaws = tournament["bundle"].flaws
    states = [m["state"] for m in body["left_out"]]
    assert states.count("disputed") == flaws["dispute"] > 0
    assert states.count("not valid") == flaws["illegal"] + flaws["wrong_result"]
    assert sum(r["left_out"] for r in body["standings"]) == 2 * len(body["left_out"])
    assert body["rules"] == {"points": {"win": 3, "draw": 1, "loss": 0},
                             "tie_breakers": ["opponents_match_win", "game_win", "opponents_opponents_match_win"],
                             "floor": pytest.approx(1 / 3)}


def test_the_event_page_shows_the_standings_with_player_links_and_a_csv(client, tournament):
    event = tournament["event"]
    api = client.get(f"/api/v1/events/{event}/standings").get_json()
    page = client.get(f"/events/{event}").get_data(as_text=True)
    assert 'id="panel-standings"' in page and 'id="panel-left-out"' in page
    for row in api["standings"]:
        assert f'<a href="{row["player_url"]}">{row["player"]}</a>' in page
    response = client.get(f"/events/{event}/standings.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert 'filename="empyrean-event-' in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [r["player"] for r in rows] == [r["player"] for r in api["standings"]]
    assert [int(r["points"]) for r in rows] == [r["points"] for r in api["standings"]]
    assert [float(r["opponents_match_win"]) for r in rows if r["matches"] != "0"] == pytest.approx(
        [r["opponents_match_win"] for r in api["standings"] if r["matches"]])
    left_out = list(csv.DictReader(io.StringIO(client.get(f"/events/{event}/left-out.csv").get_data(as_text=True))))
    assert [r["state"] for r in left_out] == [m["state"] for m in api["left_out"]]


def test_a_disputed_match_enters_the_standings_with_the_game_its_resolution_names(admin_client):
    name = new_event(admin_client, "Standings Dispute Cup")
    logs = logs_won_by(match_meta(name), 1, 21_000)
    ana, bo = (upload(admin_client, logs[p][0]).get_json()["id"] for p in ("Ana", "Bo"))
    event = finished(admin_client, ana)["event_id"]
    finished(admin_client, bo)
    before = admin_client.get(f"/api/v1/events/{event}/standings").get_json()
    assert before["counted_matches"] == 0 and [m["state"] for m in before["left_out"]] == ["disputed"]
    assert {r["player"]: (r["matches"], r["left_out"]) for r in before["standings"]} == {"Ana": (0, 1), "Bo": (0, 1)}
    dispute = before["left_out"][0]["dispute"]
    resolved = admin_client.post(f"/api/v1/disputes/{dispute}/resolve", json={"resolution": "Bo's log is the game",
                                                                               "counts": bo})
    assert resolved.status_code == 200, resolved.get_json()
    after = admin_client.get(f"/api/v1/events/{event}/standings").get_json()
    assert after["counted_matches"] == 1 and after["left_out"] == []
    assert [(r["rank"], r["player"], r["points"]) for r in after["standings"]] == [(1, "Bo", 3), (2, "Ana", 0)]


def test_a_player_page_shows_their_matches_decks_and_win_rate(client, tournament):
    standings = client.get(f"/api/v1/events/{tournament['event']}/standings").get_json()["standings"]
    row = next(r for r in standings if r["matches"] and r["left_out"])
    response = client.get(row["player_url"])
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    summary = page[page.index('id="player-summary"'):page.index("</p>", page.index('id="player-summary"'))]
    record = f"{row['matches']} counted matches · {row['wins']} won, {row['draws']} drawn, {row['losses']} lost"
    assert record in summary
    assert f"{100 * row['wins'] / row['matches']:.1f}% (" in summary  # the rate and its interval
    assert f"{row['left_out']} more not counted" in summary
    for deck in row["decks"]:
        assert f"<td>{deck}</td>" in page
    games = client.get(f"/api/v1/games?player={quote(row['player'])}&limit=500").get_json()["games"]
    assert games and all(row["player"] in g["players"] for g in games)
    for game in games:
        assert f'href="/games/{game["id"]}/replay"' in page
    assert client.get("/players/" + quote("Nobody " + secrets.token_hex(3))).status_code == 404
    for unstorable in ("%00", "Ada%00", "Bo%ED%A0%80"):  # no log can name them: not found, never a 500
        missing = client.get("/players/" + unstorable)
        assert missing.status_code == 404 and "No such player" in missing.get_data(as_text=True)


def test_the_event_games_list_pages_through_every_game_once_newest_first(client, tournament, db):
    event = tournament["event"]
    stored = [r[0] for r in db.execute("SELECT id FROM games WHERE event_id = %s ORDER BY id DESC", (event,))]
    seen, url = [], f"/api/v1/events/{event}/games?limit=7"
    while url:
        body = client.get(url).get_json()
        response_validator("/events/{event_id}/games", "get", 200).validate(body)  # as documented
        assert len(body["games"]) <= 7
        seen += [g["id"] for g in body["games"]]
        url = body["next"]
    assert seen == stored  # every game once, newest first, across pages
    event_body = client.get(f"/api/v1/events/{event}").get_json()
    assert event_body["games_url"] == f"/api/v1/events/{event}/games"
    assert client.get(event_body["games_url"]).status_code == 200  # it answered 405 before issue 18
    assert event_body["standings_url"] == f"/api/v1/events/{event}/standings"


def test_the_games_list_filters_by_event_deck_player_and_status(client, tournament):
    event = tournament["event"]
    counts = client.get(f"/api/v1/events/{event}").get_json()["games"]
    for status, n in counts.items():
        games = client.get(f"/api/v1/games?event={event}&status={status}&limit=500").get_json()["games"]
        assert len(games) == n and {g["status"] for g in games} == {status}
        assert all(g["event"] == {"id": event, "name": "Dash Open"} for g in games)
    valid = client.get(f"/api/v1/games?event={event}&status=valid&limit=1").get_json()["games"][0]
    deck = valid["decks"][0]
    by_deck = client.get(f"/api/v1/games?deck={quote(deck)}&limit=500").get_json()["games"]
    assert valid["id"] in [g["id"] for g in by_deck] and all(deck in g["decks"] for g in by_deck)
    player = valid["players"][1]
    by_player = client.get(f"/api/v1/events/{event}/games?player={quote(player)}&status=valid").get_json()["games"]
    assert valid["id"] in [g["id"] for g in by_player] and all(player in g["players"] for g in by_player)
    assert valid["winner"] in valid["players"] or valid["draw"]
    assert valid["replay_url"] == f"/games/{valid['id']}/replay" and valid["match"]["round"] >= 1


@pytest.mark.parametrize(("query", "parameter", "says"), [
    ("deck=Nope", "deck", "Zulus of the Mfecane"),  # an unknown deck lists the decks there are
    ("player=Nobody%20at%20all", "player", "no game you may see was played by 'Nobody at all'"),
    ("status=lost", "status", "valid, illegal"),
    ("event=987654321", "event", "there is no event 987654321"),
    ("event=abc", "event", "whole number"),
    ("colour=blue", "colour", "unknown parameter"),
    ("limit=501", "limit", "from 1 to 500"),
    ("limit=0", "limit", "from 1 to 500"),
    ("before=-3", "before", "whole number"),
    ("status=valid&status=illegal", "status", "give it once"),
    ("deck=", "deck", "1 to 100 characters"),
    ("player=" + "P" * 101, "player", "1 to 100 characters"),  # longer than a log can name a player
])
def test_unknown_filter_values_are_a_400_naming_the_parameter(client, tournament, query, parameter, says):
    response = client.get(f"/api/v1/games?{query}")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["parameter"] == parameter and says in error["message"], error


def test_an_event_in_the_path_takes_no_event_filter_and_an_unknown_event_is_a_404(client, tournament):
    assert client.get(f"/api/v1/events/{tournament['event']}/games?event=1").get_json()["error"]["parameter"] == "event"
    assert client.get("/api/v1/events/987654321/games").status_code == 404
    assert client.get("/api/v1/events/987654321/standings").status_code == 404


def _everything(client, url: str) -> set[int]:
    seen: list[int] = []
    while url:
        body = client.get(url).get_json()
        seen += [g["id"] for g in body["games"]]
        url = body["next"]
    assert len(seen) == len(set(seen))
    return set(seen)


def test_unlisted_games_and_events_are_listed_only_for_tokens_that_may_read_them(app, client, admin_client, db,
                                                                                 tournament):
    organiser = make_token(app, "organiser", owner=f"Olga {secrets.token_hex(2)}")
    olga = token_client(app, organiser)
    name = f"Quiet Cup {secrets.token_hex(3)}"
    hidden = olga.post("/api/v1/events", json={"name": name, "visibility": "unlisted"}).get_json()["id"]
    # uploaded by a token bound to the event: its organiser and another bound token read it by their
    # own rights, not as its uploader
    scorer, bound = (make_token(app, "uploader", event_id=hidden) for _ in range(2))
    meta = {**match_meta(name), "players": ["Ana", "Bo"]}
    in_hidden = upload(token_client(app, scorer), logs_won_by(meta, 1, 22_000)["Ana"][0]).get_json()["id"]
    public_event = as_admin(app).post("/api/v1/events", json={"name": f"Loud Cup {secrets.token_hex(3)}"}).get_json()
    loner = make_token(app, "uploader", name="loner")
    hush = f"Hush {secrets.token_hex(3)}"  # a player whose one game is unlisted, in a public event
    log = logs_won_by({**match_meta(public_event["name"]), "players": ["Ana", "Bo"]}, 1, 22_100)["Bo"][0]
    log["meta"]["players"] = [hush if p == "Ana" else p for p in log["meta"]["players"]]
    quiet = token_client(app, loner).post("/api/v1/games?visibility=unlisted", data=json.dumps(log),
                                          content_type="application/json").get_json()["id"]
    finished(olga, in_hidden)
    finished(admin_client, quiet)
    # the player page lists no unlisted game; the public event's standings count it, as the statistics do
    assert client.get("/players/" + quote(hush)).status_code == 404
    assert client.get(f"/api/v1/events/{public_event['id']}/standings").get_json()["counted_matches"] == 1

    anyone = _everything(client, "/api/v1/games?limit=500")
    assert in_hidden not in anyone and quiet not in anyone
    assert client.get(f"/api/v1/events/{hidden}/games").status_code == 404
    assert client.get(f"/api/v1/events/{hidden}/standings").status_code == 404
    assert client.get(f"/api/v1/games?event={hidden}").get_json()["error"]["parameter"] == "event"
    assert olga.get(f"/api/v1/events/{hidden}/standings").get_json()["left_out"] == []
    assert _everything(olga, f"/api/v1/events/{hidden}/games") == {in_hidden}

    # every token sees exactly the games may_read_game lets it read, page after page
    texts = {"nobody": None, "admin": app.extensions["test_admin_token"], "organiser": organiser,
             "bound uploader": bound, "uploader of the unlisted game": loner, "scorer": scorer}
    with app.extensions["empyrean"].db_pool.connection() as conn:
        games = [views.game_view(conn, gid) for (gid,) in conn.execute("SELECT id FROM games").fetchall()]
        tokens = {label: text and authenticate(conn, text) for label, text in texts.items()}
    for label, token in tokens.items():
        reader = client if token is None else token_client(app, texts[label])
        want = {game.id for game in games if may_read_game(token, game)}
        assert _everything(reader, "/api/v1/games?limit=500") == want, label
        if label != "admin":
            assert len(want) < len(games)
    assert in_hidden in _everything(token_client(app, bound), "/api/v1/games?limit=500")
    assert quiet in _everything(token_client(app, loner), f"/api/v1/games?event={public_event['id']}")


def test_a_player_of_unlisted_events_only_has_no_page(app, client):
    olga = token_client(app, make_token(app, "organiser", owner="Olga the quiet"))
    name = f"Hidden League {secrets.token_hex(3)}"
    olga.post("/api/v1/events", json={"name": name, "visibility": "unlisted"})
    player = f"Secret {secrets.token_hex(3)}"
    log = logs_won_by({**match_meta(name), "players": ["Ana", "Bo"]}, 1, 23_000)["Ana"][0]
    log["meta"]["players"] = [player, "Bo"] if log["meta"]["players"][0] == "Ana" else ["Bo", player]
    game = upload(olga, log).get_json()["id"]
    finished(olga, game)
    assert client.get("/players/" + quote(player)).status_code == 404
    assert client.get(f"/api/v1/games?player={quote(player)}").status_code == 400  # nobody can see such a game
    assert olga.get(f"/api/v1/games?player={quote(player)}").get_json()["games"][0]["id"] == game
