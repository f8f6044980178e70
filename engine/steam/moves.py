"""What cards do to cars, folios and the cities' stands: cars moved, switched and cleared; Car Bomb's
discards; copies (a neighbouring spellcar, a market one, another company's engineer or surveyor); the
railyard rearranged; specialists traded; Aella's station master; demand tiles swapped."""

from __future__ import annotations

import itertools

from . import track
from .content import Effect
from .effects import listed_why, steps
from .game import State, asker, handlers
from .lines import Kind, Line
from .parts import Point

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
                out += [Line(seat, "shifts", (names[a], names[b])) for b in track.car_moves(g, seat, a)]
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
        g.move_car(seat, a, b)  # type: ignore[arg-type]
        if left > 1:
            g.todo.insert(0, ("cars", seat, e, ctx, mode, left - 1, None))
    elif mode == "switch":
        a, b, k = idx(d.args[0]), idx(d.args[1]), int(d.args[2][1:])
        g.move_car(seat, a, b)  # type: ignore[arg-type]
        g.move_car(k, b, a)  # type: ignore[arg-type]
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


def draw_stations(g: State, n: int) -> tuple[str, ...] | None:
    if g.rng is None:
        return None
    box = [k for k in g.box.get("station", []) if k not in g.taken]
    g.rng.shuffle(box)
    return tuple(box[:n])


def _pick_legal(g: State, step: tuple) -> list[Line]:
    seat, drawn = step[1], step[4]
    if drawn is not None:
        return [Line(seat, "picks", (k,)) for k in drawn]
    from .setup import specialist_pool
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


handlers({
    "cars": {"enter": _cars_enter, "legal": _cars_legal, "apply": _cars_apply, "why": listed_why("car move")},
    "scrap": {"enter": asker(Kind.SCRAP, "discarding a spellcar (Car Bomb)"), "legal": _scrap_legal,
              "apply": _scrap_apply, "why": listed_why("slot")},
    "copy": {"enter": asker(Kind.COPY, "choosing what to copy"),
             "legal": lambda g, s: [Line(s[1], "copies", (o[0],)) for o in _copy_options(g, s)],
             "apply": _copy_apply, "why": listed_why("copy")},
    "rearrange": {"enter": asker(Kind.REARRANGE, "rearranging the railyard"), "legal": _rearrange_legal,
                  "apply": _rearrange_apply, "why": listed_why("move")},
    "trade": {"enter": asker(Kind.TRADE, "swapping a specialist"), "legal": _trade_legal, "apply": _trade_apply,
              "why": listed_why("swap")},
    "pick": {"enter": asker(Kind.PICK, "choosing a station master"), "legal": _pick_legal, "apply": _pick_apply,
             "why": listed_why("station master")},
    "swap": {"enter": asker(Kind.SWAP, "swapping demand tiles"), "legal": _swap_legal, "check": _swap_check,
             "apply": _swap_apply},
})
