"""What the viewer, the recorders and a verdict show of a Spells & Steam game: the map and the folios
as data (one frame per decision) and in words, and the running counts. The map's hexes are the
``layout`` (terrain as printed, cities and their colours, the edge); a frame carries what changes:
goods, train cars, wastelands placed, the cities' demand tiles, each company's folio."""

from __future__ import annotations

from typing import Any

from . import track
from .game import State
from .lines import Kind
from .scoring import score_sheet


def layout(g: State) -> list[dict]:
    m = g.map
    return [{"hex": m.names[h], "col": m.cells[h][0], "row": m.cells[h][1], "terrain": m.terrains[h],
             "city": m.cities[h], "edge": m.edge[h]} for h in range(m.size)]


def _slot_words(slot: tuple[int, int]) -> str:
    return f"{slot[0]}:{slot[1]}"


def folio_frame(g: State, seat: int) -> dict:
    f = g.folio(seat)
    company = g.cat.companies.get(f.company) if f.company else None
    yard = []
    for c in range(1, f.columns + 1):
        for r in (1, 2, 3):
            key = f.slot(c, r)
            if key is not None:
                yard.append({"slot": _slot_words((c, r)), "spellcar": key, "name": g.cat.spellcars[key].name,
                             "printed": (c, r) not in f.yard,
                             "activated": g.turn.seat == seat and (c, r) in g.turn.activated})
    specialists = {slot: {"key": key, "name": g.cat.specialists[key].name, "exhausted": key in f.exhausted}
                   for slot, key in f.specialists.items()}
    return {"seat": seat, "company": f.company, "name": company.name if company else None,
            "colour": company.colour if company else None, "captain": f.captain, "home": f.home,
            "mana": f.mana, "spent": f.spent, "conductor": f.conductor, "columns": f.columns, "railyard": yard,
            "specialists": specialists, "extra": list(f.extra), "open_pick": f.open_hire,
            "demand": [[c, s] for c, s in f.demand], "goods": dict(sorted(f.goods.items())), "trains": f.trains,
            "out": f.out, "team": g.team_of(seat)}


def frame(g: State, index: int, decision: str | None, line: int | None = None) -> dict:
    names = g.map.names
    pend = g.pending
    return {"index": index, "decision": decision, "line": line, "round": g.round, "phase": g.phase,
            "over": g.over, "current": g.current or None, "start": g.start,
            "to_move": pend.player if pend is not None else None, "prompt": pend.prompt if pend is not None else None,
            "goods": {names[h]: c.live() for h, c in enumerate(g.goods) if c.any()},
            "cars": {names[h]: list(c) for h, c in enumerate(g.cars) if c},
            "wastelands": [names[h] for h, t in enumerate(g.terrain) if t != g.map.terrains[h]],
            "stands": {names[h]: [[c, s] for c, s in tiles] for h, tiles in sorted(g.stands.items())},
            "market": list(g.market), "awards": list(g.awards), "ending": str(g.ending) if g.ending else None,
            "companies": [folio_frame(g, s) for s in range(1, g.n + 1)],
            "scores": tallies(g), "builds": build_costs(g)}


def build_costs(g: State) -> dict[str, dict] | None:
    """At a build: each hex it may go on, the cheapest transfers to it and their cost in mana (what a
    recorder shows before the tap); None elsewhere."""
    p = g.pending
    if p is None or p.kind is not Kind.BUILD or not g.todo or g.todo[0][0] != "build":
        return None
    step = g.todo[0]
    out: dict[str, dict] = {}
    for d in g.legal_decisions():
        if d.verb != "builds":
            continue
        path = [g.map.index(w) for w in d.args[2:]]
        cost = track.transfers_cost(g, p.player, path, step[2].free)  # type: ignore[arg-type]
        out[d.args[0]] = {"via": list(d.args[2:]), "cost": cost}
    return out


def describe(g: State) -> str:
    parts = [f"Round {g.round}, {g.phase}" + (f", P{g.current}'s turn" if g.current else "")]
    names = g.map.names
    for f in g.folios:
        if f.out:
            parts.append(f"P{f.seat} has left")
            continue
        cars = [names[h] for h, c in enumerate(g.cars) if f.seat in c]
        parts.append(f"P{f.seat} ({f.company or 'no company yet'}; {f.mana} mana, {f.spent} spent, conductor at "
                     f"{_conductor(f)}; {len(f.demand)} demand tiles, {sum(f.goods.values())} goods) cars on "
                     + (", ".join(cars) or "nothing"))
    return ". ".join(parts)


def _conductor(f: Any) -> str:
    if f.conductor == 0:
        return "Start"
    return "the End of the Line" if f.conductor > f.columns else f"column {f.conductor}"


def tallies(g: State) -> list[dict]:
    """Each company's running count: its score so far (awards only once the game is over: they are
    scored at the end), mana and trains."""
    sheet = score_sheet(g, awards=g.over)
    return [{"seat": s.seat, "score": s.total, "goods": s.goods, "demand": s.demand, "awards": s.awards,
             "mana": g.folio(s.seat).mana, "trains": g.folio(s.seat).trains} for s in sheet.seats]


def tally_columns(tallies: list[Any]) -> dict[str, list]:
    return {k: [t[k] for t in tallies] for k in ("score", "goods", "demand", "awards", "mana", "trains")}
