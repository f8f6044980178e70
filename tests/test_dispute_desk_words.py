"""The dispute desk's pure helpers (dashboards.dispute_desk): where two or three logs' decisions
first part, the claims and boards in words, and which claim the rules support."""

from __future__ import annotations

from dashboards.dispute_desk import (
    Claim,
    Difference,
    difference_words,
    first_difference,
    might_words,
    support_words,
    tally,
)

A = ["P1 keep Horse Archers", "P2 keep Soul of the Living", "P1 deploy Horse Archers to B1", "P2 pass"]


def test_identical_logs_have_no_difference():
    diff = first_difference([A, list(A)])
    assert diff == Difference(None, [], [4, 4])
    assert difference_words(diff, ["game 1", "game 2"]) == (
        "The decisions of the 2 logs are identical (4 decisions): they differ only in their setup, details or "
        "the result they claim.")


def test_logs_that_differ_at_the_first_decision():
    other = ["P1 keep Cataphracts", *A[1:]]
    diff = first_difference([A, other])
    assert diff.number == 1 and diff.lines == ["P1 keep Horse Archers", "P1 keep Cataphracts"]
    assert diff.stopped == []
    assert difference_words(diff, ["game 1", "game 2"]).endswith("first differ at decision 1.")


def test_logs_that_differ_later_are_numbered_from_one():
    other = A[:2] + ["P1 deploy Horse Archers to B3", "P2 pass"]
    diff = first_difference([A, other])
    assert diff.number == 3
    assert diff.lines == ["P1 deploy Horse Archers to B1", "P1 deploy Horse Archers to B3"]
    assert difference_words(diff, ["game 7", "game 9"]) == (
        "The logs are identical up to decision 2 and first differ at decision 3.")


def test_one_log_a_prefix_of_the_other():
    diff = first_difference([A, A[:3]])
    assert diff.number == 4 and diff.lines == ["P2 pass", None] and diff.stopped == [1]
    assert difference_words(diff, ["game 12", "game 13"]) == (
        "The logs are identical up to decision 3, then the log of game 13 stops; the longest goes on to "
        "decision 4.")
    # the same the other way round
    assert first_difference([A[:3], A]).stopped == [0]


def test_three_uploads_part_where_any_of_them_does():
    two_agree = A[:2] + ["P1 pass"]
    diff = first_difference([A, list(A), two_agree])
    assert diff.number == 3
    assert diff.lines == [A[2], A[2], "P1 pass"]
    # the third one agrees with the first two up to where the second stops
    diff = first_difference([A, A[:2], A])
    assert diff.number == 3 and diff.stopped == [1]
    assert "the log of game 2 stops" in difference_words(diff, ["game 1", "game 2", "game 3"])


def test_might_in_words_puts_the_winner_first():
    might = [[12, 4, 9], [9, 13, 8]]
    bfs = ["The Throne", "The Oasis", "River"]
    assert might_words(["Ada", "Bo"], bfs, might, 1) == "2–1: B1 The Throne 12–9, B2 The Oasis 4–13, B3 River 9–8"
    assert might_words(["Ada", "Bo"], bfs, might, 2) == "1–2: B1 The Throne 9–12, B2 The Oasis 13–4, B3 River 8–9"
    # no winner: whose number is whose is said
    assert might_words(["Ada", "Bo"], bfs, might, None).startswith("2–1 (Ada–Bo): B1 ")
    # no one took two battlefields alone: total might decided, and it is said
    assert might_words(["Ana", "Bo"], bfs, [[0, 3, 8], [0, 5, 3]], 1) == \
        "1–1, total might 11–8: B1 The Throne 0–0, B2 The Oasis 3–5, B3 River 8–3"
    assert might_words(["Ana", "Bo"], bfs, [[5, 4, 9], [5, 4, 9]], None) == \
        "0–0, total might 18–18 (Ana–Bo): B1 The Throne 5–5, B2 The Oasis 4–4, B3 River 9–9"


def test_tally_names_who_takes_each_battlefield():
    t = tally(["The Throne", "The Oasis", "Gate"], [[12, 4, 8], [9, 13, 8]])
    assert t.rows == [("B1 The Throne", [12, 9], 1), ("B2 The Oasis", [4, 13], 2), ("B3 Gate", [8, 8], None)]
    assert tally([], []).rows == []


def test_the_rules_support_the_valid_upload_and_say_why_not_the_other():
    claims = [Claim(12, "valid", "Ada wins 2–1: B1 The Throne 12–9", "Ada wins", "Ada wins"),
              Claim(13, "mismatch", "the log claims Bo (P2) won, but …", "Bo wins", "Ada wins")]
    assert support_words(claims) == [
        "The rules support game 12 (valid: Ada wins 2–1: B1 The Throne 12–9).",
        "Game 13 is a mismatch: it claims Bo wins but the decisions give Ada the win."]


def test_support_with_two_valid_games_of_different_results_and_none_valid():
    diff = Difference(5, ["P1 pass", "P1 deploy X to B1"], [60, 61])
    claims = [Claim(3, "valid", "Ada wins …", "Ada wins", "Ada wins"),
              Claim(4, "valid", "Bo wins …", "Bo wins", "Bo wins")]
    [head] = support_words(claims, diff)
    assert head.startswith("The rules support games 3 and 4: each is a legal game")
    assert "(they first differ at decision 5)" in head and "ask the players" in head
    illegal = [Claim(5, "illegal", "decision 9 is not allowed: no card there", "Ada wins", None),
               Claim(6, "malformed", "/decisions: expected a list", "unreadable", None),
               Claim(7, None, None, "Bo wins", None),
              Claim(8, "error", "KeyError: 'x'", "Bo wins", None)]
    assert support_words(illegal) == [
        "The rules support none of the uploads: no log is a legal game whose claims are true.",
        "Game 5 is illegal: decision 9 is not allowed: no card there",
        "Game 6 is not a log the engine can read: /decisions: expected a list",
        "Game 7 is not replayed yet: its verdict will follow.",
        "The engine failed on game 8 (a fault of the service, not of the log): KeyError: 'x'"]
    agreeing = [Claim(8, "valid", "Ada wins …", "Ada wins", "Ada wins"),
                Claim(9, "valid", "Ada wins …", "Ada wins", "Ada wins")]
    assert support_words(agreeing) == ["The rules support games 8 and 9: each is valid and each claims Ada wins."]
