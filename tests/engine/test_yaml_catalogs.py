"""What every catalog kept as folders of YAML files (engine/catalog_files.py) does alike, checked for
each game that keeps one: an unknown version refused in words, versions in order, a folder holding
the version it says, and a schema whose every field has a title and a description."""

from __future__ import annotations

import json
import shutil

import pytest
from jsonschema import Draft202012Validator

from engine.catalog_files import CatalogError
from engine.elysian import catalog as elysian_catalog
from engine.steam import catalog as steam_catalog

CATALOGS = pytest.mark.parametrize("catalog", [elysian_catalog, steam_catalog], ids=["elysian", "steam"])


@CATALOGS
def test_an_unknown_version_is_a_key_error_in_words(catalog):
    with pytest.raises(KeyError, match=f"there is no {catalog.GAME} catalog version 'nope'; the versions are 1"):
        catalog.load("nope")
    for sneaky in ("../1", ".", "", "1/", "1\\x"):
        with pytest.raises(KeyError):
            catalog.load(sneaky)


@CATALOGS
def test_versions_are_ordered_oldest_first_and_a_folder_holds_the_version_it_says(catalog, tmp_path, monkeypatch):
    assert catalog.versions() == ["1"]
    shutil.copy(catalog.DATA / "catalog.schema.json", tmp_path)
    for v in ("9", "10", "1", "2", "2.1"):
        shutil.copytree(catalog.DATA / "catalog" / "1", tmp_path / "catalog" / v)
    monkeypatch.setattr(catalog, "DATA", tmp_path)
    assert catalog.versions() == ["1", "2", "2.1", "9", "10"]
    with pytest.raises(CatalogError) as e:
        catalog.load("10")
    assert (e.value.file, e.value.item, e.value.field) == ("catalog.yaml", None, "version") and "'1'" in e.value.message


@CATALOGS
def test_the_schema_is_valid_and_every_field_has_a_title_and_a_description(catalog):
    schema = json.loads((catalog.DATA / "catalog.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    seen: set[str] = set()

    def described(node: dict) -> dict:
        return schema["$defs"][node["$ref"].rsplit("/", 1)[1]] if "$ref" in node else node

    def fields(node: dict, path: str):
        if "$ref" in node:
            if node["$ref"] in seen:  # a definition that holds itself (effects in effects) is walked once
                return
            seen.add(node["$ref"])
        node = described(node)
        for name, sub in node.get("properties", {}).items():
            yield f"{path}.{name}", described(sub)
            yield from fields(sub, f"{path}.{name}")
        for part in ("items", "additionalProperties"):
            if isinstance(node.get(part), dict):
                yield f"{path}[]", described(node[part])
                yield from fields(node[part], f"{path}[]")
        for i, sub in enumerate(node.get("oneOf", [])):
            yield f"{path}|{i}", sub

    found = list(fields(schema, ""))
    assert len(found) > 40
    assert [p for p, f in found if not (f.get("title") and f.get("description"))] == []
