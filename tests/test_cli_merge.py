"""`empyrean merge`: seat views of one game merged into one log, or not at all — run as a real
process."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys

from engine.bfe.selfplay import self_play
from engine.replay import replay
from engine.seats import as_recorded, seat_view


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "services.cli", "merge", *args], capture_output=True, text=True,
                          check=False, timeout=120)


def test_two_seats_merge_into_the_whole_game(tmp_path):
    full = as_recorded(self_play(21, meta={"event": "Table Open", "players": ["Ada", "Bo"]}))
    for seat in (1, 2):
        (tmp_path / f"seat{seat}.json").write_text(json.dumps(seat_view(full, seat)))
    out = tmp_path / "game.json"
    r = run(str(tmp_path / "seat1.json"), str(tmp_path / "seat2.json"), "-o", str(out))
    assert r.returncode == 0, r.stderr
    merged = json.loads(out.read_text())
    assert merged["decisions"] == full["decisions"] and merged["chance"] == {"type": "recorded"}
    assert merged["meta"] == full["meta"]
    assert f"merged 2 logs into {out}: VALID: " in r.stdout
    assert re.search(r" wins \d–\d(, total might \d+–\d+)?: B1 ", r.stdout)
    to_stdout = run(str(tmp_path / "seat2.json"), str(tmp_path / "seat1.json"))
    assert to_stdout.returncode == 0 and json.loads(to_stdout.stdout)["decisions"] == full["decisions"]


def test_seats_that_disagree_are_not_merged_and_nothing_is_written(tmp_path):
    full = as_recorded(self_play(22))
    a, b = seat_view(full, 1), seat_view(full, 2)
    bad = copy.deepcopy(b)
    i = next(k for k, d in enumerate(bad["decisions"]) if d.startswith("P2 deploy "))
    shown = bad["decisions"][i].split(" deploy ")[1].rsplit(" to ", 1)[0]
    other = next(d.split(" deploy ")[1].rsplit(" to ", 1)[0] for d in bad["decisions"]
                 if d.startswith("P2 deploy ") and shown not in d)
    bad["decisions"][i] = bad["decisions"][i].replace(shown, other)
    (tmp_path / "a.json").write_text(json.dumps(a))
    (tmp_path / "b.json").write_text(json.dumps(bad))
    out = tmp_path / "game.json"
    r = run(str(tmp_path / "a.json"), str(tmp_path / "b.json"), "-o", str(out))
    assert r.returncode == 1 and not out.exists()
    assert "not merged:" in r.stderr and "nothing was written" in r.stderr
    if replay(bad).verdict.status in ("valid", "mismatch"):  # both legal: the decision both saw differs
        assert f"a.json: {a['decisions'][i]}" in r.stderr and f"b.json: {bad['decisions'][i]}" in r.stderr
    else:  # the changed log broke the rules: said so
        assert "b.json is not a legal game" in r.stderr


def test_usage_errors_exit_2(tmp_path):
    (tmp_path / "a.json").write_text("{}")
    assert run(str(tmp_path / "a.json")).returncode == 2
    assert run(str(tmp_path / "a.json"), str(tmp_path / "missing.json")).returncode == 2


def test_an_illegal_seat_view_is_named_by_its_decision_number_counted_from_1(tmp_path):
    full = as_recorded(self_play(23))
    a, b = seat_view(full, 1), seat_view(full, 2)
    i = next(k for k, d in enumerate(b["decisions"]) if d.startswith("P2 deploy "))
    b["decisions"][i] = "P2 deploy Nothing Such to B1"
    (tmp_path / "a.json").write_text(json.dumps(a))
    (tmp_path / "b.json").write_text(json.dumps(b))
    r = run(str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    assert r.returncode == 1
    assert f"b.json is not a legal game, so it cannot be merged: decision {i + 1} ('P2 deploy Nothing Such to B1')" \
        in r.stderr
