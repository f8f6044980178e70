"""Two logs of one match that part at a decision, and a dispute made of them through the real API and
worker, for the dispute desk's tests (service and browser).

``diverging_logs`` self-plays a game Ana wins, then a second game from the same setup and seed that
takes every decision of the first up to some decision, another legal answer there, and the engine's
first legal answer from then on (engine.position), until the game is over and Ana wins it too. The
second log claims that Bo won: by the rules it is a mismatch, with legal decisions."""

from __future__ import annotations

import copy
import json
import secrets

from service_helpers import make_token, token_client
from test_match_counting import finished

from engine.bfe.selfplay import self_play
from engine.position import position

PLAYERS = ["Ana", "Bo"]


def _play_on(log: dict) -> dict | None:
    """``log`` (no result) played to its end with the first legal answer each time; its outcome, or
    None if it stops being legal."""
    while True:
        pos = position(log)
        if not pos.in_progress:
            return pos.outcome if pos.status == "valid" else None
        log["decisions"].append(pos.legal[0])


def diverging_logs(meta: dict, first_seed: int = 31_000) -> tuple[dict, dict, int]:
    """(A, B, n): A a valid log Ana wins; B the same game up to decision n - 1 (counted from 1), another
    legal line at decision n, Ana winning by the rules while B claims Bo won."""
    seed = first_seed
    while True:
        a = self_play(seed, meta=meta)
        seed += 1
        if a["result"]["winner"] != 1:
            continue
        decisions = a["decisions"]
        for k in range(len(decisions) // 3, len(decisions)):
            trial = {**copy.deepcopy(a), "decisions": decisions[:k]}
            trial.pop("result")
            legal = position(trial).legal
            others = [line for line in legal if line != decisions[k]]
            if decisions[k] not in legal or not others:
                continue
            trial["decisions"].append(others[0])
            outcome = _play_on(trial)
            if outcome is not None and outcome.winner == 1:
                trial["result"] = {"winner": 2}
                return a, trial, k + 1


def _match(event: str, rnd: int = 3, table: str = "14") -> dict:
    return {"event": event, "round": rnd, "table": table, "players": PLAYERS, "date": "2026-11-02"}


def disputed_match(app, *, event_visibility: str = "public", second_visibility: str = "public") -> dict:
    """A new event of a new organiser with one disputed match: A (valid, Ana wins) and B (a mismatch:
    it claims Bo won), each uploaded and replayed."""
    owner = f"Org {secrets.token_hex(3)}"
    token = make_token(app, "organiser", owner=owner, name="desk")
    org = token_client(app, token)
    name = f"Desk Open {secrets.token_hex(3)}"
    created = org.post("/api/v1/events", json={"name": name, "visibility": event_visibility})
    assert created.status_code == 201, created.get_json()
    a, b, differ_at = diverging_logs(_match(name))
    ids = []
    for log, visibility in ((a, "public"), (b, second_visibility)):
        sent = org.post(f"/api/v1/games?visibility={visibility}", data=json.dumps(log),
                        content_type="application/json", headers={"X-Uploader": "table judge"})
        assert sent.status_code == 202, sent.get_json()
        ids.append(sent.get_json()["id"])
    assert [finished(org, i)["status"] for i in ids] == ["valid", "mismatch"]
    [dispute] = org.get(f"/api/v1/disputes?event={created.get_json()['id']}").get_json()["disputes"]
    return {"org": org, "token": token, "owner": owner, "event": created.get_json()["id"], "name": name,
            "a": ids[0], "b": ids[1], "logs": (a, b), "differ_at": differ_at, "id": dispute["id"]}
