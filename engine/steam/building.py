"""What cards do to build track: a build of the effect's terrains (with its transfers, paid for), Build
on Two and Worldspanner's builds of each, Hydeart's builds of one terrain, Mindra's builds around a hex,
and wastelands placed (Bartok's build on one, Aerlion's free transfer over it). The network and the
transfers' costs are ``track.py``'s."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from . import track
from .content import Effect
from .effects import listed_why
from .game import State, asker, handlers
from .lines import Kind, Line
from .parts import Point
from .pieces import CITY, WASTELAND

# ---------------------------------------------------------------------- building track


def _build_terrains(g: State, step: tuple) -> tuple[str, ...]:
    return step[5]


def _build_enter(g: State, step: tuple) -> Point | None:
    seat, left = step[1], step[4]
    if left <= 0 or g.folio(seat).trains <= 0:
        g.todo.pop(0)
        return None
    g.phase = "build"
    return Point(seat, seat, Kind.BUILD, f"P{seat} building track ({_terrain_words(step[5])})")


def _terrain_words(terrains: tuple[str, ...]) -> str:
    return " or ".join("any terrain but wasteland" if t == "any" else "a hex with a competitor's car"
                       if t == "competitor" else "home terrain" if t == "home" else t for t in dict.fromkeys(terrains))


def _target_terrains(g: State, step: tuple, h: int) -> str | None:
    """The terrain word of the step's list hex ``h`` is built as (None: none fits)."""
    seat, e, mode, only, used = step[1], step[2], step[6], step[7], step[8]
    if only is not None and h != only:
        return None
    if not track.can_hold(g, seat, h) or not track.where_ok(g, seat, h, e.where):
        return None
    for w in _named_first(step[5]):
        if track.fits(g, seat, h, w):
            if mode == "each" and e.different and g.terrain[h] in used:
                continue
            return w
    return None


@lru_cache(maxsize=None)
def _named_first(terrains: tuple[str, ...]) -> tuple[str, ...]:
    """A build's terrain words, a named terrain before "any"."""
    return tuple(sorted(terrains, key=lambda w: w == "any"))


def _build_more(g: State, step: tuple) -> bool:
    """Whether a build offers more than skipping: the first build found will do, and a hex next to the
    network (no transfer to pay) is looked for first, straight from the folio's network."""
    if track.needs_network(step[2]):
        net, around = g.folio(step[1]).network, g.map.around
        if any(n not in net and _target_terrains(g, step, n) is not None for h in net for n in around[h]):
            return True
    return next(_builds(g, step), None) is not None


def _builds(g: State, step: tuple) -> Iterator[tuple[int, list[int]]]:
    """(hex, transfer path) of each build the step allows, as the search finds them."""
    seat, e = step[1], step[2]
    f = g.folio(seat)
    for h, path in track.reachable(g, seat, e, f.mana):
        if _target_terrains(g, step, h) is not None and track.transfers_cost(g, seat, path, e.free) <= f.mana:
            yield h, path


def _build_legal(g: State, step: tuple) -> list[Line]:
    seat, names = step[1], g.map.names
    return [Line(seat, "builds", (names[h], "via", *(names[p] for p in path)) if path else (names[h],))
            for h, path in _builds(g, step)] + [Line(seat, "skips")]


def _build_check(g: State, step: tuple, d: Line) -> str | None:
    if d.verb == "skips":
        return None
    if d.args[0] == "around":
        return "building around a hex is Mindra Dirac's; this is one build"
    names = [d.args[0]] + list(d.args[2:])
    hexes = [g.map.index(w) for w in names]
    bad = next((w for w, h in zip(names, hexes) if h is None), None)
    if bad is not None:
        return f"{bad} is not a hex of this map"
    h, path = hexes[0], hexes[1:]
    return _build_problem(g, step, h, path)  # type: ignore[arg-type]


def _build_problem(g: State, step: tuple, h: int, path: list[int]) -> str | None:
    seat, e = step[1], step[2]
    name = g.map.names[h]
    if g.terrain[h] == CITY:
        return f"{name} is a city: a train car never stands on a city"
    if seat in g.cars[h]:
        return f"P{seat} has a train car on {name} already"
    if len(g.cars[h]) >= 3:
        return f"{name} holds three train cars: no more fit"
    if step[7] is not None and h != step[7]:
        return f"this build goes on {g.map.names[step[7]]}"
    if _target_terrains(g, step, h) is None:
        here = g.terrain[h]
        extra = {"edge": " on the edge of the map", "city": " next to a city",
                 "city-or-wasteland": " next to a city or wasteland",
                 "beside-last": " next to the hex just built on"}.get(e.where, "")
        return f"{name} is {here}; this build needs {_terrain_words(step[5])}{extra}"
    why = track.path_problem(g, seat, h, path, e)
    if why is not None:
        return why
    cost = track.transfers_cost(g, seat, path, e.free)
    if cost > g.folio(seat).mana:
        return (f"the transfers over {', '.join(g.map.names[p] for p in path)} cost {cost} mana and P{seat} has "
                f"{g.folio(seat).mana} (rule 'Transfers': a city 3, a competitor 2, a wasteland 4)")
    return None


def _build_apply(g: State, step: tuple, d: Line) -> None:
    _, seat, e, ctx, left, terrains, mode, only, used = step
    if d.verb == "skips":
        return
    h = g.map.index(d.args[0])
    path = [g.map.index(w) for w in d.args[2:]]
    word = _target_terrains(g, step, h)  # type: ignore[arg-type]
    cost = track.transfers_cost(g, seat, path, e.free)  # type: ignore[arg-type]
    for token in track.wendy_used(g, seat, path, e.free):  # type: ignore[arg-type]
        g.turn.free_transfers.remove(token)
    g.pay(seat, cost)
    g.place_car(seat, h)  # type: ignore[arg-type]
    g.turn.last_built = h
    after: list[tuple] = []
    if e.good is not None:
        if e.good == "any":
            after.append(("goods", seat, e, ctx, "place", 1, h))
        elif g.supply[e.good] > 0:
            g.goods[h][e.good] += 1  # type: ignore[index]
            g.supply[e.good] -= 1
    rest = list(terrains)
    if mode == "each":
        rest.remove(word)
    elif mode == "same":
        rest = [g.terrain[h]]  # type: ignore[index]
    nxt = ("build", seat, e, ctx, left - 1, tuple(rest), mode, only, used + (g.terrain[h],))  # type: ignore[index]
    g.todo[:0] = after + ([nxt] if left > 1 else [])


def _around_legal(g: State, step: tuple) -> list[Line]:
    seat = step[1]
    names = g.map.names
    return [Line(seat, "builds", ("around", names[h])) for h in sorted(track.network(g, seat))
            if _around_targets(g, seat, h)] + [Line(seat, "skips")]


def _around_targets(g: State, seat: int, h: int) -> list[int]:
    return [n for n in g.map.around[h] if track.can_hold(g, seat, n) and g.terrain[n] != WASTELAND]


def _around_apply(g: State, step: tuple, d: Line) -> None:
    seat = step[1]
    if d.verb == "skips":
        return
    for n in _around_targets(g, seat, g.map.index(d.args[1])):  # type: ignore[arg-type]
        if g.folio(seat).trains > 0:
            g.place_car(seat, n)


# ---------------------------------------------------------------------- wastelands


def _waste_targets(g: State, seat: int) -> list[int]:
    if g.wastelands <= 0:
        return []
    net = track.network(g, seat)
    near = net | track.network_adjacent(g, seat, net)
    return sorted(h for h in near if g.terrain[h] not in (CITY, WASTELAND))


def _waste_legal(g: State, step: tuple) -> list[Line]:
    return [Line(step[1], "wastes", (g.map.names[h],)) for h in _waste_targets(g, step[1])]


def _waste_why(g: State, step: tuple, d: Line) -> str | None:
    h = g.map.index(d.args[0])
    if h is None:
        return f"{d.args[0]} is not a hex of this map"
    if g.terrain[h] in (CITY, WASTELAND):
        return f"{d.args[0]} is a {g.terrain[h]}: a wasteland goes on neither a city nor another wasteland"
    return f"{d.args[0]} is neither in P{step[1]}'s network nor next to it"


def _waste_apply(g: State, step: tuple, d: Line) -> None:
    _, seat, e, ctx = step
    h = g.map.index(d.args[0])
    g.place_wasteland(seat, h, e.keep)  # type: ignore[arg-type]
    if e.free_through:
        g.turn.free_through.add(h)
    if e.build:
        only = Effect("build", terrains=("wasteland",))
        g.todo.insert(0, ("build", seat, only, ctx, 1, ("wasteland",), "one", h, ()))


handlers({
    "build": {"enter": _build_enter, "legal": _build_legal, "check": _build_check, "apply": _build_apply,
              "more": _build_more},
    "around": {"enter": asker(Kind.BUILD, "building track around a hex"), "legal": _around_legal,
               "apply": _around_apply, "why": listed_why("hex")},
    "waste": {"enter": asker(Kind.WASTE, "placing a wasteland"), "legal": _waste_legal, "why": _waste_why,
              "apply": _waste_apply},
})
