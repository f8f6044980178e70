"""Shared checks for the 2026.2 deck test modules of Knights, Vikings and Zulus: card texts name
the keywords their effects use."""

from __future__ import annotations

import re

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
                assert re.search(tok, c["text"], re.I), f"{c['name']}: text does not mention {tok} tokens"
