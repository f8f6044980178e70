"""A game of the Empyrean family as people name it in the service's words — its name, then its key as
the API and the command line write it: "Battle for Empyrean (bfe)". Imports nothing but the engine's
registry (engine.games), so the command line uses it without the database's libraries."""

from __future__ import annotations

from engine import games


def game_words(key: str) -> str:
    """"Battle for Empyrean (bfe)"; a key this engine does not know, quoted as it is."""
    return f"{games.info(key).name} ({key})" if games.is_known(key) else repr(key)
