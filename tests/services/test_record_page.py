"""The recorder's page over HTTP (dashboards/record.py): served with the security headers, no
inline script, in every page's navigation, and the endpoints it is given are the API's own.
What the page does in a browser is tests/browser/test_record.py."""

from __future__ import annotations

import json
import re

from services.api.headers import CONTENT_SECURITY_POLICY


def config_of(html: str) -> dict:
    found = re.search(r'<script id="record-config" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page carries its configuration as a JSON data block"
    return json.loads(found[1])


def test_the_page_is_served_with_its_scripts_as_files(client):
    response = client.get("/record")
    assert response.status_code == 200
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    html = response.get_data(as_text=True)
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag or 'type="application/json"' in tag, tag  # the policy runs no inline script
    for name in ("board.js", "record_store.js", "record_setup.js", "record_end.js", "record_held.js", "record.js",
                 "board.css", "record.css"):
        assert f"/static/dash/{name}" in html
        assert client.get(f"/static/dash/{name}").status_code == 200
    assert "plotly" not in html  # no figure on this page


def test_every_page_links_the_recorder(client):
    for path in ("/meta", "/events", "/record"):
        assert 'href="/record"' in client.get(path).get_data(as_text=True), path


def test_the_endpoints_the_page_is_given_are_the_apis(client):
    urls = config_of(client.get("/record").get_data(as_text=True))["urls"]
    assert client.get(urls["catalog"]).get_json()["default"]
    assert client.get(urls["events"]).status_code == 200
    assert client.get(urls["event"] + "999999").status_code == 404  # GET /api/v1/events/{id}
    empty = {"format": "empyrean-log", "version": 1, "catalog": "2026.2", "chance": {"type": "recorded"},
             "setup": {"mode": "2p", "decks": ["Vikings of Valhalla", "Zulus of the Mfecane"],
                       "battlefields": ["The Throne", "The Prison", "The Crossroads"], "first_player": 1},
             "decisions": []}
    position = client.post(urls["positions"], json=empty).get_json()
    assert position["status"] == "in progress" and position["to_decide"] == "C"
    assert client.post(urls["games"], json=empty).status_code == 401  # an upload needs a token
    assert urls["replay"] == "/games/{id}/replay"
