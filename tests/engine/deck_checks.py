"""Deck-level checks for the 2026.2 decks (run for each deck by test_decks.py): card texts name the
keywords their effects use, every card has a test named after it in test_cards_<deck>.py that
really exercises it (``CardWatch``), and seeded random play with the deck replays valid."""

from __future__ import annotations

import re
from types import ModuleType

import scenario

from engine.bfe.game import Game
from engine.bfe.observe import GameObserver

WORDS = {"bite": r"\bBites?\b", "banish": r"\bBanish", "shift": r"\bShift", "stack": r"\bStack",
         "swap": r"\bSwap", "move": r"\bMove", "return": r"\bReturn", "discard": r"\bdiscards?\b|\bDiscard",
         "draw": r"\bDraws?\b", "destroy": r"\bDestroy", "stop": r"Stop token", "acquire": r"\bAcquire",
         "deploy": r"\bDeploy", "repeat": r"again", "raid": r"\[Viking Raid \d+\]"}
NESTED = ("each", "then", "else", "may")


def _verbs(actions: list, out: list) -> None:
    for a in actions or []:
        for k, v in a.items():
            if k in NESTED and isinstance(v, list):
                _verbs(v, out)
            elif k != "prompt":
                out.append((k, v))


def assert_texts_name_keywords(raw_deck: dict) -> None:
    for c in raw_deck["cards"]:
        acts: list = []
        for e in c.get("effects", []):
            _verbs(e["do"], acts)
        for verb, pat in WORDS.items():
            if any(k == verb for k, _ in acts):
                assert re.search(pat, c["text"]), f"{c['name']}: text does not mention {verb}"
        for k, v in acts:
            if k == "token":
                tok = v.get("apply") or v.get("remove")
                assert re.search(tok, c["text"], re.IGNORECASE), f"{c['name']}: text does not mention {tok} tokens"
        for tok in c.get("tokens", []):
            assert re.search(tok, c["text"], re.IGNORECASE), f"{c['name']}: text does not mention its affixed {tok}"


def random_games(catalog, deck: str, n: int = 200, seed0: int = 0) -> None:
    """n seeded self-play games of ``deck`` against random opponents of ``catalog`` (seats
    alternating) on random battlefields, random bots; each finishes and its log replays valid."""
    from engine.bfe.bots import RandomBot, play
    from engine.bfe.selfplay import game_log
    from engine.replay import replay
    from engine.rng import SplitMix64

    pick = SplitMix64(seed0)
    names = sorted(catalog.decks)
    bfs = sorted(catalog.battlefields)
    for i in range(n):
        opp = names[pick.below(len(names))]
        decks = [deck, opp] if i % 2 == 0 else [opp, deck]
        pool = list(bfs)
        pick.shuffle(pool)
        seed = seed0 + i
        g = Game(catalog, [list(catalog.decks[d]) for d in decks], [catalog.battlefields[b] for b in pool[:3]],
                 seed=seed, deck_names=decks)
        play(g, {1: RandomBot(seed * 7 + 1), 2: RandomBot(seed * 7 + 2)})
        assert g.over
        log = game_log(g, catalog=catalog.version, decks=decks, battlefields=pool[:3], seed=seed)
        res = replay(log, catalog=catalog)
        assert res.verdict.ok, (seed, decks, res.verdict.message)


def card_slug(name: str) -> str:
    """'Sir Kay' -> 'sir_kay': a test named after the card is ``test_<slug>_...``."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def tests_named_after(tests: ModuleType, names: list[str]) -> dict[str, list[str]]:
    """The test functions of ``tests`` named after each card (``test_<slug>_...``); a name that
    fits two cards ('test_sir_kay_the_elder_...') belongs to the longer one."""
    slugs = sorted(((card_slug(n), n) for n in names), key=lambda s: -len(s[0]))
    out: dict[str, list[str]] = {n: [] for n in names}
    for attr, fn in vars(tests).items():
        if attr.startswith("test_") and callable(fn):
            card = next((n for s, n in slugs if attr.startswith(f"test_{s}_")), None)
            if card is not None:
                out[card].append(attr)
    return out


class CardWatch(GameObserver):
    """What the games of one test did with the watched cards: deployed or revealed them (it
    observes every game made while it is installed) and ran their abilities (the compiled actions
    of their effects, wrapped while it is installed: an action runs only when its effect resolves,
    its condition if any having held, on the board or from the discard pile).

    ``install`` makes every ``Game(...)`` of scenario.py (and of ``also``, e.g. a test module that
    builds games itself) observed, and wraps the watched cards' effects in each game's catalog;
    ``uninstall`` puts everything back. Nothing in engine/ is changed: the effects' ``actions`` are
    plain attributes holding the callables the engine calls, and observers are the engine's own."""

    def __init__(self, names) -> None:
        self.names = frozenset(names)
        self.touched: set[str] = set()
        self.ran: set[str] = set()
        self._wrapped: dict[int, tuple] = {}
        self._patched: list[ModuleType] = []

    def reset(self) -> None:
        self.touched, self.ran = set(), set()

    def on_deploy(self, g, card, bf, by_ability) -> None:  # an observer of the games it watches
        self._touch(card)

    def on_reveal(self, g, card) -> None:
        self._touch(card)

    def _touch(self, card) -> None:
        if card.name in self.names:
            self.touched.add(card.name)

    def _recorder(self, name: str, action):
        def act(*args):
            self.ran.add(name)
            return action(*args)
        return act

    def _wrap(self, catalog) -> None:
        for name in self.names:
            cdef = catalog.cards.get(name)
            for effects in (cdef.effects.values() if cdef is not None else ()):
                for eff in effects:
                    if id(eff) not in self._wrapped:
                        self._wrapped[id(eff)] = (eff, eff.actions)
                        eff.actions = tuple(self._recorder(name, a) for a in eff.actions)

    def game(self, catalog, *args, **kw):
        """``engine.bfe.game.Game(...)``, observed, with the watched cards' effects wrapped."""
        self._wrap(catalog)
        kw["observers"] = [*(kw.get("observers") or ()), self]
        return Game(catalog, *args, **kw)

    def install(self, *also: ModuleType) -> None:
        for mod in (scenario, *also):
            if getattr(mod, "Game", None) is Game:
                mod.Game = self.game
                self._patched.append(mod)

    def uninstall(self) -> None:
        for mod in self._patched:
            mod.Game = Game
        for eff, actions in self._wrapped.values():
            eff.actions = actions
        self._patched, self._wrapped = [], {}


def assert_every_card_has_a_test(tests: ModuleType, raw_deck: dict) -> None:
    """The deck has 24 cards, and every card has a test named after it in ``tests`` (a test module)
    that exercises it. The named tests are run again here, each watched (``CardWatch``): each one
    must deploy, reveal or run the ability of its card, and at least one of a card's tests must run
    its ability (a card without one: deploy or reveal it)."""
    assert sum(c.get("copies", 1) for c in raw_deck["cards"]) == 24
    names = [c["name"] for c in raw_deck["cards"]]
    vanilla = {c["name"] for c in raw_deck["cards"] if not c.get("effects")}
    named = tests_named_after(tests, names)
    watch = CardWatch(names)
    seen: dict[str, tuple[set, set]] = {}
    problems = []
    watch.install(tests)
    try:
        for test in sorted({t for ts in named.values() for t in ts}):
            watch.reset()
            try:
                getattr(tests, test)()
            except Exception as e:  # noqa: BLE001 - reported with the others
                problems.append(f"{test} fails when run again: {type(e).__name__}: {e}")
            seen[test] = (watch.touched, watch.ran)
    finally:
        watch.uninstall()
    for card in names:
        if not named[card]:
            problems.append(f"{card} has no test named after it")
            continue
        for test in named[card]:
            touched, ran = seen[test]
            if card not in touched | ran:
                problems.append(f"{test} never deploys, reveals or runs {card}")
        if card not in vanilla and not any(card in seen[t][1] for t in named[card]):
            problems.append(f"{card}: none of its tests ({', '.join(named[card])}) runs its ability")
    assert not problems, "cards not exercised by the tests named after them:\n  " + "\n  ".join(problems)
