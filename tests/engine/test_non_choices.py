"""Choices that cannot change anything may be left out of a log (docs/rules.md, "Choices that cannot
change anything"): a table never says them aloud, so a log written there leaves them out, and the
engine must not wait for them; a log that answers them (as recorders did) reads as before. Issue 26,
part 4: a "Deploy … Here" with no open zone Here, and a "may" with nothing to act on, were questions
a log had to answer."""

from __future__ import annotations

from scenario import SPE, VAM, catalog_with, deploy_round, give, new_game, side

from engine.bfe.decisions import Decision, Kind, parse_decision
from engine.bfe.state import Loc
from engine.reader import read

SAM = "Samurai of the Sengoku"
SAMURAI = catalog_with("samurai.yaml")


def discarded(g, p: int, *names: str) -> None:
    """Direct set-up: the named cards go from player p's deck to the discard pile."""
    ps = g.players[p - 1]
    for card in give(g, p, *names):
        ps.hand.remove(card)
        card.loc = Loc.DISCARD
        ps.discard.append(card)


def shrine_maiden_in_zone(zone: int):
    """Shrine Maiden revealed in zone ``zone`` of B1 (five zones), with two cards of cost 3 or
    less, of different names, in the discard pile for her to deploy Here."""
    g = new_game(SAM, SPE, catalog=SAMURAI)
    discarded(g, 1, "Ronin", "Itako")
    deploy_round(g, {1: [("Ashigaru", 1)] * (zone - 1) + [("Shrine Maiden", 1)]})
    return g


def test_a_deploy_here_with_no_open_zone_here_may_be_left_out_and_deploys_nothing():
    g = shrine_maiden_in_zone(5)
    assert g.zones[0] == 5 and side(g, 1, 1) == ["Ashigaru"] * 4 + ["Shrine Maiden"]
    point = g.pending
    assert point.kind == Kind.CHOOSE_CARD and point.default == Decision(1, "nothing")
    # left out of the log: its default is taken, and nothing moves
    left = read(g, []).left_out
    assert [(p.kind, p.default) for p in left][:1] == [(Kind.CHOOSE_CARD, Decision(1, "nothing"))]
    assert sorted(c.name for c in g.players[0].discard) == ["Itako", "Ronin"]
    assert side(g, 1, 1) == ["Ashigaru"] * 4 + ["Shrine Maiden"]
    # answered, as a log written before this rule did: taken, and nothing moves either
    answered = shrine_maiden_in_zone(5)
    answered.apply(parse_decision("P1 choose Ronin"))
    assert sorted(c.name for c in answered.players[0].discard) == ["Itako", "Ronin"]


def test_a_deploy_here_with_an_open_zone_asks_which_card():
    g = shrine_maiden_in_zone(2)
    assert g.pending is not None and g.pending.kind == Kind.CHOOSE_CARD and g.pending.player == 1
    g.apply(parse_decision("P1 choose Ronin"))
    assert side(g, 1, 1) == ["Ashigaru", "Shrine Maiden", "Ronin"]


def test_a_may_with_nothing_to_act_on_may_be_left_out():
    g = new_game(VAM, SPE)
    deploy_round(g, {1: [("Mist Walker", 1)]}, essence={1: 5})  # no other ally card Here to shift
    assert g.pending.kind == Kind.MAY and g.pending.default == Decision(1, "no")
    assert [p.default for p in read(g, []).left_out][:1] == [Decision(1, "no")]
    assert side(g, 1, 1) == ["Mist Walker"]


def test_a_may_with_something_to_act_on_is_asked():
    g = new_game(VAM, SPE)
    deploy_round(g, {1: [("Villager", 1), ("Mist Walker", 1)]}, essence={1: 5})
    assert g.pending is not None and g.pending.kind == Kind.MAY and g.pending.player == 1
    assert g.pending.default is None  # a real choice: a log answers it


def test_a_may_names_the_card_that_asks_and_a_second_offer_says_no_more_after_a_no():
    g = new_game(SAM, SPE, catalog=SAMURAI)
    give(g, 1, "Ronin", "Itako")  # cards in hand for the Kensei to discard
    deploy_round(g, {1: [("Kensei", 1)]}, give_cards=True)
    assert g.pending.kind == Kind.MAY and g.pending.prompt == "Kensei: discard 1 card for +2 might?"
    g.apply(parse_decision("P1 no"))
    assert g.pending.kind == Kind.MAY
    assert g.pending.prompt == "Kensei: discard 1 card for +2 might (its second offer)?"
    assert "more" not in g.pending.prompt
