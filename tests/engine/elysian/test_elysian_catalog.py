"""Elysian Battlefields' content: the shipped catalog loads, holds the book's numbers and uses the whole
effect vocabulary; a bad file is refused naming the file, the item and the field."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest
import yaml

from engine.elysian.catalog import (
    DATA,
    DECK_SIZES,
    DECKS,
    DEFAULT_VERSION,
    FILES,
    HEROES,
    TERRAINS,
    TILES,
    VERBS,
    CatalogError,
    Effect,
    EffectError,
    catalog_data,
    check_path,
    compile_catalog,
    compile_effect,
    effect_data,
    load,
    versions,
)


def docs() -> dict:
    folder = DATA / "catalog" / DEFAULT_VERSION
    return {f: yaml.safe_load((folder / f).read_text(encoding="utf-8")) for f in FILES}


def card(d: dict, key: str) -> dict:
    return next(c for c in d["cards.yaml"]["cards"] if c["key"] == key)


def refused(change) -> CatalogError:
    d = copy.deepcopy(docs())
    change(d)
    with pytest.raises(CatalogError) as e:
        compile_catalog(d)
    return e.value


def where(e: CatalogError) -> tuple:
    return e.file, e.item, e.field


# --- the shipped catalog ---

def test_the_shipped_catalog_loads_with_the_books_numbers_and_says_it_is_unofficial():
    cat = load()
    assert cat is load(DEFAULT_VERSION) and cat.version == DEFAULT_VERSION == versions()[-1]
    assert "nofficial" in cat.notice
    assert DECKS == ("conquest", "rule", "reign") and list(cat.decks) == list(DECKS)
    assert {d: cat.decks[d].total() for d in DECKS} == DECK_SIZES == {"conquest": 31, "rule": 24, "reign": 25}
    assert {d: Counter(c.deck for c in cat.cards.values())[d] for d in DECKS} == \
        {d: len(cat.decks[d]) for d in DECKS}
    assert list(cat.tiles) == [str(i) for i in range(1, TILES + 1)] and TILES == 15
    assert len(cat.heroes) == HEROES == 5
    spike = next(c for c in cat.cards.values() if c.name == "Spike Pit Trap")
    assert (spike.deck, spike.kind, spike.trigger, spike.effects) == \
        ("conquest", "effect", "attacked", (Effect("trap", 1),))


def test_every_verb_and_every_value_of_the_vocabulary_is_used_by_version_1():
    cat = load("1")
    effects = [(c.kind, e) for c in cat.cards.values() for e in c.effects]
    effects += [("ability", e) for h in cat.heroes.values() for e in h.effects]
    used = {(kind, e.do, (e.n > 0) - (e.n < 0)) for kind, e in effects}
    wanted = {(kind, verb, sign or 1) for verb, spec in VERBS.items() for kind, sign in spec.kinds.items()}
    assert wanted <= used, sorted(wanted - used)
    assert ("item", "stat", -1) in used  # a lowered statistic too
    for verb, spec in VERBS.items():
        for name, values in spec.fields.items():
            assert {getattr(e, name) for _, e in effects if e.do == verb} == set(values), (verb, name)


def test_each_deck_holds_what_the_book_says_it_is_for():
    cat = load()
    purpose = {"conquest": {"power", "attacks", "strike", "range", "trap", "shield", "stat"},
               "rule": {"deploy", "moves", "speed"},
               "reign": {"build", "upgrade", "draw", "play", "stat", "produce", "hand", "walls"}}
    for c in cat.cards.values():
        assert {e.do for e in c.effects} <= purpose[c.deck], c.key
    kinds = Counter((c.deck, c.kind) for c in cat.cards.values())
    assert 3 <= kinds["conquest", "item"] <= 5 and kinds["conquest", "effect"] >= 2
    assert set(kinds) == {("conquest", "order"), ("conquest", "effect"), ("conquest", "item"), ("rule", "order"),
                          ("reign", "order"), ("reign", "upgrade")}
    assert [12 <= len(cat.decks["conquest"]) <= 16, 8 <= len(cat.decks["rule"]) <= 10,
            10 <= len(cat.decks["reign"]) <= 12] == [True] * 3


def test_tiles_are_mostly_land_with_at_most_one_water_each():
    tiles = load().tiles.values()
    assert all(set(t.terrains) <= set(TERRAINS) and t.terrains.count("water") <= 1 for t in tiles)
    assert 3 <= sum("water" in t.terrains for t in tiles) <= 5
    assert all(sum(t.terrains.count(k) for t in tiles) >= 8 for k in ("plains", "forest", "mountain"))


def test_heroes_are_a_little_stronger_than_standard_units_and_each_has_a_lasting_ability():
    for h in load().heroes.values():
        assert 2 <= h.attack <= 4 and 2 <= h.move <= 3 and 2 <= h.defense <= 4 and h.range in (1, 2), h.key
        assert 1 <= len(h.effects) <= 2 and h.ability and h.text


def test_each_text_says_its_effects_numbers_and_words():
    """A text names every effect's number (build and upgrade are always one) and its unit, what and
    where, so a text cannot silently drift from the effects it stands for."""
    cat = load()
    texts = [(c.key, c.text, c.effects) for c in cat.cards.values()]
    texts += [(h.key, h.text, h.effects) for h in cat.heroes.values()]
    for key, text, effects in texts:
        for e in effects:
            if e.do not in ("build", "upgrade"):
                assert str(abs(e.n)) in text, (key, e)
            for word in (e.unit, e.what, e.where):
                assert word is None or word.rstrip("s") in text.lower(), (key, word)


# --- the data others read ---

def test_catalog_data_is_json_ready_and_gives_each_entry_its_parts():
    cat = load()
    data = json.loads(json.dumps(catalog_data(cat)))
    assert (data["version"], data["title"], data["notice"]) == (cat.version, cat.title, cat.notice)
    assert data["decks"] == DECK_SIZES
    assert data["tiles"][3] == {"key": "4", "name": cat.tiles["4"].name, "terrains": list(cat.tiles["4"].terrains)}
    spike = next(c for c in data["cards"] if c["key"] == "spike-pit-trap")
    assert spike == {"key": "spike-pit-trap", "name": "Spike Pit Trap", "deck": "conquest", "kind": "effect",
                     "copies": cat.cards["spike-pit-trap"].copies, "text": cat.cards["spike-pit-trap"].text,
                     "trigger": "attacked", "effects": [{"trap": 1}]}
    assert all("trigger" not in c for c in data["cards"] if c["kind"] != "effect")
    assert [h["key"] for h in data["heroes"]] == list(cat.heroes)
    assert {"attack", "defense", "move", "range", "ability", "text", "effects"} <= set(data["heroes"][0])


def test_an_effect_in_its_yaml_form_compiles_back_to_itself():
    cat = load()
    for c in cat.cards.values():
        for i, e in enumerate(c.effects):
            assert compile_effect(effect_data(e), c.kind, f"effects[{i}]") == e
    assert effect_data(Effect("deploy", 2, unit="any", where="settlement")) == \
        {"deploy": 2, "unit": "any", "where": "settlement"}
    with pytest.raises(EffectError) as e:
        compile_effect({"stat": 1, "unit": "hero", "what": "move"}, "order", "ability.effects[1]")
    assert e.value.field == "ability.effects[1].stat" and "an order" in e.value.message


# --- refusals: each names the file, the item and the field ---

def test_an_unknown_verb_names_the_card_and_the_verb():
    e = refused(lambda d: card(d, "battle-cry")["effects"][0].update(warp=1))
    assert where(e) == ("cards.yaml", "card 'battle-cry'", "effects[0].warp") and "power" in e.message


def test_a_deck_of_the_wrong_size_names_the_deck_and_its_size():
    e = refused(lambda d: card(d, "forced-march").update(copies=4))
    assert where(e) == ("cards.yaml", "deck 'rule'", "copies") and "24" in e.message and "25" in e.message


def test_an_effect_card_without_a_trigger_and_another_card_with_one_are_refused():
    e = refused(lambda d: card(d, "spike-pit-trap").pop("trigger"))
    assert where(e) == ("cards.yaml", "card 'spike-pit-trap'", "trigger") and "needs" in e.message
    e = refused(lambda d: card(d, "ambush").update(trigger="attacked"))
    assert where(e) == ("cards.yaml", "card 'ambush'", "trigger") and "an order" in e.message


def test_a_heroic_item_changes_only_its_heros_statistics():
    e = refused(lambda d: card(d, "aegis-of-dawn")["effects"][0].update(unit="cavalry"))
    assert where(e) == ("cards.yaml", "card 'aegis-of-dawn'", "effects[0].unit") and "unit: hero" in e.message
    e = refused(lambda d: card(d, "starbow")["effects"].append({"draw": 1}))
    assert where(e) == ("cards.yaml", "card 'starbow'", "effects[2].draw") and "stat" in e.message


@pytest.mark.parametrize("key, effect, field, words", [
    ("ambush", {"trap": 1}, "effects[0].trap", "not for an order"),
    ("blinding-mist", {"power": 2}, "effects[0].power", "negative"),
    ("battle-cry", {"power": -1}, "effects[0].power", "1 or more"),
    ("master-masons", {"stat": 0, "unit": "infantry", "what": "attack"}, "effects[0].stat", "other than 0"),
    ("call-to-arms", {"deploy": 2, "unit": "any"}, "effects[0].where", "needs where"),
    ("call-to-arms", {"deploy": 2, "unit": "hero", "where": "forces"}, "effects[0].unit", "not 'hero'"),
    ("raise-walls", {"build": 1, "what": "palace"}, "effects[0].what", "outpost, walls, temple"),
    ("second-wave", {"attacks": 1, "where": "forces"}, "effects[0].where", "takes no"),
    ("second-wave", {"attacks": 1, "power": 1}, "effects[0]", "attacks and power"),
    ("second-wave", {"unit": "any"}, "effects[0]", "none"),
    ("great-library", {"produce": 1, "what": "walls"}, "effects[0].what", "cards, units"),
    ("forced-march", {"moves": 9}, "effects[0].moves", "maximum"),
])
def test_an_effect_the_vocabulary_does_not_allow_names_its_field(key, effect, field, words):
    e = refused(lambda d: card(d, key).update(effects=[effect]))
    assert where(e) == ("cards.yaml", f"card {key!r}", field) and words in e.message


def test_a_heros_ability_takes_only_lasting_effects():
    e = refused(lambda d: d["heroes.yaml"]["heroes"][2]["ability"].update(effects=[{"draw": 1}]))
    assert where(e) == ("heroes.yaml", "hero 'brannoc'", "ability.effects[0].draw") and "hero's ability" in e.message
    e = refused(lambda d: d["heroes.yaml"]["heroes"][0].update(attack="strong"))
    assert where(e) == ("heroes.yaml", "hero 'aldric'", "attack") and "integer" in e.message
    e = refused(lambda d: d["heroes.yaml"]["heroes"][1].pop("range"))
    assert where(e) == ("heroes.yaml", "hero 'seren'", "range") and "required" in e.message


def test_counts_keys_and_names_are_checked():
    e = refused(lambda d: d["tiles.yaml"]["tiles"].pop())
    assert where(e) == ("tiles.yaml", None, "tiles") and "15" in e.message and "14" in e.message
    e = refused(lambda d: d["heroes.yaml"]["heroes"].pop())
    assert where(e) == ("heroes.yaml", None, "heroes") and "5" in e.message
    e = refused(lambda d: d["tiles.yaml"]["tiles"][4].update(key="16"))
    assert where(e) == ("tiles.yaml", "tile '16'", "key") and "in order" in e.message
    e = refused(lambda d: d["tiles.yaml"]["tiles"][2].update(terrains=["plains", "lava", "forest"]))
    assert where(e) == ("tiles.yaml", "tile '3'", "terrains[1]")
    e = refused(lambda d: card(d, "night-raid").update(key="ambush"))
    assert where(e) == ("cards.yaml", "card 'ambush'", "key") and "earlier card" in e.message
    e = refused(lambda d: card(d, "night-raid").update(name="Ambush"))
    assert where(e) == ("cards.yaml", "card 'night-raid'", "name")
    e = refused(lambda d: card(d, "night-raid").update(deck="plunder"))
    assert where(e) == ("cards.yaml", "card 'night-raid'", "deck")
    e = refused(lambda d: d["catalog.yaml"].pop("notice"))
    assert where(e) == ("catalog.yaml", None, "notice")
    e = refused(lambda d: d.update({"cards.yaml": None}))
    assert where(e) == ("cards.yaml", None, None) and "object" in e.message


def test_a_file_that_is_not_yaml_is_refused_naming_it(tmp_path):
    (tmp_path / "cards.yaml").write_text("cards: [{key: ambush, name: [unclosed\n", encoding="utf-8")
    with pytest.raises(CatalogError) as e:
        check_path(tmp_path / "cards.yaml", "1")
    assert where(e.value) == ("cards.yaml", None, None) and "cannot be read" in e.value.message


# --- an organiser's files ---

def test_check_path_takes_a_folder_or_one_file_in_place_of_the_versions_own(tmp_path):
    d = docs()
    d["tiles.yaml"]["tiles"][0]["name"] = "Our Own Vale"
    for f, doc in d.items():
        (tmp_path / f).write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    said = check_path(tmp_path, "1")
    assert said.startswith("catalog 1: 15 tiles, 5 heroes; conquest 15 cards (31 with copies)")
    said = check_path(tmp_path / "tiles.yaml", "1")
    assert said.startswith("tiles.yaml: valid in place of catalog 1's own; with it, catalog 1: 15 tiles")
    card(d, "ambush").update(copies=5)
    (tmp_path / "cards.yaml").write_text(yaml.safe_dump(d["cards.yaml"]), encoding="utf-8")
    with pytest.raises(CatalogError) as e:
        check_path(tmp_path / "cards.yaml", "1")
    assert where(e.value) == ("cards.yaml", "deck 'conquest'", "copies")
    with pytest.raises(CatalogError, match="one of catalog.yaml, tiles.yaml"):
        check_path(tmp_path / "decks.yaml", "1")
    with pytest.raises(KeyError, match="no Elysian Battlefields catalog version '7'"):
        check_path(tmp_path / "tiles.yaml", "7")
