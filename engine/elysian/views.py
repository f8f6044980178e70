"""What the viewer, the recorders and a verdict show of an Elysian Battlefields game: the field as
data (one frame per decision) and in words, and the running counts. Hands are counted, never named."""

from __future__ import annotations

from typing import Any

from .game import State
from .lines import territory_order


def _territories(g: State) -> list[str]:
    return sorted(g.land.territories, key=territory_order)


def layout(g: State) -> list[dict]:
    return [{"territory": t.name, "tile": t.tile, "terrain": t.terrain, "q": t.hex[0], "r": t.hex[1]}
            for t in (g.land.territories[n] for n in _territories(g))]


def frame(g: State, index: int, decision: str | None, line: int | None = None) -> dict:
    att = g.attack
    return {"index": index, "decision": decision, "line": line, "round": g.round, "phase": g.phase,
            "over": g.over, "current": g.current or None,
            "territories": [_territory(g, t) for t in _territories(g)],
            "players": [{"seat": p.seat, "hero": p.hero, "conquest": p.conquest, "hand": len(p.hand),
                         "territories": len(g.held(p.seat)), "kingdom": g.kingdom(p.seat), "out": p.out,
                         "upgrades": list(p.upgrades), "items": list(p.items)} for p in g.players],
            "attack": None if att is None else _attack(att),
            "dice": _last_dice(g),
            "decks": {k: len(d.pile) for k, d in g.decks.items()}}


def _attack(att: Any) -> dict:
    return {"attacker": att.attacker, "defender": att.defender, "target": att.target, "from": list(att.sources),
            "dice_left": att.dice_left, "hits": att.hits, "sets": att.sets, "rolled": list(att.rolled),
            "ended": att.ended}


def _last_dice(g: State) -> dict | None:
    """The last set of dice rolled: of the attack being resolved, else of the last one resolved (an
    attack may end in the decision that made it, with no frame of its own); None: none rolled yet."""
    att = g.attack if g.attack is not None and g.attack.rolled else g.last_attack
    if att is None or not att.rolled:
        return None
    return {"faces": list(att.rolled), "attacker": att.attacker, "target": att.target, "set": att.sets,
            "ended": att.ended}


def _territory(g: State, name: str) -> dict:
    site = g.sites.get(name)
    units: dict[str, dict[str, int]] = {}
    for u in g.units_at(name):
        units.setdefault(f"P{u.player}", {}).setdefault(u.kind, 0)
        units[f"P{u.player}"][u.kind] += 1
    return {"territory": name, "holder": g.holder(name), "units": units,
            "settlement": site.settlement if site else None, "settlement_holder": site.holder if site else None,
            "walls": bool(site and site.walls), "temple": bool(site and site.temple)}


def describe(g: State) -> str:
    parts = [f"Round {g.round}, {g.phase}" + (f", P{g.current}'s turn" if g.current else "")]
    for p in g.players:
        if p.out:
            parts.append(f"P{p.seat} is out")
            continue
        forces = []
        for t in g.held(p.seat):
            kinds: dict[str, int] = {}
            for u in g.units_at(t, p.seat):
                kinds[u.kind] = kinds.get(u.kind, 0) + 1
            site = g.sites.get(t)
            bits = [f"{n} {k}" for k, n in sorted(kinds.items())]
            if site and site.settlement and site.holder == p.seat:
                bits.append(site.settlement)
            if site and site.walls:
                bits.append("walls")
            if site and site.temple:
                bits.append("temple")
            forces.append(f"{t}: " + ", ".join(bits))
        parts.append(f"P{p.seat} ({p.hero or 'no hero yet'}; {p.conquest} conquest, {g.kingdom(p.seat)} kingdom, "
                     f"{len(p.hand)} cards) " + ("; ".join(forces) or "nothing on the field"))
    return ". ".join(parts)


def tallies(g: State) -> list[dict]:
    return [{"seat": p.seat, "conquest": p.conquest, "territories": len(g.held(p.seat)),
             "kingdom": g.kingdom(p.seat), "cards": len(p.hand)} for p in g.players]


def tally_columns(tallies: list[Any]) -> dict[str, list]:
    return {k: [t[k] for t in tallies] for k in ("conquest", "territories", "kingdom", "cards")}
