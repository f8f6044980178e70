"""The games the engine knows: each game's description, and the registry keyed on a log's ``game``.

A game is a package of its own (``engine/bfe/`` …) that declares its facts once, at the top of its
rules module, as a ``GameInfo``, and offers one rules object (``engine.bfe.rules.RULES``) that the
shared machinery — the log envelope, replay and verdicts, positions, the timeline, seat views —
calls for everything particular to the game. What a rules object must offer, and how the later
games' needs (dice, ranks and teams, reaction windows, late decisions, shared pools) fit, is
written down in docs/adding-a-game.md.

A log with no ``game`` field is Battle for Empyrean (``DEFAULT_GAME``): every log stored before
games had keys keeps its meaning and its content hash. The games the engine ships are registered
by key and imported when first asked for; ``register`` adds another (a test game, an organiser's
own) for the life of the process — the engine itself reads no settings.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, Sequence, runtime_checkable

CHANCE = 0  # the actor number of the chance player, in every game
DEFAULT_GAME = "bfe"  # what a log without a "game" field is
KEY_PATTERN = "^[a-z][a-z0-9_]{0,15}$"  # how a game's key is written (the log's "game", URLs, the database)


class OutcomeKind(StrEnum):
    """What the end of a game says of each seat: one winner (or a draw), or a rank per seat (ties
    share a rank) with a score."""

    WINNER = "winner"
    RANKS = "ranks"


@dataclass(frozen=True)
class GameInfo:
    """A game's facts, declared once at the top of its rules module.

    ``chance_kinds``: the verbs of the chance player's lines ("draw", "roll", "deal");
    ``any_order``: the verbs whose runs of lines may be written in any player order (simultaneous
    choices); ``owner_only``: the verbs whose answer only the deciding seat sees (written '?' in
    another seat's view); ``faction``: what a seat plays as, in words ("deck", "species", "hero",
    "company")."""

    key: str
    name: str
    min_players: int
    max_players: int
    chance_kinds: frozenset[str]
    any_order: frozenset[str]
    owner_only: frozenset[str]
    outcome: OutcomeKind
    faction: str
    teams: bool = False  # whether it may be played in teams (then a team game names every seat's team)

    def players_words(self) -> str:
        """"2–3 players", "2 players"."""
        if self.min_players == self.max_players:
            return f"{self.min_players} players"
        return f"{self.min_players}–{self.max_players} players"

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "min_players": self.min_players,
                "max_players": self.max_players, "outcome": self.outcome.value, "faction": self.faction,
                "teams": self.teams, "chance_kinds": sorted(self.chance_kinds),
                "any_order": sorted(self.any_order), "owner_only": sorted(self.owner_only)}


@dataclass(frozen=True)
class SeatOutcome:
    """One seat at the end of a game: its rank (1 is best; tied seats share one), its score in the
    game's own terms (BfE: battlefields won), whether it won, and its team (None: no teams)."""

    seat: int
    rank: int
    score: int | None
    won: bool
    team: int | None = None


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (``how``: the game's own end, such as "score", "concession",
    "time"; ``conceded_by``: who conceded) and each seat's place; ``winner`` is the one winning
    seat, or None (a draw, or a game decided by ranks with a tie at the top)."""

    how: str
    seats: tuple[SeatOutcome, ...]
    conceded_by: int | None = None  # the seat that conceded, when the game ended so

    @property
    def winner(self) -> int | None:
        won = [s.seat for s in self.seats if s.won]
        return won[0] if len(won) == 1 else None


@runtime_checkable
class GameState(Protocol):
    """What the shared machinery asks of a game in progress (engine.reader, engine.replay,
    engine.position, engine.seats, the bots). A decision point (``pending``) has ``player`` (0:
    chance), ``seat`` (whom it is about), ``kind`` (an enum whose ``value`` says it in words and
    whose ``verbs`` are the verbs of its answers), ``prompt`` and ``default`` (the answer a log may
    leave out, or None). A decision has ``actor``, ``verb`` and ``seat``."""

    n: int  # players
    pending: Any  # the decision point waited at; None once the game is over
    auto: list  # the answers the engine took itself (one legal answer), in order
    over: bool
    conceded_by: int | None
    trace: list | None  # with trace=True at set-up: every answer, forced or not (engine.seats)

    def legal_decisions(self) -> Any: ...  # the legal answers at ``pending``
    def check(self, d: Any) -> str | None: ...  # the rule ``d`` breaks there, in words; None: legal
    def answer(self, d: Any) -> None: ...  # play ``d`` (checked) and run to the next decision point
    def take_default(self) -> Any: ...  # take ``pending.default``, the answer a log may leave out
    def concede(self, seat: int) -> None: ...
    def unseen(self) -> list[int]: ...  # per seat: cards that left sight unseen and stayed so
    def clone(self) -> GameState: ...  # a copy to try answers on (bots)


@runtime_checkable
class Rules(Protocol):
    """One game behind the interface: its description and everything the shared machinery asks
    of it. docs/adding-a-game.md says what each member is for, in the order a new game builds them,
    with the test game (tests/games/pips.py) as the worked example."""

    info: GameInfo
    bots: tuple[str, ...]
    any_order_kinds: frozenset  # the kinds of decision point whose lines may come in any player order

    # the log: the game's parts of the schema, its lines, the checks across fields, its values
    def log_schema_part(self) -> dict: ...
    def parse_line(self, text: str) -> Any: ...  # ValueError, in words, for a line that does not read
    def format_line(self, d: Any) -> str: ...
    def line_problems(self, value: dict, decoded: list, texts: list[str]) -> list[tuple[list, str]]: ...
    # setup (with ``players``, the number of seats), checkpoints, result
    def read_log_parts(self, value: dict) -> tuple[Any, tuple, Any]: ...
    def dump_setup(self, setup: Any) -> dict: ...
    def dump_checkpoint(self, checkpoint: Any) -> dict: ...
    def dump_result(self, result: Any) -> dict: ...
    def canonical_lines(self, lines: Sequence[str]) -> list[str]: ...

    # replay and the verdict
    def new_game(self, log: Any, catalog: Any = None, observers: Any = None, *, trace: bool = False) -> Any: ...
    def record_builder(self) -> Any: ...  # an observer whose ``record`` the statistics read, or None
    def checkpoint_check(self, log: Any) -> Any: ...  # an observer checking the log's checkpoints, or None
    def setup_illegality(self, log: Any, g: Any) -> dict | None: ...
    def end_as_claimed(self, log: Any, g: Any) -> None: ...  # time called, when the log's result says so
    def claim_mismatches(self, log: Any, g: Any, names: list[str], check: Any) -> list[dict]: ...
    def result_words(self, g: Any, names: list[str]) -> str: ...
    def describe(self, g: Any) -> str: ...  # the board in words, for a verdict
    def where(self, g: Any) -> tuple[int, str]: ...  # round (or turn) and phase
    def where_words(self, g: Any) -> str: ...
    def outcome(self, g: Any) -> Outcome | None: ...
    def factions(self, log: Any) -> list[str]: ...

    # reading lines (engine.reader)
    def answer_of(self, entry: Any) -> Any: ...  # an entry of ``auto`` as a decision
    def seat_of(self, d: Any) -> int: ...
    def writes_down(self, d: Any, q: Any) -> bool: ...  # line ``d`` writes answer ``q`` (or its '?' form)
    def aims(self, d: Any, pend: Any) -> bool: ...  # ``d`` is written as an answer to ``pend``
    def verbs_like(self, d: Any) -> frozenset[str]: ...
    def found_nothing(self, d: Any) -> bool: ...

    # the board and counts (the viewer, the recorders)
    def seats(self, log: Any) -> list[dict]: ...
    def layout(self, g: Any) -> list[dict]: ...
    def frame(self, g: Any, index: int, decision: str | None, line: int | None = None) -> dict: ...
    def tallies(self, g: Any) -> list: ...  # each seat's running counts (dataclasses or dicts)
    def tally_columns(self, tallies: list) -> dict[str, list]: ...  # the same by kind, for the positions API
    def game_outcome(self, g: Any) -> Any: ...
    def deploys_before_seat(self, g: Any) -> list[int]: ...
    def concede_line(self, seat: int) -> str: ...

    # seat views (engine.seats)
    def as_seen(self, entry: Any, hidden: bool, omit: bool, catalog: Any) -> Any: ...
    def is_private(self, entry: Any) -> bool: ...
    def is_unseen(self, d: Any) -> bool: ...
    def is_drawn(self, entry: Any) -> bool: ...
    def trace_observer(self) -> Any: ...

    # its content (cards, species, maps) as versioned data: the catalog API, ``empyrean cards``
    def catalog_versions(self) -> list[str]: ...  # oldest first; the last is the default
    def catalog_data(self, version: str) -> dict: ...  # JSON-ready, with "version" and "notice"; KeyError: none such
    # an organiser's catalog files (a folder, or a file of one) checked against catalog ``version``: a line
    # saying what they hold, or a ValueError naming the file, the item and the field (``empyrean catalog check``)
    def check_catalog(self, path: str, version: str) -> str: ...

    # self-play (bots, the simulator, the conformance suite)
    def self_play(self, seed: int, *, bot: str = "random", players: int = 2, checkpoints: bool = False,
                  factions: list[str] | None = None, meta: dict | None = None,
                  catalog: str | None = None) -> dict: ...  # catalog: a version (None: the default)
    def faction_choices(self, catalog: str | None = None) -> list[str]: ...  # what a seat may play as
    def misclaimed_result(self, result: dict) -> dict: ...  # a log's result claiming another seat won


def another_winner(result: dict) -> dict:
    """A two-player game's result as a player claiming wrongly writes it: the other seat won (seat 1,
    after a draw); what ``misclaimed_result`` is for a game whose result is ``{"winner": n}``."""
    winner = result.get("winner")
    return {"winner": 3 - winner if winner in (1, 2) else 1}


def another_first(result: dict) -> dict:
    """A ranked game's result as a player claiming wrongly writes it: seat 1 ranked otherwise (first
    if it was not, second if it was); what ``misclaimed_result`` is for a result of ``{"ranks": […]}``."""
    ranks = list(result["ranks"])
    ranks[0] = 2 if ranks[0] == 1 else 1
    return {**result, "ranks": ranks}


def rules_members() -> list[str]:
    """Every member a rules object must have (``Rules``'s attributes and methods)."""
    return sorted(set(Rules.__annotations__) | {n for n in vars(Rules) if not n.startswith("_")})


# The games this engine ships, by key: the module holding each one's RULES (imported when first
# asked for, so that reading a Battle for Empyrean log imports no other game).
_SHIPPED = {"bfe": "engine.bfe.rules", "titans": "engine.titans.rules", "elysian": "engine.elysian.rules",
            "steam": "engine.steam.rules"}
_rules: dict[str, Any] = {}


def register(rules: Rules) -> None:
    """Add a game (its rules object, whose ``info.key`` names it) for the life of the process."""
    if not isinstance(rules, Rules):
        missing = sorted(name for name in rules_members() if not hasattr(rules, name))
        raise TypeError(f"{type(rules).__name__} is not a game's rules object: it lacks {', '.join(missing)}")
    key = rules.info.key
    if key in _SHIPPED and _SHIPPED[key] != type(rules).__module__:
        raise ValueError(f"{key!r} is the key of a game the engine ships")
    _rules[key] = rules


def unregister(key: str) -> None:
    """Forget a game added by ``register`` (the shipped games stay)."""
    if key not in _SHIPPED:
        _rules.pop(key, None)


def keys() -> list[str]:
    """Every known game's key: the shipped ones first, in the order they were added, then the others."""
    return list(_SHIPPED) + sorted(k for k in _rules if k not in _SHIPPED)


def is_known(key: object) -> bool:
    return isinstance(key, str) and (key in _SHIPPED or key in _rules)


def rules_for(key: str) -> Any:
    """The rules object of game ``key``; KeyError (saying which games there are) if unknown."""
    found = _rules.get(key)
    if found is not None:
        return found
    module = _SHIPPED.get(key)
    if module is None:
        raise KeyError(unknown_game_words(key))
    found = importlib.import_module(module).RULES
    _rules[key] = found
    return found


def info(key: str) -> GameInfo:
    return rules_for(key).info  # type: ignore[no-any-return]


def known() -> list[GameInfo]:
    """Every known game's description, in the order of ``keys()``."""
    return [info(k) for k in keys()]


def unknown_game_words(key: object) -> str:
    """"unknown game 'nope'; the games known here are bfe (Battle for Empyrean), …"."""
    said = repr(key) if isinstance(key, str) else f"of type {type(key).__name__}"
    named = ", ".join(f"{k} ({_name(k)})" for k in keys())
    return f"unknown game {said}; the games known here are {named}"


def _name(key: str) -> str:
    try:
        return info(key).name
    except Exception:  # a game that fails to load still has its key said
        return key
