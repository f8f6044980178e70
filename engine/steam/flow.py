"""The steps of a turn — specialists used, the main action (Administrate or Move+Activate, the
activations), the End of the Line (deliver, upgrade, back to Start), spellcars taken into the railyard
— and of the end of the game (the round finished, final deliveries in reverse turn order, the score,
a concession). Set-up is ``setup.py``'s, specialists gained ``picks.py``'s, what cards do
``effects.py``'s.

Every step is a handler (``game.handlers``): ``enter`` resolves it or returns the point to ask;
``legal`` lists the answers; ``apply`` plays one; ``check`` (where listing costs too much) judges a
written answer; ``seed`` draws a chance answer in a seeded game."""

from __future__ import annotations

from . import effects
from .game import ROUND_LIMIT, End, State, handlers
from .lines import Kind, Line
from .parts import Point, Turn
from .pieces import ACTIVATION_LADDER, MARKET_REDEAL_AT, MAX_MOVE, MOVE_LADDER

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
    ladders = [tuple(e.costs) for e in g.passive(seat, "move-ladder")] + list(g.turn.move_ladders)
    if not ladders:
        return MOVE_LADDER
    ladders.append(MOVE_LADDER)
    return tuple(min(ld[i] for ld in ladders) for i in range(MAX_MOVE))


def _main_enter(g: State, step: tuple) -> Point:
    g.phase = "specialists"
    return Point(step[1], step[1], Kind.TURN, f"P{step[1]} using specialists or taking the main action")


def _main_legal(g: State, step: tuple) -> list[Line]:
    seat = step[1]
    out = [Line(seat, "uses", (k,)) for k in usable(g, seat)]
    out.append(Line(seat, "administrates"))
    return out + _moves(g, seat)


def _moves(g: State, seat: int) -> list[Line]:
    f = g.folio(seat)
    ladder = move_ladder(g, seat)
    room = f.columns + 1 - f.conductor
    peril = bool(g.passive(seat, "activate-then-move"))
    out = []
    for n in range(1, min(MAX_MOVE, room) + 1):
        if ladder[n - 1] <= f.mana:
            out.append(Line(seat, "moves", (str(n),)))
            if peril and f.conductor >= 1:
                out.append(Line(seat, "moves", (str(n), "after")))
    return out


def _main_has(g: State, step: tuple, d: Line) -> bool:
    seat = step[1]
    if d.verb == "uses":
        return len(d.args) == 1 and d.args[0] in usable(g, seat)
    if d.verb == "moves":
        return d in _moves(g, seat)
    return d == Line(seat, "administrates")


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
        elif key in t.unexhausted:
            t.unexhausted.discard(key)
        else:
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
    k = t.activations
    if k >= len(ACTIVATION_LADDER):
        return 1 << 20
    ladders = [ACTIVATION_LADDER] + [tuple(e.costs) for e in g.passive(seat, "activation-ladder")]
    return min(ld[k] - (ld[k - 1] if k else 0) for ld in ladders)


def inherent(g: State, key: str) -> int:
    return 0 if g.turn.no_inherent else g.cat.spellcars[key].cost


def _activatable(g: State, seat: int) -> list[tuple[tuple[int, int], str, int]]:
    """(slot, spellcar, its cost) of each spellcar that may be activated now."""
    f = g.folio(seat)
    t = g.turn
    col = f.conductor
    if not 1 <= col <= f.columns or t.twice is not None:  # Viona: a spellcar activated twice is the turn's only one
        return []
    out = []
    ladder = activation_cost(g, seat)
    can_pay = g.unlocked(seat)
    for slot, key in f.column(col):
        own = inherent(g, key)
        if slot in t.activated:
            viona = g.passive(seat, "double-activation")
            if viona and len(t.activated) == 1 and viona[0].n + own <= can_pay:
                out.append((slot, key, viona[0].n + own))
            continue
        if ladder + own <= can_pay:
            out.append((slot, key, ladder + own))
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


def _activate_has(g: State, step: tuple, d: Line) -> bool:
    if d.verb == "stops":
        return not d.args
    return len(d.args) == 1 and any(key == d.args[0] for _slot, key, _cost in _activatable(g, step[1]))


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


def _take_has(g: State, step: tuple, d: Line) -> bool:
    return (len(d.args) == 2 and d.args[0] in g.market
            and d.args[1] in {f"{c}:{r}" for c, r in free_slots(g, step[1])})


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
    _demand_trigger(g)
    if g.turn.extra_turn and not f.out:
        g.todo.append(("turn", seat, True))
        return None
    i = g.order.index(seat)
    nxt = g.order[(i + 1) % g.n]
    g.todo.append(("turn", nxt, False))
    return None


def _demand_trigger(g: State) -> None:
    if g.ending is None:
        need = g.demand_needed()
        if any(len(f.demand) >= need for f in g.folios):
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


handlers({
    "turn": {"enter": _turn_enter},
    # administrating and a free move of one space are always there: never one answer
    "main": {"enter": _main_enter, "legal": _main_legal, "has": _main_has, "why": _main_why, "apply": _main_apply,
             "many": True},
    "advance": {"enter": _advance_enter},
    "to start": {"enter": _to_start_enter},
    # asked only when a spellcar may be activated, beside stopping
    "activate": {"enter": _activate_enter, "legal": _activate_legal, "has": _activate_has, "why": _activate_why,
                 "apply": _activate_apply, "many": True},
    "upgrade": {"enter": _upgrade_enter, "legal": _upgrade_legal, "apply": _upgrade_apply, "many": True},
    "refresh": {"enter": _refresh_enter},
    "take": {"enter": _take_enter, "legal": _take_legal, "has": _take_has, "why": _take_why, "apply": _take_apply,
             "more": lambda g, s: len(set(g.market)) * len(free_slots(g, s[1])) > 1},
    "end turn": {"enter": _end_turn_enter},
    "final": {"enter": _final_enter},
    "score": {"enter": _score_enter},
})
