"""A service that knows the test game Pips (tests/games/pips.py), for the browser tests of the pages of
games other than Battle for Empyrean: the module's app and its worker are started as a deployment
that adds a game is (EMPYREAN_EXTRA_GAMES=pips:RULES, with tests/games on PYTHONPATH). A module uses
it by importing the fixture: ``from browser_games import ingest_config  # noqa: F401``.

A module of its own, like browser_artifacts, so that test modules can import it."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from engine import games

GAMES_DIR = Path(__file__).resolve().parents[1] / "games"


@pytest.fixture(scope="module")
def ingest_config(ingest_config):
    """The module's configuration with Pips among its games; Pips is forgotten again afterwards, so
    that the modules after this one see only the games the engine ships."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(GAMES_DIR))  # the app runs in this process
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(GAMES_DIR), os.environ.get("PYTHONPATH")])))
        yield dataclasses.replace(ingest_config, extra_games="pips:RULES")
    games.unregister("pips")
