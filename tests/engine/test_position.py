"""engine.position agrees with the engine at every decision point of many self-played games.

Each game is written as a table writes it (engine.seats: every card named, one seat's view, one
player's cards unseen). For every prefix of its log, position() must say "in progress", list the
next logged line among the legal ones, and agree with a reference that steps a plain Game through
the lines by the rules alone (Game.check / answer / take_default, no reader, no replay): the same
point, the same legal answers in the same order, the same forced answers, the same points left out
and the same tally; for logs where every card is seen, the same board as the replay viewer's frame.
The whole log's position is the replay's verdict."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from engine.bfe.catalog import load_catalog
from engine.bfe.decisions import CHANCE, format_decision, parse_decision
from engine.bfe.game import Game, forced_choice
from engine.bfe.selfplay import self_play
from engine.bfe.verdicts import build_game
from engine.log import parse_log
from engine.position import IN_PROGRESS, position
from engine.replay import replay
from engine.seats import as_recorded, hide, seat_view
from engine.timeline import timeline

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))
from mutations import mutated_bytes  # noqa: E402

TWO_PLAYER_SEEDS = range(9100, 9112)
THREE_PLAYER_SEEDS = range(9200, 9206)


@cache
def recorded(seed: int, players: int, bot: str = "random") -> str:
    return json.dumps(as_recorded(self_play(seed, players=players, bot=bot)))


def game_log(seed: int, players: int, form: str) -> dict:
    """The game of ``seed`` written as ``form`` says: "full" (every card named), "seat<n>" (that
    seat's view), "hide<n>" (player n's hidden cards written '?'), "greedy" (greedy bots, full)."""
    if form == "greedy":
        return json.loads(recorded(seed, players, "greedy"))
    log = json.loads(recorded(seed, players))
    if form.startswith("seat"):
        return seat_view(log, int(form[4:]))
    if form.startswith("hide"):
        return hide(log, int(form[4:]))
    return log


def unfinished(log: dict, k: int) -> dict:
    """The log as it stood after its first ``k`` lines (no result claimed yet)."""
    return {**{key: v for key, v in log.items() if key != "result"}, "decisions": log["decisions"][:k]}


@dataclass
class Point:
    """What the reference says of the point after some lines."""

    to_decide: int | str
    kind: str
    prompt: str
    legal: list[str]
    forced: list[str]
    left_out: list[tuple[str, list[str]]] = field(default_factory=list)  # (default, legal) per point left out
    answers_left_out: bool = False  # the next line answers one of the points left out
    tally: dict = field(default_factory=dict)  # round, phase, essence, adjustments, might


def who(player: int) -> int | str:
    return "C" if player == CHANCE else player


def options(g: Game) -> list[str]:
    return [format_decision(d) for d in g.legal_decisions()]


class Reference:
    """A plain Game stepped by the rules: each line is checked at the pending point; a point that
    has a default (what a log may leave out) and that the line does not answer takes its default."""

    def __init__(self, log: dict) -> None:
        self.log = parse_log(log)
        self.lines = [parse_decision(t) for t in self.log.decisions]
        self.g = build_game(self.log)
        self.read = 0  # lines applied
        self.mark = 0  # len(g.auto) when the last line was applied

    def point(self, nxt) -> Point:
        """The point after the lines applied so far (taking what the log leaves out after them),
        as position() must see it; then steps to where line ``nxt`` (None: none) is answered."""
        g = self.g
        left, answers_left_out = [], False
        while g.pending is not None and g.pending.default is not None:
            left.append((format_decision(g.pending.default), options(g)))
            if nxt is not None and g.check(nxt) is None:
                answers_left_out = True  # the next line answers this point: position() goes past it
            g.take_default()
        pend = g.pending
        assert pend is not None, "a prefix of a legal game's log leaves the game waiting for a decision"
        forced = [format_decision(forced_choice(e)) for e in g.auto[self.mark:]]
        tally = {"round": g.round, "phase": g.phase.label, "essence": [ps.essence for ps in g.players],
                 "adjust": [ps.next_adjust for ps in g.players], "might": g.might_table()}
        here = Point(who(pend.player), pend.kind.value, pend.prompt, options(g), forced, left, answers_left_out, tally)
        if answers_left_out:  # step a fresh game to the point the next line answers
            self.g = build_game(self.log)
            for line in self.lines[:self.read]:
                self._apply(line)
            while self.g.check(nxt) is not None:
                self.g.take_default()
        return here

    def _apply(self, line) -> None:
        g = self.g
        while g.check(line) is not None and g.pending is not None and g.pending.default is not None:
            g.take_default()
        self.mark = len(g.auto)
        g.apply(line)

    def step(self) -> None:
        self._apply(self.lines[self.read])
        self.read += 1


FORMS = ([(s, 2, "full") for s in TWO_PLAYER_SEEDS] + [(s, 3, "full") for s in THREE_PLAYER_SEEDS]
         + [(9100, 2, "greedy"), (9201, 3, "greedy")]
         + [(9101, 2, "seat1"), (9102, 2, "seat2"), (9203, 3, "seat3"), (9204, 3, "seat1")]
         + [(9103, 2, "hide2"), (9205, 3, "hide1")])


@pytest.mark.parametrize(("seed", "players", "form"), FORMS)
def test_position_agrees_with_the_engine_at_every_decision_point(seed, players, form):
    log = game_log(seed, players, form)
    lines = log["decisions"]
    frames = timeline(log).frames if form in ("full", "greedy") else None
    ref = Reference(log)
    for k in range(len(lines)):
        pos = position(unfinished(log, k))
        assert pos.status == IN_PROGRESS, (k, pos.verdict and pos.verdict.message)
        assert pos.decisions == k
        want = ref.point(parse_decision(lines[k]))
        assert pos.pending is not None
        got = (pos.pending.to_decide, pos.pending.kind, pos.pending.prompt)
        assert got == (want.to_decide, want.kind, want.prompt), k
        assert pos.legal == want.legal, k
        assert pos.forced == want.forced, k
        assert [(p.default, p.legal) for p in pos.left_out] == want.left_out, k
        if want.answers_left_out:
            assert any(lines[k] in p.legal for p in pos.left_out), k
        else:
            assert lines[k] in pos.legal, (k, lines[k], pos.legal)
        tally = want.tally
        assert [t.essence for t in pos.tallies] == tally["essence"]
        assert [t.next_round_adjustment for t in pos.tallies] == tally["adjust"]
        assert [t.might for t in pos.tallies] == tally["might"]
        assert [t.total for t in pos.tallies] == [sum(row) for row in tally["might"]]
        assert (pos.round, pos.phase) == (tally["round"], tally["phase"])
        if frames is not None and not pos.left_out:
            # the very frame the replay viewer shows after line k (unless the position took a point
            # the log may leave out after it, as a choice that can change nothing: then it is past it)
            assert pos.board == frames[k], k
        ref.step()
    whole = position(log)
    verdict = replay(log, record=False).verdict
    assert whole.status == verdict.status.value == "valid"
    assert whole.verdict is not None and whole.verdict.to_dict() == verdict.to_dict()
    assert whole.legal == [] and whole.pending is None
    assert whole.outcome is not None and whole.outcome.winner == log["result"]["winner"]
    assert whole.outcome.might == log["result"]["might"]
    if frames is not None:
        assert whole.board == frames[-1]
    if form.startswith("seat"):  # other players' draws and keeps were left out and taken as unseen
        assert any(p.left_out for p in (position(unfinished(log, k)) for k in range(0, len(lines), 7)))


@pytest.mark.parametrize(("seed", "players", "form"), [(9109, 2, "full"), (9202, 3, "full"), (9101, 2, "seat1"),
                                                    (9204, 3, "seat1"), (9103, 2, "hide2")])
def test_every_listed_line_is_taken_next(seed, players, form):
    """At a sample of points, each line of ``legal`` (and of ``left_out``), written next, is read:
    the game goes on (or ends) rather than the log turning illegal there."""
    log = game_log(seed, players, form)
    tried = 0
    for k in range(0, len(log["decisions"]), 9):
        pos = position(unfinished(log, k))
        for line in pos.legal + [line for p in pos.left_out for line in p.legal]:
            after = position({**unfinished(log, k), "decisions": log["decisions"][:k] + [line]})
            assert after.status in (IN_PROGRESS, "valid"), (k, line, after.verdict and after.verdict.message)
            tried += 1
    assert tried > 100


@pytest.mark.parametrize(("seed", "players", "form"), [(9101, 2, "seat1"), (9102, 2, "seat2"), (9203, 3, "seat3"),
                                                    (9204, 3, "seat1"), (9100, 2, "full"), (9103, 2, "hide2")])
def test_deploys_before_the_seat_are_named_at_a_face_down_deploy(seed, players, form):
    """In a seat view, at another player's deploy turn with the seat's own deploy turn still to come
    that round, ``deploys_before_seat`` lists the players who deploy from now until the seat, in
    first-player order; anywhere else (the seat's own turn, a player after the seat, a choice, a
    log written with every card or one player's cards hidden) it is empty. Writing the seat's own
    deploy lines at such a point is refused (they come after those players'), and the seat's turn
    follows the last of them."""
    log = game_log(seed, players, form)
    seat = log["chance"].get("view")
    lines = log["decisions"]
    seen = []
    for k in range(len(lines)):
        pos = position(unfinished(log, k))
        d = pos.to_dict()
        assert d["deploys_before_seat"] == pos.deploys_before_seat
        order = [(d["board"]["first_player"] - 1 + i) % players + 1 for i in range(players)]
        deploying = pos.phase == "deploy" and d["kind"] == "deploy or pass"
        if seat is None or not deploying or d["to_decide"] == seat \
                or order.index(d["to_decide"]) > order.index(seat):
            assert pos.deploys_before_seat == [], k
            continue
        want = order[order.index(d["to_decide"]):order.index(seat)]
        assert pos.deploys_before_seat == want, k
        seen.append(want)
        own = next((line for line in lines[k:] if line.startswith(f"P{seat} deploy ")), None)
        if own is not None and pos.round == position(unfinished(log, lines.index(own, k))).round:
            early = position({**unfinished(log, k), "decisions": lines[:k] + [own]})
            assert early.status == "illegal" and early.verdict.index == k
    if seat is None:
        assert not seen
    else:
        assert any(len(w) == 1 for w in seen)
        if players == 3:  # the first player two seats before the seat: both others deploy first
            assert any(len(w) == 2 for w in seen)


def test_a_chance_draw_lists_each_card_the_deck_can_still_give_and_then_the_unseen_one():
    log = game_log(9100, 2, "full")
    first = log["setup"]["first_player"]
    deck = load_catalog(log["catalog"]).decks[log["setup"]["decks"][first - 1]]
    pos = position(unfinished(log, 0))
    assert pos.pending is not None and pos.pending.to_decide == "C"
    assert pos.legal == [f"C draw P{first} {name}" for name in sorted({c.name for c in deck})] + [f"C draw P{first} ?"]
    # once a card is drawn, a name the deck no longer holds is no longer offered
    singles = [name for name in {c.name for c in deck} if sum(c.name == name for c in deck) == 1]
    drawn = next(line for line in log["decisions"] if line.startswith(f"C draw P{first} ")
                 and line.split(" ", 3)[3] in singles)
    k = log["decisions"].index(drawn)
    later = [position(unfinished(log, j)) for j in range(k + 1, len(log["decisions"]))]
    draws = [p for p in later if p.pending is not None and p.pending.to_decide == "C"
             and p.pending.legal[-1] == f"C draw P{first} ?"]
    assert draws and all(drawn not in p.legal for p in draws[:3])


def test_a_seeded_log_never_stops_for_chance():
    log = self_play(9300)
    for k in range(0, len(log["decisions"]), 5):
        pos = position(unfinished(log, k))
        assert pos.status == IN_PROGRESS and pos.pending is not None
        assert pos.pending.to_decide != "C"
        assert log["decisions"][k] in pos.legal


@pytest.mark.parametrize(("players", "k"), [(2, 0), (2, 40), (3, 33)])
def test_every_players_concession_is_listed_and_legal_next_whoever_decides(players, k):
    log = game_log(9104, players, "full")
    pos = position(unfinished(log, k))
    assert pos.status == IN_PROGRESS and pos.concede == [f"P{p} concede" for p in range(1, players + 1)]
    assert pos.to_dict()["concede"] == pos.concede and not set(pos.concede) & set(pos.legal)
    for line in pos.concede:
        after = position({**unfinished(log, k), "decisions": log["decisions"][:k] + [line]})
        assert after.status == "valid" and after.outcome.conceded_by == int(line[1]) and after.concede == []


def test_a_concession_ends_the_game_and_the_position_says_who_won():
    log = game_log(9104, 2, "full")
    conceded = {**unfinished(log, 40), "decisions": log["decisions"][:40] + ["P1 concede"]}
    pos = position(conceded)
    assert pos.status == "valid" and pos.outcome is not None
    assert (pos.outcome.end, pos.outcome.winner, pos.outcome.conceded_by) == ("concession", 2, 1)
    assert pos.to_dict()["outcome"]["end"] == "concession"


def test_time_called_scores_the_board_as_it_stands():
    log = game_log(9105, 2, "full")
    cut = unfinished(log, 60)
    tally = position(cut)
    called = position({**cut, "result": {"reason": "time", "time_rule": "tally",
                                         "winner": _leader(tally.to_dict()["might"])}})
    assert called.status == "valid", called.verdict and called.verdict.message
    assert called.outcome is not None and called.outcome.end == "time"
    drawn = position({**cut, "result": {"reason": "time", "time_rule": "draw", "winner": None}})
    assert drawn.status == "valid" and drawn.outcome is not None and drawn.outcome.winner is None


def _leader(might: list[list[int]]) -> int | None:
    """The tally's winner of a 2-player board (battlefields by might, then total might)."""
    wins = [sum(1 for b in range(len(might[0])) if might[p][b] > might[1 - p][b]) for p in (0, 1)]
    if wins[0] != wins[1] and max(wins) >= 2:
        return 1 if wins[0] > wins[1] else 2
    totals = [sum(row) for row in might]
    return None if totals[0] == totals[1] else 1 + (totals[1] > totals[0])


def test_other_verdicts_are_reported_with_their_details():
    log = game_log(9106, 2, "full")
    illegal = position({**unfinished(log, 30), "decisions": log["decisions"][:30] + ["P2 deploy Nonesuch to B1"]})
    want = replay({**unfinished(log, 30), "decisions": log["decisions"][:30] + ["P2 deploy Nonesuch to B1"]},
                  record=False).verdict
    assert illegal.status == "illegal" and illegal.verdict is not None
    assert illegal.verdict.to_dict() == want.to_dict() and illegal.verdict.index == 30
    assert illegal.legal == [] and illegal.board is not None  # the board where it failed
    mismatch = position({**log, "result": {**log["result"], "winner": 3 - log["result"]["winner"]}})
    assert mismatch.status == "mismatch" and mismatch.verdict.errors[0]["path"] == "/result/winner"
    malformed = position(b'{"format": "empyrean-log"}')
    assert malformed.status == "malformed" and malformed.board is None and malformed.tallies == []
    assert {e["path"] for e in malformed.verdict.errors} >= {"/catalog", "/setup", "/decisions"}
    unknown = position({**unfinished(log, 0), "setup": {**log["setup"], "decks": ["No Such Deck", "Other"]}})
    assert unknown.status == "malformed" and unknown.verdict.errors[0]["path"] == "/setup/decks/0"


@pytest.mark.parametrize("source", [b"", b"\xff\xfe", b"[]", b"nul", "{}", {"format": 7}, 12, None, [1, 2]])
def test_position_never_raises(source):
    pos = position(source)
    assert pos.status == "malformed" and pos.verdict is not None and pos.verdict.message
    json.dumps(pos.to_dict())


def test_a_given_catalog_is_the_one_judged_under():
    log = game_log(9107, 2, "full")
    cut = unfinished(log, 20)
    assert position(cut, catalog=load_catalog(log["catalog"])).to_dict() == position(cut).to_dict()
    other = "2026.1" if log["catalog"] != "2026.1" else "2026.2"
    under_other = position(cut, catalog=load_catalog(other))
    assert under_other.to_dict() != position(cut).to_dict()  # the same lines, judged by other cards


def test_the_json_form_is_complete_and_plain():
    log = game_log(9108, 3, "seat2")
    for k in (0, 12, 50):
        d = position(unfinished(log, k)).to_dict()
        assert json.loads(json.dumps(d)) == d
        assert list(d)[0] == "status" and d["verdict"] is None
        assert len(d["essence"]) == len(d["might"]) == len(d["totals"]) == len(d["players"]) == 3
        assert all(len(row) == 4 for row in d["might"])
        assert d["board"]["to_move"] == (0 if d["to_decide"] == "C" else d["to_decide"])


@settings(max_examples=1_000, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                    HealthCheck.data_too_large])
@given(mutated_bytes())
def test_mutated_logs_give_a_position_and_never_an_engine_error(data):
    pos = position(data)
    assert pos.status in {IN_PROGRESS, "valid", "illegal", "mismatch", "malformed"}, pos.verdict.message
    d = pos.to_dict()
    assert json.loads(json.dumps(d)) == d
    if pos.in_progress:
        assert pos.legal and pos.pending is not None
        assert len(set(pos.legal)) == len(pos.legal)
