"""Why a line is not allowed where it is written, in the words of the game (docs/elysian-rules.md
names each rule). ``refusal`` gives the specific reason it knows, or None for the caller's general one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import fight, hands
from .lines import Kind, Line, format_line
from .pieces import SET_SIZE

if TYPE_CHECKING:
    from .game import Point, State


def refusal(g: State, d: Line, p: Point) -> str | None:
    verb = d.verb
    if verb == "dice" and p.kind is not Kind.DICE:
        last = g.last_attack
        if last is not None and last.ended == "repelled":
            return (f"the attack on {last.target} was repelled: a set of {SET_SIZE} blocks (1s and 2s) ends an "
                    f"attack at once (rule 9.3), so no more dice are rolled")
        if last is not None and last.ended in ("defeated", "ravaged"):
            return f"the attack on {last.target} is over: every defender there was defeated (rule 9.4)"
        if last is not None and last.ended == "spent":
            return f"the attack on {last.target} is over: it rolled as many dice as its attack power (rule 9.2)"
        return f"no attack is being rolled now: it is {p.prompt}"
    if verb == "dice" and g.attack is not None and g.attack.dice_left is not None:
        size = min(SET_SIZE, g.attack.dice_left)
        if len(d.args) != size:
            return (f"this set has {size} dice: the attack has {g.attack.dice_left} dice left to roll, in sets "
                    f"of {SET_SIZE} (rule 9.2)")
    if d.actor != p.player:
        return f"it is {p.prompt}, not P{d.actor}'s decision ('{format_line(d)}')"
    if verb == "attacks":
        return fight.attack_problem(g, d)
    if verb in ("plays", "trades", "discards", "reacts"):
        return _card_problem(g, d)
    if verb == "moves":
        return _move_problem(g, d)
    return None


def _card_problem(g: State, d: Line) -> str | None:
    key = d.args[0]
    card = g.cat.cards.get(key)
    if card is None:
        return f"there is no card {key!r} in the catalog"
    if d.verb == "plays" and card.kind == "effect":
        return f"{card.name} is an Effect card: it is played only when its event happens, never as the turn's card"
    if d.verb == "reacts" and card.kind != "effect":
        return f"{card.name} is not an Effect card: only those answer an attack"
    if d.verb == "plays" and card.kind == "item" and g.hero_unit(d.actor) is None:
        return f"{card.name} is a heroic item: P{d.actor}'s hero is not on the field to carry it"
    hand = g.player(d.actor).hand
    if key not in hands.possible(g.cat, g.shown, hand, None):
        if not any(dk == card.deck for dk, _ in hand):
            return f"P{d.actor} holds no card from the {card.deck} deck"
        return (f"P{d.actor} cannot hold {card.name}: all {g.cat.decks[card.deck][key]} of its copies are "
                f"already seen elsewhere")
    if d.verb in ("plays", "trades") and g.turn.plays <= 0:
        return "one card a turn is played or traded, unless a card played gives more"
    return None


def move_step_problem(g: State, d: Line) -> str | None:
    """Why a line of the move step (a move, an attack, done, leaving) is not allowed (None: it is)."""
    if d.verb == "moves":
        return _move_problem(g, d)
    if d.verb == "attacks":
        return fight.attack_problem(g, d)
    if d.verb == "leaves" and len(g.active()) <= 2:
        return "a player leaves the game only while three or more play; with two, a player concedes (choice C17)"
    return None


def _move_problem(g: State, d: Line) -> str | None:
    kind, src, dest = d.args
    if g.turn.attacked:
        return "units move before the attack, not after it"
    mine = [u for u in g.units_at(src, d.actor) if u.kind == kind]
    if not mine:
        return f"P{d.actor} has no {kind} in {src}"
    if all(u.moved for u in mine):
        return f"every {kind} of P{d.actor}'s in {src} has moved this turn"
    if kind != "hero" and g.turn.moves <= 0:
        return "two standard units move each turn (and the hero), unless a card played says more"
    if kind == "hero" and g.turn.hero_moved:
        return "the hero moves once a turn"
    if dest not in g.land.territories:
        return f"there is no territory {dest} on the field"
    from .game import reach
    if dest not in reach(g, mine[0]):
        return (f"the {kind} cannot reach {dest}: a unit moves at most its Move in territories, never into or "
                f"through water or a territory held by another player")
    return None
