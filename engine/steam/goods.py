"""What cards do to goods — returned to the supply for an effect, pulled into the network, mirrored,
seeded, transmuted, swept, removed, placed on a hex just built — and deliveries: at the End of the Line
(demand tiles, the station masters that add to it), of one good or of four by an effect, and the final
deliveries."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from . import track
from .content import Effect
from .effects import listed_why, steps
from .game import State, handlers
from .lines import Kind, Line, good_token
from .parts import Point
from .pieces import CITY, COLOURS, GOODS

# ---------------------------------------------------------------------- goods


def network_goods(g: State, seat: int) -> list[tuple[str, int]]:
    """Every good in the network, one entry per token: (colour, hex)."""
    return [(c, h) for h in sorted(track.network(g, seat)) for c, k in sorted(g.goods[h].items()) for _ in range(k)]


def _token(g: State, colour: str, h: int) -> str:
    return good_token(colour, g.map.names[h])


def _returnable(g: State, seat: int, e: Effect) -> list[tuple[str, int]]:
    """The goods a return may take: every good in the network (where a car moves after, only from a
    hex its car can move off)."""
    tokens = network_goods(g, seat)
    if any(x.op == "move-car" for x in e.then):
        tokens = [(c, h) for c, h in tokens if track.car_moves(g, seat, h)]
    return tokens


def _goods_options(g: State, step: tuple) -> Iterator[Line]:
    """The answers of a goods point but skipping, one at a time (so that whether there is any is
    found without listing them all)."""
    _, seat, e, ctx, mode, left, extra = step
    names = g.map.names
    net = track.network(g, seat)
    if mode == "return":
        tokens = _returnable(g, seat, e)
        for combo in sorted(set(itertools.combinations(tokens, e.n))):
            yield Line(seat, "returns", tuple(_token(g, c, h) for c, h in combo))
    elif mode == "pull":
        for d in sorted(net):
            sources = g.map.around[d] if e.what == "adjacent" else (
                h for h in range(g.map.size) if h not in net and g.goods[h] and not track.competitors_on(g, seat, h))
            for a in sources:
                if a != d:
                    yield from (Line(seat, "pulls", (_token(g, c, a), "to", names[d])) for c in sorted(g.goods[a]))
    elif mode == "mirror":
        yield from (Line(seat, "mirrors", (_token(g, c, h),)) for c, h in dict.fromkeys(network_goods(g, seat))
                    if g.supply[c] > 0)
    elif mode == "seed":
        yield from (Line(seat, "seeds", (names[h],)) for h in sorted(net) if not g.goods[h] and g.terrain[h] in GOODS
                    and g.supply[GOODS[g.terrain[h]]] > 0)
    elif mode == "transmute":
        yield from (Line(seat, "transmutes", (_token(g, c, h), c2)) for c, h in dict.fromkeys(network_goods(g, seat))
                    for c2 in COLOURS if c2 != c and g.supply[c2] > 0)
    elif mode == "sweep":
        yield from (Line(seat, "sweeps", (names[h],)) for h in sorted(net) if any(g.goods[n] for n in g.map.around[h]))
    elif mode == "remove":
        last = g.turn.last_built
        if last is not None:
            yield from (Line(seat, "removes", (_token(g, c, h),)) for h in g.map.around[last]
                        for c in sorted(g.goods[h]))
    elif mode == "place":
        yield from (Line(seat, "places", (c,)) for c in COLOURS if g.supply[c] > 0)


def _goods_legal(g: State, step: tuple) -> list[Line]:
    out = list(_goods_options(g, step))
    if step[4] == "place":
        return out  # a good placed is not skipped
    return out + ([Line(step[1], "skips")] if out else [])


def _goods_check(g: State, step: tuple, d: Line) -> str | None:
    """A goods line checked as written (listing every good Dolores could pull costs too much)."""
    _, seat, e, ctx, mode, left, extra = step
    if d.verb == "skips":
        return None if mode != "place" and _goods_more(g, step) else listed_why("good")(g, step, d)
    if _written_ok(g, step, d):
        return None
    return listed_why("good")(g, step, d)


def _written_ok(g: State, step: tuple, d: Line) -> bool:
    _, seat, e, ctx, mode, left, extra = step
    verb = {"return": "returns", "pull": "pulls", "mirror": "mirrors", "seed": "seeds", "transmute": "transmutes",
            "sweep": "sweeps", "remove": "removes", "place": "places"}[mode]
    if d.verb != verb:
        return False
    net = track.network(g, seat)
    idx = g.map.index
    if mode == "place":
        return g.supply[d.args[0]] > 0
    if mode in ("seed", "sweep"):
        h = idx(d.args[0])
        if h is None or h not in net:
            return False
        if mode == "seed":
            return not g.goods[h] and g.terrain[h] in GOODS and g.supply[GOODS[g.terrain[h]]] > 0
        return any(g.goods[n] for n in g.map.around[h])
    found = [g.good_here(t) for t in d.args if "@" in t]
    if any(f is None for f in found):
        return False
    if mode == "return":
        need = Counter(found)  # type: ignore[arg-type]
        moving = any(x.op == "move-car" for x in e.then)
        return len(found) == e.n and all(h in net and g.goods[h][c] >= k and (not moving or track.car_moves(g, seat, h))
                                         for (h, c), k in need.items())
    h, c = found[0]  # type: ignore[misc]
    if mode in ("mirror", "transmute"):
        return h in net and (g.supply[c] > 0 if mode == "mirror" else d.args[1] != c and g.supply[d.args[1]] > 0)
    if mode == "remove":
        last = g.turn.last_built
        return last is not None and h in g.map.around[last]
    to = idx(d.args[2])  # pull
    if to is None or to not in net or to == h:
        return False
    if e.what == "adjacent":
        return h in g.map.around[to]
    return h not in net and not track.competitors_on(g, seat, h)


def _goods_more(g: State, step: tuple) -> bool:
    """Whether a goods point has more than one answer: any answer and skipping (two colours to place)."""
    if step[4] == "return":  # a return of n goods exists when n goods may be taken (listing them is dear)
        return len(_returnable(g, step[1], step[2])) >= step[2].n
    found = _goods_options(g, step)
    first = next(found, None)
    return first is not None and (step[4] != "place" or next(found, None) is not None)


def _goods_enter(g: State, step: tuple) -> Point | None:
    if step[5] <= 0:
        g.todo.pop(0)
        return None
    return Point(step[1], step[1], Kind.GOODS, f"P{step[1]} moving goods ({step[2].op})")


def _goods_apply(g: State, step: tuple, d: Line) -> None:
    _, seat, e, ctx, mode, left, extra = step
    if d.verb == "skips":
        return
    idx = g.map.index
    if mode == "return":
        first = None
        for tok in d.args:
            h, c = g.good_here(tok)  # type: ignore[misc]
            g.goods[h].take(c)
            g.supply[c] += 1
            first = h if first is None else first
        g.todo[:0] = steps(g, seat, e.then, {**ctx, "from": first})
    elif mode == "pull":
        a, c = g.good_here(d.args[0])  # type: ignore[misc]
        g.goods[a].take(c)
        g.goods[idx(d.args[2])][c] += 1  # type: ignore[index]
    elif mode == "mirror":
        h, c = g.good_here(d.args[0])  # type: ignore[misc]
        g.goods[h][c] += 1
        g.supply[c] -= 1
    elif mode == "seed":
        h = idx(d.args[0])
        c = GOODS[g.terrain[h]]  # type: ignore[index]
        g.goods[h][c] += 1  # type: ignore[index]
        g.supply[c] -= 1
        if left > 1:
            g.todo.insert(0, ("goods", seat, e, ctx, mode, left - 1, extra))
    elif mode == "transmute":
        h, c = g.good_here(d.args[0])  # type: ignore[misc]
        g.goods[h].take(c)
        g.supply[c] += 1
        g.goods[h][d.args[1]] += 1
        g.supply[d.args[1]] -= 1
    elif mode == "sweep":
        h = idx(d.args[0])
        for n in g.map.around[h]:  # type: ignore[index]
            for c, k in g.goods[n].items():
                g.goods[h][c] += k  # type: ignore[index]
            g.goods[n] = type(g.goods[n])()
    elif mode == "remove":
        h, c = g.good_here(d.args[0])  # type: ignore[misc]
        g.goods[h].take(c)
        g.supply[c] += 1
    elif mode == "place":
        g.goods[extra][d.args[0]] += 1
        g.supply[d.args[0]] -= 1


# ---------------------------------------------------------------------- deliveries


def _deliver_enter(g: State, step: tuple) -> Point | None:
    g.phase = "deliver" if step[2] != "final" else "final deliveries"
    return Point(step[1], step[1], Kind.DELIVER, f"P{step[1]} delivering goods" +
                 (" (the final delivery)" if step[2] == "final" else ""))


def _cities(g: State, seat: int) -> list[int]:
    """The cities next to the company's network (a car never stands on a city)."""
    net, terrain = g.folio(seat).network, g.terrain
    return sorted({n for h in net for n in g.map.around[h] if terrain[n] == CITY})


def _colours_at(g: State, city: int) -> list[str]:
    """What may be delivered to a city: its own colour, and the colour of any tile swapped into its stand."""
    own = g.map.cities[city]
    return list(dict.fromkeys([own] + [c for c, _s in g.stands.get(city, [])]))


def _bonus(g: State, seat: int, mode: str) -> int:
    return 1 if mode == "line" and g.passive(seat, "demand-bonus") else 0


def _deliver_more(g: State, step: tuple) -> bool:
    """Whether there is a delivery to make (besides passing), found without listing them."""
    seat = step[1]
    cities = _cities(g, seat)
    if not cities:
        return False
    colours = {c for h in g.folio(seat).network for c, k in g.goods[h].items() if k > 0}
    return any(c in colours for city in cities for c in _colours_at(g, city))


def _deliver_legal(g: State, step: tuple) -> list[Line]:
    _, seat, mode, most = step
    names = g.map.names
    goods = network_goods(g, seat)
    out = []
    for city in _cities(g, seat):
        for colour in _colours_at(g, city):
            mine = [h for c, h in goods if c == colour]
            for k in range(1, min(most, len(mine)) + 1):
                base = (colour, "to", names[city], "from", *(names[h] for h in mine[:k]))
                if colour == g.map.cities[city]:
                    out.append(Line(seat, "delivers", base))
                if mode != "one":
                    for size in sorted({s for c, s in g.stands[city] if c == colour}):
                        if size <= k + _bonus(g, seat, mode):
                            out.append(Line(seat, "delivers", (*base, "takes", str(size))))
    return out + [Line(seat, "passes")]


def _deliver_check(g: State, step: tuple, d: Line) -> str | None:
    _, seat, mode, most = step
    if d.verb == "passes":
        return None
    colour, city_name = d.args[0], d.args[2]
    rest = list(d.args[4:])
    size = None
    if len(rest) >= 2 and rest[-2] == "takes":
        size = int(rest[-1])
        rest = rest[:-2]
    city = g.map.index(city_name)
    if city is None or g.terrain[city] != CITY:
        return f"{city_name} is not a city"
    if city not in _cities(g, seat):
        return f"the city on {city_name} is not next to P{seat}'s network (rule 'Deliver')"
    if colour not in _colours_at(g, city):
        return f"the city on {city_name} takes {g.map.cities[city]} goods, not {colour}"
    if len(rest) > most:
        return f"this delivery takes {most} good(s) at most"
    net = track.network(g, seat)
    need: dict[int, int] = {}
    for w in rest:
        h = g.map.index(w)
        if h is None or h not in net:
            return f"{w} is not in P{seat}'s network: goods are picked up from hexes with the company's cars"
        need[h] = need.get(h, 0) + 1
    for h, k in need.items():
        if g.goods[h][colour] < k:
            return f"{g.map.names[h]} holds {g.goods[h][colour]} {colour}, not {k}"
    if size is not None:
        if mode == "one":
            return "a delivery of one good takes no demand tile"
        if (colour, size) not in g.stands[city]:
            return f"the city on {city_name} has no {colour} demand tile for {size} goods left"
        if size > len(rest) + _bonus(g, seat, mode):
            return f"a demand tile for {size} goods needs {size} goods delivered at once, not {len(rest)}"
    elif colour != g.map.cities[city]:
        return f"{colour} goods go to the city on {city_name} only to claim the {colour} demand tile swapped there"
    return None


def _deliver_apply(g: State, step: tuple, d: Line) -> None:
    _, seat, mode, most = step
    if d.verb == "passes":
        return
    f = g.folio(seat)
    colour, city = d.args[0], g.map.index(d.args[2])
    rest = list(d.args[4:])
    size = None
    if len(rest) >= 2 and rest[-2] == "takes":
        size, rest = int(rest[-1]), rest[:-2]
    for w in rest:
        g.goods[g.map.index(w)].take(colour)  # type: ignore[index]
    f.goods[colour] += len(rest)
    if size is not None:
        g.stands[city].remove((colour, size))  # type: ignore[index]
        f.demand.append((colour, size))
    if mode == "line":
        for _e in g.passive(seat, "deliver-mana"):
            g.gain_mana(seat, 1)
        if size is None:
            want = g.map.cities[city]  # type: ignore[index]
            for e in g.passive(seat, "no-demand-goods"):
                got = min(e.n, g.supply[want])
                f.goods[want] += got
                g.supply[want] -= got
    from .flow import _demand_trigger
    _demand_trigger(g)


handlers({
    "goods": {"enter": _goods_enter, "legal": _goods_legal, "check": _goods_check, "apply": _goods_apply,
              "more": _goods_more},
    "deliver": {"enter": _deliver_enter, "legal": _deliver_legal, "check": _deliver_check, "apply": _deliver_apply,
                "more": _deliver_more},
})
