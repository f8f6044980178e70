"""The effect language: card and battlefield abilities as data, compiled once into callables.

An effect is ``{when: TRIGGER, if: CONDITION, do: [ACTION, ...], once: game|player}`` (the key is
``when``, not ``on``: YAML reads a bare ``on`` as ``true``).
Selectors pick revealed cards on the board, amounts compute numbers, conditions test the state,
actions change it only through engine.bfe.board's mutation points (and ``Game.draw``). The full
reference with examples is docs/effect-language.md; every verb below is listed in ``VERBS`` and an
unknown one is an error naming the card and field.
"""

from __future__ import annotations

from typing import AbstractSet, Any, Callable

from ..grammar import with_article
from . import board
from .decisions import Kind
from .game import Ctx, Game, Then, then
from .state import AT_BOARD, CARD_TOKENS, OFF_BOARD, CardFilter, CardInst

CARD_TRIGGERS = {
    "reveal", "destroyed", "moved", "discarded", "command",
    "ally_destroyed", "ally_revealed", "opponent_revealed", "ally_moved", "ally_discarded",
    "end_of_round", "end_of_game",
}
LISTENING = {"command", "ally_destroyed", "ally_revealed", "opponent_revealed", "ally_moved", "ally_discarded",
             "end_of_round", "end_of_game"}
BF_TRIGGERS = {"deploy", "first_deploy", "reveal", "fill", "end_of_round", "end_of_game",
               # Battlefield phase triggers (catalog 2026.2 battlefields): the begin phase, after each
               # player's draft, the start of each player's command turn, and a Stop token placed here.
               "begin_of_round", "draft", "command", "stop"}


# What the effect language compiles to: plain callables over (game, resolving effect's context).
Action = Callable[[Game, Ctx], None]
Amount = Callable[[Game, Ctx], int]
Condition = Callable[[Game, Ctx], bool]
Candidates = Callable[[Game, Ctx], list[CardInst]]
Selector = tuple[Candidates, str]  # (candidates, pick: "one" or "all")


class EffectError(ValueError):
    """A problem in an effect's data; ``field`` is a dotted path inside the card."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class Effect:
    __slots__ = ("cond", "actions", "once", "index")

    def __init__(self, cond: Condition | None, actions: tuple[Action, ...], once: str | None, index: int) -> None:
        self.cond = cond
        self.actions = actions
        self.once = once
        self.index = index

    def applies(self, g: Game, ctx: Ctx) -> bool:
        return self.cond is None or self.cond(g, ctx)

    def milestone_key(self, b: int, p: int):
        if self.once == "game":
            return ("game", b, self.index)
        if self.once == "player":
            return ("player", b, self.index, p)
        return None


# ---------------------------------------------------------------------------- helpers
def _expect(cond: object, field: str, message: str) -> None:
    if not cond:
        raise EffectError(field, message)


def _names(v: Any, field: str) -> frozenset | None:
    if v is None:
        return None
    if isinstance(v, str):
        return frozenset([v])
    _expect(isinstance(v, list) and all(isinstance(x, str) for x in v), field,
            "expected a name or a list of names")
    return frozenset(v)


def _int(v: Any, field: str) -> int:
    _expect(isinstance(v, int) and not isinstance(v, bool), field, f"expected a whole number, got {v!r}")
    return v


# ---------------------------------------------------------------------------- selectors
SELECTOR_KEYS = {"side", "where", "name", "type", "max_cost", "min_cost", "has", "lacks",
                 "include_self", "pick", "gained_this_round", "min_might", "max_might", "between",
                 "between_type", "same_name", "same_cost"}
WHERE = ("here", "anywhere", "adjacent", "other", "subject_bf", "between",
         "below_subject")  # below_subject: the zone just below the subject (2026.2 battlefields)


def compile_selector(spec: Any, field: str) -> Selector:
    """Returns (candidates(g, ctx) -> list[CardInst], pick) where pick is 'one' or 'all'."""
    if spec in ("self", "subject", "target"):
        attr = {"self": "source", "subject": "subject", "target": "target"}[spec]

        def fixed(g: Game, ctx: Ctx, _a: str = attr) -> list[CardInst]:
            # 'self' still finds a card that is being destroyed, so its own "when destroyed"
            # ability can act on it (Zombie Horde returns itself to hand).
            c = getattr(ctx, _a)
            return ([c] if c is not None and c.loc == AT_BOARD and c.face_up
                    and (not c.leaving or _a == "source") else [])
        return fixed, "all"
    _expect(isinstance(spec, dict), field, "a selector is 'self', 'subject', 'target' or a mapping")
    if "same_name" in spec or "same_cost" in spec:
        return _same_as_self(spec, field)  # catalog 2026.2 block below
    unknown = set(spec) - SELECTOR_KEYS
    _expect(not unknown, field, f"unknown selector key(s) {sorted(unknown)}; known: {sorted(SELECTOR_KEYS)}")
    side = spec.get("side", "any")
    _expect(side in ("ally", "opponent", "any"), field + ".side", "expected ally, opponent or any")
    where = spec.get("where", "anywhere")
    _expect(where in WHERE, field + ".where", "expected " + ", ".join(WHERE))
    names = _names(spec.get("name"), field + ".name")
    types = _names(spec.get("type"), field + ".type")
    max_cost = spec.get("max_cost")
    min_cost = spec.get("min_cost")
    min_might = spec.get("min_might")
    max_might = spec.get("max_might")
    has = spec.get("has")
    lacks = spec.get("lacks")
    for k in ("has", "lacks"):
        if spec.get(k) is not None:
            _expect(spec[k] in CARD_TOKENS, f"{field}.{k}", f"expected one of {CARD_TOKENS}")
    include_self = bool(spec.get("include_self", False))
    gained = bool(spec.get("gained_this_round", False))
    pick = spec.get("pick", "one")
    _expect(pick in ("one", "all"), field + ".pick", "expected one or all")
    between = between_types = None
    if where == "between":
        between = _names(spec.get("between"), field + ".between")
        between_types = _names(spec.get("between_type"), field + ".between_type")
        _expect(between is not None or between_types is not None, field + ".between",
                "'where: between' needs 'between: <name>' or 'between_type: <type>'")

    def cands(g: Game, ctx: Ctx) -> list[CardInst]:
        me = ctx.player
        src = ctx.source
        bfs: list[int]
        below: CardInst | None = None
        if where in ("here", "other"):
            if ctx.bf is None:
                return []
            bfs = [b for b in range(g.nbf) if (b == ctx.bf) == (where == "here")]
        elif where == "subject_bf":
            bfs = [ctx.subject.bf] if ctx.subject is not None and ctx.subject.bf != OFF_BOARD else []
        elif where == "below_subject":
            below = _below_subject(g, ctx)
            if below is None:
                return []
            bfs = [below.bf]
        else:
            bfs = list(range(g.nbf))
        out: list[CardInst] = []
        sides: list[int]
        if side == "ally":
            sides = [me - 1]
        elif side == "opponent":
            sides = [q for q in range(g.n) if q != me - 1]
        else:
            sides = list(range(g.n))
        pool: list[CardInst]
        if where == "adjacent":  # only the (at most four) neighbours need testing, not the board
            if src is None or src.loc != AT_BOARD or src.owner - 1 not in sides:
                return []
            pool = board.neighbours(g, src)
        elif len(bfs) == 1 and len(sides) == 1:
            pool = g.board[bfs[0]][sides[0]]  # the common "ally/opponent here": no copy needed
        else:
            pool = [c for b in bfs for q in sides for c in g.board[b][q]]
        for c in pool:
            if not c.face_up or c.leaving:
                continue
            if c is src and not include_self:
                continue
            cd = c.cdef
            if names is not None and cd.name not in names:
                continue
            if types is not None and cd.type not in types:
                continue
            if max_cost is not None and cd.cost > max_cost:
                continue
            if min_cost is not None and cd.cost < min_cost:
                continue
            if min_might is not None and c.might < min_might:
                continue
            if max_might is not None and c.might > max_might:
                continue
            if has is not None and not c.has(has):
                continue
            if lacks is not None and c.has(lacks):
                continue
            if gained and c.gained_round != g.round:
                continue
            if where == "between" and not _is_between(g, c, between, between_types):
                continue
            if below is not None and c is not below:
                continue
            out.append(c)
        return out

    return cands, pick


def _below_subject(g: Game, ctx: Ctx) -> CardInst | None:
    """The card in the zone just below the subject's, on the same side of its battlefield."""
    s = ctx.subject
    if s is None or s.loc != AT_BOARD:
        return None
    side = g.board[s.bf][s.owner - 1]
    i = side.index(s)
    return side[i - 1] if i > 0 else None


def _is_between(g: Game, c, names: frozenset | None, types: frozenset | None = None) -> bool:
    """Between two face-up cards of c's owner named ``names`` or (between_type) typed ``types``."""
    allies = [x for x in board.board_cards(g) if x.owner == c.owner and x.face_up and x is not c
              and ((names is not None and x.cdef.name in names)
                   or (types is not None and x.cdef.type in types))]
    return any(board.between(g, c, a, b) for i, a in enumerate(allies) for b in allies[i + 1:])


def _choose_each(g: Game, ctx: Ctx, sel: Selector, prompt: str, k: Then) -> None:
    """Run the continuation ``k`` (``then``) on the selected card(s): all of them, or one the
    controller chooses (then the effect's target)."""
    cands, pick = sel
    cs = cands(g, ctx)
    if pick == "all":
        for c in cs:
            then(g, k, c)
        return
    g.ask_card(ctx.player, Kind.TARGET_CARD, prompt, cs, (_target_chosen, ctx, k))


def _target_chosen(g: Game, card: CardInst, ctx: Ctx, k: Then) -> None:
    ctx.target = card
    then(g, k, card)


# ---------------------------------------------------------------------------- amounts
def compile_amount(spec: Any, field: str) -> Amount:
    if isinstance(spec, int) and not isinstance(spec, bool):
        n: int = spec

        def constant(g: Game, ctx: Ctx) -> int:
            return n
        return constant
    if spec == "count":
        return lambda g, ctx: ctx.count
    _expect(isinstance(spec, dict), field, "an amount is a number, 'count' or a mapping")
    times = spec.get("times", 1)
    plus = spec.get("plus", 0)
    _int(times, field + ".times")
    _int(plus, field + ".plus")
    if "count" in spec:
        cands, _ = compile_selector(spec["count"], field + ".count")
        base = lambda g, ctx: len(cands(g, ctx))  # noqa: E731
    elif "tokens" in spec:
        tok = spec["tokens"]
        _expect(tok in CARD_TOKENS, field + ".tokens", f"expected one of {CARD_TOKENS}")
        of = spec.get("of", "self")
        _expect(of in ("self", "subject", "target"), field + ".of", "expected self, subject or target")
        attr = {"self": "source", "subject": "subject", "target": "target"}[of]
        base = lambda g, ctx: (getattr(ctx, attr).tokens.get(tok, 0) if getattr(ctx, attr) else 0)  # noqa: E731
    elif "might_of" in spec:
        of = spec["might_of"]
        _expect(of in ("self", "subject", "target"), field + ".might_of", "expected self, subject or target")
        attr = {"self": "source", "subject": "subject", "target": "target"}[of]
        base = lambda g, ctx: (getattr(ctx, attr).might if getattr(ctx, attr) else 0)  # noqa: E731
    elif "hand" in spec:
        base = lambda g, ctx: len(g.players[ctx.player - 1].hand)  # noqa: E731
    elif "pile" in spec:
        pile = spec["pile"]
        _expect(pile in ("discard", "destroyed", "banished"), field + ".pile",
                "expected discard, destroyed or banished")
        base = lambda g, ctx: len(getattr(g.players[ctx.player - 1], pile))  # noqa: E731
    elif "round" in spec:
        base = lambda g, ctx: g.round  # noqa: E731
    else:
        raise EffectError(field, "an amount mapping needs count, tokens, might_of, hand, pile or round")
    cap = spec.get("max")
    if cap is not None:
        _int(cap, field + ".max")
        return lambda g, ctx: min(cap, base(g, ctx) * times + plus)
    return lambda g, ctx: base(g, ctx) * times + plus


# ---------------------------------------------------------------------------- conditions
def compile_condition(spec: Any, field: str) -> Condition:
    _expect(isinstance(spec, dict) and spec, field, "a condition is a non-empty mapping")
    tests = []
    for key, val in spec.items():
        f = f"{field}.{key}"
        if key == "count":
            _expect(isinstance(val, dict) and "of" in val, f, "count needs 'of: <selector>' and gte/lte/eq")
            cands, _ = compile_selector(val["of"], f + ".of")
            tests.append(_compare(lambda g, ctx, c=cands: len(c(g, ctx)), val, f))
        elif key == "tokens":
            _expect(isinstance(val, dict) and "token" in val, f, "tokens needs token, of and gte/lte/eq")
            amt = compile_amount({"tokens": val["token"], "of": val.get("of", "self")}, f)
            tests.append(_compare(amt, val, f))
        elif key == "might":
            _expect(isinstance(val, dict), f, "might needs of and gte/lte/eq")
            amt = compile_amount({"might_of": val.get("of", "self")}, f)
            tests.append(_compare(amt, val, f))
        elif key == "hand":
            tests.append(_compare(lambda g, ctx: len(g.players[ctx.player - 1].hand), val, f))
        elif key == "essence":
            tests.append(_compare(lambda g, ctx: g.players[ctx.player - 1].essence, val, f))
        elif key == "round":
            tests.append(_compare(lambda g, ctx: g.round, val, f))
        elif key == "full":
            _expect(val in ("here", "any"), f, "expected here or any")
            if val == "here":
                tests.append(lambda g, ctx: ctx.bf is not None and not g._open(ctx.bf, ctx.player))
            else:
                tests.append(lambda g, ctx: any(not g._open(b, ctx.player) for b in range(g.nbf)))
        elif key == "subject":
            cands, _ = compile_selector(val, f)
            tests.append(lambda g, ctx, c=cands: ctx.subject is not None and ctx.subject in c(g, ctx))
        elif key == "subject_owner":
            _expect(val in ("ally", "opponent"), f, "expected ally or opponent")
            want = val == "ally"
            tests.append(lambda g, ctx: ctx.subject is not None and (ctx.subject.owner == ctx.player) == want)
        elif key == "first_player":
            _expect(isinstance(val, bool), f, "expected true or false")
            tests.append(lambda g, ctx, v=val: (g.first == ctx.player) == v)
        elif key == "leading":
            _expect(val in ("here",), f, "expected here")
            tests.append(_leading_here)
        elif key == "might_here":
            tests.append(_compare(lambda g, ctx: sum(c.might for c in g.board[ctx.bf][ctx.player - 1])
                                  if ctx.bf is not None else 0, val, f))
        elif key == "compare":
            tests.append(_compare_amounts(val, f))
        elif key == "not":
            inner = compile_condition(val, f)
            tests.append(lambda g, ctx, i=inner: not i(g, ctx))
        else:
            raise EffectError(f, "unknown condition; known: count, tokens, might, hand, essence, round, "
                              "full, subject, subject_owner, first_player, leading, might_here, compare, not")
    if len(tests) == 1:
        return tests[0]
    return lambda g, ctx: all(t(g, ctx) for t in tests)


# compare: [AMOUNT, OP, AMOUNT] — two amounts against each other (The Scales of Judgement, 2026.2).
COMPARE_OPS: dict[str, Callable[[int, int], bool]] = {
    "lt": lambda a, b: a < b, "lte": lambda a, b: a <= b, "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b, "gte": lambda a, b: a >= b, "gt": lambda a, b: a > b,
}


def _compare_amounts(val: Any, field: str) -> Condition:
    _expect(isinstance(val, list) and len(val) == 3 and val[1] in COMPARE_OPS, field,
            f"compare is [AMOUNT, OP, AMOUNT] with OP one of {', '.join(COMPARE_OPS)}")
    left = compile_amount(val[0], field + "[0]")
    right = compile_amount(val[2], field + "[2]")
    op = COMPARE_OPS[val[1]]

    def test(g: Game, ctx: Ctx) -> bool:
        return op(left(g, ctx), right(g, ctx))
    return test


def _leading_here(g: Game, ctx: Ctx) -> bool:
    if ctx.bf is None:
        return False
    mine = sum(c.might for c in g.board[ctx.bf][ctx.player - 1])
    return all(mine > sum(c.might for c in g.board[ctx.bf][q]) for q in range(g.n) if q != ctx.player - 1)


def _compare(getter, spec: Any, field: str):
    if isinstance(spec, int) and not isinstance(spec, bool):
        return lambda g, ctx: getter(g, ctx) >= spec
    _expect(isinstance(spec, dict), field, "expected a number (at least) or gte/lte/eq")
    lo = spec.get("gte")
    hi = spec.get("lte")
    eq = spec.get("eq")
    _expect(any(x is not None for x in (lo, hi, eq)), field, "needs gte, lte or eq")

    def test(g, ctx):
        v = getter(g, ctx)
        return (lo is None or v >= lo) and (hi is None or v <= hi) and (eq is None or v == eq)
    return test


# ---------------------------------------------------------------------------- actions
VERBS: dict[str, Callable[[Any, dict[str, Any], str], Action]] = {}


def verb(name: str):
    def deco(fn):
        VERBS[name] = fn
        return fn
    return deco


def compile_actions(spec: Any, field: str) -> tuple[Action, ...]:
    _expect(isinstance(spec, list) and spec, field, "expected a non-empty list of actions")
    return tuple(compile_action(a, f"{field}[{i}]") for i, a in enumerate(spec))


def compile_action(spec: Any, field: str) -> Action:
    _expect(isinstance(spec, dict) and spec, field, "an action is a mapping like {gain: 2}")
    verbs = [k for k in spec if k in VERBS]
    _expect(len(verbs) == 1, field, "an action needs exactly one verb; unknown verb "
            f"{sorted(set(spec) - set(VERBS) - {'each', 'then', 'else', 'prompt'})} — known verbs: "
            f"{', '.join(sorted(VERBS))}" if not verbs else f"several verbs in one action: {verbs}")
    name = verbs[0]
    return VERBS[name](spec[name], spec, f"{field}.{name}")


def _args(val: Any, field: str, allowed: AbstractSet[str], required: AbstractSet[str] = frozenset()) -> dict[str, Any]:
    _expect(isinstance(val, dict), field, f"expected a mapping with {sorted(allowed)}")
    unknown = set(val) - allowed
    _expect(not unknown, field, f"unknown key(s) {sorted(unknown)}; expected {sorted(allowed)}")
    missing = set(required) - set(val)
    _expect(not missing, field, f"missing {sorted(missing)}")
    return val


@verb("gain")
def _gain(val: Any, spec: dict[str, Any], field: str) -> Action:
    amt = compile_amount(val, field)

    def act(g: Game, ctx: Ctx) -> None:
        if ctx.source is not None:
            board.gain_might(g, ctx.source, amt(g, ctx), ctx)
    return act


@verb("might")
def _might(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"target", "add", "sub"}, {"target"})
    _expect(("add" in a) != ("sub" in a), field, "give exactly one of add or sub")
    sel = compile_selector(a["target"], field + ".target")
    amt = compile_amount(a.get("add", a.get("sub")), field + (".add" if "add" in a else ".sub"))
    gain = "add" in a

    def act(g: Game, ctx: Ctx) -> None:
        n = amt(g, ctx)
        _choose_each(g, ctx, sel, f"{'add' if gain else 'remove'} {n} might: which card",
                     (board.gain_might if gain else board.lose_might, n, ctx))
    return act


@verb("essence")
def _essence(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"add", "sub", "who", "when"})
    _expect(("add" in a) != ("sub" in a), field, "give exactly one of add or sub")
    amt = compile_amount(a.get("add", a.get("sub")), field)
    sign = 1 if "add" in a else -1
    who = a.get("who", "self")
    _expect(who in ("self", "opponent", "each"), field + ".who", "expected self, opponent or each")
    when = a.get("when", "next")
    _expect(when in ("next", "now"), field + ".when", "expected next or now")

    def act(g: Game, ctx: Ctx) -> None:
        n = sign * amt(g, ctx)
        for q in range(1, g.n + 1):
            if who == "each" or (who == "self") == (q == ctx.player):
                board.add_essence(g, q, n, when == "now")
    return act


@verb("token")
def _token(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"apply", "remove", "target", "count"}, {"target"})
    _expect(("apply" in a) != ("remove" in a), field, "give exactly one of apply or remove")
    tok: str = a["apply"] if "apply" in a else a["remove"]
    _expect(tok in CARD_TOKENS, field, f"token must be one of {CARD_TOKENS} (stop tokens use the 'stop' verb)")
    sel = compile_selector(a["target"], field + ".target")
    amt = compile_amount(a.get("count", 1), field + ".count")
    applying = "apply" in a
    prompt = f"{'apply' if applying else 'remove'} {with_article(tok)} token: which card"

    def act(g: Game, ctx: Ctx) -> None:
        n = amt(g, ctx)
        _choose_each(g, ctx, sel, prompt, (board.apply_token if applying else board.remove_token, tok, n))
    return act


@verb("stop")
def _stop(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"where"})
    where = a.get("where", "here")
    _expect(where in ("here", "choose"), field + ".where", "expected here or choose")

    def act(g: Game, ctx: Ctx) -> None:
        if where == "here" and ctx.bf is not None:
            board.place_stop(g, ctx.player, ctx.bf)
        else:
            g.ask_bf(ctx.player, "place a stop token on which battlefield", list(range(g.nbf)),
                     (_stop_at, ctx.player))
    return act


def _stop_at(g: Game, b: int, p: int) -> None:
    board.place_stop(g, p, b)


@verb("destroy")
def _destroy(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"target", "shift"}, {"target"})
    sel = compile_selector(a["target"], field + ".target")
    each = compile_actions(spec["each"], field.rsplit(".", 1)[0] + ".each") if "each" in spec else ()
    shift = bool(a.get("shift", False))

    def act(g: Game, ctx: Ctx) -> None:
        cands, pick = sel
        cs = [c for c in cands(g, ctx)]
        if pick == "all":
            board.destroy(g, cs, ctx, each, shift)
        else:
            g.ask_card(ctx.player, Kind.TARGET_CARD, "destroy which card", cs, (_destroy_chosen, ctx, each, shift))
    return act


def _destroy_chosen(g: Game, card: CardInst, ctx: Ctx, each: tuple[Action, ...], shift: bool) -> None:
    board.destroy(g, [card], ctx, each, shift)


def _simple_target_verb(name: str, prompt: str, act_on: Callable[[Game, CardInst], object]) -> None:
    """A verb whose only argument is a target selector: act_on(game, card) for each target."""
    k = (act_on,)

    def compile_(val: Any, spec: dict[str, Any], field: str) -> Action:
        a = _args(val, field, {"target"}, {"target"})
        sel = compile_selector(a["target"], field + ".target")
        return lambda g, ctx: _choose_each(g, ctx, sel, prompt, k)
    VERBS[name] = compile_


_simple_target_verb("banish", "banish which card", board.banish)
_simple_target_verb("shift", "shift which card", board.shift)


@verb("return")
def _return(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"target"}, {"target"})
    sel = compile_selector(a["target"], field + ".target")
    cands, pick = sel

    def returnable(g, ctx):  # anchored cards cannot return, so they are never offered
        return [c for c in cands(g, ctx) if not c.tokens.get("anchor")]
    return lambda g, ctx: _choose_each(g, ctx, (returnable, pick), "return which card to its owner's hand",
                                       (board.return_to_hand, ctx))


@verb("move")
def _move(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"target"}, {"target"})
    sel = compile_selector(a["target"], field + ".target")

    def act(g: Game, ctx: Ctx) -> None:
        cands, pick = sel
        # Only cards that can actually go somewhere are offered: not anchored, and with an open
        # zone on another battlefield (a move with nowhere to go is ignored).
        cs = [c for c in cands(g, ctx) if not c.tokens.get("anchor")
              and any(b != c.bf and g._open(b, c.owner) for b in range(g.nbf))]
        if pick == "all":
            # Several cards move one at a time; each may go to a different battlefield.
            for c in reversed(cs):
                g.push(board.move_choice, c, ctx)
        else:
            g.ask_card(ctx.player, Kind.TARGET_CARD, "move which card", cs,
                       (_target_chosen, ctx, (board.move_choice, ctx)))
    return act


@verb("stack")
def _stack(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"onto"}, {"onto"})
    sel = compile_selector(a["onto"], field + ".onto")

    def act(g: Game, ctx: Ctx) -> None:
        me = ctx.source
        if me is None or me.loc != AT_BOARD:
            return
        cands, _ = sel
        g.ask_card(ctx.player, Kind.TARGET_CARD, "stack onto which card",
                   [c for c in cands(g, ctx) if c.owner == me.owner], (_stack_onto, me))
    return act


def _stack_onto(g: Game, base: CardInst, me: CardInst) -> None:
    if base.owner != me.owner:
        return
    g.ask_card(me.owner, Kind.STACK_TOP, "which card goes on top of the stack", [me, base], (_stack_top, me, base))


def _stack_top(g: Game, card: CardInst, me: CardInst, base: CardInst) -> None:
    board.stack_onto(g, me, base, card is me)


def _hand_filter(a: dict, field: str) -> CardFilter:
    return CardFilter(_names(a.get("name"), field + ".name"), _names(a.get("type"), field + ".type"),
                      a.get("max_cost"))


@verb("swap")
def _swap(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"target", "from", "name", "type", "max_cost"})
    sel = compile_selector(a.get("target", "self"), field + ".target")
    src = a.get("from", "hand")
    _expect(src in ("hand", "deck"), field + ".from", "expected hand or deck")
    ok = _hand_filter(a, field)

    return lambda g, ctx: _choose_each(g, ctx, sel, "swap which card", (_swap_with, src, ok, ctx))


def _swap_with(g: Game, old: CardInst, src: str, ok: CardFilter, ctx: Ctx) -> None:
    ps = g.players[old.owner - 1]
    pool = ps.hand if src == "hand" else ps.deck.cards()
    g.ask_pile_card(old.owner, Kind.CHOOSE_CARD, f"swap {old.name} with which card", old.owner, pool,
                    ok.excluding(old.cdef.name), (_swap_in, old, ctx), hidden=False)


def _swap_in(g: Game, new: CardInst, old: CardInst, ctx: Ctx) -> None:
    board.swap(g, old, new, ctx)


@verb("discard")
def _discard(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"count", "who"})
    amt = compile_amount(a.get("count", 1), field + ".count")
    who = a.get("who", "self")
    _expect(who in ("self", "opponent"), field + ".who", "expected self or opponent")

    def act(g: Game, ctx: Ctx) -> None:
        n = amt(g, ctx)
        for q in range(g.n, 0, -1):
            if (q == ctx.player) == (who == "self"):
                board.discard(g, q, n, ctx)
    return act


@verb("draw")
def _draw(val: Any, spec: dict[str, Any], field: str) -> Action:
    amt = compile_amount(val, field)
    return lambda g, ctx: g.draw(ctx.player, amt(g, ctx))


@verb("acquire")
def _acquire(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"name", "type"})
    names = _names(a.get("name"), field + ".name")
    types = _names(a.get("type"), field + ".type")
    _expect(names or types, field, "acquire needs a name or a type")

    def act(g: Game, ctx: Ctx) -> None:
        wanted = frozenset(c.name for c in g.deck_lists[ctx.player - 1]
                           if (names and c.name in names) or (types and c.type in types))
        board.acquire(g, ctx.player, wanted, ctx)
    return act


@verb("deploy")
def _deploy(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"from", "to", "name", "type", "max_cost", "card"})
    src = a.get("from", "hand")
    _expect(src in ("hand", "discard", "destroyed"), field + ".from", "expected hand, discard or destroyed")
    to = a.get("to", "here")
    _expect(to in ("here", "choose"), field + ".to", "expected here or choose")
    ok = _hand_filter(a, field)
    this_card = a.get("card") == "self"

    def act(g: Game, ctx: Ctx) -> None:
        ps = g.players[ctx.player - 1]
        pool = {"hand": ps.hand, "discard": ps.discard, "destroyed": ps.destroyed}[src]
        # With no open zone to put it in, whichever card were picked nothing would change: a log
        # may leave the question out (a table never says such a non-choice aloud), or answer it
        # (docs/rules.md, "Choices that cannot change anything").
        destinations = [ctx.bf] if to == "here" and ctx.bf is not None else list(range(g.nbf))
        pointless = not any(g._open(b, ctx.player) for b in destinations)
        if this_card:
            if ctx.source is not None and ctx.source in pool:
                _deploy_place(g, ctx.source, ctx, to)
            return
        g.ask_pile_card(ctx.player, Kind.CHOOSE_CARD, f"deploy which card from your {src}", ctx.player, pool,
                        ok, (_deploy_place, ctx, to), hidden=False, pointless=pointless)
    return act


def _deploy_place(g: Game, card: CardInst, ctx: Ctx, to: str) -> None:
    """A card chosen to be deployed by an ability: Here, or to a battlefield its controller chooses."""
    if to == "here" and ctx.bf is not None:
        _deploy_at(g, ctx.bf, card)
    else:
        g.ask_bf(ctx.player, f"deploy {card.name} to which battlefield",
                 [b for b in range(g.nbf) if g._open(b, card.owner)], (_deploy_at, card))


def _deploy_at(g: Game, b: int, card: CardInst) -> None:
    board.deploy(g, card, b, Ctx(card.owner, card, b), by_ability=True)


@verb("bite")
def _bite(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"target", "cost", "amount"}, {"target"})
    sel = compile_selector(a["target"], field + ".target")
    cost = _int(a.get("cost", 1), field + ".cost")
    amount = _int(a.get("amount", 1), field + ".amount")

    def act(g: Game, ctx: Ctx) -> None:
        if g.players[ctx.player - 1].essence < cost or ctx.source is None:
            return
        _choose_each(g, ctx, sel, f"bite which card (costs {cost} essence)", (_bite_victim, ctx, cost, amount))
    return act


def _bite_victim(g: Game, victim: CardInst, ctx: Ctx, cost: int, amount: int) -> None:
    ps = g.players[ctx.player - 1]
    src = ctx.source
    if ps.essence < cost or src is None:
        return
    ps.essence -= cost
    ps.spent += cost
    taken = board.lose_might(g, victim, amount, ctx)
    board.gain_might(g, src, taken, ctx)
    if g.observers:
        for o in g.observers:
            o.on_bite(g, src, victim, taken)


@verb("may")
def _may(val: Any, spec: dict[str, Any], field: str) -> Action:
    actions = compile_actions(val, field)
    prompt = spec.get("prompt", "resolve the optional effect")
    _expect(isinstance(prompt, str), field + ".prompt", "expected text")
    targets = _sole_target(val, field)

    def act(g: Game, ctx: Ctx) -> None:
        # One action on a target and nothing to target (Mist Walker with no other ally card Here):
        # a yes would do nothing, so a log may leave the question out, its answer taken as no
        # (docs/rules.md, "Choices that cannot change anything").
        pointless = targets is not None and not targets[0](g, ctx)
        g.ask_may(ctx.player, f"{_asker(g, ctx)}: {prompt}?", (Game.run_actions, ctx, actions),
                  pointless=pointless)
    return act


def _asker(g: Game, ctx: Ctx) -> str:
    """What offers a choice, named first in its question ("Kensei: discard 1 card for +2 might?"):
    the card whose ability it is, else the battlefield whose effect it is."""
    if ctx.source is not None:
        return ctx.source.name
    return g.bfs[ctx.bf].name if ctx.bf is not None else "an effect"


def _sole_target(val: Any, field: str) -> Selector | None:
    """The target selector of a "may" whose only action acts on a target (shift, destroy, move …:
    each does nothing when it has none), else None."""
    if not (isinstance(val, list) and len(val) == 1 and isinstance(val[0], dict) and len(val[0]) == 1):
        return None
    verb, args = next(iter(val[0].items()))
    if not isinstance(args, dict) or "target" not in args:
        return None
    return compile_selector(args["target"], f"{field}[0].{verb}.target")


@verb("if")
def _if(val: Any, spec: dict[str, Any], field: str) -> Action:
    cond = compile_condition(val, field)
    base = field.rsplit(".", 1)[0]
    then = compile_actions(spec["then"], base + ".then") if "then" in spec else ()
    other = compile_actions(spec["else"], base + ".else") if "else" in spec else ()
    _expect(then or other, field, "'if' needs 'then' or 'else'")
    return lambda g, ctx: g.run_actions(ctx, then if cond(g, ctx) else other)


@verb("for_each")
def _for_each(val: Any, spec: dict[str, Any], field: str) -> Action:
    cands, _ = compile_selector(val, field)
    base = field.rsplit(".", 1)[0]
    _expect("then" in spec, field, "'for_each' needs 'then: [actions]'")
    body = compile_actions(spec["then"], base + ".then")

    def act(g: Game, ctx: Ctx) -> None:
        for c in reversed(cands(g, ctx)):
            sub = Ctx(ctx.player, ctx.source, ctx.bf, ctx.subject, ctx.from_bf)
            sub.target = c
            g.run_actions(sub, body)
    return act


@verb("repeat")
def _repeat(val: Any, spec: dict[str, Any], field: str) -> Action:
    a = _args(val, field, {"target"}, {"target"})
    sel = compile_selector(a["target"], field + ".target")

    def act(g: Game, ctx: Ctx) -> None:
        _choose_each(g, ctx, sel, "resolve which card's ability again", (board.fire_card, "reveal", None))
    return act


# ---------------------------------------------------------------------------- catalog 2026.2: Intanga, Viking Raid
# Selector keys ``same_name: true`` / ``same_cost: true`` (Zulus of the Mfecane, Intanga): only cards
# with the same name / printed cost as the card whose effect it is (none for a battlefield effect).
# Verb ``raid: AMOUNT`` (Vikings of Valhalla, [Viking Raid N]): this card raids an opponent card Here
# of its player's choice: that card loses up to N might and this card gains the might it lost.
def _same_as_self(spec: dict[str, Any], field: str) -> Selector:
    flags: dict[str, bool] = {}
    for k in ("same_name", "same_cost"):
        v = spec.get(k, False)
        _expect(isinstance(v, bool), f"{field}.{k}", "expected true or false")
        flags[k] = bool(v)
    same_name = flags["same_name"]
    same_cost = flags["same_cost"]
    inner, pick = compile_selector({k: v for k, v in spec.items() if k not in ("same_name", "same_cost")}, field)

    def cands(g: Game, ctx: Ctx) -> list[CardInst]:
        src = ctx.source
        if src is None:
            return []
        name = src.cdef.name
        cost = src.cdef.cost
        return [c for c in inner(g, ctx)
                if (not same_name or c.cdef.name == name) and (not same_cost or c.cdef.cost == cost)]
    return cands, pick


@verb("raid")
def _raid(val: Any, spec: dict[str, Any], field: str) -> Action:
    amt = compile_amount(val, field)
    victims, _ = compile_selector({"side": "opponent", "where": "here"}, field)

    def act(g: Game, ctx: Ctx) -> None:
        src = ctx.source
        if src is None:
            return
        n = amt(g, ctx)
        g.ask_card(ctx.player, Kind.TARGET_CARD, f"Viking Raid {n}: which opponent card here", victims(g, ctx),
                   (_plunder, src, n, ctx))
    return act


def _plunder(g: Game, victim: CardInst, src: CardInst, n: int, ctx: Ctx) -> None:
    taken = board.lose_might(g, victim, n, ctx)
    board.gain_might(g, src, taken, ctx)


# ---------------------------------------------------------------------------- effects
def compile_effects(spec: Any, field: str, triggers: set) -> dict[str, tuple[Effect, ...]]:
    if spec is None:
        return {}
    _expect(isinstance(spec, list), field, "expected a list of effects")
    out: dict[str, list[Effect]] = {}
    for i, e in enumerate(spec):
        f = f"{field}[{i}]"
        _expect(isinstance(e, dict), f, "an effect is a mapping with when, do and optionally if, once")
        unknown = set(e) - {"when", "if", "do", "once"}
        _expect(not unknown, f, f"unknown key(s) {sorted(map(str, unknown))}; expected when, if, do, once")
        trig = e.get("when")
        _expect(trig in triggers, f + ".when", f"unknown trigger {trig!r}; known: {', '.join(sorted(triggers))}")
        cond = compile_condition(e["if"], f + ".if") if "if" in e else None
        actions = compile_actions(e.get("do"), f + ".do")
        once = e.get("once")
        _expect(once in (None, "game", "player"), f + ".once", "expected game or player")
        out.setdefault(trig, []).append(Effect(cond, actions, once, i))
    return {k: tuple(v) for k, v in out.items()}
