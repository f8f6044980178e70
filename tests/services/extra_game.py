"""A service test module whose service knows a test game (tests/games/pips.py) as a deployment would
register a game of its own: ``EMPYREAN_EXTRA_GAMES`` (services.platform.games) in the worker and the
API. The API is in the test's process, so the game is taken out of the registry again when the
module ends: no other test sees it. Used as

    ingest_config, game_forgotten_afterwards, rules = registered_for_the_module("tests.games.pips:RULES", "pips")
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine import games


def registered_for_the_module(spec: str, key: str):
    """The module's fixtures: ``ingest_config`` with the game in EMPYREAN_EXTRA_GAMES (``spec``, importable
    from the checkout's root, as the worker's PYTHONPATH has it), the game ``key`` forgotten when the
    module ends, and ``rules``, its rules object (registered by the app factory)."""

    @pytest.fixture(scope="module")
    def ingest_config(ingest_config):
        return dataclasses.replace(ingest_config, extra_games=spec)

    @pytest.fixture(scope="module", autouse=True)
    def game_forgotten_afterwards():
        yield
        games.unregister(key)

    @pytest.fixture(scope="module")
    def rules(app):
        return games.rules_for(key)

    return ingest_config, game_forgotten_afterwards, rules


def ndjson(*logs: dict) -> bytes:
    """Logs as an NDJSON bundle body."""
    return ("\n".join(json.dumps(log) for log in logs) + "\n").encode()
