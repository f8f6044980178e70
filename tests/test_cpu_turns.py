"""services.platform.cpu_turns: the positions API's computations take turns within a process."""

from __future__ import annotations

import threading
import time

from services.platform.cpu_turns import in_turn


def test_in_turn_returns_the_calls_answer_with_its_arguments():
    assert in_turn(divmod, 17, 5) == (3, 2)


def test_computations_in_turn_never_overlap():
    running, overlaps, answers = [0], [], []

    def compute(n: int) -> int:
        running[0] += 1
        overlaps.append(running[0])
        time.sleep(0.01)  # long enough for another thread to try to enter
        running[0] -= 1
        return n * n

    threads = [threading.Thread(target=lambda n=n: answers.append(in_turn(compute, n))) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [n * n for n in range(6)]
    assert max(overlaps) == 1
