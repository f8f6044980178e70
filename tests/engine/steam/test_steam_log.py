"""Spells & Steam written down (docs/steam.md): every line the doc shows reads and writes back and
the doc shows every verb; chance is one tile a line; the doc's whole short game verifies as it says;
the examples of docs/examples/ verify with `empyrean verify`: the three-player table game with awards
(valid), its twins with a move paid wrongly and a wasteland transfer without the mana (illegal at
that line, naming the rule) and with wrong claimed scores (a mismatch giving each company's score by
part); and what the doc says of a pick written late (at any point until its deadline) and of a
concession (it ends the game)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.games import rules_for
from engine.log import parse_log
from engine.reader import read
from engine.replay import VerdictStatus, replay
from engine.steam import lines
from engine.steam.bots import self_play
from engine.steam.game import End
from engine.steam.lines import format_line, parse_line
from engine.steam.logformat import Setup

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "steam.md").read_text(encoding="utf-8")
EXAMPLES = ROOT / "docs" / "examples"
DOC_LINES = sorted({text for row in DOC.splitlines() if row.startswith("| `")  # the first cells of the tables
                    for text in re.findall(r"`((?:C|P\d) [^`]+)`", row.split(" | ")[0])})
SCORES = ("P1 24 (goods 13, demand tiles 4, awards 7), P2 22 (goods 9, demand tiles 6, awards 7), "
          "P3 37 (goods 22, demand tiles 9, awards 6)")


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"steam-{name}.json").read_text(encoding="utf-8"))


def verify(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "services.cli", "verify", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_the_doc_shows_a_line_of_every_verb():
    verbs = {parse_line(text).verb for text in DOC_LINES}
    assert verbs == {v for kind in lines.Kind for v in kind.verbs} | {"concede"}


@pytest.mark.parametrize("text", DOC_LINES)
def test_every_line_the_doc_shows_reads_and_writes_back(text):
    assert format_line(parse_line(text)) == text


@pytest.mark.parametrize("text", ["C first P2", "C awards cache focus", "C market metro icecar",
                                  "C stack engineer orman-kaspar aerlion"])
def test_a_chance_line_of_more_than_one_tile_is_refused_naming_the_one_tile_lines(text):
    with pytest.raises(ValueError) as e:
        parse_line(text)
    assert "'C start P2', 'C award cache', 'C market metro' or 'C stack engineer orman-kaspar' (one tile a " \
        "line)" in str(e.value)


def test_the_docs_whole_short_game_verifies_as_the_doc_says():
    block = next(b for b in re.findall(r"```json\n(.*?)```", DOC, re.S) if '"decisions"' in b)
    log = json.loads(block)
    res = replay(log)
    assert res.verdict.status is VerdictStatus.VALID, res.verdict.message
    assert f'"{res.verdict.message}"' in " ".join(DOC.split())  # quoted in the doc as the verdict says it
    assert "P1 hires later" in log["decisions"] and log["decisions"][-1] == "P1 hires feylana-chorgitz"


def test_the_table_game_in_the_docs_verifies_valid():
    lg = example("table-game")
    assert lg["chance"] == {"type": "recorded"} and lg["setup"] == {"players": 3, "map": "A", "variants": ["awards"]}
    assert lg["meta"]["players"] == ["Ada", "Bram", "Cyd"] and lg["meta"]["event"] and lg["meta"]["date"]
    written = [parse_line(text) for text in lg["decisions"]]
    chance = [d for d in written if d.actor == 0]
    assert [format_line(d) for d in chance[:3]] == ["C start P2", "C award branch-office", "C award cosmopolitan"]
    assert [d.verb for d in chance[3:9]] == ["market"] * 6 and all(len(d.args) == 1 for d in chance[1:])
    assert {d.verb for d in chance} == {"start", "award", "market"} and sum(d.verb == "market" for d in chance) > 6
    res = replay(lg)
    assert res.verdict.status is VerdictStatus.VALID, res.verdict.message
    assert res.outcome.how == End.DEMAND and [s.rank for s in res.outcome.seats] == lg["result"]["ranks"]
    assert [s.score for s in res.outcome.seats] == lg["result"]["scores"] and lg["result"]["reason"] == "demand"
    r = verify("docs/examples/steam-table-game.json")
    assert r.returncode == 0 and f"VALID: Cyd wins (a company's demand tiles) after 33 round(s); ranks [2, 3, 1]; " \
        f"{SCORES} [Empyreal: Spells & Steam]" in r.stdout, r.stdout + r.stderr


def test_the_table_game_leaves_forced_answers_out_and_writes_a_pick_late():
    lg = example("table-game")
    rules = rules_for("steam")
    g = rules.new_game(parse_log(lg))
    reading = read(g, [parse_line(text) for text in lg["decisions"]], rules)
    assert reading.failure is None and not reading.written_forced and g.auto  # the engine took them itself
    i = lg["decisions"].index("P1 hires later")
    late = lg["decisions"].index("P1 hires doc-silnan")
    assert lg["decisions"][i - 1] == "P1 gains surveyor"
    assert late > i + 1 and {parse_line(t).actor for t in lg["decisions"][i + 1:late]} == {2}  # P2's turn between


def twin(name: str) -> tuple[dict, int]:
    """An example that is the table game with one line written otherwise, and that line's index."""
    lg, good = example(name), example("table-game")["decisions"]
    differ = [k for k, (a, b) in enumerate(zip(lg["decisions"], good)) if a != b]
    assert len(lg["decisions"]) == len(good) and len(differ) == 1, differ
    return lg, differ[0]


def test_the_move_paid_wrongly_is_illegal_at_that_line_naming_the_ladder():
    lg, i = twin("illegal-move")
    v = replay(lg).verdict
    assert v.status is VerdictStatus.ILLEGAL and v.index == i and lg["decisions"][i] == "P2 moves 4"
    assert v.rule == ("moving the conductor 4 spaces costs 6 mana and P2 has 5 (rule 'Move Conductor': 1 space "
                      "free, 2 for 1, 3 for 3, 4 for 6)")
    r = verify("--explain", "docs/examples/steam-illegal-move.json")
    assert r.returncode == 1 and f"ILLEGAL at decision {i + 1} (round 1, specialists phase, P2) 'P2 moves 4'" \
        in r.stdout
    assert "board at that point:" in r.stdout and "legal decisions there: P2 uses rayleigh-kerigan; " \
        "P2 administrates; P2 moves 1; P2 moves 2; P2 moves 3\n" in r.stdout


def test_a_wasteland_transfer_without_the_mana_is_illegal_at_that_line_naming_the_transfer_rule():
    lg, i = twin("illegal-transfer")
    assert lg["decisions"][i] == "P3 builds i10 via h10"
    g = rules_for("steam").new_game(parse_log(lg))
    assert g.terrain[g.map.index("h10")] == "wasteland"  # printed on the map, not placed in the game
    v = replay(lg).verdict
    assert v.status is VerdictStatus.ILLEGAL and v.index == i
    assert v.rule == "the transfers over h10 cost 4 mana and P3 has 1 (rule 'Transfers': a city 3, a competitor 2, " \
                     "a wasteland 4)"
    r = verify("--explain", "docs/examples/steam-illegal-transfer.json")
    assert r.returncode == 1 and f"ILLEGAL at decision {i + 1} (round 9, build phase, P3)" in r.stdout
    legal = next(t for t in r.stdout.splitlines() if "legal decisions there:" in t)
    assert legal.startswith("  legal decisions there: P3 builds d7; P3 builds h7;") and legal.endswith("P3 skips")
    assert "i10" not in legal


def test_wrong_claimed_scores_are_a_mismatch_giving_each_companys_score_by_part():
    lg = example("wrong-scores")
    good = example("table-game")
    assert lg["decisions"] == good["decisions"] and lg["result"]["ranks"] == good["result"]["ranks"]
    v = replay(lg).verdict
    assert v.status is VerdictStatus.MISMATCH and [e["path"] for e in v.errors] == ["/result/scores"]
    assert v.errors[0]["message"] == f"the log claims the scores [24, 24, 37], but by the rules they are: {SCORES}"
    r = verify("docs/examples/steam-wrong-scores.json")
    assert r.returncode == 1 and "MISMATCH: /result/scores: the log claims the scores [24, 24, 37]" in r.stdout


def test_a_pick_put_off_is_read_at_any_point_until_its_deadline_the_choosers_own_points_too():
    """A self-played game where P1 puts a pick off mid-turn and goes on activating: the pick reads at
    each point from there to the start of P1's next turn."""
    # the first seeded game where P1 puts a pick off and goes on activating (the bots decide where)
    lg, d, i = next((lg, d, d.index("P1 hires later")) for seed in range(1, 200)
                    for lg in [self_play(seed, players=2, setup=Setup(2, "A", ()))] for d in [lg["decisions"]]
                    if "P1 hires later" in d and d[d.index("P1 hires later") + 1].startswith("P1 activates"))
    pick = next(t for t in d[i + 1:] if t.startswith("P1 hires "))
    j = d.index(pick)
    assert d[i + 1].startswith("P1 activates") and {parse_line(t).actor for t in d[i + 1:j]} == {1, 2}
    rest = d[:j] + d[j + 1:]
    for k in range(i + 1, j + 1):
        res = replay({**lg, "decisions": rest[:k] + [pick] + rest[k:]})
        assert res.verdict.status is VerdictStatus.VALID, (k, res.verdict.message)
    again = replay({**lg, "decisions": d[:i + 1] + ["P1 hires later"] + d[i + 1:]})
    assert again.verdict.status is VerdictStatus.VALID  # said again while the stack is held: nothing changes
    none = replay({**lg, "decisions": d[:i + 1] + ["P2 hires later"] + d[i + 1:]}).verdict
    assert none.status is VerdictStatus.ILLEGAL and none.index == i + 1
    assert none.rule == "P2 holds no specialist stack to put off a pick from"


def test_a_concession_ends_the_game_the_company_ranked_last_and_the_others_by_score():
    """Cyd concedes in the middle of her turn in round 18: she is last, though her 13 points tie Ada's
    (she scores no award, having left), and Bram wins on his 17; no line may follow."""
    lg = example("table-game")
    cut = lg["decisions"][:300] + ["P3 concede"]
    res = replay({**lg, "decisions": cut, "result": {"ranks": [2, 1, 3], "reason": "concession"}})
    assert res.verdict.status is VerdictStatus.VALID, res.verdict.message
    assert res.verdict.message == ("Bram wins (a concession) after 18 round(s); ranks [2, 1, 3]; P1 13 (goods 3, "
                                   "demand tiles 0, awards 10), P2 17 (goods 4, demand tiles 3, awards 10), P3 13 "
                                   "(goods 9, demand tiles 4, awards 0)")
    assert res.outcome.how == End.CONCESSION
    after = replay({**lg, "decisions": cut + [lg["decisions"][300]]}).verdict
    assert after.status is VerdictStatus.ILLEGAL and after.index == 301
    assert after.rule == "the game is over: P3 conceded"
