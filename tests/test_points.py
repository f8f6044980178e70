"""Match points (services.games.points) and the standings of games decided by ranks
(services.games.standings with an event's points): places shared by tied seats, the most a match
gives at each table size, an organiser's points checked field by field. Every expected number is
worked out by hand in the comments."""

from __future__ import annotations

import sys
from fractions import Fraction as F
from itertools import count
from pathlib import Path

import pytest

from engine import games
from engine.log import parse_log
from services.games import points
from services.games.disputes import claimed_winner
from services.games.standings import Match, MatchGame, Seat, standings

sys.path.insert(0, str(Path(__file__).resolve().parent / "games"))
import pips  # noqa: E402

_ids = count(1)
BY_PLACE = points.Points(by_rank={2: (1, 0), 3: (2, 1, 0), 4: (3, 2, 1, 0)})


@pytest.fixture(autouse=True, scope="module")
def ranked_game_registered():
    games.register(pips.RANKED_RULES)
    yield
    games.unregister(pips.RANKED_KEY)


def table(rnd: int, *placed: tuple, uploads: int = 1) -> Match:
    """A counted match of a game decided by ranks: (player, rank) or (player, rank, score) per seat;
    ``uploads`` agreeing valid uploads of it (the first counts)."""
    gid = next(_ids)
    firsts = [r for _, r, *_ in placed].count(1)
    seats = tuple(Seat(p, "red", rank == 1 and firsts == 1, rank, *score) for p, rank, *score in placed)
    ids = (gid, *(next(_ids) for _ in range(uploads - 1)))
    games_ = tuple(MatchGame(i, "valid", "valid", "ranks", seats) for i in ids)
    return Match(gid, 1, "Open", rnd, str(gid), tuple(sorted(p for p, *_ in placed)), games_, ranked=True)


def test_the_defaults_by_the_games_kind_of_outcome():
    assert points.default("bfe") == points.Points() and points.Points().to_dict() == {"win": 3, "draw": 1, "loss": 0}
    assert points.default(pips.RANKED_KEY) == BY_PLACE  # one point per player finished ahead of
    assert points.default("nope") is None and not points.ranked("nope") and points.ranked(pips.RANKED_KEY)
    assert points.of_event(pips.RANKED_KEY, None) == BY_PLACE
    assert points.of_event("bfe", {"win": 2, "draw": 1, "loss": 0}) == points.Points(2, 1, 0)
    assert points.of_event(pips.RANKED_KEY, BY_PLACE.to_dict()) == BY_PLACE  # as stored, read back


def test_tied_seats_share_the_points_of_the_places_they_cover():
    seat = Seat  # player, faction, won, rank
    # 4 players, two tied for first: (3 + 2) / 2 each; then third 1, fourth 0
    assert BY_PLACE.of([seat("A", "x", False, 1), seat("B", "x", False, 1), seat("C", "x", False, 3),
                        seat("D", "x", False, 4)]) == {"A": F(5, 2), "B": F(5, 2), "C": 1, "D": 0}
    # three tied for second at 4: (2 + 1 + 0) / 3 = 1 each, a whole number given as one
    shared = BY_PLACE.of([seat("A", "x", True, 1), seat("B", "x", False, 2), seat("C", "x", False, 2),
                          seat("D", "x", False, 2)])
    assert shared == {"A": 3, "B": 1, "C": 1, "D": 1} and all(type(v) is int for v in shared.values())
    # an organiser's places that do not divide evenly: (5 + 2) / 2 = 7/2
    own = points.Points(by_rank={3: (5, 2, 0)})
    assert own.of([seat("A", "x", False, 1), seat("B", "x", False, 1), seat("C", "x", False, 3)])["A"] == F(7, 2)
    # a game with one winner: win, draw and loss, whatever the ranks say
    assert points.Points(2, 1, 0).of([seat("A", "x", True, 1), seat("B", "x", False, 2),
                                      seat("C", "x", False, 2)]) == {"A": 2, "B": 0, "C": 0}
    assert points.Points(2, 1, 0).of([seat("A", "x", False, 1), seat("B", "x", False, 1)]) == {"A": 1, "B": 1}


def test_the_most_a_match_gives_and_the_points_in_words():
    assert (BY_PLACE.most(2), BY_PLACE.most(3), BY_PLACE.most(4)) == (1, 2, 3)
    assert points.Points(2, 1, 0).most(3) == 2
    assert points.Points(by_rank={3: (5, 2, 0)}).places(5) == (4, 3, 2, 1, 0)  # a size it lacks: the default
    assert points.Points().words() == "win 3, draw 1, loss 0"
    assert BY_PLACE.words().startswith("by place — 2 players: 1, 0; 3 players: 2, 1, 0; 4 players: 3, 2, 1, 0")


def test_ranked_standings_count_places_and_the_match_win_over_the_most_each_table_gave():
    # R1 at four: A 1st, B and C tied 2nd, D 4th -> A 3, B 1.5, C 1.5, D 0
    # R2 at three: D 1st, A 2nd, B 3rd -> D 2, A 1, B 0;  R2 C sits alone at two with E: E 1st -> E 1, C 0
    table_ = standings([table(1, ("A", 1), ("B", 2), ("C", 2), ("D", 4)),
                        table(2, ("D", 1), ("A", 2), ("B", 3)),
                        table(2, ("E", 1), ("C", 2))], BY_PLACE)
    rows = {r.player: r for r in table_.rows}
    assert {p: r.points for p, r in rows.items()} == {"A": 4, "B": F(3, 2), "C": F(3, 2), "D": 2, "E": 1}
    assert [r.player for r in table_.rows][:2] == ["A", "D"] and table_.points == BY_PLACE
    # the most: A 3 + 2 = 5 -> 4/5; C 3 + 1 = 4 -> 3/8, above the floor; E 1 -> 1/1
    assert (rows["A"].match_win, rows["C"].match_win, rows["E"].match_win) == (F(4, 5), F(3, 8), F(1))
    # B: 1.5 / 5 = 3/10, raised to the floor 1/3
    assert rows["B"].match_win == F(1, 3)
    # every other player at the table is an opponent; W-D-L by place: first alone a win
    assert sorted(rows["A"].opponents) == ["B", "B", "C", "D", "D"]
    assert (rows["A"].wins, rows["A"].losses, rows["B"].losses) == (1, 1, 2)
    assert rows["B"].as_dict()["points"] == 1.5 and rows["A"].as_dict()["points"] == 4
    # C's OMW: mean of A 4/5, B 1/3, D 2/5 (2 of 3 + 2 = 5) and E 1 = (12 + 5 + 6 + 15) / 60 = 19/30
    assert rows["C"].opponents_match_win == F(19, 30)


def test_first_place_shared_is_a_draw_for_those_sharing_it():
    rows = {r.player: r for r in standings([table(1, ("A", 1), ("B", 1), ("C", 3))], BY_PLACE).rows}
    assert [(rows[p].wins, rows[p].draws, rows[p].losses) for p in "ABC"] == [(0, 1, 0), (0, 1, 0), (0, 0, 1)]
    assert (rows["A"].points, rows["C"].points) == (F(3, 2), 0)


def test_ranked_standings_total_and_average_each_players_score_over_the_games_that_count():
    # R1 at three, uploaded twice (counted once): A 1st 50, B 2nd 40, C 2nd 40 -> A 50, B 40, C 40
    # R2 at two: B 1st 61, A 2nd 30 -> A 80 over 2 games (40), B 101 over 2 (50.5)
    # R2 at two with no scores kept: C 1st, D 2nd -> C stays 40 over 1 game; D none
    table_ = standings([table(1, ("A", 1, 50), ("B", 2, 40), ("C", 2, 40), uploads=2),
                        table(2, ("B", 1, 61), ("A", 2, 30)),
                        table(2, ("C", 1), ("D", 2))], BY_PLACE)
    assert table_.scored
    rows = {r.player: r.as_dict(scored=True) for r in table_.rows}
    assert {p: (r["total_score"], r["mean_score"]) for p, r in rows.items()} == {
        "A": (80, 40.0), "B": (101, 50.5), "C": (40, 40.0), "D": (None, None)}
    # after the points and the W-D-L; not there unless asked (a game with one winner)
    assert list(rows["A"])[7:10] == ["points", "total_score", "mean_score"]
    assert "total_score" not in table_.rows[0].as_dict()
    # not a tie-breaker: B and C, level on 1.5 points (½ + 1 each), keep the places they have without scores
    assert rows["B"]["points"] == rows["C"]["points"] == 1.5
    unscored = standings([table(1, ("A", 1), ("B", 2), ("C", 2)), table(2, ("B", 1), ("A", 2)),
                          table(2, ("C", 1), ("D", 2))], BY_PLACE)
    assert [(r.player, r.rank) for r in table_.rows] == [(r.player, r.rank) for r in unscored.rows]
    # a match's places: every seat of the game that counts, best first, with its score
    [first, *_] = [s for s in table_.settled if s.match.round == 2 and "D" not in s.match.players]
    assert [(s.player, s.rank, s.score) for s in first.places()] == [("B", 1, 61), ("A", 2, 30)]


@pytest.mark.parametrize(("game", "value", "path"), [
    ("bfe", {"win": 3, "draw": 1, "loss": 0, "bye": 3}, "/points/bye"),
    ("bfe", {"win": 0, "draw": 0, "loss": 0}, "/points/win"),
    ("bfe", {"win": 3, "draw": 1.5, "loss": 0}, "/points/draw"),
    ("bfe", {"win": 3, "draw": 1, "loss": 1001}, "/points/loss"),
    ("bfe", [3, 1, 0], "/points"),
    (pips.RANKED_KEY, {"by_rank": {"2": [1, 0], "3": [2, 1, 0], "4": [3, 2, 1, 0], "5": [1, 0, 0, 0, 0]}},
     "/points/by_rank/5"),
    (pips.RANKED_KEY, {"by_rank": {"2": [1, 0], "3": [2, 1, 0], "4": [3, 2, 1, 0, 0]}}, "/points/by_rank/4"),
    (pips.RANKED_KEY, {"by_rank": []}, "/points/by_rank"),
])
def test_an_organisers_points_are_refused_naming_the_field(game, value, path):
    got, problems = points.read(value, game)
    assert got is None and problems and problems[0]["path"] == path, problems


def test_an_organisers_points_are_taken_as_given():
    assert points.read({"win": 2, "draw": 2, "loss": 0}, "bfe") == (points.Points(2, 2, 0), [])
    flat = {"by_rank": {"2": [1, 1], "3": [1, 1, 1], "4": [1, 1, 1, 1]}}  # everyone equal: allowed
    assert points.read(flat, pips.RANKED_KEY)[0].to_dict() == flat


def test_a_ranked_log_claims_every_seats_rank_so_uploads_agree_only_on_one_order():
    """games.claimed_winner of a game decided by ranks: every seat's rank by name (seat order aside)."""
    log = pips.RANKED_RULES.self_play(3, players=3)
    named = {**log, "meta": {"players": ["Ana", "Ben", "Cy"]}}
    ranks = log["result"]["ranks"]
    said = claimed_winner(parse_log(named))
    assert said == "ranks " + ", ".join(f"{n} {r}" for r, n in sorted(zip(ranks, ["Ana", "Ben", "Cy"])))
    other = {**named, "result": pips.RANKED_RULES.misclaimed_result(log["result"])}
    assert claimed_winner(parse_log(other)) != said
    assert claimed_winner(parse_log(log)).startswith("ranks player ")  # no names: seats
