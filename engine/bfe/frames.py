"""Battle for Empyrean's board and counts as the viewer and the recorders show them: a frame of the
board (every player's piles, every battlefield's zones), the header of a timeline (the seats and
the battlefields), each player's running tallies, how a finished game came out, and whose deploys a
seat view waits for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..games import CHANCE
from ..log import GameLog
from .decisions import Kind
from .game import Game
from .state import AT_DRAWN, PH_DEPLOY, CardInst, PlayerState


@dataclass(frozen=True)
class Tally:
    """One player's counts, as the companion app keeps them."""

    seat: int
    essence: int  # essence left to spend this round
    next_round_adjustment: int  # added to (or taken from) next round's essence by effects so far
    spent: int  # essence spent this round
    might: list[int]  # per battlefield, B1 first
    total: int


@dataclass(frozen=True)
class Outcome:
    """How a finished game came out."""

    end: str  # score, concession or time
    winner: int | None  # None: a draw
    might: list[list[int]]  # final might, per player per battlefield
    conceded_by: int | None


def game_outcome(g: Game) -> Outcome | None:
    """How the game came out, once it is over."""
    if not g.over:
        return None
    assert g.end is not None and g.final_might is not None
    return Outcome(g.end.value, g.winner, [list(r) for r in g.final_might], g.conceded_by)


def seats(log: GameLog) -> list[dict[str, Any]]:
    """Who sits where: seat, deck, name (from meta) and whether the deck is a mash-up."""
    names = log.meta.get("players")  # seat order, when the log gives them
    out = []
    for i, ref in enumerate(log.setup.decks):
        name = names[i] if names is not None and i < len(names) else None
        out.append({"seat": i + 1, "deck": ref.name, "name": name, "mashup": ref.cards is not None})
    return out


def layout(g: Game) -> list[dict[str, Any]]:
    """The battlefields in play: label, name, zones and their text."""
    return [{"label": f"B{b + 1}", "name": bf.name, "zones": bf.zones, "text": list(bf.text)}
            for b, bf in enumerate(g.bfs)]


def deploys_before_seat(g: Game) -> list[int]:
    """At another player's deploy turn in a seat view (their cards face down to the seat) with the
    seat's own turn still to come this round: the players from the pending one up to the seat,
    in deploy (first-player) order; else []."""
    pend, seat = g.pending, g.view
    if pend is None or seat is None or pend.kind is not Kind.DEPLOY or g.phase != PH_DEPLOY:
        return []
    if pend.player == seat or pend.player not in g.order or seat not in g.order:
        return []
    now, mine = g.order.index(pend.player), g.order.index(seat)
    return g.order[now:mine] if now < mine else []


def tally_columns(tallies: list[Tally]) -> dict[str, list]:
    """The tallies by kind, seat by seat, as the positions API has always given them beside each
    player's own: essence, next round's adjustment, might per battlefield, total might."""
    return {"essence": [t.essence for t in tallies],
            "next_round_adjustment": [t.next_round_adjustment for t in tallies],
            "might": [list(t.might) for t in tallies], "totals": [t.total for t in tallies]}


def tallies(g: Game) -> list[Tally]:
    might = g.might_table()
    return [Tally(ps.num, ps.essence, ps.next_adjust, ps.spent, might[i], sum(might[i]))
            for i, ps in enumerate(g.players)]



def frame(g: Game, index: int, decision: str | None, line: int | None = None) -> dict[str, Any]:
    """The board as a JSON-ready dict: who is to move and on what, every player's piles, every
    battlefield's zones. Face-down cards are named (the log knows them) with ``face_up: false``;
    a card nobody at the recording seat saw is named ``?``. ``line``: the index in the log of the
    line just applied."""
    pend = g.pending
    return {
        "index": index,
        "decision": decision,
        "line": line,
        "round": g.round,
        "phase": g.phase.label,
        "first_player": g.first or None,
        "to_move": pend.player if pend is not None else None,
        "to_move_label": _who(pend.player) if pend is not None else None,
        "kind": pend.kind.value if pend is not None else None,
        "prompt": pend.prompt if pend is not None else None,
        "over": g.over,
        "winner": g.winner if g.over else None,
        "players": [_player(ps) for ps in g.players],
        "battlefields": [_battlefield(g, b) for b in range(g.nbf)],
        "might": g.might_table(),
    }


def _who(player: int) -> str:
    return "chance" if player == CHANCE else f"P{player}"


def _player(ps: PlayerState) -> dict[str, Any]:
    return {
        "seat": ps.num,
        "deck": ps.deck_name,
        "essence": ps.essence,
        "hand": [c.name for c in ps.hand],
        # the two cards drawn in the draft, one to keep (also listed in hand)
        "drafting": [c.name for c in ps.hand if c.loc is AT_DRAWN],
        "deck_size": len(ps.deck),
        "discard": [c.name for c in ps.discard],
        "destroyed": [c.name for c in ps.destroyed],
        "banished": [c.name for c in ps.banished],
        "stops": list(ps.stops),
    }


def _battlefield(g: Game, b: int) -> dict[str, Any]:
    return {
        "label": f"B{b + 1}",
        "name": g.bfs[b].name,
        "sides": [{"seat": p + 1, "might": sum(c.might for c in side), "stops": g.players[p].stops[b],
                   "zones": [_zone(z, c) for z, c in enumerate(side, 1)]}
                  for p, side in enumerate(g.board[b])],
    }


def _zone(z: int, c: CardInst) -> dict[str, Any]:
    return {
        "zone": z,
        "card": c.name,
        "face_up": c.face_up,
        "cost": c.cdef.cost,
        "might": c.might,
        "tokens": {k: v for k, v in c.tokens.items() if v},
        "under": [u.name for u in c.under],
    }
