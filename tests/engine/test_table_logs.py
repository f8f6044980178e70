"""Logs as people write them at a table: unseen cards ('?'), one seat's view, merging seats,
forced answers written or left out, simultaneous drafts, concessions and time.

Games come from self-play (seeded), rewritten as a table would write them by engine.seats; each
form is checked both ways: accepted when right, refused at the right decision when wrong."""

from __future__ import annotations

import copy
import json
import re
from functools import cache

import pytest
from rules_helpers import Kind, Loc, advance, card, deal, filler, play
from rules_helpers import game as rules_game

from engine.bfe.catalog import load_catalog
from engine.bfe.decisions import parse_decision
from engine.bfe.selfplay import self_play
from engine.log import canonical_hash, parse_log
from engine.replay import replay
from engine.seats import (
    MergeConflict,
    _entries,
    as_recorded,
    hide,
    merge_logs,
    seat_view,
)
from engine.timeline import timeline

CAV, SPE = "Cavalry of the Parthian Empire", "Spectres of the Necropolis"


@cache
def full(seed: int, players: int = 2, decks: tuple[str, ...] | None = None) -> str:
    """A self-played game written with recorded chance, every card named (JSON text)."""
    return json.dumps(as_recorded(self_play(seed, players=players, decks=list(decks) if decks else None)))


def game(seed: int, players: int = 2, decks: tuple[str, ...] | None = None) -> dict:
    return json.loads(full(seed, players, decks))


def verdict(log: dict):
    return replay(log).verdict


def seat_of(line: str) -> int:
    return parse_decision(line).seat


# ------------------------------------------------------------------------------- unseen cards
def test_a_player_whose_draws_and_keeps_nobody_saw_is_still_checked_card_by_card():
    log = game(11, decks=(SPE, CAV))
    blind = hide(log, 2)
    assert blind["chance"] == {"type": "recorded"}
    assert "C draw P2 ?" in blind["decisions"] and "P2 keep ?" in blind["decisions"]
    assert not [d for d in blind["decisions"] if re.match(r"C draw P2 [^?]|P2 keep [^?]", d)]
    # where P2 had nothing to deploy, their pass was forced; not knowing their hand, it is written
    assert blind["decisions"].count("P2 pass") > log["decisions"].count("P2 pass")
    v = verdict(blind)
    assert v.status == "valid", v.message
    assert v.unseen[0] == 0 and v.unseen[1] > 0
    assert f"{v.unseen[1]} of P2's cards were not seen, and every card P2 showed was possible" in v.message
    # P2 then shows a card their deck does not hold: refused at that decision, in words
    i = next(k for k, d in enumerate(blind["decisions"]) if d.startswith("P2 deploy "))
    bad = copy.deepcopy(blind)
    bad["decisions"][i] = re.sub(r"deploy .* to", "deploy Lich to", bad["decisions"][i])
    v = verdict(bad)
    assert v.status == "illegal" and v.index == i
    assert v.rule == f"P2's deck ({CAV}) holds no Lich"


def _deploys_of_every_copy(players=2):
    """(log, seat, card, copies) for a game in which a player deployed every copy of a card that
    never came back to their hand or left for a pile."""
    for seed in range(400):
        log = game(seed, players)
        res = replay(log)
        counts = {}
        for seat in range(1, players + 1):
            for d in load_catalog().decks[log["setup"]["decks"][seat - 1]]:
                counts[(seat, d.name)] = counts.get((seat, d.name), 0) + 1
        shown: dict = {}
        for i, line in enumerate(log["decisions"]):
            d = parse_decision(line)
            if d.verb == "deploy":
                key = (d.actor, d.card)
                shown[key] = shown.get(key, 0) + 1
                stats = res.record.cards[d.actor - 1][d.card]
                if shown[key] == counts[key] > 1 and stats.returns == 0 and stats.destroys == 0:
                    return log, d.actor, d.card, counts[key]
    raise AssertionError("no game deploys every copy of a card")


def test_showing_one_copy_too_many_is_refused_where_it_becomes_impossible():
    log, seat, card, copies = _deploys_of_every_copy()
    view = seat_view(log, 3 - seat)  # the other seat: none of these cards was seen before it was shown
    lines = view["decisions"]
    shown = [k for k, d in enumerate(lines) if d.startswith(f"P{seat} deploy {card} to ")]
    later = next(k for k, d in enumerate(lines) if k > shown[-1] and d.startswith(f"P{seat} deploy "))
    bad = copy.deepcopy(view)
    bad["decisions"][later] = re.sub(r"deploy .* to", f"deploy {card} to", lines[later])
    v = verdict(bad)
    words = {2: "two", 3: "three", 4: "four"}
    nth = {2: "third", 3: "fourth", 4: "fifth"}
    assert v.status == "illegal" and v.index == later, v.message
    assert v.rule == (f"P{seat} revealed a {nth[copies]} {card}; their deck holds {words[copies]}, and "
                      f"{words[copies]} were already seen")


def test_unseen_cards_go_where_a_card_is_hidden_never_where_it_shows_itself():
    log = game(12, decks=(SPE, CAV))
    i = next(k for k, d in enumerate(log["decisions"]) if d.startswith("P1 deploy "))
    bad = copy.deepcopy(log)
    bad["decisions"][i] = re.sub(r"deploy .* to", "deploy ? to", bad["decisions"][i])
    v = verdict(bad)
    assert v.status == "malformed" and v.errors[0]["path"] == f"/decisions/{i}"
    assert "a deploy names the card deployed" in v.errors[0]["message"]
    seeded = self_play(12)
    j = next(k for k, d in enumerate(seeded["decisions"]) if " keep " in d)
    seeded["decisions"][j] = seeded["decisions"][j].split(" keep ")[0] + " keep ?"
    v = verdict(seeded)
    assert v.status == "malformed" and v.errors[0]["path"] == f"/decisions/{j}"
    assert "seeded chance every card is known" in v.errors[0]["message"]


# ------------------------------------------------------------------------------- seat views
@pytest.mark.parametrize("players,seeds", [(2, range(40)), (3, range(12))])
def test_every_seats_view_of_a_legal_game_is_legal_and_the_views_merge_back_into_it(players, seeds):
    for seed in seeds:
        log = game(seed, players)
        views = []
        for seat in range(1, players + 1):
            view = seat_view(log, seat)
            assert view["chance"] == {"type": "recorded", "view": seat}
            others = {d for d in view["decisions"] if d.startswith("C draw") and seat_of(d) != seat}
            assert not others, (seed, seat, others)  # the other players' draws are not written
            v = verdict(view)
            assert v.status == "valid", (seed, seat, v.message)
            views.append(view)
        merged = merge_logs(views)
        assert merged["decisions"] == log["decisions"], seed
        assert verdict(merged).status == "valid"


def test_a_seat_view_in_which_the_opponent_shows_a_card_they_cannot_have_is_illegal_there():
    for seed in range(20):
        log = game(seed)
        for seat in (1, 2):
            view = seat_view(log, seat)
            other = 3 - seat
            deck = log["setup"]["decks"][other - 1]
            foreign = next(c.name for d, cards in load_catalog().decks.items() if d != deck for c in cards
                           if c.name not in {x.name for x in load_catalog().decks[deck]})
            i = next(k for k, d in enumerate(view["decisions"]) if d.startswith(f"P{other} deploy "))
            bad = copy.deepcopy(view)
            bad["decisions"][i] = re.sub(r"deploy .* to", f"deploy {foreign} to", bad["decisions"][i])
            v = verdict(bad)
            assert v.status == "illegal" and v.index == i, (seed, seat, v.message)
            assert v.rule == f"P{other}'s deck ({deck}) holds no {foreign}"


def test_a_seat_view_of_a_seeded_log_and_of_another_seats_view_are_refused_clearly():
    log = game(3)
    with pytest.raises(ValueError, match="P1's view; P2's cannot be made from it"):
        seat_view(seat_view(log, 1), 2)
    with pytest.raises(ValueError, match="no player 3"):
        seat_view(log, 3)
    assert seat_view(self_play(3), 1) == seat_view(log, 1)  # a seeded game: its draws come from the seed
    bad = copy.deepcopy(log)
    bad["chance"]["view"] = 3
    assert verdict(bad).errors[0]["path"] == "/chance/view"
    seeded = self_play(3)
    seeded["chance"]["view"] = 1
    v = verdict(seeded)
    assert v.status == "malformed" and v.errors[0]["path"] == "/chance/view"
    assert "only a log with recorded chance is written from one seat" in v.errors[0]["message"]


# ------------------------------------------------------------------------------- merging
def test_seats_that_disagree_about_something_both_saw_are_not_merged():
    log = game(5)
    a, b = seat_view(log, 1), seat_view(log, 2)
    legal = None  # P1 deploys a card elsewhere in B's log, and B's game stays legal
    for i, line in enumerate(b["decisions"]):
        for to in (1, 2, 3):
            moved = re.sub(r"to B\d$", f"to B{to}", line)
            if line.startswith("P1 deploy ") and moved != line:
                other = copy.deepcopy(b)
                other["decisions"][i] = moved
                if verdict(other).status in ("valid", "mismatch"):
                    legal = other, moved
                    break
        if legal:
            break
    assert legal is not None
    b, moved = legal
    with pytest.raises(MergeConflict) as err:
        merge_logs([a, b], labels=["A.json", "B.json"])
    said = dict(err.value.versions)
    assert said["B.json"] == moved and said["A.json"] != moved and said["A.json"].startswith("P1 deploy ")
    assert err.value.round is not None and f"round {err.value.round}" in str(err.value)
    with pytest.raises(MergeConflict, match="two logs are written from P1's seat"):
        merge_logs([a, a])
    other = seat_view(game(6), 2)
    with pytest.raises(MergeConflict, match="not a seat view of the same game"):
        merge_logs([a, other])


def test_merging_two_of_three_seats_leaves_the_third_players_cards_unseen():
    log = game(2, 3)
    merged = merge_logs([seat_view(log, 1), seat_view(log, 2)])
    assert merged["chance"] == {"type": "recorded"}
    assert "C draw P3 ?" in merged["decisions"] and not any(
        d.startswith(("C draw P1 ?", "C draw P2 ?")) for d in merged["decisions"])
    v = verdict(merged)
    assert v.status == "valid" and v.unseen[0] == v.unseen[1] == 0 and v.unseen[2] > 0


# ------------------------------------------------------------------------------- forced answers
def _every_answer(log: dict) -> list[str]:
    """Every answer of the game, forced ones too, in order (what a scorer who writes everything
    would write)."""
    from engine.bfe.decisions import format_decision
    return [format_decision(e.decision) for e in _entries(parse_log(log))
            if hasattr(e, "how") and e.decision.verb != "first"]


@pytest.mark.parametrize("make", [lambda s: self_play(s), lambda s: game(s), lambda s: self_play(s, players=3)])
def test_writing_every_forced_answer_keeps_a_game_valid(make):
    for seed in range(15):
        log = make(seed)
        written = copy.deepcopy(log)
        written["decisions"] = _every_answer(log)
        assert len(written["decisions"]) > len(log["decisions"])
        a, b = replay(log), replay(written)
        assert b.verdict.status == "valid", (seed, b.verdict.message)
        assert (b.record.winner, b.record.final_might, b.record.rounds) == (
            a.record.winner, a.record.final_might, a.record.rounds)


def test_a_forced_answer_written_wrong_is_refused_naming_the_only_answer():
    log = self_play(4)
    written = _every_answer(log)
    # the round-1 command passes are forced (nothing on the board): write a deploy there instead
    i = next(k for k, d in enumerate(written) if d.endswith(" pass"))
    who = written[i].split()[0]
    bad = copy.deepcopy(log)
    bad["decisions"] = written[:i] + [f"{who} command {who}:B1Z1"] + written[i + 1:]
    v = verdict(bad)
    assert v.status == "illegal" and v.index == i, v.message
    assert v.rule.startswith(f"player {who[1]} had only one legal answer there, '{who} pass'")


def test_a_certain_draw_may_be_written_with_its_card_or_as_unseen():
    log = game(8)
    lines = _every_answer(log)
    certain = [k for k, e in enumerate(e for e in _entries(parse_log(log)) if hasattr(e, "how")
                                       and e.decision.verb != "first")
               if lines[k].startswith("C draw") and e.how == "forced"]
    assert certain, "a deck's last unknown card comes up in every game"
    written = copy.deepcopy(log)
    written["decisions"] = lines
    assert verdict(written).status == "valid"
    unseen = copy.deepcopy(written)
    for k in certain:
        unseen["decisions"][k] = re.sub(r"^(C draw P\d) .*$", r"\1 ?", lines[k])
    assert verdict(unseen).status == "valid"


# ------------------------------------------------------------------------------- simultaneous draft
def _swap_draft_order(lines: list[str]) -> list[str]:
    """Every run of draws and keeps written with its players in the other order."""
    out, i = [], 0
    while i < len(lines):
        j = i
        while j < len(lines) and (lines[j].startswith("C draw ") or " keep " in lines[j]):
            j += 1
        run = lines[i:j]
        out += sorted(run, key=lambda d: -seat_of(d)) if run else [lines[i]]
        i = max(j, i + 1)
    return out


def test_draft_lines_may_come_in_any_player_order_and_the_game_stays_the_same():
    for log in (game(9), self_play(9), game(9, 3)):
        swapped = copy.deepcopy(log)
        swapped["decisions"] = _swap_draft_order(log["decisions"])
        assert swapped["decisions"] != log["decisions"]
        a, b = replay(log), replay(swapped)
        assert b.verdict.status == "valid", b.verdict.message
        assert a.record == b.record
        assert canonical_hash(parse_log(log)) == canonical_hash(parse_log(swapped))
        tl = timeline(swapped)
        assert [f["decision"] for f in tl.frames[1:]] == [f["decision"] for f in timeline(log).frames[1:]]


def test_a_players_own_draft_lines_stay_in_their_order():
    log = game(10)
    lines = log["decisions"]
    i = next(k for k, d in enumerate(lines) if " keep " in d)  # draw, draw, keep: keep before a draw
    bad = copy.deepcopy(log)
    bad["decisions"][i - 1], bad["decisions"][i] = lines[i], lines[i - 1]
    v = verdict(bad)
    assert v.status == "illegal" and v.index == i - 1 and v.decision == lines[i]


# ------------------------------------------------------------------------------- concessions and time
def _cut(log: dict, rnd: int) -> int:
    """The index of the first line written while round ``rnd`` is being played."""
    tl = timeline(log)
    return next(f["line"] for f in tl.frames[1:] if f["round"] == rnd) + 1


def test_a_concession_ends_the_game_where_it_is_written():
    log = game(13)
    i = _cut(log, 6)
    conceded = copy.deepcopy(log)
    conceded["decisions"] = log["decisions"][:i] + ["P2 concede"]
    conceded["result"] = {"winner": 1, "reason": "concession"}
    res = replay(conceded)
    assert res.verdict.status == "valid", res.verdict.message
    assert res.verdict.message.startswith("P2 conceded in round 6; P1 wins")
    assert res.record.end == "concession" and res.record.conceded_by == 2 and res.record.winner == 1
    # any decision after it is illegal
    after = copy.deepcopy(conceded)
    after["decisions"].append(log["decisions"][i])
    v = verdict(after)
    assert v.status == "illegal" and v.index == i + 1 and v.rule == "the game is over: P2 conceded"
    # the claimed might, if given, is the board's at the concession
    might = res.record.final_might
    good = copy.deepcopy(conceded)
    good["result"]["might"] = might
    assert verdict(good).status == "valid"
    wrong = copy.deepcopy(conceded)
    wrong["result"] = {"winner": 2, "reason": "score"}
    v = verdict(wrong)
    assert v.status == "mismatch" and {e["path"] for e in v.errors} == {"/result/winner", "/result/reason"}


def test_a_player_may_concede_when_it_is_not_their_turn_and_checkpoints_after_it_do_not_exist():
    log = as_recorded(self_play(14, checkpoints=True))
    i = _cut(log, 4)
    pending = replay({**log, "decisions": log["decisions"][:i]}).verdict
    assert pending.player != 1  # P1 is not the one to decide there
    conceded = copy.deepcopy(log)
    conceded["decisions"] = log["decisions"][:i] + ["P1 concede"]
    conceded["result"] = {"winner": 2}
    v = verdict(conceded)
    assert v.status == "mismatch"  # the checkpoints of rounds 4-10 were never reached
    assert [e["path"] for e in v.errors] == [f"/checkpoints/{k}" for k in range(3, 10)]
    assert "the game ended in round 4 (P1 conceded in round 4)" in v.errors[0]["message"]
    conceded["checkpoints"] = log["checkpoints"][:3]
    assert verdict(conceded).status == "valid"


def test_a_three_player_concession_is_scored_between_the_other_two_on_the_board():
    log = game(15, 3)
    i = _cut(log, 5)
    conceded = copy.deepcopy(log)
    conceded["decisions"] = log["decisions"][:i] + ["P3 concede"]
    del conceded["result"]
    res = replay(conceded)
    assert res.verdict.status == "valid", res.verdict.message
    might = res.record.final_might
    totals = [sum(might[0]), sum(might[1])]
    wins = [sum(1 for b in range(4) if might[p][b] > might[1 - p][b]) for p in (0, 1)]
    if wins[0] != wins[1] and max(wins) >= 2:
        expected = 1 + wins.index(max(wins))
    else:
        expected = None if totals[0] == totals[1] else 1 + totals.index(max(totals))
    assert res.record.winner == expected and res.record.winner != 3


def test_time_called_scores_the_board_by_the_rule_the_log_names():
    log = game(16)
    i = _cut(log, 7)
    stopped = copy.deepcopy(log)
    stopped["decisions"] = log["decisions"][:i]
    v = verdict(stopped)
    assert v.status == "illegal" and "ends before the game is over" in v.rule
    tallied = copy.deepcopy(stopped)
    tallied["result"] = {"winner": None, "reason": "time", "time_rule": "draw"}
    v = verdict(tallied)
    assert v.status == "valid" and v.message.startswith("time was called in round 7; a draw; the board stood ")
    res = replay({**stopped, "result": {"winner": 1, "reason": "time", "time_rule": "tally"}})
    assert res.record.end == "time"
    assert res.verdict.status in ("valid", "mismatch")
    assert (res.verdict.status == "valid") == (res.record.winner == 1)
    missing = copy.deepcopy(stopped)
    missing["result"] = {"winner": 1, "reason": "time"}
    v = verdict(missing)
    assert v.status == "malformed" and v.errors[0]["path"] == "/result/time_rule"
    assert "time rule" in v.errors[0]["message"]
    played_out = copy.deepcopy(log)
    played_out["result"] = {"winner": log["result"]["winner"], "reason": "time", "time_rule": "tally"}
    v = verdict(played_out)
    assert v.status == "mismatch" and v.errors[0]["path"] == "/result/reason"


def test_a_choice_among_unseen_cards_that_found_nothing_is_written_where_a_line_would_be_misread():
    """P3's card swaps in a Vampire from a hand P1 never saw, and P3 had none; then P3 deploys a
    Fledgling from the discard pile. Without 'P3 choose nothing' the Fledgling line would read as
    the swap, so the seat view writes it."""
    log = game(220, 3)
    for seat in (1, 2):
        view = seat_view(log, seat)
        lines = view["decisions"]
        i = lines.index("P3 choose Fledgling")
        assert lines[i - 1] == "P3 choose nothing", lines[i - 3:i + 2]
        assert verdict(view).status == "valid"
        misread = copy.deepcopy(view)
        del misread["decisions"][i - 1]
        assert verdict(misread).status == "illegal"


F1, F2, F3, F4 = (filler(f"Filler {i}") for i in range(1, 5))


def test_a_card_that_shows_itself_cannot_be_chosen_unseen_and_an_unseen_discard_is_a_quiet_card():
    loud = card("Loud", cost=2, effects=[{"when": "discarded", "do": [{"essence": {"add": 2}}]}])
    quiet = card("Quiet", cost=2)
    shed = card("Shed", ability="instant", effects=[{"when": "reveal", "do": [{"discard": {"count": 1}}]}])
    raiser = card("Raiser", ability="instant", effects=[{"when": "reveal", "do": [{"deploy": {"from": "discard"}}]}])
    g = rules_game([[shed, raiser, loud, quiet, loud, F1], [F2, F3]])
    deal(g, {1: ["Shed", "Raiser"]})
    play(g, "C draw P1 ?", "C draw P1 ?")  # two cards P1's writer did not see: Loud, Quiet or Filler 1
    deal(g, {2: ["Filler 2", "Filler 3"]})
    advance(g, lambda g: g.pending.kind == Kind.DEPLOY and g.pending.player == 1, draws={1: ["?", "?"]})
    g.players[0].essence = 9
    play(g, "P1 deploy Shed to B1", "P1 pass")
    advance(g, lambda g: g.pending.kind == Kind.DISCARD)
    play(g, "P1 choose ?")  # a quiet card: Loud would have shown itself (its essence)
    known = g.hidden[0]
    gone = g.players[0].discard[0]
    assert not known.could_be([gone], "Loud") and known.could_be([gone], "Quiet")
    # a deploy from the discard pile shows the card: '?' is no answer there
    g2 = rules_game([[raiser, quiet, F1, F4], [F2, F3]])
    deal(g2, {1: ["Raiser", "Quiet", "Filler 1", "Filler 4"], 2: ["Filler 2", "Filler 3"]})
    for name in ("Quiet", "Filler 1"):
        c = next(c for c in g2.players[0].hand if c.name == name)
        g2.players[0].hand.remove(c)
        c.loc = Loc.DISCARD
        g2.players[0].discard.append(c)
    play(g2, "P1 deploy Raiser to B1", "P1 pass")
    advance(g2, lambda g: g.pending.kind == Kind.CHOOSE_CARD)
    assert "the card shows itself, so name it" in g2.check(parse_decision("P1 choose ?"))
    assert g2.check(parse_decision("P1 choose Quiet")) is None


def test_a_reading_starts_on_the_game_it_is_given_and_makes_new_ones_only_to_read_again():
    from engine.bfe.verdicts import build_game
    from engine.reader import read_lines

    log = parse_log(self_play(1))
    lines = [parse_decision(t) for t in log.decisions]
    made = []

    def new_game():
        made.append(1)
        return build_game(log)

    first = build_game(log)
    g, r = read_lines(new_game, lines, first=first)
    assert g is first and r.failure is None and made == []
    written = parse_log({**self_play(1), "decisions": _every_answer(self_play(1))})
    g, r = read_lines(lambda: new_game() and build_game(written), [parse_decision(t) for t in written.decisions])
    assert r.failure is None and r.way.forced_first and len(made) == 2  # read as answers first, then again
