"""Building track: the network, where a build may go, and what its transfers cost.

In-network: a hex holding one of the company's cars. Network-adjacent: a hex next to the network and
not in it. A build goes on a network-adjacent hex (or anywhere, for a global build); transfers let it
skip hexes that hold a city, a wasteland or a competitor's car — the first transferred hex
network-adjacent, each next one beside the last, the built hex beside the last transferred one — each
paid for separately (pieces.TRANSFER_COST, as the company's station masters, the turn's effects and
the build's own free transfers change it)."""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from typing import Any

from .content import Effect
from .pieces import CARS_PER_HEX, CITY, TRANSFER_COST, WASTELAND


def network(g: Any, seat: int) -> set[int]:
    """The hexes holding one of ``seat``'s cars, as a new set: the folio keeps them as cars come and go.
    The set is filled in the hexes' order, so that listings made from it come in the same order
    whatever order the cars came in."""
    return set(sorted(g.folios[seat - 1].network))


def networks(g: Any) -> dict[int, set[int]]:
    """Every company with a car on the map: seat -> its network."""
    return {f.seat: network(g, f.seat) for f in g.folios if f.network}


def network_adjacent(g: Any, seat: int, net: set[int] | None = None) -> set[int]:
    net = network(g, seat) if net is None else net
    around = g.map.around
    return {n for h in net for n in around[h]} - net


def can_hold(g: Any, seat: int, h: int) -> bool:
    """A car of ``seat`` may stand on ``h``: not a city, room for a car, none of the company's there."""
    return g.terrain[h] != CITY and len(g.cars[h]) < CARS_PER_HEX and seat not in g.cars[h]


def car_moves(g: Any, seat: int, h: int) -> list[int]:
    """Where a car of ``seat`` on ``h`` may move: the hexes next to it that can take it."""
    return [n for n in g.map.around[h] if can_hold(g, seat, n)]


def competitors_on(g: Any, seat: int, h: int) -> bool:
    cars = g.cars[h]
    if not g.teams:
        return any(s != seat for s in cars)
    return any(s != seat and not g.teammates(seat, s) for s in cars)


def fits(g: Any, seat: int, h: int, terrain: str) -> bool:
    """Hex ``h`` is of the terrain word ``terrain`` (a terrain, wasteland, any, home, competitor)."""
    t = g.terrain[h]
    if terrain == "any":
        return t not in (WASTELAND, CITY)
    if terrain == "home":
        return t == g.folio(seat).home
    if terrain == "competitor":
        return competitors_on(g, seat, h)
    return t == terrain


def transfer_kind(g: Any, seat: int, h: int) -> str | None:
    """What a transfer over ``h`` is: city, wasteland (a competitor's car on one too), competitor,
    teammate; None: no transfer goes over it."""
    t = g.terrain[h]
    if t == CITY:
        return "city"
    if seat in g.cars[h]:
        return None
    if t == WASTELAND:
        return "wasteland"
    if competitors_on(g, seat, h):
        return "competitor"
    if g.cars[h]:
        return "teammate"
    return None


def base_cost(g: Any, seat: int, kind: str, h: int) -> int:
    if h in g.turn.free_through and g.turn.seat == seat:
        return 0
    cost = TRANSFER_COST[kind]
    for key in g.folio(seat).stations():
        for e in g.cat.specialists[key].effects:
            if e.op == "transfer-cost" and e.what == kind:
                cost = min(cost, e.n)
    return cost


def transfers_cost(g: Any, seat: int, path: list[int], free: tuple[str, ...]) -> int:
    """The mana a build's transfers over ``path`` cost: each at its kind's cost, then the build's own
    free transfers (one of each kind in ``free``) and the turn's (Wendy) taken off the dearest ones."""
    costs = [(base_cost(g, seat, k, h), k) for h in path for k in [transfer_kind(g, seat, h)] if k is not None]
    return _discounted(costs, free, g.turn.free_transfers if g.turn.seat == seat else [])


def wendy_used(g: Any, seat: int, path: list[int], free: tuple[str, ...]) -> list[tuple]:
    """The turn's free transfers a build over ``path`` uses up (after the build's own)."""
    costs = sorted(((base_cost(g, seat, k, h), k) for h in path for k in [transfer_kind(g, seat, h)]
                    if k is not None), reverse=True)
    own, turn = list(free), list(g.turn.free_transfers) if g.turn.seat == seat else []
    used = []
    for cost, kind in costs:
        if cost == 0:
            continue
        if kind in own:
            own.remove(kind)
            continue
        token = next((t for t in turn if kind in t), None)
        if token is not None:
            turn.remove(token)
            used.append(token)
    return used


def where_ok(g: Any, seat: int, h: int, where: str) -> bool:
    around = g.map.around[h]
    if where == "edge":
        return g.map.edge[h]
    if where == "city":
        return any(g.terrain[n] == CITY for n in around)
    if where == "city-or-wasteland":
        return any(g.terrain[n] in (CITY, WASTELAND) for n in around)
    if where == "beside-last":
        return g.turn.last_built is not None and h in g.map.around[g.turn.last_built]
    return True


def needs_network(e: Effect) -> bool:
    return e.where not in ("global", "beside-last")


def path_problem(g: Any, seat: int, target: int, path: list[int], e: Effect) -> str | None:
    """Why building on ``target`` over the transfers ``path`` is not allowed (None: it is)."""
    if not needs_network(e):
        return "this build goes anywhere: it needs no transfers" if path else None
    if not path:
        net = g.folio(seat).network
        beside = target not in net and any(n in net for n in g.map.around[target])
        return None if beside else f"{g.map.names[target]} is not next to the network"
    net = network(g, seat)
    adj = network_adjacent(g, seat, net)
    names = g.map.names
    if path[0] not in adj:
        return f"the first hex transferred over, {names[path[0]]}, is not next to the network"
    for a, b in zip(path, path[1:] + [target]):
        if b not in g.map.around[a]:
            return f"{names[b]} is not next to {names[a]}: a transfer goes hex by hex"
    for h in path:
        if transfer_kind(g, seat, h) is None:
            return (f"no transfer goes over {names[h]}: only over a city, a wasteland or a competitor's train car "
                    "(rule 'Transfers')")
    if len(set(path)) != len(path) or target in path:
        return "a transfer path goes over each hex once"
    return None


def reachable(g: Any, seat: int, e: Effect, budget: int) -> Iterator[tuple[int, list[int]]]:
    """Every hex a build of ``e`` could be made on within ``budget`` mana of transfers, with the
    cheapest transfer path to it, as the search finds them (the hexes next to the network first, then
    a search over transfer hexes from it; a hex's transfer kind and cost worked out once per search).
    A caller that needs only the first hex that will do stops the search there."""
    if not needs_network(e):
        for h in range(g.map.size):
            yield h, []
        return
    net = network(g, seat)
    adj = network_adjacent(g, seat, net)
    for h in adj:
        yield h, []
    found = set(adj)
    around = g.map.around
    kinds: dict[int, str | None] = {}

    def kind(h: int) -> str | None:
        if h not in kinds:
            kinds[h] = transfer_kind(g, seat, h)
        return kinds[h]

    costs: dict[int, int] = {}

    def priced(path: tuple[int, ...]) -> int:
        for h in path:
            if h not in costs:
                costs[h] = base_cost(g, seat, kind(h), h)  # type: ignore[arg-type]
        return _discounted([(costs[h], kind(h)) for h in path], e.free, g.turn.free_transfers
                           if g.turn.seat == seat else [])

    heap = [(priced((h,)), h, (h,)) for h in adj if kind(h) is not None]
    heapq.heapify(heap)
    best: dict[int, int] = {}
    while heap:
        cost, h, path = heapq.heappop(heap)
        if cost > budget or best.get(h, 1 << 30) <= cost:
            continue
        best[h] = cost
        for n in around[h]:
            if n in net or n in path:
                continue
            if n not in found:
                found.add(n)
                yield n, list(path)
            if kind(n) is not None:
                p = path + (n,)
                heapq.heappush(heap, (priced(p), n, p))


def _discounted(costs: list[tuple[int, str | None]], free: tuple[str, ...], turn_free: list) -> int:
    """The sum of transfer costs after the build's own free transfers (one of each kind in ``free``)
    and the turn's (each a set of kinds) are taken off the dearest ones."""
    tokens = [(k,) for k in free] + list(turn_free)
    total = 0
    for cost, kind in sorted(costs, key=lambda c: c[0], reverse=True):
        token = next((t for t in tokens if kind in t), None) if cost > 0 else None
        if token is not None:
            tokens.remove(token)
            continue
        total += cost
    return total
