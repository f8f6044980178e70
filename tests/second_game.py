"""A second game for the tests of what is keyed on a log's ``game`` (issue 27), before a second game
of the family is registered for real: Battle for Empyrean's rules under another key and name,
registered for as long as a test needs it (``engine.games.register``, in the test's process only —
a worker process started by the tests does not know it, and judges its logs malformed at /game).

Its logs are Battle for Empyrean logs that say ``"game": "standin"``: they read, replay and hash
like any log of a known game (the hash differs from the same log without the field)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

from engine import games
from engine.bfe.rules import GAME_INFO, BfeRules

STAND_IN = dataclasses.replace(GAME_INFO, key="standin", name="Stand-in of Empyrean")


class StandInRules(BfeRules):
    info = STAND_IN


@contextmanager
def second_game() -> Iterator[games.GameInfo]:
    """The stand-in game registered meanwhile; its description is yielded."""
    games.register(StandInRules())
    try:
        yield STAND_IN
    finally:
        games.unregister(STAND_IN.key)


def of_game(log: dict, key: str) -> dict:
    """The log saying it is a game of ``key``."""
    return {**log, "game": key}
