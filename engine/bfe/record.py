"""The game record: what statistics need from one game, built by observing a replay.

``RecordBuilder`` is a consumer: it is attached to a Game's observers and sees only events, so a
replay that needs no record (plain verification) builds nothing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from .board import board_cards
from .observe import GameObserver

if TYPE_CHECKING:  # the game imports nothing of this module; only the type checker needs these
    from .game import Game
    from .state import CardInst


@dataclass
class CardStats:
    deploys: int = 0
    reveals: int = 0
    moves: int = 0
    destroys: int = 0  # times this card was destroyed
    returns: int = 0
    deploy_rounds: list[int] = field(default_factory=list)
    might_gained: int = 0  # might gained from abilities and battlefield effects
    final_might: int = 0  # might on the board at the end of the game
    on_board_at_end: int = 0


@dataclass
class RoundStats:
    round: int
    first_player: int
    might: list[list[int]]  # [player][battlefield] at the end of the round
    essence: list[dict]  # per player: available, spent, unspent


@dataclass
class GameRecord:
    players: int
    decks: list[str]
    battlefields: list[str]
    first_player: int
    winner: int | None = None
    margin: int = 0  # winner's total might minus the best other total (0 on a draw)
    final_might: list[list[int]] = field(default_factory=list)
    battlefield_winners: list[int | None] = field(default_factory=list)
    rounds: list[RoundStats] = field(default_factory=list)
    cards: list[dict[str, CardStats]] = field(default_factory=list)  # per player, by card name
    decisions: int = 0
    # How the game ended: "score" (the tally), "concession" or "time". Only a game that reached the
    # tally has a margin and might by round that say something about its shape.
    end: str = "score"
    conceded_by: int | None = None
    unseen: list[int] = field(default_factory=list)  # per player: cards that left the deck unseen

    def to_dict(self) -> dict:
        return asdict(self)


class RecordBuilder(GameObserver):
    """Observer of a Game; ``record`` is complete once the game is over. The record starts at the
    game's first event (the opening hands' draws, or a concession before them)."""

    def __init__(self) -> None:
        self.record: GameRecord | None = None
        self._round_first = 0

    def _rec(self, g: Game) -> GameRecord:
        rec = self.record
        if rec is None:
            rec = self.record = GameRecord(
                players=g.n, decks=[p.deck_name for p in g.players],
                battlefields=[bf.name for bf in g.bfs], first_player=g.first,
                cards=[{} for _ in range(g.n)])
        return rec

    def _stats(self, g: Game, card: CardInst) -> CardStats:
        per = self._rec(g).cards[card.owner - 1]
        st = per.get(card.cdef.name)
        if st is None:
            st = per[card.cdef.name] = CardStats()
        return st

    def on_draw(self, g: Game, player: int, card: CardInst) -> None:
        self._rec(g)

    def on_might(self, g: Game, card: CardInst, amount: int, source: CardInst | None) -> None:
        if amount > 0:
            self._stats(g, card).might_gained += amount

    def on_deploy(self, g: Game, card: CardInst, bf: int, by_ability: bool) -> None:
        st = self._stats(g, card)
        st.deploys += 1
        st.deploy_rounds.append(g.round)

    def on_reveal(self, g: Game, card: CardInst) -> None:
        self._stats(g, card).reveals += 1

    def on_move(self, g: Game, card: CardInst, from_bf: int, to_bf: int) -> None:
        self._stats(g, card).moves += 1

    def on_destroy(self, g: Game, card: CardInst, source: CardInst | None) -> None:
        self._stats(g, card).destroys += 1

    def on_return(self, g: Game, card: CardInst) -> None:
        self._stats(g, card).returns += 1

    def on_round_start(self, g: Game) -> None:
        self._rec(g)
        self._round_first = g.first

    def on_round_end(self, g: Game) -> None:
        self._rec(g).rounds.append(RoundStats(
            round=g.round, first_player=self._round_first, might=g.might_table(),
            essence=[{"available": p.spent + p.essence, "spent": p.spent, "unspent": p.essence}
                     for p in g.players]))

    def on_game_end(self, g: Game) -> None:
        rec = self._rec(g)
        final = g.final_might
        assert final is not None  # the tally set it just before this event
        rec.winner = g.winner
        rec.final_might = final
        rec.end = g.end.value if g.end is not None else "score"
        rec.conceded_by = g.conceded_by
        for b in range(g.nbf):
            col = [final[p][b] for p in range(g.n)]
            top = max(col)
            rec.battlefield_winners.append(col.index(top) + 1 if col.count(top) == 1 else None)
        if g.winner is not None:
            mine = sum(final[g.winner - 1])
            rec.margin = mine - max(sum(r) for i, r in enumerate(final) if i != g.winner - 1)
        for card in board_cards(g):
            st = self._stats(g, card)
            st.final_might += card.might
            st.on_board_at_end += 1

