"""`empyrean verify`: files, folders, stdin, NDJSON, --explain, exit codes — run as a real process."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys

import pytest

from engine.bfe.selfplay import self_play


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "services.cli", "verify", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def logs():
    return [self_play(seed) for seed in range(4)]


def illegal(log: dict) -> dict:
    bad = copy.deepcopy(log)
    i = next(k for k, d in enumerate(bad["decisions"]) if " deploy " in d)
    bad["decisions"][i] = bad["decisions"][i].split()[0] + " deploy Nothing Such to B1"
    return bad


def test_all_valid_folder_exits_0(tmp_path, logs):
    for n, log in enumerate(logs):
        (tmp_path / f"g{n}.json").write_text(json.dumps(log))
    r = run(str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count(": VALID:") == 4
    assert "4 game(s): 4 valid" in r.stdout


def test_illegal_game_exits_1_and_explain_shows_board_and_alternatives(tmp_path, logs):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(illegal(logs[0])))
    r = run("--explain", str(path))
    assert r.returncode == 1
    # decisions counted from 1 as the log's lines are: the 0-based index i is "decision i + 1"
    i = next(k for k, d in enumerate(illegal(logs[0])["decisions"]) if "Nothing Such" in d)
    assert f"ILLEGAL at decision {i + 1} (round " in r.stdout
    assert f"decision {i} " not in r.stdout
    assert "'Nothing Such' is not in player" in r.stdout
    assert "board at that point:" in r.stdout
    assert "legal decisions there:" in r.stdout


def test_ndjson_from_stdin_with_one_broken_line(logs):
    lines = [json.dumps(logs[0]), "{not json", json.dumps(logs[1])]
    r = run("-", stdin="\n".join(lines))
    assert r.returncode == 1
    assert r.stdout.count(": VALID:") == 2
    assert "<stdin>:2: MALFORMED" in r.stdout


def test_json_array_and_json_output(tmp_path, logs):
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps([logs[2], illegal(logs[3])]))
    r = run("--json", str(path))
    assert r.returncode == 1
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [row["status"] for row in rows] == ["valid", "illegal"]
    assert rows[1]["index"] is not None and rows[1]["legal"]
    # --json keeps the machine's 0-based index; its message names the decision as people count it
    i = next(k for k, d in enumerate(illegal(logs[3])["decisions"]) if "Nothing Such" in d)
    assert rows[1]["index"] == i and rows[1]["message"].startswith(f"decision {i + 1} (")


def test_a_log_that_stops_early_is_illegal_after_its_last_decision(tmp_path, logs):
    short = copy.deepcopy(logs[1])
    del short["decisions"][-3:]
    del short["result"]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(short))
    r = run(str(path))
    assert r.returncode == 1
    assert f"ILLEGAL at the end of the log, after decision {len(short['decisions'])} (round " in r.stdout


def test_usage_errors_exit_2(tmp_path):
    assert run(str(tmp_path / "missing.json")).returncode == 2
    assert run().returncode == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(str(empty)).returncode == 2


def test_the_command_line_loads_nothing_heavy_until_a_command_runs():
    # the group imports every command family; none may import the engine (simulate and balance
    # choose its build first) or the web stack (verify runs without it)
    probe = ("import sys, services.cli\n"
             "heavy = {'engine', 'flask', 'celery', 'psycopg', 'redis', 'requests', 'tqdm'}\n"
             "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert r.stdout.strip() == "[]"


def test_a_game_is_named_as_people_name_it_and_its_result_in_words(tmp_path):
    log = self_play(5, meta={"round": 3, "table": "14", "players": ["Ada", "Bo"]})
    (tmp_path / "g.json").write_text(json.dumps(log))
    r = run(str(tmp_path / "g.json"))
    winner = ["Ada", "Bo"][log["result"]["winner"] - 1]
    assert re.search(rf"g\.json \(R3 · T14 · Ada vs Bo\): VALID: {winner} wins \d–\d(, total might \d+–\d+)?: B1 "
                     rf"{re.escape(log['setup']['battlefields'][0])} ", r.stdout)
    assert "valid: " not in r.stdout and "might per battlefield" not in r.stdout
    [line] = run("--json", str(tmp_path / "g.json")).stdout.splitlines()[:1]
    assert json.loads(line)["game"] == "R3 · T14 · Ada vs Bo" and json.loads(line)["source"].endswith("g.json")
