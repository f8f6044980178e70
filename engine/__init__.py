"""The rules engines of the Empyrean family: pure and deterministic (no I/O, no clock, no global
random state). The machinery every game shares is at the top (``engine.log.parse_log``,
``engine.replay.replay``, ``engine.position.position``, ``engine.timeline.timeline``,
``engine.seats``); each game is a package of its own, registered under its key (``engine.games``;
Battle for Empyrean: ``engine.bfe``)."""
