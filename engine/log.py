"""Game-log format version 1: read, check and write game logs.

A log is a JSON object (see ``engine/data/log-v1.schema.json`` and ``docs/log-format.md``)::

    {"format": "empyrean-log", "version": 1, "catalog": "2026.1", "meta": {...},
     "setup": {"mode": "2p", "decks": [...], "battlefields": [...], "first_player": 1},
     "chance": {"type": "seeded", "algorithm": "splitmix64-v1", "seed": 42},
     "decisions": ["P1 keep Horse Archers", ...], "checkpoints": [...], "result": {...}}

``parse_log`` accepts bytes, JSON text or an already-decoded value and returns a ``GameLog`` or
raises ``LogFormatError`` -- and nothing else, whatever the input. The error lists *every* problem
found (up to ``MAX_ERRORS``), each as ``{"path": <JSON pointer>, "message": <plain words>}``,
sorted by path. Reading happens in this order:

1. decoding: UTF-8 (a leading byte-order mark is allowed), then JSON;
2. a scan of the decoded value: only JSON values, nested at most ``MAX_DEPTH`` deep, at most
   ``MAX_VALUES`` values, no duplicate keys, finite numbers of sane size, text without lone
   surrogates -- so that nothing later can recurse without bound or fail on odd values. (For
   ordinary JSON text that the schema accepts, the strict decoder and the schema's own bounds
   already guarantee this outside ``meta``, so only ``meta`` is scanned);
3. the JSON Schema (draft 2020-12, validated with ``jsonschema``; its errors become messages a
   player understands) and the grammar of every decision line (``engine.bfe.decisions``);
4. the checks across fields that a schema cannot express well (number of decks and battlefields
   for the mode, first player, the shape of might tables, checkpoint order, decision actors).

Parsed logs are normalised: decision lines are rewritten in their canonical text, and empty
``meta``/``checkpoints`` are dropped. ``dump_log``/``to_json`` write that normal form, and
``canonical_hash`` (sha256 of the canonical JSON) identifies a game for de-duplication.

Speed: ``jsonschema`` visits every JSON value of a log and costs more than the rest of a parse many
times over (docs/performance.md, "Log parsing"). So the schema is also compiled, once, by
``fastjsonschema`` into Python code that only answers "certainly valid". Whenever the predicate
says anything else, or cannot compile the schema, the full ``jsonschema`` validation runs and is
the authority: every error message comes from it. The test suite checks that both agree.
"""

from __future__ import annotations

import copy
import datetime as _dt
import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping

import fastjsonschema
from jsonschema import Draft202012Validator, FormatChecker, validators

from .games import DEFAULT_GAME, is_known, rules_for, unknown_game_words
from .grammar import with_article

FORMAT = "empyrean-log"
VERSION = 1
SCHEMA_FILE = "log-v1.schema.json"

MAX_DEPTH = 64  # nesting of arrays/objects; a valid log needs 5
MAX_VALUES = 20_000  # JSON values in one log; a valid log has at most about 5,300 plus extensions
MAX_INT = 2**128  # integers must lie strictly between -MAX_INT and MAX_INT
MAX_ERRORS = 200  # problems listed in one LogFormatError; a last entry counts the rest


# --------------------------------------------------------------------------------------------
# The value types


@dataclass(frozen=True)
class Chance:
    type: str  # "seeded" or "recorded"
    algorithm: str | None = None  # seeded only
    seed: int | None = None  # seeded only
    view: int | None = None  # recorded only: written from this player's seat



_NO_META: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class GameLog:
    """A parsed, checked log. ``meta`` is a read-only mapping (lists inside it are tuples, objects
    read-only mappings); it takes part in equality but not in the hash."""

    catalog: str
    meta: Mapping[str, Any] = field(hash=False)
    setup: Any  # the game's own setup (engine.bfe.logformat.Setup …)
    chance: Chance
    decisions: tuple[str, ...]  # canonical decision lines
    checkpoints: tuple[Any, ...] = ()  # the game's own checkpoints
    result: Any = None  # the game's own claimed result, or None
    game: str = DEFAULT_GAME  # the key of the game (engine.games); a log without "game" is this one

    def __post_init__(self) -> None:
        if not isinstance(self.meta, MappingProxyType) or not _is_frozen(self.meta):
            object.__setattr__(self, "meta", _freeze(dict(self.meta)) if self.meta else _NO_META)


def _freeze(v: Any) -> Any:
    if isinstance(v, dict):
        return MappingProxyType({k: _freeze(x) for k, x in v.items()})
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(x) for x in v)
    return v


def _is_frozen(v: Any) -> bool:
    if isinstance(v, MappingProxyType):
        return all(_is_frozen(x) for x in v.values())
    if isinstance(v, tuple):
        return all(_is_frozen(x) for x in v)
    return not isinstance(v, (dict, list))


def _thaw(v: Any) -> Any:
    if isinstance(v, (dict, MappingProxyType)):
        return {k: _thaw(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_thaw(x) for x in v]
    return v


class LogFormatError(ValueError):
    """The log cannot be read. ``errors`` lists every problem: ``{"path", "message"}`` dicts,
    ``path`` a JSON pointer into the log ("" for the log as a whole)."""

    def __init__(self, errors: list[dict]) -> None:
        self.errors = errors
        first = errors[0] if errors else {"path": "", "message": "the log cannot be read"}
        where = f"{first['path']}: " if first["path"] else ""
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(f"{where}{first['message']}{more}")


# --------------------------------------------------------------------------------------------
# Schema and validators, built once on first use


def is_whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


# Whole numbers are ints: 3.0 is not accepted where a whole number is expected (jsonschema's
# default would accept it, and a seed written as a float may not be the seed that was meant).
_TYPE_CHECKER = Draft202012Validator.TYPE_CHECKER.redefine_many(
    {"integer": lambda _c, x: is_whole(x), "number": lambda _c, x: _is_number(x)})
_Validator = validators.extend(Draft202012Validator, type_checker=_TYPE_CHECKER)


def read_schema_file(package: str, name: str = SCHEMA_FILE) -> dict[str, Any]:
    """A JSON Schema file in ``data/`` beside the modules of ``package`` ("engine", "engine.bfe" …)."""
    try:
        text = (resources.files(package) / "data" / name).read_text(encoding="utf-8")
    except (OSError, TypeError, ValueError, ModuleNotFoundError):
        # a namespace package in some installs, where importlib.resources cannot list it; the
        # file sits beside the package's modules either way.
        import importlib

        folder = Path(importlib.import_module(package).__file__ or "").resolve().parent
        text = (folder / "data" / name).read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


@lru_cache(maxsize=None)
def schema(game: str = DEFAULT_GAME) -> Mapping[str, Any]:
    """The JSON Schema of a log of ``game``, format version 1: the envelope every game shares
    (``data/log-v1.schema.json``) with the game's own parts in place (its ``log_schema_part()``:
    setup, lines, checkpoints, result, and their definitions). Cached; do not modify it."""
    envelope = read_schema_file("engine")
    rules = rules_for(game)
    part = rules.log_schema_part()
    out = dict(envelope)
    out["properties"] = {**envelope["properties"], **part.get("properties", {})}
    # one name per player: room for as many names as the game seats (the envelope's file: 2 to 3)
    names = out["properties"]["meta"]["properties"]["players"]
    if rules.info.max_players > names["maxItems"] or rules.info.min_players < names["minItems"]:
        meta = copy.deepcopy(out["properties"]["meta"])
        meta["properties"]["players"].update(minItems=min(rules.info.min_players, names["minItems"]),
                                             maxItems=max(rules.info.max_players, names["maxItems"]))
        out["properties"]["meta"] = meta
    out["required"] = envelope["required"] + [r for r in part.get("required", []) if r not in envelope["required"]]
    for key in ("$defs", "if", "then", "allOf"):
        if key in part:
            out[key] = part[key]
    return out


@lru_cache(maxsize=None)
def longest_name(what: str, game: str = DEFAULT_GAME) -> int:
    """The most characters the log format takes in a name of ``what``: "event" (meta.event),
    "player" (each of meta.players) or, in Battle for Empyrean, "deck" (a mash-up deck's name), as
    the schema declares it, so that whatever else bounds such a name (an event created by the API, a
    filter) reads it here."""
    s = schema(game)
    if what == "event":
        return int(s["properties"]["meta"]["properties"]["event"]["maxLength"])
    if what == "player":
        return int(s["properties"]["meta"]["properties"]["players"]["items"]["maxLength"])
    if what == "deck":
        mashup = next(kind for kind in s["$defs"]["deck"]["oneOf"] if kind.get("type") == "object")
        return int(mashup["properties"]["name"]["maxLength"])
    raise ValueError(f"no name called {what!r} in a log")


@lru_cache(maxsize=None)
def _machinery(game: str = DEFAULT_GAME) -> tuple[Any, Callable[[Any], bool] | None]:
    s = schema(game)
    checker = FormatChecker(["date"])
    validator = _Validator(s, format_checker=checker)
    return validator, _fast_check(s)


_TYPES: dict[str, Callable[[Any], bool]] = {  # JSON types as this format understands them
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "integer": is_whole,
    "number": _is_number,
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


# --------------------------------------------------------------------------------------------
# Fast "certainly valid" check: the same schema compiled to Python code by fastjsonschema


def _is_date(text: str) -> bool:
    try:
        return len(text) == 10 and bool(_dt.date.fromisoformat(text))
    except ValueError:
        return False


def _fast_check(root: Mapping[str, Any]) -> Callable[[Any], bool]:
    """A predicate that is True when fastjsonschema finds no error. fastjsonschema knows drafts 4-7,
    and the keywords this schema uses mean the same there; jsonschema (draft 2020-12) stays the
    authority: whenever this says anything but "valid", jsonschema runs and gives the messages."""
    draft7 = dict(root, **{"$schema": "http://json-schema.org/draft-07/schema#"})
    validate = fastjsonschema.compile(draft7, formats={"date": _is_date})

    def fast(value: Any) -> bool:
        try:
            validate(value)
        except fastjsonschema.JsonSchemaException:
            return False
        return True
    return fast


class _DupDict(dict):
    """A decoded JSON object in which some key appeared more than once (``dups``)."""

    dups: list[str]


class _Unusual(Exception):
    """Raised by the fast decoder on a duplicate key or a non-finite number: decode again slowly."""


def _pairs_hook(pairs: list[tuple[str, Any]]) -> dict:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        dups = []
        for k, _ in pairs:
            if k in seen and k not in dups:
                dups.append(k)
            seen.add(k)
        d = _DupDict(d)
        d.dups = dups
    return d


def _strict_pairs(pairs: list[tuple[str, Any]]) -> dict:
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Unusual
    return d


def _strict_float(text: str) -> float:
    # No field of the format holds a fraction, and the fast check (fastjsonschema) would take 3.0
    # for a whole number: any number written with a point or exponent takes the slow, exact path.
    raise _Unusual


def _no_constant(_text: str) -> float:
    raise _Unusual


# The fast decoder refuses what the scan would report (so that, for ordinary text, the scan can be
# skipped); the lenient one keeps it so that the scan can say where it is.
_FAST_DECODER = json.JSONDecoder(object_pairs_hook=_strict_pairs, parse_float=_strict_float,
                                 parse_constant=_no_constant)
_LENIENT_DECODER = json.JSONDecoder(object_pairs_hook=_pairs_hook)
# A \\u escape of a surrogate: maybe a lone one, which the scan must find.
# the escapes of what text in a log may not hold: lone surrogates and NUL (which no database or
# screen can carry; a raw NUL byte is already not JSON)
_SURROGATE_ESCAPE = re.compile(r"\\u(?:[dD][89a-fA-F]|0000)")


def _decode(source: Any) -> tuple[Any, bool]:
    """(value, needs_scan): needs_scan is False when the text alone shows the scan would pass."""
    from_bytes = isinstance(source, (bytes, bytearray, memoryview))
    if from_bytes:
        data = bytes(source)
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise LogFormatError([{"path": "", "message": "the log must be UTF-8 text; this looks like UTF-16"}])
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise LogFormatError([{"path": "", "message": f"the log is not UTF-8 text: byte {e.start} "
                                   f"(0x{data[e.start]:02x}) cannot be read"}]) from None
    elif isinstance(source, str):
        text = source
    else:
        return source, True
    if text.startswith("\ufeff"):
        text = text[1:]
    needs_scan = (len(text) > 2 * MAX_VALUES
                  or "\\u" in text and _SURROGATE_ESCAPE.search(text) is not None
                  or not from_bytes and not text.isascii() and _SURROGATE.search(text) is not None)
    try:
        try:
            return _FAST_DECODER.decode(text), needs_scan
        except _Unusual:
            return _LENIENT_DECODER.decode(text), True
    except json.JSONDecodeError as e:
        raise LogFormatError([{"path": "", "message": f"the log is not valid JSON: {e.msg} at line {e.lineno}, "
                               f"column {e.colno}"}]) from None
    except RecursionError:
        raise LogFormatError([{"path": "", "message": f"the log is nested too deeply (more than {MAX_DEPTH} levels "
                               "of lists and objects)"}]) from None
    except ValueError as e:  # an integer with thousands of digits (Python refuses to convert it)
        raise LogFormatError([{"path": "", "message": "the log cannot be read: a number in it is far too long "
                               f"(numbers in a log must lie between -2^128 and 2^128; {_clip(str(e), 60)})"}]) from None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _ptr(parent: str, key: Any) -> str:
    return f"{parent}/{str(key).replace('~', '~0').replace('/', '~1')}"


def _scalar_problem(v: Any) -> str | None:
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, str):
        if "\x00" in v:
            return "the text contains the NUL character (\\u0000), which a log may not hold"
        if not v.isascii() and _SURROGATE.search(v):
            return "the text contains an unpaired surrogate (\\ud800-\\udfff), which is not a character"
        return None
    if isinstance(v, int):
        if -MAX_INT < v < MAX_INT:
            return None
        return "the number is too large (numbers in a log must lie between -2^128 and 2^128)"
    if isinstance(v, float):
        if math.isfinite(v):
            return None
        return f"{'NaN' if math.isnan(v) else 'Infinity'} is not allowed in a log; numbers must be finite"
    return f"a Python {type(v).__name__} is not a JSON value"


def _scan(root: Any, ptr: str = "", depth: int = 1) -> list[dict]:
    """Iteratively check that ``root`` is plain JSON of bounded depth and size.

    A Python value that contains itself ends up too deep; shared (not cyclic) sub-values are fine,
    and the value count bounds the work they can cause.
    """
    if not isinstance(root, (dict, list)):
        problem = _scalar_problem(root)
        return [{"path": ptr, "message": problem}] if problem else []
    errors: list[dict] = []
    count = 0
    stack: list[tuple[Any, str, int]] = [(root, ptr, depth)]
    while stack:
        node, ptr, depth = stack.pop()
        if depth > MAX_DEPTH:
            return [{"path": ptr, "message": f"the log is nested too deeply (more than {MAX_DEPTH} levels of lists "
                     "and objects)"}]
        count += len(node)
        if count > MAX_VALUES:
            return [{"path": "", "message": f"the log is too large (more than {MAX_VALUES} values)"}]
        if isinstance(node, dict):
            if type(node) is _DupDict:
                for k in node.dups:
                    errors.append({"path": _ptr(ptr, k), "message": f"the field {quoted(k)} appears more than once in "
                                   "the same object; keep only one"})
            for k in node:
                if not isinstance(k, str):
                    errors.append({"path": ptr, "message": f"a field name must be text, not {_describe(k)}"})
                elif "\x00" in k or not k.isascii() and _SURROGATE.search(k):
                    errors.append({"path": ptr, "message": "a field name contains the NUL character or an "
                                   "unpaired surrogate (\\ud800-\\udfff), which a log may not hold"})
            items: Any = node.items()
        else:
            items = enumerate(node)
        for k, v in items:
            t = type(v)
            if t is str:
                if "\x00" in v or not v.isascii() and _SURROGATE.search(v):
                    errors.append({"path": _ptr(ptr, k), "message": _scalar_problem(v)})
            elif t is dict or t is list or t is _DupDict:
                stack.append((v, _ptr(ptr, k), depth + 1))
            elif t is bool or v is None:
                pass
            elif t is int and -MAX_INT < v < MAX_INT:
                pass
            elif isinstance(v, (dict, list)):
                stack.append((v, _ptr(ptr, k), depth + 1))
            else:
                problem = _scalar_problem(v)
                if problem:
                    errors.append({"path": _ptr(ptr, k), "message": problem})
        if len(errors) > MAX_ERRORS:
            break
    return errors


# --------------------------------------------------------------------------------------------
# Turning jsonschema errors into plain words


def _clip(s: str, n: int = 80) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def quoted(s: str) -> str:
    return _clip(json.dumps(s, ensure_ascii=False))


def _describe(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return f"the number {_clip(str(v), 40)}"
    if isinstance(v, float):
        return f"the number {_clip(repr(v), 40)}"
    if isinstance(v, str):
        return f"the text {quoted(v)}" if v else "empty text"
    if isinstance(v, list):
        return f"a list of {len(v)} item{'' if len(v) == 1 else 's'}" if v else "an empty list"
    if isinstance(v, dict):
        keys = ", ".join(quoted(k) if isinstance(k, str) else repr(k) for k in list(v)[:8])
        return _clip(f"an object with {keys}") if v else "an empty object"
    return with_article(type(v).__name__)


_TYPE_WORDS = {"object": "an object", "array": "a list", "string": "text", "integer": "a whole number",
               "number": "a number", "boolean": "true or false", "null": "null"}
_PATTERN_WORDS = {
    "^[0-9A-Za-z._-]{1,32}(?![\\s\\S])": "1 to 32 letters, digits, dots, underscores or dashes (e.g. \"2026.1\")",
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}$": "a date written YYYY-MM-DD",
}


def _resolve(root: Any, s: Any) -> Any:
    while isinstance(s, dict) and "$ref" in s and s["$ref"].startswith("#/"):
        target: Any = root
        for part in s["$ref"][2:].split("/"):
            target = target[part]
        s = target
    return s


def _schema_at(root: Any, path: list) -> dict:
    """The subschema describing the value at ``path`` (following properties, items, $ref and the
    branches of oneOf), used for titles; {} if there is none."""
    s: Any = root
    for seg in path:
        s = _resolve(root, s)
        if not isinstance(s, dict):
            return {}
        if isinstance(seg, int):
            nxt = s.get("items")
        else:
            nxt = s.get("properties", {}).get(seg)
            if nxt is None:
                for pat, sub in s.get("patternProperties", {}).items():
                    if re.search(pat, seg):
                        nxt = sub
                        break
        if nxt is None:
            for branch in s.get("oneOf", []) + s.get("anyOf", []):
                branch = _resolve(root, branch)
                cand = branch.get("items") if isinstance(seg, int) else branch.get("properties", {}).get(seg)
                if cand is not None:
                    nxt = cand
                    break
        if nxt is None:
            return {}
        s = nxt
    s = _resolve(root, s)
    return s if isinstance(s, dict) else {}


def _the(root: Any, path: list, sub: dict | None = None) -> str:
    sub = _schema_at(root, path) if sub is None else sub
    title = sub.get("title")
    if title:
        return f"the {title}"
    if path and isinstance(path[-1], str):
        return f"the field {quoted(path[-1])}"
    if path:
        return f"item {path[-1]}"
    return "the log"


def _noun(root: Any, sub: dict) -> str:
    items = _resolve(root, sub.get("items"))
    title = items.get("title") if isinstance(items, dict) else None
    return f"{title}s" if title else "items"


def _explain(root: Any, err: Any) -> list[tuple[list, str]]:
    """One jsonschema ValidationError -> [(path, message)]."""
    path = list(err.absolute_path)
    kw = err.validator
    inst = err.instance
    val = err.validator_value
    sub = _schema_at(root, path)
    what = _the(root, path, sub)
    found = _describe(inst)

    if kw == "type":
        types = [val] if isinstance(val, str) else list(val)
        expected = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
        if not path:
            return [(path, f"the log must be a JSON object ({{...}}); found {found}")]
        return [(path, f"{what} must be {expected}; found {found}")]
    if kw == "required":
        out = []
        for name in val:
            if isinstance(inst, dict) and name not in inst:
                # a field required only in some cases says why in its schema ("x-missing")
                said = err.schema.get("x-missing", {}) if isinstance(err.schema, dict) else {}
                if name in said:
                    out.append((path + [name], said[name]))
                else:
                    title = _schema_at(root, path + [name]).get("title")
                    label = f" ({title})" if title and title != name else ""
                    out.append((path + [name], f"the field {quoted(name)}{label} is missing"))
        return out
    if kw == "additionalProperties":
        schema_here = err.schema if isinstance(err.schema, dict) else {}
        known = list(schema_here.get("properties", {}))
        pats = list(schema_here.get("patternProperties", {}))
        allowed = ", ".join(quoted(k) for k in known)
        if "^x-" in pats:
            allowed += ' and names starting with "x-"'
        out = []
        for k in inst:
            if k in known or any(re.search(p, k) for p in pats):
                continue
            where = "in the log" if not path else f"in {what}"
            out.append((path + [k], f"unknown field {quoted(k)} {where}; the fields allowed are {allowed}"))
        return out
    if kw == "not" and path[-2:] == ["chance", "view"]:
        return [(path, "only a log with recorded chance is written from one seat (\"view\"); in a seeded "
                 "game every card is known: remove it")]
    if kw == "not" and len(path) >= 2 and path[-2] == "chance":
        return [(path, f"a log with recorded chance has no {quoted(path[-1])} (its draws are written in the "
                 "decisions); remove it, or set the chance type to \"seeded\"")]
    if kw == "not" and path[-2:] == ["result", "time_rule"]:
        return [(path, "\"time_rule\" says how a game stopped by time is scored: it goes only with "
                 "\"reason\": \"time\"")]
    if kw == "not" or kw is None:
        return [(path, f"{what} is not allowed here" if path else "this value is not allowed here")]
    if kw == "const":
        if path == ["version"] and is_whole(inst):
            return [(path, f"this engine reads log format version {val}; this log is version {inst}")]
        return [(path, f"{what} must be {json.dumps(val)}; found {found}")]
    if kw == "enum":
        return [(path, f"{what} must be one of {', '.join(json.dumps(v) for v in val)}; found {found}")]
    if kw == "minLength":
        if val == 1:
            return [(path, f"{what} must not be empty")]
        return [(path, f"{what} is too short: {len(inst)} characters, at least {val}")]
    if kw == "maxLength":
        return [(path, f"{what} is too long: {len(inst)} characters, at most {val}")]
    if kw == "pattern":
        return [(path, f"{what} must be {_PATTERN_WORDS.get(val, 'text matching ' + val)}; found {found}")]
    if kw == "format":
        if val == "date":
            return [(path, f"{what} must be a real calendar date written YYYY-MM-DD; found {found}")]
        return [(path, f"{what} must be a valid {val}; found {found}")]
    if kw == "minimum":
        return [(path, f"{what} must be at least {val}; found {_clip(str(inst), 40)}")]
    if kw == "maximum":
        return [(path, f"{what} must be at most {val}; found {_clip(str(inst), 40)}")]
    if kw in ("minItems", "maxItems"):
        lo, hi = sub.get("minItems"), sub.get("maxItems")
        noun = _noun(root, sub)
        if lo is not None and lo == hi:
            return [(path, f"wrong number of {noun}: expected exactly {lo}, found {len(inst)}")]
        if lo is not None and hi is not None:
            return [(path, f"wrong number of {noun}: expected {lo} to {hi}, found {len(inst)}")]
        if kw == "maxItems":
            return [(path, f"too many {noun}: at most {val}, found {len(inst)}")]
        return [(path, f"too few {noun}: at least {val}, found {len(inst)}")]
    if kw == "uniqueItems":
        seen: set[str] = set()
        for j, item in enumerate(inst):
            key = json.dumps(item, sort_keys=True)
            if key in seen:
                shown = quoted(item) if isinstance(item, str) else _describe(item)
                return [(path + [j], f"{shown} appears more than once in {what}; "
                         "each may appear only once")]
            seen.add(key)
        return [(path, f"{what} must not contain the same item twice")]
    if kw in ("oneOf", "anyOf"):
        branches = [_resolve(root, b) for b in val]
        fitting = [i for i, b in enumerate(branches) if isinstance(b, dict) and "type" in b
                   and any(_TYPES[t](inst) for t in ([b["type"]] if isinstance(b["type"], str) else b["type"]))]
        if len(fitting) == 1:
            out = []
            for e in err.context:
                if e.relative_schema_path and e.relative_schema_path[0] == fitting[0]:
                    out.extend(_explain(root, e))
            if out:
                return out
        titles = [b.get("title", "") for b in branches if isinstance(b, dict)]
        return [(path, f"{what} must be {' or '.join(t for t in titles if t)}; found {found}")]
    return [(path, f"{what}: {_clip(err.message, 160)}")]


def _schema_errors(validator: Any, instance: Any) -> list[tuple[list, str]]:
    out: list[tuple[list, str]] = []
    for err in validator.iter_errors(instance):
        out.extend(_explain(validator.schema, err))
    return out


def schema_problems(schema: Mapping[str, Any], value: Any) -> list[dict[str, str]]:
    """What is wrong with ``value`` by a JSON Schema of the caller's (a request's field, not a log),
    each as a log's problems are ({"path": a JSON pointer, "message"}), in the same words (the
    schema's titles name the fields)."""
    return [{"path": _to_pointer(path), "message": message}
            for path, message in sorted(_schema_errors(_Validator(schema), value), key=lambda pm: _sort_key(pm[0]))]


# --------------------------------------------------------------------------------------------
# Checks across fields


def field_at(d: Any, *keys: Any) -> Any:
    for k in keys:
        if isinstance(d, dict) and isinstance(k, str):
            d = d.get(k)
        elif isinstance(d, list) and isinstance(k, int) and 0 <= k < len(d):
            d = d[k]
        else:
            return None
    return d



# --------------------------------------------------------------------------------------------
# Parsing


@lru_cache(maxsize=None)
def _canonical_for(game: str) -> Callable[[str], tuple[Any, str]]:
    """``game``'s reading of one line into (its decision, its canonical text), remembered: the same
    lines recur across logs. Raises ValueError (the game's syntax error, in words) if it does not read."""
    rules = rules_for(game)

    @lru_cache(maxsize=65536)
    def canonical(line: str) -> tuple[Any, str]:
        d = rules.parse_line(line)
        return d, rules.format_line(d)
    return canonical


def decisions_of(log: GameLog) -> list[Any]:
    """The log's lines as its game's decisions, read once: parse_log has read every line, and the
    reading of each text is remembered."""
    read_line = _canonical_for(log.game)
    return [read_line(text)[0] for text in log.decisions]


def _sort_key(path: list) -> tuple:
    return tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in path)


def _from_pointer(ptr: str) -> list:
    parts = ptr.split("/")[1:] if ptr else []
    # isascii(): '¹' and other Unicode digits pass isdigit() but are no array index (int() fails)
    return [int(p) if p.isascii() and p.isdigit() and str(int(p)) == p
            else p.replace("~1", "/").replace("~0", "~") for p in parts]


def _to_pointer(path: list) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _fail(problems: list[tuple[list, str]]) -> LogFormatError:
    seen: set[tuple[str, str]] = set()
    ordered = []
    for path, msg in sorted(problems, key=lambda pm: _sort_key(pm[0])):
        ptr = _to_pointer(path)
        if (ptr, msg) not in seen:
            seen.add((ptr, msg))
            ordered.append({"path": ptr, "message": msg})
    if len(ordered) > MAX_ERRORS:
        rest = len(ordered) - MAX_ERRORS
        ordered = ordered[:MAX_ERRORS] + [{"path": "", "message": f"... and {rest} more problems not listed"}]
    return LogFormatError(ordered)


def parse_log(source: Any) -> GameLog:
    """Read a log from bytes, JSON text or an already-decoded value.

    Returns a GameLog; raises LogFormatError (and nothing else) listing every problem found.
    """
    if isinstance(source, GameLog):
        return source
    try:
        return _parse(source)
    except LogFormatError:
        raise
    except Exception as exc:  # a bug here must still not escape as anything but a format error
        raise LogFormatError([{"path": "", "message": f"internal error while reading the log ({type(exc).__name__}); "
                               "this is a bug in the log reader, please report it"}]) from exc


def _game_of(value: Any) -> Any:
    """The log's "game" as written (DEFAULT_GAME when it has none)."""
    return value.get("game", DEFAULT_GAME) if isinstance(value, dict) else DEFAULT_GAME


def _parse(source: Any) -> GameLog:
    value, needs_scan = _decode(source)
    game = _game_of(value)
    if not is_known(game):
        scan = _scan(value)
        if scan:
            raise _fail([(_from_pointer(e["path"]), e["message"]) for e in scan])
        raise _fail([(["game"], unknown_game_words(game))])
    validator, fast = _machinery(game)
    valid = False
    if not needs_scan and fast is not None and fast(value):
        # Ordinary text the schema accepts: everything but meta's extension fields is shallow, small
        # and bounded (every whole number has a maximum) by the schema, and the decoder already
        # refused duplicates and non-finite numbers; only meta needs the scan.
        valid = not _scan(value["meta"], "/meta", 2) if "meta" in value else True
    problems: list[tuple[list, str]] = []
    if not valid:
        scan = _scan(value)
        if scan:
            raise _fail([(_from_pointer(e["path"]), e["message"]) for e in scan])
        problems = _schema_errors(validator, value)  # jsonschema is the authority here
        valid = not problems
    if not isinstance(value, dict):
        raise _fail(problems or [([], "the log must be a JSON object")])
    rules = rules_for(game)
    read_line = _canonical_for(game)

    decoded: list[tuple[int, Any]] = []  # (index, Decision) of every line that reads
    canonical: list[str] = []
    lines = value.get("decisions")
    if valid:  # every line is text of at most 200 characters: read them all at once
        try:
            pairs = list(map(read_line, lines))
        except ValueError:
            valid = False
        else:
            decoded = list(enumerate(p[0] for p in pairs))
            canonical = [p[1] for p in pairs]
    if not valid and isinstance(lines, list):
        for i, line in enumerate(lines):
            if isinstance(line, str) and len(line) <= 200:
                try:
                    d, text = read_line(line)
                except ValueError as e:
                    problems.append((["decisions", i], str(e)))
                    continue
                decoded.append((i, d))
                canonical.append(text)
    bad = {tuple(p) for p, _ in problems}
    problems += [(p, m) for p, m in rules.line_problems(value, decoded, canonical) if tuple(p) not in bad]
    if problems:
        raise _fail(problems)
    setup, checkpoints, result = rules.read_log_parts(value)
    c = value["chance"]
    meta = value.get("meta")
    return GameLog(value["catalog"], _freeze(meta) if meta else _NO_META, setup,
                   Chance(c["type"], c.get("algorithm"), c.get("seed"), c.get("view")), tuple(canonical),
                   checkpoints, result, game)



# --------------------------------------------------------------------------------------------
# Writing


def dump_log(log: GameLog) -> dict:
    """The log as a JSON-ready dict in normal form (parse_log(dump_log(x)) == x)."""
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "catalog": log.catalog}
    if log.game != DEFAULT_GAME:  # a Battle for Empyrean log is written without it: its hash stays
        out["game"] = log.game
    if log.meta:
        out["meta"] = _thaw(log.meta)
    rules = rules_for(log.game)
    out["setup"] = rules.dump_setup(log.setup)
    if log.chance.type == "seeded":
        out["chance"] = {"type": "seeded", "algorithm": log.chance.algorithm, "seed": log.chance.seed}
    else:
        out["chance"] = {"type": log.chance.type}
        if log.chance.view is not None:
            out["chance"]["view"] = log.chance.view
    out["decisions"] = list(log.decisions)
    if log.checkpoints:
        out["checkpoints"] = [rules.dump_checkpoint(c) for c in log.checkpoints]
    if log.result is not None:
        out["result"] = rules.dump_result(log.result)
    return out


def to_json(log: GameLog) -> str:
    """Canonical JSON text: sorted keys, no spaces, non-ASCII characters as themselves (UTF-8), and
    each run of draws and keeps listed player by player (``canonical_decisions``)."""
    out = dump_log(log)
    out["decisions"] = canonical_decisions(log.decisions, log.game)
    return json.dumps(out, sort_keys=True, separators=(",", ":"), ensure_ascii=False)



def canonical_decisions(lines: tuple[str, ...] | list[str], game: str = DEFAULT_GAME) -> list[str]:
    """The decision lines in ``game``'s canonical order: lines that may be written in any player
    order (a simultaneous draft, say) put in one order, so that every writing of one game has the
    same canonical form and hash."""
    return rules_for(game).canonical_lines(lines)  # type: ignore[no-any-return]


def canonical_hash(log: GameLog) -> str:
    """sha256 (hex) of the UTF-8 canonical JSON: equal games written differently hash alike."""
    return hashlib.sha256(to_json(log).encode("utf-8")).hexdigest()
