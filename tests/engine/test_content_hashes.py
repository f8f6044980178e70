"""Every stored log keeps its content hash now that logs name their game (issue 27): a log without
"game" is Battle for Empyrean, and a Battle for Empyrean log is written without it.

The hashes below were computed by the engine before games had keys (commit 6bef816); a change to
the canonical form of a Battle for Empyrean log would change them, and every stored game's
de-duplication key with it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.bfe.selfplay import self_play
from engine.log import canonical_hash, dump_log, parse_log, to_json
from engine.seats import as_recorded, seat_view

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
HASHES_BEFORE_GAME_KEYS = {
    "illegal-deploy.json": "419df9294fe6290cbbbda29e64b792ff3109694146843d8bb48a2bf098165b45",
    "recorded-chance-game.json": "91e86d3f33e14ff16840f4913574a571afd665f0455aba66322f211b9a0b1ec4",
    "seat-view-game.json": "783152035dec96ca519a5112a4a26c739bbc48ab3fb067b55408d3101be9d13c",
    "valid-game.json": "b15748387e73b3bd6c3e71a11b1754a37455876dde37d0855a11d98f62b99b32",
    "wrong-claimed-winner.json": "4c6f81f763e15525836940342b9ec8dd15c6359d709110e68018c227b3ec7470",
}


@pytest.mark.parametrize("name", sorted(HASHES_BEFORE_GAME_KEYS))
def test_an_example_keeps_its_hash_with_or_without_naming_its_game(name):
    raw = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    assert "game" not in raw
    assert canonical_hash(parse_log(raw)) == HASHES_BEFORE_GAME_KEYS[name]
    named = parse_log({**raw, "game": "bfe"})
    assert named.game == "bfe" and canonical_hash(named) == HASHES_BEFORE_GAME_KEYS[name]


def test_a_battle_for_empyrean_log_is_written_without_its_game():
    log = parse_log({**self_play(5), "game": "bfe"})
    assert "game" not in dump_log(log) and '"game"' not in to_json(log)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_log_and_its_table_forms_hash_alike_whether_they_name_the_game_or_not(seed):
    full = self_play(seed, players=2 + seed % 2)
    for log in (full, as_recorded(full), seat_view(as_recorded(full), 1)):
        assert canonical_hash(parse_log({**log, "game": "bfe"})) == canonical_hash(parse_log(log))
