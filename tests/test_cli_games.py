"""The command line and games of several kinds (issue 27): `empyrean games`; `--game` on the commands
that play, record or describe games (checked against the registry); verify and merge naming each log's
game. A second game is registered in this process where a test needs one (tests/second_game.py), so
those tests run the commands in-process (click's CliRunner)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner
from second_game import STAND_IN, of_game, second_game

from engine.bfe.selfplay import self_play
from engine.seats import as_recorded, seat_view
from services.cli import main as cli

PLAYING = [  # commands that take any registered game
    ["simulate", "--out", "never.ndjson"],
    ["balance", "--games", "1", "--out", "never.md"],
    ["record", "--out", "never.json"],  # another game than BfE: tests/test_cli_record_any_game.py
    ["catalog", "docs", "--out", "never.md"],  # the group takes --game: before its command
]


def with_game(args: list[str], game: str) -> list[str]:
    """The command line with --game: right after a group's name (catalog), else at the end."""
    return [args[0], "--game", game, *args[1:]] if args[0] == "catalog" else [*args, "--game", game]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "services.cli", *args], capture_output=True, text=True, timeout=120)


def test_empyrean_games_lists_the_registered_games():
    r = run("games")
    assert r.returncode == 0, r.stderr
    header, bfe, titans, elysian, steam = r.stdout.splitlines()
    assert header.split() == ["key", "game", "players", "a", "seat", "plays", "a"]
    assert bfe.split("  ")[0] == "bfe" and "Battle for Empyrean" in bfe and "2–3 players" in bfe
    assert bfe.endswith("deck")
    assert titans.split("  ")[0] == "titans" and "Titans of Empyrean" in titans and titans.endswith("species")
    assert elysian.split("  ")[0] == "elysian" and "2–5 players" in elysian and elysian.endswith("hero")
    assert steam.split("  ")[0] == "steam" and "Empyreal: Spells & Steam" in steam and "2–6 players" in steam
    assert steam.endswith("company")
    assert '4 game(s); a log without "game" is Battle for Empyrean (bfe)' in r.stderr
    with second_game():
        listed = CliRunner().invoke(cli, ["games"])
    assert listed.exit_code == 0
    assert [line.split()[0] for line in listed.stdout.splitlines()[1:]] == ["bfe", "titans", "elysian", "steam",
                                                                                 STAND_IN.key]


@pytest.mark.parametrize("args", PLAYING, ids=lambda a: a[0])
def test_an_unknown_game_is_refused_naming_the_games_there_are(args):
    r = run(*with_game(args, "nope"))
    assert r.returncode == 2
    assert "Invalid value for '--game': unknown game 'nope'; the games known here are bfe (Battle for Empyrean)" \
        in r.stderr


def test_the_game_played_is_taken_where_it_is_the_one_the_command_plays():
    r = run("cards", "--game", "bfe", "stun")
    assert r.returncode == 0 and "match(es) in catalog" in r.stderr
    assert "--game [bfe|titans|elysian|steam]" in run("record", "--help").stdout  # the choices come from the registry


def test_cards_searches_another_games_catalog_as_its_rules_give_it(tmp_path):
    """`empyrean cards --game K` searches K's catalog data (its rules' ``catalog_data``): the
    entries of its lists, each word of the query in an entry's line; an unknown version names the
    versions there are."""
    with second_game():
        found = CliRunner().invoke(cli, ["cards", "--game", STAND_IN.key, "stun", "token"])
        old = CliRunner().invoke(cli, ["cards", "--game", STAND_IN.key, "--catalog", "2026.1", "stun"])
        none = CliRunner().invoke(cli, ["cards", "--game", STAND_IN.key, "no-such-word-anywhere"])
        bad = CliRunner().invoke(cli, ["cards", "--game", STAND_IN.key, "--catalog", "1999.9"])
    lines = found.stdout.splitlines()
    assert found.exit_code == 0 and lines and all("stun" in ln.lower() and "token" in ln.lower() for ln in lines)
    assert any(" (cards) — " in ln for ln in lines)
    assert found.stderr.endswith("match(es) in catalog 2026.2\n") and old.stderr.endswith("catalog 2026.1\n")
    assert none.exit_code == 1 and none.stdout == ""
    assert bad.exit_code == 2 and "unknown catalog version '1999.9' of Stand-in of Empyrean" in bad.stderr


def test_verify_and_merge_name_each_logs_game(tmp_path):
    log = self_play(31, meta={"players": ["Ada", "Bo"]})
    (tmp_path / "bfe.json").write_text(json.dumps(log))
    with second_game():
        (tmp_path / "standin.json").write_text(json.dumps(of_game(self_play(32), STAND_IN.key)))
        result = CliRunner().invoke(cli, ["verify", str(tmp_path / "bfe.json"), str(tmp_path / "standin.json")])
        as_json = CliRunner().invoke(cli, ["verify", "--json", str(tmp_path / "standin.json")])
    assert result.exit_code == 0, result.output
    bfe_line, stand_in_line, summary = result.stdout.splitlines()
    assert bfe_line.startswith(f"{tmp_path / 'bfe.json'} (Ada vs Bo): VALID: ")
    assert bfe_line.endswith(" [Battle for Empyrean]")
    assert stand_in_line.endswith(f" [{STAND_IN.name}]") and summary == "2 game(s): 2 valid"
    assert json.loads(as_json.stdout)["game_key"] == STAND_IN.key
    # a game this process does not know: the log is malformed at /game, and no game is named
    r = run("verify", str(tmp_path / "standin.json"))
    assert r.returncode == 1 and "MALFORMED: /game: unknown game 'standin'" in r.stdout and "[" not in r.stdout

    full = as_recorded(log)
    for seat in (1, 2):
        (tmp_path / f"seat{seat}.json").write_text(json.dumps(seat_view(full, seat)))
    merged = run("merge", str(tmp_path / "seat1.json"), str(tmp_path / "seat2.json"), "-o", str(tmp_path / "m.json"))
    assert merged.returncode == 0 and merged.stdout.rstrip().endswith("[Battle for Empyrean]"), merged.stdout
