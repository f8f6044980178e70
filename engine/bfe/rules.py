"""Battle for Empyrean behind the game interface (engine.games): its description, declared once
here, and its rules object, ``RULES``, which the shared machinery calls for what is particular to
this game."""

from __future__ import annotations

from ..games import GameInfo, OutcomeKind
from .game import BATTLEFIELDS, ROUNDS

GAME_INFO = GameInfo(
    key="bfe",
    name="Battle for Empyrean",
    min_players=min(ROUNDS),
    max_players=max(ROUNDS),
    chance_kinds=frozenset({"draw"}),  # shuffles come from the seed or are never written
    any_order=frozenset({"draw", "keep"}),  # the opening hands and the draft are simultaneous
    owner_only=frozenset({"draw", "keep", "discard", "acquire"}),
    outcome=OutcomeKind.WINNER,
    faction="deck",
)


class BfeRules:
    info = GAME_INFO
    battlefields = BATTLEFIELDS


RULES = BfeRules()
