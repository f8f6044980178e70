"""Attacks in Elysian Battlefields, in the book's five steps: the territory and the attacking units
named, the attack power worked out, the dice rolled in sets of three, the defence destroyed in the
book's order, and the invasion.

The attacking units are named by their territories: every unit of the attacker's in a territory
named that reaches the one attacked joins (choice C10). Hits pile up on the defence's next piece
(walls, then standard units in the attacker's order, then the hero, then the settlement) and what
is left over goes on to the next one. A set of three blocks repels the attack at once; a set of
three sixes ravages the territory.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING

from ..games import CHANCE
from . import cards, hands
from .lines import Kind, Line, territory_order
from .parts import Point, Unit
from .pieces import BLOCK_FACES, FOREST_PENALTY, HEAVY_FACE, MOUNTAIN_BONUS, SET_SIZE, STANDARD

if TYPE_CHECKING:
    from .game import State

ALL_SUBSETS_UP_TO = 4  # more source territories than this: every one, each alone, or all but one


@dataclass
class Attack:
    attacker: int
    defender: int
    target: str
    sources: tuple[str, ...]
    penalty: int = 0  # attack power taken away by the defender's cards
    shield: int = 0  # hits still to be ignored
    dice_left: int | None = None  # worked out when the first set is rolled
    hits: int = 0  # hits piled on the defence's next piece
    current: str | None = None  # the standard unit the attacker chose to hit next
    ended: str | None = None  # "repelled", "ravaged", "defeated", "spent"
    sets: int = 0
    rolled: tuple[int, ...] = ()  # the faces of the last set rolled (the boards show them)

    def copy(self) -> Attack:
        return replace(self)


def reach_of(g: State, u: Unit) -> int:
    return cards.stat(g, u.player, u.kind, "range") + (g.turn.reach if u.kind == "archer" else 0)


def attackers(g: State, seat: int, target: str, sources: tuple[str, ...]) -> list[Unit]:
    reach = _reaches(g, seat)
    dist = g.land.distance
    return [u for u in g.units if u.player == seat and u.where in sources and dist(u.where, target) <= reach[u.kind]]


def _reaches(g: State, seat: int) -> dict[str, int]:
    extra = g.turn.reach if seat == g.current else 0
    return {k: cards.stat(g, seat, k, "range") + (extra if k == "archer" else 0) for k in (*STANDARD, "hero")}


def power(g: State, seat: int, target: str, sources: tuple[str, ...], penalty: int = 0) -> int:
    return _power(g, seat, target, attackers(g, seat, target, sources), penalty)


def _power(g: State, seat: int, target: str, units: list[Unit], penalty: int = 0) -> int:
    strength = {k: cards.stat(g, seat, k, "attack") for k in {u.kind for u in units}}
    total = sum(strength[u.kind] for u in units) + g.turn.power
    terrain = g.land.territories
    total += MOUNTAIN_BONUS * len({u.where for u in units if terrain[u.where].terrain == "mountain"})
    if terrain[target].terrain == "forest":
        total -= FOREST_PENALTY
    return max(0, total - penalty)


def _sources(g: State, seat: int, target: str) -> list[str]:
    reach = _reaches(g, seat)
    dist = g.land.distance
    return sorted({u.where for u in g.units if u.player == seat and u.where != target
                   and dist(u.where, target) <= reach[u.kind]}, key=territory_order)


def _subsets(items: list[str]) -> list[tuple[str, ...]]:
    if len(items) <= ALL_SUBSETS_UP_TO:
        return [c for k in range(1, len(items) + 1) for c in combinations(items, k)]
    return [tuple(items)] + [(t,) for t in items] + [tuple(x for x in items if x != t) for t in items]


def targets(g: State, seat: int) -> list[str]:
    """The territories holding another player's forces, in order."""
    held = {u.where for u in g.units if u.player != seat}
    held |= {t for t, s in g.sites.items() if s.settlement and s.holder not in (None, seat)}
    return sorted(held, key=territory_order)


def attacks(g: State, seat: int) -> list[Line]:
    if g.turn.attacks <= 0:
        return []
    out = []
    for t in targets(g, seat):
        srcs = _sources(g, seat, t)
        if not srcs:
            continue
        units = attackers(g, seat, t, tuple(srcs))
        for group in _subsets(srcs):
            if _power(g, seat, t, [u for u in units if u.where in group]) > 0:
                out.append(Line(seat, "attacks", (t, "from", *group)))
    return out


def can_attack(g: State, seat: int) -> bool:
    if g.turn.attacks <= 0:
        return False
    for t in targets(g, seat):
        srcs = _sources(g, seat, t)
        if srcs and _power(g, seat, t, attackers(g, seat, t, tuple(srcs))) > 0:
            return True
    return False


def attack_problem(g: State, d: Line) -> str | None:
    """Why an attack line written is not allowed, in words (None: it is)."""
    seat, target, sources = d.actor, d.args[0], tuple(d.args[2:])
    if g.turn.attacks <= 0:
        return "a player attacks one territory a turn, unless a card played that turn gives more (rule 9.1)"
    if target not in g.land.territories:
        return f"there is no territory {target} on the field"
    if g.holder(target) in (None, seat):
        return f"{target} holds no enemy forces to attack (rule 9.1)"
    for s in sources:
        if s not in g.land.territories:
            return f"there is no territory {s} on the field"
        if s not in _sources(g, seat, target):
            return (f"no unit of P{seat}'s in {s} reaches {target} (infantry and cavalry attack next door, "
                    "archers 2 away; rules 9.1, 13)")
    if power(g, seat, target, sources) <= 0:
        return f"the attack on {target} would have no attack power (a forest takes 2): nothing to roll (C19)"
    return None


def declare(g: State, d: Line) -> None:
    seat, target = d.actor, d.args[0]
    g.turn.attacks -= 1
    g.turn.attacked = True
    g.phase = "attack"
    defender = g.holder(target)
    g.attack = Attack(seat, defender, target, tuple(d.args[2:]))  # type: ignore[arg-type]
    for o in g.observers:
        o.on_attack(g, g.attack)
    g.todo[:0] = [("react", defender), ("dice",), ("attack end",)]


# ---------------------------------------------------------------------- the defender's reaction
def _reactions(g: State, seat: int) -> list[str]:
    return hands.possible(g.cat, g.shown, g.player(seat).hand, frozenset({"effect"}), trigger="attacked")


def _react_step(g: State, step: tuple) -> bool:
    seat = step[1]
    if g.player(seat).out or not _reactions(g, seat):
        g.todo.pop(0)
        return False
    return g._ask(Point(seat, seat, Kind.REACT, f"P{seat} answering the attack on {g.attack.target}",
                        Line(seat, "holds")))


def _legal_react(g: State, seat: int, step: tuple) -> list[Line]:
    return [Line(seat, "reacts", (k,)) for k in _reactions(g, seat)] + [Line(seat, "holds")]


def _apply_react(g: State, step: tuple, d: Line) -> None:
    if d.verb == "holds":
        return
    key = d.args[0]
    for o in g.observers:
        o.on_card(g, d.actor, key)
    cards.discard(g, d.actor, key)
    att = g.attack
    for e in g.cat.cards[key].effects:
        if e.do == "trap":
            g.todo.insert(0, ("trap", d.actor, e.n))
        elif e.do == "power":
            att.penalty -= e.n  # the effect's number is negative
        elif e.do == "shield":
            att.shield += e.n


def _trap_targets(g: State) -> list[tuple[str, str]]:
    att = g.attack
    units = attackers(g, att.attacker, att.target, att.sources)
    return sorted({(u.kind, u.where) for u in units if u.kind in STANDARD}, key=lambda x: (territory_order(x[1]), x[0]))


def _trap_step(g: State, step: tuple) -> bool:
    if step[2] <= 0 or not _trap_targets(g):
        g.todo.pop(0)
        return False
    return g._ask(Point(step[1], step[1], Kind.TRAP, f"P{step[1]} choosing an attacking unit to destroy"))


def _legal_trap(g: State, seat: int, step: tuple) -> list[Line]:
    return [Line(seat, "traps", t) for t in _trap_targets(g)]


def _apply_trap(g: State, step: tuple, d: Line) -> None:
    kind, where = d.args
    victim = next(u for u in g.units_at(where, g.attack.attacker) if u.kind == kind)
    g.destroy(victim, d.actor)
    if step[2] > 1:
        g.todo.insert(0, ("trap", d.actor, step[2] - 1))


# ---------------------------------------------------------------------- the dice and the hits
def _next_piece(g: State) -> tuple[str, object] | None:
    """The defence's next piece to take hits: ("walls", defense), ("units", kinds), ("hero", defense),
    ("settlement", defense), or None when nothing of the defender's is left there."""
    att = g.attack
    site = g.sites.get(att.target)
    if site is not None and site.walls:
        return "walls", cards.wall_defense(g, att.defender)
    here = g.units_at(att.target, att.defender)
    kinds = sorted({u.kind for u in here if u.kind in STANDARD})
    if kinds:
        return "units", kinds
    if any(u.kind == "hero" for u in here):
        return "hero", cards.stat(g, att.defender, "hero", "defense")
    if site is not None and site.settlement and site.holder == att.defender:
        from .pieces import SETTLEMENTS
        return "settlement", SETTLEMENTS[site.settlement].defense
    return None


def _dice_step(g: State, step: tuple) -> bool:
    att = g.attack
    if att.ended is not None or g.player(att.attacker).out:
        g.todo.pop(0)
        return False
    if _next_piece(g) is None:
        att.ended = "defeated"
        g.todo.pop(0)
        return False
    if att.dice_left is None:
        att.dice_left = power(g, att.attacker, att.target, att.sources, att.penalty)
    if att.dice_left <= 0:
        att.ended = "spent"
        g.todo.pop(0)
        return False
    size = min(SET_SIZE, att.dice_left)
    point = Point(CHANCE, CHANCE, Kind.DICE, f"the attack dice on {att.target} (set {att.sets + 1}, {size} dice)")
    return g._chance(point, lambda rng: Line(CHANCE, "dice", tuple(sorted(str(1 + rng.below(6))
                                                                         for _ in range(size)))))


def _legal_dice(g: State, seat: int, step: tuple) -> list[Line]:
    size = min(SET_SIZE, g.attack.dice_left)
    return [Line(CHANCE, "dice", faces) for faces in combinations_with_replacement("123456", size)]


def _apply_dice(g: State, step: tuple, d: Line) -> None:
    att = g.attack
    faces = [int(f) for f in d.args]
    att.dice_left -= len(faces)
    att.sets += 1
    att.rolled = tuple(faces)
    for o in g.observers:
        o.on_dice(g, att, faces)
    if len(faces) == SET_SIZE and all(f in BLOCK_FACES for f in faces):
        att.ended = "repelled"
        return
    if len(faces) == SET_SIZE and all(f == HEAVY_FACE for f in faces):
        _ravage(g)
        return
    hits = sum(f not in BLOCK_FACES for f in faces)
    ignored = min(att.shield, hits)
    att.shield -= ignored
    att.hits += hits - ignored
    g.todo[:0] = [("hits",), ("dice",)]


def _ravage(g: State) -> None:
    att = g.attack
    att.ended = "ravaged"
    site = g.sites.get(att.target)
    if site is not None:
        if site.walls:
            site.walls = False
            g.walls_left += 1
        if site.holder == att.defender:
            site.holder = None
    for u in g.units_at(att.target, att.defender):
        if not g.over:
            g.destroy(u, att.attacker)
    g.check_out(att.defender)


def _hits_step(g: State, step: tuple) -> bool:
    att = g.attack
    while not g.over:
        piece = _next_piece(g)
        if piece is None:
            att.ended = "defeated"
            break
        what, value = piece
        if what == "units":
            kinds = value
            if att.current not in kinds:  # type: ignore[operator]
                att.current = None
                if len(kinds) == 1:  # type: ignore[arg-type]
                    att.current = kinds[0]  # type: ignore[index]
                elif att.hits > 0:
                    return g._ask(Point(att.attacker, att.attacker, Kind.TARGET,
                                        f"P{att.attacker} choosing which unit in {att.target} takes the next hits"))
                else:
                    break
            defense = cards.stat(g, att.defender, att.current, "defense")  # type: ignore[arg-type]
        else:
            defense = value  # type: ignore[assignment]
        if att.hits < defense:
            break
        att.hits -= defense
        _destroy_piece(g, what)
    if not g.over:
        g.todo.pop(0)
    return False


def _destroy_piece(g: State, what: str) -> None:
    att = g.attack
    site = g.sites.get(att.target)
    if what == "walls":
        site.walls = False  # type: ignore[union-attr]
        g.walls_left += 1
    elif what == "settlement":
        site.holder = None  # type: ignore[union-attr]
        g.check_out(att.defender)
    else:
        kind = att.current if what == "units" else "hero"
        victim = next(u for u in g.units_at(att.target, att.defender) if u.kind == kind)
        att.current = None
        g.destroy(victim, att.attacker)


def _legal_target(g: State, seat: int, step: tuple) -> list[Line]:
    att = g.attack
    kinds = sorted({u.kind for u in g.units_at(att.target, att.defender) if u.kind in STANDARD})
    return [Line(seat, "targets", (k,)) for k in kinds]


def _apply_target(g: State, step: tuple, d: Line) -> None:
    g.attack.current = d.args[0]
    g.todo.insert(0, ("hits",))


# ---------------------------------------------------------------------- the invasion
def invaders(g: State) -> list[str]:
    att = g.attack
    return sorted({u.where for u in attackers(g, att.attacker, att.target, att.sources)}, key=territory_order)


def _end_step(g: State, step: tuple) -> bool:
    att = g.attack
    if att.ended in ("defeated", "ravaged") and invaders(g) and g.holder(att.target) in (None, att.attacker):
        return g._ask(Point(att.attacker, att.attacker, Kind.INVADE, f"P{att.attacker} invading {att.target}"))
    g.todo.pop(0)
    _close(g)
    return False


def _close(g: State) -> None:
    for o in g.observers:
        o.on_attack_end(g, g.attack)
    g.last_attack, g.attack = g.attack, None


def _legal_invade(g: State, seat: int, step: tuple) -> list[Line]:
    """Invaders are named by the territories they attack from, every attacker there going in (choice C31)."""
    return [Line(seat, "invades", ("from", *group)) for group in _subsets(invaders(g))] + [Line(seat, "stays")]


def _apply_invade(g: State, step: tuple, d: Line) -> None:
    att = g.attack
    if d.verb == "invades":
        for u in attackers(g, att.attacker, att.target, tuple(d.args[1:])):
            u.where = att.target
        site = g.sites.get(att.target)
        if site is not None and site.settlement and site.holder is None:
            site.holder = att.attacker
    _close(g)


STEPS = {"react": _react_step, "trap": _trap_step, "dice": _dice_step, "hits": _hits_step, "attack end": _end_step}
LEGAL = {Kind.REACT: _legal_react, Kind.TRAP: _legal_trap, Kind.DICE: _legal_dice, Kind.TARGET: _legal_target,
         Kind.INVADE: _legal_invade}
APPLY = {Kind.REACT: _apply_react, Kind.TRAP: _apply_trap, Kind.DICE: _apply_dice, Kind.TARGET: _apply_target,
         Kind.INVADE: _apply_invade}
