"""Authorization (docs/security.md): every mutating route × {no token, wrong role, another
organiser's object} → 401/403, the positive cases, revocation, hash-only storage, visibility, and
rate limits counted in Redis (shared by two app instances)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
import time

import psycopg
import pytest
from service_helpers import anonymous_client, make_token, running_app, token_client

from engine.bfe.selfplay import self_play
from services.api.access import TOKEN_MEMORY_S, forget_checked_tokens
from services.platform.tokens import create_token, revoke_token

MUTATING = {"POST", "PUT", "PATCH", "DELETE"}


def mutating_routes(app, *, public: bool = False) -> list[tuple[str, str, str]]:
    """(method, rule, endpoint) of every mutating /api/v1 route: taken from the URL map, so a new
    route is tested (and must be guarded) without editing this file. ``public``: the routes marked
    public instead (services.api.access.public: they store nothing), which need no token."""
    return sorted((method, rule.rule, rule.endpoint) for rule in app.url_map.iter_rules()
                  if rule.rule.startswith("/api/v1/") for method in rule.methods & MUTATING
                  if hasattr(app.view_functions[rule.endpoint], "public_because") == public)


def test_the_public_mutating_routes_are_only_those_that_store_nothing(app):
    """Marked public: the positions API alone; it answers without a token, and what it was sent is
    not stored."""
    assert mutating_routes(app, public=True) == [("POST", "/api/v1/positions", "api_v1.positions.post_position")]
    for method, rule, endpoint in mutating_routes(app, public=True):
        assert not hasattr(app.view_functions[endpoint], "required_roles")
        with app.extensions["empyrean"].db_pool.connection(timeout=5) as conn:
            before = conn.execute("SELECT count(*) FROM games").fetchone()[0]
            response = anonymous_client(app).open(rule, method=method, data=json.dumps(self_play(7003)),
                                                  content_type="application/json")
            assert response.status_code == 200, response.get_json()
            assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == before


@pytest.fixture(scope="module")
def world(app, ingest_config):
    """Two organisers each with an event holding an open dispute, and a token of every kind."""
    with psycopg.connect(ingest_config.database_url, autocommit=True) as db:
        return _world(app, db)


def _world(app, db) -> dict:
    tokens = {
        "admin": make_token(app, "admin", name="authz admin"),
        "org_a": make_token(app, "organiser", owner="Organiser A"),
        "org_b": make_token(app, "organiser", owner="Organiser B"),
        "uploader": make_token(app, "uploader", name="a player"),
    }
    events, disputes = {}, {}
    for who, owner in (("a", "Organiser A"), ("b", "Organiser B")):
        response = token_client(app, tokens[f"org_{who}"]).post(
            "/api/v1/events", json={"name": f"Authz Open {who.upper()} {secrets.token_hex(3)}"})
        assert response.status_code == 201, response.get_json()
        assert response.get_json()["organiser"] == owner
        events[who] = response.get_json()["id"]
        match = db.execute("""INSERT INTO event_matches (event_id, round, table_label, players)
                              VALUES (%s, 1, '1', ARRAY['P1', 'P2']) RETURNING id""", (events[who],)).fetchone()[0]
        disputes[who] = db.execute("INSERT INTO disputes (match_id, reason) VALUES (%s, 'results differ') RETURNING id",
                                   (match,)).fetchone()[0]
    tokens["bound_a"] = make_token(app, "uploader", name="scorekeeper A", event_id=events["a"])
    return {"tokens": tokens, "events": events, "disputes": disputes}


def request_for(rule: str, endpoint: str, world: dict, whose: str) -> tuple[str, dict]:
    """The URL and a valid body for ``rule`` on organiser ``whose``'s objects."""
    url = rule.replace("<int:event_id>", str(world["events"][whose])).replace(
        "<int:dispute_id>", str(world["disputes"][whose]))
    bodies = {
        "api_v1.games.upload_game": {"data": json.dumps(self_play(7001)), "content_type": "application/json"},
        "api_v1.events.create_event": {"json": {"name": f"Authz Open {whose.upper()} other"}},
        "api_v1.events.edit_event": {"json": {"starts_on": "2026-05-01"}},
        "api_v1.events.upload_bundle": {"data": json.dumps([self_play(7002)]), "content_type": "application/json"},
        "api_v1.events.reprocess_event": {},
        "api_v1.disputes.resolve_dispute": {"json": {"resolution": "game 1 stands", "counts": None}},
    }
    assert endpoint in bodies, f"{endpoint} is a new mutating route: add its body here"
    return url, bodies[endpoint]


def send(client, method: str, url: str, kwargs: dict):
    return client.open(url, method=method, **kwargs)


def test_every_mutating_route_declares_its_roles(app):
    routes = mutating_routes(app)
    assert len(routes) >= 6
    for method, rule, endpoint in routes:
        assert getattr(app.view_functions[endpoint], "required_roles", None), f"{method} {rule} is not guarded"


def test_no_token_is_401_on_every_mutating_route(app, world):
    for method, rule, endpoint in mutating_routes(app):
        url, kwargs = request_for(rule, endpoint, world, "a")
        for client in (anonymous_client(app), token_client(app, "emp_AAAAAAAA_" + "x" * 43)):
            response = send(client, method, url, kwargs)
            assert response.status_code == 401, (method, rule, response.get_json())
            assert response.headers["WWW-Authenticate"].startswith("Bearer")
            assert response.get_json()["error"]["message"]


def test_wrong_role_is_403(app, world):
    checked = 0
    for method, rule, endpoint in mutating_routes(app):
        roles = app.view_functions[endpoint].required_roles
        for role, token in (("uploader", world["tokens"]["uploader"]), ("organiser", world["tokens"]["org_a"])):
            if role in roles:
                continue
            url, kwargs = request_for(rule, endpoint, world, "a")
            response = send(token_client(app, token), method, url, kwargs)
            assert response.status_code == 403, (method, rule, role, response.get_json())
            assert role in response.get_json()["error"]["message"]
            checked += 1
    assert checked >= 4  # create, edit, reprocess, resolve refuse uploaders


def test_another_organisers_objects_are_403(app, world, db):
    """Organiser A on organiser B's event and dispute, on every route that names one (and
    POST /events naming B's event); nothing of B's changes."""
    before = db.execute("SELECT starts_on, name FROM events WHERE id = %s", (world["events"]["b"],)).fetchone()
    org_a = token_client(app, world["tokens"]["org_a"])
    checked = 0
    for method, rule, endpoint in mutating_routes(app):
        if "<" not in rule:
            continue
        url, kwargs = request_for(rule, endpoint, world, "b")
        response = send(org_a, method, url, kwargs)
        assert response.status_code == 403, (method, rule, response.get_json())
        assert "another organiser" in response.get_json()["error"]["message"]
        checked += 1
    assert checked >= 4
    b_name = before[1]
    response = org_a.post("/api/v1/events", json={"name": b_name})  # a name never moves ownership
    assert response.status_code == 409 and response.get_json()["error"]["pointer"] == "/name"
    assert db.execute("SELECT starts_on, name FROM events WHERE id = %s", (world["events"]["b"],)).fetchone() == before
    assert db.execute("SELECT status FROM disputes WHERE id = %s", (world["disputes"]["b"],)).fetchone()[0] == "open"
    assert db.execute("SELECT count(*) FROM games WHERE event_id = %s", (world["events"]["b"],)).fetchone()[0] == 0


def test_uploader_tokens(app, world):
    bound = token_client(app, world["tokens"]["bound_a"])
    unbound = token_client(app, world["tokens"]["uploader"])
    a, b = world["events"]["a"], world["events"]["b"]
    bundle = {"data": json.dumps([self_play(7010)]), "content_type": "application/json"}
    assert bound.post(f"/api/v1/events/{b}/games", **bundle).status_code == 403
    assert unbound.post(f"/api/v1/events/{a}/games", **bundle).status_code == 403
    assert bound.post(f"/api/v1/events/{a}/games", **bundle).status_code == 202
    # single games: any uploader; a bound one only of its event
    game = self_play(7011)
    assert unbound.post("/api/v1/games", json=game).status_code == 202
    other = dict(self_play(7012))
    other["meta"] = {**other.get("meta", {}), "event": "Some Other Event"}
    assert bound.post("/api/v1/games", json=other).status_code == 403
    response = bound.post("/api/v1/games", json=self_play(7013))
    assert response.status_code == 202
    admin = token_client(app, world["tokens"]["admin"])
    assert admin.get(response.get_json()["status_url"]).get_json()["event_id"] == a


def test_owner_and_admin_can(app, world, db):
    org_a = token_client(app, world["tokens"]["org_a"])
    admin = token_client(app, world["tokens"]["admin"])
    a, b = world["events"]["a"], world["events"]["b"]
    response = org_a.patch(f"/api/v1/events/{a}", json={"starts_on": "2026-06-01", "ends_on": "2026-06-02"})
    assert response.status_code == 200 and response.get_json()["starts_on"] == "2026-06-01"
    assert org_a.post(f"/api/v1/events/{a}/games", data=json.dumps([self_play(7020)]),
                      content_type="application/json").status_code == 202
    assert org_a.post(f"/api/v1/events/{a}/reprocess").status_code == 202
    response = org_a.post(f"/api/v1/disputes/{world['disputes']['a']}/resolve",
                          json={"resolution": "game 1 stands", "counts": None})
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "resolved" and body["resolution"] == "game 1 stands" and body["resolved_at"]
    assert org_a.post(f"/api/v1/disputes/{world['disputes']['a']}/resolve",
                      json={"resolution": "again", "counts": None}).status_code == 409
    # the same name again: the owner gets its event back
    name = db.execute("SELECT name FROM events WHERE id = %s", (a,)).fetchone()[0]
    assert org_a.post("/api/v1/events", json={"name": name}).status_code == 200
    # admin: everything, on anyone's
    assert admin.patch(f"/api/v1/events/{b}", json={"ends_on": "2026-07-01"}).status_code == 200
    assert admin.post(f"/api/v1/events/{b}/reprocess").status_code == 202
    assert admin.post(f"/api/v1/disputes/{world['disputes']['b']}/resolve",
                      json={"resolution": "replayed", "counts": None}).status_code == 200
    # bad bodies are 400s naming the field
    response = org_a.patch(f"/api/v1/events/{a}", json={"visibility": "secret"})
    assert response.status_code == 400 and response.get_json()["error"]["pointer"] == "/visibility"


def test_an_unowned_event_is_never_claimed_by_naming_it(app, db):
    """Events without an owner (made by uploads before migration 0012) are an admin's to give."""
    name = f"Claimable {secrets.token_hex(3)}"
    event = db.execute("INSERT INTO events (name) VALUES (%s) RETURNING id", (name,)).fetchone()[0]
    org = token_client(app, make_token(app, "organiser", owner=f"Claimer {name}"))
    assert org.post("/api/v1/events", json={"name": name}).status_code == 409
    assert org.patch(f"/api/v1/events/{event}", json={"name": "mine now"}).status_code == 403
    assert db.execute("SELECT organiser FROM events WHERE id = %s", (event,)).fetchone()[0] is None


def test_reads_stay_public_and_a_bad_token_is_401(app, world):
    anonymous = anonymous_client(app)
    for url in ("/api/v1/events", f"/api/v1/events/{world['events']['a']}", "/api/v1/disputes",
                "/api/v1/stats/decks", "/api/v1/health"):
        assert anonymous.get(url).status_code == 200, url
    response = token_client(app, "emp_nottoken").get("/api/v1/events")
    assert response.status_code == 401 and "invalid_token" in response.headers["WWW-Authenticate"]


def test_revoked_token_is_401_within_the_token_memory(app, db):
    token = make_token(app, "organiser", owner="Soon Revoked")
    client = token_client(app, token)
    assert client.post("/api/v1/events", json={"name": f"Revocable {secrets.token_hex(3)}"}).status_code == 201
    with app.extensions["empyrean"].db_pool.connection() as conn:
        assert revoke_token(conn, token.split("_")[1])
    revoked_at = time.monotonic()
    # this process checked the token a moment ago and remembers it for TOKEN_MEMORY_S at most
    while (response := client.get("/api/v1/events")).status_code == 200:
        assert time.monotonic() - revoked_at < TOKEN_MEMORY_S + 1, "a revoked token kept working"
        time.sleep(0.2)
    assert response.status_code == 401
    response = client.post("/api/v1/events", json={"name": f"Revocable {secrets.token_hex(3)}"})
    assert response.status_code == 401 and "revoked" in response.get_json()["error"]["message"]


def test_only_a_hash_of_the_token_is_stored(app, db):
    with app.extensions["empyrean"].db_pool.connection() as conn:
        text, made = create_token(conn, "uploader", name="hash check")
    _, prefix, secret = text.split("_", 2)
    assert made.prefix == prefix and len(secret) >= 43  # 32 random bytes, urlsafe base64
    row = db.execute("SELECT * FROM api_tokens WHERE prefix = %s", (prefix,)).fetchone()
    assert secret not in repr(row)
    stored = db.execute("SELECT secret_hash FROM api_tokens WHERE prefix = %s", (prefix,)).fetchone()[0]
    assert stored == hashlib.sha256(text.encode()).hexdigest()
    dump = db.execute("SELECT string_agg(t::text, ' ') FROM api_tokens t").fetchone()[0]
    assert secret not in dump
    # the token works, a token with its secret changed does not
    assert token_client(app, text).post("/api/v1/games", json=self_play(7030)).status_code == 202
    assert token_client(app, text[:-2] + ("AA" if text[-2:] != "AA" else "BB")).post(
        "/api/v1/games", json=self_play(7031)).status_code == 401


def test_unlisted_events_are_left_out_of_lists_and_read_by_id_with_a_token(app, world, db):
    admin = token_client(app, world["tokens"]["admin"])
    org_a = token_client(app, world["tokens"]["org_a"])
    name = f"Quiet Cup {secrets.token_hex(3)}"
    event = org_a.post("/api/v1/events", json={"name": name, "visibility": "unlisted"}).get_json()
    assert event["visibility"] == "unlisted"
    match = db.execute("""INSERT INTO event_matches (event_id, round, table_label, players)
                          VALUES (%s, 1, '1', ARRAY['Q1', 'Q2']) RETURNING id""", (event["id"],)).fetchone()[0]
    dispute = db.execute("INSERT INTO disputes (match_id, reason) VALUES (%s, 'x') RETURNING id",
                         (match,)).fetchone()[0]
    anonymous = anonymous_client(app)
    listed = [e["id"] for e in anonymous.get("/api/v1/events").get_json()["events"]]
    assert event["id"] not in listed and world["events"]["a"] in listed
    # by id: its organiser's token (or an admin's) only; anyone else finds nothing there
    assert anonymous.get(f"/api/v1/events/{event['id']}").status_code == 404
    assert org_a.get(f"/api/v1/events/{event['id']}").get_json()["name"] == name
    assert dispute not in [d["id"] for d in anonymous.get("/api/v1/disputes").get_json()["disputes"]]
    assert anonymous.get(f"/api/v1/disputes?event={event['id']}").get_json()["disputes"] == []
    assert dispute in [d["id"] for d in org_a.get(f"/api/v1/disputes?event={event['id']}").get_json()["disputes"]]
    assert anonymous.get(f"/api/v1/disputes/{dispute}").status_code == 404
    assert admin.get(f"/api/v1/disputes/{dispute}").status_code == 200
    page = anonymous.get("/events", headers={"Accept": "text/html"}).get_data(as_text=True)
    assert name not in page
    assert anonymous.get(f"/events/{event['id']}", headers={"Accept": "text/html"}).status_code == 404
    assert name in org_a.get(f"/events/{event['id']}", headers={"Accept": "text/html"}).get_data(as_text=True)
    # made public again, it is listed
    assert org_a.patch(f"/api/v1/events/{event['id']}", json={"visibility": "public"}).status_code == 200
    assert event["id"] in [e["id"] for e in anonymous.get("/api/v1/events").get_json()["events"]]
    # a game uploaded unlisted is marked so; a bad value is a 400
    response = admin.post("/api/v1/games?visibility=unlisted", json=self_play(7040))
    assert response.status_code == 202
    visibility = db.execute("SELECT visibility FROM games WHERE id = %s", (response.get_json()["id"],)).fetchone()[0]
    assert visibility == "unlisted"
    assert admin.post("/api/v1/games?visibility=hidden", json=self_play(7041)).status_code == 400


def test_rate_limits_are_counted_in_redis_and_answer_429_with_retry_after(ingest_config):
    """Two app instances (as two gunicorn workers would be) share one count: it lives in Redis."""
    low = dataclasses.replace(ingest_config, rate_limit_anonymous="3/minute", rate_limit_uploads="2/minute")
    with running_app(low) as first, running_app(low) as second:
        # per IP without a token (a fresh address, so no other test's requests count)
        address = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"
        clients = [anonymous_client(app) for app in (first, second, first, second)]
        for client in clients:
            client.environ_base["REMOTE_ADDR"] = address
        assert [c.get("/api/v1/events").status_code for c in clients] == [200, 200, 200, 429]
        response = clients[0].get("/api/v1/disputes")
        assert response.status_code == 429
        assert 1 <= int(response.headers["Retry-After"]) <= 60
        error = response.get_json()["error"]
        assert error["status"] == 429 and "limit" in error["message"]
        # health probes are not limited
        assert clients[0].get("/api/v1/health").status_code == 200
        # another address is not affected
        other = anonymous_client(first)
        other.environ_base["REMOTE_ADDR"] = "10.255.255.254" if address != "10.255.255.254" else "10.255.255.253"
        # per token, whatever the address
        token = make_token(first, "uploader", name="rate limited")
        a, b = token_client(first, token), token_client(second, token)
        b.environ_base["REMOTE_ADDR"] = address  # over the anonymous limit, but a token counts on its own
        assert a.post("/api/v1/games", json=self_play(7050)).status_code == 202
        assert b.post("/api/v1/games", json=self_play(7051)).status_code == 202
        response = a.post("/api/v1/games", json=self_play(7052))
        assert response.status_code == 429 and int(response.headers["Retry-After"]) >= 1
        assert "this token" in response.get_json()["error"]["message"]
        # reads of that token are a separate count
        assert b.get("/api/v1/events").status_code == 200


def test_token_guessing_is_limited_per_address_on_every_route_health_too(ingest_config):
    """Many bad tokens from one address, on the probe that is never rate limited otherwise: 429 with
    Retry-After once the failed-authentication limit is reached (counted in Redis: two app
    instances share it), on every route; another address with a good token is served."""
    low = dataclasses.replace(ingest_config, rate_limit_auth_failures="5/minute")
    with running_app(low) as first, running_app(low) as second:
        address = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"
        guesses = []
        for n in range(40):
            guesser = token_client((first, second)[n % 2], f"emp_guess{n:03d}_{secrets.token_urlsafe(32)}")
            guesser.environ_base["REMOTE_ADDR"] = address
            guesses.append(guesser.get("/api/v1/health"))
        statuses = [r.status_code for r in guesses]
        assert statuses[:5] == [401] * 5 and set(statuses[5:]) == {429}, statuses
        refused = guesses[-1]
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        error = refused.get_json()["error"]
        assert error["status"] == 429 and "failed" in error["message"] and "token" in error["message"]
        # the address stays refused on every route that checks a token, readiness and writes too
        for method, url in (("GET", "/api/v1/ready"), ("GET", "/api/v1/events"), ("POST", "/api/v1/events")):
            guesser = token_client(first, f"emp_another_{secrets.token_urlsafe(32)}")
            guesser.environ_base["REMOTE_ADDR"] = address
            assert guesser.open(url, method=method, json={}).status_code == 429, url
        # while it is, a token sent from it is not even looked up: a good one is refused as well, so
        # the answer says nothing about whether a guess was right
        token = make_token(first, "organiser", owner="Guessed At")
        same_address = token_client(second, token)
        same_address.environ_base["REMOTE_ADDR"] = address
        assert same_address.get("/api/v1/health").status_code == 429
        # the address may still read without a token (the public reads)
        reader = anonymous_client(first)
        reader.environ_base["REMOTE_ADDR"] = address
        assert reader.get("/api/v1/health").status_code == 200
        # another client with a good token is served, on both instances
        for app in (first, second):
            other = token_client(app, token)
            other.environ_base["REMOTE_ADDR"] = "10.255.255.252" if address != "10.255.255.252" else "10.255.255.251"
            assert other.get("/api/v1/health").status_code == 200
            assert other.post("/api/v1/events", json={"name": f"Not guessed {secrets.token_hex(3)}"}).status_code == 201


def test_token_commands_create_list_and_revoke(app, ingest_config, monkeypatch):
    from click.testing import CliRunner

    from services.cli import main as cli

    monkeypatch.setenv("DATABASE_URL", ingest_config.database_url)
    runner = CliRunner()
    made = runner.invoke(cli, ["token", "create", "--role", "organiser", "--name", "CLI Org"])
    assert made.exit_code == 0, made.output
    token = made.stdout.splitlines()[0]
    assert token.startswith("emp_")
    prefix = token.split("_")[1]
    client = token_client(app, token)
    assert client.post("/api/v1/events", json={"name": f"CLI Org Cup {prefix}"}).status_code == 201
    listed = runner.invoke(cli, ["token", "list"])
    assert listed.exit_code == 0 and prefix in listed.output and token.split("_", 2)[2] not in listed.output
    assert runner.invoke(cli, ["token", "revoke", prefix]).exit_code == 0
    forget_checked_tokens()  # as TOKEN_MEMORY_S later (the wait itself: the test above)
    assert client.post("/api/v1/events", json={"name": f"CLI Org Cup 2 {prefix}"}).status_code == 401
    assert runner.invoke(cli, ["token", "revoke", prefix]).exit_code == 2  # not live any more
    bad = runner.invoke(cli, ["token", "create", "--role", "organiser", "--event", "1"])
    assert bad.exit_code == 2 and "only an uploader token" in bad.output
