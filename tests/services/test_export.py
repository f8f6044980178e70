"""The bulk export of verified game records (issue 18, part 6): GET /api/v1/export/games.csv and
.parquet and `empyrean export`, end to end — a simulated, flawed tournament (disputes, illegal games,
wrong claims) goes through the bundle endpoint and the real worker into PostgreSQL, with an unlisted
event and an unlisted game beside it.

Which games are exported is checked against a count made here from the bundle itself (a match counts
when every upload of it is valid and they agree; its first upload is the one), the values of a game
against the engine's own replay of its log."""

from __future__ import annotations

import csv
import io
import json
import re
import threading
from collections import defaultdict
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from export_fill import clone_counted_game
from service_helpers import as_admin, running_app
from test_match_counting import finished, new_event, upload
from tournament import load_tournament
from werkzeug.serving import make_server

from engine.bfe.catalog import load_catalog
from engine.bfe.selfplay import self_play
from engine.replay import replay
from services.api.export import MAX_RANGE_DAYS
from services.cli import main as cli
from services.games import export
from services.games.listing import Reader
from services.platform.spool import SEND_CHUNK, SPOOL_IN_MEMORY

API = "/api/v1/export/games"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "export.md"


@pytest.fixture(scope="module")
def world(app):
    """The tournament, plus an unlisted event with one valid game and an unlisted game of a public
    event (each on a day of its own, so a range of days can be asked around them)."""
    admin = as_admin(app)
    facts = load_tournament(admin)
    hidden_name = new_event(admin, "Export Hidden")
    hidden_event = admin.post("/api/v1/events", json={"name": hidden_name}).get_json()["id"]
    assert admin.patch(f"/api/v1/events/{hidden_event}", json={"visibility": "unlisted"}).status_code == 200
    in_hidden = upload(admin, self_play(31_001, meta={"event": hidden_name, "date": "2026-11-02"})).get_json()["id"]
    open_name = new_event(admin, "Export Open")
    unlisted_game = admin.post("/api/v1/games?visibility=unlisted", data=json.dumps(
        self_play(31_002, meta={"event": open_name, "date": "2026-11-02"})), content_type="application/json")
    unlisted_game = unlisted_game.get_json()["id"]
    public_game = upload(admin, self_play(31_003, meta={"event": open_name, "date": "2026-11-02"})).get_json()["id"]
    for game in (in_hidden, unlisted_game, public_game):
        assert finished(admin, game)["status"] == "valid"
    return facts | {"hidden_event": hidden_event, "in_hidden": in_hidden, "unlisted_game": unlisted_game,
                    "public_game": public_game, "open_event": finished(admin, public_game)["event_id"]}


def csv_rows(response) -> list[dict]:
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))


def counted_uploads(bundle) -> list[dict]:
    """The uploads that count, from the bundle alone: of each match (round, table) whose uploads are
    all valid and claim one winner, the first uploaded."""
    matches: dict[tuple, list[dict]] = defaultdict(list)
    for log in bundle.uploads:
        matches[log["meta"]["round"], log["meta"]["table"]].append(log)
    counted = []
    for uploads in matches.values():
        verdicts = {replay(log, record=False).verdict.status for log in uploads}
        if verdicts == {"valid"} and len({json.dumps(log["result"]) for log in uploads}) == 1:
            counted.append(uploads[0])
    return counted


def test_an_event_exports_one_row_per_seat_of_each_counted_game_and_nothing_else(client, world):
    rows = csv_rows(client.get(f"{API}.csv?event={world['event']}"))
    assert list(rows[0]) == list(export.NAMES)
    want = counted_uploads(world["bundle"])
    by_game = defaultdict(list)
    for row in rows:
        by_game[int(row["game_id"])].append(row)
    assert len(by_game) == len(want) and len(rows) == sum(len(log["setup"]["decks"]) for log in want)
    # the same games the games list marks counted: none disputed, illegal, mismatch or superseded
    listed = client.get(f"/api/v1/events/{world['event']}/games?limit=500").get_json()["games"]
    assert set(by_game) == {g["id"] for g in listed if g["counted"]}
    assert not {g["id"] for g in listed if g["status"] != "valid" or g["dispute"]} & set(by_game)
    # each counted match once, with its players, decks and result as its log says
    seen = {(log["meta"]["round"], log["meta"]["table"]): log for log in want}
    for game_rows in by_game.values():
        log = seen.pop((int(game_rows[0]["round"]), game_rows[0]["table"]))
        assert [int(r["seat"]) for r in game_rows] == list(range(1, len(log["setup"]["decks"]) + 1))
        assert [r["player"] for r in game_rows] == log["meta"]["players"]
        assert [r["deck"] for r in game_rows] == log["setup"]["decks"]
        winner = log["result"]["winner"]
        assert [r["result"] for r in game_rows] == [
            "draw" if winner is None else "win" if seat == winner else "loss" for seat in range(1, len(game_rows) + 1)]
        for row in game_rows:
            assert json.loads(row["opponents"]) == [p for p in log["meta"]["players"] if p != row["player"]]
            assert row["event"] == "Dash Open" and row["played_on"] == log["meta"]["date"]
    assert seen == {}


def test_the_values_of_a_game_are_its_replay(client, world):
    rows = csv_rows(client.get(f"{API}.csv?event={world['event']}"))
    game = int(rows[0]["game_id"])
    log = json.loads(client.get(f"/api/v1/games/{game}/log").get_data())
    record = replay(log).record
    seats = [r for r in rows if int(r["game_id"]) == game]
    for seat, row in enumerate(seats, 1):
        mine = record.final_might[seat - 1]
        others = [m for i, m in enumerate(record.final_might) if i != seat - 1]
        assert json.loads(row["battlefields"]) == record.battlefields
        assert int(row["first_player"]) == record.first_player
        assert row["on_the_play"] == ("true" if seat == record.first_player else "false")
        assert json.loads(row["might"]) == mine
        assert json.loads(row["battlefield_margins"]) == [
            m - max(o[b] for o in others) for b, m in enumerate(mine)]
        assert int(row["total_might"]) == sum(mine)
        assert int(row["margin"]) == sum(mine) - max(sum(o) for o in others)
        assert int(row["battlefields_won"]) == sum(1 for w in record.battlefield_winners if w == seat)
        deployed = {name: stats.deploys for name, stats in record.cards[seat - 1].items() if stats.deploys}
        assert json.loads(row["cards_deployed"]) == sorted(deployed)
        assert int(row["deploys"]) == sum(deployed.values())
        assert row["catalog_version"] == log["catalog"] and row["end_reason"] == record.end
        assert json.loads(row["opponent_decks"]) == [d for i, d in enumerate(record.decks) if i != seat - 1]


def test_the_parquet_file_reads_back_as_the_csv(client, world):
    response = client.get(f"{API}.parquet?event={world['event']}")
    assert response.status_code == 200 and response.mimetype == "application/vnd.apache.parquet"
    assert f'filename="empyrean-games-event-{world["event"]}.parquet"' in response.headers["Content-Disposition"]
    table = pq.read_table(io.BytesIO(response.get_data()))
    assert table.schema.names == list(export.NAMES)
    assert table.schema.field("might").type == pa.list_(pa.int32())
    assert table.schema.field("played_on").type == pa.date32()
    assert table.schema.field("deck").metadata[b"meaning"].decode() == next(
        c.meaning for c in export.COLUMNS if c.name == "deck")
    from_csv = csv_rows(client.get(f"{API}.csv?event={world['event']}"))
    rows = table.to_pylist()
    assert len(rows) == len(from_csv)
    for got, want in zip(rows, from_csv):
        assert got["game_id"] == int(want["game_id"]) and got["seat"] == int(want["seat"])
        assert got["cards_deployed"] == json.loads(want["cards_deployed"])
        assert got["battlefield_margins"] == json.loads(want["battlefield_margins"])
        assert got["played_on"].isoformat() == want["played_on"] and got["result"] == want["result"]
        assert got["on_the_play"] is (want["on_the_play"] == "true")


def test_unlisted_games_and_events_are_exported_only_to_who_may_see_them(client, admin_client, world):
    days = "from=2026-11-02&to=2026-11-02"
    anyone = {int(r["game_id"]) for r in csv_rows(client.get(f"{API}.csv?{days}"))}
    assert anyone == {world["public_game"]}
    admin = {int(r["game_id"]) for r in csv_rows(admin_client.get(f"{API}.csv?{days}"))}
    assert admin == {world["public_game"], world["unlisted_game"], world["in_hidden"]}
    refused = client.get(f"{API}.csv?event={world['hidden_event']}")
    assert refused.status_code == 400 and refused.get_json()["error"]["parameter"] == "event"
    assert {int(r["game_id"]) for r in csv_rows(admin_client.get(f"{API}.csv?event={world['hidden_event']}"))} == {
        world["in_hidden"]}
    # an event and a range together: the event's games on those days
    both = csv_rows(client.get(f"{API}.csv?event={world['open_event']}&{days}"))
    assert {int(r["game_id"]) for r in both} == {world["public_game"]}
    assert csv_rows(client.get(f"{API}.csv?event={world['event']}&from=2026-11-01&to=2026-11-30")) == []
    empty = pq.read_table(io.BytesIO(client.get(f"{API}.parquet?from=1999-01-01&to=1999-01-31").get_data()))
    assert empty.num_rows == 0 and empty.schema.names == list(export.NAMES)


def test_no_cell_of_the_export_is_a_formula_a_spreadsheet_would_run(admin_client, client):
    """Names are typed by whoever uploads (players, table, deck, event): a cell that starts like a
    formula is written behind an apostrophe (services.platform.csv_cells), as the dashboards' CSVs."""
    event_name = new_event(admin_client, "-Formula Cup")
    players = ['=HYPERLINK("http://evil","x")', "+cmd|calc", "@SUM(1+1)"]
    log = self_play(31_010, players=3, meta={"event": event_name, "date": "2026-11-03", "round": 1,
                                              "table": "\tT1", "players": players})
    premade = log["setup"]["decks"][2]
    log["setup"]["decks"][2] = {"name": "=Deck", "cards": [c.name for c in load_catalog(log["catalog"]).decks[premade]]}
    game = finished(admin_client, upload(admin_client, log).get_json()["id"])
    assert game["status"] == "valid", game
    text = client.get(f"{API}.csv?event={game['event_id']}").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))[1:]
    assert len(rows) == 3
    # (a negative number, a margin, is a number to a spreadsheet, not a formula)
    assert not [cell for row in rows for cell in row
                if cell.startswith(("=", "+", "-", "@", "\t", "\r")) and not re.fullmatch(r"-\d+", cell)]
    named = list(csv.DictReader(io.StringIO(text)))
    assert [r["player"] for r in named] == ["'" + p for p in players]
    assert {r["table"] for r in named} == {"'\tT1"} and {r["event"] for r in named} == {"'" + event_name}
    assert named[2]["deck"] == "'=Deck"


@pytest.mark.parametrize(("query", "parameter", "words"), [
    ("", "from", "give an event"),
    ("from=2026-09-01", "to", "give an event"),
    ("event=abc", "event", "whole number"),
    ("event=987654321", "event", "there is no event 987654321"),
    ("from=2026-13-01&to=2026-12-31", "from", "YYYY-MM-DD"),
    ("from=20260901&to=2026-12-31", "from", "YYYY-MM-DD"),
    ("from=2026-09-02&to=2026-09-01", "to", "before"),
    ("from=2025-01-01&to=2026-12-31", "to", f"at most {MAX_RANGE_DAYS} days"),
    ("event=1&event=2", "event", "given 2 times"),
    ("event=1&deck=Zulus", "deck", "unknown parameter"),
])
def test_bad_requests_are_400s_that_name_the_parameter(client, query, parameter, words):
    for fmt in ("csv", "parquet"):
        response = client.get(f"{API}.{fmt}?{query}")
        assert response.status_code == 400, (fmt, query)
        error = response.get_json()["error"]
        assert error["parameter"] == parameter and words in error["message"], error


def test_the_docs_table_is_the_declared_columns():
    text = DOCS.read_text().split("## The columns", 1)[1]
    table = [[cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
             for line in text.splitlines() if line.startswith("| `")]
    assert [(name, kind) for name, kind, *_ in table] == [(c.name, c.type) for c in export.COLUMNS]
    for (_, _, meaning), column in zip(table, export.COLUMNS):
        assert meaning == column.meaning.replace("|", "\\|")


def test_a_big_export_is_read_a_batch_at_a_time_and_sent_from_where_it_is_held(app, client, world, db):
    """Thousands of games: the rows are read a batch at a time (the Parquet file has one row group
    per batch), the file is held aside (services.platform.spool) and sent in chunks of at most
    SEND_CHUNK bytes, with its length."""
    source = int(csv_rows(client.get(f"{API}.csv?event={world['event']}"))[0]["game_id"])
    admin = as_admin(app)
    event = finished(admin, upload(admin, self_play(31_004, meta={"event": new_event(admin, "Export Big"),
                                                                  "date": "2026-10-10"})).get_json()["id"])
    event_id = event["event_id"]
    copies = 7_000
    with db.transaction():
        clone_counted_game(db, source, copies, event_id)
    seats = 2 * copies + 2
    response = client.get(f"{API}.csv?event={event_id}")
    assert response.is_streamed
    chunks = list(response.response)
    body = b"".join(chunks)
    assert body.count(b"\n") == seats + 1  # the header and one line per seat
    assert int(response.headers["Content-Length"]) == len(body) > SPOOL_IN_MEMORY  # held on disk
    assert len(chunks) > 1 and max(len(c) for c in chunks) <= SEND_CHUNK
    response.close()

    batches = -(-seats // export.BATCH_ROWS)
    parquet = client.get(f"{API}.parquet?event={event_id}")
    file = pq.ParquetFile(io.BytesIO(b"".join(parquet.response)))
    assert file.metadata.num_rows == seats and file.metadata.num_row_groups == batches

    # the batch size is the reader's: a smaller one, more fetches
    with app.extensions["empyrean"].read_pool.connection() as conn:
        sizes = [len(b) for b in export.row_batches(conn, export.ExportFilter(event=event_id), Reader(), batch=1000)]
    assert sizes == [1000] * (seats // 1000) + ([seats % 1000] if seats % 1000 else [])


def test_an_export_holds_a_connection_of_its_own_pool_only_while_it_reads_its_rows(app, client, world):
    pools = app.extensions["empyrean"]
    exports = pools.export_pool
    for _ in range(3):
        response = client.get(f"{API}.csv?event={world['event']}")
        # answered: the rows are read and the connection given back before the first byte is sent
        assert exports.get_stats().get("pool_available", 0) == exports.get_stats().get("connections_num", 0) >= 1
        next(iter(response.response))  # the header, then the client leaves
        response.close()
    assert exports.max_size == pools.config.export_connections and exports is not pools.db_pool
    assert exports.get_stats().get("requests_waiting", 0) == 0


def test_an_export_that_finds_its_pool_busy_is_a_json_503_not_a_broken_download(ingest_config, world):
    import dataclasses

    with running_app(dataclasses.replace(ingest_config, export_connections=1)) as app:
        with app.extensions["empyrean"].export_pool.connection():  # every export connection busy
            busy = app.test_client().get(f"{API}.csv?event={world['event']}")
        assert busy.status_code == 503 and busy.is_json and int(busy.headers["Retry-After"]) >= 1
        assert "other exports are being written" in busy.get_json()["error"]["message"]
        assert app.test_client().get(f"{API}.csv?event={world['event']}").status_code == 200


def test_exports_have_a_rate_limit_of_their_own(ingest_config, world):
    import dataclasses

    low = dataclasses.replace(ingest_config, rate_limit_exports="2/minute")
    with running_app(low) as app:
        anyone = app.test_client()
        anyone.environ_base["REMOTE_ADDR"] = "10.9.8.7"
        answers = [anyone.get(f"{API}.csv?event={world['event']}").status_code for _ in range(3)]
        assert answers == [200, 200, 429]
        refused = anyone.get(f"{API}.parquet?event={world['event']}")
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert anyone.get("/api/v1/events").status_code == 200  # other reads: their own count


@pytest.fixture
def served(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_empyrean_export_writes_csv_and_parquet_files(served, client, world, tmp_path):
    runner = CliRunner()
    out = tmp_path / "event.csv"
    result = runner.invoke(cli, ["export", "--api", served, "--event", str(world["event"]), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert re.search(r"event\.csv: [\d,]+ bytes \(csv\)", result.output)
    # the download bar knows its end (the answer's Content-Length): "0.00/22.5k", not "0.00B"
    assert re.search(r"downloading: .*\d/[\d.]+k", result.stderr), result.stderr
    assert out.read_bytes() == client.get(f"{API}.csv?event={world['event']}").get_data()
    parquet = tmp_path / "days.parquet"
    result = runner.invoke(cli, ["export", "--api", served, "--from", "2026-11-02", "--to", "2026-11-02",
                                 "-o", str(parquet)])
    assert result.exit_code == 0, result.output
    assert pq.read_table(parquet).column("game_id").to_pylist() == [world["public_game"]] * 2
    forced = tmp_path / "forced.bin"
    result = runner.invoke(cli, ["export", "--api", served, "--event", str(world["event"]), "--format", "parquet",
                                 "-o", str(forced)])
    assert result.exit_code == 0 and pq.read_table(forced).num_rows == len(
        csv_rows(client.get(f"{API}.csv?event={world['event']}")))
    # refused: the service's words, no file left behind
    bad = tmp_path / "bad.csv"
    result = runner.invoke(cli, ["export", "--api", served, "--from", "2026-09-02", "--to", "2026-09-01",
                                 "-o", str(bad)])
    assert result.exit_code == 1 and "400" in result.output and "before" in result.output
    assert not bad.exists() and not list(tmp_path.glob("*.part"))
    result = runner.invoke(cli, ["export", "--api", "http://127.0.0.1:9", "--event", "1", "-o", str(bad)])
    assert result.exit_code == 2 and "could not reach" in result.output


def test_empyrean_export_finds_the_running_up(served, world, tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("EMPYREAN_DATA_DIR", str(data))
    monkeypatch.delenv("EMPYREAN_API_URL", raising=False)
    monkeypatch.delenv("EMPYREAN_TOKEN", raising=False)
    (data / "service.json").write_text(json.dumps({"api_url": f"{served}/api/v1", "database_url": "",
                                                   "redis_url": ""}))
    out = tmp_path / "up.csv"
    result = CliRunner().invoke(cli, ["export", "--event", str(world["event"]), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text().splitlines()[0] == ",".join(export.NAMES)
