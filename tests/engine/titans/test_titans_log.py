"""Titans' lines and log parts: the grammar reads and writes back, a setup it cannot make names
the field, and the hand-written table game in the docs verifies (and its illegal twin names the
rule and shows the board)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from titans_helpers import log

from engine.log import LogFormatError, parse_log
from engine.replay import VerdictStatus, replay
from engine.titans.lines import format_line, parse_line
from engine.titans.rules import RULES

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"

LINES = ["P1 ashmaw enter G2 NE", "P1 ashmaw stay", "P1 ashmaw move", "P1 ashmaw turn left",
         "P1 ashmaw attack P2 pyre", "P1 ashmaw play stack gout-of-flame", "P2 shrill play reserve tailwind",
         "P1 ashmaw replenish in", "P1 ashmaw replenish out", "P1 ashmaw burn-turn stack wingover",
         "P1 ashmaw burn-turn stack ?", "P1 ashmaw burn-turn reserve", "P1 ashmaw done", "P1 ashmaw burn ?",
         "P1 ashmaw burn tailwind", "P1 ashmaw resolve stack ?", "P1 ashmaw resolve active",
         "P1 ashmaw resolve reserve", "P1 ashmaw die", "C hazard D4 foom", "P2 concede"]


@pytest.mark.parametrize("text", LINES)
def test_every_kind_of_line_reads_and_writes_back(text):
    assert format_line(parse_line(text)) == text


@pytest.mark.parametrize(("text", "says"), [
    ("P1 ashmaw fly", "not a Titans action"), ("P1 ashmaw enter G2", "hex and a facing"),
    ("P1 ashmaw attack pyre", "target's player"), ("P3 ashmaw move", "a Titans line is"),
    ("P1 ashmaw resolve", "'active' or 'reserve'"), ("P1 ashmaw turn around", "left or right")])
def test_a_line_that_does_not_read_says_what_is_wrong(text, says):
    with pytest.raises(ValueError, match=says):
        parse_line(text)


@pytest.mark.parametrize(("setup", "path"), [
    ({"squads": [{"species": "kraken"}, {"species": "harpy"}]}, "/setup/squads/0/species"),
    ({"squads": [{"species": "dragon", "ally": "dragon", "titans": ["ashmaw", "cinderwing", "old-vermax", "shrill"]},
                 {"species": "harpy"}]}, "/setup/squads/0/ally"),
    ({"squads": [{"species": "dragon", "ally": "harpy"}, {"species": "harpy"}]}, "/setup/squads/0/titans"),
    ({"squads": [{"species": "dragon"}, {"species": "harpy", "maneuvers": ["screech"] * 7}]},
     "/setup/squads/1/maneuvers"),
    ({"squads": [{"species": "dragon"}, {"species": "harpy"}], "hazards": "nowhere"}, "/setup/hazards"),
    ({"squads": [{"species": "dragon"}, {"species": "harpy"}], "hazards": ["D4", "Q1"]}, "/setup/hazards/1"),
])
def test_a_setup_the_game_cannot_make_names_the_field(setup, path):
    lg = {**log(), "setup": setup}
    res = replay(lg)
    assert res.verdict.status is VerdictStatus.MALFORMED
    assert res.verdict.errors[0]["path"] == path, res.verdict.errors


def test_the_setup_shape_is_checked_by_the_schema():
    with pytest.raises(LogFormatError) as e:
        parse_log({**log(), "setup": {"squads": [{"species": "dragon"}]}})
    assert e.value.errors[0]["path"].startswith("/setup/squads")


def test_the_table_game_in_the_docs_verifies_valid():
    lg = json.loads((EXAMPLES / "titans-table-game.json").read_text())
    assert lg["game"] == "titans" and lg["chance"]["type"] == "recorded"
    res = replay(lg)
    assert res.verdict.status is VerdictStatus.VALID, res.verdict.message
    assert res.outcome.winner == lg["result"]["winner"]


def test_the_illegal_table_game_names_the_rule_and_shows_the_board():
    lg = json.loads((EXAMPLES / "titans-illegal-attack.json").read_text())
    v = replay(lg).verdict
    assert v.status is VerdictStatus.ILLEGAL
    assert "front arc or on its own hex" in v.rule
    assert "facing" in v.board and "P1 (dragon)" in v.board
    assert RULES.describe  # the board in words comes from the game


def test_the_result_schema_knows_every_end_of_the_game():
    from engine.log import read_schema_file
    from engine.titans.game import End

    reasons = read_schema_file("engine.titans")["properties"]["result"]["properties"]["reason"]["enum"]
    assert reasons == [e.value for e in End]


def test_the_viewer_sees_the_board_and_counts_face_down_cards_without_naming_them():
    from engine.timeline import timeline

    lg = json.loads((EXAMPLES / "titans-table-game.json").read_text())
    tl = timeline(lg)
    assert len(tl.frames) == len(lg["decisions"]) + 1
    last = tl.frames[-1]
    ashmaw = next(t for t in last["titans"] if t["titan"] == "ashmaw")
    assert (ashmaw["hex"], ashmaw["facing"], ashmaw["damage"], ashmaw["stack"]) == ("C6", "W", 2, 1)
    assert last["hazards"] == ["C2", "C5", "E2", "E5"] and last["reserve"] == [4, 3]
    assert "stack_cards" not in ashmaw  # counted, never named
    assert all(set(t["known"]) <= {None} for f in tl.frames for t in f["titans"])  # the log names none of them
    seats = RULES.seats(parse_log(lg))
    assert [s["species"] for s in seats] == ["dragon", "harpy"] and seats[0]["name"] == "Ada"
    assert len(RULES.layout(replay(lg, keep_game=True).game)) == 37
