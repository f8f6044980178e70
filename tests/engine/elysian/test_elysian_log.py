"""Elysian Battlefields' lines and log parts: the grammar reads and writes back (every example line
of engine/elysian/lines.py's docstring), a line that does not read says why, a setup or result the
game cannot take names the field, a seeded log writes no chance line, and the table games of
docs/examples/ verify with `empyrean verify` (the illegal one naming rule 9.3)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.elysian import lines
from engine.elysian.game import End
from engine.elysian.lines import format_line, parse_line
from engine.log import LogFormatError, parse_log, read_schema_file
from engine.replay import VerdictStatus, replay

from .elysian_helpers import OPENING, log

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "docs" / "examples"
DOC_LINES = [part for row in lines.__doc__.splitlines() for part in re.split(r"\s{2,}", row.strip())
             if re.match(r"^(C|P\d) ", part)]


def test_the_docstring_shows_a_line_of_every_verb():
    verbs = {parse_line(text).verb for text in DOC_LINES}
    assert verbs == {v for kind in lines.Kind for v in kind.verbs} | {"concede"}


@pytest.mark.parametrize("text", DOC_LINES)
def test_every_example_line_reads_and_writes_back(text):
    assert format_line(parse_line(text)) == text


@pytest.mark.parametrize(("text", "written"), [("C dice 6 2 5", "C dice 2 5 6"),
                                               ("P1 attacks 5b from 4a 3c", "P1 attacks 5b from 3c 4a")])
def test_sets_are_written_in_one_order(text, written):
    assert format_line(parse_line(text)) == written


@pytest.mark.parametrize(("text", "says"), [
    ("P1 flies 4a", "'flies' is not an Elysian Battlefields decision"),
    ("P1 lays 4 at 0,0", "needs the tile and three hexes, clockwise"),
    ("P1 draws magic", "needs the deck: conquest, rule or reign"),
    ("P1 attacks 5b", "needs the territory attacked and where the attackers are"),
    ("P1 moves knight 4a 5a", "needs the unit, where it is and where it goes"),
    ("P1 done now", "takes no more words"),
    ("C dice 7", "a chance line is 'C rolls P2 5'"),
    ("C dice 1 2 3 4", "one to three faces"),
    ("P6 done", "an Elysian Battlefields line is, for example"),
    ("", "an Elysian Battlefields line is, for example")])
def test_a_line_that_does_not_read_says_what_is_wrong(text, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        parse_line(text)


@pytest.mark.parametrize(("change", "path"), [
    ({"setup": {"players": 1}}, "/setup/players"),
    ({"setup": {"players": 6}}, "/setup/players"),
    ({"setup": {}}, "/setup/players"),
    ({"result": {"ranks": [1, 2, 2]}}, "/result/ranks"),
    ({"result": {"ranks": [1]}}, "/result/ranks"),
    ({"result": {"ranks": [1, 2], "reason": "surrender"}}, "/result/reason"),
    ({"decisions": ["P3 done"]}, "/decisions/0"),
])
def test_a_setup_or_result_the_game_cannot_take_names_the_field(change, path):
    with pytest.raises(LogFormatError) as e:
        parse_log({**log(OPENING), **change})
    assert e.value.errors[0]["path"] == path, e.value.errors
    assert replay({**log(OPENING), **change}).verdict.status is VerdictStatus.MALFORMED


def test_a_seeded_log_writes_no_chance_line():
    with pytest.raises(LogFormatError) as e:
        parse_log(log(["C rolls P1 5", "C rolls P2 3"], seed=11))
    assert [x["path"] for x in e.value.errors] == ["/decisions/0", "/decisions/1"]
    assert "come from the seed" in e.value.errors[0]["message"]
    assert parse_log(log(["P2 hero seren"], seed=11)).chance.seed == 11


def test_a_misclaimed_rank_is_a_mismatch_naming_the_ranks():
    lg = json.loads((EXAMPLES / "elysian-table-game.json").read_text())
    res = replay({**lg, "result": {"ranks": [1, 2, 3], "reason": "reign"}})
    assert res.verdict.status is VerdictStatus.MISMATCH and res.verdict.errors[0]["path"] == "/result/ranks"


def test_the_result_schema_knows_every_end_of_the_game():
    reasons = read_schema_file("engine.elysian")["properties"]["result"]["properties"]["reason"]["enum"]
    assert reasons == [e.value for e in End]


def verify(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "services.cli", "verify", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_the_table_game_in_the_docs_verifies_valid():
    lg = json.loads((EXAMPLES / "elysian-table-game.json").read_text())
    assert lg["game"] == "elysian" and lg["chance"]["type"] == "recorded" and lg["setup"]["players"] == 3
    written = [parse_line(text) for text in lg["decisions"]]
    assert not any(d.verb == "draws" and len(d.args) > 1 for d in written)  # a draw never names its card
    assert {d.verb for d in written if d.actor == 0} == {"rolls", "tile", "dice"}
    res = replay(lg)
    assert res.verdict.status is VerdictStatus.VALID, res.verdict.message
    assert res.outcome.how == End.REIGN and [s.rank for s in res.outcome.seats] == lg["result"]["ranks"]
    r = verify("docs/examples/elysian-table-game.json")
    assert r.returncode == 0 and "VALID: Bram wins (Reign" in r.stdout, r.stdout + r.stderr


def test_the_illegal_dice_game_names_rule_9_3_at_the_line():
    lg = json.loads((EXAMPLES / "elysian-illegal-dice.json").read_text())
    good = json.loads((EXAMPLES / "elysian-table-game.json").read_text())["decisions"]
    v = replay(lg).verdict
    i = v.index
    assert v.status is VerdictStatus.ILLEGAL and lg["decisions"][i - 1] == "C dice 1 1 2"
    assert lg["decisions"][:i] + lg["decisions"][i + 1:] == good  # the table game with one die more
    assert "rule 9.3" in v.rule and "repelled" in v.rule and "P3 (aldric" in v.board
    r = verify("--explain", "docs/examples/elysian-illegal-dice.json")
    assert r.returncode == 1 and f"ILLEGAL at decision {i + 1}" in r.stdout and "(rule 9.3)" in r.stdout
    assert "board at that point:" in r.stdout and "legal decisions there: P3 done; P3 leaves" in r.stdout
