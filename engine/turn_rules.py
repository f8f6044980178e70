"""What the rules objects of games played one decision at a time share (Titans of Empyrean, Elysian
Battlefields): lines that are named tuples with an ``actor`` (0: chance) and a ``verb``, decision
kinds (an enum whose members have ``verbs``), no checkpoints, no lines in any player order, no
"choose nothing" answers, a concession written ``Pn concede``, and content in catalog versions of the
game's own ``catalog`` module. A game subclasses ``TurnRules`` and sets ``package`` (its package,
whose ``data/`` holds its schema part), ``kinds`` and ``catalog`` (its catalog module: ``versions``,
``load``, ``catalog_data``, ``check_path``, ``DEFAULT_VERSION``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, Sequence

from .log import GameLog, read_schema_file


class Answer:
    """One answer of a game's trace (engine.seats): what was asked and the line that answered, and
    how it came ("line", "forced", "default", "seed")."""

    __slots__ = ("kind", "seat", "decision", "how", "prompt", "round")

    def __init__(self, kind: Any, seat: int, decision: Any, how: str, prompt: str, round: int) -> None:
        self.kind, self.seat, self.decision, self.how = kind, seat, decision, how
        self.prompt, self.round = prompt, round


class TurnRules:
    package: ClassVar[str]
    kinds: ClassVar[Any]
    catalog: ClassVar[Any]
    any_order_kinds: frozenset = frozenset()

    def log_schema_part(self) -> dict:
        return read_schema_file(self.package)

    @staticmethod
    def dump_checkpoint(checkpoint: Any) -> dict:  # pragma: no cover - these games' logs have no checkpoints
        raise TypeError("this game's logs have no checkpoints")

    @staticmethod
    def canonical_lines(lines: Sequence[str]) -> list[str]:
        return list(lines)  # no lines come in any order

    def checkpoint_check(self, log: GameLog) -> None:
        return None

    def setup_illegality(self, log: GameLog, g: Any) -> None:
        return None  # every setup that reads (new_game) is a legal one

    # reading lines (engine.reader)
    @staticmethod
    def answer_of(entry: Any) -> Any:
        return entry

    @staticmethod
    def seat_of(d: Any) -> int:
        return int(d.actor)

    @staticmethod
    def aims(d: Any, pend: Any) -> bool:
        return bool(d.actor == pend.player and d.verb in pend.kind.verbs)

    def verbs_like(self, d: Any) -> frozenset[str]:
        return next((k.verbs for k in self.kinds if d.verb in k.verbs), frozenset({d.verb}))

    @staticmethod
    def found_nothing(d: Any) -> bool:
        return False

    @staticmethod
    def deploys_before_seat(g: Any) -> list:
        return []

    @staticmethod
    def concede_line(seat: int) -> str:
        return f"P{seat} concede"

    @staticmethod
    def is_drawn(entry: Any) -> bool:
        return bool(entry.how == "seed")  # chance the seed decided

    @staticmethod
    def trace_observer() -> None:
        return None

    # seat views: by default every line is public (a game with lines only their owner sees overrides these)
    @staticmethod
    def as_seen(entry: Any, hidden: bool, omit: bool, catalog: Any) -> Any:
        return entry.decision

    @staticmethod
    def is_private(entry: Any) -> bool:
        return False

    @staticmethod
    def is_unseen(d: Any) -> bool:
        return False

    # content
    def catalog_versions(self) -> list[str]:
        return list(self.catalog.versions())

    def catalog_data(self, version: str) -> dict:
        return dict(self.catalog.catalog_data(self.catalog.load(version)))

    def check_catalog(self, path: str, version: str) -> str:
        """An organiser's catalog folder, or one of its files in place of catalog ``version``'s."""
        return str(self.catalog.check_path(Path(path), version))
