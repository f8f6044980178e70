"""Deck-level checks for the 2026.2 decks (run for each deck by test_decks.py): card texts name the
keywords their effects use, every card has a test named after it in test_cards_<deck>.py, and
seeded random play with the deck replays valid."""

from __future__ import annotations

import re

from engine.game import Game

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
    from engine.bots import RandomBot, play
    from engine.replay import replay
    from engine.rng import SplitMix64
    from engine.selfplay import game_log

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


def assert_every_card_has_a_test(test_file: str, raw_deck: dict) -> None:
    """Every card name of the deck has a test function named after it in ``test_file``."""
    from pathlib import Path

    src = Path(test_file).read_text(encoding="utf-8")
    assert sum(c.get("copies", 1) for c in raw_deck["cards"]) == 24
    for c in raw_deck["cards"]:
        slug = re.sub(r"[^a-z0-9]+", "_", c["name"].lower()).strip("_")
        assert f"def test_{slug}_" in src, f"{c['name']} has no test named after it"
