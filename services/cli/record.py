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
from typing import Any, Callable, TextIO

import click

from services.cli.games import default_game, game_option

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


def new_log(*, mode: str, decks: list[Any], battlefields: list[str], first: int | None, catalog: str,
            players: list[str], view: int | None, meta: dict[str, Any], seed: int | None = None) -> dict[str, Any]:
    """A Battle for Empyrean log with no decision yet (a log that names no game)."""
    setup = {"mode": mode, "decks": decks, "battlefields": battlefields,
             **({"first_player": first} if first is not None else {})}
    return envelope(None, catalog, setup, players=players, chance=chance_of(view, seed), meta=meta)


def envelope(game: str | None, catalog: str, setup: dict[str, Any], *, players: list[str], chance: dict[str, Any],
             meta: dict[str, Any]) -> dict[str, Any]:
    """A log of ``game`` (None: Battle for Empyrean, written without "game") with no decision yet."""
    log: dict[str, Any] = {"format": "empyrean-log", "version": 1, **({"game": game} if game else {}),
                           "catalog": catalog}
    meta = {k: v for k, v in meta.items() if v is not None}
    if players:
        meta["players"] = players
    if meta:
        log["meta"] = meta
    log["setup"] = setup
    log["chance"] = chance
    log["decisions"] = []
    return log


def chance_of(view: int | None, seed: int | None) -> dict[str, Any]:
    """Recorded chance (each card drawn and die rolled is a line), from one seat's view when ``view``
    is given; or seeded chance, ``seed`` deciding it (digital play: no chance line is written)."""
    if seed is not None:
        from engine.rng import ALGORITHM

        return {"type": "seeded", "algorithm": ALGORITHM, "seed": seed, **({"view": view} if view is not None else {})}
    return {"type": "recorded", **({"view": view} if view is not None else {})}


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


def asker(stdin: TextIO, echo) -> Callable[[], str]:
    """A prompt reading one line of ``stdin`` at a time (stripped); the end of input raises Quit."""
    def ask() -> str:
        echo("> ", nl=False)
        line = stdin.readline()
        if not line:  # end of input: as 'q'
            raise Quit()
        return line.strip()
    return ask


class Recorder:
    """The prompt loop, for Battle for Empyrean: its tally and board, card names as answers, time
    called. services.cli.record_lines.LinesRecorder is the same loop for any game."""

    help = HELP

    def __init__(self, log: dict[str, Any], out: Path, stdin: TextIO, echo) -> None:
        from engine.games import DEFAULT_GAME, rules_for
        from engine.position import position

        self.position = position
        self.log = log
        self.key = log.get("game", DEFAULT_GAME)
        self.rules = rules_for(self.key)
        self.out = out
        self.ask = asker(stdin, echo)
        self.echo = echo
        self.names = list(log.get("meta", {}).get("players", []))

    # what the game shows and takes besides its lines
    def show(self, pos: dict[str, Any]) -> None:
        show(pos, self.names, self.echo)

    def show_board(self, pos: dict[str, Any]) -> None:
        show_board(pos, self.echo)

    def answer_by_name(self, text: str, pos: dict[str, Any]) -> tuple[str | None, str]:
        return answer_by_name(text, pos["legal"], pos["board"])

    def call_time(self, rule: str) -> dict[str, Any] | None:
        """Time called: the game stops and is scored by the tally (or is a draw)."""
        self.log["result"] = {"winner": None, "reason": "time", "time_rule": rule or "tally"}
        return self.now()

    def finish(self, pos: dict[str, Any]) -> None:
        finish(self.log, pos)

    def now(self) -> dict[str, Any]:
        return self.position(self.log).to_dict()

    def run(self) -> dict[str, Any]:
        """Ask decisions until the game is over (or 'q'); returns the last position."""
        pos = self.now()
        while pos["status"] == "in progress":
            self.show(pos)
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
                self.echo(self.help)
                continue
            if text == "b":
                self.show_board(pos)
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
                timed = self.call_time(rest)
                if timed is not None:
                    return timed
                continue
            if word == "concede" and rest.isdigit():
                if not 1 <= int(rest) <= len(pos["concede"]):
                    self.echo(f"there is no player {rest}: concede 1 to {len(pos['concede'])}")
                    continue
                # What this seat leaves out (the others' draws and keeps, taken unseen after the last
                # line) is written out first, so the game ends where time called would end it and
                # both count the same unseen cards (a concession ends the game where it is written).
                taken = self.write_all([p["default"] for p in pos["left_out"]] + [pos["concede"][int(rest) - 1]])
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
                line, why = self.answer_by_name(text, pos)
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
        try:  # each line as the game writes it (a line that does not read: the game's words why)
            lines = [self.rules.format_line(self.rules.parse_line(text)) for text in texts]
        except ValueError as exc:
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


BFE_ONLY = {"mode": "--mode", "decks": "--deck", "battlefields": "--battlefield", "first_player": "--first-player"}
"""The options of Battle for Empyrean's setup (parameter: option); another game is set up otherwise."""


@click.command()
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="The log file, written after every decision (with --resume: that file, unless given).")
@click.option("--resume", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Go on recording a saved (unfinished) log.")
@click.option("--mode", type=click.Choice(["2p", "3p"]), default="2p", show_default=True,
              help="Battle for Empyrean: 2 or 3 players.")
@click.option("--deck", "decks", multiple=True, metavar="NAME|FILE",
              help="Battle for Empyrean: each player's deck in seat order: a premade deck (its name or a part only it "
                   "has), or a file with a mash-up deck (JSON {name, cards}, or one card name per line). Repeat per "
                   "player.")
@click.option("--battlefield", "battlefields", multiple=True, metavar="NAME",
              help="Battle for Empyrean: the battlefields in order, B1 first (a name or a part only it has). Repeat: 3 "
                   "for 2p, 4 for 3p.")
@click.option("--first-player", type=click.IntRange(1, 3),
              help="Battle for Empyrean: who holds the first-player token in round 1.")
@click.option("--setup", "setup_text", metavar="JSON|@FILE",
              help="Another game's setup as its log writes it (JSON, or @ and a file holding it); left out, it is "
                   "asked field by field.")
@click.option("--catalog", "version", help="Catalog version the game is played under (default: the newest).")
@click.option("--player", "players", multiple=True, help="Players' names in seat order (optional).")
@click.option("--event", help="The event's name (meta.event).")
@click.option("--round", "round_", type=click.IntRange(1), help="The tournament round (meta.round).")
@click.option("--table", help="The table (meta.table).")
@click.option("--view", type=click.IntRange(1),
              help="Record from that player's seat: the other players' draws and keeps are not asked.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1),
              help="Seeded chance (a game played digitally): the seed deals and rolls, and no chance line is asked. "
                   "Left out: recorded chance, each card drawn and die rolled asked.")
@game_option("The game played (left out: the game of a log that names none; with --resume, the log's).")
@click.pass_context
def record(ctx: click.Context, out: Path | None, resume: Path | None, mode: str, decks: tuple[str, ...],
           battlefields: tuple[str, ...], first_player: int | None, setup_text: str | None, version: str | None,
           players: tuple[str, ...], event: str | None, round_: int | None, table: str | None, view: int | None,
           seed: int | None, game: str | None) -> None:
    """Record a game played with real cards: each decision asked with its legal answers, numbered;
    the log written to --out after every one. Battle for Empyrean is set up by the options; another
    game (--game) field by field at the prompt, or by --setup. Exit status: 0 a valid game (or saved
    to go on later), 1 the finished log is not valid, 2 a setup the engine refuses."""
    from engine.games import DEFAULT_GAME
    from engine.position import position
    from services.cli.record_lines import LinesRecorder, setup_field_words
    from services.cli.verify import describe_verdict
    from services.games.game_names import game_words

    echo = click.echo
    meta = {"event": event, "round": round_, "table": table}
    if resume is not None:
        log = json.loads(resume.read_text(encoding="utf-8"))
        key = log.get("game", DEFAULT_GAME) if isinstance(log, dict) else DEFAULT_GAME
        if game is not None and game != key:
            raise click.UsageError(f"{resume} is a game of {game_words(key)}, not {game_words(game)}")
        out = out or resume
    else:
        if out is None:
            raise click.UsageError("say where the log goes: --out FILE (or --resume FILE to go on with one)")
        if out.exists():
            raise click.UsageError(f"{out} exists; go on with it with --resume {out}, or choose another --out")
        key = default_game(game)
        if key == DEFAULT_GAME:
            log = bfe_log(mode, decks, battlefields, first_player, setup_text, version, list(players), view, seed, meta)
        else:
            given = [option for name, option in BFE_ONLY.items()
                     if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT]
            if given:
                raise click.UsageError(f"{', '.join(given)} set up {game_words(DEFAULT_GAME)}; {game_words(key)} is "
                                       "set up at the prompts, or with --setup")
            log = lines_log(key, setup_text, version, list(players), view, seed, meta, asker(sys.stdin, echo), echo)
    start = position(log)
    if start.status not in ("in progress", "valid"):
        echo(describe_verdict(str(resume or "setup"), start.verdict))
        if start.status == "malformed" and key != DEFAULT_GAME:
            for words in setup_field_words(key, start.verdict.errors):
                echo(words)
        sys.exit(2 if start.status == "malformed" else 1)
    save(log, out)
    echo(f"recording to {out} (saved after every decision; h for help)")
    recorder = (Recorder if key == DEFAULT_GAME else LinesRecorder)(log, out, sys.stdin, echo)
    try:
        pos = recorder.run()
    except Quit:
        save(log, out)
        echo(f"\nsaved {len(log['decisions'])} decision(s) to {out}; go on with: empyrean record --resume {out}")
        return
    recorder.finish(pos)
    save(log, out)
    from engine.replay import replay

    verdict = replay(log, record=False).verdict
    echo("")
    echo(describe_verdict(str(out), verdict, None if key == DEFAULT_GAME else key))
    echo(f"the log is in {out}")
    sys.exit(0 if verdict.ok else 1)


def bfe_log(mode: str, decks: tuple[str, ...], battlefields: tuple[str, ...], first_player: int | None,
            setup_text: str | None, version: str | None, players: list[str], view: int | None, seed: int | None,
            meta: dict[str, Any]) -> dict[str, Any]:
    """A new Battle for Empyrean log, set up by the command's options."""
    from engine.bfe.catalog import DEFAULT_VERSION, load_catalog

    if setup_text is not None:
        raise click.UsageError("--setup sets up a game other than Battle for Empyrean; this one is set up by --mode, "
                               "--deck, --battlefield and --first-player")
    if first_player is None and seed is None:
        raise click.UsageError("--first-player is needed: who holds the first-player token in round 1")
    catalog = version or DEFAULT_VERSION
    try:
        cat = load_catalog(catalog)
    except KeyError:
        raise click.BadParameter(f"unknown catalog version {catalog!r}", param_hint="--catalog") from None
    return new_log(mode=mode, decks=[deck_entry(d, sorted(cat.decks)) for d in decks],
                   battlefields=[resolve(b, sorted(cat.battlefields)) for b in battlefields], first=first_player,
                   catalog=catalog, players=players, view=view, meta=meta, seed=seed)


def lines_log(key: str, setup_text: str | None, version: str | None, players: list[str], view: int | None,
              seed: int | None, meta: dict[str, Any], ask: Callable[[], str], echo) -> dict[str, Any]:
    """A new log of game ``key`` (not Battle for Empyrean), its setup from --setup or asked."""
    from services.cli.catalog import catalog_version
    from services.cli.record_lines import ask_setup, read_setup_option

    catalog = catalog_version(key, version)
    if setup_text is not None:
        setup = read_setup_option(setup_text)
    else:
        try:
            setup = ask_setup(key, players, ask, echo)
        except Quit:
            echo("")
            raise click.UsageError("the input ended before the setup was complete: nothing is written") from None
    return envelope(key, catalog, setup, players=players, chance=chance_of(view, seed), meta=meta)


COMMANDS = (record,)
