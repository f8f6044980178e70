"""The standings maths (services.games.standings): match points, the tie-breakers with the 1/3
floor, exact ties, and which matches count — by the service's one-match-counts-once rule, with
disputed, pending and invalid matches left out. Every expected number here is worked out by hand
in the comments, not by the code under test."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import count

import pytest

from services.games.disputes import MatchDispute, Side, agree, counting_game, read_by_rule
from services.games.standings import (
    COUNTED,
    DISPUTED,
    NONE_COUNTS,
    NOT_VALID,
    PENDING,
    Match,
    MatchGame,
    Row,
    Seat,
    rank,
    settle,
    standings,
)

_ids = count(1)


def game(winner: str | None, players=("A", "B"), *, verdict="valid", claimed: str | None = None,
         decks: dict[str, str] | None = None, standing: bool = True) -> MatchGame:
    """An upload of a match, judged ``verdict``; ``winner`` None is a draw. A game not replayed yet
    (verdict None) and an illegal one have no record (no seats). ``standing``: its uploader is
    standing for the match (services.games.disputes)."""
    gid = next(_ids)
    seats = () if verdict not in ("valid", "mismatch") else tuple(
        Seat(p, (decks or {}).get(p, f"deck of {p}"), p == winner) for p in players)
    status = "queued" if verdict is None else verdict
    return MatchGame(gid, status, verdict, claimed if claimed is not None else (winner or "a draw"), seats,
                     standing=standing)


def match(rnd: int, *games: MatchGame, players=("A", "B"), dispute: MatchDispute | None = None) -> Match:
    return Match(next(_ids), 1, "Open", rnd, str(next(_ids)), tuple(sorted(players)), games, dispute)


def won(rnd: int, winner: str, loser: str) -> Match:
    return match(rnd, game(winner, (winner, loser)), players=(winner, loser))


def by_player(rows: list[Row]) -> dict[str, Row]:
    return {r.player: r for r in rows}


def test_points_and_every_tie_breaker_with_the_floor():
    # R1 A>B, C>D; R2 A>C, B>D; R3 A=D (draw), B>C
    matches = [won(1, "A", "B"), won(1, "C", "D"), won(2, "A", "C"), won(2, "B", "D"),
               match(3, game(None, ("A", "D")), players=("A", "D")), won(3, "B", "C")]
    table = standings(matches)
    rows = by_player(table.rows)
    assert [r.player for r in table.rows] == ["A", "B", "C", "D"]
    assert [(r.wins, r.draws, r.losses, r.points) for r in table.rows] == [
        (2, 1, 0, 7), (2, 0, 1, 6), (1, 0, 2, 3), (0, 1, 2, 1)]
    # match-win %: A 7/9, B 6/9, C 3/9; D 1/9 is raised to the floor 1/3
    assert [rows[p].match_win for p in "ABCD"] == [F(7, 9), F(2, 3), F(1, 3), F(1, 3)]
    # OMW: A met B, C, D: (2/3 + 1/3 + 1/3) / 3 = 4/9 (without the floor D would give 10/27)
    assert rows["A"].opponents_match_win == F(4, 9)
    assert rows["B"].opponents_match_win == F(13, 27)  # A, D, C: (7/9 + 1/3 + 1/3) / 3
    assert rows["C"].opponents_match_win == F(16, 27)  # D, A, B: (1/3 + 7/9 + 2/3) / 3
    assert rows["D"].opponents_match_win == F(16, 27)  # C, B, A
    # GW: one game per match, so the (floored) match-win %
    assert [rows[p].game_win for p in "ABCD"] == [F(7, 9), F(2, 3), F(1, 3), F(1, 3)]
    # OOMW: the mean of the opponents' OMW: A (13 + 16 + 16) / 81, B (12 + 16 + 16) / 81, C and D 41/81
    assert [rows[p].opponents_opponents_match_win for p in "ABCD"] == [F(45, 81), F(44, 81), F(41, 81), F(41, 81)]
    assert table.rows[0].as_dict()["opponents_match_win"] == pytest.approx(4 / 9)
    assert rows["A"].opponents == ["B", "C", "D"]


def test_players_level_on_points_and_every_tie_breaker_share_a_rank():
    # R1 A>B, C>D; R2 A>C, B>D: B and C have 3 points, OMW 2/3, GW 1/2, OOMW 1/2 each (worked out:
    # B met A (1) and D (0 -> 1/3); C met D and A; A's and D's OMW are both 1/2)
    table = standings([won(1, "A", "B"), won(1, "C", "D"), won(2, "A", "C"), won(2, "B", "D")])
    assert [(r.rank, r.player) for r in table.rows] == [(1, "A"), (2, "B"), (2, "C"), (4, "D")]
    rows = by_player(table.rows)
    assert rows["B"].opponents_match_win == rows["C"].opponents_match_win == F(2, 3)
    assert rows["B"].opponents_opponents_match_win == rows["C"].opponents_opponents_match_win == F(1, 2)


def row(player: str, wins: int, losses: int, omw: F, gw: F, oomw: F) -> Row:
    return Row(player, wins=wins, losses=losses, match_win=gw, game_win=gw, opponents_match_win=omw,
               opponents_opponents_match_win=oomw)


def test_each_tie_breaker_decides_in_its_turn():
    rows = [
        row("Ann", 2, 1, F(1, 2), F(2, 3), F(9, 10)),   # 6 points, lower OMW
        row("Bea", 2, 1, F(3, 5), F(2, 3), F(1, 10)),   # 6 points, higher OMW: before Ann, whatever else
        row("Cal", 1, 0, F(1, 2), F(1, 1), F(1, 10)),   # 3 points ...
        row("Dov", 1, 1, F(1, 2), F(1, 2), F(9, 10)),   # ... same OMW, lower GW: after Cal
        row("Eve", 1, 1, F(1, 2), F(1, 2), F(1, 2)),    # as Dov, lower OOMW: after Dov
        row("Fay", 1, 1, F(1, 2), F(1, 2), F(1, 2)),    # as Eve in every number: same rank, by name
        row("Gus", 0, 0, F(0), F(0), F(0)),             # no counted match: last
        row("Abe", 0, 3, F(1, 2), F(1, 3), F(1, 2)),    # 0 points but played: before Gus
    ]
    ordered = rank(rows)
    assert [(r.rank, r.player) for r in ordered] == [
        (1, "Bea"), (2, "Ann"), (3, "Cal"), (4, "Dov"), (5, "Eve"), (5, "Fay"), (7, "Abe"), (8, "Gus")]


def test_a_draw_is_one_point_each_and_a_three_player_game_gives_the_winner_three():
    table = standings([match(1, game(None, ("A", "B")), players=("A", "B")),
                       match(2, game("C", ("A", "B", "C")), players=("A", "B", "C"))])
    rows = by_player(table.rows)
    assert (rows["A"].points, rows["B"].points, rows["C"].points) == (1, 1, 3)
    assert (rows["A"].draws, rows["A"].losses, rows["C"].wins) == (1, 1, 1)
    assert rows["C"].opponents == ["A", "B"]  # both others at a 3-player table are opponents
    assert rows["A"].opponents == ["B", "B", "C"]
    # C: 3/3 = 1; A's OMW is the mean of B (1/6 -> 1/3), B again, C (1): 5/9
    assert rows["A"].opponents_match_win == F(5, 9)


def test_a_game_with_one_winner_shows_no_scores():
    """Battle for Empyrean's seats keep a score (battlefields held), but its standings show none."""
    table = standings([match(1, game("A"), players=("A", "B")), match(1, game(None, verdict="illegal"))])
    assert not table.scored and "total_score" not in table.rows[0].as_dict()
    assert [len(s.places()) for s in table.settled] == [2, 0]  # the seats of the game that counts; none


def test_an_open_dispute_counts_for_nothing_until_it_is_resolved():
    true, claim = game("A"), game("A", verdict="mismatch", claimed="B")
    open_ = match(1, true, claim, dispute=MatchDispute(7, "open", None))
    table = standings([open_, won(2, "A", "C")])
    assert settle(open_).state == DISPUTED and "dispute 7" in settle(open_).why
    rows = by_player(table.rows)
    assert (rows["A"].matches, rows["A"].points, rows["A"].left_out) == (1, 3, 1)
    assert (rows["B"].matches, rows["B"].left_out, rows["B"].rank) == (0, 1, 3)
    assert rows["B"].match_win is None and rows["B"].as_dict()["opponents_match_win"] is None
    assert [s.match for s in table.left_out] == [open_]
    assert table.counted == 1


def test_a_resolution_counts_the_game_it_names_or_none():
    a_wins, b_wins = game("A"), game("B")
    named = match(1, a_wins, b_wins, dispute=MatchDispute(3, "resolved", b_wins.id))
    assert settle(named).state == COUNTED and settle(named).counts == b_wins
    assert by_player(standings([named]).rows)["B"].points == 3  # not the first valid upload: the named one
    nothing = match(1, game("A"), game("B"), dispute=MatchDispute(4, "resolved", None))
    assert settle(nothing).state == NONE_COUNTS
    assert by_player(standings([nothing]).rows)["A"].left_out == 1


def test_uploads_that_agree_count_once_and_the_first_valid_one_counts():
    first, second = game("A"), game("A")
    twice = match(1, first, second)
    assert settle(twice).counts == first
    assert by_player(standings([twice]).rows)["A"].points == 3  # not 6


def test_pending_and_invalid_matches_are_left_out_with_their_state():
    waiting = match(1, game(None, verdict=None))
    illegal = match(2, game("A", verdict="illegal"), game("A", verdict="malformed"))
    one_pending_one_valid = match(3, game(None, verdict=None), game("B"))
    assert settle(waiting).state == PENDING and "waiting for the replay" in settle(waiting).why
    assert settle(illegal).state == NOT_VALID and "illegal" in settle(illegal).why
    # the service counts the valid upload while the other waits (disputes.counting_game)
    assert settle(one_pending_one_valid).state == COUNTED
    table = standings([waiting, illegal, one_pending_one_valid])
    rows = by_player(table.rows)
    assert (rows["A"].left_out, rows["A"].losses, rows["B"].wins) == (2, 1, 1)
    assert [s.state for s in table.left_out] == [PENDING, NOT_VALID]


def test_decks_come_from_the_game_that_counts():
    m = match(1, game("A", decks={"A": "Zulus", "B": "Vikings"}))
    rows = by_player(standings([m, match(2, game("B", decks={"A": "Knights", "B": "Vikings"}))]).rows)
    assert rows["A"].decks == ["Zulus", "Knights"] and rows["B"].decks == ["Vikings"]
    assert settle(m).deck_of("B") == "Vikings" and settle(m).deck_of("Z") is None
    disputed = match(3, game(None, verdict=None), game("A", decks={"A": "Samurai"}),
                     dispute=MatchDispute(1, "open", None))
    assert settle(disputed).deck_of("A") == "Samurai"  # known from an upload, though none counts


# --- who may open a dispute: standing uploads (issue 26) -----------------------------------------------


def side(gid: int, claim: str, *, verdict: str | None = "valid", standing: bool = True) -> Side:
    return Side(gid, claim, verdict, standing)


def test_the_rule_reads_the_standing_uploads_of_a_match_when_it_has_any():
    organiser, player = side(2, "A"), side(1, "B", standing=False)
    assert read_by_rule([player, organiser]) == [organiser]
    # the player's log disagrees, but the rule does not read it: no dispute, the organiser's counts
    assert agree(read_by_rule([player, organiser]))
    assert counting_game([player, organiser], None) == 2  # though the player's has the lower id
    # two standing uploads that disagree: a dispute, as before
    assert not agree(read_by_rule([player, organiser, side(3, "B")]))
    # no standing upload: every upload is read, as before
    players = [side(1, "A", standing=False), side(2, "B", standing=False)]
    assert read_by_rule(players) == players and not agree(players)
    assert counting_game([side(1, "A", standing=False), side(2, "A", standing=False)], None) == 1
    # a standing upload that is not valid: nothing counts, and the player's valid log does not stand in
    assert counting_game([side(1, "A", standing=False), side(2, "A", verdict="illegal")], None) is None
    # the organiser's ruling may name any valid upload of the match, a player's too
    assert counting_game([player, organiser], MatchDispute(9, "resolved", 1)) == 1
    assert counting_game([player, organiser], MatchDispute(9, "open", None)) is None


def test_a_players_disagreeing_log_leaves_the_match_and_the_standings_as_they_were():
    official = game("A")
    claim = game("B", standing=False)
    m = match(1, claim, official)
    assert settle(m).state == COUNTED and settle(m).counts == official
    assert [(r.player, r.points) for r in standings([m]).rows] == [("A", 3), ("B", 0)]
    assert {g["id"]: g["standing"] for g in settle(m).as_dict()["games"]} == {claim.id: False, official.id: True}
    # the only standing upload is illegal: the match is not valid, and says which uploads it did not read
    refused = match(2, game("B", standing=False), game("A", verdict="illegal"))
    assert settle(refused).state == NOT_VALID
    assert f"not read: game {refused.games[0].id} (uploaders not standing" in settle(refused).why
    assert f"game {refused.games[0].id} valid" not in settle(refused).why
