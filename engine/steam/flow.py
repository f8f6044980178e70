"""The steps of set-up and of a turn: the start player, awards, the market, the specialist stacks,
companies and headquarters; then each turn — specialists, the main action (Administrate or
Move+Activate), the End of the Line (deliver, upgrade, back to Start) — and the end of the game
(the round finished, final deliveries in reverse turn order). What cards do is ``effects.py``'s.

Every step is a handler (``game.handlers``): ``enter`` resolves it or returns the point to ask;
``legal`` lists the answers; ``apply`` plays one; ``check`` (where listing costs too much) judges a
written answer; ``seed`` draws a chance answer in a seeded game."""

from __future__ import annotations

from collections import Counter

from ..games import CHANCE
from ..grammar import with_article
from . import effects
from .game import ROUND_LIMIT, End, State, handlers
from .lines import Kind, Line
from .parts import Point, Turn
from .pieces import (
    ACTIVATION_LADDER,
    AWARDS_DEALT,
    CITY,
    MARKET_REDEAL_AT,
    MARKET_SIZE,
    MAX_MOVE,
    MOVE_LADDER,
    SPECIALIST_KINDS,
    WASTELAND,
)

# ---------------------------------------------------------------------- the pools


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


# ---------------------------------------------------------------------- a turn


def _turn_enter(g: State, step: tuple) -> None:
    g.todo.pop(0)
    _, seat, extra = step
    if g.phase == "setup":
        g.phase = "turns"
    if seat == g.order[0] and not extra:
        if g.ending is not None:  # play is back at the start player: the round is finished
            g.todo[:0] = [("final", s) for s in reversed(g.order) if not g.folio(s).out] + [("score",)]
            return None
        if g.round >= ROUND_LIMIT:
            g.finish(End.ROUND_LIMIT)
            return None
        g.round += 1
    f = g.folio(seat)
    if f.out:
        g.todo.insert(0, ("end turn", seat))
        return None
    g.current, g.turn, g.phase = seat, Turn(seat), "specialists"
    g.tell("on_turn", seat)
    steps: list[tuple] = []
    if f.open_hire is not None:
        steps.append(("hire", seat, False))  # the chooser's next turn: the pick is made now at the latest
    g.todo[:0] = steps + [("main", seat), ("end turn", seat)]
    return None


def usable(g: State, seat: int) -> list[str]:
    """The specialists the company may use now (before its main action)."""
    f = g.folio(seat)
    out = []
    for slot in ("captain", "engineer", "surveyor"):
        key = f.specialists.get(slot)
        if key and key not in f.exhausted and g.specialist(key).cost <= f.mana:
            out.append(key)
    for key in f.stations():
        sp = g.specialist(key)
        if sp.trigger == "use" and key not in g.turn.used_stations and sp.cost <= f.mana:
            out.append(key)
    return out


def move_ladder(g: State, seat: int) -> tuple[int, ...]:
    ladders = [MOVE_LADDER] + [tuple(e.costs) for e in g.passive(seat, "move-ladder")] + list(g.turn.move_ladders)
    return tuple(min(ld[i] for ld in ladders) for i in range(MAX_MOVE))


def _main_enter(g: State, step: tuple) -> Point:
    g.phase = "specialists"
    return Point(step[1], step[1], Kind.TURN, f"P{step[1]} using specialists or taking the main action")


def _main_legal(g: State, step: tuple) -> list[Line]:
    seat = step[1]
    f = g.folio(seat)
    out = [Line(seat, "uses", (k,)) for k in usable(g, seat)]
    out.append(Line(seat, "administrates"))
    ladder = move_ladder(g, seat)
    room = f.columns + 1 - f.conductor
    peril = bool(g.passive(seat, "activate-then-move"))
    for n in range(1, min(MAX_MOVE, room) + 1):
        if ladder[n - 1] <= f.mana:
            out.append(Line(seat, "moves", (str(n),)))
            if peril and f.conductor >= 1:
                out.append(Line(seat, "moves", (str(n), "after")))
    return out


def _main_why(g: State, step: tuple, d: Line) -> str | None:
    seat = step[1]
    f = g.folio(seat)
    if d.verb == "moves":
        n = int(d.args[0])
        room = f.columns + 1 - f.conductor
        if n > room:
            return f"the conductor is {room} space(s) from the End of the Line, where it must stop"
        cost = move_ladder(g, seat)[n - 1]
        if cost > f.mana:
            return (f"moving the conductor {n} spaces costs {cost} mana and P{seat} has {f.mana} (rule 'Move "
                    "Conductor': 1 space free, 2 for 1, 3 for 3, 4 for 6)")
        if len(d.args) > 1:
            return "only a company with Peril may activate before it moves (and not from Start)"
    if d.verb == "uses":
        key = d.args[0]
        if not f.owns(key):
            return f"P{seat} has no specialist {key!r}"
        sp = g.specialist(key)
        if key in f.exhausted:
            return f"{sp.name} is exhausted (face down) until refreshed"
        if sp.trigger == "passive":
            return f"{sp.name}'s ability is a standing one: it is not used"
        if key in g.turn.used_stations:
            return f"{sp.name} is used once a turn"
        if sp.cost > f.mana:
            return f"using {sp.name} costs {sp.cost} mana and P{seat} has {f.mana}"
        return f"{sp.name}'s ability can do nothing now"
    return None


def _main_apply(g: State, step: tuple, d: Line) -> None:
    seat = step[1]
    f = g.folio(seat)
    t = g.turn
    if d.verb == "uses":
        key = d.args[0]
        sp = g.specialist(key)
        g.pay(seat, sp.cost)
        if sp.kind == "station":
            t.used_stations.add(key)
        elif not (t.refresh_free and sp.kind in ("captain", "engineer")):
            f.exhausted.add(key)
        g.todo[:0] = effects.steps(g, seat, sp.effects, {"source": key}) + [("main", seat)]
        return
    g.phase = "main"
    if d.verb == "administrates":
        t.main = "administrate"
        g.reclaim(seat, None)
        refresh(g, seat, "both")
        extra: list[tuple] = []
        for e in g.passive(seat, "on-administrate"):
            extra += effects.steps(g, seat, e.then, {"source": "administrate"})
        g.todo[:0] = [("take", seat, False)] + extra
        return
    n = int(d.args[0])
    g.pay(seat, move_ladder(g, seat)[n - 1])
    t.main, t.moved = "move", n
    if len(d.args) > 1:  # Peril: the spellcars where the conductor stands, then the move
        t.after = True
        g.todo[:0] = [("activate", seat), ("advance", seat, n)]
        return
    g.todo[:0] = [("advance", seat, n)]


def _advance_enter(g: State, step: tuple) -> None:
    g.todo.pop(0)
    seat, n = step[1], step[2]
    f = g.folio(seat)
    f.conductor = min(f.conductor + n, f.columns + 1)
    if f.conductor == f.columns + 1:
        g.phase = "end of the line"
        steps: list[tuple] = [] if g.turn.after else [("deliver", seat, "line", 1 << 10)]
        g.todo[:0] = steps + [("upgrade", seat), ("to start", seat)]
    elif not g.turn.after:
        g.todo.insert(0, ("activate", seat))
    return None


def _to_start_enter(g: State, step: tuple) -> None:
    g.todo.pop(0)
    g.folio(step[1]).conductor = 0
    return None


def refresh(g: State, seat: int, what: str) -> None:
    f = g.folio(seat)
    slots = ("captain", "engineer") if what == "both" else (what,)
    for slot in slots:
        key = f.specialists.get(slot)
        if key is not None:
            f.exhausted.discard(key)


# activations ---------------------------------------------------------------------------------


def activation_cost(g: State, seat: int) -> int:
    """What the next activation costs on the ladder (before the spellcar's inherent cost)."""
    t = g.turn
    if t.free_activations:
        return 0
    ladders = [ACTIVATION_LADDER] + [tuple(e.costs) for e in g.passive(seat, "activation-ladder")]
    k = t.activations
    if k >= len(ACTIVATION_LADDER):
        return 1 << 20
    return min(ld[k] - (ld[k - 1] if k else 0) for ld in ladders)


def inherent(g: State, key: str) -> int:
    return 0 if g.turn.no_inherent else g.cat.spellcars[key].cost


def _activatable(g: State, seat: int) -> list[tuple[tuple[int, int], str, int]]:
    """(slot, spellcar, its cost) of each spellcar that may be activated now."""
    f = g.folio(seat)
    t = g.turn
    col = f.conductor
    if not 1 <= col <= f.columns:
        return []
    out = []
    ladder = activation_cost(g, seat)
    for slot, key in f.column(col):
        if t.twice is not None:
            continue  # Viona: a spellcar activated twice is the turn's only one
        if slot in t.activated:
            viona = g.passive(seat, "double-activation")
            if viona and len(t.activated) == 1:
                cost = viona[0].n + inherent(g, key)
                if cost <= g.unlocked(seat):
                    out.append((slot, key, cost))
            continue
        cost = ladder + inherent(g, key)
        if cost <= g.unlocked(seat):
            out.append((slot, key, cost))
    return out


def _activate_enter(g: State, step: tuple) -> Point | None:
    g.phase = "activate"
    if not _activatable(g, step[1]):
        g.todo.pop(0)
        return None
    return Point(step[1], step[1], Kind.ACTIVATE, f"P{step[1]} activating spellcars")


def _activate_legal(g: State, step: tuple) -> list[Line]:
    seat = step[1]
    seen = set()
    out = []
    for _slot, key, _cost in _activatable(g, seat):
        if key not in seen:
            seen.add(key)
            out.append(Line(seat, "activates", (key,)))
    return out + [Line(seat, "stops")]


def _activate_why(g: State, step: tuple, d: Line) -> str | None:
    seat = step[1]
    f = g.folio(seat)
    key = d.args[0] if d.args else None
    here = [k for _s, k in f.column(f.conductor)] if 1 <= f.conductor <= f.columns else []
    if key not in here:
        return f"{key!r} is not in the column where P{seat}'s conductor stands ({', '.join(here) or 'none'})"
    if g.turn.twice is not None:
        return "a spellcar activated twice (Viona Larone) is the only one this turn"
    cost = activation_cost(g, seat) + inherent(g, key)
    if cost > g.unlocked(seat):
        locked = g.turn.locked
        return (f"activating {g.cat.spellcars[key].name} now costs {cost} mana; P{seat} may spend "
                f"{g.unlocked(seat)}" + (f" ({locked} gained by activations this turn cannot pay for activations)"
                                         if locked else ""))
    return "each spellcar is activated once a turn (rule 'Activate Spellcars')"


def _activate_apply(g: State, step: tuple, d: Line) -> None:
    seat = step[1]
    if d.verb == "stops":
        return
    key = d.args[0]
    slot, _k, cost = next(x for x in _activatable(g, seat) if x[1] == key)
    t = g.turn
    if slot in t.activated:
        t.twice = slot
    else:
        t.activated.add(slot)
        t.activations += 1
    g.pay(seat, cost, activation=True)
    g.tell("on_activate", seat, key)
    g.todo[:0] = effects.steps(g, seat, g.cat.spellcars[key].effects, {"source": key, "slot": slot,
                                                                        "activation": True}) + [("activate", seat)]


# the End of the Line --------------------------------------------------------------------------


def _upgrade_enter(g: State, step: tuple) -> Point:
    return Point(step[1], step[1], Kind.UPGRADE, f"P{step[1]} choosing an upgrade")


def _upgrade_legal(g: State, step: tuple) -> list[Line]:
    return [Line(step[1], "upgrades", (u,)) for u in ("mana", "specialist", "spellcars")]


def _upgrade_apply(g: State, step: tuple, d: Line) -> None:
    seat = step[1]
    what = d.args[0]
    if what == "mana":
        g.gain_mana(seat, 1)
        g.reclaim(seat, None)
    elif what == "specialist":
        g.todo[:0] = [("gain", seat), ("refresh", seat, "both")]
    else:
        g.todo[:0] = [("take", seat, False), ("take", seat, False)]


def _refresh_enter(g: State, step: tuple) -> None:
    g.todo.pop(0)
    refresh(g, step[1], step[2])
    return None


# specialists gained ------------------------------------------------------------------------------


def gainable(g: State, seat: int) -> list[str]:
    f = g.folio(seat)
    holders = {h.open_hire for h in g.folios if h.seat != seat and h.open_hire}
    return [k for k in SPECIALIST_KINDS if k not in f.specialists and g.stack_left[k] > 0 and k not in holders
            and f.open_hire != k]


def _gain_enter(g: State, step: tuple) -> Point | None:
    seat = step[1]
    if g.folio(seat).open_hire is not None:
        g.todo.insert(0, ("hire", seat, False))  # one stack in hand at a time: the open pick first
        return None
    return Point(seat, seat, Kind.GAIN, f"P{seat} gaining a specialist")


def _gain_legal(g: State, step: tuple) -> list[Line]:
    return [Line(step[1], "gains", (k,)) for k in gainable(g, step[1])]


def _gain_why(g: State, step: tuple, d: Line) -> str | None:
    kind = d.args[0]
    f = g.folio(step[1])
    if kind in f.specialists:
        return f"P{step[1]} has a {kind} already: a company has one specialist of each kind"
    holder = next((h for h in g.folios if h.open_hire == kind), None)
    if holder is not None:
        return (f"P{holder.seat} still holds the {kind} stack: their pick is written first (rule 'Choosing a "
                "Specialist')")
    return f"the {kind} stack is empty"


def _gain_apply(g: State, step: tuple, d: Line) -> None:
    seat = step[1]
    g.folio(seat).open_hire = d.args[0]
    g.todo.insert(0, ("hire", seat, True))


def hire_choices(g: State, seat: int) -> list[str]:
    kind = g.folio(seat).open_hire
    if kind is None:
        return []
    stack = g.stacks.get(kind)
    if stack is not None:
        return [k for k in stack if k not in g.taken]
    return [k for k in specialist_pool(g, kind) if k not in g.taken]


def hire_problem(g: State, seat: int, key: str) -> str | None:
    f = g.folio(seat)
    kind = f.open_hire
    if kind is None:
        return f"P{seat} holds no specialist stack to choose from"
    sp = g.cat.specialists.get(key)
    if sp is None or sp.kind != kind:
        return f"{key!r} is not a {kind} of this game"
    if key in g.taken:
        return f"{sp.name} is already in play"
    if key not in hire_choices(g, seat):
        return f"{sp.name} is not in the {kind} stack" + ("" if g.stacks.get(kind) is None else
                                                         f" ({', '.join(hire_choices(g, seat))})")
    return None


def late_hire_problem(g: State, d: Line) -> str | None:
    if d.args[0] == "later":  # said again while the stack is held: it changes nothing
        return None if g.folio(d.actor).open_hire else f"P{d.actor} holds no specialist stack to put off a pick from"
    return hire_problem(g, d.actor, d.args[0])


def hire(g: State, seat: int, key: str) -> None:
    f = g.folio(seat)
    kind = f.open_hire
    f.open_hire = None
    f.specialists[kind] = key
    g.taken.add(key)
    g.stack_left[kind] -= 1
    stack = g.stacks.get(kind)
    if stack is not None:
        stack.remove(key)
    g.tell("on_hire", seat, key)


def _hire_enter(g: State, step: tuple) -> Point | None:
    seat, may_wait = step[1], step[2]
    if g.folio(seat).open_hire is None:
        g.todo.pop(0)  # made already (written late, before its deadline)
        return None
    later = Line(seat, "hires", ("later",)) if may_wait else None
    return Point(seat, seat, Kind.HIRE, f"P{seat} choosing a specialist from the {g.folio(seat).open_hire} stack",
                 default=later)


def _hire_legal(g: State, step: tuple) -> list[Line]:
    seat = step[1]
    out = [Line(seat, "hires", (k,)) for k in hire_choices(g, seat)]
    return out + ([Line(seat, "hires", ("later",))] if step[2] else [])


def _hire_check(g: State, step: tuple, d: Line) -> str | None:
    if d.args[0] == "later":
        return None if step[2] else f"P{step[1]}'s pick cannot wait any longer: it is made now"
    return hire_problem(g, step[1], d.args[0])


def _hire_apply(g: State, step: tuple, d: Line) -> None:
    if d.args[0] != "later":
        hire(g, step[1], d.args[0])


# spellcars gained ----------------------------------------------------------------------------------


def free_slots(g: State, seat: int) -> list[tuple[int, int]]:
    """Where a new spellcar may go: row 2 until it is full, then row 3, then over a printed spellcar."""
    f = g.folio(seat)
    for row in (2, 3):
        empty = [(c, row) for c in range(1, f.columns + 1) if (c, row) not in f.yard and (c, row) not in f.printed]
        if empty:
            return empty
    return [s for s in sorted(f.printed) if s not in f.yard]


def _take_enter(g: State, step: tuple) -> Point | None:
    seat = step[1]
    if not g.market or not free_slots(g, seat):
        g.todo.pop(0)  # no spellcar, or no room: the chance is lost
        return None
    return Point(seat, seat, Kind.TAKE, f"P{seat} gaining a spellcar")


def _take_legal(g: State, step: tuple) -> list[Line]:
    seat = step[1]
    slots = [f"{c}:{r}" for c, r in free_slots(g, seat)]
    return [Line(seat, "takes", (k, s)) for k in dict.fromkeys(g.market) for s in slots]


def _take_why(g: State, step: tuple, d: Line) -> str | None:
    key, slot = d.args
    if key not in g.market:
        return f"{key!r} is not in the market ({', '.join(g.market)})"
    c, r = (int(x) for x in slot.split(":"))
    f = g.folio(step[1])
    if c > f.columns:
        return f"the railyard has {f.columns} columns"
    return (f"slot {slot} is not free now: row 2 is filled before row 3, and a printed spellcar is covered only "
            "when every space is full (rule 'Placing Spellcars')")


def _take_apply(g: State, step: tuple, d: Line) -> None:
    seat = step[1]
    key, slot = d.args
    c, r = (int(x) for x in slot.split(":"))
    g.folio(seat).yard[(c, r)] = key
    g.market.remove(key)
    g.tell("on_spellcar", seat, key)
    after: list[tuple] = []
    if len(g.market) <= MARKET_REDEAL_AT:
        g.market = []
        after.append(("market",))
    cost = inherent(g, key)
    if step[2] and cost <= g.unlocked(seat):  # Milton Barts: activated at once, free but for its inherent cost
        g.pay(seat, cost, activation=True)
        after += effects.steps(g, seat, g.cat.spellcars[key].effects, {"source": key, "activation": True})
    g.todo[:0] = after


# deliveries ------------------------------------------------------------------------------------------


def _end_turn_enter(g: State, step: tuple) -> None:
    g.todo.pop(0)
    seat = step[1]
    f = g.folio(seat)
    f.turns += 1
    if f.conductor > f.columns:
        f.conductor = 0
    _demand_trigger(g, seat)
    if g.turn.extra_turn and not f.out:
        g.todo.append(("turn", seat, True))
        return None
    i = g.order.index(seat)
    nxt = g.order[(i + 1) % g.n]
    g.todo.append(("turn", nxt, False))
    return None


def _demand_trigger(g: State, seat: int) -> None:
    if g.ending is None and any(len(f.demand) >= g.demand_needed() for f in g.folios):
        g.ending = End.DEMAND


def _final_enter(g: State, step: tuple) -> None:
    g.todo.pop(0)
    seat = step[1]
    g.phase, g.current, g.turn = "final deliveries", seat, Turn(seat)
    g.todo.insert(0, ("deliver", seat, "final", 1 << 10))
    return None


def _score_enter(g: State, step: tuple) -> None:
    open_picks = [f.seat for f in g.folios if f.open_hire is not None]
    if open_picks:
        g.todo.insert(0, ("hire", open_picks[0], False))  # a pick still open is made before the score
        return None
    g.todo.pop(0)
    g.finish(g.ending or End.DEMAND)
    return None


def leave(g: State, seat: int) -> None:
    """A company concedes: it leaves and the game ends there, the company ranked last and the others by
    their score as it stands (the log format's concession; choice C14: docs/steam-rules.md)."""
    f = g.folio(seat)
    f.out = True
    f.open_hire = None
    g.gone.append(seat)
    g.finish(End.CONCESSION)


def _plain(kind: Kind, words: str):
    def enter(g: State, step: tuple) -> Point:
        return Point(step[1], step[1], kind, f"P{step[1]} {words}")
    return enter


handlers({
    "first": {"enter": _first_enter, "legal": lambda g, s: [Line(CHANCE, "start", (f"P{i}",))
                                                              for i in range(1, g.n + 1)],
              "apply": _first_apply, "seed": lambda g, s: Line(CHANCE, "start", (f"P{1 + g.rng.below(g.n)}",))},
    "awards": {"enter": _awards_enter},
    "award": {"enter": lambda g, s: Point(CHANCE, CHANCE, Kind.AWARDS, "an award dealt"),
              "legal": lambda g, s: [Line(CHANCE, "award", (a,)) for a in _award_left(g)],
              "apply": _award_apply, "seed": _award_seed},
    "strike": {"enter": _plain(Kind.STRIKE, "striking out an award"),
               "legal": lambda g, s: [Line(s[1], "strikes", (a,)) for a in g.offered],
               "apply": _strike_apply},
    "market": {"enter": _market_enter},
    "deal": {"enter": lambda g, s: Point(CHANCE, CHANCE, Kind.MARKET, "a spellcar dealt to the market"),
             "legal": _deal_legal, "why": _deal_why, "apply": _deal_apply,
             "seed": lambda g, s: Line(CHANCE, "market", (g.pool[0],)), "many": True},
    "stack": {"enter": _stack_enter},
    "stacked": {"enter": lambda g, s: Point(CHANCE, CHANCE, Kind.STACK,
                                            f"{with_article(s[1])} dealt face up to its stack"),
                "legal": _stacked_legal, "apply": _stacked_apply,
                "seed": lambda g, s: Line(CHANCE, "stack", (s[1], g.stacks[s[1]][s[2]])), "many": True},
    "companies": {"enter": _companies_enter},
    "company": {"enter": _plain(Kind.COMPANY, "choosing a company and captain"), "legal": _company_legal,
                "apply": _company_apply},
    "hq": {"enter": _plain(Kind.HQ, "placing headquarters"), "legal": _hq_legal, "apply": _hq_apply},
    "turn": {"enter": _turn_enter},
    # administrating and a free move of one space are always there: never one answer
    "main": {"enter": _main_enter, "legal": _main_legal, "why": _main_why, "apply": _main_apply, "many": True},
    "advance": {"enter": _advance_enter},
    "to start": {"enter": _to_start_enter},
    # asked only when a spellcar may be activated, beside stopping
    "activate": {"enter": _activate_enter, "legal": _activate_legal, "why": _activate_why,
                 "apply": _activate_apply, "many": True},
    "upgrade": {"enter": _upgrade_enter, "legal": _upgrade_legal, "apply": _upgrade_apply, "many": True},
    "refresh": {"enter": _refresh_enter},
    "gain": {"enter": _gain_enter, "legal": _gain_legal, "why": _gain_why, "apply": _gain_apply},
    "hire": {"enter": _hire_enter, "legal": _hire_legal, "check": _hire_check, "apply": _hire_apply},
    "take": {"enter": _take_enter, "legal": _take_legal, "why": _take_why, "apply": _take_apply,
             "more": lambda g, s: len(set(g.market)) * len(free_slots(g, s[1])) > 1},
    "end turn": {"enter": _end_turn_enter},
    "final": {"enter": _final_enter},
    "score": {"enter": _score_enter},
})
