"""``empyrean record``: record a game played with real cards, one decision at a time, at a prompt.

A plain prompt loop over engine.position (no HTTP, no database): each step prints the round, the
phase, everyone's essence, the might on each battlefield and the totals (the companion app's job),
then the legal answers, numbered. Type a number, or a decision line as the log writes it, or a
command (HELP lists them). The log is written to --out after every decision, so a closed terminal
loses nothing (``--resume FILE`` goes on from it). At the end the claimed result is filled in from
the tally and the verdict is printed.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any, TextIO

import click

from services.cli.games import game_option, play_only_what_is_written

HELP = """  a number      take that answer
  a card's name the answer naming that card, by its name or the start of it ('soul of the l'),
                when only one answer names it
  a line        write that decision, e.g. 'P1 deploy Horse Archers to B2', 'C draw P2 ?'
  u             undo the last decision
  b             show the board (hands, decks, piles, cards on each battlefield)
  concede N     player N concedes: the game ends here
  time [draw]   time is called: the game stops and is scored by the tally (or is a draw)
  q             save and quit (go on later with --resume)
  h             this help"""


class Quit(Exception):
    """The recorder stops: the log is saved as it stands."""


def resolve(name: str, names: list[str]) -> str:
    """A premade deck or battlefield by its name, or by a part of it that only one name has
    ('cavalry'); anything else is left as typed (the engine then says what it could be)."""
    if name in names:
        return name
    found = [n for n in names if name.lower() in n.lower()]
    return found[0] if len(found) == 1 else name


def deck_entry(value: str, premade: list[str]) -> Any:
    """--deck: a premade deck's name (or a unique part of it), or a file with a mash-up deck: a
    JSON object {"name", "cards"} as in a log, or text with one card name per line."""
    path = Path(value)
    if not path.is_file():
        return resolve(value, premade)
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        entry = json.loads(text)
        if not isinstance(entry, dict):
            raise click.BadParameter(f"{value}: a mash-up deck file holds a JSON object with \"name\" and \"cards\"",
                                     param_hint="--deck")
        return entry
    cards = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    return {"name": path.stem, "cards": cards}


def new_log(*, mode: str, decks: list[Any], battlefields: list[str], first: int, catalog: str,
            players: list[str], view: int | None, meta: dict[str, Any]) -> dict[str, Any]:
    log: dict[str, Any] = {"format": "empyrean-log", "version": 1, "catalog": catalog}
    meta = {k: v for k, v in meta.items() if v is not None}
    if players:
        meta["players"] = players
    if meta:
        log["meta"] = meta
    log["setup"] = {"mode": mode, "decks": decks, "battlefields": battlefields, "first_player": first}
    log["chance"] = {"type": "recorded", **({"view": view} if view is not None else {})}
    log["decisions"] = []
    return log


def save(log: dict[str, Any], out: Path) -> None:
    """Write the log whole, then put it in place: a crash mid-write leaves the previous save."""
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(log, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, out)


def show(pos: dict[str, Any], names: list[str], echo) -> None:
    """Where the game is: round, phase, essence, might per battlefield and totals, what the engine
    applied by itself, then the numbered legal answers."""
    seats = [f"P{p['seat']}" + (f" {names[p['seat'] - 1]}" if p["seat"] <= len(names) else "")
             for p in pos["players"]]
    echo("")
    echo(f"Round {pos['round']}, {pos['phase']} phase — decision {pos['decisions'] + 1}")
    essence = [f"{who} {p['essence']}" + (f" (next round {n:+d})" if (n := p["next_round_adjustment"]) else "")
               for who, p in zip(seats, pos["players"])]
    echo("  essence  " + "   ".join(essence))
    for b, bf in enumerate(pos["board"]["battlefields"]):
        echo(f"  {bf['label']} {bf['name']:<28} " + "   ".join(
            f"P{p + 1} {row[b]:>3}" for p, row in enumerate(pos["might"])))
    echo(f"  {'total':<31} " + "   ".join(f"P{p + 1} {t:>3}" for p, t in enumerate(pos["totals"])))
    if pos["forced"]:
        echo("  applied by itself: " + "; ".join(pos["forced"]))
    who = "chance" if pos["to_decide"] == "C" else f"P{pos['to_decide']}"
    echo(f"{who} decides: {pos['prompt']}")
    for i, line in enumerate(pos["legal"], 1):
        card = card_at(line, pos["board"])
        echo(f"  {i:>3}  {line}" + (f"  ({card})" if card else ""))


_SPOT = re.compile(r"\bP([1-3]):B([1-4])Z(\d+)\b")
_NAMED = re.compile(r"^(?:C draw P[1-3]|P[1-3] (?:keep|deploy|choose|discard|acquire)) "
                    r"(?!P[1-3]:)(.+?)(?: to B[1-4])?$")


def card_at(line: str, board: dict[str, Any] | None) -> str | None:
    """The card an answer names: the one at the board position it gives ('P2:B1Z3': what lies
    there, as the board shows it), or the card it names by name; None when it names none."""
    spot = _SPOT.search(line)
    if spot is not None and board is not None:
        seat, bf, zone = (int(g) for g in spot.groups())
        try:
            side = board["battlefields"][bf - 1]["sides"][seat - 1]
            found = next(z for z in side["zones"] if z["zone"] == zone)
        except (IndexError, KeyError, StopIteration):
            return None
        return found["card"] if found.get("face_up", True) else f"{found['card']} (face down)"
    named = _NAMED.match(line)
    return named.group(1) if named is not None and named.group(1) != "?" else None


def answer_by_name(text: str, legal: list[str], board: dict[str, Any] | None) -> tuple[str | None, str]:
    """The one legal answer whose card's name starts with ``text`` (any case), or (None, why not)."""
    wanted = text.casefold()
    matches = [line for line in legal if (card := card_at(line, board)) and card.casefold().startswith(wanted)]
    if len(matches) == 1:
        return matches[0], ""
    if matches:
        cards = sorted({card_at(line, board) or "" for line in matches})
        if len(cards) == 1:
            return None, f"{len(matches)} answers name {cards[0]}: type the number of the one you mean"
        return None, f"'{text}' starts {len(cards)} cards' names ({', '.join(cards)}): type more of it"
    return None, ""


def show_board(pos: dict[str, Any], echo) -> None:
    board = pos["board"]
    for p in board["players"]:
        echo(f"  P{p['seat']} {p['deck']}: hand [{', '.join(p['hand'])}], deck {p['deck_size']}, "
             f"discard [{', '.join(p['discard'])}], destroyed [{', '.join(p['destroyed'])}]")
    for bf in board["battlefields"]:
        echo(f"  {bf['label']} {bf['name']}")
        for side in bf["sides"]:
            cards = "; ".join(f"Z{z['zone']} {z['card']}{'' if z['face_up'] else ' (face down)'} [{z['might']}]"
                              for z in side["zones"]) or "empty"
            echo(f"    P{side['seat']} ({side['might']}): {cards}")


def _looks_like_a_line(text: str) -> bool:
    """A decision line as a log writes it starts with who decides: 'P1 …' or 'C …'."""
    return re.match(r"^(P[1-3]|C) ", text) is not None


def finish(log: dict[str, Any], pos: dict[str, Any]) -> None:
    """The claimed result, from the tally: the winner and the final might (a game stopped by time
    keeps its reason and time rule; the tally and a concession line show by themselves)."""
    outcome = pos["outcome"]
    result = {**(log.get("result") or {}), "winner": outcome["winner"], "might": outcome["might"]}
    log["result"] = result


class Recorder:
    def __init__(self, log: dict[str, Any], out: Path, stdin: TextIO, echo) -> None:
        from engine.position import position

        self.position = position
        self.log = log
        self.out = out
        self.stdin = stdin
        self.echo = echo
        self.names = list(log.get("meta", {}).get("players", []))

    def ask(self) -> str:
        self.echo("> ", nl=False)
        line = self.stdin.readline()
        if not line:  # end of input: as 'q'
            raise Quit()
        return line.strip()

    def now(self) -> dict[str, Any]:
        return self.position(self.log).to_dict()

    def run(self) -> dict[str, Any]:
        """Ask decisions until the game is over (or 'q'); returns the last position."""
        pos = self.now()
        while pos["status"] == "in progress":
            show(pos, self.names, self.echo)
            pos = self.step(pos)
        return pos

    def step(self, pos: dict[str, Any]) -> dict[str, Any]:
        """One answer from the prompt; returns the position after it (the same one if it was not
        taken)."""
        while True:
            text = self.ask()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            if text == "q":
                raise Quit()
            if text in ("h", "help", "?"):
                self.echo(HELP)
                continue
            if text == "b":
                show_board(pos, self.echo)
                continue
            if text == "u":
                if not self.log["decisions"]:
                    self.echo("nothing to undo: no decision is written yet")
                    continue
                undone = self.log["decisions"].pop()
                self.log.pop("result", None)
                save(self.log, self.out)
                self.echo(f"undone: {undone}")
                return self.now()
            if word == "time" and rest in ("", "tally", "draw"):
                self.log["result"] = {"winner": None, "reason": "time", "time_rule": rest or "tally"}
                return self.now()
            if word == "concede" and rest.isdigit():
                # What this seat leaves out (the others' draws and keeps, taken unseen after the last
                # line) is written out first, so the game ends where time called would end it and
                # both count the same unseen cards (a concession ends the game where it is written).
                taken = self.write_all([p["default"] for p in pos["left_out"]] + [f"P{rest} concede"])
                if taken is not None:
                    return taken
                continue
            if text.isdigit():
                n = int(text)
                if not 1 <= n <= len(pos["legal"]):
                    self.echo(f"there is no answer {n}: type 1 to {len(pos['legal'])}, a decision line, or h for help")
                    continue
                text = pos["legal"][n - 1]
            elif not _looks_like_a_line(text):
                line, why = answer_by_name(text, pos["legal"], pos["board"])
                if why:
                    self.echo(f"not taken: {why}")
                    continue
                text = line or text  # no answer names such a card: read as a line (and said why not)
            taken = self.write(text)
            if taken is not None:
                return taken

    def write(self, text: str) -> dict[str, Any] | None:
        """Add the decision line ``text`` if the rules take it there (saved at once); else say why."""
        return self.write_all([text])

    def write_all(self, texts: list[str]) -> dict[str, Any] | None:
        """Add these decision lines together if the rules take them there (saved at once); else
        write none of them and say why."""
        from engine.bfe.decisions import DecisionSyntaxError, format_decision, parse_decision

        try:
            lines = [format_decision(parse_decision(text)) for text in texts]
        except DecisionSyntaxError as exc:
            self.echo(f"not taken: {exc}")
            return None
        self.log["decisions"].extend(lines)
        after = self.now()
        if after["status"] not in ("in progress", "valid", "mismatch"):  # the rules do not take it here
            del self.log["decisions"][-len(lines):]
            verdict = after["verdict"]
            self.echo(f"not taken: {verdict['rule'] or verdict['message']}")
            return None
        save(self.log, self.out)
        return after


@click.command()
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="The log file, written after every decision (with --resume: that file, unless given).")
@click.option("--resume", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Go on recording a saved (unfinished) log.")
@click.option("--mode", type=click.Choice(["2p", "3p"]), default="2p", show_default=True)
@click.option("--deck", "decks", multiple=True, metavar="NAME|FILE",
              help="Each player's deck in seat order: a premade deck (its name or a part only it has), or a file "
                   "with a mash-up deck (JSON {name, cards}, or one card name per line). Repeat per player.")
@click.option("--battlefield", "battlefields", multiple=True, metavar="NAME",
              help="The battlefields in order, B1 first (a name or a part only it has). Repeat: 3 for 2p, 4 for 3p.")
@click.option("--first-player", type=click.IntRange(1, 3), help="Who holds the first-player token in round 1.")
@click.option("--catalog", "version", help="Catalog version the game is played under (default: the newest).")
@click.option("--player", "players", multiple=True, help="Players' names in seat order (optional).")
@click.option("--event", help="The event's name (meta.event).")
@click.option("--round", "round_", type=click.IntRange(1), help="The tournament round (meta.round).")
@click.option("--table", help="The table (meta.table).")
@click.option("--view", type=click.IntRange(1, 3),
              help="Record from that player's seat: the other players' draws and keeps are not asked.")
@game_option("The game played (left out: the game of a log that names none); only Battle for Empyrean for now.")
def record(out: Path | None, resume: Path | None, mode: str, decks: tuple[str, ...], battlefields: tuple[str, ...],
           first_player: int | None, version: str | None, players: tuple[str, ...], event: str | None,
           round_: int | None, table: str | None, view: int | None, game: str | None) -> None:
    """Record a game played with real cards: each decision asked with its legal answers, numbered;
    the log written to --out after every one. Exit status: 0 a valid game (or saved to go on
    later), 1 the finished log is not valid, 2 a setup the engine refuses."""
    play_only_what_is_written("record", game)
    from engine.bfe.catalog import DEFAULT_VERSION, load_catalog
    from engine.position import position
    from services.cli.verify import describe_verdict

    echo = click.echo
    if resume is not None:
        log = json.loads(resume.read_text(encoding="utf-8"))
        out = out or resume
    else:
        if out is None:
            raise click.UsageError("say where the log goes: --out FILE (or --resume FILE to go on with one)")
        if out.exists():
            raise click.UsageError(f"{out} exists; go on with it with --resume {out}, or choose another --out")
        if first_player is None:
            raise click.UsageError("--first-player is needed: who holds the first-player token in round 1")
        catalog = version or DEFAULT_VERSION
        try:
            cat = load_catalog(catalog)
        except KeyError:
            raise click.BadParameter(f"unknown catalog version {catalog!r}", param_hint="--catalog") from None
        log = new_log(mode=mode, decks=[deck_entry(d, sorted(cat.decks)) for d in decks],
                      battlefields=[resolve(b, sorted(cat.battlefields)) for b in battlefields], first=first_player,
                      catalog=catalog, players=list(players), view=view,
                      meta={"event": event, "round": round_, "table": table})
    start = position(log)
    if start.status not in ("in progress", "valid"):
        echo(describe_verdict(str(resume or "setup"), start.verdict))
        sys.exit(2 if start.status == "malformed" else 1)
    save(log, out)
    echo(f"recording to {out} (saved after every decision; h for help)")
    recorder = Recorder(log, out, sys.stdin, echo)
    try:
        pos = recorder.run()
    except Quit:
        save(log, out)
        echo(f"\nsaved {len(log['decisions'])} decision(s) to {out}; go on with: empyrean record --resume {out}")
        return
    finish(log, pos)
    save(log, out)
    from engine.replay import replay

    verdict = replay(log, record=False).verdict
    echo("")
    echo(describe_verdict(str(out), verdict))
    echo(f"the log is in {out}")
    sys.exit(0 if verdict.ok else 1)


COMMANDS = (record,)
