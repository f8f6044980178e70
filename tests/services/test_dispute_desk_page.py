"""The dispute desk (/disputes/<id>, /events/<id>/disputes) end to end: real PostgreSQL, Redis, Celery
worker and the app. Two logs of one match, uploaded by an organiser's token, part at a decision; the
second claims the other player won, which by the rules is a mismatch: a dispute. The desk shows both
uploads, where the logs part and which claim the rules support; the event page links to it; a
resolution shows the ruling (and who made it) on both; unlisted disputes are not there for a browser."""

from __future__ import annotations

import html
import re

import pytest
from dispute_logs import disputed_match
from service_helpers import make_token, token_client

import engine.log
from services.games.views import MAX_ID


@pytest.fixture(scope="module")
def desk(app):
    return disputed_match(app)


def _text(page: str) -> str:
    """The page's text, tags dropped and entities read, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split()).replace(" ,", ",")


def test_the_desk_shows_both_uploads_where_they_part_and_what_the_rules_support(client, desk, monkeypatch):
    parses = []
    real = engine.log._parse
    monkeypatch.setattr(engine.log, "_parse", lambda source: parses.append(1) or real(source))
    response = client.get(f"/disputes/{desk['id']}")
    assert response.status_code == 200
    assert len(parses) == 2  # each stored log read once
    page = response.get_data(as_text=True)
    text = _text(page)
    a, b, n = desk["a"], desk["b"], desk["differ_at"]
    assert f"Dispute #{desk['id']}: R3 · T14 · Ana vs Bo" in text
    assert "open" in text and "they claim different results" in text
    # both uploads side by side, in upload order, each with who uploaded it and its claim and verdict
    assert page.index(f'id="upload-{a}"') < page.index(f'id="upload-{b}"')
    assert text.count(f"Uploaded by {desk['owner']} (organiser, token 'desk')") == 2
    assert "label “table judge” (X-Uploader, unchecked)" in text
    assert f"Upload 1 · game {a} valid" in text and f"Upload 2 · game {b} mismatch" in text
    assert "Claims Ana wins" in text and "Claims Bo wins" in text
    assert "the log claims Bo (P2) won" in text  # the mismatch's verdict message
    # the final board by the rules, in words and battlefield by battlefield
    battlefields = desk["logs"][0]["setup"]["battlefields"]
    assert re.search(rf"Final board by the rules Ana wins \d–\d(, total might \d+–\d+)?: "
                     rf"B1 {re.escape(battlefields[0])} \d+–\d+, B2 ", text)
    assert text.count(f"B1 {battlefields[0]}") >= 2 and "takes it" in text
    assert f'href="/games/{a}/replay"' in page and f'href="/games/{b}/replay"' in page
    # the first decision where the logs part, with each one's line there
    lines = desk["logs"][0]["decisions"][n - 1], desk["logs"][1]["decisions"][n - 1]
    assert f"The logs are identical up to decision {n - 1} and first differ at decision {n}." in text
    assert f"game {a} {html.unescape(desk['logs'][0]['decisions'][n - 2])} {lines[0]}" in text
    assert f"game {b} {desk['logs'][1]['decisions'][n - 2]} {lines[1]}" in text
    # which claim the rules support
    assert re.search(rf"The rules support game {a} \(valid: Ana wins \d–\d(, total might \d+–\d+)?: "
                     rf"B1 {re.escape(battlefields[0])}", text)
    assert f"Game {b} is a mismatch: it claims Bo wins but the decisions give Ana the win." in text
    # the form, for the event's organiser: a choice per upload (a mismatch cannot count), the ruling
    assert 'id="resolve-form"' in page and f'data-url="/api/v1/disputes/{desk["id"]}/resolve"' in page
    assert re.search(rf'value="{a}">', page) and re.search(rf'value="{b}" disabled>', page)
    assert "Only the event's organiser (or an admin) can resolve it" in text


def test_the_event_page_and_its_disputes_list_link_to_the_desk(client, desk):
    for url in (f"/events/{desk['event']}", f"/events/{desk['event']}/disputes"):
        page = client.get(url).get_data(as_text=True)
        assert f'<a href="/disputes/{desk["id"]}">#{desk["id"]}</a>' in page, url
        assert f"/api/v1/disputes/{desk['id']}\"" not in page
    listing = _text(client.get(f"/events/{desk['event']}/disputes").get_data(as_text=True))
    assert f"Disputes of {desk['name']}" in listing and "Disputes (1 open)" in listing
    # the desk lists the event's disputes and links back to the event
    page = client.get(f"/disputes/{desk['id']}").get_data(as_text=True)
    assert f'href="/events/{desk["event"]}"' in page and f'href="/events/{desk["event"]}/disputes"' in page


def test_a_resolution_is_shown_with_who_made_it_on_the_desk_and_the_event_page(app, client):
    found = disputed_match(app)
    ruling = "Game A stands: both players signed its scoresheet <b>at the table</b>."
    stranger = token_client(app, make_token(app, "organiser", owner="Someone Else", name="other"))
    url = f"/api/v1/disputes/{found['id']}/resolve"
    assert stranger.post(url, json={"resolution": ruling, "counts": found["a"]}).status_code == 403
    done = found["org"].post(url, json={"resolution": ruling, "counts": found["a"]})
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["resolved_by"] == {"owner": found["owner"], "name": "desk", "role": "organiser"}
    page = client.get(f"/disputes/{found['id']}").get_data(as_text=True)
    text = _text(page)
    assert 'id="resolve-form"' not in page
    assert "&lt;b&gt;at the table&lt;/b&gt;" in page  # escaped, not markup
    assert f"The ruling {ruling}" in text
    by = f"resolved by {found['owner']} (organiser, token 'desk')"
    assert f"Game {found['a']} counts in the statistics · {by}" in text
    assert f"resolved {done.get_json()['resolved_at'][:10]}" in text and f"game {found['a']} counts" in text
    event = _text(client.get(f"/events/{found['event']}").get_data(as_text=True))
    assert f"#{found['id']} resolved 3 14 Ana, Bo" in event and f"game {found['a']} {ruling}" in event


def test_unlisted_disputes_and_unknown_ids_are_not_found(app, client, desk):
    hidden_event = disputed_match(app, event_visibility="unlisted")
    hidden_game = disputed_match(app, second_visibility="unlisted")
    for found in (hidden_event, hidden_game):
        response = client.get(f"/disputes/{found['id']}")
        assert response.status_code == 404 and f"There is no dispute {found['id']}" in response.get_data(as_text=True)
        # the event's organiser sees it
        assert found["org"].get(f"/disputes/{found['id']}").status_code == 200
    assert client.get(f"/events/{hidden_event['event']}/disputes").status_code == 404
    assert hidden_event["org"].get(f"/events/{hidden_event['event']}/disputes").status_code == 200
    for missing in (999_999_999, MAX_ID, MAX_ID + 1, 10**30):
        assert client.get(f"/disputes/{missing}").status_code == 404, missing
        assert client.get(f"/events/{missing}/disputes").status_code == 404, missing
    assert client.get("/disputes/abc").status_code == 404
