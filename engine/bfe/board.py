"""The board's mutation points and the triggers they fire: every change a rule or an effect makes
to cards, piles, might, tokens and essence goes through one of these functions, each taking the
game first (``board.deploy(g, card, b, ctx)``).

Deploy, reveal, gain/lose might, tokens and stops, destroy (and destroy-shift), move, return,
shift, banish, stack, swap, discard, shuffle, acquire; which cards listen for which trigger, and
firing card and battlefield effects in the rules' order; adjacency and betweenness; the board as
text. Work that waits its turn goes on the game's stack as a frame ``(function, *args)``, which
the game calls as ``function(game, *args)``: any of these functions can be pushed as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from .decisions import Decision, Kind
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
    STUN,
    UNSEEN,
    CardFilter,
    CardInst,
    Ctx,
    Loc,
    PlayerState,
)

if TYPE_CHECKING:
    from .game import Game


# ---------------------------------------------------------------------------- primitives
def board_cards(g: Game) -> Iterator[CardInst]:
    for b in range(g.nbf):
        for side in g.board[b]:
            yield from side


def _place(g: Game, card: CardInst, b: int) -> bool:
    """Put a card in the lowest open zone of its owner's side of battlefield b."""
    side = g.board[b][card.owner - 1]
    if len(side) >= g.zones[b]:
        return False
    side.append(card)
    card.loc = AT_BOARD
    card.bf = b
    return True


def _lift(g: Game, card: CardInst) -> None:
    """Take a card off the board; the cards above it collapse (the list closes the gap)."""
    g.board[card.bf][card.owner - 1].remove(card)
    deactivate(g, card)
    card.bf = OFF_BOARD


# ---------------------------------------------------------------------------- mutation points
def deploy(g: Game, card: CardInst, b: int, ctx: Ctx, *, by_ability: bool = False) -> bool:
    ps = g.players[card.owner - 1]
    src = card.loc
    if not g._open(b, card.owner):
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
    _place(g, card, b)
    if len(g.board[b][card.owner - 1]) == g.zones[b] and "fill" in g.bfs[b].effects:
        # "Fills": deployed to the last open zone (a move or shift into it does not fill).
        g.push(fire_bf, b, "fill", card.owner, card)
    if g.observers:
        for o in g.observers:
            o.on_deploy(g, card, b, by_ability)
    # Face down, revealed in deploy order like any deployed card (both books: "put it face-down
    # during the reveal phase if instructed by a card ability"). A card deployed in the reveal
    # phase after its owner's reveal turn waits for the end of the phase (docs/rules.md, 13).
    if g.phase == PH_REVEAL and card.owner in g.revealed:
        g.late.append(card)
    else:
        ps.deploy_order.append(card)
    effects = g.bfs[b].effects
    if "deploy" in effects:
        fire_bf(g, b, "deploy", card.owner, card)
    if first_here and "first_deploy" in effects:
        fire_bf(g, b, "first_deploy", card.owner, card)
    return True


def _turn_face_up(g: Game, card: CardInst) -> None:
    """Face up with its reveal might and affixed tokens, its abilities listening."""
    card.face_up = True
    card.might = card.cdef.might
    for tok in card.cdef.affixed:
        if tok != MOVE:  # an affixed move token is permanent: see Game._can_token_move
            card.tokens[tok] = card.tokens.get(tok, 0) + 1
    activate(g, card)


def reveal(g: Game, card: CardInst) -> None:
    _turn_face_up(g, card)
    if g.observers:
        for o in g.observers:
            o.on_reveal(g, card)
    b = card.bf
    # Pushed in reverse: own ability, then ally triggers, then battlefield effects last.
    if "reveal" in g.bfs[b].effects:
        g.push(fire_bf, b, "reveal", card.owner, card)
    for q in range(1, g.n + 1):
        if q != card.owner:
            fire_allies(g, q, "opponent_revealed", card)
    fire_allies(g, card.owner, "ally_revealed", card)
    _resolve_own(g, card, "reveal")


def _resolve_own(g: Game, card: CardInst, trigger: str) -> None:
    if trigger not in card.cdef.effects:
        return
    if card.cdef.ability == "instant":
        side = g.players[card.owner - 1]
        if side.stops[card.bf] > 0:
            side.stops[card.bf] -= 1
            if g.observers:
                for o in g.observers:
                    o.on_stopped(g, card)
            return
    fire_card(g, card, trigger, None)


def gain_might(g: Game, card: CardInst, n: int, ctx: Ctx) -> int:
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
        for rule in g.bfs[card.bf].might_bonus:
            n += rule(g, card)
        card.gained_round = g.round
    card.might += n
    if g.observers:
        for o in g.observers:
            o.on_might(g, card, n, ctx.source)
    return n


def lose_might(g: Game, card: CardInst, n: int, ctx: Ctx) -> int:
    if n <= 0 or card.loc != AT_BOARD or not card.face_up:
        return 0
    n = min(n, card.might)  # never below 0
    card.might -= n
    if n and g.observers:
        for o in g.observers:
            o.on_might(g, card, -n, ctx.source)
    return n


def add_essence(g: Game, p: int, n: int, now: bool) -> None:
    ps = g.players[p - 1]
    if now:
        ps.essence = max(0, ps.essence + n)
    else:
        ps.next_adjust += n


def apply_token(g: Game, card: CardInst, token: str, n: int = 1) -> None:
    if card.loc != AT_BOARD or not card.face_up or n <= 0:
        return
    card.tokens[token] = card.tokens.get(token, 0) + n
    if token == MOVE:
        g.movers[card.owner].add(card)
    if g.observers:
        for o in g.observers:
            o.on_token(g, card, token, n)


def remove_token(g: Game, card: CardInst, token: str, n: int | None = None) -> int:
    have = card.tokens.get(token, 0)
    k = have if n is None else min(n, have)
    if k:
        card.tokens[token] = have - k
    return k


def place_stop(g: Game, p: int, b: int) -> None:
    """A stop token on every opponent's side of battlefield b (one opponent in a 2-player game)."""
    for q in g.players:
        if q.num != p:
            q.stops[b] += 1
    if "stop" in g.bfs[b].effects:  # a battlefield's "whenever you place a Stop token here"
        fire_bf(g, b, "stop", p, None)


def destroy(g: Game, cards: list[CardInst], ctx: Ctx, each: tuple = (), shift: bool = False) -> None:
    """Destroy cards one at a time, lowest zone first; see _destroy_one for the steps."""
    cards = sorted(cards, key=lambda c: (c.bf, g.board[c.bf][c.owner - 1].index(c)))
    for card in reversed(cards):
        g.push(_destroy_one, card, ctx, each, shift)


def _destroy_one(g: Game, card: CardInst, ctx: Ctx, each: tuple, shift: bool) -> None:
    if card.loc != AT_BOARD or not card.face_up or card.has(SHIELD):
        return
    b = card.bf
    card.leaving = not shift
    if not shift:
        card.might = 0  # remove all might tokens first
    ctx.count += 1
    ctx.subject = card
    if g.observers:
        for o in g.observers:
            o.on_destroy(g, card, ctx.source)
    # Pushed in reverse: impact on the destroying card, the destroyed card's own conditional
    # ability, allies' "when destroyed" abilities, then the pile and the collapse.
    g.push(_destroy_finish, card, b, shift, ctx.player)
    fire_allies(g, card.owner, "ally_destroyed", card)
    g.push(fire_card, card, "destroyed", None)
    if each:
        sub = Ctx(ctx.player, ctx.source, ctx.bf, card, ctx.from_bf)
        g.run_actions(sub, each)


def _destroy_finish(g: Game, card: CardInst, b: int, shift: bool, by: int) -> None:
    card.leaving = False
    if card.loc != AT_BOARD:
        return
    if shift:
        _lift(g, card)
        _place(g, card, b)
        activate(g, card)
        return
    ps = g.players[card.owner - 1]
    _lift(g, card)
    if any(rule(g, card, by) for rule in g.bfs[b].destroy_to_hand):
        _send_off(card, AT_HAND, ps.hand)
    else:
        _send_off(card, AT_DESTROY, ps.destroyed, face_up=True)


def _send_off(card: CardInst, loc: Loc, pile: list[CardInst], face_up: bool = False) -> None:
    """A card that has left the board, with any cards stacked under it, loses its might and
    tokens and goes to ``pile`` (a hand, a pile, the unknown part of a deck)."""
    for c in [card] + card.under:
        c.might = 0
        c.tokens = {}
        c.face_up = face_up
        c.loc = loc
        pile.append(c)
    card.under = []


def move(g: Game, card: CardInst, to_b: int, ctx: Ctx) -> bool:
    if card.loc != AT_BOARD or card.has(ANCHOR) or to_b == card.bf or not g._open(to_b, card.owner):
        return False
    frm = card.bf
    _lift(g, card)
    _place(g, card, to_b)
    activate(g, card)
    if g.observers:
        for o in g.observers:
            o.on_move(g, card, frm, to_b)
    fire_allies(g, card.owner, "ally_moved", card)
    g.push(fire_card, card, "moved", None)
    return True


def move_choice(g: Game, card: CardInst, ctx: Ctx) -> None:
    """A reveal-phase move: mandatory; the resolving player picks the battlefield."""
    if card.loc != AT_BOARD or card.has(ANCHOR):
        return
    dests = [b for b in range(g.nbf) if b != card.bf and g._open(b, card.owner)]
    g.ask_bf(ctx.player, f"move {card.name} to which battlefield", dests, (_move_to, card, ctx))


def _move_to(g: Game, b: int, card: CardInst, ctx: Ctx) -> None:
    move(g, card, b, ctx)


def return_to_hand(g: Game, card: CardInst, ctx: Ctx) -> bool:
    if card.loc != AT_BOARD or not card.face_up or card.has(ANCHOR):
        return False
    _lift(g, card)
    _send_off(card, AT_HAND, g.players[card.owner - 1].hand)
    if g.observers:
        for o in g.observers:
            o.on_return(g, card)
    return True


def shift(g: Game, card: CardInst) -> None:
    if card.loc != AT_BOARD:
        return
    b = card.bf
    _lift(g, card)
    _place(g, card, b)
    if card.face_up:
        activate(g, card)


def banish(g: Game, card: CardInst) -> None:
    ps = g.players[card.owner - 1]
    if card.loc == AT_BOARD:
        _lift(g, card)
    elif card.loc == AT_HAND:
        ps.hand.remove(card)
    elif card.loc == AT_DISCARD:
        ps.discard.remove(card)
    else:
        return
    _send_off(card, AT_BANISH, ps.banished)
    if g.observers:
        for o in g.observers:
            o.on_banish(g, card)


def stack_onto(g: Game, mover: CardInst, base: CardInst, mover_on_top: bool) -> None:
    """``mover`` is put onto ``base``'s zone; the owner chose which is on top. Might combines on
    the top card, the bottom card's specialty tokens go, only the top card's ability is active."""
    if mover.loc != AT_BOARD or base.loc != AT_BOARD or mover is base:
        return
    side = g.board[base.bf][base.owner - 1]
    _lift(g, mover)  # may collapse base's side, so find base's zone after it
    idx = side.index(base)
    top, bottom = (mover, base) if mover_on_top else (base, mover)
    if top is mover:
        side[idx] = mover
        mover.bf = base.bf
        mover.loc = AT_BOARD
        deactivate(g, base)
        activate(g, mover)
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
    if g.observers:
        for o in g.observers:
            o.on_stack(g, top, bottom)


def swap(g: Game, old: CardInst, new: CardInst, ctx: Ctx) -> None:
    """``new`` (from hand or deck) takes ``old``'s zone; ``old`` goes where ``new`` came from."""
    if old.loc != AT_BOARD:
        return
    ps = g.players[old.owner - 1]
    src = new.loc
    if src == AT_HAND:
        ps.hand.remove(new)
    else:
        ps.deck.remove(new)
    side = g.board[old.bf][old.owner - 1]
    side[side.index(old)] = new
    deactivate(g, old)
    new.bf, new.loc = old.bf, AT_BOARD
    old.bf = OFF_BOARD
    # The old card, and any cards stacked under it, go where the new card came from.
    if src == AT_HAND:
        _send_off(old, AT_HAND, ps.hand)
    else:
        _send_off(old, AT_DECK, ps.deck.unknown)
        shuffle(g, ps.num)
    _turn_face_up(g, new)
    if g.observers:
        for o in g.observers:
            o.on_swap(g, old, new)
    fire_card(g, new, "reveal", None)  # a swap is not a reveal: no stop, no reveal triggers


def discard(g: Game, p: int, n: int, ctx: Ctx) -> None:
    # Queued, never done at once: several players' discards then come in the same order
    # whether their hands are known or not.
    g.push(_discard_ask, p, n, ctx)


def _discard_ask(g: Game, p: int, n: int, ctx: Ctx) -> None:
    ps = g.players[p - 1]
    if n <= 0 or not ps.hand:
        return
    if len(ps.hand) <= n and not any(c.cdef is UNSEEN for c in ps.hand):
        for c in list(ps.hand):  # each is the only answer there is: a log may write it
            g._forced(Kind.DISCARD, p, Decision(p, "choose", card=c.name))
            _discard_card(g, ps, c)
        return
    # One at a time; a card nobody saw is asked about even when the whole hand goes, since
    # what it was (its own discard ability) may matter.
    known = g.hidden[p - 1]
    g.ask_pile_card(p, Kind.DISCARD, f"discard {n} card{'s' if n > 1 else ''} from your hand", p, ps.hand,
                    None, (_discard_pick, p, n, ctx), hidden=True,
                    unseen_allowed=known.silent_discards if known else None)


def _discard_pick(g: Game, card: CardInst, p: int, n: int, ctx: Ctx) -> None:
    g.push(_discard_ask, p, n - 1, ctx)
    _discard_card(g, g.players[p - 1], card)


def _discard_card(g: Game, ps: PlayerState, card: CardInst) -> None:
    ps.hand.remove(card)
    card.loc = AT_DISCARD
    ps.discard.append(card)
    if g.observers:
        for o in g.observers:
            o.on_discard(g, card)
    fire_allies(g, ps.num, "ally_discarded", card)
    # A card's own "when discarded" ability works from the discard pile.
    effects = card.cdef.effects.get("discarded")
    if effects:
        for eff in reversed(effects):
            ctx = Ctx(ps.num, card, None, card)
            if eff.applies(g, ctx):
                g.run_actions(ctx, eff.actions)


def shuffle(g: Game, p: int) -> None:
    deck = g.players[p - 1].deck
    cards = deck.gather()
    if g.rng is not None:
        cards.sort(key=lambda c: c.uid)
        g.rng.shuffle(cards)
        deck.top = cards
    else:
        deck.unknown = cards
    if g.observers:
        for o in g.observers:
            o.on_shuffle(g, p)


def acquire(g: Game, p: int, names: frozenset[str], ctx: Ctx) -> None:
    """Search the deck for a card with one of ``names``; none there: no shuffle."""
    # the deck's two parts as one pool: whichever card is taken, the deck is shuffled after it
    g.ask_pile_card(p, Kind.ACQUIRE, "acquire which card", p, g.players[p - 1].deck.cards(),
                    CardFilter(names), (_acquire_pick, p), hidden=True)


def _acquire_pick(g: Game, card: CardInst, p: int) -> None:
    ps = g.players[p - 1]
    ps.deck.remove(card)
    card.loc = AT_HAND
    ps.hand.append(card)
    if g.observers:
        for o in g.observers:
            o.on_acquire(g, card)
    shuffle(g, p)


# ---------------------------------------------------------------------------- triggers
def can_trigger(card: CardInst) -> bool:
    """Stun tokens stop conditional abilities for the rest of the game."""
    return not (card.cdef.ability == "conditional" and card.has(STUN))


def listeners(g: Game, p: int, trigger: str) -> list[CardInst]:
    """Player p's revealed cards whose abilities listen for ``trigger``, battlefield then zone order."""
    lst = g.listen[p].get(trigger)
    if not lst:
        return []
    if len(lst) > 1:
        return sorted(lst, key=lambda c: (c.bf, g.board[c.bf][c.owner - 1].index(c)))
    return list(lst)


def activate(g: Game, card: CardInst) -> None:
    if MOVE in card.cdef.affixed or card.tokens.get(MOVE):
        g.movers[card.owner].add(card)
    reg = g.listen[card.owner]
    for trig in card.cdef.listens:
        reg.setdefault(trig, []).append(card)


def deactivate(g: Game, card: CardInst) -> None:
    reg = g.listen[card.owner]
    for trig in card.cdef.listens:
        lst = reg.get(trig)
        if lst and card in lst:
            lst.remove(card)


def fire_card(g: Game, card: CardInst, trigger: str, subject: CardInst | None) -> None:
    effects = card.cdef.effects.get(trigger)
    if not effects or not can_trigger(card):
        return
    for eff in reversed(effects):
        ctx = Ctx(card.owner, card, card.bf, subject)
        if eff.cond is None and eff.once is None:
            g.run_actions(ctx, eff.actions)  # nothing to check when its turn comes
        else:
            key = ("card", card.uid, eff.index, card.owner) if eff.once else None
            g.stack.append((_run_effect, eff, ctx, key))


def _run_effect(g: Game, eff: Any, ctx: Ctx, key: Any) -> None:
    """Conditions are checked when the effect's turn comes, not when it was queued."""
    if key is not None:
        if key in g.fired:
            return
    if eff.applies(g, ctx):
        if key is not None:
            g.fired.add(key)
        g.run_actions(ctx, eff.actions)


def fire_bf(g: Game, b: int, trigger: str, p: int, subject: CardInst | None) -> None:
    for eff in reversed(g.bfs[b].effects.get(trigger, ())):
        ctx = Ctx(p, None, b, subject, from_bf=True)
        if eff.cond is None and eff.once is None:
            g.run_actions(ctx, eff.actions)
        else:
            g.stack.append((_run_effect, eff, ctx, eff.milestone_key(b, p)))


def fire_allies(g: Game, p: int, trigger: str, subject: CardInst) -> None:
    for card in reversed(listeners(g, p, trigger)):
        if card is not subject:
            g.push(fire_card, card, trigger, subject)


# ---------------------------------------------------------------------------- selectors' helpers
def neighbours(g: Game, card: CardInst) -> list[CardInst]:
    """The cards adjacent to ``card`` (same side: the zones beside it on its battlefield, the
    same zone on the battlefields above and below), in battlefield-then-zone order."""
    b, side = card.bf, g.board[card.bf][card.owner - 1]
    z = side.index(card)
    out: list[CardInst] = []
    if b > 0 and z < len(g.board[b - 1][card.owner - 1]):
        out.append(g.board[b - 1][card.owner - 1][z])
    if z > 0:
        out.append(side[z - 1])
    if z + 1 < len(side):
        out.append(side[z + 1])
    if b + 1 < g.nbf and z < len(g.board[b + 1][card.owner - 1]):
        out.append(g.board[b + 1][card.owner - 1][z])
    return out


def between(g: Game, x: CardInst, a: CardInst, b: CardInst) -> bool:
    if any(c.loc != AT_BOARD or c.owner != x.owner for c in (a, b)):
        return False
    zx = g.board[x.bf][x.owner - 1].index(x)
    za = g.board[a.bf][a.owner - 1].index(a)
    zb = g.board[b.bf][b.owner - 1].index(b)
    if x.bf == a.bf == b.bf:
        return min(za, zb) < zx < max(za, zb)
    return (za == zx == zb and abs(a.bf - b.bf) == 2 and x.bf == (a.bf + b.bf) // 2)


def describe(g: Game) -> str:
    """The board as text, for people (the CLI's --explain and error reports)."""
    lines = [f"Round {g.round}, {g.phase.label} phase; first player P{g.first}"]
    for ps in g.players:
        lines.append(f"P{ps.num} ({ps.deck_name}): essence {ps.essence}, hand "
                     f"[{', '.join(c.name for c in ps.hand)}], deck {len(ps.deck)}, "
                     f"discard {len(ps.discard)}, destroyed {len(ps.destroyed)}")
    for b, bf in enumerate(g.bfs):
        lines.append(f"B{b + 1} {bf.name}:")
        for ps in g.players:
            side = g.board[b][ps.num - 1]
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
