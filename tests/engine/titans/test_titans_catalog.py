"""Titans' content: the shipped catalog loads and says it is unofficial; a bad file is refused
naming the file, the item and the field."""

from __future__ import annotations

import copy

import pytest
import yaml

from engine.titans.catalog import DATA, FILES, CatalogError, compile_catalog, load


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


def test_an_unknown_version_is_a_key_error_naming_the_versions():
    with pytest.raises(KeyError, match="known: 1"):
        load("nope")
