"""Hypothesis strategies for hostile game logs: real logs (seeded self-play, 2 and 3 players, both
catalogs, with checkpoints and results; the same games written with recorded chance, from one
seat, conceded and stopped by time) mutated the ways broken tools and people break them — values
of the wrong type or size, keys deleted or added, decisions rewritten, reordered, dropped or
duplicated, cards made unseen ('?'), concessions and seat views added, and the serialised bytes
flipped, cut or padded.

Shared by the engine fuzz test (tests/engine/test_fuzz_engine.py), the API fuzz test
(tests/services/test_fuzz_api.py) and the conformance suite (tests/engine/test_conformance.py), which
passes each game's own valid logs as ``bases``; without them the bases are Battle for Empyrean's."""

from __future__ import annotations

import copy
import json
from functools import lru_cache

from hypothesis import strategies as st

from engine.bfe.selfplay import self_play
from engine.seats import as_recorded, seat_view

WORDS = ["P1", "P2", "P3", "C", "keep", "deploy", "pass", "to", "B1", "B2", "B3", "B4", "Z1", "Z9", "choose",
         "move", "swap", "discard", "draw", "Lich", "Soul of the Living", "Horse Archers", "", " ", "P0",
         "P1:B1Z1", "P2:B3Z2", "-1", "999999999999", "\u0000", "é", "\ud800", "?", "concede", "nothing"]
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
    recorded = [as_recorded(self_play(300 + seed, players=2 + seed % 2)) for seed in range(3)]
    logs += recorded + [seat_view(log, 1 + i % 2) for i, log in enumerate(recorded)]
    conceded = copy.deepcopy(recorded[0])
    conceded["decisions"] = conceded["decisions"][:60] + ["P2 concede"]
    conceded["result"] = {"winner": 1, "reason": "concession"}
    timed = copy.deepcopy(logs[1])
    timed["decisions"] = timed["decisions"][:70]
    timed["result"] = {"winner": None, "reason": "time", "time_rule": "draw"}
    logs += [conceded, timed]
    return tuple(json.dumps(log) for log in logs)


def all_decisions() -> tuple[str, ...]:
    """Every distinct decision written in the base logs: real grammar, real card names."""
    return decisions_in(base_logs())


@lru_cache(maxsize=8)
def decisions_in(bases: tuple[str, ...]) -> tuple[str, ...]:
    """Every distinct decision written in ``bases`` (valid logs as JSON text)."""
    return tuple(sorted({d for text in bases for d in json.loads(text)["decisions"]}))


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
def mutated_value(draw, bases: tuple[str, ...] | None = None) -> dict:
    """One of ``bases`` (valid logs as JSON text; default: ``base_logs()``) mutated one to four times."""
    bases = base_logs() if bases is None else bases
    log = json.loads(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(1, 4))):
        # decision changes first: they get past the schema and exercise the rules themselves
        kind = draw(st.sampled_from(["decision", "reorder", "duplicate", "decision", "drop", "add", "delete",
                                    "replace", "unseen", "concede", "view"]))
        decisions = log.get("decisions") if isinstance(log, dict) else None
        if kind == "view" and isinstance(log, dict) and isinstance(log.get("chance"), dict):
            log["chance"]["view"] = draw(st.integers(0, 4))  # a seat view, maybe of a seeded log
            continue
        if kind in ("decision", "reorder", "drop", "duplicate", "unseen", "concede") and isinstance(decisions, list) \
                and decisions:
            i = draw(st.integers(0, len(decisions) - 1))
            if kind == "decision":  # mostly well-formed but out of place, sometimes word soup
                decisions[i] = draw(st.one_of(st.sampled_from(decisions_in(bases)), st.lists(
                    st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join)))
            elif kind == "reorder":
                j = draw(st.integers(0, len(decisions) - 1))
                decisions[i], decisions[j] = decisions[j], decisions[i]
            elif kind == "drop":
                del decisions[i:]
            elif kind == "unseen" and isinstance(decisions[i], str):  # a card nobody saw, where it may or may not be
                words = decisions[i].split(" ") + ["", ""]
                decisions[i] = " ".join(words[:2 + (words[0] == "C")] + ["?"] + words[-4:-2] * (words[1] == "deploy"))
            elif kind == "concede":
                decisions.insert(i, f"P{draw(st.integers(1, 3))} concede")
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
def mutated_bytes(draw, bases: tuple[str, ...] | None = None) -> bytes:
    """A mutated log (of ``bases``, as in ``mutated_value``) serialised, and sometimes its bytes damaged too."""
    data = json.dumps(draw(mutated_value(bases)), ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
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
