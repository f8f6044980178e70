"""A stored game's statuses (services.games.status): the finished ones are the engine's verdicts, and
every move between statuses is declared with where it may come from and where it goes."""

from __future__ import annotations

from engine.replay import VerdictStatus
from services.games.status import FINISHED, PENDING, GameStatus, Move, sql_in


def test_a_finished_game_has_one_of_the_engines_verdicts():
    assert {str(s) for s in FINISHED} == {str(v) for v in VerdictStatus}
    assert FINISHED | PENDING == set(GameStatus) and not FINISHED & PENDING


def test_every_move_starts_and_ends_where_the_pipeline_says():
    assert Move.STORE.sources == frozenset() and Move.STORE.target == GameStatus.QUEUED
    assert Move.UNSENT.sources == {GameStatus.QUEUED} and Move.UNSENT.target == GameStatus.RECEIVED
    assert Move.RESEND.sources == PENDING and Move.REPROCESS.sources == FINISHED
    # a replay takes only games waiting for one: a finished game goes back to the queue by REPROCESS
    assert Move.CLAIM.sources == Move.REPLAYED.sources == Move.REPLAYED_TO_COUNT.sources == PENDING
    # a replayed game's new status is the engine's verdict, not a fixed one
    assert Move.REPLAYED.target is None and Move.COUNTED.target is None
    assert all(move.target is None or move.message or move is Move.STORE_MALFORMED or move is Move.FAILED
               for move in Move)


def test_a_status_set_is_written_into_sql_as_a_literal_list():
    assert sql_in(PENDING) == "('queued', 'received', 'replaying')"
