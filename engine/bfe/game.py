"""The game as a state machine of decision points.

One ``Game`` object holds the whole state. It runs the round structure and every effect through a
small LIFO work stack of frames ``(function, *args)``; whenever a player (or, in recorded chance, the
chance player) must decide, it stops with ``pending`` set to a ``DecisionPoint``. ``apply()`` feeds one
answer and runs on to the next decision point. A decision point with exactly one legal answer is
taken by the engine itself and never asked (so it never appears in a log).

The mutation points (deploy, reveal, gain/lose might, destroy, move, return, shift, stack, swap,
discard, acquire, banish, tokens, essence) and the triggers they fire are engine.bfe.board's functions
of the game; compiled card effects change the game only through those and ``Game.draw``.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Callable, Iterator, NamedTuple, Sequence

from ..rng import SplitMix64
from . import board
from .decisions import CHANCE, NOTHING, UNSEEN_NAME, Decision, Kind, Pos
from .hidden import Knowledge
from .observe import GameObserver
from .state import (
    ANCHOR,
    AT_BOARD,
    AT_DECK,
    AT_DRAWN,
    AT_HAND,
    MOVE,
    PH_BEGIN,
    PH_COMMAND,
    PH_DEPLOY,
    PH_DRAFT,
    PH_END,
    PH_END_OF_GAME,
    PH_OVER,
    PH_REVEAL,
    PH_SETUP,
    UNSEEN,
    BattlefieldDef,
    CardDef,
    CardInst,
    Ctx,
    Deck,
    PlayerState,
)

# The game's facts (docs/rules.md), declared here once; the log format and the catalog check
# against them too. By number of players: battlefields in play, rounds played.
BATTLEFIELDS = {2: 3, 3: 4}
ROUNDS = {2: 10, 3: 9}
HAND_SIZE = 4  # cards in the opening hand
# The deck template: how many cards of each cost a deck has (five 1-cost, four 2-cost, four 3-cost,
# three 4-cost, three 5-cost, two 6-cost, two 7-cost, one 8-cost).
TEMPLATE = {1: 5, 2: 4, 3: 4, 4: 3, 5: 3, 6: 2, 7: 2, 8: 1}
DECK_SIZE = sum(TEMPLATE.values())

# Decision points whose answer only their owner sees: a card drawn, kept, discarded or acquired.
# In one seat's view (``view``) the other players' points of these kinds are answered "unseen"
# unless the log says otherwise.
PRIVATE_KINDS = frozenset({Kind.CHANCE_DRAW, Kind.DRAFT_KEEP, Kind.DISCARD, Kind.ACQUIRE})


class End(str, Enum):
    """How a game ended (``Game.end``): the rule-book tally, a concession, or time called."""

    SCORE = "score"
    CONCESSION = "concession"
    TIME = "time"


# What a game stopped by time is worth (``Game.call_time``; a log names it in result.time_rule):
# "tally" scores the board as it stands like the end of the game (end-of-game effects do not
# resolve; face-down cards have no might), "draw" makes it a draw.
TIME_RULES = ("tally", "draw")


class IllegalDecision(Exception):
    """A decision that the rules do not allow at this point; ``reason`` says why in plain words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Rule(NamedTuple):
    """What one kind of decision point does, as plain functions of the game and the point's
    arguments (``DecisionPoint.args``): ``options(g, *args)`` the legal answers (lazily),
    ``check(g, d, *args)`` None or why ``d`` is not legal (without enumerating answers),
    ``take(g, d, *args)`` the answer's effect. Rules are made once, at import; a point holds no
    closure over the game's objects, only data, so ``Game.clone`` can copy it."""

    options: Callable[..., Iterator[Decision]]
    check: Callable[..., str | None]
    take: Callable[..., None]


# A continuation: what to do with the answer to a question, as data: ``(function, *args)``, called as
# ``function(game, answer, *args)`` (see ``then``); like the work stack's frames, it names a plain
# function and the objects it acts on, which a clone rebinds to its own.
Then = tuple[Any, ...]


def then(g: "Game", k: Then, answer: Any) -> None:
    """Run the continuation ``k`` with ``answer`` (a card, a battlefield index)."""
    k[0](g, answer, *k[1:])


class DecisionPoint:
    """Who decides, what kind of decision, in words; ``rule`` and ``args``: how the point lists its
    legal answers, checks one and takes one (``Rule``), and what it is about (plain data: numbers,
    names, cards, lists of cards, continuations).

    ``seat`` is the player the decision is about (the actor, or for a chance draw the player who
    draws). ``default`` is the answer a log may leave out: what an unseen card is taken to be in
    another player's seat view (``?``), or that nothing matched a choice among cards nobody saw
    (``choose nothing``). A driver (engine.reader) takes it when the next line does not answer the
    point."""

    __slots__ = ("player", "kind", "prompt", "rule", "args", "seat", "default")

    def __init__(self, player: int, kind: Kind, prompt: str, rule: Rule, args: tuple[Any, ...],
                 seat: int = 0, default: Decision | None = None) -> None:
        self.player = player
        self.kind = kind
        self.prompt = prompt
        self.rule = rule
        self.args = args
        self.seat = seat or player
        self.default = default

    def options(self, g: "Game") -> Iterator[Decision]:
        return self.rule.options(g, *self.args)

    def check(self, g: "Game", d: Decision) -> str | None:
        return self.rule.check(g, d, *self.args)

    def take(self, g: "Game", d: Decision) -> None:
        self.rule.take(g, d, *self.args)

    def __repr__(self) -> str:
        who = "chance" if self.player == CHANCE else f"P{self.player}"
        return f"<{who}: {self.kind.value} — {self.prompt}>"


class Answer(NamedTuple):
    """One answer to one decision point, as ``Game.trace`` keeps it for tools that follow a whole
    game (engine.seats). ``how``: "line" (given to ``play``), "forced" (the only legal answer,
    taken by the engine) or "default" (a point's default, taken by ``take_default``)."""

    kind: Kind
    seat: int
    decision: Decision
    how: str
    names: int  # how many different cards the point allowed (one: its answer is no secret)
    round: int
    prompt: str  # the point's question ("" for an answer the engine took itself)


_LINE, _DEFAULT = "line", "default"  # how an answer came (Answer.how)
_NO_CARDS: list[CardInst] = []  # never changed: the unseen cards of a hand in seeded chance


def forced_choice(entry: Any) -> Decision:
    """An entry of ``Game.auto`` as a Decision: most are; a forced choice of a card on the board is
    kept as a plain (player, owner, battlefield, zone) until it is needed."""
    if type(entry) is tuple:
        return Decision(entry[0], "choose", pos=Pos(entry[1], entry[2], entry[3]))
    return entry


def _bfname(b: int) -> str:
    return f"B{b + 1}"


class Game:
    def __init__(self, catalog, decks: list[list], battlefields: list, *, seed: int | None = None,
                 first_player: int | None = None, deck_names: list[str] | None = None,
                 observers: Sequence[GameObserver] | None = None, track_rounds: bool = False,
                 view: int | None = None, trace: bool = False, _copy_of: Game | None = None) -> None:
        """``decks``: per player, the list of CardDefs in deck-list order; ``battlefields``: the
        BattlefieldDefs. Seeded chance when ``seed`` is given, recorded chance otherwise; ``view``:
        recorded from that player's seat (the others' draws, keeps and discards are unseen).
        ``observers`` are told of every event (engine.bfe.observe). (``_copy_of``: see ``clone``.)"""
        if _copy_of is not None:
            self._copy(_copy_of)
            return
        self.catalog = catalog
        self._init: tuple[tuple[Any, ...], dict[str, Any]] = (
            (catalog, decks, battlefields),
            {"seed": seed, "first_player": first_player, "deck_names": deck_names, "view": view})
        self.n = len(decks)
        if self.n not in ROUNDS:
            raise ValueError("a game has 2 or 3 players")
        self.bfs: list[BattlefieldDef] = list(battlefields)
        self.nbf = len(self.bfs)
        if self.nbf != BATTLEFIELDS[self.n]:
            raise ValueError(f"a {self.n}-player game is played on {BATTLEFIELDS[self.n]} battlefields, "
                             f"not {self.nbf}")
        self.rounds = ROUNDS[self.n]
        self.rng = SplitMix64(seed) if seed is not None else None
        self.players = [PlayerState(i + 1, (deck_names or [""] * self.n)[i], self.nbf)
                        for i in range(self.n)]
        self.deck_lists: list[list[CardDef]] = [list(cdefs) for cdefs in decks]
        for p, cdefs in zip(self.players, decks):
            for i, cdef in enumerate(cdefs):
                c = CardInst(p.num * 100 + i, p.num, cdef)
                p.cards.append(c)
        # Recorded chance: what is known of each player's cards (None in seeded chance, where every
        # card is known). Filled in at setup, when the decks are shuffled.
        self.hidden: list[Knowledge | None] = [None] * self.n
        self.view = view
        # board[b][p-1] is player p's side of battlefield b: a compact list, index = zone - 1, so a
        # card leaving simply collapses the cards above it.
        self.board: list[list[list[CardInst]]] = [[[] for _ in range(self.n)] for _ in self.bfs]
        self.zones = [bf.zones for bf in self.bfs]
        self.any_cost_rules = any(bf.cost_rules for bf in self.bfs)
        # Every battlefield trigger in play: the phase triggers (begin_of_round, draft, command)
        # cost one set lookup a phase when no battlefield has them.
        self.bf_triggers: set[str] = set()
        for bf in self.bfs:
            self.bf_triggers.update(bf.effects)
        self.round = 0
        self.phase = PH_SETUP
        self.first = first_player or 0  # 1-based once known
        self.order: list[int] = []
        self.stack: list[tuple[Any, ...]] = []  # frames: (function, *arguments)
        self.pending: DecisionPoint | None = None
        self.over = False
        self.winner: int | None = None
        self.final_might: list[list[int]] | None = None
        self.fired: set = set()  # milestones: ("game", bf, effect) / ("player", bf, effect, p)
        self.listen: list[dict[str, list[CardInst]]] = [dict() for _ in range(self.n + 1)]
        self.movers: list[set[CardInst]] = [set() for _ in range(self.n + 1)]  # may hold move tokens
        self.observers: list[GameObserver] = list(observers or ())
        self.first_player_at_start = 0
        self.round_might: dict[int, list[list[int]]] | None = {} if track_rounds else None
        self.history: list[Decision] = []  # every decision applied, in order (what a log lists)
        # Answers the engine took itself (a point with one legal answer), in order: a log may write
        # them or leave them out (engine.reader matches written ones against this list).
        self.auto: list[Any] = []  # Decisions, or (player, owner, battlefield, zone) for forced_choice
        # Every answer to every decision point, forced or not, when a tool asks for it (None: off;
        # engine.seats also puts the game's draws in it)
        self.trace: list[Any] | None = [] if trace else None
        self.revealed: set[int] = set()  # players whose reveal turn this round is over
        self.late: list[CardInst] = []  # deployed by an ability after their owner's reveal turn
        self.end: End | None = None  # how the game ended, once over
        self.conceded_by: int | None = None
        self._pass = [Decision(p, "pass") for p in range(self.n + 1)]
        self.stack.append((Game._setup,))
        self._run()

    # ------------------------------------------------------------------ public interface
    def legal_decisions(self) -> Iterator[Decision]:
        """Lazily generated legal answers to the pending decision point."""
        if self.pending is None:
            return iter(())
        return self.pending.options(self)

    def check(self, d: Decision) -> str | None:
        """None if ``d`` is legal now, else the reason it is not (without enumerating answers)."""
        pend = self.pending
        if pend is None:
            return "the game is already over; no more decisions can be made"
        if d.actor != pend.player:
            who = "chance" if pend.player == CHANCE else f"player {pend.player}"
            return f"it is {who}'s turn to decide ({pend.kind.value}: {pend.prompt})"
        return pend.check(self, d)

    def apply(self, d: Decision) -> None:
        reason = self.play(d)
        if reason is not None:
            raise IllegalDecision(reason)

    def play(self, d: Decision) -> str | None:
        """Check and apply in one step: the reason ``d`` is illegal (state untouched), or None."""
        reason = self.check(d)
        if reason is not None:
            return reason
        pend = self.pending
        assert pend is not None  # check() answered for a pending point
        self._answer(pend, d, _LINE)
        return None

    def answer(self, d: Decision) -> None:
        """Apply ``d``, which ``check`` has just found legal (play() without checking twice)."""
        pend = self.pending
        assert pend is not None
        self._answer(pend, d, _LINE)

    def take_default(self) -> Decision:
        """Answer the pending point with its default (what a log may leave out); returns it."""
        pend = self.pending
        assert pend is not None and pend.default is not None, "no default to take"
        d = pend.default
        self._answer(pend, d, _DEFAULT)
        return d

    def _answer(self, pend: DecisionPoint, d: Decision, how: str) -> None:
        self.pending = None
        if self.trace is not None:
            self.trace.append(Answer(pend.kind, pend.seat, d, how, _names(self, pend), self.round, pend.prompt))
        (self.history if how == _LINE else self.auto).append(d)
        pend.take(self, d)
        self._run()

    def _forced(self, kind: Kind, seat: int, d: Decision) -> None:
        """Note an answer the engine takes itself because it is the only legal one (the caller
        applies it): a log may write it or leave it out."""
        self.auto.append(d)
        if self.trace is not None:
            self.trace.append(Answer(kind, seat, d, "forced", 1, self.round, ""))

    def concede(self, p: int) -> None:
        """Player ``p`` concedes: the game ends at once. In a 2-player game the other player wins;
        in a 3-player game the other two are scored against each other on the board as it stands
        (docs/rules.md, "Games that end early")."""
        assert not self.over, "the game is already over"
        self.conceded_by = p
        if self.trace is not None:
            self.trace.append(Answer(Kind.CONCEDE, p, Decision(p, "concede"), "line", 0, self.round, ""))
        self._finish(End.CONCESSION, [q for q in range(self.n) if q != p - 1])

    def call_time(self, rule: str) -> None:
        """Time is called: the game stops here and is scored by ``rule`` (one of TIME_RULES)."""
        assert not self.over, "the game is already over"
        self._finish(End.TIME, [] if rule == "draw" else list(range(self.n)))

    def unseen(self) -> list[int]:
        """Per player, how many of their cards left the deck unseen and were never seen since."""
        out = []
        for ps in self.players:
            n = sum(1 for c in ps.cards if c.cdef is UNSEEN and c.loc != AT_DECK)
            out.append(n + sum(1 for c in ps.deck.bottom if c.cdef is UNSEEN))
        return out

    def clone(self) -> Game:
        """An independent copy of the game as it stands (for bots looking ahead): the same state,
        pending decision and work stack, the same generator state, its own cards, contexts and
        lists; what the catalog compiled (card and battlefield definitions, effects) is shared.
        Observers are not copied: a clone reports to nobody. A decision point and the stack's
        frames are data (``Rule``, ``Then``: functions and the objects they act on), so the copy
        rebinds every reference to the copy's own objects (``_Copier``)."""
        return Game(self.catalog, [], [], _copy_of=self)

    def _copy(self, o: Game) -> None:
        """Become a copy of ``o`` (``clone``)."""
        m = _Copier()
        cards = m.cards
        for ps in o.players:
            for c in ps.cards:
                cards[c] = c.copy()
        for c, new in cards.items():
            if c.under:
                new.under = m.cards_of(c.under)
        self.catalog = o.catalog
        self._init = o._init
        self.n = o.n
        self.bfs = o.bfs
        self.nbf = o.nbf
        self.rounds = o.rounds
        self.rng = o.rng.copy() if o.rng is not None else None
        self.players = [m.player(ps) for ps in o.players]
        self.deck_lists = o.deck_lists
        self.hidden = [k.copy(cards) if k is not None else None for k in o.hidden]
        self.view = o.view
        self.board = [[m.cards_of(side) for side in sides] for sides in o.board]
        self.zones = o.zones
        self.any_cost_rules = o.any_cost_rules
        self.bf_triggers = o.bf_triggers
        self.round = o.round
        self.phase = o.phase
        self.first = o.first
        self.order = list(o.order)
        self.stack = [m.dup(f) for f in o.stack]
        pend = o.pending
        self.pending = None if pend is None else DecisionPoint(
            pend.player, pend.kind, pend.prompt, pend.rule, m.dup(pend.args), pend.seat, pend.default)
        self.over = o.over
        self.winner = o.winner
        self.final_might = [list(row) for row in o.final_might] if o.final_might is not None else None
        self.fired = set(o.fired)
        self.listen = [{trig: m.cards_of(lst) for trig, lst in reg.items()} for reg in o.listen]
        self.movers = [{cards[c] for c in movers} for movers in o.movers]
        self.observers = []
        self.first_player_at_start = o.first_player_at_start
        self.round_might = dict(o.round_might) if o.round_might is not None else None
        self.history = list(o.history)
        self.auto = list(o.auto)
        self.trace = list(o.trace) if o.trace is not None else None
        self.revealed = set(o.revealed)
        self.late = m.cards_of(o.late)
        self.end = o.end
        self.conceded_by = o.conceded_by
        self._pass = o._pass

    def might_table(self) -> list[list[int]]:
        """might[p-1][b]: total might of player p on battlefield b."""
        return [[sum(c.might for c in self.board[b][p]) for b in range(self.nbf)]
                for p in range(self.n)]

    def position(self, card: CardInst) -> Pos | None:
        if card.loc != AT_BOARD:
            return None
        return Pos(card.owner, card.bf + 1, self.board[card.bf][card.owner - 1].index(card) + 1)

    def at(self, pos: Pos) -> CardInst | None:
        if not (1 <= pos.owner <= self.n and 1 <= pos.bf <= self.nbf):
            return None
        side = self.board[pos.bf - 1][pos.owner - 1]
        return side[pos.zone - 1] if 1 <= pos.zone <= len(side) else None

    # ------------------------------------------------------------------ the driver
    def _run(self) -> None:
        stack = self.stack
        while self.pending is None:
            if stack:
                f = stack.pop()
                f[0](self, *f[1:])
            elif self.over:
                return
            else:
                self._next_phase()

    def push(self, fn: Callable[..., None], *args: Any) -> None:
        self.stack.append((fn, *args))

    def run_actions(self, ctx: Ctx, actions: tuple[Any, ...]) -> None:
        """Queue an effect's actions to run in order (each may stop for a decision). Each action
        is its own frame; what an action pushes runs before the next action, as it should."""
        if len(actions) == 1:
            self.stack.append((actions[0], ctx))
        else:
            self.stack.extend([(a, ctx) for a in actions[::-1]])

    # ------------------------------------------------------------------ round structure
    def _setup(self) -> None:
        """Chance decides the first player: the PRNG (seeded), the given player, or else a chance
        decision point 'C first P<n>' (recorded)."""
        if self.rng is not None:
            self.first = self.rng.below(self.n) + 1
        elif not self.first:
            self.push(Game._setup_decks)
            self.pending = DecisionPoint(CHANCE, Kind.CHANCE_FIRST_PLAYER, "who gets the first player token",
                                         _FIRST, ())
            return
        self._setup_decks()

    def _first_options(self) -> Iterator[Decision]:
        return (Decision(CHANCE, "first", player=p) for p in range(1, self.n + 1))

    def _first_check(self, d: Decision) -> str | None:
        if d.verb != "first" or d.player is None or not 1 <= d.player <= self.n:
            return f"chance decides who goes first: 'C first P1' .. 'C first P{self.n}'"
        return None

    def _first_take(self, d: Decision) -> None:
        assert d.player is not None  # check() made sure
        self.first = d.player

    def _setup_decks(self) -> None:
        for p in self.players:
            for c in p.cards:
                c.loc = AT_DECK
            if self.rng is not None:
                cards = list(p.cards)
                self.rng.shuffle(cards)
                p.deck.top = cards
            else:
                # Real cards, shuffled: none of them is known until it shows itself.
                for c in p.cards:
                    c.cdef = UNSEEN
                p.deck.unknown = list(p.cards)
                self.hidden[p.num - 1] = Knowledge(p.num, p.deck_name, p.cards, self.deck_lists[p.num - 1])
        self.first_player_at_start = self.first
        self.order = self._order()
        if self.rng is not None:  # seeded: the order is known, so no chance decisions to wait for
            for p in self.players:
                for _ in range(HAND_SIZE):
                    self._to_hand_drawn(p, p.deck.top.pop(0), "setup")
        else:
            for p in reversed(self.players):
                self.push(Game.draw, p.num, HAND_SIZE, "setup")

    def _order(self) -> list[int]:
        return [(self.first - 1 + i) % self.n + 1 for i in range(self.n)]

    def _next_phase(self) -> None:
        ph = self.phase
        if ph in (PH_SETUP, PH_END):
            if ph == PH_END and self.round >= self.rounds:
                self.phase = PH_END_OF_GAME
                self.push(Game._tally)
                self._push_trigger_all("end_of_game")
                return
            self.round += 1
            self.phase = PH_BEGIN
            for p in self.players:
                p.essence = max(0, self.round + 1 + p.next_adjust)  # never below 0
                p.next_adjust = 0
                p.spent = 0
                # a card deployed by an ability in the end phase is still face down: revealed first
                if p.deploy_order:
                    p.deploy_order = [c for c in p.deploy_order if c.loc == AT_BOARD and not c.face_up]
            if self.observers:
                for o in self.observers:
                    o.on_round_start(self)
            if "begin_of_round" in self.bf_triggers:
                # Begin phase, once essence is set: battlefield order, first player first.
                self._push_trigger_all("begin_of_round")
        elif ph in _TURN_PHASES:
            # Draft, command, deploy and reveal: each player's turn in first-player order.
            self.phase, turn, args = _TURN_PHASES[ph]
            if self.phase == PH_REVEAL:
                self.revealed = set()
                self.stack.append((Game._reveal_late,))  # under the turns: after every player's
            bft = self.bf_triggers
            after = "draft" if self.phase == PH_DRAFT and "draft" in bft else ""
            before = "command" if self.phase == PH_COMMAND and "command" in bft else ""
            for num in reversed(self.order):
                if after:  # under the turn: resolves once this player's draft is done
                    self._push_bf_player(after, num)
                self.stack.append((turn, num, *args))
                if before:  # over the turn: resolves at the start of this player's command turn
                    self._push_bf_player(before, num)
        elif ph == PH_REVEAL:
            self.phase = PH_END
            self.push(Game._end_round)
            self._push_trigger_all("end_of_round")
        else:  # pragma: no cover - OVER never reaches here
            self.over = True

    def _push_trigger_all(self, trigger: str) -> None:
        """Card effects first (first-player order, then battlefield and zone), then battlefields."""
        frames = []
        for p in self.order:
            for card in board.listeners(self, p, trigger):
                frames.append((board.fire_card, card, trigger, None))
        # Battlefields resolve last, so they go on the stack first (in reverse order; fire_bf
        # only queues, it reads no state), then the cards' frames on top of them.
        for b in reversed(range(self.nbf)):
            if trigger in self.bfs[b].effects:
                for p in reversed(self.order):
                    board.fire_bf(self, b, trigger, p, None)
        self.stack.extend(reversed(frames))

    def _push_bf_player(self, trigger: str, p: int) -> None:
        """One player's battlefield effects for ``trigger``, battlefield 1 first."""
        for b in reversed(range(self.nbf)):
            if trigger in self.bfs[b].effects:
                board.fire_bf(self, b, trigger, p, None)

    def _end_round(self) -> None:
        if self.round_might is not None:
            self.round_might[self.round] = self.might_table()
        if self.observers:
            for o in self.observers:
                o.on_round_end(self)
        i = self.order.index(self.first)
        self.first = self.order[(i + 1) % self.n] if self.n > 1 else self.first
        self.order = self._order()

    def _tally(self) -> None:
        self._finish(End.SCORE, list(range(self.n)))

    def _finish(self, end: End, pool: list[int]) -> None:
        """End the game, scored among the players of ``pool`` (0-based seats; empty: a draw) on the
        board as it stands."""
        might = self.might_table()
        self.final_might = might
        self.winner = _winner(might, pool) if pool else None
        self.end = end
        self.pending = None
        self.stack.clear()  # a concession or time stops whatever was still to resolve
        self.phase = PH_OVER
        self.over = True
        if self.observers:
            for o in self.observers:
                o.on_game_end(self)

    # ------------------------------------------------------------------ draft
    def _draft(self, p: int) -> None:
        ps = self.players[p - 1]
        n = len(ps.deck)
        if n == 0:
            return  # empty deck: skip the draft
        if n == 1:
            self.push(Game.draw, p, 1, "draft")  # a deck of one: just draw it
            return
        self.push(Game._draft_keep, p)
        if len(ps.deck.top) >= 2:  # known order (seeded chance): no chance decision needed
            top = ps.deck.top
            self._to_hand_drawn(ps, top.pop(0), "drafted")
            self._to_hand_drawn(ps, top.pop(0), "drafted")
            return
        self.push(Game.draw, p, 2, "drafted")

    def _draft_keep(self, p: int) -> None:
        drawn = [c for c in self.players[p - 1].hand if c.loc is AT_DRAWN]
        known = self.hidden[p - 1]
        a, b = drawn[0].cdef.name, drawn[1].cdef.name
        if known is None or (drawn[0].cdef is not UNSEEN and drawn[1].cdef is not UNSEEN):
            names = [a] if a == b else [a, b] if a < b else [b, a]
        else:
            names = known.possible_names(drawn)
        shown = f"{a} / {b}"
        if len(names) == 1:  # two copies of one card: the only answer, taken by the engine
            d = Decision(p, "keep", card=names[0])
            self._forced(Kind.DRAFT_KEEP, p, d)
            self._keep_take(d, p, drawn, names, shown)
            return
        self.pending = DecisionPoint(
            p, Kind.DRAFT_KEEP, f"keep one of {shown}; the other goes to the bottom of your deck",
            _KEEP, (p, drawn, names, shown),
            default=Decision(p, "keep", card=UNSEEN_NAME) if self._unseen_by_view(p) else None)

    def _keep_options(self, p: int, drawn: list[CardInst], names: list[str], shown: str) -> Iterator[Decision]:
        yield from (Decision(p, "keep", card=nm) for nm in names)
        if self.hidden[p - 1] is not None:
            yield Decision(p, "keep", card=UNSEEN_NAME)

    def _keep_check(self, d: Decision, p: int, drawn: list[CardInst], names: list[str], shown: str) -> str | None:
        known = self.hidden[p - 1]
        if d.verb != "keep":
            return f"it is the draft: keep one of {shown} ('P{p} keep <card>')"
        if d.card == UNSEEN_NAME:
            return None if known is not None else "every card is known in a seeded game; name the card kept"
        if d.card not in names:
            if known is not None and any(c.cdef is UNSEEN for c in drawn) and d.card in known.counts:
                return known.explain(d.card, "kept")
            return f"{d.card!r} is not one of the two cards drafted: {shown}"
        return None

    def _keep_take(self, d: Decision, p: int, drawn: list[CardInst], names: list[str], shown: str) -> None:
        ps = self.players[p - 1]
        known = self.hidden[p - 1]
        kept: CardInst | None
        if d.card == UNSEEN_NAME:
            assert known is not None  # check(): '?' only in recorded chance
            kept = known.take_unseen(drawn)
        else:
            kept = next((c for c in drawn if c.cdef.name == d.card), None)
            if kept is None:
                assert known is not None and d.card is not None  # check() made sure
                kept = known.identify([c for c in drawn if c.cdef is UNSEEN], d.card)
        assert kept is not None  # check() made sure
        other = drawn[1] if kept is drawn[0] else drawn[0]
        kept.loc = AT_HAND
        ps.hand.remove(other)
        other.loc = AT_DECK
        ps.deck.bottom.append(other)
        if self.observers:
            for o in self.observers:
                o.on_draft(self, p, kept, other)

    def _unseen_by_view(self, seat: int) -> bool:
        """Whether the log is another player's seat view: what ``seat`` draws, keeps or discards
        is unseen unless the log says otherwise (the default of such a private point)."""
        return self.view is not None and seat != self.view

    def draw(self, p: int, n: int, why: str = "draw") -> None:
        """Player p draws n cards, one at a time (each may wait for a chance decision). ``why``
        (setup, draft, drafted, draw) says what for: "drafted" cards wait in the hand to be kept
        or put back."""
        if n <= 0:
            return
        self.push(Game.draw, p, n - 1, why)
        self.push(Game._draw_one, p, why)

    def _draw_one(self, p: int, why: str) -> None:
        ps = self.players[p - 1]
        deck = ps.deck
        if deck.top:  # seeded chance: the order is known
            self._to_hand_drawn(ps, deck.top.pop(0), why)
            return
        if not deck.unknown and not deck.bottom:
            return
        known = self.hidden[p - 1]
        if known is None:  # seeded chance: the cards put on the bottom, in their known order
            self._to_hand_drawn(ps, deck.bottom.pop(0), why)
            return
        # shuffled: the card comes from the shuffled part (any of them), else it is the first one
        # put on the bottom since the last shuffle
        shuffled = bool(deck.unknown)
        some = known.some_names(_draw_pool(deck, shuffled), 2)
        if len(some) == 1:  # the only card it can be: taken by the engine
            d = Decision(CHANCE, "draw", card=some[0], player=p)
            self._forced(Kind.CHANCE_DRAW, p, d)
            self._draw_take(d, p, why, shuffled)
            return
        self.pending = DecisionPoint(CHANCE, Kind.CHANCE_DRAW, f"which card player {p} draws", _DRAW,
                                     (p, why, shuffled), seat=p,
                                     default=Decision(CHANCE, "draw", card=UNSEEN_NAME, player=p)
                                     if self._unseen_by_view(p) else None)

    def _draw_options(self, p: int, why: str, shuffled: bool) -> Iterator[Decision]:
        known = self.hidden[p - 1]
        assert known is not None  # a chance draw is asked only in recorded chance
        pool = _draw_pool(self.players[p - 1].deck, shuffled)
        yield from (Decision(CHANCE, "draw", card=nm, player=p) for nm in known.possible_names(pool))
        yield Decision(CHANCE, "draw", card=UNSEEN_NAME, player=p)

    def _draw_check(self, d: Decision, p: int, why: str, shuffled: bool) -> str | None:
        known = self.hidden[p - 1]
        assert known is not None
        deck = self.players[p - 1].deck
        pool = _draw_pool(deck, shuffled)
        if d.verb != "draw" or d.player != p:
            return f"player {p} draws a card now; write it as 'C draw P{p} <card>' ('?' if unseen)"
        if d.card == UNSEEN_NAME or (d.card is not None and known.could_be(pool, d.card)):
            return None
        names = known.possible_names(pool)
        if not shuffled:
            return (f"{d.card!r} cannot be the card player {p} drew: the next card is the one put on the "
                    f"bottom of the deck first, which can only be {', '.join(names)}")
        if any(c.cdef.name == d.card for c in deck.bottom):
            return (f"{d.card!r} cannot be the card player {p} drew: the {d.card} put on the bottom of the "
                    f"deck comes back only after the shuffled part, which can only hold {', '.join(names)}")
        return f"{d.card!r} cannot be the card player {p} drew: {known.explain(d.card or '', 'drew')}"

    def _draw_take(self, d: Decision, p: int, why: str, shuffled: bool) -> None:
        known = self.hidden[p - 1]
        assert known is not None
        ps = self.players[p - 1]
        deck = ps.deck
        pool = _draw_pool(deck, shuffled)
        card: CardInst | None
        if d.card == UNSEEN_NAME:
            card = known.take_unseen(deck.unknown) if shuffled else pool[0]
        elif pool[0].cdef.name == d.card:
            card = pool[0]
        elif shuffled:
            card = next((c for c in pool if c.cdef.name == d.card), None) or known.identify(
                [c for c in pool if c.cdef is UNSEEN], d.card or "")
        else:
            card = known.identify(pool, d.card or "")
        assert card is not None  # check() made sure
        if shuffled:
            deck.unknown.remove(card)
        else:
            deck.bottom.pop(0)
        self._to_hand_drawn(ps, card, why)

    def _to_hand_drawn(self, ps: PlayerState, card: CardInst, why: str) -> None:
        card.loc = AT_DRAWN if why == "drafted" else AT_HAND
        ps.hand.append(card)
        if self.observers:
            for o in self.observers:
                o.on_draw(self, ps.num, card)

    # ------------------------------------------------------------------ command phase
    def _command_actions(self, p: int) -> tuple[list[CardInst], list[CardInst]]:
        """Cards that may use a command ability, and cards that may move with a move token."""
        cmd = [c for c in board.listeners(self, p, "command")
               if c.used_round != self.round and board.can_trigger(c)]
        movers = self.movers[p]
        for c in list(movers):
            if c.loc != AT_BOARD or not c.face_up or not (c.tokens.get(MOVE) or MOVE in c.cdef.affixed):
                movers.discard(c)  # token used up or card gone: forget it
        mov = sorted((c for c in movers if self._can_token_move(c)),
                     key=lambda c: (c.bf, self.board[c.bf][c.owner - 1].index(c)))
        return cmd, mov

    def _can_token_move(self, c: CardInst) -> bool:
        if c.has(ANCHOR):
            return False
        affixed = MOVE in c.cdef.affixed and c.used_round != self.round
        if not (c.has(MOVE) or affixed):
            return False
        return any(b != c.bf and self._open(b, c.owner) for b in range(self.nbf))

    def _command_turn(self, p: int) -> None:
        if not self.listen[p].get("command") and not self.movers[p]:
            self._forced(Kind.COMMAND, p, self._pass[p])  # nothing on the board can act: nothing to ask
            return
        cmd, mov = self._command_actions(p)
        if not cmd and not mov:
            self._forced(Kind.COMMAND, p, self._pass[p])
            return

        self.pending = DecisionPoint(p, Kind.COMMAND, "use a command ability, move a card with a "
                                     "move token, or pass", _COMMAND, (p, cmd, mov))

    def _command_options(self, p: int, cmd: list[CardInst], mov: list[CardInst]) -> Iterator[Decision]:
        yield Decision(p, "pass")
        for c in cmd:
            yield Decision(p, "command", pos=self.position(c))
        for c in mov:
            for b in range(self.nbf):
                if b != c.bf and self._open(b, c.owner):
                    yield Decision(p, "move", pos=self.position(c), bf=b + 1)

    def _command_check(self, d: Decision, p: int, cmd: list[CardInst], mov: list[CardInst]) -> str | None:
        if d.verb == "pass":
            return None
        if d.verb not in ("command", "move"):
            return ("it is the command phase: use a command ability ('command P1:B1Z2'), "
                    "move a card with a move token ('move P1:B1Z2 to B3') or 'pass'")
        if d.pos is None:
            return "name the card by its position, e.g. 'command P1:B1Z2'"
        card = self.at(d.pos)
        if card is None or d.pos.owner != p:
            return f"there is no card of player {p} at {d.pos}"
        if d.verb == "command":
            if card not in cmd:
                return f"{card.name} at {d.pos} has no command ability it can use this round"
            return None
        if card not in mov:
            return f"{card.name} at {d.pos} has no move token it can use (or is anchored)"
        if d.bf is None or not (1 <= d.bf <= self.nbf) or d.bf - 1 == card.bf:
            return "a move must go to another battlefield"
        if not self._open(d.bf - 1, card.owner):
            return f"battlefield {d.bf} has no open zone on player {card.owner}'s side"
        return None

    def _command_take(self, d: Decision, p: int, cmd: list[CardInst], mov: list[CardInst]) -> None:
        if d.verb == "pass":
            return
        self.push(Game._command_turn, p)
        assert d.pos is not None  # check() made sure of the position and the battlefield
        card = self.at(d.pos)
        assert card is not None
        if d.verb == "command":
            card.used_round = self.round
            if self.observers:
                for o in self.observers:
                    o.on_command(self, card)
            board.fire_card(self, card, "command", None)
        else:
            if card.has(MOVE):
                card.tokens[MOVE] -= 1
            else:
                card.used_round = self.round
            assert d.bf is not None
            board.move(self, card, d.bf - 1, Ctx(p, card, card.bf))

    # ------------------------------------------------------------------ deploy phase
    def cost_of(self, card: CardInst, b: int) -> int:
        cost = card.cdef.cost
        if not self.bfs[b].cost_rules:
            return cost
        for st in self.bfs[b].cost_rules:
            cost += st(self, card)
        return max(0, cost)

    def _open(self, b: int, owner: int) -> bool:
        return len(self.board[b][owner - 1]) < self.zones[b]

    def _deploy_turn(self, p: int) -> None:
        ps = self.players[p - 1]
        unseen = [c for c in ps.hand if c.cdef is UNSEEN] if self.hidden[p - 1] is not None else _NO_CARDS
        if not ps.hand or not any(self._open(b, p) for b in range(self.nbf)):
            self._forced(Kind.DEPLOY, p, self._pass[p])  # nothing can be deployed: the pass is forced
            return
        if not self.any_cost_rules and not unseen:
            if not any(c.cdef.cost <= ps.essence for c in ps.hand):
                self._forced(Kind.DEPLOY, p, self._pass[p])
                return
        elif next(self._legal_pairs(p, unseen), None) is None:
            self._forced(Kind.DEPLOY, p, self._pass[p])
            return
        self.pending = DecisionPoint(p, Kind.DEPLOY, f"deploy a card ({ps.essence} essence "
                                     "left) or pass", _DEPLOY, (p, unseen))

    def _legal_pairs(self, p: int, unseen: list[CardInst]) -> Iterator[tuple[str, int]]:
        """Every card player p's hand may hold (a known one, or what an unseen one may be) with every
        battlefield it could be paid for on; whether an unseen card may be that card is asked only
        once it could be paid for somewhere."""
        ps = self.players[p - 1]
        seen: set[str] = set()
        for c in ps.hand:
            cdef = c.cdef
            if cdef is UNSEEN or cdef.name in seen:
                continue
            seen.add(cdef.name)
            for b in range(self.nbf):
                if self._open(b, p) and self.cost_of(c, b) <= ps.essence:
                    yield cdef.name, b
        if unseen:
            known = self.hidden[p - 1]
            assert known is not None
            for name, cdef in known.defs.items():
                if name in seen:
                    continue
                possible: bool | None = None
                for b in range(self.nbf):
                    if self._open(b, p) and self._cost(cdef, p, b) <= ps.essence:
                        if possible is None:
                            possible = known.could_be(unseen, name)
                        if not possible:
                            break
                        yield name, b

    def _deploy_options(self, p: int, unseen: list[CardInst]) -> Iterator[Decision]:
        yield Decision(p, "pass")
        for name, b in self._legal_pairs(p, unseen):
            yield Decision(p, "deploy", card=name, bf=b + 1)

    def _deploy_check(self, d: Decision, p: int, unseen: list[CardInst]) -> str | None:
        if d.verb == "pass":
            return None
        if d.verb != "deploy":
            return "it is the deploy phase: deploy a card ('deploy <card> to B2') or 'pass'"
        ps = self.players[p - 1]
        known = self.hidden[p - 1]
        name = d.card or ""
        card = ps.in_hand(name)
        if card is None:
            if not unseen or known is None:
                return f"{d.card!r} is not in player {p}'s hand"
            if not known.could_be(unseen, name):
                return known.explain(name, "revealed")
        if d.bf is None or not 1 <= d.bf <= self.nbf:
            return f"there is no battlefield {d.bf}; this game has {self.nbf}"
        b = d.bf - 1
        if not self._open(b, p):
            return f"battlefield {d.bf} is full on player {p}'s side ({self.zones[b]} zones)"
        cost = self.cost_of(card, b) if card is not None else self._cost(known.defs[name], p, b)  # type: ignore[union-attr]
        if cost > ps.essence:
            return (f"{name} costs {cost} essence on battlefield {d.bf} but player {p} "
                    f"has only {ps.essence} left this round")
        return None

    def _deploy_take(self, d: Decision, p: int, unseen: list[CardInst]) -> None:
        if d.verb == "pass":
            return
        self.push(Game._deploy_turn, p)
        assert d.card is not None and d.bf is not None  # check() made sure
        ps = self.players[p - 1]
        card = ps.in_hand(d.card)
        if card is None:
            known = self.hidden[p - 1]
            assert known is not None
            card = known.identify([c for c in ps.hand if c.cdef is UNSEEN], d.card)
        assert card is not None
        b = d.bf - 1
        cost = self.cost_of(card, b)
        ps.essence -= cost
        ps.spent += cost
        board.deploy(self, card, b, Ctx(p, card, b))

    def _cost(self, cdef: CardDef, owner: int, b: int) -> int:
        """What a card (perhaps not yet seen) would cost its owner on battlefield b."""
        if not self.bfs[b].cost_rules:
            return cdef.cost
        return self.cost_of(CardInst(-1, owner, cdef), b)

    # ------------------------------------------------------------------ reveal phase
    def _reveal_turn(self, p: int, i: int) -> None:
        order = self.players[p - 1].deploy_order
        if i >= len(order):
            self.revealed.add(p)
            return
        self.push(Game._reveal_turn, p, i + 1)
        card = order[i]
        if card.loc == AT_BOARD and not card.face_up:
            board.reveal(self, card)

    def _reveal_late(self) -> None:
        """The end of the reveal phase: cards an ability deployed after their owner's reveal turn
        are revealed now, in the order they were deployed."""
        if not self.late:
            return
        card = self.late.pop(0)
        self.push(Game._reveal_late)
        if card.loc == AT_BOARD and not card.face_up:
            board.reveal(self, card)

    # ------------------------------------------------------------------ questions
    def ask(self, player: int, kind: Kind, prompt: str, rule: Rule, args: tuple[Any, ...], *,
            optional: bool = False, default: Decision | None = None) -> None:
        """Pose a decision (``rule`` over ``args``: see Rule), unless it has only one legal answer
        (then take that at once); ``default``: the answer a log may leave out (DecisionPoint.default)."""
        if not optional:
            it = rule.options(self, *args)
            first = next(it, None)
            if first is None:
                return
            if next(it, None) is None:
                self._forced(kind, player, first)
                rule.take(self, first, *args)
                return
        self.pending = DecisionPoint(player, kind, prompt, rule, args, default=default)

    def ask_pile_card(self, player: int, kind: Kind, prompt: str, owner: int, pool: list[CardInst],
                      match: Callable[[CardDef], bool] | None, on_pick: Then, *,
                      hidden: bool, unseen_allowed: frozenset[str] | None = None, pointless: bool = False) -> None:
        """Ask ``player`` which card of ``pool`` (``owner``'s hand, a pile, or the deck) they pick,
        among those ``match`` accepts (a filter made once, or of values only: it is shared by
        clones); ``on_pick`` gets the card (``then``). A card nobody saw may be anything its owner
        could still have there; a name picks a known card or shows an unseen one. ``hidden``: the
        card stays out of sight (a discard, an acquire), so '?' is an answer, limited to
        ``unseen_allowed``, and in another player's seat view the default. If maybe no card matches
        (only unseen ones could), the point may also be left out of the log, or answered 'choose
        nothing'; so may a ``pointless`` one, whose answer can change nothing (docs/rules.md,
        "Choices that cannot change anything")."""
        known = self.hidden[owner - 1]
        unseen = [c for c in pool if c.cdef is UNSEEN] if known is not None else []
        names = sorted({c.cdef.name for c in pool if c.cdef is not UNSEEN and (match is None or match(c.cdef))})
        if unseen:
            assert known is not None
            names = sorted(set(names).union(known.possible_names(unseen, match)))
        if not names:
            return
        wanted = frozenset(n for n, d in known.defs.items() if match is None or match(d)) if known else frozenset()
        sure = not unseen or any(c.cdef is not UNSEEN and (match is None or match(c.cdef)) for c in pool) \
            or not known.could_avoid(unseen, wanted)  # type: ignore[union-attr]
        sure = sure and not pointless  # (a pointless choice may also be answered: nothing)
        if sure and len(names) == 1:  # the only card it can be: taken by the engine
            d = Decision(player, "choose", card=names[0])
            self._forced(kind, owner, d)
            self._pick_pile_card(owner, pool, d, match, unseen_allowed, on_pick)
            return
        default = Decision(player, "choose", card=UNSEEN_NAME) if hidden and sure and self._unseen_by_view(owner) \
            else None
        if not sure:
            default = Decision(player, NOTHING)
        self.pending = DecisionPoint(player, kind, prompt, _PILE_CARD,
                                     (player, prompt, owner, pool, match, on_pick, hidden, unseen_allowed, pointless,
                                      unseen, names, wanted, sure), seat=owner, default=default)

    def _pile_options(self, player: int, prompt: str, owner: int, pool: list[CardInst],
                      match: Callable[[CardDef], bool] | None, on_pick: Then, hidden: bool,
                      unseen_allowed: frozenset[str] | None, pointless: bool, unseen: list[CardInst],
                      names: list[str], wanted: frozenset[str], sure: bool) -> Iterator[Decision]:
        yield from (Decision(player, "choose", card=nm) for nm in names)
        if hidden and self.hidden[owner - 1] is not None:
            yield Decision(player, "choose", card=UNSEEN_NAME)
        if not sure:
            yield Decision(player, NOTHING)

    def _pile_check(self, d: Decision, player: int, prompt: str, owner: int, pool: list[CardInst],
                    match: Callable[[CardDef], bool] | None, on_pick: Then, hidden: bool,
                    unseen_allowed: frozenset[str] | None, pointless: bool, unseen: list[CardInst],
                    names: list[str], wanted: frozenset[str], sure: bool) -> str | None:
        known = self.hidden[owner - 1]
        if d.verb == NOTHING:
            return None if not sure else (f"{prompt}: a card there certainly fits, so one is chosen; "
                                          f"name it ('choose <card>')")
        if d.verb != "choose" or d.card is None or d.pos is not None or d.bf is not None:
            return f"{prompt}: answer 'choose <card>'" + (" ('?' if unseen)" if hidden else "")
        if d.card == UNSEEN_NAME:
            if not hidden or known is None:
                return f"{prompt}: the card shows itself, so name it ('choose <card>')"
            allowed = wanted if unseen_allowed is None else wanted & unseen_allowed
            if not known.could_take_unseen(self._pile_candidates(pool, match), allowed):
                return (f"{prompt}: no card player {owner} could have there fits an unseen choice "
                        "(a card whose ability shows itself when discarded must be named)")
            return None
        if d.card in names:
            return None
        if known is not None and unseen and (match is None or (d.card in known.defs and match(known.defs[d.card]))):
            return f"{prompt}: {known.explain(d.card, 'chose')}"
        return f"{d.card!r} is not among the cards to choose from: {', '.join(names)}"

    def _pile_take(self, d: Decision, player: int, prompt: str, owner: int, pool: list[CardInst],
                   match: Callable[[CardDef], bool] | None, on_pick: Then, hidden: bool,
                   unseen_allowed: frozenset[str] | None, pointless: bool, unseen: list[CardInst],
                   names: list[str], wanted: frozenset[str], sure: bool) -> None:
        if d.verb == NOTHING:
            if pointless:
                return
            known = self.hidden[owner - 1]
            assert known is not None  # only offered when unseen cards might all not match
            known.restrict(unseen, known.all_names - wanted)
            return
        self._pick_pile_card(owner, pool, d, match, unseen_allowed, on_pick)

    def _pile_candidates(self, pool: list[CardInst], match: Callable[[CardDef], bool] | None) -> list[CardInst]:
        return [c for c in pool if c.cdef is UNSEEN or match is None or match(c.cdef)]

    def _pick_pile_card(self, owner: int, pool: list[CardInst], d: Decision, match: Callable[[CardDef], bool] | None,
                        unseen_allowed: frozenset[str] | None, on_pick: Then) -> None:
        known = self.hidden[owner - 1]
        card: CardInst | None
        if d.card == UNSEEN_NAME:
            assert known is not None
            wanted = frozenset(n for n, c in known.defs.items() if match is None or match(c))
            card = known.take_unseen(self._pile_candidates(pool, match),
                                     wanted if unseen_allowed is None else wanted & unseen_allowed)
        else:
            card = next((c for c in pool if c.cdef is not UNSEEN and c.cdef.name == d.card), None)
            if card is None:
                assert known is not None and d.card is not None
                card = known.identify([c for c in pool if c.cdef is UNSEEN], d.card)
        assert card is not None  # check() made sure
        then(self, on_pick, card)

    def ask_card(self, player: int, kind: Kind, prompt: str, cands: list[CardInst], on_pick: Then) -> None:
        """Ask ``player`` to choose one of ``cands`` (cards on the board) by its position; ``on_pick``
        gets the card (``then``)."""
        if not cands:
            return
        if len(cands) == 1:  # the only answer: taken by the engine, never asked
            c = cands[0]
            if c.loc == AT_BOARD:
                # noted as (player, owner, battlefield, zone): the Decision is made only if a log's
                # line is ever compared with it (engine.reader), which is rare
                spot = (player, c.owner, c.bf + 1, self.board[c.bf][c.owner - 1].index(c) + 1)
                if self.trace is not None:
                    self._forced(kind, player, forced_choice(spot))
                else:
                    self.auto.append(spot)
            then(self, on_pick, c)
            return
        positions = {self.position(c): c for c in cands}
        self.ask(player, kind, prompt, _CARD, (player, prompt, positions, on_pick))

    def _card_options(self, player: int, prompt: str, positions: dict[Pos, CardInst],
                      on_pick: Then) -> Iterator[Decision]:
        return (Decision(player, "choose", pos=pos) for pos in positions)

    def _card_check(self, d: Decision, player: int, prompt: str, positions: dict[Pos, CardInst],
                    on_pick: Then) -> str | None:
        if d.verb != "choose" or d.pos is None:
            return f"{prompt}: answer 'choose P1:B1Z2' with a card's position"
        if d.pos not in positions:
            card = self.at(d.pos)
            what = f"{card.name} at {d.pos}" if card else f"nothing is at {d.pos}; it"
            return (f"{what} cannot be chosen ({prompt}); the choices are "
                    + ", ".join(f"{c.name} at {pos}" for pos, c in positions.items()))
        return None

    def _card_take(self, d: Decision, player: int, prompt: str, positions: dict[Pos, CardInst],
                   on_pick: Then) -> None:
        assert d.pos is not None  # check() made sure
        then(self, on_pick, positions[d.pos])

    def ask_bf(self, player: int, prompt: str, bfs: list[int], on_pick: Then) -> None:
        """Ask ``player`` to choose one of the battlefields ``bfs`` (0-based); ``on_pick`` gets its
        index (``then``)."""
        if not bfs:
            return
        self.ask(player, Kind.TARGET_BATTLEFIELD, prompt, _BF, (player, prompt, bfs, on_pick))

    def _bf_options(self, player: int, prompt: str, bfs: list[int], on_pick: Then) -> Iterator[Decision]:
        return (Decision(player, "choose", bf=b + 1) for b in bfs)

    def _bf_check(self, d: Decision, player: int, prompt: str, bfs: list[int], on_pick: Then) -> str | None:
        if d.verb != "choose" or d.bf is None or d.pos is not None:
            return f"{prompt}: answer 'choose B2' with a battlefield number"
        if d.bf - 1 not in bfs:
            return (f"battlefield {d.bf} cannot be chosen ({prompt}); the choices are "
                    + ", ".join(_bfname(b) for b in bfs))
        return None

    def _bf_take(self, d: Decision, player: int, prompt: str, bfs: list[int], on_pick: Then) -> None:
        assert d.bf is not None  # check() made sure
        then(self, on_pick, d.bf - 1)

    def ask_may(self, player: int, prompt: str, on_yes: tuple[Any, ...], *, pointless: bool = False) -> None:
        """Ask yes or no; ``on_yes`` is a work-stack frame ``(function, *args)`` run on a yes. A
        ``pointless`` one (a yes would do nothing) may be left out of a log: its default is no."""
        self.ask(player, Kind.MAY, prompt, _MAY, (player, prompt, on_yes), optional=True,
                 default=Decision(player, "no") if pointless else None)

    def _may_options(self, player: int, prompt: str, on_yes: tuple[Any, ...]) -> Iterator[Decision]:
        return iter((Decision(player, "yes"), Decision(player, "no")))

    def _may_check(self, d: Decision, player: int, prompt: str, on_yes: tuple[Any, ...]) -> str | None:
        return None if d.verb in ("yes", "no") else f"{prompt}: answer 'yes' or 'no'"

    def _may_take(self, d: Decision, player: int, prompt: str, on_yes: tuple[Any, ...]) -> None:
        if d.verb == "yes":
            on_yes[0](self, *on_yes[1:])


class _Copier:
    """The memo of one ``Game.clone``: every card, context and list of cards of the old game
    mapped to its copy, so that what the old game shares (a context in several frames, a pile that
    a pending question looks at) the copy shares too. ``dup`` copies the data of a frame or of a
    decision point's arguments; anything it does not know is shared: numbers, names, decisions,
    functions, and what the catalog compiled (none of it changes during a game)."""

    __slots__ = ("cards", "ctxs", "lists")

    def __init__(self) -> None:
        self.cards: dict[CardInst, CardInst] = {}
        self.ctxs: dict[Ctx, Ctx] = {}
        self.lists: dict[int, list[Any]] = {}  # id(old list) -> its copy

    def cards_of(self, old: list[CardInst]) -> list[CardInst]:
        cards = self.cards
        new = [cards[c] for c in old]
        self.lists[id(old)] = new
        return new

    def player(self, ps: PlayerState) -> PlayerState:
        n = PlayerState(ps.num, ps.deck_name, 0)
        n.hand = self.cards_of(ps.hand)
        deck = n.deck
        deck.top = self.cards_of(ps.deck.top)
        deck.unknown = self.cards_of(ps.deck.unknown)
        deck.bottom = self.cards_of(ps.deck.bottom)
        n.discard = self.cards_of(ps.discard)
        n.destroyed = self.cards_of(ps.destroyed)
        n.banished = self.cards_of(ps.banished)
        n.essence = ps.essence
        n.spent = ps.spent
        n.next_adjust = ps.next_adjust
        n.deploy_order = self.cards_of(ps.deploy_order)
        n.stops = list(ps.stops)
        n.first_deploy_done = set(ps.first_deploy_done)
        n.cards = self.cards_of(ps.cards)
        return n

    def ctx(self, c: Ctx) -> Ctx:
        n = self.ctxs.get(c)
        if n is None:
            cards = self.cards
            n = Ctx(c.player, None if c.source is None else cards[c.source], c.bf,
                    None if c.subject is None else cards[c.subject], c.from_bf)
            if c.target is not None:
                n.target = cards[c.target]
            n.count = c.count
            self.ctxs[c] = n
        return n

    def dup(self, x: Any) -> Any:
        t = type(x)
        if t is tuple:
            return tuple([self.dup(v) for v in x])
        if t is CardInst:
            return self.cards[x]
        if t is Ctx:
            return self.ctx(x)
        if t is list:
            new = self.lists.get(id(x))
            return new if new is not None else [self.dup(v) for v in x]
        if t is dict:
            return {k: self.dup(v) for k, v in x.items()}
        if t is set:
            return {self.dup(v) for v in x}
        return x


def battlefield_winners(might: list[list[int]], pool: list[int]) -> list[int | None]:
    """Per battlefield, the player of ``pool`` (0-based seat) with the strictly highest might there,
    or None where the highest might is tied."""
    out: list[int | None] = []
    for b in range(len(might[0])):
        col = [(might[p][b], p) for p in pool]
        top = max(v for v, _ in col)
        leaders = [p for v, p in col if v == top]
        out.append(leaders[0] if len(leaders) == 1 else None)
    return out


def _winner(might: list[list[int]], pool: list[int]) -> int | None:
    """The tally among the players of ``pool``: a battlefield goes to the strictly highest might;
    winning two battlefields wins. If a tie gets in the way (no single player with two), total might
    decides, between just the players who won two if there are several of them. None: a draw."""
    wins = {p: 0 for p in pool}
    for p in battlefield_winners(might, pool):
        if p is not None:
            wins[p] += 1
    contenders = [p for p in pool if wins[p] >= 2]
    if len(contenders) == 1:
        return contenders[0] + 1
    among = contenders if len(contenders) >= 2 else pool
    totals = {p: sum(might[p]) for p in among}
    best = max(totals.values())
    leaders = [p for p in among if totals[p] == best]
    return leaders[0] + 1 if len(leaders) == 1 else None


def clone_by_replay(g: Game) -> Game:
    """The slow reference for ``Game.clone``: the same starting position with every decision of
    ``g``'s history replayed (what a clone was before decision points became data). Only for games
    whose every answer is in the history (seeded self-play, no defaults taken, no concession)."""
    h = Game(*g._init[0], **g._init[1])
    for d in g.history:
        h.apply(d)
    return h


def _names(g: Game, pend: DecisionPoint) -> int:
    """How many different cards a decision point allows (0 for points that are not about a card)."""
    if pend.kind not in PRIVATE_KINDS and pend.kind != Kind.CHOOSE_CARD:
        return 0
    return len({d.card for d in pend.options(g) if d.card is not None and d.card != UNSEEN_NAME})


def _draw_pool(deck: Deck, shuffled: bool) -> list[CardInst]:
    """Where a player's next card comes from when the deck's order is not known: the shuffled part
    (any of its cards), or else the first card put on the bottom since the last shuffle."""
    return deck.unknown if shuffled else deck.bottom[:1]


# The decision points' rules (made once; a point is one of these and its arguments).
_FIRST = Rule(Game._first_options, Game._first_check, Game._first_take)
_KEEP = Rule(Game._keep_options, Game._keep_check, Game._keep_take)
_DRAW = Rule(Game._draw_options, Game._draw_check, Game._draw_take)
_COMMAND = Rule(Game._command_options, Game._command_check, Game._command_take)
_DEPLOY = Rule(Game._deploy_options, Game._deploy_check, Game._deploy_take)
_PILE_CARD = Rule(Game._pile_options, Game._pile_check, Game._pile_take)
_CARD = Rule(Game._card_options, Game._card_check, Game._card_take)
_BF = Rule(Game._bf_options, Game._bf_check, Game._bf_take)
_MAY = Rule(Game._may_options, Game._may_check, Game._may_take)

# phase just ended -> (next phase, the per-player turn that runs it, extra arguments of the turn)
_TURN_PHASES = {
    PH_BEGIN: (PH_DRAFT, Game._draft, ()),
    PH_DRAFT: (PH_COMMAND, Game._command_turn, ()),
    PH_COMMAND: (PH_DEPLOY, Game._deploy_turn, ()),
    PH_DEPLOY: (PH_REVEAL, Game._reveal_turn, (0,)),
}
