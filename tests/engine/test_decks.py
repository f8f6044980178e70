"""The deck-level checks of issue 15, once for each 2026.2 deck that has a card test module
(test_cards_<deck>.py holds the per-card tests): the list has 24 cards; every card has a test named
after it there; the card texts name the keywords their effects use; 200 seeded random games with
the deck finish and replay valid (each deck keeps the seeds its module used)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml
from deck_checks import (
    assert_every_card_has_a_test,
    assert_texts_name_keywords,
    random_games,
)
from scenario import CATALOG, NEXT_ROOT, catalog_with

# deck -> the first seed of its random games
DECKS = {"azteca": 0, "bastion": 8200, "knights": 0, "parthenon": 9300, "samurai": 7100, "vikings": 0, "zulus": 0}


def raw(deck: str) -> dict:
    return yaml.safe_load((NEXT_ROOT / "decks" / f"{deck}.yaml").read_text(encoding="utf-8"))


@cache
def catalog(deck: str):
    """The card-test catalog with this deck (what test_cards_<deck>.py plays with) and its name."""
    cat = catalog_with(f"{deck}.yaml")
    (name,) = set(cat.decks) - set(CATALOG.decks)
    return cat, name


@pytest.mark.parametrize("deck", DECKS)
def test_every_card_has_a_test_named_after_it(deck):
    assert_every_card_has_a_test(str(Path(__file__).with_name(f"test_cards_{deck}.py")), raw(deck))


@pytest.mark.parametrize("deck", DECKS)
def test_card_texts_name_their_keywords(deck):
    assert_texts_name_keywords(raw(deck))


@pytest.mark.parametrize("deck", DECKS)
def test_random_play_200_games_finish_and_replay_valid(deck):
    cat, name = catalog(deck)
    random_games(cat, name, 200, DECKS[deck])

