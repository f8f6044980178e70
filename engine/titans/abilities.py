"""What titans' abilities and active maneuvers do (the effect vocabulary of effects.py, at play):
their conditions, the regions they reach, the modifiers of strength and endurance, and each action.
A card's effects run as steps of the game (``push``), so a move that meets a hazard waits for it."""

from __future__ import annotations

from typing import Any

from .board import arc, step, turned
from .effects import Effect


def effects_of(g: Any, t: Any) -> list[Effect]:
    """The titan's ability and its active maneuver's effects."""
    out = list(t.card.effects)
    if t.active is not None:
        out += g.cat.maneuvers[t.active].effects
    return out


def holds(g: Any, t: Any, e: Effect, ctx: dict | None) -> bool:
    c = e.cond
    if c is None:
        return True
    if c == "damaged":
        return t.damage > 0
    if c == "contact":
        return bool(region(g, t, "contact", None))
    return bool(ctx and ctx["behind" if c == "behind-target" else "same"])


def modifier(g: Any, t: Any, verb: str) -> int:
    return sum(int(e.value) for e in effects_of(g, t)
               if e.when == "always" and e.verb == verb and holds(g, t, e, None))


def strength(g: Any, t: Any) -> int:
    return max(0, t.card.strength + modifier(g, t, "strength"))


def endurance(g: Any, t: Any) -> int:
    return max(0, t.card.endurance + modifier(g, t, "endurance"))


def region(g: Any, t: Any, where: str, ctx: dict | None) -> list:
    """The enemy titans a region of ``t`` covers (the attack's target or attacker: that one)."""
    if where in ("target", "attacker"):
        i = (ctx or {}).get(where)
        return [g.titans[i]] if i is not None and g.titans[i].alive else []
    if t.hex is None:
        return []
    if where == "same":
        hexes = {t.hex}
    elif where == "contact":
        hexes = {t.hex} | {step(t.hex, f) for f in arc(t.facing) + arc(t.facing, front=False)}  # type: ignore[arg-type]
    else:
        hexes = {step(t.hex, f) for f in arc(t.facing, front=where == "front")}  # type: ignore[arg-type]
    return [o for o in g.titans if o.player != t.player and o.on_field and o.hex in hexes]


def push(g: Any, t: Any, effects: list[Effect], ctx: dict | None) -> None:
    """Queue ``effects`` of ``t`` before the game's other pending steps."""
    i = g.titans.index(t)
    g.todo[0:0] = [("effect", i, e, ctx) for e in effects]


def run(g: Any, t: Any, e: Effect, ctx: dict | None) -> None:
    """One effect of ``t``, if its condition holds now."""
    if not t.alive or not holds(g, t, e, ctx):
        return
    v = e.verb
    if v == "damage":
        for o in region(g, t, e.to, ctx):  # type: ignore[arg-type]
            g.hurt(o, int(e.value), t)
    elif v == "burn-active":
        for o in region(g, t, e.value, ctx):
            if o.active is not None:
                g._to_burned(o.player, o.active)
                o.active = None
    elif v == "heal":
        t.damage = max(0, t.damage - int(e.value))
    elif v == "replenish":
        for _ in range(int(e.value)):
            if g.sides[t.player - 1].reserve and len(t.stack) < t.card.stack:
                g.replenish_in(t)
    elif v == "turn" and t.hex is not None:
        t.facing = turned(t.facing, e.value)  # type: ignore[arg-type]
    elif v == "move":
        g.todo[0:0] = [("step", g.titans.index(t))] * int(e.value)
