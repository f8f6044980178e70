"""docs/examples/ holds real logs referenced by the README; each must keep its verdict.

Regenerate them (after a catalog change) with:  .venv/bin/python tests/engine/test_examples.py
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine.bfe.bots import RandomBot
from engine.bfe.catalog import load_catalog
from engine.bfe.decisions import parse_decision
from engine.bfe.game import Game
from engine.bfe.selfplay import game_log, self_play
from engine.replay import replay
from engine.seats import as_recorded, seat_view

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
EXPECTED = {
    "valid-game.json": "valid",
    "recorded-chance-game.json": "valid",
    "illegal-deploy.json": "illegal",
    "wrong-claimed-winner.json": "mismatch",
    "seat-view-game.json": "valid",
}
META = {"event": "Example Open", "round": 1, "table": 3, "date": "2026-11-14", "players": ["Ana", "Ben"]}


def make_examples() -> dict[str, dict]:
    decks = ["Spectres of the Necropolis", "Cavalry of the Parthian Empire"]
    bfs = ["The Fountain of Janus", "River of Rebirth", "The Throne"]
    valid = self_play(2026, decks=decks, battlefields=bfs, checkpoints=True, meta=META)

    cat = load_catalog()
    g = Game(cat, [list(cat.decks[d]) for d in decks], [cat.battlefields[b] for b in bfs],
             first_player=1, deck_names=decks)
    bots = {0: RandomBot(5), 1: RandomBot(6), 2: RandomBot(7)}
    while not g.over:
        d = bots[g.pending.player].choose(g)
        while d.card == "?":  # the example names every card drawn
            d = bots[g.pending.player].choose(g)
        g.apply(d)
    recorded = game_log(g, catalog=cat.version, decks=decks, battlefields=bfs, seed=None, meta=META)

    # The illegal example: a mid-game deploy of a card the player does not hold.
    illegal = copy.deepcopy(valid)
    i = next(k for k, d in enumerate(illegal["decisions"]) if " deploy " in d and k > 20)
    who = int(illegal["decisions"][i][1])
    probe = Game(cat, [list(cat.decks[d]) for d in decks], [cat.battlefields[b] for b in bfs],
                 seed=valid["chance"]["seed"], deck_names=decks)
    for text in valid["decisions"][:i]:
        probe.apply(parse_decision(text))
    held = {c.name for c in probe.players[who - 1].hand}
    missing = next(c.name for c in cat.decks[decks[who - 1]] if c.name not in held)
    illegal["decisions"][i] = f"P{who} deploy {missing} to B1"
    illegal["meta"] = dict(META, notes=f"decision {i} was changed: player {who} did not hold {missing}")

    wrong = copy.deepcopy(valid)
    winner = wrong["result"]["winner"]
    wrong["result"]["winner"] = 2 if winner == 1 else 1
    wrong["meta"] = dict(META, notes="the claimed winner is the loser")
    # A whole game written from P1's seat (docs/log-format.md, "A whole game from one seat").
    seat = seat_view(as_recorded(self_play(2028, decks=decks, battlefields=bfs, bot="greedy", meta=META)), 1)
    return {"valid-game.json": valid, "recorded-chance-game.json": recorded,
            "illegal-deploy.json": illegal, "wrong-claimed-winner.json": wrong, "seat-view-game.json": seat}


@pytest.mark.parametrize("name,status", sorted(EXPECTED.items()))
def test_example_logs_keep_their_verdicts(name, status):
    v = replay((EXAMPLES / name).read_bytes(), record=False).verdict
    assert v.status == status, (name, v.message)


def test_the_seat_view_example_is_p1s_view_of_a_whole_game_as_the_log_format_page_shows_it():
    log = json.loads((EXAMPLES / "seat-view-game.json").read_text())
    assert log["chance"] == {"type": "recorded", "view": 1}
    assert not any(d.startswith(("C draw P2", "P2 keep")) for d in log["decisions"])
    page = (EXAMPLES.parent / "log-format.md").read_text()
    excerpt = page.split("### A whole game from one seat")[1].split("```json")[1].split("```")[0]
    shown = json.loads("[" + excerpt.strip().rstrip(",") + "]")
    start = log["decisions"].index(shown[0])
    assert log["decisions"][start:start + len(shown)] == shown
    v = replay(log).verdict
    assert v.round == 10 and v.unseen[0] == 0 and v.unseen[1] > 0


if __name__ == "__main__":
    EXAMPLES.mkdir(parents=True, exist_ok=True)
    for name, log in make_examples().items():
        (EXAMPLES / name).write_text(json.dumps(log, indent=1) + "\n")
        print(name, replay(log).verdict.message[:120])
