"""services.games.fold.FoldCadence: when a worker process folds after its replay tasks."""

from __future__ import annotations

from pytest import approx

from services.games.fold import FoldCadence


def test_the_first_task_folds_at_once():
    assert FoldCadence(0.5).after_replay(100.0) == 0.0


def test_tasks_soon_after_a_fold_leave_their_games_to_one_fold_task_when_the_interval_is_up():
    cadence = FoldCadence(0.5)
    cadence.folded(100.0)
    assert cadence.after_replay(100.1) == approx(0.4)  # one fold task, sent to run at 100.5
    assert cadence.after_replay(100.2) is None  # that task will count these games too
    assert cadence.after_replay(100.49) is None
    assert cadence.after_replay(100.5) == 0.0  # the interval is up: fold now


def test_the_interval_is_the_cadences_own():
    cadence = FoldCadence(2.0)
    cadence.folded(10.0)
    assert cadence.after_replay(11.0) == 1.0
    assert cadence.after_replay(11.5) is None
    assert cadence.after_replay(12.0) == 0.0


def test_after_the_fold_task_has_run_a_task_inside_the_next_interval_sends_another():
    cadence = FoldCadence(0.5)
    cadence.folded(100.0)
    assert cadence.after_replay(100.1) == approx(0.4)
    cadence.folded(100.5)  # the fold task ran in this process
    assert cadence.after_replay(100.6) == approx(0.4)


def test_games_left_by_a_fold_get_one_fold_task_an_interval_later():
    cadence = FoldCadence(0.5)
    assert cadence.fold_again(100.0) == 0.5
    assert cadence.fold_again(100.2) is None  # that task will count them
    assert cadence.fold_again(100.6) == 0.5
