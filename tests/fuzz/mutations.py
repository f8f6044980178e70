"""Hypothesis strategies for hostile game logs: real logs (seeded self-play, 2 and 3 players, both
catalogs, with checkpoints and results) mutated the ways broken tools and people break them —
values of the wrong type or size, keys deleted or added, decisions rewritten, reordered, dropped
or duplicated, and the serialised bytes flipped, cut or padded.

Shared by the engine fuzz test (tests/engine/test_fuzz_engine.py) and the API fuzz test
(tests/services/test_fuzz_api.py)."""

from __future__ import annotations

import copy
import json
from functools import lru_cache

from hypothesis import strategies as st

from engine.selfplay import self_play

WORDS = ["P1", "P2", "P3", "C", "keep", "deploy", "pass", "to", "B1", "B2", "B3", "B4", "Z1", "Z9", "choose",
         "move", "swap", "discard", "draw", "Lich", "Soul of the Living", "Horse Archers", "", " ", "P0",
         "P1:B1Z1", "P2:B3Z2", "-1", "999999999999", "\u0000", "é", "\ud800"]
ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40), st.just("x" * 5000), st.lists(st.integers(-3, 12), max_size=6),
    st.dictionaries(st.text(max_size=8), st.integers(), max_size=3),
    st.recursive(st.integers(0, 3), lambda inner: st.lists(inner, max_size=3), max_leaves=8))


@lru_cache(maxsize=1)
def base_logs() -> tuple[str, ...]:
    """Real, valid logs as JSON text (built once; each example mutates a fresh copy)."""
    logs = [self_play(seed, checkpoints=seed % 2 == 0, meta={"event": "Fuzz Open", "round": 1 + seed % 5,
                                                              "table": seed, "players": ["Ann", "Bo"]})
            for seed in range(8)]
    logs += [self_play(100 + seed, players=3) for seed in range(2)]
    logs += [self_play(200 + seed, catalog="2026.1", bot="greedy") for seed in range(2)]
    return tuple(json.dumps(log) for log in logs)


@lru_cache(maxsize=1)
def all_decisions() -> tuple[str, ...]:
    """Every distinct decision written in the base logs: real grammar, real card names."""
    return tuple(sorted({d for text in base_logs() for d in json.loads(text)["decisions"]}))


def _slots(value, path=()):
    """Every (container, key) in a decoded log, so a mutation can pick any place in it."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield value, key
            yield from _slots(child, path + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield value, i
            yield from _slots(child, path + (i,))


@st.composite
def mutated_value(draw) -> dict:
    log = json.loads(draw(st.sampled_from(base_logs())))
    for _ in range(draw(st.integers(1, 4))):
        # decision changes first: they get past the schema and exercise the rules themselves
        kind = draw(st.sampled_from(["decision", "reorder", "duplicate", "decision", "drop", "add", "delete",
                                    "replace"]))
        decisions = log.get("decisions") if isinstance(log, dict) else None
        if kind in ("decision", "reorder", "drop", "duplicate") and isinstance(decisions, list) and decisions:
            i = draw(st.integers(0, len(decisions) - 1))
            if kind == "decision":  # mostly well-formed but out of place, sometimes word soup
                decisions[i] = draw(st.one_of(st.sampled_from(all_decisions()), st.lists(
                    st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join)))
            elif kind == "reorder":
                j = draw(st.integers(0, len(decisions) - 1))
                decisions[i], decisions[j] = decisions[j], decisions[i]
            elif kind == "drop":
                del decisions[i:]
            else:
                decisions.insert(i, copy.copy(decisions[i]))
            continue
        slots = list(_slots(log))
        container, key = draw(st.sampled_from(slots))
        if kind == "replace":
            container[key] = draw(ODD_VALUES)
        elif kind == "delete":
            del container[key]
        elif isinstance(container, dict):
            container[draw(st.sampled_from(["x-note", "extra", "Meta", "result", "decisions "]))] = draw(ODD_VALUES)
        else:
            container.insert(key, draw(ODD_VALUES))
    return log


@st.composite
def mutated_bytes(draw) -> bytes:
    """A mutated log serialised, and sometimes its bytes damaged too."""
    data = json.dumps(draw(mutated_value()), ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    damage = draw(st.sampled_from(["none", "none", "none", "flip", "cut", "insert"]))
    if damage == "flip" and data:
        i = draw(st.integers(0, len(data) - 1))
        data = data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1:]
    elif damage == "cut":
        data = data[: draw(st.integers(0, len(data)))]
    elif damage == "insert":
        i = draw(st.integers(0, len(data)))
        data = data[:i] + draw(st.binary(min_size=1, max_size=8)) + data[i:]
    return data
