"""The dashboard pages over HTTP (Flask test client) against a real pipeline: a simulated, flawed
tournament goes through the bundle endpoint, the real worker replays it into Postgres, and every
page must then carry figures with data, honour its filters, download CSV, and escape player text.
(The same pages in a real browser: tests/browser.)"""

from __future__ import annotations

import csv
import html
import io
import json
import re

import plotly
import pytest
from service_helpers import as_admin
from tournament import NASTY, load_tournament

META_PAGES = ["/meta", "/matchups", "/trends", "/battlefields", "/game-shape", "/cards"]
DATASETS = ["decks", "matchups", "trends", "battlefields", "battlefield-first-player", "first-player",
            "margins", "rounds", "cards"]


@pytest.fixture(scope="module")
def tournament(app):
    return load_tournament(as_admin(app))


def figures_of(page: str) -> dict[str, dict]:
    """Every figure embedded in a page, by panel id, as the JSON plotly.js will draw."""
    found = re.findall(r'<script type="application/json" id="fig-data-([\w-]+)">(.*?)</script>', page, re.S)
    return {name: json.loads(text) for name, text in found}


def traces_with_data(figure: dict) -> list[dict]:
    return [t for t in figure["data"] if any(t.get(k) for k in ("x", "y", "z"))]


@pytest.mark.parametrize("path", META_PAGES)
def test_every_meta_page_draws_figures_with_data(client, tournament, path):
    response = client.get(f"{path}?min_games=5")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    figures = figures_of(page)
    assert figures, path
    for name, figure in figures.items():
        assert traces_with_data(figure), (path, name)
    assert f'src="/static/plotly-{plotly.__version__}.min.js"' in page  # versioned (dashboards/assets.py)
    assert 'name="min_games" min="0" value="5"' in page  # the form shows the filter in force


def test_meta_overview_bars_are_the_deck_win_rates_with_intervals(client, tournament):
    stats = client.get("/api/v1/stats/decks?min_games=5").get_json()["rows"]
    figure = figures_of(client.get("/meta?min_games=5").get_data(as_text=True))["win-rates"]
    bars = figure["data"][0]
    played = [r for r in stats if r["games"]]
    # best lower bound at the top: plotly lists categories bottom-up
    assert bars["y"][::-1] == [html.escape(r["deck"], quote=False) for r in played]
    for rate, row, plus, minus in zip(bars["x"][::-1], played, bars["error_x"]["array"][::-1],
                                      bars["error_x"]["arrayminus"][::-1]):
        assert rate == pytest.approx(row["win_rate"]["rate"])
        assert rate + plus == pytest.approx(row["win_rate"]["high"])
        assert rate - minus == pytest.approx(row["win_rate"]["low"])
    colours = bars["marker"]["color"][::-1]
    assert [c == "#b8b8b8" for c in colours] == [r["thin"] for r in played]


def test_a_filter_changes_the_figure(client, tournament):
    everything = figures_of(client.get("/meta").get_data(as_text=True))["win-rates"]["data"][0]
    decks = [d for d in everything["y"] if "&" not in d]  # a name a query string takes as it is
    one = figures_of(client.get(f"/meta?deck={decks[0]}").get_data(as_text=True))["win-rates"]["data"][0]
    assert one["y"] == [decks[0]] and len(everything["y"]) > 1
    battlefield = client.get("/api/v1/stats/battlefields").get_json()["rows"][0]["battlefield"]
    on_bf = client.get(f"/meta?battlefield={battlefield}").get_data(as_text=True)
    games_on_bf = sum(int(n) for n in re.findall(r"n=(\d+)", json.dumps(figures_of(on_bf)["win-rates"])))
    games_all = sum(int(n) for n in re.findall(r"n=(\d+)", json.dumps(everything)))
    assert 0 < games_on_bf < games_all
    assert figures_of(client.get("/meta?from=2030-01-01").get_data(as_text=True))["win-rates"]["data"] == []


def test_empty_form_fields_are_ignored_and_a_bad_filter_is_a_400_naming_it(client, tournament):
    assert client.get("/meta?from=&to=&event=&battlefield=&min_games=30").status_code == 200
    response = client.get("/matchups?from=yesterday")
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "The filter 'from' cannot be used" in page and "YYYY-MM-DD" in page
    assert client.get("/cards?colour=blue").status_code == 400
    # a deck or battlefield the service does not know: the page says so, with the names there are
    for path in ("/meta?deck=Nope", "/battlefields?battlefield=Nowhere"):
        response = client.get(path)
        page = response.get_data(as_text=True)
        assert response.status_code == 400 and ("unknown deck &#39;Nope&#39;" in page or
                                                "unknown battlefield &#39;Nowhere&#39;" in page), path
        assert "Zulus of the Mfecane" in page or "The Throne" in page
    download = client.get("/download/cards.csv?deck=Nope")
    assert download.status_code == 400 and "unknown deck 'Nope'" in download.get_data(as_text=True)


@pytest.mark.parametrize("dataset", DATASETS)
def test_every_dataset_downloads_as_csv_with_the_pages_filters(client, tournament, dataset):
    response = client.get(f"/download/{dataset}.csv?event={tournament['event']}&min_games=3")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == f'attachment; filename="empyrean-{dataset}.csv"'
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert rows, dataset
    if "win_rate" in rows[0]:
        assert {"win_rate_low", "win_rate_high", "win_rate_n"} <= set(rows[0])


def test_csv_numbers_equal_the_api_and_player_text_cannot_become_a_formula(client, tournament):
    api = {r["deck"]: r for r in client.get("/api/v1/stats/decks").get_json()["rows"]}
    rows = list(csv.DictReader(io.StringIO(client.get("/download/decks.csv").get_data(as_text=True))))
    for row in rows:
        deck = row["deck"]
        assert int(row["games"]) == api[deck]["games"] and int(row["win_rate_n"]) == api[deck]["games"]
    assert client.get("/download/nothing.csv").status_code == 404
    assert client.get("/download/decks.csv?players=7").status_code == 400


def test_player_text_is_escaped_on_every_page(client, tournament):
    pages = [*META_PAGES, "/events", f"/events/{tournament['nasty_event']}", f"/meta?deck={NASTY}"]
    for path in pages:
        page = client.get(path).get_data(as_text=True)
        assert "<script>alert" not in page, path
    meta = client.get("/meta").get_data(as_text=True)
    assert NASTY not in meta
    # in the figure JSON the name is HTML-escaped for plotly's text and \\u-escaped for the page
    assert "\\u0026lt;script\\u0026gt;alert" in meta
    events = client.get("/events").get_data(as_text=True)
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&amp;&#34;" in events


def test_events_page_lists_verdict_counts_and_open_disputes_with_replay_links(client, tournament):
    want = tournament["expected"]
    page = client.get("/events").get_data(as_text=True)
    assert "Dash Open" in page and f'href="/events/{tournament["event"]}"' in page
    assert "2026-09-05 (games)" in page  # no dates set by its organiser: the days its games were played
    page = client.get(f"/events/{tournament['event']}").get_data(as_text=True)
    assert f"{want['disputes']} open disputes" in page
    replay_links = set(re.findall(r'href="/games/(\d+)/replay"', page))
    flawed = want["illegal"] + want["mismatch"]
    assert len(replay_links) >= flawed > 0
    figure = figures_of(page)["event-verdicts"]
    counts = {t["name"]: t["x"][0] for t in figure["data"]}
    assert counts.get("valid") == want["valid"] and counts.get("illegal", 0) == want["illegal"]
    listed = {r["name"]: r for r in csv.DictReader(io.StringIO(client.get("/events.csv").get_data(as_text=True)))}
    assert int(listed["Dash Open"]["valid"]) == want["valid"] and listed[NASTY]["name"] == NASTY
    disputes = list(csv.DictReader(io.StringIO(
        client.get(f"/events/{tournament['event']}/disputes.csv").get_data(as_text=True))))
    assert sum(d["status"] == "open" for d in disputes) == want["disputes"]
    flagged = client.get(f"/events/{tournament['event']}/flagged.csv").get_data(as_text=True)
    assert len(list(csv.DictReader(io.StringIO(flagged)))) == flawed
    assert client.get("/events/987654321").status_code == 404
    assert client.get("/events/99999999999999999999").status_code == 404


def test_the_event_page_draws_a_bounded_number_of_disputes_and_says_where_the_rest_are(client, tournament,
                                                                                        monkeypatch):
    import dashboards.events

    want = tournament["expected"]["disputes"]
    assert want >= 2
    monkeypatch.setattr(dashboards.events, "MAX_DISPUTE_ROWS", 1)
    page = client.get(f"/events/{tournament['event']}").get_data(as_text=True)
    panel = page[page.index('id="panel-disputes"'):page.index('id="panel-flagged"')]
    assert len(set(re.findall(r'href="/disputes/(\d+)"', panel))) == 1
    assert f"The first 1 of {want} disputes are drawn here" in panel
    all_of_them = client.get(f"/events/{tournament['event']}/disputes").get_data(as_text=True)
    assert len(set(re.findall(r'href="/disputes/(\d+)"', all_of_them))) == want


def test_game_shape_page_says_which_filters_do_not_apply(client, tournament):
    battlefield = client.get("/api/v1/stats/battlefields").get_json()["rows"][0]["battlefield"]
    page = client.get(f"/game-shape?battlefield={battlefield}").get_data(as_text=True)
    assert "The battlefield filter does not apply here" in page
    assert "The deck filter does not apply to the first player or to margins." in page
    assert page.count("Games played to the tally only") == 2  # margins and might per round


def test_the_root_redirects_to_the_meta_overview_keeping_the_filters(client):
    response = client.get("/?min_games=3")
    assert response.status_code == 302 and response.headers["Location"] == "/meta?min_games=3"


def test_plotly_js_is_served_locally(client):
    response = client.get("/static/plotly.min.js")
    assert response.status_code == 200 and b"plotly" in response.data[:2000].lower()
    response.close()


def test_a_table_counts_its_rows_in_words(client, tournament):
    deck = next(r["deck"] for r in client.get("/api/v1/stats/decks?min_games=5").get_json()["rows"] if r["games"])
    one = client.get("/meta", query_string={"deck": deck, "min_games": 5}).get_data(as_text=True)
    assert "<summary>Table (1 row)" in one and "(1 rows)" not in one
    every = client.get("/meta?min_games=5").get_data(as_text=True)
    assert re.search(r"<summary>Table \(\d+ rows\)", every)
