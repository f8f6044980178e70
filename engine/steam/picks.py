"""Specialists gained: the kind chosen (a stack taken up), then the pick from it — asked at once with
the default ``hires later``, accepted whenever the stack is held, and asked without a default at its
deadline (choice C3, docs/steam-rules.md); checked against the stack dealt (seeded) or against the tiles
still possible (recorded)."""

from __future__ import annotations

from .game import State, handlers
from .lines import Kind, Line
from .parts import Point
from .pieces import SPECIALIST_KINDS
from .setup import specialist_pool

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




handlers({
    "gain": {"enter": _gain_enter, "legal": _gain_legal, "why": _gain_why, "apply": _gain_apply},
    "hire": {"enter": _hire_enter, "legal": _hire_legal, "check": _hire_check, "apply": _hire_apply},
})
