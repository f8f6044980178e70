"""Titans' parts of a game log: the setup (squads, the mixing-species variant, hazards), the
claimed result, and the checks of a setup against the catalog, each naming the field at fault.
The schema of these parts is ``data/log-v1.schema.json`` beside this module."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..games import CHANCE
from ..log import LogFormatError, field_at
from .catalog import SQUAD, Catalog
from .deck import LONE_MAX, SPECIES_IN_DECK

PLAYERS = 2
MIXED_MAIN = 3  # mixing species: 3 titans of the species and 1 of the ally's


@dataclass(frozen=True)
class Squad:
    species: str
    ally: str | None = None
    titans: tuple[str, ...] | None = None
    maneuvers: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Setup:
    squads: tuple[Squad, ...]
    hazards: str | tuple[str, ...] | None = None  # a layout's key or hexes
    players: int = PLAYERS


@dataclass(frozen=True)
class Result:
    winner: int | None
    reason: str | None = None


def line_problems(value: dict, decoded: list, texts: list[str]) -> list[tuple[list, str]]:
    seeded = field_at(value, "chance", "type") == "seeded"
    return [(["decisions", i], "in a log with seeded chance the hazard tokens come from the seed and are not written")
            for i, d in decoded if seeded and d.actor == CHANCE]


def read_log_parts(value: dict) -> tuple[Setup, tuple, Result | None]:
    s = value["setup"]
    squads = tuple(Squad(q["species"], q.get("ally"), _tuple(q.get("titans")), _tuple(q.get("maneuvers")))
                   for q in s["squads"])
    hz = s.get("hazards")
    r = value.get("result")
    return (Setup(squads, hz if isinstance(hz, str) or hz is None else tuple(hz)), (),
            None if r is None else Result(r["winner"], r.get("reason")))


def _tuple(v: Any) -> tuple | None:
    return None if v is None else tuple(v)


def dump_setup(setup: Setup) -> dict:
    squads = []
    for q in setup.squads:
        d: dict[str, Any] = {"species": q.species}
        if q.ally is not None:
            d["ally"] = q.ally
        if q.titans is not None:
            d["titans"] = list(q.titans)
        if q.maneuvers is not None:
            d["maneuvers"] = list(q.maneuvers)
        squads.append(d)
    out: dict[str, Any] = {"squads": squads}
    if setup.hazards is not None:
        out["hazards"] = setup.hazards if isinstance(setup.hazards, str) else list(setup.hazards)
    return out


def dump_result(result: Result) -> dict:
    return {"winner": result.winner, **({"reason": result.reason} if result.reason else {})}


def squad_of(cat: Catalog, q: Squad, i: int) -> tuple[str, str | None, tuple[str, ...], tuple[str, ...] | None]:
    """A squad as the game sets it up (species, ally, titans, chosen species maneuvers), or a
    LogFormatError naming the field it cannot make."""
    at = f"/setup/squads/{i}"
    if q.species not in cat.species:
        _bad(f"{at}/species", f"there is no species {q.species!r}; the species are {', '.join(cat.species)}")
    if q.ally is not None and (q.ally not in cat.species or q.ally == q.species):
        _bad(f"{at}/ally", f"the lone titan's species must be another species of {', '.join(cat.species)}, "
             f"not {q.ally!r}")
    own = cat.species[q.species].titans
    if q.titans is None:
        if q.ally is not None:
            _bad(f"{at}/titans", f"a mixed squad names its titans: {MIXED_MAIN} {q.species} and 1 {q.ally}")
        titans = own
    else:
        titans = q.titans
        for j, k in enumerate(titans):
            if k not in cat.titans:
                _bad(f"{at}/titans/{j}", f"there is no titan {k!r}")
        if len(set(titans)) != SQUAD:
            _bad(f"{at}/titans", "a squad names four different titans")
        of = Counter(cat.titans[k].species for k in titans)
        want = Counter({q.species: SQUAD}) if q.ally is None else Counter({q.species: MIXED_MAIN, q.ally: 1})
        if of != want:
            said = " and ".join(f"{n} {s}" for s, n in want.items())
            _bad(f"{at}/titans", f"this squad is {said} titans; these are "
                 + ", ".join(f"{n} {s}" for s, n in sorted(of.items())))
    chosen = q.maneuvers
    if chosen is not None:
        allowed = {q.species, q.ally}
        for j, k in enumerate(chosen):
            m = cat.maneuvers.get(k)
            if m is None or m.species not in allowed:
                _bad(f"{at}/maneuvers/{j}", f"{k!r} is not a maneuver of {q.species}"
                     + (f" or {q.ally}" if q.ally else ""))
        counts = Counter(chosen)
        over = [k for k, n in counts.items() if n > cat.maneuvers[k].copies]
        if over:
            _bad(f"{at}/maneuvers", f"{over[0]} is chosen {counts[over[0]]} times; the species has "
                 f"{cat.maneuvers[over[0]].copies}")
        if sum(n for k, n in counts.items() if cat.maneuvers[k].species == q.ally) > LONE_MAX:
            _bad(f"{at}/maneuvers", f"at most {LONE_MAX} of the {SPECIES_IN_DECK} may be the lone titan's species'")
    return q.species, q.ally, tuple(titans), chosen


def hazard_hexes(cat: Catalog, hz: str | tuple[str, ...] | None) -> tuple:
    if hz is None:
        return ()
    if isinstance(hz, str):
        if hz not in cat.layouts:
            _bad("/setup/hazards", f"there is no hazard layout {hz!r}; the layouts are {', '.join(cat.layouts)}")
        hz = cat.layouts[hz]
    out = []
    for j, name in enumerate(hz):
        h = cat.board.hex_named(name)
        if h is None:
            _bad(f"/setup/hazards/{j}", f"{name} is not a hex of the field (rows A-G, e.g. D4)")
        out.append(h)
    if len(out) > sum(cat.hazard_pile.values()):
        _bad("/setup/hazards", f"the pile has only {sum(cat.hazard_pile.values())} hazard tokens")
    return tuple(out)


def _bad(path: str, message: str) -> None:
    raise LogFormatError([{"path": path, "message": message}])
