"""Battle for Empyrean's parts of a game log: its setup, checkpoints and claimed result as values,
the checks across fields a schema cannot express, and its lines' canonical order. engine.log reads
and writes the envelope every game shares and calls these for the rest (the schema of these parts:
``data/log-v1.schema.json`` beside this module)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..log import field_at, is_whole, quoted
from .decisions import CHANCE, UNSEEN_NAME
from .game import BATTLEFIELDS, ROUNDS

PLAYERS = {f"{n}p": n for n in ROUNDS}  # setup.mode -> number of players


@dataclass(frozen=True)
class DeckRef:
    """A player's deck: a premade deck by name (``cards`` is None) or a mash-up deck's 24 cards."""

    name: str
    cards: tuple[str, ...] | None = None

    @property
    def premade(self) -> bool:
        return self.cards is None


@dataclass(frozen=True)
class Setup:
    mode: str  # "2p" or "3p"
    players: int  # 2 or 3, from the mode
    decks: tuple[DeckRef, ...]  # one per player, seat order
    battlefields: tuple[str, ...]  # B1, B2, ... in order
    first_player: int | None = None  # None: seeded chance decides




@dataclass(frozen=True)
class Checkpoint:
    round: int
    might: tuple[tuple[int, ...], ...]  # [player][battlefield]


@dataclass(frozen=True)
class Result:
    winner: int | None  # None: a draw
    might: tuple[tuple[int, ...], ...] | None = None
    reason: str | None = None  # "score", "concession" or "time"; None: not stated
    time_rule: str | None = None  # with reason "time": how the stopped game is scored




def _might_shape(table: Any, path: list, players: int | None, bfs: int | None, label: str) -> list:
    out: list[tuple[list, str]] = []
    if not isinstance(table, list):
        return out
    if players is not None and len(table) != players:
        out.append((path, f"{label} must have one row per player ({players}); found {len(table)} rows"))
    if bfs is not None:
        for j, row in enumerate(table):
            if isinstance(row, list) and len(row) != bfs:
                out.append((path + [j], f"each row of {label} must have one number per battlefield ({bfs}); "
                            f"found {len(row)}"))
    return out


def line_problems(log: dict, decoded: list, texts: list[str]) -> list[tuple[list, str]]:
    out: list[tuple[list, str]] = []
    mode = field_at(log, "setup", "mode")
    players = PLAYERS.get(mode) if isinstance(mode, str) else None
    bfs_list = field_at(log, "setup", "battlefields")
    nbf = BATTLEFIELDS[players] if players else None
    decks = field_at(log, "setup", "decks")
    if players and isinstance(decks, list) and len(decks) != players:
        out.append((["setup", "decks"], f"a {players}-player game ({quoted(mode)}) has exactly {players} decks, "
                    f"one per player; found {len(decks)}"))
    if players and isinstance(bfs_list, list) and len(bfs_list) != nbf:
        out.append((["setup", "battlefields"], f"a {players}-player game ({quoted(mode)}) is played on {nbf} "
                    f"battlefields; found {len(bfs_list)}"))
    first = field_at(log, "setup", "first_player")
    if players and is_whole(first) and first > players:
        out.append((["setup", "first_player"], f"there is no player {first} in a {players}-player game"))
    names = field_at(log, "meta", "players")
    if players and isinstance(names, list) and len(names) != players:
        out.append((["meta", "players"], f"a {players}-player game needs {players} player names; "
                    f"found {len(names)}"))
    checkpoints = field_at(log, "checkpoints")
    if isinstance(checkpoints, list):
        last = 0
        for i, cp in enumerate(checkpoints):
            r = field_at(cp, "round")
            if is_whole(r):
                if players and r > ROUNDS[players]:
                    out.append((["checkpoints", i, "round"], f"a {players}-player game has {ROUNDS[players]} "
                                f"rounds; there is no round {r}"))
                elif r <= last:
                    out.append((["checkpoints", i, "round"], f"the checkpoint for round {r} comes after the one "
                                f"for round {last}; list checkpoints in round order, each round once"))
                last = max(last, r)
            out += _might_shape(field_at(cp, "might"), ["checkpoints", i, "might"], players, nbf, "the might table")
    winner = field_at(log, "result", "winner")
    if players and is_whole(winner) and winner > players:
        out.append((["result", "winner"], f"there is no player {winner} in a {players}-player game"))
    out += _might_shape(field_at(log, "result", "might"), ["result", "might"], players, nbf, "the might table")
    seeded = field_at(log, "chance", "type") == "seeded"
    view = field_at(log, "chance", "view")
    if players and is_whole(view) and view > players:
        out.append((["chance", "view"], f"there is no player {view} in a {players}-player game to write the log "
                    "from"))
    actors = {d[1].actor for d in decoded}
    unseen = seeded and "?" in "".join(texts)  # (one string search: most logs are seeded and have none)
    if CHANCE in actors or players == 2 and 3 in actors or unseen:  # else nothing to look at closely
        for i, d in decoded:
            who = max(d.actor, d.player or 0)
            if d.actor == CHANCE and seeded:
                out.append((["decisions", i], "in a log with seeded chance the draws come from the seed and are "
                            "not written; \"C draw\" lines belong in logs with recorded chance"))
            elif seeded and d.card == UNSEEN_NAME:
                out.append((["decisions", i], "in a log with seeded chance every card is known; '?' (a card "
                            "nobody saw) belongs in logs with recorded chance"))
            elif players and who > players:
                out.append((["decisions", i], f"there is no player {who} in a {players}-player game"))
    return out



def _table(rows: list) -> tuple[tuple[int, ...], ...]:
    return tuple(map(tuple, rows))


def read_parts(v: dict) -> tuple[Setup, tuple[Checkpoint, ...], Result | None]:
    """The setup, checkpoints and result of a log that passed every check."""
    s = v["setup"]
    decks = tuple(DeckRef(d) if isinstance(d, str) else DeckRef(d["name"], tuple(d["cards"])) for d in s["decks"])
    setup = Setup(s["mode"], PLAYERS[s["mode"]], decks, tuple(s["battlefields"]), s.get("first_player"))
    checkpoints = tuple(Checkpoint(cp["round"], _table(cp["might"])) for cp in v.get("checkpoints", ()))
    r = v.get("result")
    result = None if r is None else Result(r["winner"], _table(r["might"]) if "might" in r else None,
                                           r.get("reason"), r.get("time_rule"))
    return setup, checkpoints, result


def dump_setup(setup: Setup) -> dict[str, Any]:
    out: dict[str, Any] = {
        "mode": setup.mode,
        "decks": [d.name if d.cards is None else {"name": d.name, "cards": list(d.cards)} for d in setup.decks],
        "battlefields": list(setup.battlefields),
    }
    if setup.first_player is not None:
        out["first_player"] = setup.first_player
    return out


def dump_checkpoint(c: Checkpoint) -> dict[str, Any]:
    return {"round": c.round, "might": [list(r) for r in c.might]}


def dump_result(result: Result) -> dict[str, Any]:
    out: dict[str, Any] = {"winner": result.winner}
    if result.might is not None:
        out["might"] = [list(r) for r in result.might]
    if result.reason is not None:
        out["reason"] = result.reason
    if result.time_rule is not None:
        out["time_rule"] = result.time_rule
    return out


def canonical_lines(lines: tuple[str, ...] | list[str]) -> list[str]:
    """The decision lines with each run of consecutive draws and keeps put in player order, each
    player's own lines keeping theirs. Draws and keeps in a row may be written in any player order
    (the draft is simultaneous), so every such writing of one game has the same canonical form."""
    out = list(lines)
    i, n = 0, len(out)
    while i < n:
        j = i
        while j < n and _is_draw_or_keep(out[j]):
            j += 1
        if j - i > 1:
            out[i:j] = sorted(out[i:j], key=_seat)  # sorted() is stable: each player's order stays
        i = max(j, i + 1)
    return out


def _is_draw_or_keep(line: str) -> bool:
    return line.startswith("C draw ") or line[2:8] == " keep "


def _seat(line: str) -> str:
    return line[7:9] if line.startswith("C draw ") else line[:2]

