"""The tournament simulator and the balance report for a game other than Battle for Empyrean: the
test game Pips (tests/games/pips.py). The command-line tests run `empyrean` in a process of its own
that registers Pips as a deployment registers a game (EMPYREAN_EXTRA_GAMES); the others register it
in this process for as long as they need it."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine import games
from engine.replay import replay
from engine.rng import SplitMix64
from services.cli import main as cli
from services.simulation import balance
from services.simulation.simulate import SimConfig, make_illegal, simulate

GAMES_DIR = Path(__file__).resolve().parent / "games"


def empyrean(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, EMPYREAN_EXTRA_GAMES="pips:RULES", PYTHONPATH=str(GAMES_DIR), EMPYREAN_ENGINE="python")
    return subprocess.run([sys.executable, "-m", "services.cli", *args], env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture
def pips(monkeypatch):
    monkeypatch.syspath_prepend(str(GAMES_DIR))
    import pips

    games.register(pips.RULES)
    yield pips
    games.unregister("pips")


def test_a_simulated_pips_event_verifies_with_the_expected_counts_where_it_says(tmp_path):
    out, expected = tmp_path / "pips.ndjson", tmp_path / "pips.expected.json"
    made = empyrean("simulate", "--game", "pips", "--players", "12", "--rounds", "3", "--bot", "random",
                    "--flawed", "0.6", "--seed", "6", "--out", str(out), "--expected", str(expected))
    assert made.returncode == 0, made.stderr
    want = json.loads(expected.read_text())
    assert want["matches"] == 12 // 2 * 3 and all(want["flaws"].values()), want
    uploads = [json.loads(line) for line in out.read_text().splitlines()]
    assert {log["game"] for log in uploads} == {"pips"} and len(uploads) == want["uploads"]

    verified = empyrean("verify", "--json", str(out))
    verdicts = [json.loads(line) for line in verified.stdout.splitlines()]
    assert Counter(v["status"] for v in verdicts) == Counter({k: n for k, n in want["verify"].items() if n})
    for log, v in zip(uploads, verdicts):
        if v["status"] == "illegal":  # a player's line written elsewhere in the same log, refused where it was put
            lines = log["decisions"]
            bad = lines[v["index"]]
            assert bad.startswith("P") and bad in lines[:v["index"]] + lines[v["index"] + 1:], (bad, lines)
            assert v["rule"]
        elif v["status"] == "mismatch":  # a claimed winner the rules disagree with
            assert [e["path"] for e in v["errors"]] == ["/result/winner"]


def test_the_pool_and_the_bot_reach_the_games_and_unknown_ones_are_named(pips, tmp_path):
    bundle = simulate(SimConfig(game="pips", factions=["red", "green"], bot="greedy", players=6, rounds=2, seed=2))
    for log in bundle.uploads:
        assert set(log["setup"]["colours"]) <= {"red", "green"}
        again = pips.RULES.self_play(log["chance"]["seed"], bot="greedy", factions=log["setup"]["colours"],
                                     meta=log["meta"])
        assert again == log
    out = str(tmp_path / "x.json")
    refused = CliRunner().invoke(cli, ["simulate", "--game", "pips", "--deck", "purple", "--out", out])
    assert refused.exit_code == 2
    assert "unknown colour(s) purple; Pips (test game) has blue, green, red" in refused.output
    refused = CliRunner().invoke(cli, ["simulate", "--game", "pips", "--bot", "clever", "--out", out])
    assert refused.exit_code == 2 and "unknown bot 'clever'" in refused.output
    refused = CliRunner().invoke(cli, ["simulate", "--game", "pips", "--catalog", "2026.2", "--out", out])
    assert refused.exit_code == 2 and "unknown catalog version '2026.2' of Pips (test game); there are 1" \
        in refused.output
    assert not (tmp_path / "x.json").exists()


def test_the_catalog_named_is_the_one_the_games_are_played_under(tmp_path):
    """--catalog reaches every game of the bundle (Battle for Empyrean's older catalog here), and the
    balance report's games are played under the version it is given."""
    out = tmp_path / "old.ndjson"
    made = CliRunner().invoke(cli, ["simulate", "--players", "4", "--rounds", "1", "--catalog", "2026.1",
                                    "--out", str(out)])
    assert made.exit_code == 0, made.output
    assert {json.loads(line)["catalog"] for line in out.read_text().splitlines()} == {"2026.1"}
    with pytest.raises(KeyError):
        balance.run(2, bot="random", catalog="1999.9")


class ConcededAtOnce:
    """Pips whose every self-played game P1 concedes before any card is played: no player line is
    written but the concession, so no decision of it can be made illegal."""

    def __init__(self, rules):
        self._rules = rules
        self.info = dataclasses.replace(rules.info, key="pipsconceded", name="Pips, conceded at once")

    def __getattr__(self, name):
        return getattr(self._rules, name)

    def self_play(self, seed, **kw):
        log = self._rules.self_play(seed, **kw)
        return {**log, "game": self.info.key, "decisions": ["P1 concede"], "result": {"winner": 2}}


def test_a_game_with_no_decision_to_make_illegal_gets_another_flaw_and_the_counts_stay_exact(pips):
    rules = ConcededAtOnce(pips.RULES)
    games.register(rules)
    try:
        log = rules.self_play(5, meta={"event": "x"})
        assert replay(log).verdict.status == "valid"
        assert make_illegal(log, SplitMix64(1)) is None
        bundle = simulate(SimConfig(game=rules.info.key, players=8, rounds=3, flawed=1.0, bot="random", seed=3))
        statuses = Counter(replay(upload, record=False).verdict.status for upload in bundle.uploads)
    finally:
        games.unregister(rules.info.key)
    # every match flawed, none illegal: the illegal draws became wrong results
    assert bundle.flaws["illegal"] == 0 and sum(bundle.flaws.values()) == bundle.matches == 12
    assert bundle.flaws["wrong_result"] > 0
    assert statuses == Counter({k: n for k, n in bundle.expected()["verify"].items() if n})


def test_the_balance_report_of_pips_names_the_game_and_exits_1_when_a_colour_is_outside_the_band(tmp_path):
    narrow, wide = tmp_path / "narrow.md", tmp_path / "wide.md"
    done = empyrean("balance", "--game", "pips", "--games", "120", "--bot", "random", "--jobs", "2",
                    "--band", "0.9", "1.0", "--out", str(narrow))
    assert done.returncode == 1, done.stderr
    assert "outside the band: " in done.stdout and "red" in done.stdout
    text = narrow.read_text()
    assert text.startswith("# Balance report: Pips (test game)\n")
    assert "--game pips --games 120 --bot random --seed 1 --catalog 1 --band 0.9 1.0" in text
    assert "between 90% and 100%. **Not every colour is inside it.**" in text and "| **no** |" in text
    done = empyrean("balance", "--game", "pips", "--games", "120", "--bot", "random", "--jobs", "1",
                    "--band", "0", "1", "--out", str(wide))
    assert done.returncode == 0 and "every colour in band" in done.stdout, done.stdout + done.stderr

    def rows(path):  # each colour's counts; the same games whatever the jobs
        return [line.split(" | ")[:6] for line in path.read_text().splitlines() if line.startswith("| ")]

    assert rows(narrow) == rows(wide)
    refused = empyrean("balance", "--game", "pips", "--games", "1", "--band", "0.7", "0.2", "--out", str(wide))
    assert refused.returncode == 2 and "--band" in refused.stderr


def test_a_draw_is_not_a_win_and_each_game_has_its_own_band(pips):
    tallies = balance.run(200, game="pips", bot="random", seed=2)
    assert sorted(tallies) == ["blue", "green", "red"]
    wins = sum(t.wins for t in tallies.values())
    draws = sum(t.draws for t in tallies.values())
    assert draws > 0 and wins + draws // 2 == 200  # a drawn game is two seats' draw, no seat's win
    assert all(t.wins + t.draws + t.losses == t.games for t in tallies.values())
    assert balance.band_for("bfe") == (0.35, 0.65) and balance.band_for("pips") == balance.DEFAULT_BAND == (0.4, 0.6)
    text = balance.render(tallies, games=200, bot="random", seed=2, catalog=None, command="x", seconds=1, game="pips")
    assert "Target: every colour between 40% and 60%." in text and "catalog" not in text
    assert balance.outside(tallies, (0.0, 1.0)) == []


def test_the_report_counts_how_the_games_ended(pips):
    """With ``endings``, run counts each game's ending (its outcome's ``how``) and the report has a
    table of them, so that a way of winning that no game reaches shows; without, neither."""
    endings: Counter = Counter()
    tallies = balance.run(60, game="pips", bot="random", seed=5, endings=endings)
    assert sum(endings.values()) == 60 and set(endings) <= {"score", "concession", "time"}
    text = balance.render(tallies, games=60, bot="random", seed=5, catalog=None, command="x", seconds=1, game="pips",
                          endings=endings)
    assert "## How the games ended" in text
    for how, n in endings.items():
        assert f"| {how} | {n} | {n / 60:.1%} |" in text
    assert "How the games ended" not in balance.render(tallies, games=60, bot="random", seed=5, catalog=None,
                                                       command="x", seconds=1, game="pips")


@pytest.fixture
def pipsrank(pips):
    games.register(pips.RANKED_RULES)
    yield pips.RANKED_RULES
    games.unregister("pipsrank")


def test_rounds_seat_the_tables_asked_for_in_turn_the_lowest_placed_left_over_with_a_bye(pipsrank):
    """seats=(2, 4, 3) over 4 rounds of 10 players: 5 pairs, 2 fours (2 byes), 3 threes (1 bye), 5 pairs.
    Each round seats everyone once but the byes; larger tables seat the standings in order, the byes
    going to the lowest placed; every game is the bot playing its players' colours at that size."""
    bundle = simulate(SimConfig(game="pipsrank", players=10, rounds=4, seats=(2, 4, 3), bot="random", seed=4))
    by_round: dict[int, list[dict]] = {}
    for log in bundle.uploads:
        by_round.setdefault(log["meta"]["round"], []).append(log)
    assert {rnd: [len(log["meta"]["players"]) for log in logs] for rnd, logs in by_round.items()} == \
        {1: [2] * 5, 2: [4] * 2, 3: [3] * 3, 4: [2] * 5}
    assert (bundle.matches, bundle.byes) == (15, 3)
    standings = Counter({f"Player {i:02d}": 0.0 for i in range(1, 11)})
    for rnd, logs in sorted(by_round.items()):
        seated = [name for log in logs for name in log["meta"]["players"]]
        assert len(seated) == len(set(seated))
        left_over = set(standings) - set(seated)
        if len(logs[0]["meta"]["players"]) > 2:  # in order of standing, table by table, the byes last
            places = [[standings[name] for name in log["meta"]["players"]] for log in logs]
            places.append([standings[name] for name in left_over])
            assert all(min(a) >= max(b) for a, b in zip(places, places[1:]) if b), places
        for name in left_over:
            standings[name] += 1
        for log in logs:
            n = len(log["meta"]["players"])
            assert len(log["setup"]["colours"]) == n
            assert pipsrank.self_play(log["chance"]["seed"], bot="random", players=n,
                                      factions=log["setup"]["colours"], meta=log["meta"]) == log
            for seat, name in zip(replay(log).outcome.seats, log["meta"]["players"]):
                standings[name] += 1 if seat.won else 0.5 if seat.rank == 1 else 0


def test_seats_reach_the_command_and_a_table_the_game_cannot_seat_is_refused(pipsrank, tmp_path):
    out = tmp_path / "tables.ndjson"
    made = CliRunner().invoke(cli, ["simulate", "--game", "pipsrank", "--players", "6", "--rounds", "2",
                                    "--seats", "3", "--seats", "2", "--out", str(out)])
    assert made.exit_code == 0, made.output
    tables = [len(json.loads(line)["meta"]["players"]) for line in out.read_text().splitlines()]
    assert tables == [3, 3, 2, 2, 2]
    refused = CliRunner().invoke(cli, ["simulate", "--game", "pips", "--seats", "3", "--out", str(out)])
    assert refused.exit_code == 2 and "Pips (test game) is for 2 players; a table of 3 is not" in refused.output
    refused = CliRunner().invoke(cli, ["simulate", "--game", "pipsrank", "--players", "3", "--seats", "4",
                                       "--out", str(out)])
    assert refused.exit_code == 2 and "tables of 4 players need at least as many players" in refused.output


def test_a_simulated_spells_and_steam_event_verifies_with_the_expected_counts(tmp_path):
    """The simulate bar for Spells & Steam: `empyrean simulate --game steam --players 18 --rounds 3
    --flawed 0.1 --out F --expected E`, then `empyrean verify F` counts what E says (the random bot
    here, for time: the bar's greedy one was checked by hand, docs/steam.md)."""
    out, expected = tmp_path / "steam.ndjson", tmp_path / "steam.expected.json"
    made = CliRunner().invoke(cli, ["simulate", "--game", "steam", "--players", "18", "--rounds", "3",
                                    "--flawed", "0.1", "--bot", "random", "--seed", "1", "--out", str(out),
                                    "--expected", str(expected)])
    assert made.exit_code == 0, made.output
    want = json.loads(expected.read_text())
    assert want["matches"] == 18 // 2 * 3 and all(want["flaws"].values()), want
    verified = CliRunner().invoke(cli, ["verify", "--json", str(out)])
    verdicts = [json.loads(line) for line in verified.output.splitlines() if line.startswith("{")]
    assert len(verdicts) == want["uploads"]
    assert Counter(v["status"] for v in verdicts) == Counter({k: n for k, n in want["verify"].items() if n})
    assert all(v["index"] is not None and v["rule"] for v in verdicts if v["status"] == "illegal")


def test_a_report_of_two_table_sizes_holds_each_to_its_band(pipsrank):
    """balance at tables of 2 and of 4: each size's games seat that many colours, each is held to its
    band (a game's own at that size, else 40-60% taken around an even 1 in n), each under its heading."""
    assert balance.band_for("steam", 4) == (0.15, 0.35) and balance.band_for("steam") == balance.DEFAULT_BAND
    assert balance.band_for("pipsrank", 4) == pytest.approx((0.2, 0.3))
    runs = []
    for players in (2, 4):
        endings: Counter = Counter()
        tallies = balance.run(40, game="pipsrank", bot="random", seed=3, players=players, endings=endings)
        assert sum(t.games for t in tallies.values()) == 40 * players and sum(endings.values()) == 40
        runs.append(balance.SizeRun(players, tallies, balance.band_for("pipsrank", players), endings, 1.0))
    with pytest.raises(ValueError, match="a table of 5 is not"):
        balance.run(1, game="pipsrank", players=5)
    first, fours = runs
    text = balance.render(first.tallies, games=40, bot="random", seed=3, catalog=None, command="x", seconds=1,
                          game="pipsrank", players=2, endings=first.endings, more=[fours])
    two, four = text.split("## 4 players")
    assert "## 2 players" in two and "each game 2 different colour choices" in two
    assert "Target: every colour between 40% and 60%." in two and "### How the games ended" in two
    assert "each game 4 different colour choices" in four and "Target: every colour between 20% and 30%." in four


def test_team_games_are_left_out_of_the_win_rates_and_counted_as_an_ending():
    """A Spells & Steam game of 4 played in teams (one seed in three, engine.steam.bots.seeded_setup)
    is two seats' win: the report counts it as an ending of its own, in no company's games."""
    endings: Counter = Counter()
    tallies = balance.run(9, game="steam", bot="random", seed=1, players=4, endings=endings)
    teamed = endings[balance.TEAM_GAME]
    assert 0 < teamed < 9 and sum(endings.values()) == 9
    assert sum(t.games for t in tallies.values()) == 4 * (9 - teamed)
    assert sum(t.wins + t.draws for t in tallies.values()) >= 9 - teamed
