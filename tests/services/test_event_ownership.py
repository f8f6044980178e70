"""Issue 16, the holes found by attacking the service: event takeover by name, events made by uploads,
races on unique names answered 500, UTF-16 uploads stored, a bound uploader's bundle lines naming
another event, over-long URLs answered by gunicorn in HTML, unlisted things found by walking ids.
Each test is the attack, through the real app (PostgreSQL, Redis, the Celery worker; gunicorn for
the URL limit)."""

from __future__ import annotations

import dataclasses
import json
import secrets
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest
from service_helpers import anonymous_client, child_env, free_port, make_token, stop_process, token_client

from engine.bfe.selfplay import self_play
from services.platform.launcher import api_command


def _name(what: str) -> str:
    return f"{what} {secrets.token_hex(4)}"


def _org(app, who: str):
    return token_client(app, make_token(app, "organiser", owner=f"{who} {secrets.token_hex(3)}"))


def _log(seed: int, **meta) -> dict:
    return self_play(seed, meta=meta or None)


# --- 1. a name never moves ownership ---------------------------------------------------------------

def test_an_organiser_cannot_take_over_an_admins_or_another_organisers_event_by_naming_it(app, admin_client, db):
    name = _name("Admin Open")
    made = admin_client.post("/api/v1/events", json={"name": name})
    assert made.status_code == 201 and made.get_json()["organiser"]  # an admin's event has an owner too
    event, owner = made.get_json()["id"], made.get_json()["organiser"]
    intruder = _org(app, "Intruder")
    response = intruder.post("/api/v1/events", json={"name": name})
    assert response.status_code == 409, response.get_json()
    assert response.get_json()["error"]["pointer"] == "/name" and name in response.get_json()["error"]["message"]
    assert db.execute("SELECT organiser FROM events WHERE id = %s", (event,)).fetchone()[0] == owner
    assert intruder.patch(f"/api/v1/events/{event}", json={"visibility": "unlisted"}).status_code == 403
    assert intruder.post(f"/api/v1/events/{event}/games", data=json.dumps([_log(16001)]),
                         content_type="application/json").status_code == 403

    # another organiser's event: the same; its owner naming it again gets it back (200)
    org_a = _org(app, "Owner A")
    name_a = _name("A Open")
    first = org_a.post("/api/v1/events", json={"name": name_a})
    assert first.status_code == 201
    assert intruder.post("/api/v1/events", json={"name": name_a}).status_code == 409
    again = org_a.post("/api/v1/events", json={"name": name_a})
    assert again.status_code == 200 and again.get_json()["id"] == first.get_json()["id"]
    assert again.get_json()["organiser"] == first.get_json()["organiser"]


def test_an_event_nobody_owns_is_an_admins_to_give_never_claimed(app, admin_client, db):
    """Events left without an owner (by uploads before migration 0012): no organiser claims one by
    naming it; an admin gives it an owner with PATCH {"organiser": ...}."""
    name = _name("Orphan Cup")
    event = db.execute("INSERT INTO events (name) VALUES (%s) RETURNING id", (name,)).fetchone()[0]
    org = _org(app, "Claimer")
    assert org.post("/api/v1/events", json={"name": name}).status_code == 409
    assert org.patch(f"/api/v1/events/{event}", json={"name": "mine now"}).status_code == 403
    assert db.execute("SELECT organiser FROM events WHERE id = %s", (event,)).fetchone()[0] is None
    owner = org.post("/api/v1/events", json={"name": _name("Own")}).get_json()["organiser"]
    refused = org.patch(f"/api/v1/events/{event}", json={"organiser": owner})
    assert refused.status_code == 403 and "admin" in refused.get_json()["error"]["message"]
    given = admin_client.patch(f"/api/v1/events/{event}", json={"organiser": owner})
    assert given.status_code == 200 and given.get_json()["organiser"] == owner
    assert org.patch(f"/api/v1/events/{event}", json={"starts_on": "2026-09-01"}).status_code == 200
    response = admin_client.patch(f"/api/v1/events/{event}", json={"organiser": ""})
    assert response.status_code == 400 and response.get_json()["error"]["pointer"] == "/organiser"


# --- 2. uploads never create events -----------------------------------------------------------------

def test_an_upload_naming_a_new_event_is_stored_without_one_and_creates_none(app, db):
    uploader = token_client(app, make_token(app, "uploader", name="a player"))
    for seed, query in ((16010, ""), (16011, "?visibility=unlisted")):
        name = _name("Phantom Open")
        response = uploader.post(f"/api/v1/games{query}", json=_log(seed, event=name))
        assert response.status_code == 202, response.get_json()
        assert db.execute("SELECT count(*) FROM events WHERE name = %s", (name,)).fetchone()[0] == 0
        game = uploader.get(response.get_json()["status_url"]).get_json()
        assert (game["event_id"], game["event"], game["event_named_in_log"]) == (None, None, name)
    # nothing for an organiser to claim: it creates the event, which is its own
    org = _org(app, "Late")
    created = org.post("/api/v1/events", json={"name": name})
    assert created.status_code == 201 and created.get_json()["created"] is True
    # once it exists, an upload naming it is filed under it
    response = uploader.post("/api/v1/games", json=_log(16012, event=name))
    game = uploader.get(response.get_json()["status_url"]).get_json()
    assert (game["event_id"], game["event"], game["event_named_in_log"]) == (created.get_json()["id"], name, None)
    # an uploader may not create an event
    assert uploader.post("/api/v1/events", json={"name": _name("Mine")}).status_code == 403


# --- 10. races on unique constraints: 409 or the idempotent answer, never 500 ------------------------

def _race(calls, rounds: int) -> list[int]:
    """Run each round's calls at once (threads released together); every status code answered (a
    500 fails at once, with its body)."""
    statuses: list[int] = []
    failures: list = []
    lock = threading.Lock()
    for r in range(rounds):
        todo = calls(r)
        barrier = threading.Barrier(len(todo))

        def run(call):
            barrier.wait()
            response = call()
            with lock:
                statuses.append(response.status_code)
                if response.status_code >= 500:
                    failures.append(response.get_json())

        threads = [threading.Thread(target=run, args=(call,)) for call in todo]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not failures, (statuses, failures)
    return statuses


def test_racing_renames_creates_and_uploads_answer_409_or_the_same_thing_never_500(app, admin_client):
    org_a, org_b = _org(app, "Racer A"), _org(app, "Racer B")
    pairs = []
    for _ in range(20):
        a = org_a.post("/api/v1/events", json={"name": _name("Race A")}).get_json()["id"]
        b = org_b.post("/api/v1/events", json={"name": _name("Race B")}).get_json()["id"]
        pairs.append((a, b, _name("Race Target")))

    def renames(r):
        a, b, target = pairs[r]
        return [lambda: _org_client(app, org_a).patch(f"/api/v1/events/{a}", json={"name": target}),
                lambda: _org_client(app, org_b).patch(f"/api/v1/events/{b}", json={"name": target})]

    statuses = _race(renames, len(pairs))
    assert sorted(set(statuses)) == [200, 409], statuses
    assert statuses.count(200) == statuses.count(409) == len(pairs)

    names = [_name("Race New") for _ in range(15)]

    def creates(r):
        return [lambda: _org_client(app, org_a).post("/api/v1/events", json={"name": names[r]}),
                lambda: _org_client(app, org_b).post("/api/v1/events", json={"name": names[r]}),
                lambda: _org_client(app, org_a).post("/api/v1/events", json={"name": names[r]})]

    statuses = _race(creates, len(names))
    assert set(statuses) <= {200, 201, 409} and statuses.count(201) == len(names), statuses

    games = [json.dumps(_log(16100 + r)) for r in range(15)]

    def uploads(r):
        return [lambda: _org_client(app, org_a).post("/api/v1/games", data=games[r], content_type="application/json")
                for _ in range(3)]

    statuses = _race(uploads, len(games))
    assert set(statuses) == {200, 202} and statuses.count(202) == len(games), statuses


def _org_client(app, client):
    """A new test client with the same token (a FlaskClient is not shared between threads)."""
    return token_client(app, client.environ_base["HTTP_AUTHORIZATION"].split(" ", 1)[1])


# --- 11a. UTF-16 is refused, not stored ---------------------------------------------------------------

def test_a_utf16_log_is_a_400_and_stored_nowhere(admin_client, db):
    before = db.execute("SELECT count(*) FROM games").fetchone()[0]
    for encoding in ("utf-16", "utf-16-le", "utf-32"):
        raw = json.dumps(_log(16200)).encode(encoding)
        response = admin_client.post("/api/v1/games", data=raw, content_type="application/json")
        assert response.status_code == 400, (encoding, response.get_json())
        assert response.get_json()["error"]["message"]
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == before


# --- 11b. a bound uploader's bundle line naming another event ---------------------------------------

def test_a_bound_uploaders_bundle_line_naming_another_event_is_rejected(app, admin_client, db):
    name = _name("Bound Cup")
    event = admin_client.post("/api/v1/events", json={"name": name}).get_json()["id"]
    bound = token_client(app, make_token(app, "uploader", name="scorekeeper", event_id=event))
    lines = [_log(16300, event=name), _log(16301, event="Somebody Else's Open"), _log(16302)]
    response = bound.post(f"/api/v1/events/{event}/games", data="\n".join(json.dumps(x) for x in lines),
                          content_type="application/x-ndjson")
    assert response.status_code == 202, response.get_json()
    report = response.get_json()
    assert (report["accepted"], report["rejected"]) == (2, 1)
    rejected = report["games"][1]
    assert rejected["status"] == "rejected" and "Somebody Else's Open" in rejected["error"]
    assert name in rejected["error"]
    assert db.execute("SELECT count(*) FROM games WHERE event_id = %s", (event,)).fetchone()[0] == 2


# --- 11c. URLs over 4 KB: the JSON 414, also behind gunicorn --------------------------------------

def test_an_over_long_url_is_the_json_414(client):
    response = client.get("/api/v1/stats/decks?deck=" + "x" * 5000)
    assert response.status_code == 414 and response.get_json()["error"]["status"] == 414
    assert "4,096" in response.get_json()["error"]["message"]
    assert client.get("/api/v1/stats/decks?min_games=" + "1" * 10).status_code != 414


@pytest.fixture
def gunicorn_api(ingest_config, tmp_path):
    config = dataclasses.replace(ingest_config, api_host="127.0.0.1", api_port=free_port())
    with open(tmp_path / "gunicorn.log", "wb") as log:
        process = subprocess.Popen(api_command(config), env=child_env(config), stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{config.api_port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(base + "/api/v1/health", timeout=2):
                break
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, (tmp_path / "gunicorn.log").read_text()
            time.sleep(0.3)
    yield base
    stop_process(process)


def test_gunicorn_lets_a_long_url_reach_the_app_for_its_json_414(gunicorn_api):
    for length in (5_000, 8_000):
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(gunicorn_api + "/api/v1/stats/decks?deck=" + "x" * length, timeout=10)
        assert caught.value.code == 414
        assert caught.value.headers.get_content_type() == "application/json"
        assert json.loads(caught.value.read())["error"]["status"] == 414
    # past the server's own limits (documented in the OpenAPI document's description): its plain
    # 4xx, never a 5xx nor a dropped connection
    document = json.loads(urllib.request.urlopen(gunicorn_api + "/api/v1/openapi.json", timeout=10).read())
    assert "8,190 bytes" in document["info"]["description"]
    for what, request in (("url", urllib.request.Request(gunicorn_api + "/api/v1/events?x=" + "x" * 9_000)),
                          ("header", urllib.request.Request(gunicorn_api + "/api/v1/health",
                                                            headers={"X-Big": "y" * 9_000})),
                          ("headers", urllib.request.Request(gunicorn_api + "/api/v1/health",
                                                             headers={f"X-{i}": "1" for i in range(120)}))):
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(request, timeout=10)
        assert caught.value.code in (400, 414, 431), what


# --- 11d. unlisted things are not found by walking ids ---------------------------------------------

def test_unlisted_events_games_and_disputes_need_a_token_that_may_see_them(app, admin_client, db):
    owner = _org(app, "Quiet")
    other = _org(app, "Nosy")
    anonymous = anonymous_client(app)
    event = owner.post("/api/v1/events", json={"name": _name("Quiet Cup"), "visibility": "unlisted"}).get_json()["id"]
    bound = token_client(app, make_token(app, "uploader", name="quiet scorekeeper", event_id=event))
    match = db.execute("""INSERT INTO event_matches (event_id, round, table_label, players)
                          VALUES (%s, 1, '1', ARRAY['Q1', 'Q2']) RETURNING id""", (event,)).fetchone()[0]
    dispute = db.execute("INSERT INTO disputes (match_id, reason) VALUES (%s, 'x') RETURNING id",
                         (match,)).fetchone()[0]
    in_event = bound.post("/api/v1/games", json=_log(16400)).get_json()["id"]
    uploader = token_client(app, make_token(app, "uploader", name="quiet player"))
    unlisted_game = uploader.post("/api/v1/games?visibility=unlisted", json=_log(16401)).get_json()["id"]

    event_urls = [f"/api/v1/events/{event}", f"/api/v1/disputes/{dispute}", f"/events/{event}"]
    for url in event_urls:
        for who in (anonymous, other):
            assert who.get(url).status_code == 404, url
        for who in (owner, admin_client, bound):
            assert who.get(url).status_code == 200, url
    assert anonymous.get(f"/api/v1/disputes?event={event}").get_json()["disputes"] == []
    assert [d["id"] for d in owner.get(f"/api/v1/disputes?event={event}").get_json()["disputes"]] == [dispute]
    assert "unlisted" in anonymous.get(f"/api/v1/events/{event}").get_json()["error"]["message"]
    # nor does a write to it tell another organiser that it exists
    assert other.patch(f"/api/v1/events/{event}", json={"starts_on": "2026-01-01"}).status_code == 404

    for game, readers in ((in_event, (owner, admin_client, bound)), (unlisted_game, (uploader, admin_client))):
        for url in (f"/api/v1/games/{game}", f"/api/v1/games/{game}/log", f"/games/{game}/replay"):
            for who in (anonymous, other):
                assert who.get(url).status_code == 404, url
            for who in readers:
                assert who.get(url).status_code == 200, url
    # public again: anyone
    assert owner.patch(f"/api/v1/events/{event}", json={"visibility": "public"}).status_code == 200
    assert anonymous.get(f"/api/v1/events/{event}").status_code == 200
    assert anonymous.get(f"/api/v1/games/{in_event}").status_code == 200


def test_an_unlisted_event_is_no_oracle_to_whoever_may_not_read_it(app, admin_client, db):
    """Issue 26, part 5: an unlisted event was found and filled by its name, its existence told by a
    409 and by a 403 to a resolve of its dispute, and its statistics read by id. Who may not read it
    now gets what an event that does not exist gets, everywhere."""
    owner = _org(app, "Hidden")
    other = _org(app, "Prying")
    anonymous = anonymous_client(app)
    name = _name("Hidden Cup")
    event = owner.post("/api/v1/events", json={"name": name, "visibility": "unlisted"}).get_json()["id"]
    stranger = token_client(app, make_token(app, "uploader", name="someone else's table"))

    # a game naming it by an uploader that may not read it: filed under no event, as an unknown name
    game = stranger.post("/api/v1/games", json=_log(16500, event=name)).get_json()["id"]
    assert db.execute("SELECT event_id, named_event FROM games WHERE id = %s", (game,)).fetchone() == (None, name)
    assert stranger.get(f"/api/v1/games/{game}").get_json()["event_id"] is None
    # ... while its organiser's own upload naming it is filed there
    mine = owner.post("/api/v1/games", json=_log(16501, event=name)).get_json()["id"]
    assert db.execute("SELECT event_id FROM games WHERE id = %s", (mine,)).fetchone()[0] == event

    # its name taken, but not said to be an event
    taken = other.post("/api/v1/events", json={"name": name})
    assert taken.status_code == 409 and taken.get_json()["error"]["pointer"] == "/name"
    assert "already an event" not in taken.get_json()["error"]["message"]
    assert "already an event" in other.post("/api/v1/events", json={"name": _public_event(owner)}).get_json()[
        "error"]["message"]

    # a resolve of its dispute: 404 as the GET, not 403 naming the event
    match = db.execute("""INSERT INTO event_matches (event_id, round, table_label, players)
                          VALUES (%s, 1, '1', ARRAY['H1', 'H2']) RETURNING id""", (event,)).fetchone()[0]
    dispute = db.execute("INSERT INTO disputes (match_id, reason) VALUES (%s, 'x') RETURNING id",
                         (match,)).fetchone()[0]
    ruling = {"resolution": "neither stands", "counts": None}
    answer = other.post(f"/api/v1/disputes/{dispute}/resolve", json=ruling)
    assert answer.status_code == 404 and answer.get_json() == other.get(f"/api/v1/disputes/{dispute}").get_json()
    assert owner.post(f"/api/v1/disputes/{dispute}/resolve", json=ruling).status_code == 200

    # its statistics: as those of an event that does not exist (none), to whoever may not read it
    assert owner.post("/api/v1/events/%d/games" % event, data=json.dumps([_log(16502 + i) for i in range(3)]),
                      content_type="application/json").status_code == 202
    deadline = time.monotonic() + 60
    while owner.get(f"/api/v1/stats/first-player?event={event}").get_json()["overall"]["games"] < 4:
        assert time.monotonic() < deadline
        time.sleep(0.3)
    nothing = anonymous.get("/api/v1/stats/first-player?event=987654321").get_json()
    for who in (anonymous, other, stranger):
        seen = who.get(f"/api/v1/stats/first-player?event={event}").get_json()
        assert seen["overall"] == nothing["overall"] and seen["filters"]["event"] == [event], seen
        assert who.get(f"/api/v1/stats/decks?event={event}").get_json()["rows"] == []
    assert admin_client.get(f"/api/v1/stats/first-player?event={event}").get_json()["overall"]["games"] >= 4
    # the dashboards are anyone's: no row of it in a download either
    assert anonymous.get(f"/download/decks.csv?event={event}").get_data(as_text=True).count("\n") <= 1
    assert anonymous.get("/download/decks.csv").get_data(as_text=True).count("\n") > 1


def _public_event(owner) -> str:
    name = _name("Open Cup")
    assert owner.post("/api/v1/events", json={"name": name}).status_code == 201
    return name


def test_events_for_upload_are_the_events_a_token_may_upload_into(app, admin_client):
    """GET /api/v1/events?for=upload (the recorder's event list): a bound uploader's one event, an
    organiser's public and own unlisted events (not another's unlisted), every event for an admin;
    the plain list stays the public events."""
    owner, other = _org(app, "Lister"), _org(app, "Neighbour")
    public = owner.post("/api/v1/events", json={"name": _name("Open")}).get_json()["id"]
    own_unlisted = owner.post("/api/v1/events", json={"name": _name("Quiet"), "visibility": "unlisted"}
                              ).get_json()["id"]
    others_unlisted = other.post("/api/v1/events", json={"name": _name("Hidden"), "visibility": "unlisted"}
                                 ).get_json()["id"]
    bound = token_client(app, make_token(app, "uploader", name="table 3", event_id=own_unlisted))
    unbound = token_client(app, make_token(app, "uploader", name="a player"))

    def ids(client, query="?for=upload"):
        response = client.get("/api/v1/events" + query)
        assert response.status_code == 200, response.get_json()
        return {e["id"] for e in response.get_json()["events"]}

    assert ids(bound) == {own_unlisted}
    # the recorder locks a bound token's choice to its event: the answer says which it is
    assert bound.get("/api/v1/events?for=upload").get_json()["bound_event"] == own_unlisted
    assert unbound.get("/api/v1/events?for=upload").get_json()["bound_event"] is None
    assert "bound_event" not in owner.get("/api/v1/events").get_json()
    assert public in ids(owner) and own_unlisted in ids(owner) and others_unlisted not in ids(owner)
    assert {public, own_unlisted, others_unlisted} <= ids(admin_client)
    assert public in ids(unbound) and not {own_unlisted, others_unlisted} & ids(unbound)
    assert public in ids(owner, "") and not {own_unlisted, others_unlisted} & ids(admin_client, "")
    anonymous = anonymous_client(app)
    assert anonymous.get("/api/v1/events?for=upload").status_code == 401
    bad = owner.get("/api/v1/events?for=reading")
    assert bad.status_code == 400 and bad.get_json()["error"]["parameter"] == "for"
