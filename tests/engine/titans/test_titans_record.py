"""The record of a Titans game (engine/titans/record.py): what the statistics count, checked against
the log's own lines and the game as it stands at the end."""

from __future__ import annotations

from collections import Counter

import pytest
from titans_helpers import log

from engine.log import parse_log
from engine.replay import replay
from engine.rng import SplitMix64
from engine.titans.bots import choose_random
from engine.titans.lines import format_line
from engine.titans.rules import RULES


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_the_record_says_what_the_game_and_its_lines_say(seed):
    lg = RULES.self_play(seed, bot="greedy")
    result = replay(lg, keep_game=True)
    rec, g = result.record, result.game
    assert f"P{rec.first_to_act}" == lg["decisions"][0].split()[0]  # the first line is round 1's first titan's
    assert (rec.winner, rec.end, rec.rounds) == (lg["result"]["winner"], lg["result"]["reason"], g.round)
    assert rec.species == [q["species"] for q in lg["setup"]["squads"]] and rec.allies == [None, None]
    assert [(t.seat, t.titan, t.survived) for t in rec.titans] == [(t.player, t.key, t.alive) for t in g.titans]
    plays = [Counter(), Counter()]
    for line in lg["decisions"]:
        seat, _titan, verb, *args = line.split()
        if verb == "play":
            plays[int(seat[1]) - 1][args[1]] += 1
    assert rec.maneuvers == plays
    top = max(t.card.initiative for t in g.titans)
    assert [t.top_initiative for t in rec.titans] == [t.card.initiative == top for t in g.titans]
    attackers = {tuple(line.split()[:2]) for line in lg["decisions"] if line.split()[2] == "attack"}
    for t, now in zip(rec.titans, g.titans):
        assert t.damage_taken >= (now.damage if now.alive else 0)  # heals only take damage away
        if (f"P{t.seat}", t.titan) in attackers:
            assert t.damage_dealt > 0  # every titan's strength is at least 1
    assert sum(t.damage_dealt for t in rec.titans) <= sum(t.damage_taken for t in rec.titans)


def test_a_mixed_squad_is_recorded_with_its_ally():
    squads = [{"species": "dragon", "ally": "harpy", "titans": ["ashmaw", "cinderwing", "old-vermax", "shrill"]},
              {"species": "phoenix"}]
    g = RULES.new_game(parse_log(log(squads=squads, seed=5)))
    rng, lines = SplitMix64(5), []
    while not g.over:
        d = choose_random(g, rng)
        lines.append(format_line(d))
        g.answer(d)
    rec = replay(log(squads=squads, seed=5, decisions=lines)).record
    assert rec.allies == ["harpy", None] and rec.mixed == [True, False]
    assert [t.species for t in rec.titans[:4]] == ["dragon", "dragon", "dragon", "harpy"]


def test_a_side_alone_at_the_top_of_the_initiative_is_named():
    rec = replay(RULES.self_play(3, bot="greedy", factions=["dragon", "harpy"])).record
    top = {t.seat for t in rec.titans if t.top_initiative}
    assert rec.top_initiative_seat == (top.pop() if len(top) == 1 else None)
