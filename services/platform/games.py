"""The games a process knows beyond those the engine ships: each named in ``EMPYREAN_EXTRA_GAMES``
as ``module:attribute`` (a game's rules object; several joined by commas) is imported and registered
(engine.games.register) when the process starts — the API's app factory, the worker's app and the
command line. The tests register their test game this way; an organiser could add a game of their
own without changing the engine."""

from __future__ import annotations

import importlib

from services.platform.config import ConfigError


def register_extra_games(spec: str | None) -> list[str]:
    """Register every game ``spec`` names; their keys. ConfigError naming the variable and the entry
    for one that cannot be imported or is not a game's rules object."""
    from engine import games

    keys = []
    for entry in filter(None, (part.strip() for part in (spec or "").split(","))):
        module, _, attribute = entry.partition(":")
        try:
            rules = getattr(importlib.import_module(module), attribute or "RULES")
            games.register(rules)
        except (ImportError, AttributeError, TypeError, ValueError) as exc:
            raise ConfigError(f"EMPYREAN_EXTRA_GAMES: {entry!r} is not a game's rules object ({exc})") from None
        keys.append(rules.info.key)
    return keys
