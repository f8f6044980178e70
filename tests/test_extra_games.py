"""services.platform.games: the games a process registers from EMPYREAN_EXTRA_GAMES, and the
command line's answer when one of them cannot be loaded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import games
from services.platform.config import ConfigError
from services.platform.games import register_extra_games

GAMES_DIR = Path(__file__).resolve().parent / "games"


@pytest.fixture
def on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(GAMES_DIR))
    yield
    games.unregister("pips")


def test_each_named_game_is_registered_by_its_key(on_path):
    assert not games.is_known("pips")
    assert register_extra_games(" pips:RULES , ") == ["pips"]
    assert games.is_known("pips") and games.info("pips").name == "Pips (test game)"


def test_the_attribute_defaults_to_rules(on_path):
    assert register_extra_games("pips") == ["pips"]


@pytest.mark.parametrize("spec, named", [("no_such_module:RULES", "no_such_module"),
                                          ("pips:NOT_THERE", "NOT_THERE"),
                                          ("pips:Kind", "lacks")])
def test_a_game_that_cannot_be_loaded_is_named_with_the_variable(on_path, spec, named):
    with pytest.raises(ConfigError) as caught:
        register_extra_games(spec)
    assert "EMPYREAN_EXTRA_GAMES" in str(caught.value) and spec in str(caught.value) and named in str(caught.value)


def test_nothing_named_registers_nothing():
    before = games.keys()
    assert register_extra_games(None) == [] and register_extra_games("") == []
    assert games.keys() == before


def _cli(*args: str, extra: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, EMPYREAN_EXTRA_GAMES=extra, PYTHONPATH=str(GAMES_DIR), EMPYREAN_ENGINE="python")
    return subprocess.run([sys.executable, "-m", "services.cli", *args], env=env, capture_output=True, text=True,
                          timeout=120)


def test_the_command_line_verifies_a_registered_game(tmp_path, on_path):
    import json

    import pips

    path = tmp_path / "pips.json"
    path.write_text(json.dumps(pips.RULES.self_play(7)))
    done = _cli("verify", str(path), extra="pips:RULES")
    assert done.returncode == 0 and "VALID" in done.stdout, done.stderr
    refused = _cli("verify", str(path), extra="nope:RULES")
    assert refused.returncode == 1 and "EMPYREAN_EXTRA_GAMES: 'nope:RULES'" in refused.stderr
    assert "Traceback" not in refused.stderr
