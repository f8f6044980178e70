"""What every game's catalog loader shares that keeps its content as folders of YAML files
(Titans of Empyrean, Elysian Battlefields): the error naming the file, the item and the field, the
files read, the versions in order, and an organiser's folder or single file checked against a
version's own. Each game keeps its own types, schema and compiling (``engine/<key>/catalog.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping, NoReturn

import yaml
from jsonschema import Draft202012Validator

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader when PyYAML has it


class CatalogError(ValueError):
    def __init__(self, file: str, item: str | None, field: str | None, message: str) -> None:
        where = file + (f", {item}" if item else "") + (f", field {field}" if field else "")
        super().__init__(f"{where}: {message}")
        self.file, self.item, self.field, self.message = file, item, field, message


def fail(file: str, item: str | None, field: str | None, message: str) -> NoReturn:
    raise CatalogError(file, item, field, message)


def validate(validator: Draft202012Validator, file: str, doc: Any, item_kinds: Mapping[str, str]) -> None:
    """A file's shape against its part of the schema (``properties[file]``); its first problem as a
    CatalogError naming the item (an entry of a list in ``item_kinds``, by its key: "card 'ambush'")
    and the field."""
    schema = validator.schema
    errors = sorted(validator.evolve(schema={**schema["properties"][file], "$defs": schema["$defs"]})
                    .iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return
    e = errors[0]
    item, path = _located(doc, list(e.absolute_path), item_kinds)
    message = e.message
    if e.validator == "additionalProperties":  # name the unknown field itself, and what is known there
        known = e.schema["properties"]
        unknown = sorted(str(k) for k in e.instance if k not in known)[0]
        path, message = path + [unknown], f"there is no field {unknown!r} here; the fields are {', '.join(known)}"
    elif e.validator == "required":  # name the missing field itself
        path = path + [next(k for k in e.validator_value if k not in e.instance)]
    elif e.validator == "oneOf" and all("const" in s for s in e.validator_value):  # a word of a described list
        message = f"{e.instance!r} is not one of {', '.join(str(s['const']) for s in e.validator_value)}"
    fail(file, item, _field_name(path), message)


def _located(doc: Any, path: list, item_kinds: Mapping[str, str]) -> tuple[str | None, list]:
    """The keyed item a schema error's path passes through ("card 'ambush'") and the path below it."""
    if len(path) >= 2 and path[0] in item_kinds and isinstance(path[1], int):
        entry = doc[path[0]][path[1]]
        key = entry.get("key") if isinstance(entry, dict) else None
        name = repr(key) if isinstance(key, str) else f"#{path[1] + 1}"
        return f"{item_kinds[path[0]]} {name}", path[2:]
    return None, path


def _field_name(path: list) -> str | None:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") or None


def read_files(folder: Path, names: tuple[str, ...]) -> dict[str, Any]:
    """The catalog files ``names`` of a folder, decoded (by file name); CatalogError for one that does
    not read."""
    docs = {}
    for file in names:
        try:
            docs[file] = yaml.load((folder / file).read_text(encoding="utf-8"), Loader=_LOADER)
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
            fail(file, None, None, f"cannot be read: {e}")
    return docs


def versions(folder: Path) -> list[str]:
    """The version folders in ``folder``, oldest first (numbers by value: 10 comes after 9)."""
    return sorted((p.name for p in folder.iterdir() if p.is_dir()), key=_version_order)


def _version_order(version: str) -> list[tuple[int, int | str]]:
    return [(0, int(p)) if p.isdigit() else (1, p) for p in version.replace("-", ".").split(".")]


def check_path(path: Path, version_folder: Path, files: tuple[str, ...], game: str,
               compile_docs: Callable[[dict[str, Any]], Any]) -> tuple[Any, str]:
    """An organiser's catalog: a folder of ``files``, or one of them (by its name) put in place of that
    file of the version in ``version_folder``; the compiled catalog and the words to begin its
    summary with, or CatalogError naming the file, the item and the field."""
    if path.is_dir():
        return compile_docs(read_files(path, files)), ""
    if path.name in files:
        docs = {**read_files(version_folder, files), **read_files(path.parent, (path.name,))}
        return compile_docs(docs), f"{path.name}: valid in place of catalog {version_folder.name}'s own; with it, "
    fail(path.name, None, None, f"a {game} catalog file is one of {', '.join(files)}, or a folder of them")
