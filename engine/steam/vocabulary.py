"""The effect vocabulary's grammar: which fields each op of ``content.OPS`` takes, the values each
takes there, and an effect of the YAML form (``{op: build, terrains: [glacier], good: any}``) compiled
to an ``Effect`` or refused naming its field. What each op does is said once, in ``OPS``; the
catalog schema repeats those words."""

from __future__ import annotations

from typing import Any, NamedTuple

from .content import OPS, Effect
from .pieces import COLOURS, TERRAINS, WASTELAND

TERRAIN_WORDS = (*TERRAINS, WASTELAND, "any", "home", "competitor")
TRANSFERS = ("city", "competitor", "wasteland")  # the kinds of transfer
WHERE = ("adjacent", "global", "edge", "city", "city-or-wasteland", "beside-last")
STANDING = {"transfer-cost", "demand-bonus", "activation-ladder", "deliver-mana", "on-administrate",
            "activate-then-move", "double-activation", "no-demand-goods"}  # a station master's standing rules
BOTH_WAYS = {"move-ladder"}  # for a turn (a captain) or for good (a station master)


class Takes(NamedTuple):
    """A field an op takes: the values it may have there (each item's, for a list), whether it must be
    written, and a list's length."""

    values: tuple | range = ()
    required: bool = False
    length: int | None = None


_COUNT, _OR_ZERO, _FLAG, _EFFECTS = Takes(range(1, 6)), Takes(range(0, 6)), Takes((True, False)), Takes()
_NOTHING: dict[str, Takes] = {}
FIELDS: dict[str, dict[str, Takes]] = {
    "build": {"terrains": Takes(TERRAIN_WORDS, True), "where": Takes(WHERE), "free": Takes(TRANSFERS),
              "good": Takes((*COLOURS, "any")), "n": _COUNT},
    "build-each": {"terrains": Takes(TERRAIN_WORDS, True, 2), "different": _FLAG},
    "build-same": {"n": _COUNT},
    "build-around": _NOTHING,
    "wasteland": {"build": _FLAG, "keep": _FLAG, "free_through": _FLAG},
    "gain-mana": {"n": _COUNT},
    "reclaim": {"n": _OR_ZERO},
    "spellcar": {"n": _COUNT, "activate": _FLAG},
    "specialist": _NOTHING,
    "refresh": {"what": Takes(("captain", "engineer", "both"), True)},
    "choose": {"options": Takes(required=True)},
    "return-goods": {"n": _COUNT, "then": Takes(required=True)},
    "pull-good": {"what": Takes(("adjacent", "unclaimed"), True)},
    "mirror-good": _NOTHING,
    "seed-good": {"n": _COUNT},
    "transmute": _NOTHING,
    "sweep-goods": _NOTHING,
    "remove-good": _NOTHING,
    "deliver": {"n": _COUNT, "demand": _FLAG},
    "move-car": {"n": _COUNT},
    "switch-cars": _NOTHING,
    "clear-cars": _NOTHING,
    "car-bomb": _NOTHING,
    "copy-neighbour": _NOTHING,
    "copy-market": _NOTHING,
    "rearrange": _NOTHING,
    "copy-specialist": {"what": Takes(("engineer", "surveyor"), True)},
    "trade-specialist": _NOTHING,
    "draw-station": {"n": _COUNT},
    "swap-demand": {"n": _COUNT},
    "extra-turn": _NOTHING,
    "move-ladder": {"costs": Takes(range(0, 7), True, 4)},
    "free-activations": {"n": _OR_ZERO, "inherent": _FLAG},
    "no-inherent": _NOTHING,
    "free-transfer": {"terrains": Takes(TRANSFERS, True)},
    "refresh-free": _NOTHING,
    "transfer-cost": {"what": Takes(TRANSFERS, True), "n": Takes(range(0, 5), True)},
    "demand-bonus": _NOTHING,
    "activation-ladder": {"costs": Takes(range(0, 7), True, 3)},
    "deliver-mana": _NOTHING,
    "on-administrate": {"then": Takes(required=True)},
    "activate-then-move": _NOTHING,
    "double-activation": {"n": _COUNT},
    "no-demand-goods": {"n": _COUNT},
}
assert set(FIELDS) == set(OPS), "every op of OPS has its fields here"


class EffectError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


def compile_effects(raw: list, where: str) -> tuple[Effect, ...]:
    return tuple(compile_effect(e, f"{where}[{i}]") for i, e in enumerate(raw))


def compile_effect(raw: dict[str, Any], where: str) -> Effect:
    """One effect of the YAML form as an Effect; EffectError naming the field below ``where`` for a
    field its op does not take, a value it does not take there, or a field it needs left out."""
    op = raw.get("op")
    if op not in FIELDS:
        raise EffectError(f"{where}.op", f"{op!r} is not an op; the ops are {', '.join(FIELDS)}")
    takes = FIELDS[op]
    for name, value in raw.items():
        if name == "op":
            continue
        if name not in takes:
            raise EffectError(f"{where}.{name}", f"{op} takes no {name!r}"
                                                  + (f"; it takes {', '.join(takes)}" if takes else ""))
        _check_value(op, name, value, takes[name], f"{where}.{name}")
    for name, spec in takes.items():
        if spec.required and name not in raw:
            raise EffectError(f"{where}.{name}", f"{op} needs {name}")
    fields: dict[str, Any] = {k: v for k, v in raw.items() if k not in ("op", "options", "then")}
    for name in ("terrains", "free", "costs"):
        if name in fields:
            fields[name] = tuple(fields[name])
    if "options" in raw:
        fields["options"] = tuple(compile_effects(o, f"{where}.options[{i}]") for i, o in enumerate(raw["options"]))
    if "then" in raw:
        fields["then"] = compile_effects(raw["then"], f"{where}.then")
    return Effect(op, **fields)


def _check_value(op: str, name: str, value: Any, spec: Takes, field: str) -> None:
    items = value if isinstance(value, list) else [value]
    if spec.length is not None and len(items) != spec.length:
        raise EffectError(field, f"{op} takes {spec.length} {name}, not {len(items)}")
    if not spec.values:
        return
    for item in items:
        if item not in spec.values or isinstance(item, bool) != isinstance(spec.values[0], bool):
            allowed = (f"{spec.values[0]} to {spec.values[-1]}" if isinstance(spec.values, range)
                       else ", ".join(map(str, spec.values)))
            raise EffectError(field, f"{op} takes {name}: {allowed}; not {item!r}")


def effect_data(e: Effect) -> dict[str, Any]:
    """An effect in its YAML form again: the op, then each field its op takes that differs from the
    default (``n`` always, where the op counts)."""
    out: dict[str, Any] = {"op": e.op}
    default = Effect(e.op)
    for name in FIELDS[e.op]:
        value = getattr(e, name)
        if name == "options":
            out[name] = [[effect_data(x) for x in option] for option in value]
        elif name == "then":
            out[name] = [effect_data(x) for x in value]
        elif name == "n" or value != getattr(default, name):
            out[name] = list(value) if isinstance(value, tuple) else value
    return out
