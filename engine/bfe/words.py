"""Battle for Empyrean's result in the words people use at a table: "Ada wins 2–1: B1 The Oasis
12–11, B2 The Throne 4–13, B3 River of Rebirth 9–8" rather than seat numbers and a might table."""

from __future__ import annotations

from typing import Sequence

from ..words import DASH, in_round
from .game import End, Game, battlefield_winners


def might_words(names: Sequence[str], battlefields: Sequence[str], might: Sequence[Sequence[int]],
                winner: int | None) -> str:
    """"2–1: B1 The Throne 12–9, B2 The Oasis 4–13, B3 River 9–8": how many battlefields each took,
    then each battlefield's might, the winner's number first (then seat order), so that "Bo wins
    2–1: B1 … 12–7" reads as Bo's 12 and a battlefield Bo lost reads as lost. When no one took two
    battlefields alone, total might decided, and it is said ("1–1, total might 11–8: …"). With no
    winner, or three players, whose number is whose is said before the colon ("1–1 (Ada–Bo): …")."""
    n = len(might)
    seats = sorted(range(n), key=lambda p: p != (winner or 0) - 1)
    fields = ", ".join(" ".join(filter(None, (f"B{b + 1}", battlefields[b] if b < len(battlefields) else "")))
                       + " " + DASH.join(str(might[p][b]) for p in seats) for b in range(len(might[0])))
    taken = battlefield_winners([list(row) for row in might], seats)
    won = [sum(1 for w in taken if w == p) for p in seats]
    counts = DASH.join(map(str, won))
    if sum(1 for w in won if w >= 2) != 1:
        counts += ", total might " + DASH.join(str(sum(might[p])) for p in seats)
    order = "" if n == 2 and winner else " (" + DASH.join(names[p] for p in seats) + ")"
    return f"{counts}{order}: {fields}"


def result_words(g: Game, names: Sequence[str]) -> str:
    """How a finished game came out: who won (or a draw), how it ended if early, and each
    battlefield's might with how many battlefields each won (might_words)."""
    assert g.over and g.final_might is not None
    won = f"{names[g.winner - 1]} wins" if g.winner else "a draw"
    if g.end is End.CONCESSION:
        return f"{names[(g.conceded_by or 1) - 1]} conceded {in_round(g.round)}; {won}"
    board = might_words(names, [bf.name for bf in g.bfs], g.final_might, g.winner)
    if g.end is End.TIME:
        # a draw by time may leave a board that one player leads ("2–1"): the board is said apart
        # from the result, so that "a draw 2–1" never reads as a contradiction
        return (f"time was called {in_round(g.round)}; {won}" + ("; the board stood " if g.winner is None else " ")
                + board)
    return f"{won} {board}"
