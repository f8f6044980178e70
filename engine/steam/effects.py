"""What spellcars and specialists do: each op of the effect vocabulary (``content.OPS``) as a step of
the game. An effect list becomes ``fx`` steps (``steps``); an op that needs no choice is done when its
step is reached, one that does becomes a step of its own kind whose handler asks the point, lists
its answers and applies the one given: builds and wastelands in ``building.py``, goods and deliveries
in ``goods.py``, cars, copies, trades and swaps in ``moves.py``, an "or" of a card here. ``ctx`` says
where the effects come from: ``source`` (the card), ``slot`` (a spellcar's railyard slot),
``activation`` (mana they gain may not pay for more activations this turn)."""

from __future__ import annotations

from .content import Effect
from .game import State, asker, handlers
from .lines import Kind, Line


def steps(g: State, seat: int, effects: tuple[Effect, ...], ctx: dict) -> list[tuple]:
    return [("fx", seat, e, ctx) for e in effects]


def _with_ctx(g: State, ctx: dict):
    """Run mana gains as coming from an activation (or not), as ``ctx`` says."""
    g.turn.in_activation = bool(ctx.get("activation"))


def _fx_enter(g: State, step: tuple) -> None:
    g.todo.pop(0)
    _, seat, e, ctx = step
    _with_ctx(g, ctx)
    t = g.turn
    op = e.op
    push: list[tuple] = []
    if op == "build":
        push = [("build", seat, e, ctx, e.n, tuple(e.terrains), "one", None, ())]
    elif op == "build-each":
        push = [("build", seat, e, ctx, len(e.terrains), tuple(e.terrains), "each", None, ())]
    elif op == "build-same":
        push = [("build", seat, e, ctx, e.n, ("any",), "same", None, ())]
    elif op == "build-around":
        push = [("around", seat, e, ctx)]
    elif op == "wasteland":
        push = [("waste", seat, e, ctx)]
    elif op == "gain-mana":
        g.gain_mana(seat, e.n)
    elif op == "reclaim":
        g.reclaim(seat, None if e.n == 0 else e.n)
    elif op == "spellcar":
        push = [("take", seat, e.activate)] * e.n
    elif op == "specialist":
        push = [("gain", seat)]
    elif op == "refresh":
        from .flow import refresh
        refresh(g, seat, e.what or "both")
    elif op == "choose":
        push = [("choose", seat, e, ctx)]
    elif op in _GOODS_MODES:
        push = [("goods", seat, e, ctx, _GOODS_MODES[op], e.n, None)]
    elif op == "deliver":
        push = [("deliver", seat, "four" if e.demand else "one", e.n)]
    elif op in _CAR_MODES:
        push = [("cars", seat, e, ctx, _CAR_MODES[op], e.n, ctx.get("from"))]
    elif op == "car-bomb":
        push = [("scrap", s) for s in g.competitors(seat)]
    elif op in ("copy-neighbour", "copy-market", "copy-specialist"):
        push = [("copy", seat, e, ctx, op)]
    elif op == "rearrange":
        push = [("rearrange", seat, e, ctx)]
    elif op == "trade-specialist":
        push = [("trade", seat, e, ctx)]
    elif op == "draw-station":
        from .moves import draw_stations
        push = [("pick", seat, e, ctx, draw_stations(g, e.n))]
    elif op == "swap-demand":
        push = [("swap", seat, e, ctx, e.n)]
    elif op == "extra-turn":
        t.extra_turn = True
    elif op == "move-ladder":
        t.move_ladders.append(tuple(e.costs))
    elif op == "free-activations":
        t.free_activations = True
        if e.inherent:
            t.no_inherent = True
        else:
            g.reclaim(seat, e.n)
    elif op == "no-inherent":
        t.no_inherent = True
    elif op == "free-transfer":
        t.free_transfers.append(tuple(e.terrains))
    elif op == "refresh-free":
        from .flow import refresh
        refresh(g, seat, "both")
        # each may be used once more at once without being flipped (not again and again: choice C30)
        f = g.folio(seat)
        t.unexhausted = {f.specialists[k] for k in ("captain", "engineer") if k in f.specialists}
    # the standing rules of station masters (transfer-cost, demand-bonus, …) are read where they apply
    g.todo[:0] = push
    return None


_GOODS_MODES = {"return-goods": "return", "pull-good": "pull", "mirror-good": "mirror", "seed-good": "seed",
                "transmute": "transmute", "sweep-goods": "sweep", "remove-good": "remove"}
_CAR_MODES = {"move-car": "shift", "switch-cars": "switch", "clear-cars": "clear"}


def _choose_legal(g: State, step: tuple) -> list[Line]:
    return [Line(step[1], "chooses", (name,)) for name in dict.fromkeys(opt[0].op for opt in step[2].options)]


def _choose_apply(g: State, step: tuple, d: Line) -> None:
    _, seat, e, ctx = step
    option = next(opt for opt in e.options if opt[0].op == d.args[0])
    g.todo[:0] = steps(g, seat, option, ctx)


def listed_why(what: str):
    def why(g: State, step: tuple, d: Line) -> str:
        legal = [" ".join(x.args) for x in g.legal_decisions() if x.args][:6]
        return (f"that {what} is not one {_source_name(g, step)} allows now"
                + (f" (it allows, for example: {'; '.join(legal)})" if legal else ""))
    return why


def _source_name(g: State, step: tuple) -> str:
    """The card or specialist whose effect a step is, by name ("Pollinator"), for refusals."""
    ctx = step[3] if len(step) > 3 and isinstance(step[3], dict) else {}
    key = ctx.get("source")
    found = g.cat.spellcars.get(key) or g.cat.specialists.get(key) if key else None
    return found.name if found is not None else "the effect"


handlers({
    "fx": {"enter": _fx_enter},
    "choose": {"enter": asker(Kind.CHOOSE, "choosing one effect"), "legal": _choose_legal, "apply": _choose_apply},
})
