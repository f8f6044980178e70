"""Reading a log's decision lines into a game: which line answers which decision point.

A log is written the way people saw the game, so its lines do not map one to one onto the
engine's decision points:

* a point with one legal answer is taken by the engine itself (``Game.auto``): the log may write
  that answer or leave it out, and a written one must be that answer;
* some points have a default (``DecisionPoint.default``) that a log may leave out: in one seat's
  view, another player's card drawn, kept or discarded is unseen; a choice among cards nobody saw
  may have found nothing;
* draws and keeps that come in a row may be written in any player order (the draft, like the
  opening hands, is simultaneous); each player's own lines stay in their order;
* ``Pn concede`` ends the game where it is written, whoever was to decide.

``read`` feeds a game the lines in the order the rules take them and stops at the first line no
reading allows. A line that answers the pending point *and* repeats an answer the engine took
itself since the previous line is ambiguous: it is read as an answer (what logs that leave forced
answers out need), unless the caller asks for the other way (``Way``); ``read_lines`` retries the
other ways when a log fails (all such lines as written forced answers, as a log that writes every
one needs; single lines just before the failure), and keeps the reading that gets furthest.
``read`` never raises on a log's account.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .games import DEFAULT_GAME, rules_for

# How far back from a failure an ambiguous line may have been misread, and how many re-readings
# a log gets: a forced answer written where a real one was expected shows within a few lines.
REREAD_WINDOW = 12
MAX_REREADS = 8


@dataclass(frozen=True)
class Way:
    """How a reading takes lines that both answer the pending point and repeat an answer the
    engine took itself: as answers (``forced_first`` False) or as written forced answers (True),
    except the lines in ``flips``, which are taken the other way."""

    forced_first: bool = False
    flips: frozenset[int] = frozenset()

    def as_forced(self, i: int) -> bool:
        return self.forced_first != (i in self.flips)

    def flipped(self, i: int) -> Way:
        return Way(self.forced_first, self.flips ^ {i})


@dataclass
class Failure:
    """The first line no reading allows: its index in the log, why, and (when the line contradicts
    an answer the engine had to take itself for that player) that answer."""

    index: int
    reason: str
    forced: Any = None  # the game's decision


@dataclass
class LeftOut:
    """A decision point after a log's last line that the log may leave out: the default taken and
    the answers it allowed (worked out before the default was taken)."""

    player: int
    seat: int
    kind: Any  # the game's kind of decision point
    prompt: str
    default: Any  # the game's decision
    answers: list[Any]


@dataclass
class Reading:
    failure: Failure | None = None
    order: list[int] = field(default_factory=list)  # lines applied as answers, in the order the rules took them
    written_forced: list[int] = field(default_factory=list)  # lines that repeated an answer the engine took
    ambiguous: list[int] = field(default_factory=list)  # lines that could have been read the other way
    # lines read as plain answers after answers the engine took itself: line, a, b in threes
    # (g.auto[a:b] are those answers)
    spans: list[int] = field(default_factory=list)
    conceded_at: int | None = None  # the index of a concession line
    way: Way = Way()  # how ambiguous lines were taken: read(..., way=way) reads the same again
    # lines before which ``belongs`` had a choice among unseen cards find nothing
    nothing_before: list[tuple[int, Any]] = field(default_factory=list)
    # g.auto[after_last_line:] are the answers the engine took itself after the last line read
    # (forced ones, and the defaults of the points the log leaves out after its last line)
    after_last_line: int = 0
    # the points the log left out after its last line, each with its default (taken) and every
    # answer a longer log could have written there instead (engine.position)
    left_out: list[LeftOut] = field(default_factory=list)

    @property
    def consumed(self) -> int:
        return len(self.order) + len(self.written_forced) + (self.conceded_at is not None)


def read(g: Any, lines: Sequence[Any], rules: Any = None, *, way: Way = Way(),
         on_line: Callable[[int], None] | None = None,
         belongs: Callable[[int, Any], bool] | None = None) -> Reading:
    """Feed ``g`` (a state of the game of ``rules``) the decision ``lines``, taking ambiguous lines
    the ``way`` given (``rules`` None: the default game's, as for a log that names none). ``on_line(i)``
    is called after line i is read (applied, or found to repeat a forced answer, or a concession).
    ``belongs(i, point)``: for tools that know which point each line answers (engine.seats): False
    takes the point's default first."""
    if rules is None:
        rules = rules_for(DEFAULT_GAME)
    r = Reading(way=way)
    n = len(lines)
    ahead: set[int] = set()  # lines read before their turn (draws and keeps of another player)
    block_end: list[int] | None = None  # worked out the first time a line is read ahead
    plain_way = not way.forced_first and not way.flips
    any_order_verbs = rules.info.any_order
    any_order_kinds = rules.any_order_kinds
    seat_of = rules.seat_of
    answer_of = rules.answer_of
    auto = g.auto
    spans = r.spans
    seen = 0  # g.auto[seen:] are the answers the engine took since the last line read
    cursor = 0
    tried: tuple[int, str] | None = None  # a line judged at a point with a default, and why it failed there
    while True:
        while cursor in ahead:
            ahead.discard(cursor)
            cursor += 1
        if cursor >= n:
            break
        pend = g.pending
        i = cursor
        d = lines[i]
        verb = d.verb
        if (pend is not None and verb in any_order_verbs and pend.kind in any_order_kinds
                and seat_of(d) != pend.seat and _repeats(rules, auto, seen, d) < 0):
            # lines that may come in any player order (draws and keeps in a row): the pending
            # player's next one, wherever it is in the run (unless this line writes down an answer
            # the engine just took itself)
            if block_end is None:
                block_end = _block_ends(lines, any_order_verbs)
            for j in range(i + 1, block_end[i]):
                if j not in ahead and seat_of(lines[j]) == pend.seat:
                    i, d = j, lines[j]
                    verb = d.verb
                    break
        if verb == "concede":
            if g.over:
                r.failure = Failure(i, _over(g))
                return r
            g.concede(d.actor)
            r.conceded_at = i
        elif pend is None:
            k = _repeats(rules, auto, seen, d)
            if k < 0 or g.conceded_by is not None:
                r.failure = Failure(i, _over(g))
                return r
            r.written_forced.append(i)  # an answer the engine took on the way to the end
            seen = k + 1
        elif belongs is not None and pend.default is not None and not belongs(i, pend):
            k = _repeats(rules, auto, seen, d)
            if k >= 0:  # an answer the engine took before this point, written out: the point waits on
                r.written_forced.append(i)
                seen = k + 1
            else:
                taken = g.take_default()
                if rules.found_nothing(taken):
                    r.nothing_before.append((i, taken))
                continue
        else:
            reason = g.check(d)
            if reason is None and plain_way:
                # the usual case, an answer; whether it could also be read as a written forced
                # answer (an ambiguity, for read_lines) is worked out only if the log fails
                if len(auto) > seen:
                    spans.append(i)
                    spans.append(seen)
                    spans.append(len(auto))
                answer = True
            else:
                k = _repeats(rules, auto, seen, d)
                if k >= 0 and (reason is not None or way.as_forced(i)):
                    if reason is None:
                        r.ambiguous.append(i)
                    r.written_forced.append(i)  # an answer the engine took itself, written out
                    seen = k + 1
                    answer = False
                elif reason is not None:
                    if pend.default is None:
                        forced = next((q for q in map(answer_of, reversed(auto[seen:]))
                                       if q.seat == d.seat and q.verb in rules.verbs_like(d)), None)
                        r.failure = Failure(i, tried[1] if tried is not None and tried[0] == i else reason, forced)
                        return r
                    # the log leaves this point out and the line is for a later one; if it fits
                    # nowhere, the reason given is the one at the first point it was written for
                    if tried is None and rules.aims(d, pend):
                        tried = (i, reason)
                    g.take_default()
                    continue
                else:
                    if k >= 0:
                        r.ambiguous.append(i)
                    answer = True
            if answer:
                seen = len(auto)
                tried = None
                g.answer(d)
                r.order.append(i)
        if i == cursor:
            cursor += 1
        else:
            ahead.add(i)
        if on_line is not None:
            on_line(i)
    r.after_last_line = seen
    while True:  # what the log leaves out after its last line
        pend = g.pending
        if pend is None or pend.default is None:
            break
        r.left_out.append(LeftOut(pend.player, pend.seat, pend.kind, pend.prompt, pend.default,
                                  list(g.legal_decisions())))
        g.take_default()
    return r


def _ambiguous(r: Reading, g: Any, lines: Sequence[Any], rules: Any) -> list[int]:
    """Every line read as an answer that also repeats an answer the engine took itself before it,
    or read the other way: the lines a re-reading may take differently."""
    s = r.spans
    found = [s[k] for k in range(0, len(s), 3) if _repeats(rules, g.auto[:s[k + 2]], s[k + 1], lines[s[k]]) >= 0]
    return sorted(found + r.ambiguous)


def read_lines(new_game: Callable[[], Any], lines: Sequence[Any], rules: Any = None, first: Any = None
               ) -> tuple[Any, Reading]:
    """Read ``lines`` into a fresh game from ``new_game``, ambiguous lines as answers. If that
    fails, try the other ways (each on a fresh game): every ambiguous line as a written forced
    answer (a log that writes them all), then single lines the other way, shortly before the
    failure. Returns the game and reading that got furthest; ``Reading.way`` says how it took the
    ambiguous lines. ``first``: a fresh game from ``new_game`` already made, for the first reading."""
    if rules is None:
        rules = rules_for(DEFAULT_GAME)
    g = first or new_game()
    r = read(g, lines, rules)
    if r.failure is None or not (_ambiguous(r, g, lines, rules) or r.written_forced):
        return g, r
    g2 = new_game()
    r2 = read(g2, lines, rules, way=Way(forced_first=True))
    if r2.failure is None or r2.consumed > r.consumed:
        g, r = g2, r2
    tries = 0
    while r.failure is not None and tries < MAX_REREADS:
        lo = r.failure.index - REREAD_WINDOW
        better = None
        for c in [i for i in reversed(_ambiguous(r, g, lines, rules)) if i >= lo][:MAX_REREADS - tries]:
            tries += 1
            g2 = new_game()
            r2 = read(g2, lines, rules, way=r.way.flipped(c))
            if r2.failure is None or r2.consumed > r.consumed:
                better = (g2, r2)
                break
        if better is None:
            break
        g, r = better
    return g, r


def _block_ends(lines: Sequence[Any], verbs: frozenset[str]) -> list[int]:
    """For each line whose verb is one of ``verbs`` (those written in any player order), the end
    (exclusive) of the run of such lines it is in."""
    ends = [0] * len(lines)
    end = len(lines)
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].verb in verbs:
            ends[i] = end
        else:
            ends[i] = end = i
    return ends


def _repeats(rules: Any, auto: list, seen: int, d: Any) -> int:
    """The index in ``auto`` (from ``seen``) of the answer the engine took that ``d`` writes down
    (the same line, or the game's unseen form of it); -1 if none."""
    answer_of = rules.answer_of
    writes = rules.writes_down
    for k in range(seen, len(auto)):
        if writes(d, answer_of(auto[k])):
            return k
    return -1


def _over(g: Any) -> str:
    if g.conceded_by is not None:
        return f"the game is over: P{g.conceded_by} conceded"
    return "the game is already over; no more decisions can be made"
