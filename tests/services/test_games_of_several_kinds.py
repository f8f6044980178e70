"""Games of several kinds, from upload to the statistics' URLs (issue 27), with real PostgreSQL,
Redis and a Celery worker: events are of one game and take no log of another; every event and game
says its game, and the lists filter by it; the registry; each game's statistics under its key; the
seats' outcome the worker writes; the export of one game; standings of the event's own game.

A second game is registered in this process for the module (tests/second_game.py: Battle for
Empyrean's rules as "standin"): the API here knows it, the worker does not (it judges such logs
malformed at /game), which is all these tests need of it."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from click.testing import CliRunner
from second_game import of_game, second_game
from service_helpers import make_token, served_at, token_client
from tournament import wait_event_done

from engine import games
from engine.bfe.selfplay import self_play
from engine.log import canonical_hash, parse_log
from engine.replay import replay
from services.api.stats import EVERY_GAME_STATISTICS, GAME_STATISTICS
from services.cli import main as cli
from services.games.export import NAMES

BFE = games.DEFAULT_GAME
WORDS_BFE = "Battle for Empyrean (bfe)"


@pytest.fixture(scope="module", autouse=True)
def stand_in():
    with second_game() as info:
        yield info


def make_event(client, name: str, game: str | None = None) -> dict:
    response = client.post("/api/v1/events", json={"name": name} | ({"game": game} if game else {}))
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def _hash(content: dict) -> str:
    return canonical_hash(parse_log(json.dumps(content).encode()))


def stored(db, content: dict) -> int:
    """How many games hold this log (by its canonical hash)."""
    return db.execute("SELECT count(*) FROM games WHERE content_hash = %s", (_hash(content),)).fetchone()[0]


def known_words() -> str:
    """The games this process knows, as an error lists them: "bfe (Battle for Empyrean), …"."""
    return ", ".join(f"{key} ({games.info(key).name})" for key in games.keys())


def ndjson(*logs: dict) -> bytes:
    return ("\n".join(json.dumps(log) for log in logs) + "\n").encode()


def test_an_event_is_of_one_game_given_when_it_is_made(admin_client, db, stand_in):
    default = make_event(admin_client, "Of The Default Game")
    assert default["game"] == BFE and default["created"] is True
    own = make_event(admin_client, "Stand-in Open", stand_in.key)
    assert own["game"] == stand_in.key
    assert admin_client.get(own["url"]).get_json()["game"] == stand_in.key
    # the same name again finds it whatever its game; naming another game is a mistake, said so
    again = admin_client.post("/api/v1/events", json={"name": "Stand-in Open"})
    assert (again.status_code, again.get_json()["id"], again.get_json()["game"]) == (200, own["id"], stand_in.key)
    other = admin_client.post("/api/v1/events", json={"name": "Stand-in Open", "game": BFE})
    error = other.get_json()["error"]
    assert other.status_code == 409 and error["pointer"] == "/game" and error["event_game"] == stand_in.key
    assert f"for {stand_in.name} ({stand_in.key}), not {WORDS_BFE}" in error["message"]
    # an unknown game is a 400 naming the field and the games there are; nothing is made
    for game in ("nope", 3, None, ["bfe"]):
        refused = admin_client.post("/api/v1/events", json={"name": "Nope Cup", "game": game})
        error = refused.get_json()["error"]
        assert refused.status_code == 400 and error["pointer"] == "/game", game
        assert f"the games known here are {known_words()}" in error["message"]
        assert error["known_games"] == games.keys() and stand_in.key in error["known_games"]
    assert db.execute("SELECT count(*) FROM events WHERE name = 'Nope Cup'").fetchone()[0] == 0
    # and it is the event's for good
    patched = admin_client.patch(own["url"], json={"game": BFE})
    assert patched.status_code == 400 and patched.get_json()["error"]["pointer"] == "/game"
    assert db.execute("SELECT game FROM events WHERE id = %s", (own["id"],)).fetchone()[0] == stand_in.key


def test_a_log_of_another_game_than_its_events_is_refused_naming_both_and_nothing_is_stored(
        app, admin_client, db, stand_in):
    bfe_event = make_event(admin_client, "Mixed Cup")
    own_event = make_event(admin_client, "Stand-in Cup", stand_in.key)
    meta = {"event": "Mixed Cup", "round": 1, "table": "9", "players": ["Ines", "Jan"]}
    foreign = of_game(self_play(8201, meta=meta), stand_in.key)
    refused = admin_client.post("/api/v1/games", json=foreign)
    error = refused.get_json()["error"]
    assert refused.status_code == 409 and error["pointer"] == "/game"
    assert (error["game"], error["event"], error["event_game"]) == (stand_in.key, bfe_event["id"], BFE)
    assert error["message"].startswith(f"this log is a game of {stand_in.name} ({stand_in.key}) but event "
                                       f"'Mixed Cup' is for {WORDS_BFE}; nothing was stored")
    assert stored(db, foreign) == 0
    assert db.execute("SELECT count(*) FROM event_matches WHERE %s = ANY(players)", ("Ines",)).fetchone()[0] == 0

    # the other way round, and through a token bound to the event (its games go into its event)
    bfe_log = self_play(8202, meta={"event": "Stand-in Cup"})
    refused = admin_client.post("/api/v1/games", json=bfe_log)
    assert refused.status_code == 409
    assert f"is a game of {WORDS_BFE} but event 'Stand-in Cup' is for {stand_in.name}" in \
        refused.get_json()["error"]["message"]
    bound = token_client(app, make_token(app, "uploader", name="table 2", event_id=own_event["id"]))
    plain = self_play(8203)
    assert bound.post("/api/v1/games", json=plain).status_code == 409 and stored(db, plain) == 0
    assert stored(db, bfe_log) == 0

    # the same log as its own game is welcome: stored with its game, which every answer says
    welcome = admin_client.post("/api/v1/games", json=of_game(self_play(8202, meta={"event": "Stand-in Cup"}),
                                                                stand_in.key))
    assert welcome.status_code == 202 and welcome.get_json()["game"] == stand_in.key
    game = admin_client.get(welcome.get_json()["status_url"]).get_json()
    assert (game["game"], game["event_id"]) == (stand_in.key, own_event["id"])

    # a bundle: each such entry is rejected with the same words, the others stored
    logs = [self_play(8210, meta={"round": 1, "table": "1", "players": ["Ann", "Bea"]}),
            of_game(self_play(8211, meta={"round": 1, "table": "2", "players": ["Cid", "Dot"]}), stand_in.key),
            self_play(8212)]
    report = admin_client.post(f"/api/v1/events/{bfe_event['id']}/games", data=ndjson(*logs),
                               content_type="application/x-ndjson").get_json()
    assert (report["accepted"], report["rejected"]) == (2, 1)
    [row] = [row for row in report["games"] if row["status"] == "rejected"]
    assert (row["index"], row["game"]) == (1, stand_in.key)
    assert row["error"].startswith(f"this log is a game of {stand_in.name} ({stand_in.key}) but event 'Mixed Cup' "
                                   f"is for {WORDS_BFE}")
    assert stored(db, logs[1]) == 0
    assert db.execute("SELECT count(*) FROM event_matches WHERE %s = ANY(players)", ("Cid",)).fetchone()[0] == 0
    assert db.execute("SELECT array_agg(DISTINCT game) FROM games WHERE event_id = %s",
                      (bfe_event["id"],)).fetchone()[0] == [BFE]

    # a malformed log naming no game known here is stored (malformed) with its event's game
    unknown = of_game(self_play(8213), "nope")
    report = admin_client.post(f"/api/v1/events/{own_event['id']}/games", data=ndjson(unknown),
                               content_type="application/x-ndjson").get_json()
    [row] = report["games"]
    assert row["status"] == "malformed" and row["errors"][0]["path"] == "/game"
    assert db.execute("SELECT game FROM games WHERE id = %s", (row["id"],)).fetchone()[0] == stand_in.key
    wait_event_done(admin_client, bfe_event["id"], 2)


def test_the_lists_filter_by_game_and_every_item_says_its_game(admin_client, client, stand_in):
    bfe_event = make_event(admin_client, "List Cup")
    own_event = make_event(admin_client, "List Stand-in Cup", stand_in.key)
    admin_client.post(f"/api/v1/events/{bfe_event['id']}/games", data=ndjson(self_play(8301)),
                      content_type="application/x-ndjson")
    admin_client.post(f"/api/v1/events/{own_event['id']}/games",
                      data=ndjson(of_game(self_play(8302), stand_in.key)), content_type="application/x-ndjson")
    for game, event in ((BFE, bfe_event), (stand_in.key, own_event)):
        page = client.get(f"/api/v1/games?game={game}&limit=500").get_json()
        assert page["filters"]["game"] == game
        assert page["games"] and {g["game"] for g in page["games"]} == {game}
        assert event["id"] in {g["event"]["id"] for g in page["games"] if g["event"]}
        listed = client.get(f"/api/v1/events?game={game}").get_json()["events"]
        assert {e["game"] for e in listed} == {game} and event["id"] in {e["id"] for e in listed}
    every = client.get("/api/v1/games?limit=500").get_json()
    assert every["filters"]["game"] is None and {g["game"] for g in every["games"]} == {BFE, stand_in.key}
    assert {e["game"] for e in client.get("/api/v1/events").get_json()["events"]} == {BFE, stand_in.key}
    for url in ("/api/v1/games?game=nope", "/api/v1/events?game=nope", "/api/v1/games?game=bfe&game=bfe",
                f"/api/v1/events/{bfe_event['id']}/games?game=Battle"):
        response = client.get(url)
        error = response.get_json()["error"]
        assert response.status_code == 400 and error["parameter"] == "game", url
    assert f"unknown game 'nope'; the games known here are {known_words()}" in \
        client.get("/api/v1/games?game=nope").get_json()["error"]["message"]


def test_the_registry_lists_every_known_game_and_where_its_statistics_are(client, stand_in, admin_client):
    response = client.get("/api/v1/games/registry")
    assert response.status_code == 200 and response.headers["Cache-Control"].startswith("public")
    body = response.get_json()
    assert body["default"] == BFE
    by_key = {g["key"]: g for g in body["games"]}
    assert list(by_key) == games.keys() == [BFE, "titans", "elysian", "steam", stand_in.key]
    bfe = games.info(BFE)
    assert by_key[BFE] == bfe.to_dict() | {"players": bfe.players_words(), "statistics_url": "/api/v1/stats/bfe"}
    assert by_key[stand_in.key]["statistics_url"] == f"/api/v1/stats/{stand_in.key}"
    assert by_key[stand_in.key]["name"] == stand_in.name
    # not a game id: the games' own URLs still answer as they did
    assert client.get("/api/v1/games/987654321").status_code == 404
    game_id = admin_client.post("/api/v1/games", json=self_play(8401)).get_json()["id"]
    assert client.get(f"/api/v1/games/{game_id}").get_json()["id"] == game_id


def test_each_games_statistics_are_under_its_key_and_an_unknown_key_is_a_404_naming_the_games(
        admin_client, client, stand_in, db):
    event = make_event(admin_client, "Statistics Cup")
    logs = [self_play(seed, meta={"date": "2026-10-03"}) for seed in range(8501, 8507)]
    admin_client.post(f"/api/v1/events/{event['id']}/games", data=ndjson(*logs), content_type="application/x-ndjson")
    wait_event_done(admin_client, event["id"], len(logs))
    listed = client.get("/api/v1/stats/bfe").get_json()
    assert listed["game"]["key"] == BFE
    assert [s["name"] for s in listed["statistics"]] == [*GAME_STATISTICS[BFE], *EVERY_GAME_STATISTICS]
    query = f"?event={event['id']}&min_games=0"
    for statistic in (s for s in listed["statistics"] if s["name"] in GAME_STATISTICS[BFE]):
        by_game, first = client.get(statistic["url"] + query), client.get(f"/api/v1/stats/{statistic['name']}{query}")
        assert by_game.status_code == first.status_code == 200, statistic
        assert {**by_game.get_json(), "generated_at": None} == {**first.get_json(), "generated_at": None}
    assert sum(r["games"] for r in client.get(f"/api/v1/stats/bfe/decks{query}").get_json()["rows"]) == 12

    for url, words in [("/api/v1/stats/nope/decks", f"unknown game 'nope'; the games known here are {known_words()}"),
                       ("/api/v1/stats/nope", "there is no statistic or game 'nope'"),
                       (f"/api/v1/stats/{stand_in.key}/decks", f"{stand_in.name} has no statistic 'decks'; its "
                                                               "statistics are factions"),
                       ("/api/v1/stats/bfe/colours", "Battle for Empyrean has no statistic 'colours'; its "
                                                     "statistics are decks, matchups")]:
        response = client.get(url)
        error = response.get_json()["error"]
        assert response.status_code == 404 and words in error["message"], (url, error)
        assert error["known_games"] == games.keys()

    # the worker wrote each seat's outcome: the engine's, and the deck each seat played
    rows = db.execute("""SELECT s.game_id, s.seat, s.faction, s.rank, s.score, s.won, s.team, r.game
                         FROM game_seats s JOIN game_records r USING (game_id) JOIN games g ON g.id = s.game_id
                         WHERE g.event_id = %s ORDER BY s.game_id, s.seat""", (event["id"],)).fetchall()
    expected = []
    for log in logs:
        result = replay(json.dumps(log).encode())
        game_id = db.execute("SELECT id FROM games WHERE content_hash = %s", (_hash(log),)).fetchone()[0]
        expected += [(game_id, s.seat, log["setup"]["decks"][s.seat - 1], s.rank, s.score, s.won, s.team, BFE)
                     for s in result.outcome.seats]
    assert sorted(rows) == sorted(expected)


def test_the_export_is_of_one_game_and_says_so(admin_client, client, stand_in):
    event = make_event(admin_client, "Export Cup")
    logs = [self_play(seed, meta={"date": "2026-10-10"}) for seed in (8601, 8602)]
    admin_client.post(f"/api/v1/events/{event['id']}/games", data=ndjson(*logs), content_type="application/x-ndjson")
    wait_event_done(admin_client, event["id"], 2)
    for query in (f"event={event['id']}", f"event={event['id']}&game={BFE}", "from=2026-10-10&to=2026-10-10"):
        response = client.get(f"/api/v1/export/games.csv?{query}")
        rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
        assert response.status_code == 200 and {r["game"] for r in rows} == {BFE}, query
        assert {int(r["event_id"]) for r in rows} >= {event["id"]} and len(rows) >= 4
    other = client.get(f"/api/v1/export/games.csv?from=2026-10-10&to=2026-10-10&game={stand_in.key}")
    assert other.status_code == 200 and other.get_data(as_text=True).count("\n") == 1  # the header only
    for query, words in [(f"event={event['id']}&game={stand_in.key}",
                          f"event {event['id']} is of {WORDS_BFE}, not {stand_in.name} ({stand_in.key})"),
                         ("game=nope&from=2026-10-10&to=2026-10-10", "unknown game 'nope'")]:
        response = client.get(f"/api/v1/export/games.csv?{query}")
        error = response.get_json()["error"]
        assert response.status_code == 400 and error["parameter"] == "game" and words in error["message"]


def test_an_events_standings_read_only_its_own_games_matches(admin_client, client, db, stand_in):
    event = make_event(admin_client, "Standings Cup")
    logs = [self_play(seed, meta={"round": 1, "table": str(seed), "players": [f"P{seed}a", f"P{seed}b"]})
            for seed in (8701, 8702)]
    admin_client.post(f"/api/v1/events/{event['id']}/games", data=ndjson(*logs), content_type="application/x-ndjson")
    wait_event_done(admin_client, event["id"], 2)
    before = client.get(event["standings_url"]).get_json()
    assert before["counted_matches"] == 2
    # Rows of another game under this event, as no upload can file them (the store refuses): they
    # are not its matches, nor its games outside matches.
    match = db.execute("INSERT INTO event_matches (event_id, round, table_label, players) "
                       "VALUES (%s, 1, 'X', ARRAY['Yan', 'Zoe']) RETURNING id", (event["id"],)).fetchone()[0]
    for n, match_id in enumerate((match, None)):
        game_id = db.execute("INSERT INTO games (content_hash, raw_log, status, event_id, match_id, game) "
                             "VALUES (%s, '{}', 'valid', %s, %s, %s) RETURNING id",
                             (f"{n:064x}", event["id"], match_id, stand_in.key)).fetchone()[0]
        db.execute("INSERT INTO verdicts (game_id, status, message, engine_version) VALUES (%s, 'valid', '', 'x')",
                   (game_id,))
    after = client.get(event["standings_url"]).get_json()
    assert after == before


def test_the_command_line_makes_events_of_a_game_and_says_each_games_game(app, admin_client, tmp_path, stand_in,
                                                                          monkeypatch):
    token = make_token(app, "admin", name="cli games")
    runner = CliRunner()
    with served_at(app) as url:
        def empyrean(*args: str):
            return runner.invoke(cli, [*args[:2], "--url" if args[0] == "event" else "--api", url, "--token", token,
                                       *args[2:]])

        made = empyrean("event", "create", "--game", stand_in.key, "--name", "CLI Stand-in Cup", "--date", "2026-11-07")
        assert made.exit_code == 0, made.output
        event_id = int(made.stdout)
        assert f"event {event_id} (CLI Stand-in Cup), of {stand_in.name} ({stand_in.key}): created" in made.stderr
        event = admin_client.get(f"/api/v1/events/{event_id}").get_json()
        assert (event["game"], event["starts_on"]) == (stand_in.key, "2026-11-07")
        again = empyrean("event", "create", "--name", "CLI Stand-in Cup")
        assert again.exit_code == 0 and int(again.stdout) == event_id and "already there" in again.stderr
        other = empyrean("event", "create", "--game", BFE, "--name", "CLI Stand-in Cup")
        assert other.exit_code == 1 and f"for {stand_in.name} ({stand_in.key}), not {WORDS_BFE}" in other.stderr
        unknown = empyrean("event", "create", "--game", "nope", "--name", "Nope Cup")
        assert unknown.exit_code == 2 and "the games known here are bfe (Battle for Empyrean)" in unknown.output

        own, foreign = tmp_path / "own.ndjson", tmp_path / "foreign.json"
        own.write_text(json.dumps(of_game(self_play(8801), stand_in.key)) + "\n")
        foreign.write_text(json.dumps(self_play(8802)))
        sent = runner.invoke(cli, ["upload", "--api", url, "--token", token, "--event", "CLI Stand-in Cup", str(own)])
        assert sent.exit_code == 0, sent.output
        assert f"(CLI Stand-in Cup): accepted 1, duplicates 0, malformed 0, rejected 0 [{stand_in.name}]" in sent.output
        refused = runner.invoke(cli, ["upload", "--api", url, "--token", token, "--event", "CLI Stand-in Cup",
                                      str(foreign)])
        assert refused.exit_code == 1 and "entry 0: REJECTED: this log is a game of Battle for Empyrean (bfe) but " \
            "event 'CLI Stand-in Cup' is for" in refused.output
        single = runner.invoke(cli, ["upload", "--api", url, "--token", token, str(foreign)])
        assert single.exit_code == 0 and re.search(r"foreign\.json: game \d+ QUEUED \[Battle for Empyrean\]",
                                                   single.output), single.output

        out = tmp_path / "standin.csv"
        exported = runner.invoke(cli, ["export", "--api", url, "--game", stand_in.key, "--from", "2026-01-01",
                                       "--to", "2026-12-31", "-o", str(out)])
        assert exported.exit_code == 0 and out.read_text().splitlines() == [",".join(NAMES)], exported.output
        mismatched = runner.invoke(cli, ["export", "--api", url, "--game", BFE, "--event", str(event_id),
                                         "-o", str(tmp_path / "x.csv")])
        assert mismatched.exit_code == 1 and f"event {event_id} is of {stand_in.name}" in mismatched.output

    # no service running and no token: it says how to give one, and sends nothing
    monkeypatch.setenv("EMPYREAN_DATA_DIR", str(tmp_path / "var"))
    monkeypatch.delenv("EMPYREAN_TOKEN", raising=False)
    monkeypatch.delenv("EMPYREAN_API_URL", raising=False)
    nobody = runner.invoke(cli, ["event", "create", "--name", "Nobody Cup"])
    assert nobody.exit_code == 2 and "creating an event needs an organiser's API token" in nobody.output
