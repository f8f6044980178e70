"""What the engine knows of the cards nobody at the recording seat saw (recorded chance).

A log written at a table names a card only when someone saw it: ``C draw P2 ?``, ``P2 keep ?``,
``P2 choose ?``, and in one seat's view the other players' draws and keeps are not written at all.
Every card of a recorded game is therefore a *token* that starts unseen (``state.UNSEEN``) in its
owner's shuffled deck and takes a name only when it shows itself: drawn or kept by name, deployed,
chosen by name. Each time, the name must have been possible given everything seen before, and that
check is exact.

What the engine knows of one player's cards (``Knowledge``):

* ``counts``: the deck list. Each of the player's 24 tokens is one of these cards.
* The tokens that have a name, and ``left`` = counts minus those names.
* ``worlds``: the alternatives that hidden choices left open. When a hidden choice could have taken
  cards that differ (a discard nobody saw, from a hand holding a known Horse Archers and unseen
  cards), each way it may have gone is a world: a map from a token's uid to the names it may still
  be. A token missing from a world may be any card still left. Tokens in one unordered place (a
  hand, a pile, the shuffled part of a deck) are interchangeable, so the token the engine moves is
  arbitrary, and each world is relabelled so that it is the one that world moved.

A world is possible when its restricted tokens can be matched to the cards left (a bipartite
matching with capacities, usually over a handful of tokens). The tokens that may be any card then
take the rest: the counts always add up to the deck. Most games have one world with no restriction
in it, and every question is then a count.

Nothing here raises on a log's account: each change returns whether it was possible, and the game
turns an impossible one into an illegal decision, worded by ``explain``.
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..grammar import with_article
from .state import UNSEEN, CardDef, CardInst

World = dict[int, frozenset[str]]
# Beyond this many alternatives the worlds are merged token by token (each token may be what it may
# be in any of them): a looser check that still never refuses a legal game. No game seen so far
# comes near it; docs/log-format.md says so.
MAX_WORLDS = 64

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_ORDINALS = ("", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _count(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _ordinal(n: int) -> str:
    return _ORDINALS[n] if 0 < n < len(_ORDINALS) else f"{n}th"


class Knowledge:
    """One player's cards as far as anyone saw them; see the module docstring."""

    __slots__ = ("player", "deck_name", "defs", "counts", "left", "all_names", "tokens", "worlds",
                 "silent_discards", "memo")

    def __init__(self, player: int, deck_name: str, tokens: list[CardInst], deck_list: list[CardDef]) -> None:
        self.player = player
        self.deck_name = deck_name
        self.defs: dict[str, CardDef] = {}
        self.counts: dict[str, int] = {}
        for cdef in deck_list:
            self.defs[cdef.name] = cdef
            self.counts[cdef.name] = self.counts.get(cdef.name, 0) + 1
        self.left = dict(self.counts)
        self.all_names = frozenset(self.counts)
        self.tokens = {t.uid: t for t in tokens}
        self.worlds: list[World] = [{}]
        # what a discard nobody saw may have been: a card whose own discard ability (if any) its
        # owner could decline without anyone noticing
        self.silent_discards = frozenset(n for n, d in self.defs.items() if not d.shows_when_discarded)
        # answers of _unseen_could_be while the worlds and the cards left stay as they are
        self.memo: dict[tuple[int, frozenset[str] | None, str], bool] = {}

    def copy(self, cards: dict[CardInst, CardInst]) -> Knowledge:
        """The same knowledge about the cards ``cards`` maps these tokens to (a copy of the game:
        ``Game.clone``); the deck list and the names are shared, what changes is copied."""
        k = Knowledge(self.player, self.deck_name, [], [])
        k.defs = self.defs
        k.counts = self.counts
        k.left = dict(self.left)
        k.all_names = self.all_names
        k.tokens = {uid: cards[t] for uid, t in self.tokens.items()}
        k.worlds = [dict(w) for w in self.worlds]
        k.silent_discards = self.silent_discards
        k.memo = dict(self.memo)
        return k

    def plain(self) -> bool:
        """One world and no restriction in it: every unseen token may be any card left."""
        return len(self.worlds) == 1 and not self.worlds[0]

    # ------------------------------------------------------------------ questions
    def could_be(self, pool: Iterable[CardInst], name: str) -> bool:
        """Whether a card of ``pool`` may be ``name``: a known one, or an unseen one that may be it."""
        unseen = []
        for c in pool:
            if c.cdef is UNSEEN:
                unseen.append(c)
            elif c.cdef.name == name:
                return True
        return bool(unseen) and self._unseen_could_be(unseen, name)

    def possible_names(self, pool: Iterable[CardInst], match: Callable[[CardDef], bool] | None = None) -> list[str]:
        """Every name a card of ``pool`` may have (among the cards ``match`` accepts), sorted."""
        names: set[str] = set()
        unseen = []
        for c in pool:
            if c.cdef is UNSEEN:
                unseen.append(c)
            elif match is None or match(c.cdef):
                names.add(c.cdef.name)
        if unseen:
            plain = self.plain()
            for n, d in self.defs.items():
                if n in names or (match is not None and not match(d)):
                    continue
                if (self.left[n] > 0) if plain else self._unseen_could_be(unseen, n):
                    names.add(n)
        return sorted(names)

    def some_names(self, pool: Iterable[CardInst], limit: int) -> list[str]:
        """Up to ``limit`` of the names a card of ``pool`` may have (enough to tell whether a draw
        is certain without working out every name)."""
        names: list[str] = []
        unseen = []
        for c in pool:
            if c.cdef is UNSEEN:
                unseen.append(c)
            elif c.cdef.name not in names:
                names.append(c.cdef.name)
                if len(names) >= limit:
                    return names
        if unseen:
            for n in self.defs:
                if n not in names and self._unseen_could_be(unseen, n):
                    names.append(n)
                    if len(names) >= limit:
                        break
        return names

    def could_avoid(self, tokens: Iterable[CardInst], names: frozenset[str]) -> bool:
        """Whether it may be that no unseen token of ``tokens`` is one of ``names``."""
        unseen = [c for c in tokens if c.cdef is UNSEEN]
        allowed = self.all_names - names
        return any(self._restricted(w, unseen, allowed) is not None for w in self.worlds)

    def could_take_unseen(self, pool: list[CardInst], allowed: frozenset[str] | None = None) -> bool:
        return bool(self._taken(pool, allowed)[0])

    # ------------------------------------------------------------------ what was seen
    def identify(self, unseen: list[CardInst], name: str) -> CardInst | None:
        """One token of ``unseen`` (unseen tokens of one unordered place, or a single token) shows
        itself as ``name``. Returns that token, now known; None (and nothing changed) if no
        world allows it."""
        if not unseen or name not in self.counts:
            return None
        t0 = unseen[0]
        if self.plain():
            if self.left[name] <= 0:
                return None
            self._learn(t0, name)
            return t0
        one = frozenset((name,))
        out: list[World] = []
        for w in self.worlds:
            for dom, tc in _classes(w, unseen).items():
                if dom is not None and name not in dom:
                    continue
                w2 = _relabel(w, t0, tc)
                w2[t0.uid] = one
                if self._feasible(w2):
                    out.append(w2)
        if not out:
            return None
        self.worlds = out
        self._learn(t0, name)
        return t0

    def take_unseen(self, pool: list[CardInst], allowed: frozenset[str] | None = None) -> CardInst | None:
        """A hidden choice of one card of ``pool`` (one unordered place): the token taken, unseen.
        ``allowed`` limits what it may have been. Known cards of the pool may have been the one
        taken, so they become unseen too (each keeps its name in every world but the ones where it
        was taken). None (and nothing changed) if no world allows the choice."""
        worlds, hidden = self._taken(pool, allowed)
        if not worlds:
            return None
        taken = hidden[0] if hidden else next(c for c in pool if c.cdef is UNSEEN)
        for k in hidden:
            self.left[k.cdef.name] += 1
            k.cdef = UNSEEN
        self.worlds = worlds
        self._tidy()
        return taken

    def restrict(self, tokens: Iterable[CardInst], allowed: frozenset[str]) -> bool:
        """Every unseen token of ``tokens`` is one of ``allowed`` (e.g. none of them matched what an
        ability looked for). False (and nothing changed) if no world allows it."""
        unseen = [c for c in tokens if c.cdef is UNSEEN]
        out = [w2 for w in self.worlds if (w2 := self._restricted(w, unseen, allowed)) is not None]
        if not out:
            return False
        self.worlds = out
        self._tidy()
        return True

    def explain(self, name: str, verb: str) -> str:
        """Why player's card cannot be ``name``, in a player's words ("P2 revealed a third Horse
        Archers; their deck holds two, and two were already seen")."""
        who = f"P{self.player}"
        total = self.counts.get(name, 0)
        if total == 0:
            return f"{who}'s deck ({self.deck_name}) holds no {name}"
        seen = total - self.left[name]
        if seen >= total:
            return (f"{who} {verb} {with_article(_ordinal(seen + 1))} {name}; their deck holds {_count(total)}, and "
                    f"{_count(seen)} {'was' if seen == 1 else 'were'} already seen")
        return (f"{who} {verb} {with_article(name)}, but it cannot be one: their deck holds {_count(total)}, "
                f"{_count(seen)} {'was' if seen == 1 else 'were'} seen, and the cards that left unseen "
                "(kept, discarded or taken without being shown) or the place it came from leave no other")

    # ------------------------------------------------------------------ internals
    def _unseen_could_be(self, unseen: list[CardInst], name: str) -> bool:
        if name not in self.counts:
            return False
        if self.plain():
            return self.left[name] > 0
        one = frozenset((name,))
        memo = self.memo
        for wi, w in enumerate(self.worlds):
            for dom, tc in _classes(w, unseen).items():
                if dom is not None and name not in dom:
                    continue
                # tokens of one place with the same domain are alike: the answer is the same for each
                key = (wi, dom, name)
                ok = memo.get(key)
                if ok is None:
                    w2 = dict(w)
                    w2[tc.uid] = one
                    ok = memo[key] = self._feasible(w2)
                if ok:
                    return True
        return False

    def _taken(self, pool: list[CardInst], allowed: frozenset[str] | None) -> tuple[list[World], list[CardInst]]:
        """The worlds after a hidden choice of one card of ``pool``, and the known cards hidden by
        it (nothing is changed here)."""
        hidden = [c for c in pool if c.cdef is not UNSEEN]
        cands = hidden + [c for c in pool if c.cdef is UNSEEN]
        if not cands:
            return [], []
        base = self.worlds
        if hidden:
            base = []
            for w in self.worlds:
                w2 = dict(w)
                for k in hidden:
                    w2[k.uid] = frozenset((k.cdef.name,))
                base.append(w2)
        t0 = cands[0]
        out: list[World] = []
        for w in base:
            for tc in _classes(w, cands).values():
                w2 = _relabel(w, t0, tc)
                if allowed is not None:
                    d = w2.get(t0.uid)
                    nd = (self.all_names if d is None else d) & allowed
                    if not nd:
                        continue
                    w2[t0.uid] = nd
                if self._feasible(w2, extra=hidden):
                    out.append(w2)
        return out, hidden

    def _restricted(self, w: World, unseen: list[CardInst], allowed: frozenset[str]) -> World | None:
        w2 = dict(w)
        for t in unseen:
            d = w2.get(t.uid)
            nd = (self.all_names if d is None else d) & allowed
            if not nd:
                return None
            w2[t.uid] = nd
        return w2 if self._feasible(w2) else None

    def _feasible(self, w: World, extra: list[CardInst] = ()) -> bool:  # type: ignore[assignment]
        """Whether the restricted tokens of ``w`` can be matched to the cards left (plus those of
        ``extra``: known tokens being hidden, whose names are counted back in)."""
        if not w:
            return True
        rem = dict(self.left)
        for k in extra:
            rem[k.cdef.name] += 1
        groups: dict[frozenset[str], int] = {}
        for dom in w.values():
            if len(dom) == 1:
                for n in dom:
                    r = rem.get(n, 0) - 1
                    if r < 0:
                        return False
                    rem[n] = r
            else:
                groups[dom] = groups.get(dom, 0) + 1
        return not groups or _fits(groups, rem)

    def _learn(self, t: CardInst, name: str) -> None:
        t.cdef = self.defs[name]
        self.left[name] -= 1
        for w in self.worlds:
            w.pop(t.uid, None)
        self._tidy()

    def _tidy(self) -> None:
        """Drop repeated worlds, give a name to every token that has the same one in all of them,
        and merge the worlds if there are too many."""
        self.memo.clear()
        worlds = self.worlds
        if len(worlds) > 1:
            seen: set[frozenset] = set()
            unique = []
            for w in worlds:
                key = frozenset(w.items())
                if key not in seen:
                    seen.add(key)
                    unique.append(w)
            worlds = unique
        if len(worlds) > MAX_WORLDS:
            merged: World = {}
            common = set(worlds[0]).intersection(*worlds[1:])
            for uid in common:
                dom: frozenset[str] = frozenset()
                for w in worlds:
                    dom = dom | w[uid]
                merged[uid] = dom
            worlds = [merged]
        self.worlds = worlds
        first = worlds[0]
        settled = [(uid, dom) for uid, dom in first.items()
                   if len(dom) == 1 and all(w.get(uid) == dom for w in worlds[1:])]
        for uid, dom in settled:
            t = self.tokens[uid]
            name = next(iter(dom))
            t.cdef = self.defs[name]
            self.left[name] -= 1
            for w in worlds:
                del w[uid]
        if settled and len(worlds) > 1:
            self._tidy()


def _classes(w: World, pool: list[CardInst]) -> dict[frozenset[str] | None, CardInst]:
    """The first token of ``pool`` for each different thing its tokens may be in world ``w``."""
    out: dict[frozenset[str] | None, CardInst] = {}
    for c in pool:
        d = w.get(c.uid)
        if d not in out:
            out[d] = c
    return out


def _relabel(w: World, t0: CardInst, tc: CardInst) -> World:
    """A copy of ``w`` in which ``t0`` and ``tc`` (in the same unordered place) trade what they may be."""
    w2 = dict(w)
    if tc is not t0:
        a, b = w2.pop(t0.uid, None), w2.pop(tc.uid, None)
        if b is not None:
            w2[t0.uid] = b
        if a is not None:
            w2[tc.uid] = a
    return w2


def _fits(groups: dict[frozenset[str], int], capacity: dict[str, int]) -> bool:
    """Whether ``groups[domain]`` tokens per domain can each get a different copy of a name in
    their domain. Tokens with one domain are alike, so Hall's condition need only be checked on
    whole groups: every set of groups must fit in the copies its domains reach. A handful of groups
    (the usual case) is checked that way; more go to augmenting paths."""
    items = list(groups.items())
    if len(items) > 8:
        return _match([d for d, c in items for _ in range(c)], capacity)
    unions: list[frozenset[str]] = [frozenset()] * (1 << len(items))
    need = [0] * (1 << len(items))
    for mask in range(1, 1 << len(items)):
        low = mask & -mask
        i = low.bit_length() - 1
        u = unions[mask ^ low] | items[i][0]
        unions[mask] = u
        n = need[mask ^ low] + items[i][1]
        need[mask] = n
        if n > sum(capacity.get(x, 0) for x in u):
            return False
    return True


def _match(domains: list[frozenset[str]], capacity: dict[str, int]) -> bool:
    """Whether each domain can get a different copy of one of its names (Kuhn's augmenting paths)."""
    holders: dict[str, list[int]] = {}

    def place(i: int, tried: set[str]) -> bool:
        for n in domains[i]:
            if n in tried or capacity.get(n, 0) <= 0:
                continue
            tried.add(n)
            got = holders.setdefault(n, [])
            if len(got) < capacity[n]:
                got.append(i)
                return True
            for j in list(got):
                if place(j, tried):
                    got.remove(j)
                    got.append(i)
                    return True
        return False

    return all(place(i, set()) for i in range(len(domains)))
