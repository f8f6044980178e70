"""`empyrean record --game KEY` for games other than Battle for Empyrean (the lines mode at a
terminal), driven through stdin in this process (click's CliRunner) with the test games Pips and
Pips by rank registered meanwhile, and with Titans: self-played games re-recorded by typing the number
of each logged line give back the same game (canonical form) and verify valid, in seeded and recorded
chance and from one seat; the setup asked field by field, as JSON, or given by --setup, each refusal
naming its field; undo, a typed line, a refused line, the frame, a concession, quit and resume."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine import games
from engine.log import canonical_hash, parse_log
from engine.position import position
from engine.replay import replay
from engine.seats import as_recorded, seat_view
from services.cli import main as cli

GAMES_DIR = Path(__file__).resolve().parent / "games"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def pips(monkeypatch):
    monkeypatch.syspath_prepend(str(GAMES_DIR))
    import pips

    games.register(pips.RULES)
    games.register(pips.RANKED_RULES)
    yield pips
    games.unregister(pips.KEY)
    games.unregister(pips.RANKED_KEY)


def unfinished(log: dict) -> dict:
    return {k: v for k, v in log.items() if k != "result"}


def typed(log: dict, upto: int | None = None) -> list[str]:
    """What is typed to record ``log``: the number of each logged line among the legal answers shown
    (the line itself where the log writes a point the recorder applied by itself)."""
    out = []
    for k, line in enumerate(log["decisions"][:upto]):
        legal = position({**unfinished(log), "decisions": log["decisions"][:k]}).legal
        out.append(str(legal.index(line) + 1) if line in legal else line)
    return out


def record(*args: str, stdin: list[str]):
    return CliRunner().invoke(cli, ["record", *args], input="\n".join(stdin) + "\n")


def written(out: Path) -> dict:
    return json.loads(out.read_text(encoding="utf-8"))


def same_game(out: Path, log: dict) -> dict:
    """The written log verifies valid and is ``log`` (canonical form), its claimed result as written."""
    got = written(out)
    assert replay(got).verdict.status == "valid"
    want = {**unfinished(log), **({"result": got["result"]} if "result" in got else {})}
    assert canonical_hash(parse_log(got)) == canonical_hash(parse_log(want))
    return got


@pytest.mark.parametrize("view", [None, 2])
def test_a_pips_game_with_recorded_chance_is_asked_field_by_field_and_recorded_as_played(pips, tmp_path, view):
    log = as_recorded(pips.RULES.self_play(5101, factions=["green", "red"]))
    if view is not None:
        log = seat_view(log, view)
    out = tmp_path / "pips.json"
    colours = ["pink", "gr", "1"]  # a colour that is none is asked again; a start of a name, or a number
    r = record("--game", "pips", "--out", str(out), *(["--view", str(view)] if view else []),
               stdin=colours + typed(log))
    assert r.exit_code == 0, r.output[-2000:]
    got = same_game(out, log)
    assert got["setup"] == {"colours": ["green", "red"]} and got["chance"] == log["chance"]
    assert got["result"] == {"winner": log["result"]["winner"]}  # the winner the rules give, claimed
    assert "P1's colour: 1 red  2 blue  3 green [red]" in r.output
    assert "P1's colour: 'pink' is none of red, blue, green: type its number or its name" in r.output
    assert re.search(r"^  draw\n +1  C draw P\d \d$", r.output, re.M)  # the lines grouped by their verb
    assert "chance decides: the card P2 draws" in r.output and "  P1  taken 0" in r.output
    assert ": VALID: " in r.output and r.output.rstrip().endswith(f"the log is in {out}")
    if view:
        assert not re.search(r"^ +\d+  C draw P1 ", r.output, re.M)  # the other seat's draws are never asked


def test_a_pips_game_with_seeded_chance_asks_only_the_players(pips, tmp_path):
    log = pips.RULES.self_play(5102, factions=["red", "blue"])
    out = tmp_path / "seeded.json"
    r = record("--game", "pips", "--out", str(out), "--seed", str(log["chance"]["seed"]), "--player", "Ada",
               "--player", "Bo", "--event", "Spring Open", "--round", "2", "--table", "7",
               stdin=["", ""] + typed(log))  # empty answers take each field's default
    assert r.exit_code == 0, r.output[-2000:]
    got = same_game(out, {**log, "meta": {"event": "Spring Open", "round": 2, "table": "7", "players": ["Ada", "Bo"]}})
    assert got["result"] == log["result"] and got["chance"] == log["chance"]
    assert "chance decides" not in r.output and "  P1 Ada  taken 0" in r.output


def test_pips_by_rank_asks_how_many_play_and_claims_no_result(pips, tmp_path):
    log = as_recorded(pips.RANKED_RULES.self_play(5103, players=3, factions=["red", "blue", "yellow"]))
    out = tmp_path / "ranked.json"
    r = record("--game", "pipsrank", "--out", str(out), stdin=["5", "3", "", "", "yellow"] + typed(log))
    assert r.exit_code == 0, r.output[-2000:]
    got = same_game(out, log)
    assert "result" not in got  # its result is ranks: the verdict says how it ended
    assert "How many players (2–4)? [2]" in r.output and "players: '5' is not a number from 2 to 4" in r.output
    assert "P4's colour" not in r.output and "pips 0" in r.output
    named = record("--game", "pipsrank", "--out", str(tmp_path / "named.json"), "--player", "A", "--player", "B",
                   stdin=["", "", "q"])  # as many players as named: not asked
    assert named.exit_code == 0 and "How many players" not in named.output
    assert written(tmp_path / "named.json")["setup"] == {"colours": ["red", "blue"]}
    five = record("--game", "pipsrank", "--out", str(tmp_path / "five.json"), *[f"--player={n}" for n in "ABCDE"],
                  stdin=[])
    assert five.exit_code == 2 and "Invalid value for --player: 5 players named; Pips by rank (test game) is for " \
        "2–4 players" in five.output


@pytest.mark.parametrize("chance", ["seeded", "recorded"])
def test_a_titans_game_set_up_by_setup_is_recorded_as_played(tmp_path, chance):
    played = games.rules_for("titans").self_play(5104)
    log = played if chance == "seeded" else as_recorded(played)
    out = tmp_path / "titans.json"
    (tmp_path / "setup.json").write_text(json.dumps(log["setup"]))
    seed = ["--seed", str(played["chance"]["seed"])] if chance == "seeded" else []
    r = record("--game", "titans", "--out", str(out), "--setup", "@" + str(tmp_path / "setup.json"), *seed,
               stdin=typed(log))
    assert r.exit_code == 0, r.output[-2000:]
    got = same_game(out, log)
    assert got["result"] == {"winner": played["result"]["winner"]}
    assert "Round 1, action — decision 1" in r.output and "unturned" in r.output
    assert "[Titans of Empyrean]" in r.output


def test_the_elysian_table_game_is_recorded_at_a_prompt_as_played(tmp_path):
    """The docs' three-player table game typed in at `empyrean record --game elysian`: the player count
    asked as its setup's one field, every roll, tile and set of dice typed as a numbered line."""
    log = json.loads((ROOT / "docs" / "examples" / "elysian-table-game.json").read_text(encoding="utf-8"))
    out = tmp_path / "elysian.json"
    r = record("--game", "elysian", "--out", str(out), "--player", "Ada", "--player", "Bram", "--player", "Cyd",
               stdin=["3"] + typed(log))
    assert r.exit_code == 0, r.output[-2000:]
    got = written(out)
    assert replay(got).verdict.status == "valid" and got["decisions"] == log["decisions"]
    assert got["setup"] == {"players": 3} and "result" not in got  # ranks: the verdict says how it ended
    assert [s.rank for s in replay(got).outcome.seats] == log["result"]["ranks"]
    assert "[Elysian Battlefields]" in r.output and re.search(r"^  dice\n +1  C dice 1 1 1$", r.output, re.M)



def test_the_start_of_the_steam_table_game_is_recorded_at_a_prompt_as_played(tmp_path):
    """The docs' Spells & Steam table game typed in at `empyrean record --game steam` up to the pick
    written late and past it: its setup (players, map, variants; teams would go there too) asked as its
    log writes it, its lists of seats being more than the form draws; the chance lines, one tile a
    line, chosen by number like the rest; the late pick typed as a line (no answer of the point shown);
    then saved to go on."""
    log = json.loads((ROOT / "docs" / "examples" / "steam-table-game.json").read_text(encoding="utf-8"))
    start = {**log, "decisions": log["decisions"][:200]}
    answers = typed(start)
    assert all(a.isdigit() for a in answers[:9]) and "P1 hires doc-silnan" in answers  # C start … C market …
    out = tmp_path / "steam.json"
    r = record("--game", "steam", "--out", str(out), "--player", "Ada", "--player", "Bram", "--player", "Cyd",
               stdin=[json.dumps(log["setup"])] + answers + ["q"])
    assert r.exit_code == 0, r.output[-2000:]
    assert "The setup of Empyreal: Spells & Steam, as its log writes it (JSON on one line)" in r.output
    assert "not taken" not in r.output and "chance decides: a spellcar dealt to the market\n" in r.output
    assert re.search(r"^  market\n +1  C market arctic-shocker$", r.output, re.M)  # every spellcar still to deal
    assert "  still open: P1 choosing a specialist from the surveyor stack — left as 'P1 hires later' unless its " \
           "line is typed, e.g. 'P1 hires aella-ivaline-oranhei'" in r.output
    got = written(out)
    assert got["setup"] == log["setup"] and got["decisions"] == start["decisions"]
    assert got["meta"]["players"] == ["Ada", "Bram", "Cyd"] and position(got).status == "in progress"
    assert f"saved 200 decision(s) to {out}" in r.output


def test_a_steam_setup_is_refused_naming_its_field(tmp_path):
    out = tmp_path / "never.json"
    teams = record("--game", "steam", "--out", str(out), "--setup",
                   '{"players": 4, "teams": [[1, 3], [2, 4]], "variants": ["awards"]}', stdin=[])
    assert teams.exit_code == 2 and "MALFORMED: /setup/variants: a team game is played without awards" \
        in teams.output, teams.output
    board = record("--game", "steam", "--out", str(out), "--setup", '{"players": 6, "map": "A"}', stdin=[])
    assert board.exit_code == 2 and "/setup/map: a 6-player game is played on map C, not A" in board.output, \
        board.output
    assert not out.exists()

def test_a_setup_the_form_cannot_draw_is_asked_as_json_and_a_saved_game_goes_on(tmp_path):
    from services.games.setup_form import setup_form

    out = tmp_path / "titans.json"
    example = setup_form("titans").example
    r = record("--game", "titans", "--out", str(out), stdin=["[1]", "{not json", "", "1", "b", "u", "u", "q"])
    assert r.exit_code == 0, r.output[-2000:]
    said = "as its log writes it (JSON on one line); an empty line takes this one:\n  " + json.dumps(example)
    assert said in r.output
    assert "the setup: a JSON object" in r.output and "the setup: not JSON that reads" in r.output
    assert "  titans: [" in r.output  # b: the frame of the moment, each part as the engine writes it
    assert "undone: " in r.output and "nothing to undo: no decision is written yet" in r.output
    saved = written(out)
    assert saved["setup"] == example and saved["decisions"] == [] and saved["game"] == "titans"
    log = as_recorded(games.rules_for("titans").self_play(0))  # the game the example's setup comes from
    assert log["setup"] == example
    resumed = record("--resume", str(out), stdin=typed(log, 3) + ["q"])
    assert resumed.exit_code == 0, resumed.output[-2000:]
    assert written(out)["decisions"] == log["decisions"][:3]
    other = record("--resume", str(out), "--game", "bfe", stdin=[])
    assert other.exit_code == 2 and "is a game of Titans of Empyrean (titans), not Battle for Empyrean (bfe)" \
        in other.output


def test_the_game_loop_takes_lines_refuses_others_and_ends_by_concession(pips, tmp_path):
    log = as_recorded(pips.RULES.self_play(5106, factions=["red", "blue"]))
    out = tmp_path / "pips.json"
    answers = typed(log)
    stdin = ["", ""] + [log["decisions"][0], "P2 play 3", "P1 play 9", "99", "h", "time", "concede 3"] \
        + answers[1:4] + ["concede 1"]
    r = record("--game", "pips", "--out", str(out), stdin=stdin)
    assert r.exit_code == 0, r.output[-2000:]
    got = written(out)
    assert got["decisions"] == log["decisions"][:4] + ["P1 concede"] and got["result"] == {"winner": 2}
    assert "not taken: cannot read 'P1 play 9': '9' is no card value (1 to 4)" in r.output
    assert re.search(r"not taken: .+", r.output.split("P2 play 3", 1)[1])  # the rules' words why not
    assert "there is no answer 99: type 1 to " in r.output and "there is no player 3: concede 1 to 2" in r.output
    assert "write that decision as the log writes it" in r.output and "the lines mode knows none" in r.output
    assert ": VALID: P1 conceded in round" in r.output


def test_a_setup_is_refused_naming_its_field(pips, tmp_path):
    out = tmp_path / "never.json"
    bad = record("--game", "pips", "--out", str(out), "--setup", '{"colours": ["red", "pink"]}', stdin=[])
    assert bad.exit_code == 2 and "MALFORMED: /setup/colours/1: " in bad.output
    assert re.search(r"^  P2's colour: .*pink", bad.output, re.M)
    cases = [(["--setup", "{no"], "Invalid value for --setup: not JSON that reads"),
             (["--setup", "[]"], "Invalid value for --setup: the setup is a JSON object"),
             (["--setup", "@" + str(tmp_path / "none.json")], "Invalid value for --setup: cannot read "),
             (["--catalog", "7"], "Invalid value for --catalog: unknown catalog version '7' of Pips (test game); "
                                  "there are 1"),
             (["--deck", "cavalry", "--mode", "3p"],
              "--mode, --deck set up Battle for Empyrean (bfe); Pips (test game) (pips) is set up at the prompts, or "
              "with --setup")]
    for args, said in cases:
        r = record("--game", "pips", "--out", str(out), *args, stdin=[])
        assert r.exit_code == 2 and said in " ".join(r.output.split()), (args, r.output)
    ended = record("--game", "pips", "--out", str(out), stdin=["red"])
    assert ended.exit_code == 2 and "the input ended before the setup was complete: nothing is written" in ended.output
    bfe = record("--out", str(out), "--setup", "{}", stdin=[])
    assert bfe.exit_code == 2 and "--setup sets up a game other than Battle for Empyrean" in bfe.output
    assert not out.exists()


def test_fields_of_every_kind_read_as_typed():
    from services.cli.record_lines import put, read_field
    from services.games.setup_form import Field

    number = Field(("size",), "Size", "number", None, limits={"minimum": 1})
    text = Field(("name",), "Name", "text", "", required=False)
    check = Field(("fast",), "Fast", "check", True, required=False)
    assert read_field(number, "12") == (12, "") and read_field(number, "x") == (None, "'x' is not a whole number")
    assert read_field(number, "") == (None, "it is needed")
    assert read_field(text, "Ada") == ("Ada", "") and read_field(text, "")[1] == ""
    assert read_field(check, "n") == (False, "") and read_field(check, "") == (True, "")
    assert read_field(check, "maybe") == (None, "'maybe': type y or n")
    setup: dict = {}
    put(setup, ("colours", 1), "blue")
    put(setup, ("colours", 0), "red")
    put(setup, ("rows", 0, "size"), 3)
    assert setup == {"colours": ["red", "blue"], "rows": [{"size": 3}]}
