"""Titans of Empyrean (key ``titans``): two players fly squads of four titans over a hex field.
``rules.py`` is the game behind the engine's interface; docs/titans-rules.md is every rule."""
