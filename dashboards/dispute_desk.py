"""What the dispute desk (dashboards.disputes) says about a match's uploads, as pure functions of
plain values: where their decision lists first part, each claim and final board in words, and which
claim the rules support. No I/O: the page reads the rows and the logs and hands them here.

Decisions are numbered from 1, the first line of ``decisions`` being decision 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from engine.bfe import words
from engine.bfe.game import battlefield_winners


@dataclass(frozen=True)
class Difference:
    """Where the decision lists of a match's uploads first part, in upload order."""

    number: int | None  # the first decision (from 1) whose line is not the same in every log; None: identical
    lines: list[str | None]  # each log's line at that decision (None: its log has ended before it)
    lengths: list[int]  # how many decisions each log has

    @property
    def stopped(self) -> list[int]:
        """The indexes of the logs that end before the first difference (one is a prefix of the others)."""
        return [i for i, line in enumerate(self.lines) if line is None]


def first_difference(logs: Sequence[Sequence[str]]) -> Difference:
    """The first decision at which the logs' decision lines are not all the same (one log having
    ended while another goes on is a difference too)."""
    lengths = [len(d) for d in logs]
    for i in range(max(lengths, default=0)):
        here = [d[i] if i < len(d) else None for d in logs]
        if len(set(here)) > 1:
            return Difference(i + 1, here, lengths)
    return Difference(None, [], lengths)


def difference_words(diff: Difference, labels: Sequence[str]) -> str:
    """The difference in a sentence; ``labels`` name the logs ("game 12"), in the same order."""
    if diff.number is None:
        n = diff.lengths[0] if diff.lengths else 0
        return (f"The decisions of the {len(labels)} logs are identical ({n} decisions): they differ only in "
                "their setup, details or the result they claim.")
    if diff.stopped:
        longest = max(diff.lengths)
        ended = " and ".join(labels[i] for i in diff.stopped)
        return (f"The logs are identical up to decision {diff.number - 1}, then the log of {ended} stops; "
                f"the longest goes on to decision {longest}.")
    return f"The logs are identical up to decision {diff.number - 1} and first differ at decision {diff.number}."


def name_of(names: Sequence[str | None], seat: int | None) -> str:
    """The player of seat ``seat`` (from 1) by name, else 'P<seat>'."""
    if seat is None:
        return "nobody"
    name = names[seat - 1] if seat <= len(names) else None
    return name or f"P{seat}"


def outcome_words(names: Sequence[str | None], winner: int | None) -> str:
    """'Ada wins' or 'a draw'."""
    return "a draw" if winner is None else f"{name_of(names, winner)} wins"


def might_words(names: Sequence[str | None], battlefields: Sequence[str], might: Sequence[Sequence[int]],
                winner: int | None) -> str:
    """engine.bfe.words.might_words, with a seat whose name is not known called P<seat>."""
    return words.might_words([name_of(names, p + 1) for p in range(len(might))], battlefields, might, winner)


@dataclass(frozen=True)
class Tally:
    """A final board battlefield by battlefield: per battlefield its name, each seat's might there and
    who takes it (seat from 1; None: tied at the top)."""

    rows: list[tuple[str, list[int], int | None]]


def tally(battlefields: Sequence[str], might: Sequence[Sequence[int]]) -> Tally:
    """``might``: per seat, per battlefield (a record's final board)."""
    if not might:
        return Tally([])
    taken = battlefield_winners([list(row) for row in might], list(range(len(might))))
    return Tally([(f"B{b + 1} {battlefields[b]}" if b < len(battlefields) else f"B{b + 1}",
                   [row[b] for row in might], None if taken[b] is None else taken[b] + 1)
                  for b in range(len(might[0]))])


@dataclass(frozen=True)
class Claim:
    """One upload as the desk weighs it."""

    game: int
    verdict: str | None  # valid, illegal, mismatch, malformed, error; None: not replayed yet
    message: str | None  # the verdict's message
    claimed: str  # what its log claims, in words ("Bo wins", "no result claimed")
    by_rules: str | None  # the result its decisions give by the rules ("Ada wins"; None without a record)


def support_words(claims: Sequence[Claim], diff: Difference | None = None) -> list[str]:
    """Which claim the rules support, then why each other upload is not supported, in sentences.
    ``diff``: where the logs part, said when several of them are valid games."""
    valid = [c for c in claims if c.verdict == "valid"]
    if not valid:
        head = "The rules support none of the uploads: no log is a legal game whose claims are true."
    elif len(valid) == 1:
        head = f"The rules support game {valid[0].game} (valid: {valid[0].message})."
    elif len({c.claimed for c in valid}) == 1:
        head = (f"The rules support games {_and([str(c.game) for c in valid])}: each is valid and each claims "
                f"{valid[0].claimed}.")
    else:
        part = f" (they first differ at decision {diff.number})" if diff is not None and diff.number else ""
        head = (f"The rules support games {_and([str(c.game) for c in valid])}: each is a legal game whose claim "
                f"is true, but they are different games{part} with different results "
                f"({'; '.join(f'game {c.game}: {c.claimed}' for c in valid)}). The rules cannot say which was "
                "played: ask the players.")
    return [head] + [_why_not(c) for c in claims if c.verdict != "valid"]


def _why_not(c: Claim) -> str:
    if c.verdict is None:
        return f"Game {c.game} is not replayed yet: its verdict will follow."
    if c.verdict == "mismatch":
        if c.by_rules is not None and c.by_rules != c.claimed:
            return (f"Game {c.game} is a mismatch: it claims {c.claimed} but the decisions give "
                    f"{_the_win(c.by_rules)}.")
        return f"Game {c.game} is a mismatch: {c.message}"
    if c.verdict == "illegal":
        return f"Game {c.game} is illegal: {c.message}"
    if c.verdict == "malformed":
        return f"Game {c.game} is not a log the engine can read: {c.message}"
    return f"The engine failed on game {c.game} (a fault of the service, not of the log): {c.message}"


def _the_win(outcome: str) -> str:
    """'Ada wins' → 'Ada the win'; 'a draw' stays."""
    return outcome[:-len(" wins")] + " the win" if outcome.endswith(" wins") else outcome


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
