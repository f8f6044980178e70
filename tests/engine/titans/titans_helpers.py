"""Set up Titans positions for the rule tests: a recorded game from a setup, titans placed by
hand, one titan's action or resolution phase started, lines answered or refused through the
game's own check (the same path a log's lines take)."""

from __future__ import annotations

from engine.log import parse_log
from engine.titans.board import step
from engine.titans.lines import parse_line
from engine.titans.rules import RULES


def log(p1: str = "dragon", p2: str = "harpy", *, hazards=None, decisions=(), seed=None, squads=None,
        catalog: str = "1") -> dict:
    setup: dict = {"squads": squads or [{"species": p1}, {"species": p2}]}
    if hazards is not None:
        setup["hazards"] = hazards
    chance = ({"type": "seeded", "algorithm": "splitmix64-v1", "seed": seed} if seed is not None
              else {"type": "recorded"})
    return {"format": "empyrean-log", "version": 1, "game": "titans", "catalog": catalog, "setup": setup,
            "chance": chance, "decisions": list(decisions)}


def game(p1: str = "dragon", p2: str = "harpy", **kw):
    return RULES.new_game(parse_log(log(p1, p2, **kw)))


def fresh(**kw):
    """A game of ``game(**kw)`` with every titan off the field, between rounds 1 and 2."""
    g = game(**kw)
    clear_field(g)
    return g


def titan(g, who: str):
    """``who``: "P1 ashmaw"."""
    player, key = who.split()
    return next(t for t in g.titans if t.player == int(player[1]) and t.key == key)


def place(g, who: str, hex_name: str | None, facing: str = "NW", *, damage: int = 0, stack=None, active=None):
    t = titan(g, who)
    t.hex = g.cat.board.hex_named(hex_name) if hex_name else None
    t.facing = facing
    t.damage = damage
    if stack is not None:
        t.stack = list(stack)
    t.active = active
    return t


def clear_field(g, round_: int = 2):
    """Every titan off the field, the game between rounds (no point pending)."""
    for t in g.titans:
        t.hex, t.facing = None, None
    g.round, g.todo, g.pending = round_, [], None


def start_action(g, who: str):
    """``who``'s action phase now (the rest of the round not queued)."""
    i = g.titans.index(titan(g, who))
    g.pending, g.todo = None, [("action", i)]
    g._run()
    return g.titans[i]


def start_resolution(g, who: str):
    i = g.titans.index(titan(g, who))
    g.pending, g.todo, g.phase = None, [("resolve", i)], "resolution"
    g._run()
    return g.titans[i]


def play(g, text: str) -> None:
    d = parse_line(text)
    why = g.check(d)
    assert why is None, why
    g.answer(d)


def refused(g, text: str) -> str:
    why = g.check(parse_line(text))
    assert why is not None, f"{text!r} was allowed"
    return why


def ahead(g, hex_name: str, facing: str) -> str:
    return g.cat.board.name(step(g.cat.board.hex_named(hex_name), facing))
