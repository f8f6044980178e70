"""Two logs of one match that part at a decision, for the dispute desk's tests (service and browser).

``diverging_logs`` self-plays a game Ana wins, then a second game from the same setup and seed that
takes every decision of the first up to some decision, another legal answer there, and the engine's
first legal answer from then on (engine.position), until the game is over and Ana wins it too. The
second log claims that Bo won: by the rules it is a mismatch, with legal decisions."""

from __future__ import annotations

import copy

from engine.position import position
from engine.selfplay import self_play

PLAYERS = ["Ana", "Bo"]


def _play_on(log: dict) -> dict | None:
    """``log`` (no result) played to its end with the first legal answer each time; its outcome, or
    None if it stops being legal."""
    while True:
        pos = position(log)
        if not pos.in_progress:
            return pos.outcome if pos.status == "valid" else None
        log["decisions"].append(pos.legal[0])


def diverging_logs(meta: dict, first_seed: int = 31_000) -> tuple[dict, dict, int]:
    """(A, B, n): A a valid log Ana wins; B the same game up to decision n - 1 (counted from 1), another
    legal line at decision n, Ana winning by the rules while B claims Bo won."""
    seed = first_seed
    while True:
        a = self_play(seed, meta=meta)
        seed += 1
        if a["result"]["winner"] != 1:
            continue
        decisions = a["decisions"]
        for k in range(len(decisions) // 3, len(decisions)):
            trial = {**copy.deepcopy(a), "decisions": decisions[:k]}
            trial.pop("result")
            legal = position(trial).legal
            others = [line for line in legal if line != decisions[k]]
            if decisions[k] not in legal or not others:
                continue
            trial["decisions"].append(others[0])
            outcome = _play_on(trial)
            if outcome is not None and outcome.winner == 1:
                trial["result"] = {"winner": 2}
                return a, trial, k + 1
