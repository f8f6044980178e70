"""The nine hazard tokens of the book (rules 8.2-8.10): what each does to the titan that flips it.
The pile (how many of each) is content: board.yaml's hazard_pile (choice K2)."""

from __future__ import annotations

from typing import Any

from .board import distance, turned

NAMES = {"regenerate": "Regenerate", "portal": "Portal", "air-pocket": "Combustible Air Pocket", "foom": "FOOM!",
         "soothing-wind": "Soothing Wind", "toxic-blast": "Toxic Blast", "air-current": "Air Current",
         "whirlwind": "Whirlwind", "lightning": "Lightning Strike"}
FOOM_REACH = 3


def resolve(g: Any, t: Any, kind: str) -> None:
    i = g.titans.index(t)
    side = g.sides[t.player - 1]
    if kind == "regenerate":
        if side.burned:
            g.regenerate(t)  # even past the stack size
    elif kind == "portal":
        t.hex, t.must_return = None, True
    elif kind == "air-pocket":
        g.todo.insert(0, ("burn", i, "Combustible Air Pocket"))
    elif kind == "foom":
        for o in g.titans:
            if o is not t and o.on_field and distance(o.hex, t.hex) <= FOOM_REACH:
                g.hurt(o, 1, None)
    elif kind == "soothing-wind":
        t.damage = 0
    elif kind == "toxic-blast":
        g.hurt(t, 1, None)
    elif kind == "air-current":
        g.todo.insert(0, ("step", i))
    elif kind == "whirlwind":
        t.facing = turned(t.facing, "around")
    elif kind == "lightning":
        g.hurt(t, 2, None)
        for o in g.titans:
            if o is not t and o.on_field and distance(o.hex, t.hex) <= 1:
                g.hurt(o, 1, None)
