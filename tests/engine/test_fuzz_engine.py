"""10,000 generated and mutated logs through the engine: replay() and timeline() never raise and
never fail inside (an ``error`` verdict is an engine bug), whatever the input."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))
from mutations import mutated_bytes  # noqa: E402

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
    if result.verdict.status == "illegal" and result.failing_frame is not None:
        assert result.frames[result.failing_frame]["index"] == result.verdict.index
