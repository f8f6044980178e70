"""Two worker processes with their own hostnames (as two machines would be) share one bundle: every
game is replayed exactly once — one claim each (games.attempts), one verdict each — both workers
took part, and the aggregates equal a recount. (Issue 7's multi-worker test; it lives beside the
fault tests for their rig: own servers, real workers, the API over HTTP.)"""

from __future__ import annotations

import re

import pytest
from test_faults import make_logs, upload_bundle

pytestmark = pytest.mark.slow

GAMES = 300


def test_two_workers_share_a_bundle_and_replay_every_game_once(make_rig):
    rig = make_rig(sweep_after_s=300, sweep_interval_s=300)  # no sweeper: nothing is sent twice
    rig.start_api()
    first = rig.start_worker(beat=False)
    second = rig.start_worker(beat=False)
    assert first.pid != second.pid
    upload_bundle(rig, "Shared Open", make_logs(GAMES, first_seed=9000))
    rig.wait_settled(GAMES, timeout=120)
    result = rig.assert_exactly_once(GAMES)
    assert result["attempts"] == GAMES, f"{result['attempts']} replays of {GAMES} games: some ran twice"
    # each worker's log names its own hostname and shows it finished chunks of the bundle
    for n in (1, 2):
        log = rig.worker_log(n).read_text(errors="replace")
        assert f"fault{n}@" in log, log[-2000:]
        done = len(re.findall(r"Task empyrean\.replay_games\[[^]]+\] succeeded", log))
        assert done > 0, f"worker {n} replayed nothing:\n{log[-2000:]}"
