"""What the viewer and the recorder draw of an Elysian Battlefields game (engine/elysian/views.py):
the field grows tile by tile while the timeline's layout holds every territory laid; the attack being
resolved and the last set of dice rolled (an attack may end in the decision that made it); hands
counted, never named."""

from __future__ import annotations

import pytest

from engine.elysian.catalog import DEFAULT_VERSION, load
from engine.elysian.rules import RULES
from engine.seats import as_recorded
from engine.timeline import timeline

PLAYER_KEYS = {"seat", "hero", "conquest", "hand", "territories", "kingdom", "out", "upgrades", "items"}


@pytest.fixture(scope="module")
def game():
    log = RULES.self_play(3, bot="greedy", players=3)
    return log, timeline(log).to_dict()


def test_the_field_grows_tile_by_tile_on_a_layout_of_every_territory_laid(game):
    log, tl = game
    tiles = load(DEFAULT_VERSION).tiles
    layout = {h["territory"]: h for h in tl["battlefields"]}
    lays = [d for d in log["decisions"] if d.split()[1] == "lays"]
    assert lays and len(layout) == 3 * len(lays)
    for d in lays:  # "P1 lays 4 at 0,0 1,-1 1,0": 4a, 4b, 4c on those hexes, with the tile's terrains
        tile, hexes = d.split()[2], d.split()[4:]
        for letter, hex_, terrain in zip("abc", hexes, tiles[tile].terrains, strict=True):
            h = layout[tile + letter]
            assert (h["tile"], f"{h['q']},{h['r']}", h["terrain"]) == (tile, hex_, terrain)
    assert tl["frames"][0]["territories"] == []
    for before, after in zip(tl["frames"], tl["frames"][1:]):
        grew = len(after["territories"]) - len(before["territories"])
        assert grew == (3 if after["decision"].split()[1] == "lays" else 0), after["decision"]
        assert {t["territory"] for t in after["territories"]} <= set(layout)


def test_the_attack_being_resolved_and_the_last_dice_rolled(game):
    _, tl = game
    resolving = [f for f in tl["frames"] if f["attack"] and f["attack"]["sets"]]
    assert resolving
    for f in resolving:
        att = f["attack"]
        assert 1 <= len(att["rolled"]) <= 3 and set(att["rolled"]) <= set(range(1, 7))
        assert f["dice"] == {"faces": att["rolled"], "attacker": att["attacker"], "target": att["target"],
                             "set": att["sets"], "ended": att["ended"]}
    ended = [f for f in tl["frames"] if f["attack"] is None and f["dice"]]
    assert ended and all(f["dice"]["ended"] for f in ended)  # shown after its attack, with how it ended
    assert tl["frames"][0]["dice"] is None


def test_a_recorded_game_shows_each_set_of_dice_as_written():
    log = as_recorded(RULES.self_play(5, bot="greedy", players=3))
    tl = timeline(log).to_dict()
    assert tl["verdict"]["status"] == "valid"
    rolled = [f for f in tl["frames"] if f["decision"] and f["decision"].startswith("C dice ")]
    assert rolled
    for f in rolled:
        assert f["dice"]["faces"] == [int(x) for x in f["decision"].split()[2:]]


def test_hands_are_counted_never_named(game):
    log, tl = game
    cards = {c["key"] for c in RULES.catalog_data(log["catalog"])["cards"]}
    for f in tl["frames"]:
        for p in f["players"]:
            assert set(p) == PLAYER_KEYS and isinstance(p["hand"], int)
            assert set(p["upgrades"]) | set(p["items"]) <= cards  # played, face up: public
