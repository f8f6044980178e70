"""``empyrean record --game KEY`` for a game other than Battle for Empyrean: the terminal's lines mode.

Like the web recorder's lines mode (dashboards/static/record_lines.js, docs/recording.md) it knows
nothing of the game but what the engine says of every game. The setup is asked field by field from
the game's log schema, read by the same reader that draws the web form (services/games/setup_form.py):
a choice from a list by its number or its name, a whole number, a text, a yes/no, one field per seat
for what each seat has. A setup with parts that reader does not draw (Titans' squads) is asked as
the log writes it, JSON on one line, an empty line taking the setup the game's own self-play writes;
``--setup JSON|@FILE`` gives it without asking. The play is services.cli.record's loop: each step
shows the round and phase, each seat's counts (the game's tallies), what the engine applied by
itself, who decides, and every legal line, numbered and grouped by its verb; a point the log may
leave out after its last line (a default: Spells & Steam's pick put off, Elysian's reaction not made)
is said, so that its line can be typed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import click

from services.cli.record import Recorder

HELP = """  a number      take that answer
  a line        write that decision as the log writes it, e.g. 'P1 play 3'
  u             undo the last decision
  b             show the game as the engine sees it (its frame of the moment)
  concede N     player N concedes: the game ends here
  q             save and quit (go on later with --resume)
  h             this help"""


def read_setup_option(value: str) -> dict:
    """``--setup``: the setup as a log writes it, JSON text or ``@FILE`` holding it."""
    text = value
    if value.startswith("@"):
        try:
            text = Path(value[1:]).read_text(encoding="utf-8")
        except OSError as exc:
            raise click.BadParameter(f"cannot read {value[1:]}: {exc.strerror}", param_hint="--setup") from None
    try:
        setup = json.loads(text)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON that reads: {exc}", param_hint="--setup") from None
    if not isinstance(setup, dict):
        raise click.BadParameter("the setup is a JSON object, as a log's \"setup\"", param_hint="--setup")
    return setup


def seat_count(info: Any, names: list[str], ask: Callable[[], str], echo) -> int:
    """How many play: the game's one number, the players named, or asked."""
    if info.min_players == info.max_players:
        return info.max_players  # type: ignore[no-any-return]
    if names:
        if not info.min_players <= len(names) <= info.max_players:
            raise click.BadParameter(f"{len(names)} players named; {info.name} is for {info.players_words()}",
                                     param_hint="--player")
        return len(names)
    while True:
        echo(f"How many players ({info.min_players}–{info.max_players})? [{info.min_players}]")
        text = ask()
        if not text:
            return info.min_players  # type: ignore[no-any-return]
        if text.isdigit() and info.min_players <= int(text) <= info.max_players:
            return int(text)
        echo(f"players: '{text}' is not a number from {info.min_players} to {info.max_players}")


_MISSING = object()  # a field left empty that the setup may leave out


def ask_field(f: Any, ask: Callable[[], str], echo) -> Any:
    """One field of the setup form (services.games.setup_form.Field), asked until its answer reads."""
    if f.note:
        echo(f"  ({f.note})")
    while True:
        if f.kind == "select":
            words = [w for _, w in f.options]
            shown = next((w for v, w in f.options if v == f.default), None)
            echo(f"{f.label}: " + "  ".join(f"{i} {w}" for i, w in enumerate(words, 1))
                 + (f" [{shown}]" if shown is not None else ""))
        else:
            said = {"number": "a whole number", "text": "a text", "check": "y or n"}[f.kind]
            bounds = "".join(f", {k} {v}" for k, v in f.limits.items())
            default = ("y" if f.default else "n") if f.kind == "check" else f.default
            echo(f"{f.label} ({said}{bounds})" + (f" [{default}]" if default not in (None, "") else ""))
        text = ask()
        value, why = read_field(f, text)
        if not why:
            return value
        echo(f"{f.label}: {why}")


def read_field(f: Any, text: str) -> tuple[Any, str]:
    """The value a typed answer gives a field, or (None, why it does not read)."""
    if not text:
        if f.kind == "check":
            return bool(f.default), ""
        if f.kind == "select" and f.default is not None:
            return json.loads(f.default), ""
        if f.default not in (None, ""):
            return f.default, ""
        return (None, "it is needed") if f.required else (_MISSING, "")
    if f.kind == "select":
        words = [w for _, w in f.options]
        if text.isdigit() and 1 <= int(text) <= len(words):
            return json.loads(f.options[int(text) - 1][0]), ""
        found = [v for v, w in f.options if w.casefold().startswith(text.casefold())]
        exact = [v for v, w in f.options if w.casefold() == text.casefold()]
        if len(exact) == 1 or len(found) == 1:
            return json.loads((exact or found)[0]), ""
        return None, f"'{text}' is none of {', '.join(words)}: type its number or its name"
    if f.kind == "number":
        try:
            return int(text), ""
        except ValueError:
            return None, f"'{text}' is not a whole number"
    if f.kind == "check":
        if text.lower() in ("y", "yes", "n", "no"):
            return text.lower().startswith("y"), ""
        return None, f"'{text}': type y or n"
    return text, ""


def put(into: dict, path: tuple, value: Any) -> None:
    """``value`` at ``path`` (keys and list indexes) of ``into``, made as the path goes."""
    at: Any = into
    for i, key in enumerate(path):
        if i == len(path) - 1:
            if isinstance(at, list):
                at.extend([None] * (key + 1 - len(at)))
            at[key] = value
            return
        if isinstance(at, list):
            at.extend([None] * (key + 1 - len(at)))
            if at[key] is None:
                at[key] = [] if isinstance(path[i + 1], int) else {}
        elif key not in at:
            at[key] = [] if isinstance(path[i + 1], int) else {}
        at = at[key]


def ask_setup(key: str, names: list[str], ask: Callable[[], str], echo) -> dict:
    """The game's setup, asked: field by field where its schema allows, else as JSON."""
    from engine import games
    from services.games.setup_form import setup_form

    form = setup_form(key)
    if form.fields is None:
        echo(f"The setup of {games.info(key).name}, as its log writes it (JSON on one line); an empty line "
             f"takes this one:\n  {json.dumps(form.example)}")
        while True:
            text = ask()
            if not text:
                return dict(form.example)
            try:
                setup = json.loads(text)
            except json.JSONDecodeError as exc:
                echo(f"the setup: not JSON that reads: {exc}")
                continue
            if isinstance(setup, dict):
                return setup
            echo("the setup: a JSON object, as a log's \"setup\"")
    seats = seat_count(games.info(key), names, ask, echo)
    setup: dict = {}
    for f in form.fields:
        if f.seat is None or f.seat <= seats:
            value = ask_field(f, ask, echo)
            if value is not _MISSING:
                put(setup, f.path, value)
    return setup


def setup_field_words(key: str, errors: list[dict]) -> list[str]:
    """A refused setup's errors, each under the name its field has at the prompts ("P2's colour")."""
    from services.games.setup_form import setup_form

    labels = {"/setup/" + "/".join(map(str, f.path)): f.label for f in setup_form(key).fields or ()}
    return [f"  {labels[e['path']]}: {e['message']}" for e in errors if e.get("path") in labels]


def claimed_result(key: str, outcome: dict | None) -> dict | None:
    """The result the log claims at the end: the winner the rules give, for a game whose log claims
    its result so (services.games.setup_form.claims_winner, as the web recorder's end screen); else none
    (the verdict says how the game ended)."""
    from services.games.setup_form import claims_winner

    if outcome is None or not claims_winner(key):
        return None
    return {"winner": outcome.get("winner")}


def verb_groups(rules: Any, legal: list[str]) -> list[tuple[str, list[tuple[int, str]]]]:
    """The legal lines, numbered from 1 in the engine's order, grouped by their verb (the game's own
    reading of the line), the groups in the order their first line comes."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for i, line in enumerate(legal, 1):
        groups.setdefault(rules.parse_line(line).verb, []).append((i, line))
    return list(groups.items())


def _cell(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


class LinesRecorder(Recorder):
    """The recorder's loop for any game: the engine's lines and tallies, no board of the game's own."""

    help = HELP

    def show(self, pos: dict[str, Any]) -> None:
        echo = self.echo
        echo("")
        where = f"Round {pos['round']}" if pos["round"] else "Before the first round"
        echo(where + (f", {pos['phase']}" if pos["phase"] else "") + f" — decision {pos['decisions'] + 1}")
        for row in pos["players"]:
            seat = row.get("seat")
            name = self.names[seat - 1] if seat and seat <= len(self.names) else ""
            counts = "   ".join(f"{k.replace('_', ' ')} {_cell(v)}" for k, v in row.items() if k != "seat")
            echo(f"  P{seat}{' ' + name if name else ''}  {counts}")
        if pos["forced"]:
            echo("  applied by itself: " + "; ".join(pos["forced"]))
        who = "chance" if pos["to_decide"] == "C" else f"P{pos['to_decide']}"
        echo(f"{who} decides: {pos['prompt'] or pos['kind']}")
        for verb, lines in verb_groups(self.rules, pos["legal"]):
            echo(f"  {verb}")
            for i, line in lines:
                echo(f"  {i:>4}  {line}" + ("  (not seen)" if line.endswith(" ?") else ""))
        for point in pos["left_out"]:  # points the log may leave out: said, so their lines can be typed
            other = next((line for line in point["legal"] if line != point["default"]), None)
            echo(f"  still open: {point['prompt'] or point['kind']} — left as '{point['default']}' unless its line "
                 "is typed" + (f", e.g. '{other}'" if other else ""))

    def show_board(self, pos: dict[str, Any]) -> None:
        for k, v in (pos["board"] or {}).items():
            if k not in ("index", "line", "decision"):  # where in the log: said by the step itself
                self.echo(f"  {k.replace('_', ' ')}: {_cell(v)}")

    def answer_by_name(self, text: str, pos: dict[str, Any]) -> tuple[str | None, str]:
        return None, ""  # the lines mode knows no names: anything else is read as a line

    def call_time(self, rule: str) -> dict[str, Any] | None:
        self.echo("not taken: how a game is scored when time is called is each game's own rule, and the lines "
                  "mode knows none; concede N, or q to save and go on later")
        return None

    def finish(self, pos: dict[str, Any]) -> None:
        result = claimed_result(self.key, pos["outcome"])
        if result is not None:
            self.log["result"] = result
