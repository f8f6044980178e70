"""`empyrean record`, run as a real process and driven through stdin: self-played games re-recorded
by typing the number of each logged line give back the same game (canonical form), from one seat
too; undo, resume, a typed line, a refused line, a concession and time called."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from engine.bfe.selfplay import self_play
from engine.log import canonical_hash, parse_log
from engine.position import position
from engine.replay import replay
from engine.seats import as_recorded, seat_view


def run(*args: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "services.cli", "record", *args], input=stdin,
                          capture_output=True, text=True, timeout=300)


def setup_args(log: dict, out) -> list[str]:
    args = ["--out", str(out), "--mode", log["setup"]["mode"], "--first-player", str(log["setup"]["first_player"]),
            "--catalog", log["catalog"]]
    for deck in log["setup"]["decks"]:
        args += ["--deck", deck]
    for bf in log["setup"]["battlefields"]:
        args += ["--battlefield", bf]
    if log["chance"].get("view"):
        args += ["--view", str(log["chance"]["view"])]
    return args


def typed(log: dict, upto: int | None = None) -> list[str]:
    """What a judge types to record ``log``: the number of each logged line among the legal answers
    the recorder shows (the line itself where the log writes a point the recorder applied by
    itself, e.g. a discard that showed itself in one seat's view)."""
    out = []
    lines = log["decisions"] if upto is None else log["decisions"][:upto]
    for k, line in enumerate(lines):
        legal = position({**log, "decisions": log["decisions"][:k], "result": None}).legal
        out.append(str(legal.index(line) + 1) if line in legal else line)
    return out


def same_game(path, log: dict) -> None:
    written = json.loads(path.read_text())
    assert replay(written).verdict.status == "valid"
    assert canonical_hash(parse_log(written)) == canonical_hash(parse_log(log))


@pytest.mark.parametrize(("seed", "players"), [(4401, 2), (4402, 3)])
def test_a_game_typed_by_numbers_is_recorded_as_it_was_played(tmp_path, seed, players):
    log = as_recorded(self_play(seed, players=players))
    out = tmp_path / "game.json"
    r = run(*setup_args(log, out), stdin="\n".join(typed(log)) + "\n")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    same_game(out, log)
    assert ": VALID:" in r.stdout and f"the log is in {out}" in r.stdout
    assert "Round 1, draft phase" in r.stdout and "applied by itself: " in r.stdout
    assert "  B1 " in r.stdout and "total" in r.stdout


def test_one_seat_is_recorded_without_the_others_draws(tmp_path):
    log = seat_view(as_recorded(self_play(4403)), 2)
    out = tmp_path / "seat.json"
    r = run(*setup_args(log, out), stdin="\n".join(typed(log)) + "\n")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    same_game(out, log)
    assert not re.search(r"^ +\d+  C draw P1 ", r.stdout, re.M)  # P1's draws are never asked ...
    assert re.search(r"^ +\d+  C draw P2 ", r.stdout, re.M)
    assert "C draw P1 ?" in r.stdout  # ... they are applied by themselves, unseen


def test_undo_then_the_same_answers_give_the_same_log_and_quit_then_resume_loses_nothing(tmp_path):
    log = as_recorded(self_play(4404))
    answers = typed(log)
    out = tmp_path / "game.json"
    first = answers[:20] + ["u", "u", "u"] + answers[17:40] + ["q"]
    r = run(*setup_args(log, out), "--player", "Ada", "--player", "Bo", "--event", "Spring Open", "--round", "2",
            "--table", "7", stdin="\n".join(first) + "\n")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    assert r.stdout.count("undone: ") == 3 and f"--resume {out}" in r.stdout
    saved = json.loads(out.read_text())
    assert saved["decisions"] == log["decisions"][:40]  # written after every decision, undo included
    assert saved["meta"] == {"event": "Spring Open", "round": 2, "table": "7", "players": ["Ada", "Bo"]}
    assert "P1 Ada" in r.stdout
    r = run("--resume", str(out), stdin="\n".join(answers[40:]) + "\n")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    same_game(out, {**log, "meta": saved["meta"]})


def test_a_typed_line_is_taken_and_a_line_the_rules_refuse_is_not(tmp_path):
    log = as_recorded(self_play(4405))
    answers = typed(log)
    out = tmp_path / "game.json"
    stdin = [log["decisions"][0], "P1 deploy Nothing Such to B1", "99", "nonsense", "b", "h"] + answers[1:5] + ["q"]
    r = run(*setup_args(log, out), stdin="\n".join(stdin) + "\n")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    assert json.loads(out.read_text())["decisions"] == log["decisions"][:5]
    assert "not taken: it is chance's turn" in r.stdout
    assert "there is no answer 99" in r.stdout and "cannot read the decision 'nonsense'" in r.stdout
    assert "hand [" in r.stdout and "undo the last decision" in r.stdout


def test_a_concession_ends_the_game(tmp_path):
    log = as_recorded(self_play(4406))
    out = tmp_path / "game.json"
    r = run(*setup_args(log, out), stdin="\n".join(typed(log, 50) + ["concede 1"]) + "\n")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    written = json.loads(out.read_text())
    assert written["decisions"][-1] == "P1 concede" and written["result"]["winner"] == 2
    assert "P1 conceded in round" in r.stdout


def test_time_called_stops_the_game_and_scores_the_tally(tmp_path):
    log = as_recorded(self_play(4407))
    out = tmp_path / "game.json"
    r = run(*setup_args(log, out), stdin="\n".join(typed(log, 60) + ["time"]) + "\n")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    written = json.loads(out.read_text())
    assert written["result"]["reason"] == "time" and written["result"]["time_rule"] == "tally"
    assert written["result"]["might"] == position(written).to_dict()["outcome"]["might"]
    assert "time was called in round" in r.stdout


def test_a_mash_up_deck_file_and_a_refused_setup(tmp_path):
    from engine.bfe.catalog import load_catalog

    cat = load_catalog()
    deck = [c.name for c in cat.decks["Cavalry of the Parthian Empire"]]
    (tmp_path / "mine.txt").write_text("# my deck\n" + "\n".join(deck) + "\n")
    out = tmp_path / "game.json"
    r = run("--out", str(out), "--deck", str(tmp_path / "mine.txt"), "--deck", "spectres", "--battlefield", "throne",
            "--battlefield", "river", "--battlefield", "fountain", "--first-player", "2", stdin="1\nq\n")
    assert r.returncode == 0, r.stdout + r.stderr
    saved = json.loads(out.read_text())
    assert saved["setup"]["decks"] == [{"name": "mine", "cards": deck}, "Spectres of the Necropolis"]
    assert saved["setup"]["battlefields"] == ["The Throne", "River of Rebirth", "The Fountain of Janus"]
    assert saved["setup"]["first_player"] == 2 and saved["decisions"][0].startswith("C draw P1 Archers")
    (tmp_path / "odd.json").write_text(json.dumps({"name": "Odd", "cards": deck[:23] + ["Lich"]}))
    odd = run("--out", str(tmp_path / "odd-game.json"), "--deck", str(tmp_path / "odd.json"), "--deck", "cavalry",
              "--battlefield", "throne", "--battlefield", "river", "--battlefield", "fountain", "--first-player", "1",
              stdin="")
    assert odd.returncode == 2 and "/setup/decks/0/cards" in odd.stdout and "mash-up deck 'Odd'" in odd.stdout
    (tmp_path / "list.json").write_text(json.dumps(deck))
    listed = run("--out", str(tmp_path / "list-game.json"), "--deck", str(tmp_path / "list.json"),
                 "--first-player", "1", stdin="")
    assert listed.returncode == 2 and "a mash-up deck file holds a JSON object" in listed.stderr
    bad = run("--out", str(tmp_path / "bad.json"), "--deck", "No Such", "--deck", "cavalry", "--battlefield", "throne",
              "--battlefield", "river", "--battlefield", "fountain", "--first-player", "1", stdin="")
    assert bad.returncode == 2 and "MALFORMED" in bad.stdout and "/setup/decks/0" in bad.stdout
    assert not (tmp_path / "bad.json").exists()
    again = run("--out", str(out), "--deck", "cavalry", "--first-player", "1", stdin="")
    assert again.returncode == 2 and "--resume" in again.stderr


def position_at(log: dict, k: int) -> dict:
    unfinished = {key: value for key, value in log.items() if key != "result"}
    return position({**unfinished, "decisions": log["decisions"][:k]}).to_dict()


def test_target_questions_name_the_cards_and_a_card_is_taken_by_the_start_of_its_name(tmp_path):
    import io

    from services.cli.record import Recorder, answer_by_name, show

    log = self_play(4400)
    k = next(k for k, line in enumerate(log["decisions"]) if " choose P" in line)
    pos = position_at(log, k)
    assert pos["legal"] == ["P1 choose P1:B3Z1", "P1 choose P1:B3Z2"]
    shown: list[str] = []
    show(pos, [], lambda text="", nl=True: shown.append(text))
    assert "    1  P1 choose P1:B3Z1  (Fortress Walls)" in shown and "    2  P1 choose P1:B3Z2  (Chariots)" in shown
    assert answer_by_name("CHAR", pos["legal"], pos["board"]) == ("P1 choose P1:B3Z2", "")
    assert answer_by_name("zz", pos["legal"], pos["board"]) == (None, "")

    # at a prompt: 'chariots' is taken as the answer naming the Chariots; a name no answer has is not
    unfinished = {key: value for key, value in log.items() if key != "result"}
    recorder = Recorder({**unfinished, "decisions": log["decisions"][:k]}, tmp_path / "game.json",
                        io.StringIO("zz\nchariots\n"), lambda text="", nl=True: shown.append(text))
    after = recorder.step(pos)
    assert recorder.log["decisions"][-1] == "P1 choose P1:B3Z2" and after["decisions"] == k + 1
    assert any("cannot read the decision 'zz'" in line for line in shown)


def test_a_name_that_several_answers_share_asks_for_the_number():
    from services.cli.record import answer_by_name

    log = self_play(4400)
    pos = position_at(log, 2)  # P1's first deploy: three cards, each to any of three battlefields
    assert "P1 deploy Fortress Walls to B3" in pos["legal"]
    assert answer_by_name("fort", pos["legal"], pos["board"]) == (
        None, "3 answers name Fortress Walls: type the number of the one you mean")
    pile = ["P1 keep Soul of the Living", "P1 keep Soul of the Powerful"]
    assert answer_by_name("soul of the", pile, None) == (
        None, "'soul of the' starts 2 cards' names (Soul of the Living, Soul of the Powerful): type more of it")
    assert answer_by_name("soul of the l", pile, None) == ("P1 keep Soul of the Living", "")


def test_from_one_seat_a_concession_and_time_called_count_the_same_unseen_cards(tmp_path):
    """What one seat leaves out after its last line (the other's draws and keeps, taken unseen) is
    written out before a concession, so 'concede 2' ends the game where 'time' would."""
    log = seat_view(as_recorded(self_play(4408)), 1)
    k = next(k for k in range(5, len(log["decisions"])) if position_at(log, k)["left_out"])
    left_out = [p["default"] for p in position_at(log, k)["left_out"]]
    conceded, timed = tmp_path / "conceded.json", tmp_path / "timed.json"
    for out, ending in ((conceded, "concede 2"), (timed, "time")):
        r = run(*setup_args(log, out), stdin="\n".join(typed(log, k) + [ending]) + "\n")
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    written = json.loads(conceded.read_text())
    assert written["decisions"] == log["decisions"][:k] + left_out + ["P2 concede"]
    assert replay(written).verdict.unseen == replay(json.loads(timed.read_text())).verdict.unseen


def test_a_game_played_digitally_is_recorded_with_its_seed_and_no_chance_line_asked(tmp_path):
    log = self_play(4409)
    out = tmp_path / "seeded.json"
    r = run(*setup_args(log, out), "--seed", str(log["chance"]["seed"]), stdin="\n".join(typed(log)) + "\n")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    same_game(out, log)
    assert json.loads(out.read_text())["chance"] == log["chance"] and "chance decides" not in r.stdout
