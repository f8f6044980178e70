"""engine.log: the version-1 game-log format (schema, parse_log, dump_log, canonical form)."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from engine import log as L
from engine.bfe.decisions import Decision, Pos, format_decision
from engine.bfe.logformat import Checkpoint, DeckRef, Result, Setup
from engine.log import (
    Chance,
    GameLog,
    LogFormatError,
    canonical_decisions,
    canonical_hash,
    dump_log,
    parse_log,
    to_json,
)

SPECTRES = "Spectres of the Necropolis"
CAVALRY = "Cavalry of the Parthian Empire"
BFS = ["The Fountain of Janus", "River of Rebirth", "The Throne"]
MASH = ["Soul of the Living"] * 5 + ["Horse Archers"] * 4 + ["Flank Attack"] * 4 + ["Cataphracts"] * 3 + \
    ["Soul of the Powerful"] * 3 + ["Eater of Souls"] * 2 + ["Camel Riders"] * 2 + ["Spahbed"]


def seeded_log() -> dict:
    return {
        "format": "empyrean-log",
        "version": 1,
        "catalog": "2026.1",
        "setup": {"mode": "2p", "decks": [SPECTRES, CAVALRY], "battlefields": list(BFS)},
        "chance": {"type": "seeded", "algorithm": "splitmix64-v1", "seed": 42},
        "decisions": ["P1 keep Soul of the Living", "P2 keep Horse Archers", "P1 keep Eater of Souls",
                      "P2 keep Flank Attack", "P1 deploy Soul of the Living to B2", "P2 pass"],
    }


def recorded_log() -> dict:
    return {
        "format": "empyrean-log",
        "version": 1,
        "catalog": "2026.1",
        "setup": {"mode": "2p", "decks": [SPECTRES, CAVALRY], "battlefields": list(BFS), "first_player": 2},
        "chance": {"type": "recorded"},
        "decisions": ["C draw P1 Soul of the Living", "C draw P2 Horse Archers", "P2 keep Horse Archers",
                      "P1 keep Soul of the Living", "P2 deploy Horse Archers to B1", "P1 choose P2:B1Z1"],
    }


def full_log() -> dict:
    log = seeded_log()
    log["meta"] = {"event": "Spring Open", "round": 3, "table": "A7", "date": "2026-03-14",
                   "players": ["Ada", "Bo"], "notes": "final", "x-stream": {"url": "https://example.org", "t": [1, 2]}}
    log["setup"]["decks"][1] = {"name": "My Parthians", "cards": list(MASH)}
    log["setup"]["first_player"] = 1
    log["checkpoints"] = [{"round": 1, "might": [[0, 3, 0], [2, 0, 0]]}, {"round": 5, "might": [[7, 3, 9], [2, 8, 1]]}]
    log["result"] = {"winner": 1, "might": [[12, 5, 14], [9, 11, 3]]}
    return log


def errors_of(source) -> list[dict]:
    with pytest.raises(LogFormatError) as exc:
        parse_log(source)
    errs = exc.value.errors
    assert errs, "a LogFormatError must list at least one problem"
    for e in errs:
        assert set(e) == {"path", "message"}
        assert isinstance(e["path"], str) and (e["path"] == "" or e["path"].startswith("/"))
        assert isinstance(e["message"], str) and e["message"]
        assert "internal error" not in e["message"], e
    return errs


def paths_of(source) -> list[str]:
    return [e["path"] for e in errors_of(source)]


# --------------------------------------------------------------------------------------------
# Valid logs


def test_schema_is_a_valid_draft_2020_12_schema_with_descriptions_everywhere():
    s = L.schema()
    Draft202012Validator.check_schema(s)

    seen = []

    def walk(node, where):  # every described subschema (not the if/then plumbing) has words
        seen.append(where)
        if "$ref" not in node:
            assert node.get("description") and node.get("title"), f"no title/description at {where}"
        for key in ("properties", "patternProperties", "$defs"):
            for name, sub in node.get(key, {}).items():
                walk(sub, f"{where}/{key}/{name}")
        if "items" in node:
            walk(node["items"], f"{where}/items")
        for i, sub in enumerate(node.get("oneOf", [])):
            walk(sub, f"{where}/oneOf/{i}")

    walk(s, "#")
    assert "#/$defs/deck/oneOf/1/properties/cards/items" in seen


def test_every_whole_number_in_the_schema_has_a_maximum():
    """The fast path relies on it: outside meta, a schema-valid log holds no huge number."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            t = node.get("type")
            if t == "integer" or isinstance(t, list) and "integer" in t:
                assert "maximum" in node or "const" in node, node.get("title")
                found.append(node.get("title"))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(L.schema())
    assert {"seed", "might value", "table", "tournament round"} <= set(found)


def test_minimal_seeded_log_parses():
    log = parse_log(seeded_log())
    assert log.catalog == "2026.1"
    assert log.setup == Setup("2p", 2, (DeckRef(SPECTRES), DeckRef(CAVALRY)), tuple(BFS), None)
    assert log.setup.decks[0].premade
    assert log.chance == Chance("seeded", "splitmix64-v1", 42)
    assert log.decisions[4] == "P1 deploy Soul of the Living to B2"
    assert log.checkpoints == () and log.result is None and dict(log.meta) == {}


def test_minimal_recorded_log_parses():
    log = parse_log(recorded_log())
    assert log.chance == Chance("recorded", None, None)
    assert log.setup.first_player == 2
    assert log.decisions[0] == "C draw P1 Soul of the Living"


def test_full_log_parses_with_meta_mash_up_checkpoints_and_result():
    log = parse_log(full_log())
    assert log.meta["event"] == "Spring Open"
    assert log.meta["players"] == ("Ada", "Bo")
    assert log.meta["x-stream"]["t"] == (1, 2)
    with pytest.raises(TypeError):
        log.meta["event"] = "changed"  # read-only
    assert log.setup.decks[1] == DeckRef("My Parthians", tuple(MASH))
    assert not log.setup.decks[1].premade
    assert log.checkpoints == (Checkpoint(1, ((0, 3, 0), (2, 0, 0))), Checkpoint(5, ((7, 3, 9), (2, 8, 1))))
    assert log.result == Result(1, ((12, 5, 14), (9, 11, 3)))
    assert hash(log) == hash(parse_log(full_log()))
    assert len({log, parse_log(full_log())}) == 1


def test_three_player_log_parses():
    log = seeded_log()
    log["setup"] = {"mode": "3p", "decks": [SPECTRES, CAVALRY, SPECTRES], "battlefields": BFS + ["The Walls"]}
    log["decisions"] += ["P3 keep Eater of Souls", "P1 choose P3:B4Z2", "P3 move P3:B4Z1 to B1"]
    log["checkpoints"] = [{"round": 9, "might": [[1, 2, 3, 4], [0, 0, 0, 0], [5, 5, 5, 5]]}]
    log["result"] = {"winner": 3}
    parsed = parse_log(log)
    assert parsed.setup.players == 3 and parsed.result == Result(3, None)


def test_a_draw_is_a_null_winner():
    log = seeded_log()
    log["result"] = {"winner": None}
    assert parse_log(log).result == Result(None, None)


def test_bytes_text_dict_bytearray_and_byte_order_mark_all_read_alike():
    d = full_log()
    text = json.dumps(d, indent=2, ensure_ascii=False)
    want = parse_log(d)
    assert parse_log(text) == want
    assert parse_log(text.encode("utf-8")) == want
    assert parse_log(bytearray(text.encode("utf-8"))) == want
    assert parse_log(b"\xef\xbb\xbf" + text.encode("utf-8")) == want
    assert parse_log(want) is want


def test_decision_lines_are_normalised_to_their_canonical_text():
    d = seeded_log()
    d["decisions"][1] = "  P2   keep   Horse Archers "
    assert parse_log(d).decisions[1] == "P2 keep Horse Archers"


def test_extension_fields_in_meta_are_kept():
    d = seeded_log()
    d["meta"] = {"x-elo": {"p1": 1500.5, "p2": None}, "x-": True}
    assert dump_log(parse_log(d))["meta"] == d["meta"]


# --------------------------------------------------------------------------------------------
# Round trip and canonical form


def normalised(d: dict) -> dict:
    """What dump_log should give back for an input dict: canonical decision text, no empty
    optional parts."""
    d = copy.deepcopy(d)
    d["decisions"] = [" ".join(x.split()) for x in d["decisions"]]
    for key in ("meta", "checkpoints"):
        if key in d and not d[key]:
            del d[key]
    return d


@pytest.mark.parametrize("make", [seeded_log, recorded_log, full_log])
def test_round_trip_dict_to_log_to_dict_and_back(make):
    d = make()
    log = parse_log(d)
    out = dump_log(log)
    assert out == normalised(d)
    assert parse_log(out) == log
    assert parse_log(to_json(log)) == dataclasses.replace(log, decisions=tuple(canonical_decisions(log.decisions)))


def test_canonical_form_lists_draws_and_keeps_in_a_row_player_by_player():
    """Two writings of one game, the draft written P2 first or P1 first, are the same game."""
    lines = ["C draw P1 A", "C draw P1 B", "C draw P2 C", "C draw P1 D", "P2 keep C", "P1 keep A",
             "P1 deploy A to B1", "P2 keep X", "C draw P2 Y", "P1 keep Z"]
    assert canonical_decisions(lines) == [
        "C draw P1 A", "C draw P1 B", "C draw P1 D", "P1 keep A", "C draw P2 C", "P2 keep C",
        "P1 deploy A to B1", "P1 keep Z", "P2 keep X", "C draw P2 Y"]
    d, e = recorded_log(), recorded_log()
    d["decisions"] = ["P2 keep Horse Archers", "P1 keep Soul of the Living", "P1 pass"]
    e["decisions"] = ["P1 keep Soul of the Living", "P2 keep Horse Archers", "P1 pass"]
    assert canonical_hash(parse_log(d)) == canonical_hash(parse_log(e))
    e["decisions"] = ["P1 keep Soul of the Living", "P1 pass", "P2 keep Horse Archers"]  # not in one run
    assert canonical_hash(parse_log(d)) != canonical_hash(parse_log(e))
    assert parse_log(d).decisions == tuple(d["decisions"])  # the log itself keeps the order written


def test_round_trip_drops_empty_optional_parts():
    d = seeded_log()
    d["meta"] = {}
    d["checkpoints"] = []
    out = dump_log(parse_log(d))
    assert "meta" not in out and "checkpoints" not in out
    assert out == normalised(d)


def test_to_json_is_canonical_and_the_hash_ignores_layout():
    log = parse_log(full_log())
    text = to_json(log)
    assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    shuffled = json.dumps(dict(reversed(list(full_log().items()))), indent=4)
    assert canonical_hash(parse_log(shuffled)) == canonical_hash(log)
    assert canonical_hash(log) == hashlib.sha256(text.encode("utf-8")).hexdigest()
    other = full_log()
    other["decisions"].append("P1 pass")
    assert canonical_hash(parse_log(other)) != canonical_hash(log)


def test_canonical_json_of_a_known_log_is_stable():
    """The canonical form is used for de-duplication: changing it changes every stored hash."""
    d = {"format": "empyrean-log", "version": 1, "catalog": "2026.1",
         "setup": {"mode": "2p", "decks": ["Spectres of the Necropolis", "Cavalry of the Parthian Empire"],
                   "battlefields": ["The Fountain of Janus", "River of Rebirth", "The Throne"]},
         "chance": {"type": "seeded", "algorithm": "splitmix64-v1", "seed": 7},
         "decisions": ["P1 keep Horse Archers"], "meta": {"event": "Café"}}
    assert to_json(parse_log(d)) == (
        '{"catalog":"2026.1","chance":{"algorithm":"splitmix64-v1","seed":7,"type":"seeded"},'
        '"decisions":["P1 keep Horse Archers"],"format":"empyrean-log","meta":{"event":"Café"},'
        '"setup":{"battlefields":["The Fountain of Janus","River of Rebirth","The Throne"],'
        '"decks":["Spectres of the Necropolis","Cavalry of the Parthian Empire"],"mode":"2p"},"version":1}')


def test_game_log_built_in_code_dumps_and_parses_back():
    log = GameLog("2026.1", {"players": ["Ada", "Bo"]},
                  Setup("2p", 2, (DeckRef(SPECTRES), DeckRef(CAVALRY)), tuple(BFS), 1),
                  Chance("recorded"), ("C draw P1 Cataphracts", "P1 pass"),
                  (Checkpoint(2, ((1, 2, 3), (3, 2, 1))),), Result(None))
    assert log.meta["players"] == ("Ada", "Bo")
    assert parse_log(dump_log(log)) == log


# --------------------------------------------------------------------------------------------
# Errors: each class, with its pointer


def test_wrong_type_of_deck():
    d = seeded_log()
    d["setup"]["decks"][0] = 17
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/setup/decks/0"]
    assert "premade deck name" in errs[0]["message"] and "24" in errs[0]["message"]
    assert "the number 17" in errs[0]["message"]


def test_mash_up_deck_with_too_few_cards_points_inside_the_deck():
    d = seeded_log()
    d["setup"]["decks"][1] = {"name": "Mine", "cards": MASH[:23]}
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/setup/decks/1/cards"]
    assert "exactly 24" in errs[0]["message"] and "23" in errs[0]["message"]


def test_missing_chance():
    d = seeded_log()
    del d["chance"]
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/chance"]
    assert "missing" in errs[0]["message"]


def test_bad_decision_line_points_at_its_index():
    d = seeded_log()
    d["decisions"][3] = "P2 dploy Horse Archers to B1"
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/decisions/3"]
    assert "P2 dploy Horse Archers to B1" in errs[0]["message"]


def test_non_utf8_bytes():
    errs = errors_of(b'{"format": "empyrean-log", "x": "\xff\xfe\xfd"}')
    assert [e["path"] for e in errs] == [""]
    assert "UTF-8" in errs[0]["message"]
    assert "UTF-16" in errors_of('{"a": 1}'.encode("utf-16"))[0]["message"]


def test_invalid_json_names_line_and_column():
    errs = errors_of('{\n  "format": "empyrean-log",\n  "version": 1,,\n}')
    assert [e["path"] for e in errs] == [""]
    assert "line 3" in errs[0]["message"] and "column" in errs[0]["message"]


@pytest.mark.parametrize("depth", [65, 1000, 100_000])
def test_deeply_nested_arrays_are_rejected_without_recursion_error(depth):
    text = '{"meta": {"x-deep": ' + "[" * depth + "]" * depth + "}}"
    errs = errors_of(text)
    assert any("nested too deeply" in e["message"] for e in errs)
    nested: list = []
    for _ in range(depth):
        nested = [nested]
    errs = errors_of({"meta": {"x-deep": nested}})
    assert any("nested too deeply" in e["message"] for e in errs)


def test_nesting_within_the_limit_is_fine_in_extensions():
    d = seeded_log()
    nested: list = []
    for _ in range(L.MAX_DEPTH - 3):  # log (1) > meta (2) > x-deep (3) > ...
        nested = [nested]
    d["meta"] = {"x-deep": nested}
    assert parse_log(json.dumps(d)).meta["x-deep"]


def test_a_value_that_contains_itself_is_rejected():
    d = seeded_log()
    loop: list = []
    loop.append(loop)
    d["meta"] = {"x-loop": loop}
    assert any("nested too deeply" in e["message"] for e in errors_of(d))


def test_top_level_array():
    errs = errors_of("[1, 2, 3]")
    assert [e["path"] for e in errs] == [""]
    assert "JSON object" in errs[0]["message"] and "list of 3 items" in errs[0]["message"]


def test_recorded_chance_without_first_player():
    d = recorded_log()
    del d["setup"]["first_player"]
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/setup/first_player"]
    assert "recorded chance" in errs[0]["message"]


def test_three_decks_in_a_two_player_game():
    d = seeded_log()
    d["setup"]["decks"].append(SPECTRES)
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/setup/decks"]
    assert "2 decks" in errs[0]["message"] and "found 3" in errs[0]["message"]


def test_duplicate_battlefields_point_at_the_repeat():
    d = seeded_log()
    d["setup"]["battlefields"][2] = "River of Rebirth"
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/setup/battlefields/2"]
    assert '"River of Rebirth"' in errs[0]["message"] and "more than once" in errs[0]["message"]


def test_four_battlefields_in_a_two_player_game():
    d = seeded_log()
    d["setup"]["battlefields"].append("The Walls")
    assert paths_of(d) == ["/setup/battlefields"]


def test_player_three_decision_in_a_two_player_game():
    d = seeded_log()
    d["decisions"][2] = "P3 keep Eater of Souls"
    d["decisions"].append("C draw P3 Cataphracts")
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/decisions/2", "/decisions/6"]
    assert "no player 3" in errs[0]["message"]


def test_chance_decision_in_a_seeded_log():
    d = seeded_log()
    d["decisions"].insert(1, "C draw P1 Cataphracts")
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/decisions/1"]
    assert "seeded" in errs[0]["message"]


def test_player_three_draw_in_a_recorded_two_player_game():
    d = recorded_log()
    d["decisions"].append("C draw P3 Cataphracts")
    assert paths_of(d) == ["/decisions/6"]


def test_recorded_chance_with_a_seed():
    d = recorded_log()
    d["chance"]["seed"] = 5
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/chance/seed"]
    assert "recorded" in errs[0]["message"]


def test_seeded_chance_without_seed_or_with_a_wrong_algorithm():
    d = seeded_log()
    del d["chance"]["seed"]
    d["chance"]["algorithm"] = "mersenne"
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/chance/algorithm", "/chance/seed"]
    assert '"splitmix64-v1"' in errs[0]["message"] and '"mersenne"' in errs[0]["message"]
    assert errs[1]["message"].startswith("seeded chance needs the seed")


def test_seed_out_of_range_and_huge_numbers():
    d = seeded_log()
    d["chance"]["seed"] = 2**64
    assert paths_of(d) == ["/chance/seed"]
    d["chance"]["seed"] = -1
    assert paths_of(d) == ["/chance/seed"]
    d["chance"]["seed"] = 10**50
    assert paths_of(d) == ["/chance/seed"]
    assert paths_of(json.dumps(d)) == ["/chance/seed"]
    text = json.dumps(seeded_log()).replace('"seed": 42', '"seed": ' + "9" * 5000)
    assert paths_of(text) == [""]


def test_whole_numbers_must_be_written_as_whole_numbers():
    d = seeded_log()
    d["chance"]["seed"] = 42.0
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/chance/seed"]
    assert "whole number" in errs[0]["message"]


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_numbers_are_rejected(literal):
    text = json.dumps(seeded_log()).replace('"seed": 42', '"seed": ' + literal)
    assert paths_of(text) == ["/chance/seed"]
    d = seeded_log()
    d["chance"]["seed"] = float(literal.replace("1e400", "inf"))
    assert paths_of(d) == ["/chance/seed"]


def test_duplicate_keys_are_rejected_with_a_pointer():
    text = json.dumps(seeded_log())[:-1] + ', "decisions": []}'
    errs = errors_of(text)
    assert [e["path"] for e in errs] == ["/decisions"]
    assert "more than once" in errs[0]["message"]


def test_lone_surrogates_are_rejected():
    text = json.dumps(seeded_log()).replace("Soul of the Living", "Soul \\ud800 of the Living", 1)
    assert paths_of(text) == ["/decisions/0"]
    d = seeded_log()
    d["decisions"][0] = "P1 keep Soul \ud800"
    assert paths_of(d) == ["/decisions/0"]
    assert paths_of(json.dumps(d, ensure_ascii=False).encode("utf-8", "surrogatepass")) == [""]  # not UTF-8


def test_escaped_surrogate_pairs_are_fine():
    text = json.dumps(full_log()).replace('"final"', '"gg \\ud83d\\ude00"')
    assert parse_log(text).meta["notes"] == "gg \U0001F600"


def test_version_format_and_catalog():
    d = seeded_log()
    d["version"] = 2
    d["format"] = "chess-pgn"
    d["catalog"] = "2026.1\n"
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/catalog", "/format", "/version"]
    assert "version 1" in errs[2]["message"] and "version 2" in errs[2]["message"]


def test_unknown_fields_are_named_at_every_level():
    d = seeded_log()
    d["winner"] = 1
    d["setup"]["seed"] = 3
    d["meta"] = {"venue": "Hall", "x-venue": "Hall"}
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/meta/venue", "/setup/seed", "/winner"]
    assert '"x-"' in errs[0]["message"]
    assert '"winner"' in errs[2]["message"]


def test_meta_fields_are_checked():
    d = seeded_log()
    d["meta"] = {"date": "2026-02-30", "round": 0, "table": "", "players": ["Ada", "Bo", "Cy"],
                 "event": "E" * 201}
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/meta/date", "/meta/event", "/meta/players", "/meta/round", "/meta/table"]
    assert "YYYY-MM-DD" in errs[0]["message"]
    assert "201" in errs[1]["message"]
    assert "2-player game needs 2 player names" in errs[2]["message"]


def test_first_player_checkpoints_and_result_are_checked_against_the_mode():
    d = seeded_log()
    d["setup"]["first_player"] = 3
    d["checkpoints"] = [{"round": 4, "might": [[1, 2, 3], [1, 2, 3]]},
                        {"round": 2, "might": [[1, 2, 3], [1, 2]]},
                        {"round": 7, "might": [[1, 2, 3], [1, 2, 3], [4, 5, 6]]}]
    d["result"] = {"winner": 3, "might": [[1, 2, 3, 4], [1, 2, 3, 4]]}
    errs = errors_of(d)
    assert [e["path"] for e in errs] == [
        "/checkpoints/1/might/1", "/checkpoints/1/round", "/checkpoints/2/might",
        "/result/might/0", "/result/might/1", "/result/winner", "/setup/first_player"]


def test_checkpoint_round_past_the_end_of_a_three_player_game():
    d = seeded_log()
    d["setup"] = {"mode": "3p", "decks": [SPECTRES] * 3, "battlefields": BFS + ["The Walls"]}
    d["checkpoints"] = [{"round": 10, "might": [[0] * 4] * 3}]
    errs = errors_of(d)
    assert [e["path"] for e in errs] == ["/checkpoints/0/round"]
    assert "9 rounds" in errs[0]["message"]


def test_all_problems_are_reported_sorted_by_path():
    d = seeded_log()
    del d["chance"]
    d["setup"]["decks"][0] = None
    d["decisions"][10 % len(d["decisions"])] = "nonsense"
    d["decisions"] += ["also nonsense"] * 8  # indices 6..13: numeric order, not text order
    d["decisions"].append(12)
    errs = errors_of(d)
    paths = [e["path"] for e in errs]
    assert paths[0] == "/chance"
    assert paths[1:5] == ["/decisions/4", "/decisions/6", "/decisions/7", "/decisions/8"]
    assert "/decisions/10" in paths and paths.index("/decisions/9") < paths.index("/decisions/10")
    assert paths[-1] == "/setup/decks/0"
    assert "/decisions/14" in paths


def test_long_found_values_are_shortened():
    d = seeded_log()
    d["catalog"] = "x y" * 500
    msg = errors_of(d)[0]["message"]
    assert len(msg) < 250 and "…" in msg


def test_the_number_of_listed_problems_is_capped():
    d = seeded_log()
    d["decisions"] = [1] * 1000
    errs = errors_of(d)
    assert len(errs) == L.MAX_ERRORS + 1
    assert "more problems" in errs[-1]["message"]


def test_too_many_decisions_and_too_large_logs():
    d = seeded_log()
    d["decisions"] = ["P1 pass"] * 5001
    assert paths_of(d) == ["/decisions"]
    d["decisions"] = ["P1 pass"] * (L.MAX_VALUES + 1)
    assert any("too large" in e["message"] for e in errors_of(d))


@pytest.mark.parametrize("value", [None, 3, "text", set(), object(), b"", {1: "a"}, {"a": {2}}, [float("nan")]])
def test_non_json_and_odd_python_values(value):
    errors_of(value)


def test_log_format_error_message_is_readable():
    d = seeded_log()
    del d["chance"]
    d["version"] = 3
    with pytest.raises(LogFormatError) as exc:
        parse_log(d)
    assert str(exc.value).startswith("/chance: ") and "(and 1 more)" in str(exc.value)
    assert isinstance(exc.value, ValueError)


# --------------------------------------------------------------------------------------------
# The fast check agrees with jsonschema


def test_fast_check_is_compiled_from_the_schema():
    validator, fast = L._machinery()
    assert fast is not None
    for d in (seeded_log(), recorded_log(), full_log()):
        assert fast(d) and validator.is_valid(d)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


_json_scalars = (st.none() | st.booleans() | st.integers(-5, 2**65)
                 | st.sampled_from([0, 1, 2, 3, 4, 9, 10, 11, 2**64 - 1, 2**64])
                 | st.text(max_size=5) | st.sampled_from(["2p", "3p", "seeded", "recorded", "splitmix64-v1",
                                                          "empyrean-log", "2026-01-31", "2026-02-30", "P1 pass",
                                                          SPECTRES, "x-", "", "x" * 32, "x" * 33, "x" * 50, "x" * 51,
                                                          "x" * 100, "x" * 101, "x" * 200, "x" * 201, "a\n"]))
_json_values = st.recursive(_json_scalars, lambda kids: st.lists(kids, max_size=4)
                            | st.lists(st.sampled_from(["Horse Archers", "Cataphracts"]), min_size=23, max_size=25)
                            | st.dictionaries(st.sampled_from(["name", "cards", "type", "seed", "x-a", "round",
                                                               "might", "winner", "a"]), kids, max_size=3),
                            max_leaves=12)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from([seeded_log, recorded_log, full_log]), data=st.data())
def test_fast_check_agrees_with_jsonschema_on_mutated_logs(base, data):
    validator, fast = L._machinery()
    d = base()
    for _ in range(data.draw(st.integers(1, 3))):
        paths = list(_paths(d))
        path = data.draw(st.sampled_from(paths))
        if not path:
            continue
        parent = d
        for p in path[:-1]:
            parent = parent[p]
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = data.draw(_json_values)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[data.draw(st.sampled_from(["x-new", "extra", "seed", "first_player", "might"]))] = \
                data.draw(_json_values)
        else:
            parent.insert(path[-1], data.draw(_json_values))
    assert fast(d) == validator.is_valid(d), d


# --------------------------------------------------------------------------------------------
# Generated valid logs round-trip; anything at all gives LogFormatError or a GameLog


# Fractions (1.0, 3.5) never reach the fast check: the decoder sends them to jsonschema (tested
# in test_whole_numbers_must_be_written_as_whole_numbers).
_BOUNDARY = [None, True, 0, 1, 2, 3, 4, 9, 10, 11, -1, 2**64 - 1, 2**64, "", "2p", "3p", "seeded",
             "recorded", "splitmix64-v1", "empyrean-log", "2026-01-31", "2026-02-30", "P1 pass", "x-", "x" * 32,
             "x" * 33, "x" * 50, "x" * 51, "x" * 100, "x" * 101, "x" * 200, "x" * 201, "2026.1\n", [], [1],
             ["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d"], [[0, 0, 0], [0, 0, 0]], {}, {"winner": 1},
             {"name": "n", "cards": ["c"] * 24}, {"name": "n", "cards": ["c"] * 25}, {"type": "recorded"},
             {"type": "seeded", "algorithm": "splitmix64-v1", "seed": 1}]


def test_fast_check_agrees_with_jsonschema_on_every_boundary_value_everywhere():
    """Each place in a valid log, in turn, gets each boundary value (and is deleted)."""
    validator, fast = L._machinery()
    small = full_log()
    small["decisions"] = small["decisions"][:2]
    small["setup"]["decks"][1]["cards"] = small["setup"]["decks"][1]["cards"][:24]
    checked = 0
    for base in (seeded_log(), recorded_log(), small):
        for path in _paths(base):
            if not path or (len(path) > 1 and isinstance(path[-1], int) and 0 < path[-1] < 23):
                continue
            for value in _BOUNDARY + ["DELETE"]:
                d = copy.deepcopy(base)
                parent = d
                for p in path[:-1]:
                    parent = parent[p]
                if value == "DELETE":
                    del parent[path[-1]]
                else:
                    parent[path[-1]] = copy.deepcopy(value)
                assert fast(d) == validator.is_valid(d), (path, value)
                checked += 1
    assert checked > 3000


_cards = st.sampled_from(["Soul of the Living", "Soul of the Powerful", "Eater of Souls", "Horse Archers",
                          "Flank Attack", "Cataphracts", "Café Noir"])


@st.composite
def _decision(draw, players: int, recorded: bool):
    p = draw(st.integers(1, players))
    pos = Pos(draw(st.integers(1, players)), draw(st.integers(1, 4)), draw(st.integers(1, 6)))
    options = [Decision(p, "keep", card=draw(_cards)), Decision(p, "pass"), Decision(p, "yes"), Decision(p, "no"),
               Decision(p, "deploy", card=draw(_cards), bf=draw(st.integers(1, 9))),
               Decision(p, "move", pos=pos, bf=draw(st.integers(1, 4))), Decision(p, "command", pos=pos),
               Decision(p, "choose", pos=pos), Decision(p, "choose", bf=draw(st.integers(1, 4))),
               Decision(p, "choose", card=draw(_cards)), Decision(p, "concede"), Decision(p, "nothing")]
    if recorded:  # every card may also be one nobody saw
        options += [Decision(0, "draw", card=draw(_cards), player=p), Decision(0, "draw", card="?", player=p),
                    Decision(p, "keep", card="?"), Decision(p, "choose", card="?")]
    return format_decision(draw(st.sampled_from(options)))


def log_text(**kwargs):
    """Text a log may hold: any character but NUL (and, as Hypothesis already leaves out, surrogates)."""
    return st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), **kwargs)


@st.composite
def valid_logs(draw):
    players = draw(st.sampled_from([2, 3]))
    nbf = players + 1
    recorded = draw(st.booleans())
    decks = [draw(st.sampled_from([SPECTRES, CAVALRY])) if draw(st.booleans())
             else {"name": draw(log_text(min_size=1, max_size=10)), "cards": draw(st.lists(_cards, min_size=24,
                                                                                           max_size=24))}
             for _ in range(players)]
    setup = {"mode": f"{players}p", "decks": decks,
             "battlefields": draw(st.lists(log_text(min_size=1, max_size=12), min_size=nbf, max_size=nbf,
                                           unique=True))}
    if recorded or draw(st.booleans()):
        setup["first_player"] = draw(st.integers(1, players))
    chance = {"type": "recorded"} if recorded else {"type": "seeded", "algorithm": "splitmix64-v1",
                                                    "seed": draw(st.integers(0, 2**64 - 1))}
    if recorded and draw(st.booleans()):
        chance["view"] = draw(st.integers(1, players))
    might = st.lists(st.lists(st.integers(0, 60), min_size=nbf, max_size=nbf), min_size=players, max_size=players)
    catalog = draw(st.from_regex(r"[0-9A-Za-z._-]{1,32}", fullmatch=True))
    log = {"format": "empyrean-log", "version": 1, "catalog": catalog, "setup": setup, "chance": chance,
           "decisions": draw(st.lists(_decision(players, recorded), max_size=30))}
    if draw(st.booleans()):
        rounds = draw(st.lists(st.integers(1, 10 if players == 2 else 9), unique=True, max_size=4))
        log["checkpoints"] = [{"round": r, "might": draw(might)} for r in sorted(rounds)]
    if draw(st.booleans()):
        log["result"] = {"winner": draw(st.none() | st.integers(1, players))}
        if draw(st.booleans()):
            log["result"]["might"] = draw(might)
        reason = draw(st.sampled_from([None, "score", "concession", "time"]))
        if reason is not None:
            log["result"]["reason"] = reason
        if reason == "time":
            log["result"]["time_rule"] = draw(st.sampled_from(["tally", "draw"]))
    if draw(st.booleans()):
        meta = {"event": draw(log_text(max_size=20)), "players": draw(st.lists(log_text(min_size=1, max_size=8),
                                                                              min_size=players, max_size=players))}
        if draw(st.booleans()):
            # any JSON a log may hold: text without NUL (log_text)
            meta["x-any"] = draw(_json_values.filter(lambda v: "\\u0000" not in json.dumps(v)))
        log["meta"] = meta
    return log


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_logs())
def test_generated_valid_logs_round_trip(d):
    assert L._machinery()[1](d), "the fast check must accept a valid log"
    log = parse_log(d)
    out = dump_log(log)
    assert out == normalised(d)
    assert parse_log(out) == log
    again = parse_log(to_json(log).encode("utf-8"))
    assert again == dataclasses.replace(log, decisions=tuple(canonical_decisions(log.decisions)))
    assert canonical_hash(again) == canonical_hash(log)
    assert canonical_hash(parse_log(json.dumps(d, indent=1))) == canonical_hash(log)


def _only_log_format_errors(source) -> None:
    try:
        result = parse_log(source)
    except LogFormatError as e:
        assert e.errors and all(set(x) == {"path", "message"} for x in e.errors)
        assert not any("internal error" in x["message"] for x in e.errors), e.errors
    else:
        assert isinstance(result, GameLog)


_json_ish = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(_json_ish)
def test_arbitrary_json_values_only_ever_raise_log_format_error(value):
    _only_log_format_errors(value)
    try:
        text = json.dumps(value)
    except (ValueError, RecursionError):
        return
    _only_log_format_errors(text)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_only_ever_raise_log_format_error(data):
    _only_log_format_errors(data)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('{}[]",:0123456789.eE-+ntrufalsNIy \\u\ud800')), max_size=200))
def test_json_like_text_only_ever_raises_log_format_error(text):
    _only_log_format_errors(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from([seeded_log, recorded_log, full_log]), value=_json_ish,
       where=st.sampled_from([("setup",), ("setup", "decks"), ("setup", "decks", 0), ("chance",), ("chance", "seed"),
                              ("decisions",), ("decisions", 0), ("meta",), ("checkpoints",), ("result",),
                              ("setup", "battlefields", 1), ("catalog",)]))
def test_logs_with_one_part_replaced_only_ever_raise_log_format_error(base, value, where):
    d = base()
    parent = d
    for p in where[:-1]:
        parent = parent[p]
    parent[where[-1]] = value
    _only_log_format_errors(d)
    _only_log_format_errors(json.dumps(d))


def test_the_ways_a_game_ends_and_a_seat_view_are_checked_by_the_schema():
    d = recorded_log()
    d["result"] = {"winner": 1, "reason": "score", "time_rule": "tally"}
    with pytest.raises(LogFormatError) as e:
        parse_log(d)
    assert e.value.errors == [{"path": "/result/time_rule", "message": '"time_rule" says how a game stopped by '
                               'time is scored: it goes only with "reason": "time"'}]
    d["result"] = {"winner": 1, "reason": "retired"}
    with pytest.raises(LogFormatError) as e:
        parse_log(d)
    assert e.value.errors[0]["path"] == "/result/reason" and '"concession"' in e.value.errors[0]["message"]
    d["result"] = {"winner": 1, "reason": "time", "time_rule": "draw"}
    d["chance"] = {"type": "recorded", "view": 2}
    log = parse_log(d)
    assert (log.result.reason, log.result.time_rule, log.chance.view) == ("time", "draw", 2)
    assert dump_log(log)["result"] == d["result"] and dump_log(log)["chance"] == d["chance"]
    d["chance"] = {"type": "recorded", "view": 0}
    with pytest.raises(LogFormatError) as e:
        parse_log(d)
    assert e.value.errors[0]["path"] == "/chance/view"


def test_the_longest_names_are_the_schemas_and_each_is_taken_at_its_limit():
    from engine.bfe.selfplay import self_play
    from engine.log import longest_name
    from engine.replay import replay

    assert (longest_name("event"), longest_name("player"), longest_name("deck")) == (200, 100, 100)
    with pytest.raises(ValueError, match="no name called 'table'"):
        longest_name("table")
    log = self_play(11, meta={"event": "E" * 200, "players": ["P" * 100, "Q" * 100]})
    assert replay(log).verdict.status == "valid"
    for too_long in ({"event": "E" * 201}, {"players": ["P" * 101, "Q"]}):
        assert replay({**log, "meta": {**log["meta"], **too_long}}).verdict.status == "malformed"
