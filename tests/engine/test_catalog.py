"""The catalog loads, keeps the template, and rejects bad data naming file, card and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from engine.bfe.catalog import TEMPLATE, CatalogError, catalog_root, load_catalog, load_catalog_dir

VERSION = "2026.1"


def test_packaged_catalog_loads_with_the_starter_content():
    cat = load_catalog(VERSION)
    assert cat.version == VERSION
    assert "UNOFFICIAL" in cat.notice
    for deck in ("Spectres of the Necropolis", "Cavalry of the Parthian Empire", "Vampires of the Evernight"):
        cards = cat.decks[deck]
        assert len(cards) == 24
        costs = {}
        for c in cards:
            costs[c.cost] = costs.get(c.cost, 0) + 1
        assert costs == TEMPLATE
    assert len(cat.battlefields) >= 9
    assert "The Fountain of Janus" in cat.battlefields
    assert any(bf.zones == 5 for bf in cat.battlefields.values())


def test_known_cards_keep_their_public_copies():
    cat = load_catalog(VERSION)
    spectres = [c.name for c in cat.decks["Spectres of the Necropolis"]]
    assert spectres.count("Soul of the Living") == 4
    assert spectres.count("Soul of the Powerful") == 2
    assert spectres.count("Eater of Souls") == 2
    cavalry = [c.name for c in cat.decks["Cavalry of the Parthian Empire"]]
    assert cavalry.count("Cataphracts") == 4
    assert cavalry.count("Flank Attack") == 2
    assert "Horse Archers" in cavalry and "Spahbed" in cavalry


@pytest.fixture
def catalog_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "cat"
    shutil.copytree(catalog_root() / VERSION, dst)
    return dst


def _edit_deck(root: Path, fn) -> None:
    path = root / "decks" / "spectres.yaml"
    data = yaml.safe_load(path.read_text())
    fn(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def test_unknown_verb_names_file_card_and_field(catalog_copy):
    def edit(d):
        d["cards"][0]["effects"][0]["do"] = [{"teleport": 1}]
    _edit_deck(catalog_copy, edit)
    with pytest.raises(CatalogError) as e:
        load_catalog_dir(catalog_copy)
    err = e.value
    assert err.file == "spectres.yaml"
    assert err.card == "Soul of the Living"
    assert err.field == "effects[0].do[0]"
    assert "teleport" in err.message and "known verbs" in err.message


def test_template_break_is_rejected_naming_the_cost(catalog_copy):
    def edit(d):
        d["cards"][0]["copies"] = 3  # only 4 one-cost cards left instead of 5
    _edit_deck(catalog_copy, edit)
    with pytest.raises(CatalogError) as e:
        load_catalog_dir(catalog_copy)
    assert e.value.file == "spectres.yaml" and e.value.field == "cost"
    assert "cost 1" in str(e.value)


def test_malformed_yaml_is_rejected_naming_the_file(catalog_copy):
    (catalog_copy / "decks" / "spectres.yaml").write_text("deck: [unclosed\n")
    with pytest.raises(CatalogError) as e:
        load_catalog_dir(catalog_copy)
    assert e.value.file == "spectres.yaml" and "YAML" in e.value.message


@pytest.mark.parametrize("field,value,words", [
    ("cost", 9, "1..8"),
    ("ability", "sometimes", "ability type"),
    ("tokens", ["glitter"], "affixed tokens"),
    ("max_might", 0, "maximum might"),
])
def test_bad_card_fields_are_named(catalog_copy, field, value, words):
    def edit(d):
        d["cards"][1][field] = value
    _edit_deck(catalog_copy, edit)
    with pytest.raises(CatalogError) as e:
        load_catalog_dir(catalog_copy)
    assert e.value.card == "Wailing Wisp" and e.value.field == field and words in e.value.message


def test_unknown_trigger_and_selector_key_are_named(catalog_copy):
    def edit(d):
        d["cards"][0]["effects"][0]["when"] = "sunrise"
        d["cards"][2]["effects"][0]["do"] = [{"might": {"target": {"colour": "red"}, "add": 1}}]
    _edit_deck(catalog_copy, edit)
    with pytest.raises(CatalogError) as e:
        load_catalog_dir(catalog_copy)
    assert e.value.field == "effects[0].when" and "sunrise" in e.value.message


def test_bad_battlefield_is_named(catalog_copy):
    path = catalog_copy / "battlefields.yaml"
    data = yaml.safe_load(path.read_text())
    data["battlefields"][0]["zones"] = 12
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(CatalogError) as e:
        load_catalog_dir(catalog_copy)
    assert e.value.file == "battlefields.yaml" and e.value.field == "zones"
    assert e.value.card == data["battlefields"][0]["name"]


def test_every_card_text_and_every_battlefield_has_two_effect_texts():
    cat = load_catalog(VERSION)
    for c in cat.cards.values():
        assert c.text.strip(), c.name
    for bf in cat.battlefields.values():
        assert len(bf.text) == 2 and all(t.strip() for t in bf.text), bf.name


# ---------------------------------------------------------------------------- versions and errata
def _version(root: Path, version: str, extends: str | None = None, **files) -> Path:
    """A catalog version folder under ``root``: catalog.yaml plus the given YAML files."""
    folder = root / version
    (folder / "decks").mkdir(parents=True)
    meta = {"version": version, "title": "t", "notice": "UNOFFICIAL"}
    if extends:
        meta["extends"] = extends
    (folder / "catalog.yaml").write_text(yaml.safe_dump(meta))
    for name, data in files.items():
        path = folder / name.replace("__", "/")
        path.write_text(yaml.safe_dump(data, sort_keys=False))
    return folder


def test_a_version_extends_another_and_inherits_its_decks_and_battlefields():
    base, new = load_catalog("2026.1"), load_catalog("2026.2")
    assert set(base.decks) <= set(new.decks)
    assert set(base.battlefields) <= set(new.battlefields)
    assert "UNOFFICIAL" in new.notice


def test_errata_change_a_card_in_the_new_version_only_and_old_logs_replay_as_before(tmp_path):
    from engine.bfe.selfplay import self_play
    from engine.replay import replay

    shutil.copytree(catalog_root() / VERSION, tmp_path / VERSION)
    spectres = yaml.safe_load((catalog_root() / VERSION / "decks" / "spectres.yaml").read_text())
    card = dict(next(c for c in spectres["cards"] if c["name"] == "Soul of the Living"))
    card["might"] = card["might"] + 3
    card["text"] = "Erratum: three more reveal might. " + card["text"]
    _version(tmp_path, "9999.1", extends=VERSION, **{"errata.yaml": {"cards": [card]}})
    old, new = load_catalog_dir(tmp_path / VERSION), load_catalog_dir(tmp_path / "9999.1")
    assert new.cards["Soul of the Living"].might == old.cards["Soul of the Living"].might + 3
    # the erratum keeps the card's copies and deck; everything else is the same objects' data
    assert [c.name for c in new.decks["Spectres of the Necropolis"]].count("Soul of the Living") == 4
    assert new.cards["Horse Archers"].text == old.cards["Horse Archers"].text
    # A game played under the old version replays under it exactly as before, whatever the erratum.
    # (a game in which Soul of the Living was revealed, so that the erratum would matter)
    for seed in range(50):
        log = self_play(seed, decks=["Spectres of the Necropolis", "Cavalry of the Parthian Empire"],
                        catalog=VERSION)
        before = replay(log, catalog=load_catalog(VERSION))
        if before.record.cards[0].get("Soul of the Living") and before.record.cards[0]["Soul of the Living"].reveals:
            break
    again = replay(log, catalog=old)
    assert before.verdict.status == again.verdict.status == "valid"
    assert before.record.final_might == again.record.final_might
    under_erratum = replay(log, catalog=new)  # the same decisions, read under the new text
    assert (under_erratum.verdict.status != "valid"
            or under_erratum.record.final_might != before.record.final_might
            or under_erratum.record.cards != before.record.cards)


def test_a_deck_file_or_battlefield_of_the_same_name_replaces_the_base_one(tmp_path):
    shutil.copytree(catalog_root() / VERSION, tmp_path / VERSION)
    bfs = yaml.safe_load((catalog_root() / VERSION / "battlefields.yaml").read_text())["battlefields"]
    fountain = dict(next(b for b in bfs if b["name"] == "The Fountain of Janus"), zones=5)
    _version(tmp_path, "9999.2", extends=VERSION, **{"battlefields.yaml": {"battlefields": [fountain]}})
    new = load_catalog_dir(tmp_path / "9999.2")
    assert new.battlefields["The Fountain of Janus"].zones == 5
    assert len(new.battlefields) == len(load_catalog(VERSION).battlefields)


def test_an_erratum_for_a_card_the_catalog_lacks_is_rejected_naming_it(tmp_path):
    shutil.copytree(catalog_root() / VERSION, tmp_path / VERSION)
    bogus = {"name": "Nobody", "type": "Ghost", "cost": 1, "might": 1, "text": "x"}
    _version(tmp_path, "9999.3", extends=VERSION, **{"errata.yaml": {"cards": [bogus]}})
    with pytest.raises(CatalogError, match=r"errata.yaml, card 'Nobody', field name"):
        load_catalog_dir(tmp_path / "9999.3")


def test_extending_a_missing_version_is_rejected(tmp_path):
    _version(tmp_path, "9999.4", extends="1900.1")
    with pytest.raises(CatalogError, match=r"catalog.yaml, field extends: there is no catalog version '1900.1'"):
        load_catalog_dir(tmp_path / "9999.4")
