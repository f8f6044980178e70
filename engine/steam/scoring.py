"""The score at the end of a Spells & Steam game: goods delivered, demand tiles, awards (the manual's
places and tie splitting, its 2-player rule), the team variant's sums and colour bonus; then ranks by
score and the three tie-breakers (goods delivered, trains placed, furthest from the start player)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import track
from .pieces import AWARD_POINTS, AWARD_POINTS_TWO_PLAYERS, CITY, COLOURS, DEMAND_POINTS, TEAM_COLOUR_BONUS


@dataclass
class SeatScore:
    seat: int
    goods: int = 0
    demand: int = 0
    awards: int = 0
    by_award: dict = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.goods + self.demand + self.awards


@dataclass
class ScoreSheet:
    seats: list[SeatScore]
    teams: list[int]  # per team: goods and demand of its members, and its colour bonus
    bonus: list[int]  # per team: the colour bonus


def groups(g: Any, seat: int, net: set[int] | None = None) -> list[set[int]]:
    """The company's rail groups: cars on hexes next to one another (``net``: its network, if known)."""
    left = set(track.network(g, seat) if net is None else net)
    out = []
    while left:
        start = left.pop()
        group, edge = {start}, [start]
        while edge:
            h = edge.pop()
            for n in g.map.around[h]:
                if n in left:
                    left.discard(n)
                    group.add(n)
                    edge.append(n)
        out.append(group)
    return out


def metric(g: Any, seat: int, name: str, net: set[int] | None = None) -> int:
    """What award metric ``name`` counts for ``seat`` (``net``: its network, if known)."""
    f = g.folio(seat)
    net = track.network(g, seat) if net is None else net
    if name == "rail-groups":
        return len(groups(g, seat, net))
    if name == "goods-in-network":
        return sum(sum(g.goods[h].values()) for h in net)
    if name == "largest-group":
        return max((len(x) for x in groups(g, seat, net)), default=0)
    if name == "cars-by-cities":
        return sum(1 for h in net if any(g.terrain[n] == CITY for n in g.map.around[h]))
    if name == "demand-colours":
        return len({c for c, _s in f.demand})
    if name == "demand-one-colour":
        return max((sum(1 for c, _s in f.demand if c == col) for col in COLOURS), default=0)
    if name == "edge-cars":
        return sum(1 for h in net if g.map.edge[h])
    if name == "shared-hexes":
        return sum(1 for h in net if track.competitors_on(g, seat, h))
    if name == "technology":
        placed = len(f.yard)
        return len(f.specialists) + len(f.extra) + placed + f.mana + f.spent
    raise KeyError(name)


def award_points(g: Any, key: str) -> dict[int, int]:
    """Points per seat for award ``key``: places by the metric (the fewest first for Drive By), a tie
    adding the places it covers and splitting them (rounded down). A seat needs a value of at least 1
    (for a "fewest" award: at least one car on the map, choice C12)."""
    award = g.cat.awards[key]
    places = AWARD_POINTS_TWO_PLAYERS if g.n == 2 else AWARD_POINTS[:2] if g.n == 3 else AWARD_POINTS
    nets = track.networks(g)
    values = {s: metric(g, s, award.metric, nets.get(s, set())) for s in g.active()}
    if award.most:
        ok = {s: v for s, v in values.items() if v >= 1}
        order = sorted(set(ok.values()), reverse=True)
    else:
        ok = {s: v for s, v in values.items() if nets.get(s)}
        order = sorted(set(ok.values()))
    out: dict[int, int] = {}
    place = 0
    for v in order:
        tied = [s for s, x in ok.items() if x == v]
        pot = sum(places[place:place + len(tied)])
        if pot <= 0:
            break
        for s in tied:
            out[s] = pot // len(tied)
        place += len(tied)
    return out


def score_sheet(g: Any, awards: bool = True) -> ScoreSheet:
    """The score by its parts; ``awards`` False leaves the awards out (a running count: they are
    scored at the end)."""
    seats = []
    for f in g.folios:
        s = SeatScore(f.seat, goods=sum(f.goods.values()), demand=sum(DEMAND_POINTS[size] for _c, size in f.demand))
        seats.append(s)
    for key in g.awards if awards else ():
        for seat, pts in award_points(g, key).items():
            seats[seat - 1].awards += pts
            seats[seat - 1].by_award[key] = pts
    teams, bonus = [], []
    if g.teams:
        bonus = [0] * len(g.teams)
        for colour in COLOURS:
            have = [sum(g.folio(s).goods[colour] for s in t) for t in g.teams]
            top = max(have)
            for i, v in enumerate(have):
                if top > 0 and v == top:
                    bonus[i] += TEAM_COLOUR_BONUS
        teams = [sum(seats[s - 1].goods + seats[s - 1].demand for s in t) + bonus[i] for i, t in enumerate(g.teams)]
    return ScoreSheet(seats, teams, bonus)


def ranks(g: Any) -> list[int]:
    """Each seat's rank. By score, then goods delivered, trains placed, and the seat furthest from the
    start player in turn order; companies that left come last, the last to leave first. In a team
    game every member has the team's rank."""
    sheet = score_sheet(g)
    order = g.order or list(range(1, g.n + 1))

    def key(seat: int) -> tuple:
        f = g.folio(seat)
        if f.out:
            return (1, -g.gone.index(seat), 0, 0, 0)
        s = sheet.seats[seat - 1]
        return (0, -s.total, -s.goods, -f.placed, -order.index(seat))

    if g.teams:
        def team_key(i: int) -> tuple:
            members = g.teams[i]
            if any(g.folio(s).out for s in members):
                return (1, 0, 0, 0, 0)
            return (0, -sheet.teams[i], -sum(sheet.seats[s - 1].goods for s in members),
                    -sum(g.folio(s).placed for s in members), -max(order.index(s) for s in members))
        keys = [team_key(i) for i in range(len(g.teams))]
        team_rank = [1 + sum(k < mine for k in keys) for mine in keys]
        return [team_rank[g.team_of(s) - 1] for s in range(1, g.n + 1)]
    keys = [key(s) for s in range(1, g.n + 1)]
    return [1 + sum(k < mine for k in keys) for mine in keys]
