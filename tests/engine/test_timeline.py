"""engine.timeline: one board snapshot per decision, the verdict from replay, never an exception."""

from __future__ import annotations

import copy
import json

import pytest

from engine.bfe.bots import RandomBot
from engine.bfe.catalog import load_catalog
from engine.bfe.game import Game
from engine.bfe.selfplay import game_log, self_play
from engine.replay import replay
from engine.rng import SplitMix64
from engine.timeline import timeline

SPECTRES = "Spectres of the Necropolis"
BFS = ["The Fountain of Janus", "River of Rebirth", "The Throne"]


@pytest.fixture(scope="module")
def log():
    # Pinned to the frozen catalog 2026.1, so new content elsewhere never changes this game.
    return self_play(7, catalog="2026.1", meta={"players": ["Ann", "Bo"]})


@pytest.fixture(scope="module")
def tl(log):
    return timeline(log)


def test_a_valid_game_has_one_frame_per_decision_plus_the_setup(log, tl):
    assert tl.verdict.status == "valid"
    assert len(tl.frames) == len(log["decisions"]) + 1
    assert [f["index"] for f in tl.frames] == list(range(len(log["decisions"]) + 1))
    assert tl.frames[0]["decision"] is None
    assert [f["decision"] for f in tl.frames[1:]] == log["decisions"]
    assert tl.failing_frame is None and tl.failure is None


def test_the_last_frame_is_the_final_board_the_verdict_speaks_of(log, tl):
    last = tl.frames[-1]
    final = replay(log, keep_game=True).game.final_might
    assert last["might"] == final == log["result"]["might"]
    winner = log["result"]["winner"] - 1
    for b, name in enumerate(log["setup"]["battlefields"]):  # each battlefield's might, the winner's first
        assert f"B{b + 1} {name} {final[winner][b]}–{final[1 - winner][b]}" in tl.verdict.message
    assert last["over"] and last["to_move"] is None and last["prompt"] is None
    assert last["winner"] == log["result"]["winner"]
    assert last["phase"] == "over" and last["round"] == 10
    # the per-side totals are the same numbers as the table
    for b, bf in enumerate(last["battlefields"]):
        assert [side["might"] for side in bf["sides"]] == [row[b] for row in last["might"]]
        for side in bf["sides"]:
            assert side["might"] == sum(z["might"] for z in side["zones"])


def test_setup_frame_shows_the_opening_hands_and_first_draft(log, tl):
    f0 = tl.frames[0]
    assert f0["round"] == 1 and f0["phase"] == "draft"
    assert [p["essence"] for p in f0["players"]] == [2, 2]  # round + 1
    mover = f0["to_move"]
    assert mover == tl.frames[0]["first_player"] and log["decisions"][0].startswith(f"P{mover} keep ")
    for p in f0["players"]:
        drafting = p["seat"] == mover
        assert len(p["hand"]) == (6 if drafting else 4)  # four dealt, two drawn to draft
        assert len(p["drafting"]) == (2 if drafting else 0)
        assert p["deck_size"] == 24 - len(p["hand"])
        assert p["discard"] == [] and p["destroyed"] == [] and p["stops"] == [0, 0, 0]
    assert f0["prompt"].startswith("keep one of ")
    # after the first keep: one of the two went to the bottom of the deck
    f1 = tl.frames[1]
    kept = log["decisions"][0].split(" keep ", 1)[1]
    p = f1["players"][mover - 1]
    assert len(p["hand"]) == 5 and p["deck_size"] == 19 and p["drafting"] == []
    assert kept in p["hand"]


def test_deploys_appear_face_down_with_their_names_and_reveals_turn_them_up(log, tl):
    i = next(k for k, d in enumerate(log["decisions"]) if " deploy " in d)
    who, rest = log["decisions"][i].split(" deploy ")
    card, bf = rest.rsplit(" to B", 1)
    seat = int(who[1:])
    before, after = tl.frames[i], tl.frames[i + 1]
    side = after["battlefields"][int(bf) - 1]["sides"][seat - 1]
    top = side["zones"][-1]
    assert top["card"] == card and top["face_up"] is False and top["might"] == 0
    assert len(side["zones"]) == len(before["battlefields"][int(bf) - 1]["sides"][seat - 1]["zones"]) + 1
    spent = before["players"][seat - 1]["essence"] - after["players"][seat - 1]["essence"]
    assert spent == top["cost"]
    assert after["players"][seat - 1]["hand"].count(card) == before["players"][seat - 1]["hand"].count(card) - 1
    # by the end every card left on the board has been revealed
    assert all(z["face_up"] for bf in tl.frames[-1]["battlefields"] for s in bf["sides"] for z in s["zones"])


def test_essence_is_refilled_each_round(tl):
    for f in tl.frames:
        for p in f["players"]:
            assert 0 <= p["essence"] <= f["round"] + 1 + 3  # small next-round adjustments allowed
    first_of_round = {}
    for f in tl.frames:
        first_of_round.setdefault(f["round"], f)
    for r in (2, 5, 9):
        assert first_of_round[r]["phase"] in ("draft", "command", "deploy")


def test_static_facts_players_battlefields_and_decisions(log, tl):
    d = tl.to_dict()
    assert [p["name"] for p in d["players"]] == ["Ann", "Bo"]
    assert [p["deck"] for p in d["players"]] == log["setup"]["decks"]
    assert [b["name"] for b in d["battlefields"]] == log["setup"]["battlefields"]
    assert all(b["text"] and b["zones"] >= 1 for b in d["battlefields"])
    assert d["decisions"] == log["decisions"] and d["catalog"] == "2026.1"
    json.dumps(d)  # JSON-ready throughout


def make_illegal(log: dict, rng: SplitMix64) -> dict:
    """The log with one of its deploys (picked by ``rng``) sent to a battlefield the game does not
    have: a decision no point of any game accepts, so replay says illegal at exactly that index."""
    deploys = [i for i, d in enumerate(log["decisions"]) if " deploy " in d]
    i = deploys[rng.below(len(deploys))]
    bad = copy.deepcopy(log)
    bad["decisions"][i] = bad["decisions"][i].rsplit(" to B", 1)[0] + f" to B{len(log['setup']['battlefields']) + 1}"
    return bad


def test_an_illegal_game_fails_at_the_frame_before_the_bad_decision(log):
    bad = make_illegal(log, SplitMix64(3))
    i = next(k for k, (a, b) in enumerate(zip(log["decisions"], bad["decisions"])) if a != b)
    tl = timeline(bad)
    assert tl.verdict.status == "illegal" and tl.verdict.index == i
    assert tl.failing_frame == i and len(tl.frames) == i + 1
    assert tl.frames[i]["index"] == i
    f = tl.failure
    assert f["frame"] == i and f["decision"] == bad["decisions"][i]
    assert f["reason"] == tl.verdict.rule and f["reason"]
    assert f["legal"] and bad["decisions"][i] not in f["legal"]
    # the board at the failing frame is the board of the valid game at that point
    assert tl.frames[i] == timeline(log).frames[i]


def test_a_truncated_log_fails_at_its_last_frame(log):
    short = copy.deepcopy(log)
    del short["decisions"][-5:]
    del short["result"]
    tl = timeline(short)
    n = len(short["decisions"])
    assert tl.verdict.status == "illegal" and tl.failing_frame == n == len(tl.frames) - 1
    assert tl.failure["decision"] is None and tl.failure["legal"]


def test_a_seed_contradicting_the_first_player_fails_at_setup(log):
    wrong = copy.deepcopy(log)
    wrong["setup"]["first_player"] = 3 - log["setup"]["first_player"]
    tl = timeline(wrong)
    assert tl.verdict.status == "illegal" and tl.failing_frame == 0 and len(tl.frames) == 1


def test_a_mismatch_keeps_every_frame(log):
    lie = copy.deepcopy(log)
    lie["result"]["winner"] = 3 - log["result"]["winner"]
    tl = timeline(lie)
    assert tl.verdict.status == "mismatch" and len(tl.frames) == len(log["decisions"]) + 1
    assert tl.failing_frame is None


@pytest.mark.parametrize("source", [b"", b"not json", "[]", {"format": "empyrean-log"}, 42, None])
def test_malformed_input_gives_a_malformed_verdict_and_no_frames(source):
    tl = timeline(source)
    assert tl.verdict.status == "malformed" and tl.verdict.errors
    assert tl.frames == [] and tl.failing_frame is None
    json.dumps(tl.to_dict())


def test_an_unknown_deck_is_malformed_with_its_pointer(log):
    odd = copy.deepcopy(log)
    odd["setup"]["decks"][1] = "No Such Deck"
    tl = timeline(odd)
    assert tl.verdict.status == "malformed" and tl.frames == []
    assert tl.verdict.errors[0]["path"] == "/setup/decks/1"


def test_a_recorded_chance_game_names_every_hand_card():
    cat = load_catalog()
    deck = list(cat.decks[SPECTRES])
    g = Game(cat, [deck, deck], [cat.battlefields[b] for b in BFS], first_player=2,
             deck_names=[SPECTRES, SPECTRES])
    bots = {0: RandomBot(5), 1: RandomBot(1), 2: RandomBot(2)}
    while not g.over:
        g.apply(bots[g.pending.player].choose(g))
    log = game_log(g, catalog=cat.version, decks=[SPECTRES, SPECTRES], battlefields=BFS, seed=None)
    tl = timeline(log)
    assert tl.verdict.status == "valid" and len(tl.frames) == len(log["decisions"]) + 1
    # before any draw is stated nobody holds a card; chance is the one to move
    assert tl.frames[0]["to_move"] == 0 and tl.frames[0]["to_move_label"] == "chance"
    # every 'C draw P1 X' puts X in P1's hand
    for i, d in enumerate(log["decisions"]):
        if d.startswith("C draw P"):
            seat, card = int(d[8]), d[10:]
            assert tl.frames[i + 1]["players"][seat - 1]["hand"].count(card) >= 1
    assert tl.frames[-1]["might"] == g.final_might
