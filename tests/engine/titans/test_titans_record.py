"""The record of a Titans game (engine/titans/record.py): what the statistics count, checked against
the log's own lines and the game as it stands at the end."""

from __future__ import annotations

from collections import Counter

import pytest
from titans_helpers import log

from engine.log import parse_log
from engine.replay import VerdictStatus, replay
from engine.rng import SplitMix64
from engine.titans.bots import MIXED_ONE_IN, choose_random, self_play_setup
from engine.titans.catalog import load
from engine.titans.lines import format_line
from engine.titans.logformat import dump_setup, squad_of
from engine.titans.rules import RULES


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_the_record_says_what_the_game_and_its_lines_say(seed):
    lg = RULES.self_play(seed, bot="greedy")
    result = replay(lg, keep_game=True)
    rec, g = result.record, result.game
    assert f"P{rec.first_to_act}" == lg["decisions"][0].split()[0]  # the first line is round 1's first titan's
    assert (rec.winner, rec.end, rec.rounds) == (lg["result"]["winner"], lg["result"]["reason"], g.round)
    squads = lg["setup"]["squads"]
    assert rec.species == [q["species"] for q in squads] and rec.allies == [q.get("ally") for q in squads]
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
    # catalog 2: the Harpies' Shrill (12) is above every dragon (Ashmaw 9); catalog 1: both best are 8
    for catalog, seat in (("2", 2), ("1", None)):
        assert replay(RULES.self_play(3, factions=["dragon", "harpy"], catalog=catalog)).record.top_initiative_seat \
            == seat, catalog


def test_self_play_seats_a_mixed_squad_in_one_game_in_four_drawn_from_the_seed():
    """docs/titans.md, "Simulated games": one seat of one game in MIXED_ONE_IN keeps 3 titans of the
    species asked for and takes an ally's titan; which games, seats, titans and allies comes from the
    seed; the factions asked for stay each seat's species."""
    cat = load()
    asked = ["dragon", "harpy"]
    setups = {seed: self_play_setup(cat, seed, 2, asked) for seed in range(2000)}
    mixed = {seed: s for seed, s in setups.items() if any(q.ally for q in s.squads)}
    assert abs(len(mixed) / len(setups) - 1 / MIXED_ONE_IN) < 0.03
    assert {q.species for s in setups.values() for q in s.squads} == set(asked)
    for seed, s in mixed.items():
        assert [q.species for q in s.squads] == asked and sum(q.ally is not None for q in s.squads) == 1
        for i, q in enumerate(s.squads):
            squad_of(cat, q, i)  # a squad the rules accept: 3 and 1, every titan different
    allies = {(q.species, q.ally) for s in mixed.values() for q in s.squads if q.ally}
    assert all(ally != species for species, ally in allies) and {a for _, a in allies} == set(cat.species)
    assert self_play_setup(cat, 41, 2, asked) == self_play_setup(cat, 41, 2, asked)
    drawn = self_play_setup(cat, 9, 2)
    assert len(drawn.squads) == 2 and all(q.species in cat.species for q in drawn.squads)

    seed = next(iter(mixed))
    lg = RULES.self_play(seed, bot="greedy", factions=asked, meta={"event": "Mixed Cup"})
    assert lg["meta"] == {"event": "Mixed Cup"} and lg["setup"] == dump_setup(mixed[seed])
    result = replay(lg)
    assert result.verdict.status is VerdictStatus.VALID
    assert RULES.factions(parse_log(lg)) == asked and True in result.record.mixed
