"""A service that knows the test game Pips (tests/games/pips.py), registered as a deployment registers a
game of its own (``EMPYREAN_EXTRA_GAMES``, services.platform.games) in the module's worker and API. A
module uses it by importing both fixtures: ``from service_games import ingest_config,
pips_forgotten_afterwards  # noqa: F401``. The API is in the test process, so Pips is taken out of the
registry again when the module ends: no other module sees it."""

from __future__ import annotations

import dataclasses

import pytest

from engine import games

PIPS = "pips"
EXTRA_GAMES = "tests.games.pips:RULES"  # importable from the checkout's root, as the worker's PYTHONPATH has it


@pytest.fixture(scope="module")
def ingest_config(ingest_config):
    return dataclasses.replace(ingest_config, extra_games=EXTRA_GAMES)


@pytest.fixture(scope="module", autouse=True)
def pips_forgotten_afterwards():
    yield
    games.unregister(PIPS)
