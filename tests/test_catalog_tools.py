"""The catalog as a reference (`empyrean cards`, `empyrean catalog check`, docs/catalog.md) and
the balance report's counting (`services.simulation.balance`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml
from click.testing import CliRunner

from engine.bfe.catalog import catalog_root, load_catalog
from services.cli import main as cli
from services.cli.catalog_ref import render_markdown
from services.simulation import balance

ROOT = Path(__file__).resolve().parent.parent


def test_docs_catalog_md_is_generated_from_the_current_data():
    """Regenerate with `empyrean catalog docs` when this fails."""
    assert (ROOT / "docs" / "catalog.md").read_text(encoding="utf-8") == render_markdown(load_catalog())


def test_catalog_md_lists_every_card_and_battlefield_with_its_text():
    cat = load_catalog()
    text = render_markdown(cat)
    for card in cat.cards.values():
        assert f"| {card.name.replace('|', chr(92) + '|')} | {card.cost} |" in text
    for bf in cat.battlefields.values():
        assert bf.name in text and bf.text[0].split()[0] in text


def test_cards_searches_names_types_and_text():
    runner = CliRunner()
    result = runner.invoke(cli, ["cards", "fountain", "janus"])
    assert result.exit_code == 0 and "The Fountain of Janus — battlefield" in result.output
    assert "Apply 1 extra might" in result.output
    result = runner.invoke(cli, ["cards", "Eater", "of", "Souls"])
    assert "Eater of Souls — Spectres of the Necropolis; cost" in result.output and "×2" in result.output
    assert runner.invoke(cli, ["cards", "no-such-thing-anywhere"]).exit_code == 1
    assert runner.invoke(cli, ["cards", "--catalog", "1900.1"]).exit_code == 2


def test_catalog_check_accepts_a_good_deck_and_names_file_card_and_field_of_a_bad_one(tmp_path):
    deck = yaml.safe_load((catalog_root() / "2026.1" / "decks" / "vampires.yaml").read_text())
    deck["deck"] = "Vampires Reprinted"
    for card in deck["cards"]:
        card["name"] = card["name"] + " (reprint)"
    good = tmp_path / "reprint.yaml"
    good.write_text(yaml.safe_dump(deck, sort_keys=False))
    runner = CliRunner()
    result = runner.invoke(cli, ["catalog", "check", str(good)])
    assert result.exit_code == 0 and "deck 'Vampires Reprinted' valid" in result.output

    deck["cards"][2]["effects"][0]["do"] = [{"explode": 3}]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(deck, sort_keys=False))
    result = runner.invoke(cli, ["catalog", "check", str(bad)])
    assert result.exit_code == 1
    assert f"bad.yaml, card '{deck['cards'][2]['name']}', field effects[0].do[0]" in result.output

    deck["cards"][2]["effects"][0]["do"] = [{"gain": 1}]
    deck["cards"][0]["name"] = "Mesmerist"  # a card of the catalog's own Vampires deck
    clash = tmp_path / "clash.yaml"
    clash.write_text(yaml.safe_dump(deck, sort_keys=False))
    result = runner.invoke(cli, ["catalog", "check", str(clash)])
    assert result.exit_code == 1 and "card 'Mesmerist', field name" in result.output


def test_catalog_check_reads_battlefield_files_and_whole_versions(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["catalog", "check", str(catalog_root() / "2026.1" / "battlefields.yaml"),
                                 str(catalog_root() / "2026.2")])
    assert result.exit_code == 0, result.output
    assert "battlefield(s) valid" in result.output and "catalog 2026.2:" in result.output
    broken = tmp_path / "battlefields.yaml"
    shutil.copy(catalog_root() / "2026.1" / "battlefields.yaml", broken)
    data = yaml.safe_load(broken.read_text())
    data["battlefields"][1]["zones"] = 12
    broken.write_text(yaml.safe_dump(data, sort_keys=False))
    result = runner.invoke(cli, ["catalog", "check", str(broken)])
    assert result.exit_code == 1
    assert f"battlefields.yaml, card '{data['battlefields'][1]['name']}', field zones" in result.output


def test_balance_counts_every_game_twice_once_per_deck_and_renders_a_row_per_deck():
    tallies = balance.run(40, bot="random", seed=3, jobs=1)
    assert sum(t.games for t in tallies.values()) == 80
    for t in tallies.values():
        assert t.wins + t.draws + t.losses == t.games
        assert sum(g for g, _ in t.against.values()) == t.games and t.deck not in t.against
    wins = sum(t.wins for t in tallies.values())
    draws = sum(t.draws for t in tallies.values())
    assert wins + draws // 2 == 40
    text = balance.render(tallies, games=40, bot="random", seed=3, catalog="2026.2", command="x", seconds=1)
    for deck in tallies:
        assert f"| {deck} | {tallies[deck].games} |" in text
    vampires = "Vampires of the Evernight"
    assert balance.run(40, bot="random", seed=3, jobs=1)[vampires] == tallies[vampires]


def test_every_battlefield_the_theme_map_names_is_in_the_catalog():
    import re

    from services.cli.catalog_ref import THEMES

    named = re.findall(r"— (The [A-Z][\w' ]+?|Hall of Gifts|Oasis of Plenty)(?=;|\.)", " ".join(THEMES.split()))
    assert len(named) == 17
    assert set(named) <= set(load_catalog().battlefields), set(named) - set(load_catalog().battlefields)


def test_catalog_check_names_a_folder_without_catalog_yaml_and_a_binary_file(tmp_path):
    (tmp_path / "empty").mkdir()
    binary = tmp_path / "deck.yaml"
    binary.write_bytes(b"\x00\xff\xfe")
    result = CliRunner().invoke(cli, ["catalog", "check", str(tmp_path / "empty"), str(binary)])
    assert result.exit_code == 1
    assert "error: catalog.yaml: cannot be read" in result.output
    assert "error: deck.yaml: not valid YAML" in result.output


# ------------------------------------------------------------------ another game's catalog: Titans (and Pips)
TITANS = ROOT / "engine" / "titans" / "data" / "catalog"


def test_docs_catalog_titans_md_is_generated_from_the_current_data():
    """Regenerate with `empyrean catalog --game titans docs` when this fails."""
    from engine import games
    from services.cli.catalog_ref import render_data_markdown

    rules = games.rules_for("titans")
    newest = rules.catalog_versions()[-1]  # the page shows the default catalog
    text = render_data_markdown(rules.info, rules.catalog_data(newest))
    assert (ROOT / "docs" / "catalog-titans.md").read_text(encoding="utf-8") == text
    for titan in rules.catalog_data(newest)["titans"]:
        assert f"| {titan['key']} | {titan['name']} | {titan['species']} |" in text
    assert "- entry_facings: [NE, NW], [SE, SW]" in text and text.startswith("# Catalog 2: Titans of Empyrean")


def test_docs_catalog_elysian_md_is_generated_from_the_current_data():
    """Regenerate with `empyrean catalog --game elysian docs` when this fails."""
    from engine import games
    from services.cli.catalog_ref import render_data_markdown

    rules = games.rules_for("elysian")
    data = rules.catalog_data(rules.catalog_versions()[-1])
    text = render_data_markdown(rules.info, data)
    assert (ROOT / "docs" / "catalog-elysian.md").read_text(encoding="utf-8") == text
    for card in data["cards"]:
        assert card["name"] in text and card["text"] in text
    assert "Spike Pit Trap" in text and text.startswith("# Catalog 1: Elysian Battlefields")



def test_docs_catalog_steam_md_is_generated_from_the_current_data():
    """Regenerate with `empyrean catalog --game steam docs` when this fails."""
    from engine import games
    from services.cli.catalog_ref import render_data_markdown

    rules = games.rules_for("steam")
    data = rules.catalog_data(rules.catalog_versions()[-1])
    text = render_data_markdown(rules.info, data)
    assert (ROOT / "docs" / "catalog-steam.md").read_text(encoding="utf-8") == text
    for kind in ("spellcars", "captains", "engineers", "surveyors", "station_masters", "awards"):
        for item in data[kind]:
            assert item["name"] in text and item["text"] in text
    assert "Hai of Noirwood" in text and text.startswith("# Catalog 1: Empyreal: Spells & Steam")


def test_cards_finds_a_steam_spellcar_by_its_name():
    found = CliRunner().invoke(cli, ["cards", "--game", "steam", "metro"])
    assert found.exit_code == 0, found.output
    assert found.stdout.startswith("Metro (spellcars) — key: metro; kind: unique;") and "next to a city" in found.stdout
    assert found.stderr.endswith("match(es) in catalog 1\n")

def test_catalog_docs_of_another_game_is_written_where_asked(tmp_path):
    out = tmp_path / "titans.md"
    result = CliRunner().invoke(cli, ["catalog", "--game", "titans", "docs", "--out", str(out)])
    assert result.exit_code == 0 and result.output == f"wrote {out}\n"
    assert out.read_text(encoding="utf-8") == (ROOT / "docs" / "catalog-titans.md").read_text(encoding="utf-8")
    bad = CliRunner().invoke(cli, ["catalog", "--game", "titans", "docs", "--catalog", "9", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown catalog version '9' of Titans of Empyrean; there are 1, 2" in bad.output


def test_catalog_check_of_titans_reads_a_folder_or_one_file_in_place_of_the_catalogs_own(tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(TITANS / "1", folder)
    good = CliRunner().invoke(cli, ["catalog", "--game", "titans", "check", "--catalog", "1", str(folder),
                                    str(folder / "species.yaml")])
    assert good.exit_code == 0, good.output
    assert "ok: catalog 1: 8 species, 32 titans, 39 maneuvers, 3 hazard layout(s)" in good.output
    assert "ok: species.yaml: valid in place of catalog 1's own; with it, catalog 1: 8 species" in good.output

    species = yaml.safe_load((folder / "species.yaml").read_text())
    titan = species["species"][0]["titans"][1]
    titan["stack"] = "tall"
    (folder / "species.yaml").write_text(yaml.safe_dump(species, sort_keys=False))
    (tmp_path / "notes.txt").write_text("not a catalog file")
    bad = CliRunner().invoke(cli, ["catalog", "--game", "titans", "check", str(folder), str(folder / "species.yaml"),
                                   str(tmp_path / "notes.txt")])
    assert bad.exit_code == 1
    assert bad.output.count(f"error: species.yaml, titan '{titan['key']}', field stack: 'tall' is not") == 2
    assert "error: notes.txt: a Titans catalog file is one of catalog.yaml, basic.yaml, species.yaml, board.yaml" \
        in bad.output
    unknown = CliRunner().invoke(cli, ["catalog", "--game", "titans", "check", "--catalog", "0", str(folder)])
    assert unknown.exit_code == 2 and "unknown catalog version '0' of Titans of Empyrean" in unknown.output


def test_catalog_check_of_a_game_without_catalog_files_says_so(tmp_path, monkeypatch):
    from engine import games

    monkeypatch.syspath_prepend(str(ROOT / "tests" / "games"))
    import pips

    games.register(pips.RULES)
    try:
        result = CliRunner().invoke(cli, ["catalog", "--game", "pips", "check", str(tmp_path)])
    finally:
        games.unregister(pips.KEY)
    assert result.exit_code == 1
    assert f"error: {tmp_path}: Pips (test game) has no catalog files to check" in result.output
