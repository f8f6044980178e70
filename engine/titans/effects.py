"""The effect vocabulary of Titans' maneuvers and titan abilities, compiled once at load.

An ability or a maneuver is a list of effects, each ``{when, if?, do}``:

* ``when``: ``play`` (as the card is played), ``always`` (while the card is active, or always for a
  titan's ability: modifiers), ``attack`` (after this titan's attack damage), ``attacked`` (after
  this titan takes an attack's damage), ``move`` (after this titan's regular move);
* ``if``: ``contact`` (an enemy titan is in contact), ``damaged`` (this titan has damage),
  ``behind-target`` (the attacker is in its target's rear arc), ``target-same-hex``;
* ``do``, one action: ``move: N`` (forward), ``turn: left|right|around``, ``heal: N`` (remove
  damage), ``replenish: N``, ``damage: N`` with ``to``, ``burn-active: <region>`` (those titans burn
  their active maneuver), and for ``always`` only ``strength: N``, ``endurance: N``,
  ``ignore-collisions: true``.
* regions (``to``, ``burn-active``): enemy titans in the ``front`` or ``rear`` arc, on the ``same``
  hex, in ``contact``; the attack's ``target``; the ``attacker``. An effect reaches every titan its
  region covers (docs/titans-rules.md, choice C15).

The shapes are checked by the catalog's JSON Schema (data/catalog.schema.json); ``compile_effects``
checks what the schema cannot (which actions and regions go with which ``when``). What each does
in a game: abilities.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MODIFIERS = frozenset({"strength", "endurance", "ignore-collisions"})
ACTIONS = frozenset({"move", "turn", "heal", "replenish", "damage", "burn-active"}) | MODIFIERS
TRIGGER_REGIONS = {"attack": {"target"}, "attacked": {"attacker"}}  # regions only these triggers have
TRIGGER_CONDITIONS = {"behind-target": "attack", "target-same-hex": "attack"}


class EffectError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


@dataclass(frozen=True)
class Effect:
    when: str
    verb: str  # one of ACTIONS
    value: Any  # the number, the turn, the region of burn-active, or True
    to: str | None = None  # damage: the region
    cond: str | None = None


def compile_effects(raw: list[dict], field: str) -> tuple[Effect, ...]:
    out = []
    for i, e in enumerate(raw):
        where = f"{field}[{i}]"
        when, cond, do = e["when"], e.get("if"), dict(e["do"])
        to = do.pop("to", None)
        (verb, value), = do.items() if len(do) == 1 else _fail(f"{where}.do", "one action per effect (and 'to')")
        if (verb in MODIFIERS) != (when == "always"):
            _fail(f"{where}.do", f"{verb!r} does not go with when: {when}: strength, endurance and "
                  "ignore-collisions are 'always', every other action happens at a moment")
        if (verb == "damage") != (to is not None):
            _fail(f"{where}.do.to", "damage needs 'to' (whom it reaches), and only damage has it")
        region = to or (value if verb == "burn-active" else None)
        for trigger, regions in TRIGGER_REGIONS.items():
            if region in regions and when != trigger:
                _fail(f"{where}.do", f"the region {region!r} exists only when: {trigger}")
        if cond in TRIGGER_CONDITIONS and when != TRIGGER_CONDITIONS[cond]:
            _fail(f"{where}.if", f"{cond!r} is a condition of when: {TRIGGER_CONDITIONS[cond]} only")
        out.append(Effect(when, verb, value, to, cond))
    return tuple(out)


def _fail(field: str, message: str) -> Any:
    raise EffectError(field, message)
