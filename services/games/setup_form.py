"""The setup form of the recorder's lines mode, built from the game's own log schema (engine.log.schema):
a game with no setup screen of its own is set up from what its logs say a setup is.

The form understands the plain parts a setup is usually made of: an object's properties, each a
choice from a list (``enum``: a select), a whole number, a short text or a yes/no, and lists of
those, either one per seat (a list whose length is bounded by the game's numbers of players: "P1's
colour", "P2's colour") or of a fixed length. A setup with anything else (alternatives, lists of
objects, references) is given as JSON text instead, starting from the setup the game's own
self-play writes; either way the positions API checks it, and its errors name the field at fault.

Nothing here is a game's: a game that wants a better setup screen brings one of its own (Battle for
Empyrean's board mode, dashboards/templates/record.html).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engine import games, log


class Unreadable(Exception):
    """A part of the schema the form does not draw: the setup is asked for as JSON."""


@dataclass(frozen=True)
class Field:
    """One input of the form. ``path``: where its value goes in the setup (keys and list indexes);
    ``kind``: "select", "number", "text" or "check"; ``options``: a select's (the value as JSON
    text, the words shown); ``seat``: a field per seat, shown while that many players play."""

    path: tuple
    label: str
    kind: str
    default: Any = None
    options: tuple = ()
    seat: int | None = None
    required: bool = True
    note: str = ""
    limits: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return "setup-" + "-".join(str(p) for p in self.path)

    def to_dict(self) -> dict:
        return {"path": list(self.path), "id": self.id, "kind": self.kind, "seat": self.seat,
                "required": self.required}


@dataclass(frozen=True)
class SetupForm:
    """The game's setup as form fields (``fields``), or, when the schema has parts the form does not
    draw, as JSON text (``fields`` is None) starting from ``example``."""

    fields: tuple[Field, ...] | None
    note: str
    example: dict
    catalog: str

    def to_dict(self) -> dict:
        return {"fields": None if self.fields is None else [f.to_dict() for f in self.fields],
                "example": self.example, "catalog": self.catalog}


def _words(value: Any) -> str:
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def _scalar(sub: dict, path: tuple, label: str, *, seat: int | None, index: int, required: bool) -> Field:
    note = sub.get("description", "")
    if "enum" in sub:
        values = sub["enum"]
        # the n-th of a list of choices starts on the n-th option: seats start with different colours
        default = sub.get("default", values[index % len(values)])
        return Field(path, label, "select", json.dumps(default),
                     tuple((json.dumps(v), _words(v)) for v in values), seat, required, note)
    if "const" in sub:
        raise Unreadable(label)  # nothing to ask; rare enough to leave to the JSON form
    kind = sub.get("type")
    if kind == "integer":
        limits = {k: sub[k] for k in ("minimum", "maximum") if k in sub}
        return Field(path, label, "number", sub.get("default", sub.get("minimum")), (), seat, required, note, limits)
    if kind == "string":
        limits = {k: sub[k] for k in ("maxLength", "minLength") if k in sub}
        return Field(path, label, "text", sub.get("default", ""), (), seat, required, note, limits)
    if kind == "boolean":
        return Field(path, label, "check", bool(sub.get("default", False)), (), seat, False, note)
    raise Unreadable(label)


def _fields(sub: dict, path: tuple, label: str, info: games.GameInfo, required: bool) -> list[Field]:
    if "$ref" in sub or "oneOf" in sub or "anyOf" in sub or "allOf" in sub:
        raise Unreadable(label)
    if sub.get("type") == "object":
        out: list[Field] = []
        needed = set(sub.get("required", []))
        for name, part in (sub.get("properties") or {}).items():
            title = part.get("title", name)
            out += _fields(part, path + (name,), f"{label} · {title}" if label else title, info,
                           name in needed)
        if not out:
            raise Unreadable(label)
        return out
    if sub.get("type") == "array":
        items, low, high = sub.get("items") or {}, sub.get("minItems", 0), sub.get("maxItems")
        if items.get("type") in ("object", "array") or "$ref" in items:
            raise Unreadable(label)
        noun = items.get("title", label)
        if (low, high) == (info.min_players, info.max_players):  # one per seat
            return [_scalar(items, path + (i,), f"P{i + 1}'s {noun}", seat=i + 1, index=i, required=True)
                    for i in range(high)]
        if high is not None and low == high:
            return [_scalar(items, path + (i,), f"{noun} {i + 1}", seat=None, index=i, required=True)
                    for i in range(high)]
        raise Unreadable(label)
    return [_scalar(sub, path, label, seat=None, index=0, required=required)]


@lru_cache(maxsize=None)
def _example(key: str) -> dict:
    """A log the game's own self-play writes: its catalog version is the one the game is played under
    now (the interface names no list of catalogs), its setup a setup the rules accept."""
    try:
        return games.rules_for(key).self_play(0)  # type: ignore[no-any-return]
    except Exception:  # a game whose self-play fails still gets a form: the person types the rest
        return {"catalog": "", "setup": {}}


def setup_form(key: str) -> SetupForm:
    """Game ``key``'s setup form (the game must be registered)."""
    info = games.info(key)
    sub = log.schema(key)["properties"]["setup"]
    example = _example(key)
    try:
        fields: tuple[Field, ...] | None = tuple(_fields(sub, (), "", info, True))
    except Unreadable:
        fields = None
    return SetupForm(fields, sub.get("description", ""), example.get("setup", {}), str(example.get("catalog", "")))


def claims_winner(key: str) -> bool:
    """Whether a log of game ``key`` may claim its result as the winner alone ({"winner": 1}): then
    the end screen fills it in and the players may change it; else the log is uploaded without one."""
    sub = log.schema(key)["properties"].get("result") or {}
    props = sub.get("properties") or {}
    return "winner" in props and set(sub.get("required", [])) <= {"winner"}
