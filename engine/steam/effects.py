"""What spellcars and specialists do: each op of the effect vocabulary (``content.OPS``) as a step of
the game. An effect list becomes ``fx`` steps (``steps``); an op that needs no choice is done when its
step is reached, one that does becomes a step of its own kind (build, goods, cars, …) whose handler
asks the point, lists its answers and applies the one given. ``ctx`` says where the effects come
from: ``source`` (the card), ``slot`` (a spellcar's railyard slot), ``activation`` (mana they gain
may not pay for more activations this turn)."""

from __future__ import annotations

import itertools

from . import track
from .content import Effect
from .game import State, handlers
from .lines import Kind, Line, good_token
from .parts import Point
from .pieces import CITY, COLOURS, GOODS, WASTELAND


def steps(g: State, seat: int, effects: tuple[Effect, ...], ctx: dict) -> list[tuple]:
    return [("fx", seat, e, ctx) for e in effects]


def _with_ctx(g: State, ctx: dict):
    """Run mana gains as coming from an activation (or not), as ``ctx`` says."""
    g.turn.in_activation = bool(ctx.get("activation"))


def _fx_enter(g: State, step: tuple) -> None:
    g.todo.pop(0)
    _, seat, e, ctx = step
    _with_ctx(g, ctx)
    t = g.turn
    op = e.op
    push: list[tuple] = []
    if op == "build":
        push = [("build", seat, e, ctx, e.n, tuple(e.terrains), "one", None, ())]
    elif op == "build-each":
        push = [("build", seat, e, ctx, len(e.terrains), tuple(e.terrains), "each", None, ())]
    elif op == "build-same":
        push = [("build", seat, e, ctx, e.n, ("any",), "same", None, ())]
    elif op == "build-around":
        push = [("around", seat, e, ctx)]
    elif op == "wasteland":
        push = [("waste", seat, e, ctx)]
    elif op == "gain-mana":
        g.gain_mana(seat, e.n)
    elif op == "reclaim":
        g.reclaim(seat, None if e.n == 0 else e.n)
    elif op == "spellcar":
        push = [("take", seat, e.activate)] * e.n
    elif op == "specialist":
        push = [("gain", seat)]
    elif op == "refresh":
        from .flow import refresh
        refresh(g, seat, e.what or "both")
    elif op == "choose":
        push = [("choose", seat, e, ctx)]
    elif op in _GOODS_MODES:
        push = [("goods", seat, e, ctx, _GOODS_MODES[op], e.n, None)]
    elif op == "deliver":
        push = [("deliver", seat, "four" if e.demand else "one", e.n)]
    elif op in _CAR_MODES:
        push = [("cars", seat, e, ctx, _CAR_MODES[op], e.n, ctx.get("from"))]
    elif op == "car-bomb":
        push = [("scrap", s) for s in g.competitors(seat)]
    elif op in ("copy-neighbour", "copy-market", "copy-specialist"):
        push = [("copy", seat, e, ctx, op)]
    elif op == "rearrange":
        push = [("rearrange", seat, e, ctx)]
    elif op == "trade-specialist":
        push = [("trade", seat, e, ctx)]
    elif op == "draw-station":
        push = [("pick", seat, e, ctx, _draw_stations(g, e.n))]
    elif op == "swap-demand":
        push = [("swap", seat, e, ctx, e.n)]
    elif op == "extra-turn":
        t.extra_turn = True
    elif op == "move-ladder":
        t.move_ladders.append(tuple(e.costs))
    elif op == "free-activations":
        t.free_activations = True
        if e.inherent:
            t.no_inherent = True
        else:
            g.reclaim(seat, e.n)
    elif op == "no-inherent":
        t.no_inherent = True
    elif op == "free-transfer":
        t.free_transfers.append(tuple(e.terrains))
    elif op == "refresh-free":
        from .flow import refresh
        refresh(g, seat, "both")
        t.refresh_free = True
    # the standing rules of station masters (transfer-cost, demand-bonus, …) are read where they apply
    g.todo[:0] = push
    return None


_GOODS_MODES = {"return-goods": "return", "pull-good": "pull", "mirror-good": "mirror", "seed-good": "seed",
                "transmute": "transmute", "sweep-goods": "sweep", "remove-good": "remove"}
_CAR_MODES = {"move-car": "shift", "switch-cars": "switch", "clear-cars": "clear"}


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
    words = sorted(step[5], key=lambda w: w == "any")  # a named terrain before "any"
    for w in words:
        if track.target_ok(g, seat, h, e, (w,)):
            if mode == "each" and e.different and g.terrain[h] in used:
                continue
            return w
    return None


def _build_more(g: State, step: tuple) -> bool:
    """Whether a build offers more than skipping, found without listing every build when a hex next to
    the network (no transfer) will do."""
    seat, e = step[1], step[2]
    if e.where in ("global", "beside-last") or step[7] is not None:
        return len(_build_legal(g, step)) > 1
    if any(_target_terrains(g, step, h) is not None for h in track.network_adjacent(g, seat)):
        return True
    return len(_build_legal(g, step)) > 1


def _build_legal(g: State, step: tuple) -> list[Line]:
    seat, e = step[1], step[2]
    names = g.map.names
    f = g.folio(seat)
    out = []
    for h, path in track.reachable(g, seat, e, f.mana).items():
        if _target_terrains(g, step, h) is None:
            continue
        if track.transfers_cost(g, seat, path, e.free) > f.mana:
            continue
        out.append(Line(seat, "builds", (names[h], "via", *(names[p] for p in path)) if path else (names[h],)))
    return out + [Line(seat, "skips")]


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


# ---------------------------------------------------------------------- goods


def network_goods(g: State, seat: int) -> list[tuple[str, int]]:
    """Every good in the network, one entry per token: (colour, hex)."""
    return [(c, h) for h in sorted(track.network(g, seat)) for c, k in sorted(g.goods[h].items()) for _ in range(k)]


def _token(g: State, colour: str, h: int) -> str:
    return good_token(colour, g.map.names[h])


def _goods_legal(g: State, step: tuple) -> list[Line]:
    _, seat, e, ctx, mode, left, extra = step
    names = g.map.names
    net = track.network(g, seat)
    out: list[Line] = []
    if mode == "return":
        tokens = network_goods(g, seat)
        if any(x.op == "move-car" for x in e.then):
            tokens = [(c, h) for c, h in tokens if _car_moves(g, seat, h)]
        for combo in sorted(set(itertools.combinations(tokens, e.n))):
            out.append(Line(seat, "returns", tuple(_token(g, c, h) for c, h in combo)))
    elif mode == "pull":
        for d in sorted(net):
            sources = g.map.around[d] if e.what == "adjacent" else [
                h for h in range(g.map.size) if h not in net and not track.competitors_on(g, seat, h)]
            for a in sources:
                if a != d:
                    out += [Line(seat, "pulls", (_token(g, c, a), "to", names[d])) for c in sorted(g.goods[a])
                            if g.goods[a][c] > 0]
    elif mode == "mirror":
        out = [Line(seat, "mirrors", (_token(g, c, h),)) for c, h in dict.fromkeys(network_goods(g, seat))
               if g.supply[c] > 0]
    elif mode == "seed":
        out = [Line(seat, "seeds", (names[h],)) for h in sorted(net) if not g.goods[h].any() and g.terrain[h] in GOODS
               and g.supply[GOODS[g.terrain[h]]] > 0]
    elif mode == "transmute":
        out = [Line(seat, "transmutes", (_token(g, c, h), c2)) for c, h in dict.fromkeys(network_goods(g, seat))
               for c2 in COLOURS if c2 != c and g.supply[c2] > 0]
    elif mode == "sweep":
        out = [Line(seat, "sweeps", (names[h],)) for h in sorted(net)
               if any(g.goods[n].any() for n in g.map.around[h])]
    elif mode == "remove":
        last = g.turn.last_built
        if last is not None:
            out = [Line(seat, "removes", (_token(g, c, h),)) for h in g.map.around[last]
                   for c in sorted(g.goods[h]) if g.goods[h][c] > 0]
    elif mode == "place":
        return [Line(seat, "places", (c,)) for c in COLOURS if g.supply[c] > 0]
    return out + ([Line(seat, "skips")] if out else [])


def _car_moves(g: State, seat: int, h: int) -> list[int]:
    return [n for n in g.map.around[h] if track.can_hold(g, seat, n)]


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
    return sorted(h for h in track.network_adjacent(g, seat) if g.terrain[h] == CITY)


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
    colours = {c for c, _h in network_goods(g, seat)}
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
    _demand_trigger(g, seat)


# ---------------------------------------------------------------------- cars


def _cars_enter(g: State, step: tuple) -> Point | None:
    if step[5] <= 0:
        g.todo.pop(0)
        return None
    return Point(step[1], step[1], Kind.CARS, f"P{step[1]} moving train cars ({step[2].op})")


def _cars_legal(g: State, step: tuple) -> list[Line]:
    _, seat, e, ctx, mode, left, fixed = step
    names = g.map.names
    net = sorted(track.network(g, seat))
    out = []
    if mode == "shift":
        for a in ([fixed] if fixed is not None else net):
            if seat in g.cars[a]:
                out += [Line(seat, "shifts", (names[a], names[b])) for b in _car_moves(g, seat, a)]
    elif mode == "switch":
        for a in net:
            for b in g.map.around[a]:
                if seat in g.cars[b]:
                    continue
                out += [Line(seat, "switches", (names[a], names[b], f"P{k}")) for k in sorted(set(g.cars[b]))
                        if k != seat and not g.teammates(seat, k) and k not in g.cars[a]]
    elif mode == "clear":
        out = [Line(seat, "clears", (names[h],)) for h in net]
    return out + ([Line(seat, "skips")] if out else [])


def _cars_apply(g: State, step: tuple, d: Line) -> None:
    _, seat, e, ctx, mode, left, fixed = step
    if d.verb == "skips":
        return
    idx = g.map.index
    if mode == "shift":
        a, b = idx(d.args[0]), idx(d.args[1])
        g.cars[a].remove(seat)  # type: ignore[index]
        g.cars[b].append(seat)  # type: ignore[index]
        if left > 1:
            g.todo.insert(0, ("cars", seat, e, ctx, mode, left - 1, None))
    elif mode == "switch":
        a, b, k = idx(d.args[0]), idx(d.args[1]), int(d.args[2][1:])
        g.cars[a].remove(seat)  # type: ignore[index]
        g.cars[b].remove(k)  # type: ignore[index]
        g.cars[a].append(k)  # type: ignore[index]
        g.cars[b].append(seat)  # type: ignore[index]
    elif mode == "clear":
        h = idx(d.args[0])
        for n in (h, *g.map.around[h]):  # type: ignore[misc]
            for s in list(g.cars[n]):
                g.remove_car(s, n)


# ---------------------------------------------------------------------- the railyard and specialists


def _scrap_legal(g: State, step: tuple) -> list[Line]:
    seat = step[1]
    return [Line(seat, "scraps", (f"{c}:{r}",)) for c, r in sorted(g.folio(seat).yard)]


def _scrap_apply(g: State, step: tuple, d: Line) -> None:
    c, r = (int(x) for x in d.args[0].split(":"))
    del g.folio(step[1]).yard[(c, r)]


def _copy_options(g: State, step: tuple) -> list[tuple[str, tuple[Effect, ...], int, dict]]:
    """(what is written, the effects copied, their cost, the context they run in)."""
    _, seat, e, ctx, op = step
    f = g.folio(seat)
    from .flow import inherent
    out = []
    if op == "copy-neighbour":
        slot = ctx.get("slot")
        if slot is not None:
            for word, dc in (("left", -1), ("right", 1)):
                there = (slot[0] + dc, slot[1])
                key = f.slot(*there)
                if key is not None:
                    out.append((word, g.cat.spellcars[key].effects, inherent(g, key), {**ctx, "slot": there}))
    elif op == "copy-market":
        for key in dict.fromkeys(g.market):
            out.append((key, g.cat.spellcars[key].effects, inherent(g, key), dict(ctx)))
    else:
        for s in range(1, g.n + 1):
            other = g.folio(s)
            key = other.specialists.get(e.what or "")
            if s == seat or other.out or key is None:
                continue
            if e.what == "engineer" and key in other.exhausted:
                continue  # an engineer copied is a face-up one
            sp = g.specialist(key)
            out.append((f"P{s}", sp.effects, sp.cost, {**ctx, "source": key}))
    spend = g.unlocked(seat) if ctx.get("activation") else f.mana
    return [o for o in out if o[2] <= spend]


def _copy_apply(g: State, step: tuple, d: Line) -> None:
    seat = step[1]
    word, effects, cost, ctx = next(o for o in _copy_options(g, step) if o[0] == d.args[0])
    g.pay(seat, cost, activation=bool(ctx.get("activation")))
    g.todo[:0] = steps(g, seat, effects, ctx)


def _rearrange_legal(g: State, step: tuple) -> list[Line]:
    seat = step[1]
    f = g.folio(seat)
    filled = sorted(f.yard)
    empty = [(c, r) for r in (2, 3) for c in range(1, f.columns + 1)
             if (c, r) not in f.yard and (c, r) not in f.printed]
    out = [Line(seat, "rearranges", (f"{a[0]}:{a[1]}", f"{b[0]}:{b[1]}")) for a, b in itertools.combinations(filled, 2)]
    out += [Line(seat, "rearranges", (f"{a[0]}:{a[1]}", f"{b[0]}:{b[1]}")) for a in filled for b in empty]
    return out + ([Line(seat, "skips")] if out else [])


def _rearrange_apply(g: State, step: tuple, d: Line) -> None:
    if d.verb == "skips":
        return
    f = g.folio(step[1])
    a, b = (tuple(int(x) for x in w.split(":")) for w in d.args)
    ka, kb = f.yard.pop(a, None), f.yard.pop(b, None)
    if ka is not None:
        f.yard[b] = ka
    if kb is not None:
        f.yard[a] = kb


def _trade_legal(g: State, step: tuple) -> list[Line]:
    seat = step[1]
    f = g.folio(seat)
    out = []
    for kind in ("captain", "engineer", "station"):
        if kind not in f.specialists:
            continue
        out += [Line(seat, "trades", (kind, f"P{s}")) for s in range(1, g.n + 1)
                if s != seat and not g.folio(s).out and kind in g.folio(s).specialists]
    return out + ([Line(seat, "skips")] if out else [])


def _trade_apply(g: State, step: tuple, d: Line) -> None:
    if d.verb == "skips":
        return
    f, other = g.folio(step[1]), g.folio(int(d.args[1][1:]))
    kind = d.args[0]
    mine, theirs = f.specialists[kind], other.specialists[kind]
    f.specialists[kind], other.specialists[kind] = theirs, mine
    if mine in f.exhausted:
        f.exhausted.discard(mine)
        other.exhausted.add(mine)
    other.exhausted.discard(theirs)  # the one taken comes refreshed


def _draw_stations(g: State, n: int) -> tuple[str, ...] | None:
    if g.rng is None:
        return None
    box = [k for k in g.box.get("station", []) if k not in g.taken]
    g.rng.shuffle(box)
    return tuple(box[:n])


def _pick_legal(g: State, step: tuple) -> list[Line]:
    seat, drawn = step[1], step[4]
    if drawn is not None:
        return [Line(seat, "picks", (k,)) for k in drawn]
    from .flow import specialist_pool
    known = set(g.stacks.get("station") or [])
    return [Line(seat, "picks", (k,)) for k in specialist_pool(g, "station") if k not in g.taken and k not in known]


def _pick_apply(g: State, step: tuple, d: Line) -> None:
    g.folio(step[1]).extra.append(d.args[0])
    g.taken.add(d.args[0])
    g.tell("on_hire", step[1], d.args[0])


def _demand_tokens(g: State) -> list[tuple[str, int, int]]:
    return [(c, s, h) for h in sorted(g.stands) for c, s in dict.fromkeys(g.stands[h])]


def _swap_legal(g: State, step: tuple) -> list[Line]:
    seat = step[1]
    names = g.map.names
    out = []
    for (c1, s1, h1), (c2, s2, h2) in itertools.combinations(_demand_tokens(g), 2):
        if h1 != h2 and (c1, s1) != (c2, s2):
            out.append(Line(seat, "swaps", (f"{c1}-{s1}@{names[h1]}", f"{c2}-{s2}@{names[h2]}")))
    return out + ([Line(seat, "skips")] if out else [])


def _swap_check(g: State, step: tuple, d: Line) -> str | None:
    """Two demand tiles in the stands of two cities, written in either order."""
    if d.verb == "skips":
        return None
    where = []
    for w in d.args:
        tile, name = w.split("@")
        colour, size = tile.rsplit("-", 1)
        h = g.map.index(name)
        if h is None or h not in g.stands:
            return f"{name} is not a city"
        if (colour, int(size)) not in g.stands[h]:
            return f"the city on {name} has no {colour} demand tile for {size} goods"
        where.append(h)
    if where[0] == where[1]:
        return "demand tiles are swapped between two cities' stands, not within one"
    if d.args[0].split("@")[0] == d.args[1].split("@")[0]:
        return "the two tiles are alike: swapping them changes nothing"
    return None


def _swap_apply(g: State, step: tuple, d: Line) -> None:
    if d.verb == "skips":
        return
    tiles = []
    for w in d.args:
        tile, where = w.split("@")
        colour, size = tile.rsplit("-", 1)
        tiles.append((g.map.index(where), (colour, int(size))))
    (h1, t1), (h2, t2) = tiles
    g.stands[h1].remove(t1)
    g.stands[h2].remove(t2)
    g.stands[h1].append(t2)
    g.stands[h2].append(t1)
    if step[4] > 1:
        g.todo.insert(0, ("swap", step[1], step[2], step[3], step[4] - 1))


def _choose_legal(g: State, step: tuple) -> list[Line]:
    return [Line(step[1], "chooses", (name,)) for name in dict.fromkeys(opt[0].op for opt in step[2].options)]


def _choose_apply(g: State, step: tuple, d: Line) -> None:
    _, seat, e, ctx = step
    option = next(opt for opt in e.options if opt[0].op == d.args[0])
    g.todo[:0] = steps(g, seat, option, ctx)


def _plain(kind: Kind, words: str):
    def enter(g: State, step: tuple) -> Point:
        return Point(step[1], step[1], kind, f"P{step[1]} {words}")
    return enter


def _listed_why(what: str):
    def why(g: State, step: tuple, d: Line) -> str:
        legal = [" ".join(x.args) for x in g.legal_decisions() if x.args][:6]
        return (f"that {what} is not one {_source_name(g, step)} allows now"
                + (f" (it allows, for example: {'; '.join(legal)})" if legal else ""))
    return why


def _source_name(g: State, step: tuple) -> str:
    """The card or specialist whose effect a step is, by name ("Pollinator"), for refusals."""
    ctx = step[3] if len(step) > 3 and isinstance(step[3], dict) else {}
    key = ctx.get("source")
    found = g.cat.spellcars.get(key) or g.cat.specialists.get(key) if key else None
    return found.name if found is not None else "the effect"


handlers({
    "fx": {"enter": _fx_enter},
    "build": {"enter": _build_enter, "legal": _build_legal, "check": _build_check, "apply": _build_apply,
              "more": _build_more},
    "around": {"enter": _plain(Kind.BUILD, "building track around a hex"), "legal": _around_legal,
               "apply": _around_apply, "why": _listed_why("hex")},
    "waste": {"enter": _plain(Kind.WASTE, "placing a wasteland"), "legal": _waste_legal, "why": _waste_why,
              "apply": _waste_apply},
    "goods": {"enter": _goods_enter, "legal": _goods_legal, "apply": _goods_apply, "why": _listed_why("good")},
    "deliver": {"enter": _deliver_enter, "legal": _deliver_legal, "check": _deliver_check, "apply": _deliver_apply,
                "more": _deliver_more},
    "cars": {"enter": _cars_enter, "legal": _cars_legal, "apply": _cars_apply, "why": _listed_why("car move")},
    "scrap": {"enter": _plain(Kind.SCRAP, "discarding a spellcar (Car Bomb)"), "legal": _scrap_legal,
              "apply": _scrap_apply, "why": _listed_why("slot")},
    "copy": {"enter": _plain(Kind.COPY, "choosing what to copy"),
             "legal": lambda g, s: [Line(s[1], "copies", (o[0],)) for o in _copy_options(g, s)],
             "apply": _copy_apply, "why": _listed_why("copy")},
    "rearrange": {"enter": _plain(Kind.REARRANGE, "rearranging the railyard"), "legal": _rearrange_legal,
                  "apply": _rearrange_apply, "why": _listed_why("move")},
    "trade": {"enter": _plain(Kind.TRADE, "swapping a specialist"), "legal": _trade_legal, "apply": _trade_apply,
              "why": _listed_why("swap")},
    "pick": {"enter": _plain(Kind.PICK, "choosing a station master"), "legal": _pick_legal, "apply": _pick_apply,
             "why": _listed_why("station master")},
    "swap": {"enter": _plain(Kind.SWAP, "swapping demand tiles"), "legal": _swap_legal, "check": _swap_check,
             "apply": _swap_apply},
    "choose": {"enter": _plain(Kind.CHOOSE, "choosing one effect"), "legal": _choose_legal, "apply": _choose_apply},
})
