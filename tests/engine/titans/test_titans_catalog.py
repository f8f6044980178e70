"""Titans' content: the shipped catalogs load and say they are unofficial; catalog 1 is kept as it
shipped and 2 is the default; what 2 changed (initiatives of each species' own, 7 different
maneuvers a species); a bad file is refused naming the file, the item and the field."""

from __future__ import annotations

import copy
import hashlib
from itertools import combinations

import pytest
import yaml
from titans_helpers import ahead, fresh, place, play, start_action

from engine.titans.catalog import DATA, DEFAULT_VERSION, FILES, Catalog, CatalogError, compile_catalog, load, versions


def docs() -> dict:
    folder = DATA / "catalog" / "1"
    return {f: yaml.safe_load((folder / f).read_text(encoding="utf-8")) for f in FILES}


def refused(change) -> CatalogError:
    d = copy.deepcopy(docs())
    change(d)
    with pytest.raises(CatalogError) as e:
        compile_catalog(d)
    return e.value


def test_the_shipped_catalog_loads_and_is_marked_unofficial():
    cat = load("1")
    assert "nofficial" in cat.notice
    assert {s.name for s in cat.species.values()} == {"Dragon", "Manticore", "Pegasus", "Griffon", "Gargoyle",
                                                      "Harpy", "Cockatrice", "Phoenix"}
    assert cat.maneuvers["gout-of-flame"].species == "dragon"


# catalog 1's files as they shipped: logs played under it keep their verdicts only while it is unchanged
CATALOG_1 = {"basic.yaml": "74328d4ceb6c82e0750f31f149158dff4ca532b44e97048d7ad5055d6d20c9f3",
             "board.yaml": "38f889622ed25f4085bf0cc862fc6e6694689fbd3aca870338c08fff87aa53d7",
             "catalog.yaml": "a3e373e7d1e41b8fda1a83cf511e06a982d6a2013f28de44ddf953b187145a60",
             "species.yaml": "b0388d75ed33bfaf90d6f1fdc416ca809d0ca991a9d20df588cf5161e48f94d3"}


def test_catalog_1_is_kept_as_it_shipped_and_2_is_the_default():
    assert {f: hashlib.sha256((DATA / "catalog" / "1" / f).read_bytes()).hexdigest() for f in FILES} == CATALOG_1
    assert versions() == ["1", "2"] and DEFAULT_VERSION == versions()[-1] == "2"
    assert load().version == "2" and load("1").version == "1"
    two = load("2")
    assert "nofficial" in two.notice and "catalog 1" in two.notice.lower() and two.title.endswith("2")


def top_initiatives(cat: Catalog) -> dict[str, int]:
    return {k: max(cat.titans[t].initiative for t in s.titans) for k, s in cat.species.items()}


def test_catalog_2_gives_each_species_a_best_initiative_of_its_own():
    """Every pairing of two species has one squad alone at the top of the initiative (in catalog 1
    every species' best titan had 8: no pairing did)."""
    for version, pairs_with_a_top_alone in (("1", 0), ("2", 28)):
        tops = top_initiatives(load(version))
        assert sum(a != b for a, b in combinations(tops.values(), 2)) == pairs_with_a_top_alone, (version, tops)


def test_catalog_2_gives_each_species_at_least_7_different_maneuvers():
    for version, fewest in (("1", 4), ("2", 7)):
        cat = load(version)
        assert min(len(s.maneuvers) for s in cat.species.values()) == fewest, version
    cat = load("2")
    for s in cat.species.values():
        assert sorted((cat.maneuvers[k].copies for k in s.maneuvers), reverse=True) == [2, 2, 2, 2, 1, 1, 1], s.key
    assert len(cat.maneuvers) == 7 + 8 * 7


def test_catalog_2s_new_kinds_of_card_do_what_their_texts_say():
    """The kinds of effect catalog 1 had no card of: the rear arc, a negative modifier, a move of 2, a
    turn to the right, replenishing 3 and shaking off 3."""
    g = fresh(catalog="2")
    me = place(g, "P1 ashmaw", "D4", "NW", stack=["tail-sweep"])
    behind = place(g, "P2 shrill", ahead(g, "D4", "SE"), "NW")
    ahead_of_me = place(g, "P2 tempest", ahead(g, "D4", "NW"), "NW")
    start_action(g, "P1 ashmaw")
    play(g, "P1 ashmaw play stack tail-sweep")  # Tail Sweep: every enemy in the rear arc takes 2
    assert (behind.damage, ahead_of_me.damage) == (2, 0)
    me.active = "kindled-rage"  # Kindled Rage: strength 2 higher, endurance 1 lower
    assert (g.strength(me), g.endurance(me)) == (me.card.strength + 2, me.card.endurance - 1)

    g = fresh(p1="pegasus", catalog="2")
    runner = place(g, "P1 skyrunner", "D4", "NW", stack=["swift-canter", "skyward-wheel"])
    start_action(g, "P1 skyrunner")
    play(g, "P1 skyrunner play stack swift-canter")  # Swift Canter: 2 hexes forward
    assert g.cat.board.name(runner.hex) == ahead(g, ahead(g, "D4", "NW"), "NW") and runner.facing == "NW"
    g = fresh(p1="pegasus", catalog="2")
    runner = place(g, "P1 skyrunner", "D4", "NW", stack=["skyward-wheel"])
    start_action(g, "P1 skyrunner")
    play(g, "P1 skyrunner play stack skyward-wheel")  # Skyward Wheel: a turn right, then a hex forward
    assert runner.facing == "NE" and g.cat.board.name(runner.hex) == ahead(g, "D4", "NE")

    g = fresh(p1="phoenix", catalog="2")
    pyre = place(g, "P1 pyre", "D4", "NW", stack=["kindling"])
    start_action(g, "P1 pyre")
    play(g, "P1 pyre play stack kindling")  # Kindling: replenish three times (the stack has room)
    assert len(pyre.stack) == 3
    g = fresh(p1="gargoyle", catalog="2")
    cornice = place(g, "P1 cornice", "D4", "NW", stack=["mortar-mend"], damage=4)
    start_action(g, "P1 cornice")
    play(g, "P1 cornice play stack mortar-mend")  # Mortar Mend: shake off 3
    assert cornice.damage == 1


def test_a_bad_titan_field_names_the_titan_and_the_field():
    e = refused(lambda d: d["species.yaml"]["species"][0]["titans"][1].update(initiative="fast"))
    assert (e.file, e.item, e.field) == ("species.yaml", "titan 'cinderwing'", "initiative")


def test_a_bad_effect_names_the_maneuver_and_the_effect():
    e = refused(lambda d: d["basic.yaml"]["maneuvers"][0]["effects"][0].update(when="always"))
    assert (e.file, e.item) == ("basic.yaml", "maneuver 'tailwind'") and e.field == "effects[0].do"
    e2 = refused(lambda d: d["basic.yaml"]["maneuvers"][0]["effects"][0].update({"do": {"warp": 1}}))
    assert e2.item == "maneuver 'tailwind'" and e2.field.startswith("effects[0].do")


def test_counts_and_keys_are_checked():
    e = refused(lambda d: d["basic.yaml"]["maneuvers"][0].update(copies=4))
    assert e.field == "maneuvers" and "21" in e.message
    e = refused(lambda d: d["species.yaml"]["species"][1]["titans"][0].update(key="ashmaw"))
    assert e.item == "titan 'ashmaw'" and e.field == "key"
    e = refused(lambda d: d["board.yaml"]["hazard_layouts"][0].update(hexes=["Z9"]))
    assert e.item == "layout 'centre'" and e.field == "hexes"
    e = refused(lambda d: d["catalog.yaml"].update(notice="Official"))
    assert e.file == "catalog.yaml" and e.field == "notice"


def test_a_squad_whose_stacks_outgrow_the_deck_is_refused_naming_the_species():
    """Three dragons and an ally are dealt from one deck of 28: with Old Vermax at 10, it and the two
    dragons of 6 and a 7 of another species (rule 10.1) are 29 cards (the four dragons are 27)."""
    e = refused(lambda d: d["species.yaml"]["species"][0]["titans"][2].update(stack=10))
    assert (e.file, e.item, e.field) == ("species.yaml", "species 'dragon'", "titans")
    assert "old-vermax, ashmaw, ember-queen, red-maw come to 29 cards, more than the 28 of a deck" in e.message


def test_an_unknown_version_is_a_key_error_naming_the_versions():
    with pytest.raises(KeyError, match="known: 1, 2"):
        load("nope")
