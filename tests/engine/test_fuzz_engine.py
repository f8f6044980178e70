"""10,000 generated and mutated logs through the engine: replay() and timeline() never raise and
never fail inside (an ``error`` verdict is an engine bug), whatever the input."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))
from mutations import mutated_bytes  # noqa: E402

from engine.bfe.selfplay import self_play  # noqa: E402
from engine.replay import replay  # noqa: E402
from engine.timeline import timeline  # noqa: E402

VERDICTS = {"valid", "illegal", "mismatch", "malformed"}


@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                     HealthCheck.data_too_large])
@given(mutated_bytes())
def test_the_engine_judges_every_mutated_log_without_failing(data):
    verdict = replay(data).verdict
    assert verdict.status in VERDICTS, verdict.message
    assert verdict.message
    if verdict.status == "illegal":
        assert verdict.rule and verdict.round is not None
    if verdict.status == "malformed":
        assert verdict.errors and all("path" in e and e["message"] for e in verdict.errors)


@settings(max_examples=1_000, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                    HealthCheck.data_too_large])
@given(mutated_bytes())
def test_the_replay_viewers_timeline_never_fails_either(data):
    result = timeline(data)
    assert result.verdict.status in VERDICTS, result.verdict.message
    _timeline_agrees_with_its_verdict(result)


def _timeline_agrees_with_its_verdict(result) -> None:
    """An illegal game's timeline stops at the line that broke the rules: the failing frame is its
    last, the failure names the verdict's decision index, and the line listed at that step is that
    decision. A setup that breaks the rules has no decision index and fails at frame 0."""
    v = result.verdict
    if v.status != "illegal":
        assert result.failure is None and result.failing_frame is None
        return
    assert result.failing_frame == len(result.frames) - 1
    assert result.failure["index"] == v.index
    if v.decision is not None:
        assert result.decisions[result.failing_frame] == v.decision
    if v.index is None:
        assert result.failing_frame == 0


def test_a_seeded_log_whose_first_player_disagrees_with_its_seed_fails_at_the_setup():
    """The case that once made the timeline test come and go: a setup-level illegality."""
    log = self_play(7)
    log["setup"]["first_player"] = 3 - log["setup"]["first_player"]
    v = replay(log).verdict
    assert v.status == "illegal" and v.index is None and v.phase == "setup"
    assert v.errors == [{"path": "/setup/first_player", "message": "the seed decides who goes first"}]
    tl = timeline(log)
    assert tl.failing_frame == 0 and tl.failure["index"] is None and len(tl.frames) == 1
    _timeline_agrees_with_its_verdict(tl)
