"""10,000 generated and mutated logs through the API (real Flask app, Postgres and Redis): never a
5xx; every answer is JSON; a rejection names what is wrong; whatever is accepted is stored exactly
as sent. Bundles of mutated lines: each line accepted or rejected on its own."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))
from mutations import mutated_bytes  # noqa: E402


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))


def test_ten_thousand_mutated_logs_never_get_a_server_error(admin_client, db):
    seen: dict[int, int] = {}

    @fuzz(10_000)
    @given(mutated_bytes())
    def upload(data):
        response = admin_client.post("/api/v1/games", data=data, content_type="application/json")
        seen[response.status_code] = seen.get(response.status_code, 0) + 1
        assert response.status_code < 500, response.get_data(as_text=True)[:300]
        assert response.is_json
        body = response.get_json()
        if response.status_code >= 400:
            assert body["error"]["message"] and "pointer" in body["error"], body
        else:
            assert body["status"] in ("queued", "received", "malformed", "valid", "illegal", "mismatch",
                                      "replaying"), body
            stored = db.execute("SELECT raw_log FROM games WHERE id = %s", (body["id"],)).fetchone()[0]
            assert bytes(stored) == data or body["duplicate"]

    upload()
    assert set(seen) <= {200, 202, 400, 413}, seen
    assert seen.get(202, 0) > 1000, seen  # most mutated logs are objects: stored with their verdict


def test_bundles_of_mutated_lines_are_judged_line_by_line(admin_client):
    event = admin_client.post("/api/v1/events", json={"name": "Fuzz Bundles"}).get_json()["id"]

    @fuzz(200)
    @given(st.lists(mutated_bytes(), min_size=1, max_size=8))
    def upload(lines):
        body = b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\n"
        response = admin_client.post(f"/api/v1/events/{event}/games", data=body, content_type="application/x-ndjson")
        assert response.status_code < 500, response.get_data(as_text=True)[:300]
        report = response.get_json()
        if response.status_code in (200, 202):
            assert sum(report[k] for k in ("accepted", "duplicates", "malformed", "rejected")) == len(report["games"])
        else:
            assert report["error"]["message"]

    upload()
