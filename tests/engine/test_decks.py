"""The deck-level checks of issue 15, once for each 2026.2 deck that has a card test module
(test_cards_<deck>.py holds the per-card tests): the list has 24 cards; every card has a test named
after it there that deploys, reveals or runs it, and its ability runs in one of them; the card
texts name the keywords their effects use; 200 seeded random games with the deck finish and replay
valid (each deck keeps the seeds its module used)."""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

import pytest
import scenario
import yaml
from deck_checks import (
    assert_every_card_has_a_test,
    assert_texts_name_keywords,
    card_slug,
    random_games,
)
from scenario import CATALOG, NEXT_ROOT, catalog_with

from engine.bfe.catalog import Catalog
from engine.bfe.game import Game

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
def test_every_card_is_exercised_by_a_test_named_after_it(deck):
    assert_every_card_has_a_test(importlib.import_module(f"test_cards_{deck}"), raw(deck))


@pytest.mark.parametrize("deck", DECKS)
def test_card_texts_name_their_keywords(deck):
    assert_texts_name_keywords(raw(deck))


@pytest.mark.parametrize("deck", DECKS)
def test_random_play_200_games_finish_and_replay_valid(deck):
    cat, name = catalog(deck)
    random_games(cat, name, 200, DECKS[deck])


# ---------------------------------------------------------------- the check can fail
def with_tests(deck: str, tests: dict[str, list]) -> ModuleType:
    """test_cards_<deck>.py with other tests for some cards: ``tests[card]`` become the card's only
    tests named after it (an empty list: it has none)."""
    real = importlib.import_module(f"test_cards_{deck}")
    slugs = tuple(f"test_{card_slug(card)}_" for card in tests)
    fake = ModuleType(f"fake_{deck}")
    fake.__dict__.update({k: v for k, v in vars(real).items() if not k.startswith(slugs)})
    for card, fns in tests.items():
        for i, fn in enumerate(fns):
            setattr(fake, f"test_{card_slug(card)}_fake_{i}", fn)
    return fake


def first_test(deck: str, card: str):
    """The first test named after ``card`` in test_cards_<deck>.py."""
    real = importlib.import_module(f"test_cards_{deck}")
    return next(fn for k, fn in vars(real).items() if k.startswith(f"test_{card_slug(card)}_"))


def audit_problems(deck: str, tests: dict[str, list]) -> list[str]:
    with pytest.raises(AssertionError) as e:
        assert_every_card_has_a_test(with_tests(deck, tests), raw(deck))
    return str(e.value).split("\n")[1:]


def test_a_test_that_never_touches_its_card_is_caught():
    # the Catapult's test under the Chariots' name: it deploys no Chariots and runs no Chariots ability
    got = audit_problems("bastion", {"Chariots": [first_test("bastion", "Catapult")]})
    assert [p.strip() for p in got] == ["test_chariots_fake_0 never deploys, reveals or runs Chariots",
                                        "Chariots: none of its tests (test_chariots_fake_0) runs its ability"]


def test_a_card_revealed_but_whose_ability_never_runs_is_caught():
    got = audit_problems("vikings", {"Karl Raiders": [importlib.import_module("test_cards_vikings")
                                                      .test_karl_raiders_do_not_raid_when_revealed]})
    assert [p.strip() for p in got] == ["Karl Raiders: none of its tests (test_karl_raiders_fake_0) runs its ability"]


def test_a_card_without_an_ability_must_be_deployed_in_its_test():
    got = audit_problems("bastion", {"Fortress Walls": [first_test("bastion", "Watchman")]})
    assert [p.strip() for p in got] == ["test_fortress_walls_fake_0 never deploys, reveals or runs Fortress Walls"]


def test_a_card_without_a_test_and_a_failing_test_are_caught_and_the_watch_is_taken_down():
    played = next(v for v in vars(importlib.import_module("test_cards_samurai")).values() if isinstance(v, Catalog))
    effects = [(e, e.actions) for c in played.cards.values() for es in c.effects.values() for e in es]

    def broken():
        raise ValueError("no such card")

    got = audit_problems("samurai", {"Ronin": [], "Kensei": [broken]})
    assert [p.strip() for p in got] == ["test_kensei_fake_0 fails when run again: ValueError: no such card",
                                        "Ronin has no test named after it",
                                        "test_kensei_fake_0 never deploys, reveals or runs Kensei",
                                        "Kensei: none of its tests (test_kensei_fake_0) runs its ability"]
    assert scenario.Game is Game
    assert all(e.actions is actions for e, actions in effects)
