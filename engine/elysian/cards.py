"""Cards of Elysian Battlefields in play: the "play a card" step, what each effect of an order does,
and the lasting ones (upgrades, heroic items, the hero's ability) that change a player's numbers.

An order's effects run as steps in the order printed; one that needs a choice (where to place a
unit, what to build, which enemy unit to strike) is a decision point of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from . import hands
from .catalog import Effect
from .lines import Kind, Line
from .parts import Point, Unit
from .pieces import STANDARD, WALL_DEFENSE

if TYPE_CHECKING:
    from .game import State

PLAYABLE = frozenset({"order", "upgrade", "item"})  # effect cards wait for their event
TURN_BONUS = {"power": "power", "attacks": "attacks", "moves": "moves", "speed": "speed", "range": "reach",
              "play": "plays"}


# ---------------------------------------------------------------------- a player's lasting numbers
def lasting(g: State, seat: int) -> Iterator[Effect]:
    """The effects always working for a player: upgrades kept, the hero's ability while the hero is on
    the field (choice C9) and the items the hero carries."""
    p = g.player(seat)
    for k in p.upgrades:
        yield from g.cat.cards[k].effects
    if p.hero is not None and g.hero_unit(seat) is not None:
        yield from g.cat.heroes[p.hero].effects
        for k in p.items:
            yield from g.cat.cards[k].effects


def bonus(g: State, seat: int, do: str, what: str | None = None) -> int:
    key = (seat, do, what)
    value = g.lasting_cache.get(key)
    if value is None:
        value = g.lasting_cache[key] = sum(e.n for e in lasting(g, seat) if e.do == do
                                           and (what is None or e.what == what))
    return value


def base(g: State, seat: int, kind: str, what: str) -> int:
    if kind == "hero":
        return getattr(g.cat.heroes[g.player(seat).hero], what)  # type: ignore[index]
    return getattr(STANDARD[kind], what)


def stat(g: State, seat: int, kind: str, what: str) -> int:
    """A unit's attack, defense, move or range for its player, with every lasting effect."""
    key = (seat, kind, what)
    value = g.lasting_cache.get(key)
    if value is None:
        fits = (kind, "standard") if kind in STANDARD else (kind,)
        extra = sum(e.n for e in lasting(g, seat) if e.do == "stat" and e.what == what and e.unit in fits)
        value = g.lasting_cache[key] = max(0, base(g, seat, kind, what) + extra)
    return value


def wall_defense(g: State, seat: int | None) -> int:
    return WALL_DEFENSE + (bonus(g, seat, "walls") if seat is not None else 0)


def drop_items(g: State, owner: Any, by: int | None) -> None:
    """A defeated hero's items pass to the hero of the player who defeated it; with no such hero on
    the field they are discarded (choice C13)."""
    items, owner.items = owner.items, []
    g.lasting_changed()
    if by is not None and by != owner.seat and g.hero_unit(by) is not None:
        g.player(by).items += items
        return
    for k in items:
        g.decks[g.cat.cards[k].deck].discard.append(k)


def reach(g: State, u: Unit) -> dict[str, int]:
    """Where unit ``u`` may move now: up to its Move (and this turn's extra), never into or through
    water or a territory another player holds; with the steps each takes."""
    steps = stat(g, u.player, u.kind, "move") + g.turn.speed
    holders = g.holders()
    terr = g.land.territories
    return g.land.reachable(u.where, steps,
                            lambda n: terr[n].terrain != "water" and holders.get(n, u.player) == u.player)


# ---------------------------------------------------------------------- placing units
def place(g: State, seat: int, kind: str, where: str) -> None:
    if kind != "hero":
        g.player(seat).supply[kind] -= 1
    else:
        g.lasting_changed()
    g.units.append(Unit(kind, seat, where))
    site = g.sites.get(where)
    if site is not None and site.settlement and site.holder is None:
        site.holder = seat


def deploy_options(g: State, seat: int, allowed: tuple, where: Any) -> list[tuple[str, str]]:
    """Where a standard unit may be placed: ``where`` is the territories themselves, "settlement"
    (any of the player's), "forces" (any they occupy) or "home" (their settlements, or with none,
    any territory their forces occupy: the book's rule for the rebel bonus and traded cards)."""
    if g.player(seat).out:
        return []
    if where == "settlement":
        places = g.settlements(seat)
    elif where == "forces":
        places = g.held(seat)
    elif where == "home":
        places = g.settlements(seat) or g.held(seat)
    else:
        places = [t for t in where if g.holder(t) in (None, seat)]
    supply = g.player(seat).supply
    return [(u, t) for u in allowed if supply[u] > 0 for t in places]


# ---------------------------------------------------------------------- the play step
def plays(g: State, seat: int) -> list[Line]:
    p = g.player(seat)
    out = []
    if g.turn.plays > 0:
        for k in hands.possible(g.cat, g.shown, p.hand, PLAYABLE):
            if g.cat.cards[k].kind != "item" or g.hero_unit(seat) is not None:
                out.append(Line(seat, "plays", (k,)))
        if deploy_options(g, seat, tuple(STANDARD), "home"):
            out += [Line(seat, "trades", (k,)) for k in hands.possible(g.cat, g.shown, p.hand, None)]
    return out + [Line(seat, "skips")]


def discard(g: State, seat: int, key: str) -> None:
    hands.take(g.cat, g.shown, g.player(seat).hand, key)
    g.decks[g.cat.cards[key].deck].discard.append(key)


def _apply_play(g: State, step: tuple, d: Line) -> None:
    seat = d.actor
    if d.verb == "skips":
        g.turn.plays = 0
        return
    g.turn.plays -= 1
    after: list[tuple] = [("play", seat)] if g.turn.plays > 0 else []
    key = d.args[0]
    if d.verb == "trades":
        discard(g, seat, key)
        g.todo[:0] = [("deploy", seat, tuple(STANDARD), "home", "a card traded")] + after
        return
    card = g.cat.cards[key]
    for o in g.observers:
        o.on_card(g, seat, key)
    hands.take(g.cat, g.shown, g.player(seat).hand, key)
    if card.kind == "upgrade":
        g.player(seat).upgrades.append(key)
        g.lasting_changed()
    elif card.kind == "item":
        g.player(seat).items.append(key)
        g.lasting_changed()
    else:
        g.decks[card.deck].discard.append(key)
    steps: list[tuple] = []
    for e in card.effects if card.kind == "order" else ():
        if e.do in TURN_BONUS:
            attr = TURN_BONUS[e.do]
            setattr(g.turn, attr, getattr(g.turn, attr) + e.n)
            if e.do == "play" and not after:
                after = [("play", seat)]
        elif e.do == "deploy":
            units = tuple(STANDARD) if e.unit == "any" else (e.unit,)
            steps += [("deploy", seat, units, e.where, card.name)] * e.n
        elif e.do == "draw":
            steps += [("draw", seat, card.name)] * e.n
        elif e.do == "build":
            steps.append(("build", seat, e.what))
        elif e.do == "upgrade":
            steps.append(("upgrade", seat, e.what))
        elif e.do == "strike":
            steps.append(("strike", seat, e.n))
    g.todo[:0] = steps + after


# ---------------------------------------------------------------------- building, upgrading, striking
def _build_places(g: State, seat: int, what: str) -> list[str]:
    out = []
    for t in g.held(seat):
        site, water = g.site(t), g.land.territories[t].terrain == "water"
        if water:
            continue
        if what == "outpost" and not site.settlement and g.player(seat).supply["outpost"] > 0:
            out.append(t)
        elif what == "walls" and not site.walls and g.walls_left > 0:
            out.append(t)
        elif what == "temple" and not site.temple and g.temples_left > 0:
            out.append(t)
    return out


def _legal_build(g: State, seat: int, step: tuple) -> list[Line]:
    return [Line(seat, "builds", (step[2], t)) for t in _build_places(g, seat, step[2])]


def _legal_upgrade(g: State, seat: int, step: tuple) -> list[Line]:
    if g.player(seat).supply[step[2]] <= 0:
        return []
    return [Line(seat, "upgrades", (t,)) for t in g.settlements(seat) if g.sites[t].settlement == "outpost"]


def _strike_targets(g: State, seat: int) -> list[tuple[str, str]]:
    near = {n for t in g.held(seat) for n in g.land.adjacent(t)}
    out = {(u.kind, u.where) for u in g.units
           if u.where in near and u.player != seat and u.kind in STANDARD}
    return sorted(out, key=lambda x: (_order(x[1]), x[0]))


def _legal_strike(g: State, seat: int, step: tuple) -> list[Line]:
    return [Line(seat, "strikes", t) for t in _strike_targets(g, seat)] + [Line(seat, "stops")]


def _order(name: str) -> tuple[int, str]:
    return int(name[:-1]), name[-1]


def _point(kind: Kind, words: str, legal):
    def step(g: State, s: tuple) -> bool:
        seat = s[1]
        if not legal(g, seat, s) or (kind is Kind.STRIKE and (s[2] <= 0 or not _strike_targets(g, seat))):
            g.todo.pop(0)
            return False
        return g._ask(Point(seat, seat, kind, f"P{seat} {words}"))
    return step


def _apply_build(g: State, step: tuple, d: Line) -> None:
    what, t = d.args
    site = g.site(t)
    if what == "outpost":
        site.settlement, site.holder = "outpost", d.actor
        g.player(d.actor).supply["outpost"] -= 1
    elif what == "walls":
        site.walls = True
        g.walls_left -= 1
    else:
        site.temple = True
        g.temples_left -= 1


def _apply_upgrade(g: State, step: tuple, d: Line) -> None:
    site, supply = g.sites[d.args[0]], g.player(d.actor).supply
    supply[site.settlement] += 1  # type: ignore[index]
    site.settlement = step[2]
    supply[step[2]] -= 1


def _apply_strike(g: State, step: tuple, d: Line) -> None:
    if d.verb == "stops":
        return
    kind, t = d.args
    victim = next(u for u in g.units_at(t) if u.kind == kind and u.player != d.actor)
    g.destroy(victim, d.actor)
    if step[2] > 1:
        g.todo.insert(0, ("strike", d.actor, step[2] - 1))


STEPS = {"build": _point(Kind.BUILD, "building", _legal_build),
         "upgrade": _point(Kind.UPGRADE, "upgrading an outpost", _legal_upgrade),
         "strike": _point(Kind.STRIKE, "striking an enemy unit", _legal_strike)}
LEGAL = {Kind.BUILD: _legal_build, Kind.UPGRADE: _legal_upgrade, Kind.STRIKE: _legal_strike}
APPLY = {Kind.PLAY: _apply_play, Kind.BUILD: _apply_build, Kind.UPGRADE: _apply_upgrade, Kind.STRIKE: _apply_strike}
