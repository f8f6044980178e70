"""Battle for Empyrean rules engine: pure and deterministic (no I/O, no clock, no global random
state). Public entry points: ``engine.replay.replay``, ``engine.bfe.game.Game``,
``engine.bfe.catalog.load_catalog``, ``engine.log.parse_log``."""
