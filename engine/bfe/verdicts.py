"""What Battle for Empyrean adds to a verdict (engine.replay judges every game the same way and
asks the game's rules for these): a game set up as a log says, the setup's own illegality, the
claims a log makes (checkpoints, the result) checked against the rules, and the result in words."""

from __future__ import annotations

from typing import Any, Sequence

from ..log import GameLog, LogFormatError
from ..words import in_round
from .catalog import Catalog, available_versions, load_catalog
from .decisions import CHANCE
from .game import End, Game
from .observe import GameObserver
from .words import might_words, result_words

REASONS = {"score": "the tally at the end of the game", "concession": "a concession", "time": "time being called"}


def build_game(log: GameLog, catalog: Catalog | None = None,
               observers: Sequence[GameObserver] | None = None, *, trace: bool = False) -> Game:
    """A Game set up as the log says, told to ``observers``; raises LogFormatError naming the
    field at fault. ``trace``: keep every answer (Game.trace)."""
    errors = []
    if catalog is None:
        try:
            catalog = load_catalog(log.catalog)
        except KeyError:
            raise LogFormatError([{"path": "/catalog", "message": f"unknown catalog version {log.catalog!r}; "
                                   f"this engine has {', '.join(available_versions())}"}]) from None
    decks, names = [], []
    for i, ref in enumerate(log.setup.decks):
        if ref.cards is None:
            cards = catalog.decks.get(ref.name)
            if cards is None:
                errors.append({"path": f"/setup/decks/{i}", "message": f"unknown premade deck {ref.name!r}; "
                               f"catalog {catalog.version} has {', '.join(sorted(catalog.decks))}"})
                continue
            decks.append(list(cards))
        else:
            problems = catalog.deck_problems(list(ref.cards))
            if problems:
                errors.append({"path": f"/setup/decks/{i}/cards",
                               "message": f"mash-up deck {ref.name!r}: " + "; ".join(problems)})
                continue
            decks.append([catalog.cards[n] for n in ref.cards])
        names.append(ref.name)
    bfs = []
    for i, name in enumerate(log.setup.battlefields):
        bf = catalog.battlefields.get(name)
        if bf is None:
            errors.append({"path": f"/setup/battlefields/{i}", "message": f"unknown battlefield {name!r}"})
        bfs.append(bf)
    if errors:
        raise LogFormatError(errors)
    seed = log.chance.seed if log.chance.type == "seeded" else None
    first = None if seed is not None else log.setup.first_player
    return Game(catalog, decks, bfs, seed=seed, first_player=first, deck_names=names, observers=observers,
                view=log.chance.view, trace=trace)


def setup_illegality(log: GameLog, g: Game) -> dict[str, Any] | None:
    """A setup the rules do not allow, though every field reads (no decision is at fault): the
    verdict's fields, or None."""
    if log.chance.type == "seeded" and log.setup.first_player and log.setup.first_player != g.first:
        return {"message": f"the log says player {log.setup.first_player} goes first, but seed "
                f"{log.chance.seed} gives player {g.first}", "round": 0, "phase": "setup", "player": CHANCE,
                "rule": "in seeded chance the first player is drawn from the seed",
                "errors": [{"path": "/setup/first_player", "message": "the seed decides who goes first"}]}
    return None


class CheckpointCheck(GameObserver):
    """Checks the log's checkpoints as each round ends: ``mismatches`` found, rounds ``checked``."""

    def __init__(self, log: GameLog) -> None:
        self.checkpoints = {c.round: (i, c) for i, c in enumerate(log.checkpoints)}
        self.mismatches: list[dict] = []
        self.checked: set[int] = set()

    def on_round_end(self, g: Game) -> None:
        if g.round in self.checkpoints:
            i, cp = self.checkpoints[g.round]
            self.checked.add(g.round)
            got = g.might_table()
            want = [list(r) for r in cp.might]
            if got != want:
                self.mismatches.append({"path": f"/checkpoints/{i}", "message": f"after round {g.round} the log "
                                        f"says might per battlefield {want} but the rules give {got}"})


def end_as_claimed(log: GameLog, g: Game) -> None:
    """A log whose result says time was called stops the game there, scored by its time rule."""
    result = log.result
    if not g.over and result is not None and result.reason == End.TIME.value:
        g.call_time(result.time_rule or "tally")


def claim_mismatches(log: GameLog, g: Game, names: list[str], check: CheckpointCheck | None) -> list[dict]:
    """Where the finished game's log claims what the rules do not give: checkpoints (checked as the
    rounds ended, and those for rounds never reached) and the result."""
    out = list(check.mismatches) if check is not None else []
    if check is not None:
        for rnd, (i, _) in check.checkpoints.items():
            if rnd not in check.checked and g.end is not End.SCORE:
                out.append({"path": f"/checkpoints/{i}", "message": f"the log has a checkpoint after round {rnd}, "
                            f"but the game ended in round {g.round} ({ended_words(g)})"})
    result = log.result
    if result is not None:
        if result.reason is not None and result.reason != g.end.value:  # type: ignore[union-attr]
            out.append({"path": "/result/reason", "message": f"the log says the game ended by "
                        f"{REASONS[result.reason]}, but {ended_words(g)}"})
        if result.winner != g.winner:
            said = f"{names[result.winner - 1]} (P{result.winner}) won" if result.winner else "a draw"
            out.append({"path": "/result/winner", "message": f"the log claims {said}, but by the rules "
                        f"{result_words(g, names)}"})
        if result.might is not None and [list(r) for r in result.might] != g.final_might:
            bfs = [bf.name for bf in g.bfs]
            out.append({"path": "/result/might", "message": "the log claims the final might "
                        + might_words(names, bfs, result.might, result.winner)
                        + ", but the rules give " + might_words(names, bfs, g.final_might, g.winner)})
    return out


def ended_words(g: Game) -> str:
    if g.end is End.CONCESSION:
        return f"P{g.conceded_by} conceded {in_round(g.round)}"
    if g.end is End.TIME:
        return f"time was called {in_round(g.round)}"
    return "it was played to the end and tallied"
