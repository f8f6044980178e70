"""The set-up of a Spells & Steam game, in the manual's order: the spellcar pool and the specialist
stacks (shuffled from the seed, or known only as a recorded game's lines show them), the start player,
the awards (and the Expert draft), the market dealt a tile a line, Open information's stacks, companies
and captains chosen last player first, headquarters in turn order. Each step is a handler
(``game.handlers``); the turns are ``flow.py``'s."""

from __future__ import annotations

from collections import Counter

from ..games import CHANCE
from ..grammar import with_article
from .game import State, asker, handlers
from .lines import Kind, Line
from .parts import Point
from .pieces import AWARDS_DEALT, CITY, MARKET_SIZE, SPECIALIST_KINDS, WASTELAND


def deal_pools(g: State) -> None:
    """The spellcar pool and the specialist stacks: shuffled and dealt from the seed, or (a recorded
    game) known only as the lines show them."""
    friendly = "friendly" in g.variants
    tiles = [s.key for s in g.cat.spellcars.values() if s.kind != "company" and (s.friendly or not friendly)
             for _ in range(s.copies)]
    size = g.n + 1
    for kind in SPECIALIST_KINDS:
        g.stack_left[kind] = size
    if g.rng is not None:
        g.rng.shuffle(tiles)
        g.pool = tiles
        for kind in SPECIALIST_KINDS:
            pile = [s.key for s in g.cat.of_kind(kind) if s.friendly or not friendly]
            g.rng.shuffle(pile)
            g.stacks[kind], g.box[kind] = pile[:size], pile[size:]
    else:
        g.pool = Counter(tiles)
        g.stacks = {kind: None for kind in SPECIALIST_KINDS}


def specialist_pool(g: State, kind: str) -> list[str]:
    friendly = "friendly" in g.variants
    return [s.key for s in g.cat.of_kind(kind) if s.friendly or not friendly]


def award_pool(g: State) -> list[str]:
    return [a.key for a in g.cat.awards.values() if a.two_players or g.n > 2]


def setup_steps(g: State) -> list[tuple]:
    steps: list[tuple] = [("first",)]
    if "awards" in g.variants:
        steps.append(("awards",))
    steps.append(("market",))
    if "open" in g.variants:
        steps += [("stack", kind) for kind in SPECIALIST_KINDS]
    steps.append(("companies",))
    return steps


def _first_enter(g: State, step: tuple) -> Point:
    return Point(CHANCE, CHANCE, Kind.FIRST, "the start player")


def _first_apply(g: State, step: tuple, d: Line) -> None:
    s = int(d.args[0][1:])
    g.start = s
    g.order = [(s - 1 + i) % g.n + 1 for i in range(g.n)]
    if "expert" in g.variants:
        i = g.todo.index(("market",))
        g.todo[i:i] = [("strike", s2) for s2 in g.order]


def _awards_count(g: State) -> int:
    return g.n + 2 if "expert" in g.variants else AWARDS_DEALT


def _awards_enter(g: State, step: tuple) -> None:
    g.todo.pop(0)
    g.todo[:0] = [("award",)] * _awards_count(g)
    return None


def _award_left(g: State) -> list[str]:
    dealt = set(g.offered if "expert" in g.variants else g.awards)
    return [a for a in award_pool(g) if a not in dealt]


def _award_apply(g: State, step: tuple, d: Line) -> None:
    (g.offered if "expert" in g.variants else g.awards).append(d.args[0])


def _award_seed(g: State, step: tuple) -> Line:
    left = _award_left(g)
    return Line(CHANCE, "award", (left[g.rng.below(len(left))],))  # type: ignore[union-attr]


def _strike_apply(g: State, step: tuple, d: Line) -> None:
    g.offered.remove(d.args[0])
    if len(g.offered) == AWARDS_DEALT or step[1] == g.order[-1]:
        g.awards, g.offered = list(g.offered), []


def _market_enter(g: State, step: tuple) -> None:
    g.todo.pop(0)
    left = len(g.pool) if isinstance(g.pool, list) else sum(g.pool.values())
    # a pool too small for a whole market deals what it has (choice C9)
    g.todo[:0] = [("deal",)] * min(MARKET_SIZE, left)
    return None


def _deal_legal(g: State, step: tuple) -> list[Line]:
    left = g.pool if isinstance(g.pool, Counter) else Counter(g.pool)
    return [Line(CHANCE, "market", (k,)) for k in sorted(left) if left[k] > 0]


def _deal_has(g: State, step: tuple, d: Line) -> bool:
    if len(d.args) != 1:
        return False
    return (g.pool[d.args[0]] if isinstance(g.pool, Counter) else g.pool.count(d.args[0])) > 0


def _deal_why(g: State, step: tuple, d: Line) -> str:
    key = d.args[0]
    if key not in g.cat.spellcars or g.cat.spellcars[key].kind == "company":
        return f"{key!r} is not a spellcar of the market"
    if "friendly" in g.variants and not g.cat.spellcars[key].friendly:
        return f"{g.cat.spellcars[key].name} is left out of a Friendly(ish) game"
    return f"no {g.cat.spellcars[key].name} is left to deal: every copy is already out"


def _deal_apply(g: State, step: tuple, d: Line) -> None:
    key = d.args[0]
    g.market.append(key)
    if isinstance(g.pool, list):
        g.pool.remove(key)
    else:
        g.pool[key] -= 1
        if g.pool[key] <= 0:
            del g.pool[key]


def _stack_enter(g: State, step: tuple) -> None:
    g.todo.pop(0)
    g.todo[:0] = [("stacked", step[1], i) for i in range(g.n + 1)]
    if g.rng is None:
        g.stacks[step[1]] = []
    return None


def _stacked_legal(g: State, step: tuple) -> list[Line]:
    kind = step[1]
    have = set(g.stacks[kind] or ())
    return [Line(CHANCE, "stack", (kind, k)) for k in specialist_pool(g, kind) if k not in have]


def _stacked_apply(g: State, step: tuple, d: Line) -> None:
    if g.rng is None:
        g.stacks[step[1]].append(d.args[1])


def _companies_enter(g: State, step: tuple) -> None:
    g.todo.pop(0)
    g.todo[:0] = [("company", s) for s in reversed(g.order)] + [("hq", s) for s in g.order] + \
        [("turn", g.order[0], False)]
    return None


def _company_legal(g: State, step: tuple) -> list[Line]:
    used = {f.company for f in g.folios}
    captains = {f.captain for f in g.folios}
    wild = [c.key for c in g.cat.of_kind("captain") if c.company is None and c.key not in captains
            and (c.friendly or "friendly" not in g.variants)]
    out = []
    for c in g.cat.companies.values():
        if c.key in used:
            continue
        own = [c.captain] if c.captain not in captains and (g.cat.specialists[c.captain].friendly
                                                              or "friendly" not in g.variants) else []
        out += [Line(step[1], "company", (c.key, cap)) for cap in own + wild]
    return out


def _company_apply(g: State, step: tuple, d: Line) -> None:
    f = g.folio(d.actor)
    c = g.cat.companies[d.args[0]]
    f.company, f.captain, f.home, f.columns = c.key, d.args[1], c.home, c.columns
    f.printed = {(col, row): key for col, row, key in c.printed}
    f.specialists["captain"] = d.args[1]
    g.taken.add(d.args[1])


def _hq_legal(g: State, step: tuple) -> list[Line]:
    seat = step[1]
    home = g.folio(seat).home
    names = g.map.names
    out = []
    for a in range(g.map.size):
        if g.terrain[a] != home or g.cars[a]:
            continue
        out += [Line(seat, "hq", (names[a], names[b])) for b in g.map.around[a]
                if not g.cars[b] and g.terrain[b] not in (CITY, WASTELAND)]
    return out


def _hq_apply(g: State, step: tuple, d: Line) -> None:
    for w in d.args:
        g.place_car(d.actor, g.map.index(w))  # type: ignore[arg-type]


handlers({
    "first": {"enter": _first_enter, "legal": lambda g, s: [Line(CHANCE, "start", (f"P{i}",))
                                                              for i in range(1, g.n + 1)],
              "apply": _first_apply, "seed": lambda g, s: Line(CHANCE, "start", (f"P{1 + g.rng.below(g.n)}",))},
    "awards": {"enter": _awards_enter},
    "award": {"enter": lambda g, s: Point(CHANCE, CHANCE, Kind.AWARDS, "an award dealt"),
              "legal": lambda g, s: [Line(CHANCE, "award", (a,)) for a in _award_left(g)],
              "apply": _award_apply, "seed": _award_seed},
    "strike": {"enter": asker(Kind.STRIKE, "striking out an award"),
               "legal": lambda g, s: [Line(s[1], "strikes", (a,)) for a in g.offered],
               "apply": _strike_apply},
    "market": {"enter": _market_enter},
    "deal": {"enter": lambda g, s: Point(CHANCE, CHANCE, Kind.MARKET, "a spellcar dealt to the market"),
             "legal": _deal_legal, "has": _deal_has, "why": _deal_why, "apply": _deal_apply,
             "seed": lambda g, s: Line(CHANCE, "market", (g.pool[0],)), "many": True},
    "stack": {"enter": _stack_enter},
    "stacked": {"enter": lambda g, s: Point(CHANCE, CHANCE, Kind.STACK,
                                            f"{with_article(s[1])} dealt face up to its stack"),
                "legal": _stacked_legal, "apply": _stacked_apply,
                "seed": lambda g, s: Line(CHANCE, "stack", (s[1], g.stacks[s[1]][s[2]])), "many": True},
    "companies": {"enter": _companies_enter},
    "company": {"enter": asker(Kind.COMPANY, "choosing a company and captain"), "legal": _company_legal,
                "apply": _company_apply},
    "hq": {"enter": asker(Kind.HQ, "placing headquarters"), "legal": _hq_legal, "apply": _hq_apply},
})
