"""A simulated tournament loaded through the real pipeline, for the dashboard tests (HTTP and
browser): a 16-player, 4-round event with a third of its matches flawed, plus a game whose mash-up
deck and event are named with HTML."""

from __future__ import annotations

import gzip
import json
import time

from engine.bfe.catalog import load_catalog
from engine.bfe.selfplay import self_play
from services.games.status import PENDING
from services.simulation.simulate import SimConfig, simulate

NASTY = '<script>alert("x")</script>&"'


def wait_event_done(client, event_id: int, expect: int, timeout: float = 180) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(f"/api/v1/events/{event_id}").get_json()
        pending = sum(n for s, n in body["games"].items() if s in PENDING)
        if sum(body["games"].values()) >= expect and not pending:
            return body
        assert time.monotonic() < deadline, body
        time.sleep(0.5)


def mash_up_log(seed: int, name: str) -> dict:
    """A valid game whose first deck is a mash-up deck (same cards as the premade) named ``name``."""
    log = self_play(seed, meta={"date": "2026-09-05"})
    premade = log["setup"]["decks"][0]
    cards = [card.name for card in load_catalog(log["catalog"]).decks[premade]]
    log["setup"]["decks"][0] = {"name": name, "cards": cards}
    return log


def load_tournament(client) -> dict:
    """A 16-player, 4-round simulated event (a third of its matches flawed) plus one game with a
    mash-up deck and an event, both named with HTML, all replayed by the real worker. ``client``
    creates the events and uploads: an admin's (service_helpers.as_admin)."""
    bundle = simulate(SimConfig(players=16, rounds=4, bot="random", flawed=0.34, seed=11, name="Dash Open"))
    want = bundle.expected()["service"]
    event = client.post("/api/v1/events", json={"name": "Dash Open"}).get_json()["id"]
    body = gzip.compress("".join(json.dumps(log) + "\n" for log in bundle.uploads).encode())
    report = client.post(f"/api/v1/events/{event}/games", data=body, content_type="application/x-ndjson",
                         headers={"Content-Encoding": "gzip"}).get_json()
    assert report["accepted"] == want["accepted"], report
    nasty_event = client.post("/api/v1/events", json={"name": NASTY}).get_json()["id"]
    upload = client.post(f"/api/v1/events/{nasty_event}/games", data=json.dumps(mash_up_log(5, NASTY)),
                         content_type="application/x-ndjson").get_json()
    assert upload["accepted"] == 1, upload
    wait_event_done(client, event, want["accepted"])
    wait_event_done(client, nasty_event, 1)
    return {"event": event, "nasty_event": nasty_event, "expected": want, "bundle": bundle}
