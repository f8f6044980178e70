"""The board's mutation points: every change a rule or an effect makes to cards, piles, might,
tokens and essence goes through one of these methods (a mixin of engine.game.Game).

Deploy, reveal, gain/lose might, tokens and stops, destroy (and destroy-shift), move, return,
shift, banish, stack, swap, discard, draw, shuffle, acquire; plus adjacency and betweenness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

from .decisions import Decision, Kind
from .rng import SplitMix64
from .state import (
    ANCHOR,
    AT_BANISH,
    AT_BOARD,
    AT_DECK,
    AT_DESTROY,
    AT_DISCARD,
    AT_HAND,
    AT_UNDER,
    MOVE,
    OFF_BOARD,
    PH_REVEAL,
    SHIELD,
    UNSEEN,
    BattlefieldDef,
    CardDef,
    CardInst,
    Ctx,
    Phase,
    PlayerState,
)

if TYPE_CHECKING:
    from .hidden import Knowledge


class Board:
    # The state these mutation points work on. engine.game.Game sets it up; it is declared here
    # so that this module is type-checked (and compiles to direct attribute access).
    n: int
    nbf: int
    bfs: list[BattlefieldDef]
    zones: list[int]
    board: list[list[list[CardInst]]]  # board[b][p-1]: player p's side of battlefield b
    players: list[PlayerState]
    round: int
    phase: Phase
    first: int
    rng: SplitMix64 | None
    movers: list[set[CardInst]]
    observers: list[Any]

    hidden: list[Knowledge | None]
    revealed: set[int]  # players whose reveal turn this round is over
    late: list[CardInst]  # cards deployed after their owner's reveal turn: revealed at the end of the phase

    # Hooks into the game's work stack and trigger bookkeeping (defined by engine.game.Game).
    def push(self, fn: Callable[..., None], *args: Any) -> None:
        raise NotImplementedError

    def run_actions(self, ctx: Ctx, actions: tuple[Any, ...]) -> None:
        raise NotImplementedError

    def emit(self, event: str, *args: Any) -> None:
        raise NotImplementedError

    def _open(self, b: int, owner: int) -> bool:
        raise NotImplementedError

    def _activate(self, card: CardInst) -> None:
        raise NotImplementedError

    def _deactivate(self, card: CardInst) -> None:
        raise NotImplementedError

    def _fire_card(self, card: CardInst, trigger: str, subject: CardInst | None) -> None:
        raise NotImplementedError

    def _fire_bf(self, b: int, trigger: str, p: int, subject: CardInst | None) -> None:
        raise NotImplementedError

    def _fire_allies(self, p: int, trigger: str, subject: CardInst) -> None:
        raise NotImplementedError

    def _draw_n(self, p: int, n: int, why: str) -> None:
        raise NotImplementedError

    def _forced(self, kind: Kind, seat: int, d: Decision) -> None:
        raise NotImplementedError

    def ask_pile_card(self, player: int, kind: Kind, prompt: str, owner: int, pool: list[CardInst],
                      match: Callable[[CardDef], bool] | None, on_pick: Callable[[CardInst], None], *,
                      hidden: bool, unseen_allowed: frozenset[str] | None = None) -> None:
        raise NotImplementedError

    def ask_bf(self, player: int, prompt: str, bfs: list[int], on_pick: Callable[[int], object]) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ primitives
    def board_cards(self) -> Iterable[CardInst]:
        for b in range(self.nbf):
            for side in self.board[b]:
                yield from side

    def _place(self, card: CardInst, b: int) -> bool:
        """Put a card in the lowest open zone of its owner's side of battlefield b."""
        side = self.board[b][card.owner - 1]
        if len(side) >= self.zones[b]:
            return False
        side.append(card)
        card.loc = AT_BOARD
        card.bf = b
        return True

    def _lift(self, card: CardInst) -> None:
        """Take a card off the board; the cards above it collapse (the list closes the gap)."""
        self.board[card.bf][card.owner - 1].remove(card)
        self._deactivate(card)
        card.bf = OFF_BOARD

    def deploy(self, card: CardInst, b: int, ctx: Ctx, *, by_ability: bool = False) -> bool:
        ps = self.players[card.owner - 1]
        src = card.loc
        if not self._open(b, card.owner):
            return False
        if src == AT_HAND:
            ps.hand.remove(card)
        elif src == AT_DISCARD:
            ps.discard.remove(card)
        elif src == AT_DESTROY:
            ps.destroyed.remove(card)
        elif src == AT_DECK:
            ps.deck.remove(card)
        card.face_up = False
        card.might = 0
        card.tokens = {}
        first_here = b not in ps.first_deploy_done
        ps.first_deploy_done.add(b)
        self._place(card, b)
        if len(self.board[b][card.owner - 1]) == self.zones[b] and "fill" in self.bfs[b].effects:
            # "Fills": deployed to the last open zone (a move or shift into it does not fill).
            self.push(type(self)._fire_bf, b, "fill", card.owner, card)
        if self.observers:
            self.emit("deploy", card, b, by_ability)
        # Face down, revealed in deploy order like any deployed card (both books: "put it face-down
        # during the reveal phase if instructed by a card ability"). A card deployed in the reveal
        # phase after its owner's reveal turn waits for the end of the phase (docs/rules.md, 13).
        if self.phase == PH_REVEAL and card.owner in self.revealed:
            self.late.append(card)
        else:
            ps.deploy_order.append(card)
        effects = self.bfs[b].effects
        if "deploy" in effects:
            self._fire_bf(b, "deploy", card.owner, card)
        if first_here and "first_deploy" in effects:
            self._fire_bf(b, "first_deploy", card.owner, card)
        return True

    def _turn_face_up(self, card: CardInst) -> None:
        """Face up with its reveal might and affixed tokens, its abilities listening."""
        card.face_up = True
        card.might = card.cdef.might
        for tok in card.cdef.affixed:
            if tok != MOVE:  # an affixed move token is permanent: see _can_token_move
                card.tokens[tok] = card.tokens.get(tok, 0) + 1
        self._activate(card)

    def reveal(self, card: CardInst) -> None:
        self._turn_face_up(card)
        if self.observers:
            self.emit("reveal", card)
        b = card.bf
        # Pushed in reverse: own ability, then ally triggers, then battlefield effects last.
        if "reveal" in self.bfs[b].effects:
            self.push(type(self)._fire_bf, b, "reveal", card.owner, card)
        for q in range(1, self.n + 1):
            if q != card.owner:
                self._fire_allies(q, "opponent_revealed", card)
        self._fire_allies(card.owner, "ally_revealed", card)
        self._resolve_own(card, "reveal")

    def _resolve_own(self, card: CardInst, trigger: str) -> None:
        if trigger not in card.cdef.effects:
            return
        if card.cdef.ability == "instant":
            side = self.players[card.owner - 1]
            if side.stops[card.bf] > 0:
                side.stops[card.bf] -= 1
                if self.observers:
                    self.emit("stopped", card)
                return
        self._fire_card(card, trigger, None)

    def gain_might(self, card: CardInst, n: int, ctx: Ctx) -> int:
        """Might from an ability or a battlefield effect. Only revealed cards gain might; a card's
        maximum might caps ability gains (battlefield effects may exceed it); battlefield bonuses
        on ability gains (the Fountain of Janus) come on top and are the battlefield's own."""
        if n <= 0 or card.loc != AT_BOARD or not card.face_up:
            return 0
        if not ctx.from_bf:
            cap = card.cdef.max_might
            if cap is not None:
                n = min(n, max(0, cap - card.might))
            if n <= 0:
                return 0
            for rule in self.bfs[card.bf].might_bonus:
                n += rule(self, card)
            card.gained_round = self.round
        card.might += n
        if self.observers:
            self.emit("might", card, n, ctx.source)
        return n

    def lose_might(self, card: CardInst, n: int, ctx: Ctx) -> int:
        if n <= 0 or card.loc != AT_BOARD or not card.face_up:
            return 0
        n = min(n, card.might)  # never below 0
        card.might -= n
        if n:
            if self.observers:
                self.emit("might", card, -n, ctx.source)
        return n

    def add_essence(self, p: int, n: int, now: bool) -> None:
        ps = self.players[p - 1]
        if now:
            ps.essence = max(0, ps.essence + n)
        else:
            ps.next_adjust += n

    def apply_token(self, card: CardInst, token: str, n: int = 1) -> None:
        if card.loc != AT_BOARD or not card.face_up or n <= 0:
            return
        card.tokens[token] = card.tokens.get(token, 0) + n
        if token == MOVE:
            self.movers[card.owner].add(card)
        if self.observers:
            self.emit("token", card, token, n)

    def remove_token(self, card: CardInst, token: str, n: int | None = None) -> int:
        have = card.tokens.get(token, 0)
        k = have if n is None else min(n, have)
        if k:
            card.tokens[token] = have - k
        return k

    def place_stop(self, p: int, b: int) -> None:
        """A stop token on every opponent's side of battlefield b (one opponent in a 2-player game)."""
        for q in self.players:
            if q.num != p:
                q.stops[b] += 1
        if "stop" in self.bfs[b].effects:  # a battlefield's "whenever you place a Stop token here"
            self._fire_bf(b, "stop", p, None)

    def destroy(self, cards: list[CardInst], ctx: Ctx, each: tuple = (), shift: bool = False) -> None:
        """Destroy cards one at a time, lowest zone first; see _destroy_one for the steps."""
        cards = sorted(cards, key=lambda c: (c.bf, self.board[c.bf][c.owner - 1].index(c)))
        for card in reversed(cards):
            self.push(type(self)._destroy_one, card, ctx, each, shift)

    def _destroy_one(self, card: CardInst, ctx: Ctx, each: tuple, shift: bool) -> None:
        if card.loc != AT_BOARD or not card.face_up or card.has(SHIELD):
            return
        b = card.bf
        card.leaving = not shift
        if not shift:
            card.might = 0  # remove all might tokens first
        ctx.count += 1
        ctx.subject = card
        if self.observers:
            self.emit("destroy", card, ctx.source)
        # Pushed in reverse: impact on the destroying card, the destroyed card's own conditional
        # ability, allies' "when destroyed" abilities, then the pile and the collapse.
        self.push(type(self)._destroy_finish, card, b, shift, ctx.player)
        self._fire_allies(card.owner, "ally_destroyed", card)
        self.push(type(self)._fire_card, card, "destroyed", None)
        if each:
            sub = Ctx(ctx.player, ctx.source, ctx.bf, card, ctx.from_bf)
            self.run_actions(sub, each)

    def _destroy_finish(self, card: CardInst, b: int, shift: bool, by: int) -> None:
        card.leaving = False
        if card.loc != AT_BOARD:
            return
        if shift:
            self._lift(card)
            self._place(card, b)
            self._activate(card)
            return
        ps = self.players[card.owner - 1]
        self._lift(card)
        if any(rule(self, card, by) for rule in self.bfs[b].destroy_to_hand):
            self._send_off(card, AT_HAND, ps.hand)
        else:
            self._send_off(card, AT_DESTROY, ps.destroyed, face_up=True)

    def _send_off(self, card: CardInst, loc, pile: list, face_up: bool = False) -> None:
        """A card that has left the board, with any cards stacked under it, loses its might and
        tokens and goes to ``pile`` (a hand, a pile, the unknown part of a deck)."""
        for c in [card] + card.under:
            c.might = 0
            c.tokens = {}
            c.face_up = face_up
            c.loc = loc
            pile.append(c)
        card.under = []

    def move(self, card: CardInst, to_b: int, ctx: Ctx) -> bool:
        if card.loc != AT_BOARD or card.has(ANCHOR) or to_b == card.bf or not self._open(to_b, card.owner):
            return False
        frm = card.bf
        self._lift(card)
        self._place(card, to_b)
        self._activate(card)
        if self.observers:
            self.emit("move", card, frm, to_b)
        self._fire_allies(card.owner, "ally_moved", card)
        self.push(type(self)._fire_card, card, "moved", None)
        return True

    def move_choice(self, card: CardInst, ctx: Ctx) -> None:
        """A reveal-phase move: mandatory; the resolving player picks the battlefield."""
        if card.loc != AT_BOARD or card.has(ANCHOR):
            return
        dests = [b for b in range(self.nbf) if b != card.bf and self._open(b, card.owner)]
        self.ask_bf(ctx.player, f"move {card.name} to which battlefield", dests,
                    lambda b: self.move(card, b, ctx))

    def return_to_hand(self, card: CardInst, ctx: Ctx) -> bool:
        if card.loc != AT_BOARD or not card.face_up or card.has(ANCHOR):
            return False
        self._lift(card)
        self._send_off(card, AT_HAND, self.players[card.owner - 1].hand)
        if self.observers:
            self.emit("return", card)
        return True

    def shift(self, card: CardInst) -> None:
        if card.loc != AT_BOARD:
            return
        b = card.bf
        self._lift(card)
        self._place(card, b)
        if card.face_up:
            self._activate(card)

    def banish(self, card: CardInst) -> None:
        ps = self.players[card.owner - 1]
        if card.loc == AT_BOARD:
            self._lift(card)
        elif card.loc == AT_HAND:
            ps.hand.remove(card)
        elif card.loc == AT_DISCARD:
            ps.discard.remove(card)
        else:
            return
        self._send_off(card, AT_BANISH, ps.banished)
        if self.observers:
            self.emit("banish", card)

    def stack_onto(self, mover: CardInst, base: CardInst, mover_on_top: bool) -> None:
        """``mover`` is put onto ``base``'s zone; the owner chose which is on top. Might combines on
        the top card, the bottom card's specialty tokens go, only the top card's ability is active."""
        if mover.loc != AT_BOARD or base.loc != AT_BOARD or mover is base:
            return
        side = self.board[base.bf][base.owner - 1]
        self._lift(mover)  # may collapse base's side, so find base's zone after it
        idx = side.index(base)
        top, bottom = (mover, base) if mover_on_top else (base, mover)
        if top is mover:
            side[idx] = mover
            mover.bf = base.bf
            mover.loc = AT_BOARD
            self._deactivate(base)
            self._activate(mover)
        # Combined might respects the top card's maximum: only battlefield effects may exceed it
        # (web book), so a stack never takes a card past it (nor below what it already has).
        cap = top.cdef.max_might
        combined = top.might + bottom.might
        top.might = combined if cap is None or combined <= cap else max(top.might, cap)
        bottom.might = 0
        bottom.tokens = {}
        bottom.loc = AT_UNDER
        bottom.bf = OFF_BOARD
        top.under.extend([bottom] + bottom.under)
        bottom.under = []
        if self.observers:
            self.emit("stack", top, bottom)

    def swap(self, old: CardInst, new: CardInst, ctx: Ctx) -> None:
        """``new`` (from hand or deck) takes ``old``'s zone; ``old`` goes where ``new`` came from."""
        if old.loc != AT_BOARD:
            return
        ps = self.players[old.owner - 1]
        src = new.loc
        if src == AT_HAND:
            ps.hand.remove(new)
        else:
            ps.deck.remove(new)
        side = self.board[old.bf][old.owner - 1]
        side[side.index(old)] = new
        self._deactivate(old)
        new.bf, new.loc = old.bf, AT_BOARD
        old.bf = OFF_BOARD
        # The old card, and any cards stacked under it, go where the new card came from.
        if src == AT_HAND:
            self._send_off(old, AT_HAND, ps.hand)
        else:
            self._send_off(old, AT_DECK, ps.deck.unknown)
            self.shuffle(ps.num)
        self._turn_face_up(new)
        if self.observers:
            self.emit("swap", old, new)
        self._fire_card(new, "reveal", None)  # a swap is not a reveal: no stop, no reveal triggers

    def discard(self, p: int, n: int, ctx: Ctx) -> None:
        # Queued, never done at once: several players' discards then come in the same order
        # whether their hands are known or not.
        self.push(type(self)._discard_ask, p, n, ctx)

    def _discard_ask(self, p: int, n: int, ctx: Ctx) -> None:
        ps = self.players[p - 1]
        if n <= 0 or not ps.hand:
            return
        if len(ps.hand) <= n and not any(c.cdef is UNSEEN for c in ps.hand):
            for c in list(ps.hand):  # each is the only answer there is: a log may write it
                self._forced(Kind.DISCARD, p, Decision(p, "choose", card=c.name))
                self._discard_card(ps, c)
            return
        # One at a time; a card nobody saw is asked about even when the whole hand goes, since
        # what it was (its own discard ability) may matter.

        def pick(card: CardInst) -> None:
            self.push(type(self)._discard_ask, p, n - 1, ctx)
            self._discard_card(ps, card)

        known = self.hidden[p - 1]
        self.ask_pile_card(p, Kind.DISCARD, f"discard {n} card{'s' if n > 1 else ''} from your hand", p, ps.hand,
                           None, pick, hidden=True, unseen_allowed=known.silent_discards if known else None)

    def _discard_card(self, ps: PlayerState, card: CardInst) -> None:
        ps.hand.remove(card)
        card.loc = AT_DISCARD
        ps.discard.append(card)
        if self.observers:
            self.emit("discard", card)
        self._fire_allies(ps.num, "ally_discarded", card)
        # A card's own "when discarded" ability works from the discard pile.
        effects = card.cdef.effects.get("discarded")
        if effects:
            for eff in reversed(effects):
                ctx = Ctx(ps.num, card, None, card)
                if eff.applies(self, ctx):
                    self.run_actions(ctx, eff.actions)

    def draw(self, p: int, n: int) -> None:
        self.push(type(self)._draw_n, p, n, "draw")

    def shuffle(self, p: int) -> None:
        deck = self.players[p - 1].deck
        cards = deck.gather()
        if self.rng is not None:
            cards.sort(key=lambda c: c.uid)
            self.rng.shuffle(cards)
            deck.top = cards
        else:
            deck.unknown = cards
        if self.observers:
            self.emit("shuffle", p)

    def acquire(self, p: int, names: frozenset[str], ctx: Ctx) -> None:
        """Search the deck for a card with one of ``names``; none there: no shuffle."""
        ps = self.players[p - 1]

        def pick(card: CardInst) -> None:
            ps.deck.remove(card)
            card.loc = AT_HAND
            ps.hand.append(card)
            if self.observers:
                self.emit("acquire", card)
            self.shuffle(p)

        # the deck's two parts as one pool: whichever card is taken, the deck is shuffled after it
        self.ask_pile_card(p, Kind.ACQUIRE, "acquire which card", p, ps.deck.cards(),
                           lambda c: c.name in names, pick, hidden=True)

    # ------------------------------------------------------------------ selectors' helpers
    def neighbours(self, card: CardInst) -> list[CardInst]:
        """The cards adjacent to ``card`` (same side: the zones beside it on its battlefield, the
        same zone on the battlefields above and below), in battlefield-then-zone order."""
        b, side = card.bf, self.board[card.bf][card.owner - 1]
        z = side.index(card)
        out: list[CardInst] = []
        if b > 0 and z < len(self.board[b - 1][card.owner - 1]):
            out.append(self.board[b - 1][card.owner - 1][z])
        if z > 0:
            out.append(side[z - 1])
        if z + 1 < len(side):
            out.append(side[z + 1])
        if b + 1 < self.nbf and z < len(self.board[b + 1][card.owner - 1]):
            out.append(self.board[b + 1][card.owner - 1][z])
        return out

    def adjacent(self, a: CardInst, b: CardInst) -> bool:
        if a.loc != AT_BOARD or b.loc != AT_BOARD or a.owner != b.owner:
            return False
        za = self.board[a.bf][a.owner - 1].index(a)
        zb = self.board[b.bf][b.owner - 1].index(b)
        if a.bf == b.bf:
            return abs(za - zb) == 1
        return abs(a.bf - b.bf) == 1 and za == zb

    def between(self, x: CardInst, a: CardInst, b: CardInst) -> bool:
        if any(c.loc != AT_BOARD or c.owner != x.owner for c in (a, b)):
            return False
        zx = self.board[x.bf][x.owner - 1].index(x)
        za = self.board[a.bf][a.owner - 1].index(a)
        zb = self.board[b.bf][b.owner - 1].index(b)
        if x.bf == a.bf == b.bf:
            return min(za, zb) < zx < max(za, zb)
        return (za == zx == zb and abs(a.bf - b.bf) == 2 and x.bf == (a.bf + b.bf) // 2)

    def describe(self) -> str:
        """The board as text, for people (the CLI's --explain and error reports)."""
        lines = [f"Round {self.round}, {self.phase.label} phase; first player P{self.first}"]
        for ps in self.players:
            lines.append(f"P{ps.num} ({ps.deck_name}): essence {ps.essence}, hand "
                         f"[{', '.join(c.name for c in ps.hand)}], deck {len(ps.deck)}, "
                         f"discard {len(ps.discard)}, destroyed {len(ps.destroyed)}")
        for b, bf in enumerate(self.bfs):
            lines.append(f"B{b + 1} {bf.name}:")
            for ps in self.players:
                side = self.board[b][ps.num - 1]
                cells = []
                for z, c in enumerate(side, 1):
                    if not c.face_up:
                        cells.append(f"Z{z} (face down)")
                        continue
                    toks = "".join(f" {k}×{v}" for k, v in c.tokens.items() if v)
                    stack = f" over {', '.join(u.name for u in c.under)}" if c.under else ""
                    cells.append(f"Z{z} {c.name} [{c.might}{toks}]{stack}")
                stops = f" stop×{ps.stops[b]}" if ps.stops[b] else ""
                lines.append(f"  P{ps.num}{stops}: " + ("; ".join(cells) if cells else "empty"))
        return "\n".join(lines)
