"""Why a line is refused where it is written: the rule it breaks, in words a player at the table
understands, with what the board shows (the arc, the stack's known top card, the deck's count)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .board import arc, step
from .lines import Kind, Line


def refusal(g: Any, d: Line, p: Any) -> str:
    """The rule line ``d`` breaks at point ``p``, in a player's words, with what the board shows."""
    t = g.titans[p.titan] if p.titan is not None else None
    if d.verb == "hazard":
        return (f"no hazard {d.args[0]!r} can be under {d.titan}: the pile holds "
                f"{', '.join(g._hazards_left()) or 'nothing'} still face down")
    assert t is not None
    name = t.label()
    if d.verb in t.done or (d.verb == "enter" and "move" in t.done):
        used = d.verb if d.verb != "enter" else "move"
        return f"{name} has already used its {used} this action phase (each once)"
    if d.verb == "move" and t.hex is None:
        return f"{name} is off the field: its move must bring it back on ('enter HEX FACING') or stay off"
    if d.verb == "enter":
        if t.hex is not None:
            return f"{name} is on the field already: its move is one hex forward ('move')"
        if g.round == 1:
            f = " or ".join(g.cat.board.entry_facings[t.player - 1])
            return (f"in round 1 P{t.player}'s titans enter from their own side, facing {f}, through a border hex "
                    "they could have flown in by")
        return ("a titan comes back through a border hex, facing a way that could have brought it in from off "
                "the board")
    if d.verb == "stay":
        return (f"{name} must enter the field in round 1" if g.round == 1 else
                f"{name} went through a Portal and must come back on the field now")
    if d.verb == "done":
        return f"{name} has not made its move yet: every titan must move one hex forward in its action phase"
    if d.verb == "burn-turn":
        return f"{name} may burn and turn only right after its move, once"
    if d.verb == "turn":
        return f"{name} is off the field and cannot turn" if t.hex is None else f"{name} cannot turn that way"
    if d.verb == "attack":
        return _attack_words(g, t, d)
    if d.verb == "replenish":
        if len(t.stack) >= t.card.stack:
            return f"{name}'s stack is full ({len(t.stack)} of {t.card.stack}): it may not replenish"
        return f"{name} cannot replenish {d.args[0]}: there is no card to move"
    if d.verb in ("play", "burn", "resolve", "burn-turn"):
        return _card_words(g, t, d)
    if d.verb == "die":
        return (f"{name} still has a stack card or an active maneuver: it must burn those before it may be let die"
                if p.kind is Kind.RESOLVE else f"{name} is not resolving damage")
    return f"it is {p.prompt}; that is not one of its choices"

def _attack_words(g: Any, t: Any, d: Line) -> str:
    board, name = g.cat.board, t.label()
    if t.hex is None:
        return f"{name} is off the field and cannot attack"
    target = next((o for o in g.titans if f"P{o.player}" == d.args[0] and o.key == d.args[1]), None)
    if target is None or not target.on_field:
        return f"{d.args[0]} {d.args[1]} is not a titan on the field"
    arc_hexes = [board.name(h) if board.on(h) else "off the board" for h in (step(t.hex, f) for f in arc(t.facing))]
    return (f"{name} can attack only a titan in its front arc or on its own hex: facing {t.facing} from "
            f"{board.name(t.hex)}, its front arc is {', '.join(arc_hexes)}; {target.label()} is at "
            f"{board.name(target.hex)}")  # type: ignore[arg-type]

def _card_words(g: Any, t: Any, d: Line) -> str:
    side = g.sides[t.player - 1]
    place = t.stack if d.args[:1] != ("reserve",) else side.reserve
    where = "the reserve" if place is side.reserve else f"{t.label()}'s stack"
    if d.verb == "resolve" and d.args[0] == "active":
        return f"{t.label()} has no active maneuver to burn"
    if d.verb == "resolve" and d.args[0] == "reserve":
        return "the reserve has fewer than 2 cards: it cannot resolve damage"
    if not place:
        return f"{where} is empty"
    card = d.card
    if card is not None and card not in g.cat.maneuvers:
        return f"there is no maneuver {card!r} in the catalog"
    if place[0] is not None:
        return f"the top card of {where} is {place[0]}, known already, not {card}"
    return (f"P{t.player}'s deck cannot hold another {card}: its 28 maneuvers are the 21 basic ones and 7 of its "
            f"species' (named so far: {_counted(side.named) or 'none'})")


def _counted(c: Counter) -> str:
    return ", ".join(f"{k}×{n}" if n > 1 else k for k, n in sorted(c.items()))
