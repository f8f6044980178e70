"""engine/words.py: a game and its result as people say them at a table."""

from __future__ import annotations

import copy

from engine.bfe.game import battlefield_winners
from engine.bfe.selfplay import self_play
from engine.bfe.words import result_words
from engine.replay import replay
from engine.seats import as_recorded
from engine.timeline import timeline
from engine.words import decision_number, decision_words, game_title, seat_names


def test_a_game_is_named_by_its_round_table_and_players():
    assert game_title({"round": 3, "table": "14", "players": ["Ada", "Bo"]}, 2) == "R3 · T14 · Ada vs Bo"
    assert game_title({"players": ["Ada", "Bo", "Cy"]}, 3) == "Ada vs Bo vs Cy"
    assert game_title({"table": "A7"}, 2) == "TA7 · P1 vs P2"
    # names that do not fit the seats are not used
    assert seat_names({"players": ["Ada"]}, 2) == ["P1", "P2"]


def test_a_battlefield_goes_to_the_strictly_highest_might():
    assert battlefield_winners([[5, 3, 7], [4, 3, 9]], [0, 1]) == [0, None, 1]
    assert battlefield_winners([[5, 3], [4, 3], [5, 1]], [0, 1, 2]) == [None, None]
    assert battlefield_winners([[5, 3], [4, 3], [5, 1]], [1, 2]) == [2, 1]  # only the pool counts


def _finished(log: dict):
    return replay(log, keep_game=True).game


def test_the_result_puts_the_winner_first_with_each_battlefield_and_the_count():
    log = self_play(5, meta={"players": ["Ada", "Bo"]})
    g = _finished(log)
    words = result_words(g, ["Ada", "Bo"])
    w = g.winner - 1
    fields = [f"B{b + 1} {name} {g.final_might[w][b]}–{g.final_might[1 - w][b]}"
              for b, name in enumerate(log["setup"]["battlefields"])]
    won = battlefield_winners(g.final_might, [0, 1])
    count = f"{won.count(w)}–{won.count(1 - w)}"
    assert words == f"{['Ada', 'Bo'][w]} wins {count}: " + ", ".join(fields)


def test_three_players_say_whose_number_is_whose():
    g = _finished(self_play(7, players=3))
    words = result_words(g, ["Ada", "Bo", "Cy"])
    names = ["Ada", "Bo", "Cy"]
    order = [names[g.winner - 1]] + [n for i, n in enumerate(names) if i != g.winner - 1]
    assert words.startswith(f"{order[0]} wins ") and f" ({'–'.join(order)}): B1 " in words


def test_a_concession_says_who_conceded_and_when():
    log = self_play(5)
    log["decisions"] = log["decisions"][:40] + ["P2 concede"]
    del log["result"]
    g = _finished(log)
    assert result_words(g, ["Ada", "Bo"]) == f"Bo conceded in round {g.round}; Ada wins"


def test_a_valid_verdict_is_the_result_in_words_and_a_wrong_claim_says_the_real_one():
    log = self_play(5, meta={"players": ["Ada", "Bo"]})
    g = _finished(log)
    assert replay(log).verdict.message == result_words(g, ["Ada", "Bo"])
    loser = 3 - log["result"]["winner"]
    claimed = {**log, "result": {"winner": loser}}
    [problem] = replay(claimed).verdict.errors
    assert problem["path"] == "/result/winner"
    assert problem["message"] == (f"the log claims {['Ada', 'Bo'][loser - 1]} (P{loser}) won, but by the rules "
                                  + result_words(g, ["Ada", "Bo"]))


# --- one numbering of decisions: counted from 1, as the log's lines are read ---------------------

def test_a_decision_is_named_by_its_line_counted_from_1():
    assert decision_number(0) == 1 and decision_number(29) == 30
    assert decision_words(29) == "decision 30"
    assert decision_words(None) == "the setup"
    # a log that stops early fails one past its last line: that line's number is the index itself
    assert decision_words(62, written=False) == "the end of the log, after decision 62"
    assert decision_words(0, written=False) == "the end of the log, before any decision"


def test_an_illegal_verdict_names_the_decision_by_its_number_and_keeps_the_index():
    log = self_play(5)
    i = next(k for k, d in enumerate(log["decisions"]) if " deploy " in d)
    bad = copy.deepcopy(log)
    bad["decisions"][i] = bad["decisions"][i].split()[0] + " deploy Nothing Such to B1"
    v = replay(bad, record=False).verdict
    assert v.status == "illegal" and v.index == i  # the machine field: 0-based
    assert v.message.startswith(f"decision {i + 1} ({bad['decisions'][i]!r}) in round ")


def test_the_timeline_says_where_each_decision_is_in_the_log_when_the_rules_take_them_in_another_order():
    log = as_recorded(self_play(3))
    d = log["decisions"]
    # two draws of different players in a row, written the other way round: still legal (the
    # opening hands are simultaneous), and the rules take them in their own order
    i = next(k for k in range(len(d) - 1) if d[k].startswith("C draw P1") and d[k + 1].startswith("C draw P2"))
    swapped = copy.deepcopy(log)
    swapped["decisions"][i:i + 2] = [d[i + 1], d[i]]
    tl = timeline(swapped)
    assert tl.verdict.status == "valid"
    assert [tl.frames[k + 1]["line"] for k in range(len(tl.lines))] == tl.lines
    assert tl.lines[i:i + 2] == [i + 1, i] and sorted(tl.lines) == list(range(len(d)))
    assert tl.decisions == [swapped["decisions"][k] for k in tl.lines]


def test_a_concession_during_the_set_up_is_before_round_1():
    log = as_recorded(self_play(5))  # the opening hands are drawn as written lines, in round 0
    log["decisions"] = log["decisions"][:1] + ["P1 concede"]
    del log["result"]
    g = _finished(log)
    assert g.round == 0
    assert result_words(g, ["Ada", "Bo"]) == "Ada conceded before round 1; Bo wins"
    assert replay(log).verdict.message == "P1 conceded before round 1; P2 wins"
