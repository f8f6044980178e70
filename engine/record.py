"""The game record: what statistics need from one game, built by observing a replay.

``RecordBuilder`` is a consumer: it is attached to a Game's observers and sees only events, so a
replay that needs no record (plain verification) builds nothing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


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

    def to_dict(self) -> dict:
        return asdict(self)


class RecordBuilder:
    """Observer of a Game; ``record`` is complete once the game is over."""

    def __init__(self) -> None:
        self.record: GameRecord | None = None
        self._round_first = 0

    def _stats(self, card) -> CardStats:
        per = self.record.cards[card.owner - 1]
        st = per.get(card.cdef.name)
        if st is None:
            st = per[card.cdef.name] = CardStats()
        return st

    def __call__(self, event: str, g, *args) -> None:
        if self.record is None:
            self.record = GameRecord(
                players=g.n, decks=[p.deck_name for p in g.players],
                battlefields=[bf.name for bf in g.bfs], first_player=g.first,
                cards=[{} for _ in range(g.n)])
        handler = _HANDLERS.get(event)
        if handler is not None:
            handler(self, g, *args)

    def _round_start(self, g) -> None:
        self._round_first = g.first

    def _round_end(self, g) -> None:
        self.record.rounds.append(RoundStats(
            round=g.round, first_player=self._round_first, might=g.might_table(),
            essence=[{"available": p.spent + p.essence, "spent": p.spent, "unspent": p.essence}
                     for p in g.players]))

    def _deploy(self, g, card, b, by_ability) -> None:
        st = self._stats(card)
        st.deploys += 1
        st.deploy_rounds.append(g.round)

    def _reveal(self, g, card) -> None:
        self._stats(card).reveals += 1

    def _move(self, g, card, frm, to) -> None:
        self._stats(card).moves += 1

    def _destroy(self, g, card, source) -> None:
        self._stats(card).destroys += 1

    def _return(self, g, card) -> None:
        self._stats(card).returns += 1

    def _might(self, g, card, delta, source) -> None:
        if delta > 0:
            self._stats(card).might_gained += delta

    def _game_end(self, g) -> None:
        rec = self.record
        rec.winner = g.winner
        rec.final_might = g.final_might
        for b in range(g.nbf):
            col = [g.final_might[p][b] for p in range(g.n)]
            top = max(col)
            rec.battlefield_winners.append(col.index(top) + 1 if col.count(top) == 1 else None)
        if g.winner is not None:
            mine = sum(g.final_might[g.winner - 1])
            rec.margin = mine - max(sum(r) for i, r in enumerate(g.final_might) if i != g.winner - 1)
        for card in g.board_cards():
            st = self._stats(card)
            st.final_might += card.might
            st.on_board_at_end += 1


_HANDLERS = {
    "round_start": RecordBuilder._round_start,
    "round_end": RecordBuilder._round_end,
    "deploy": RecordBuilder._deploy,
    "reveal": RecordBuilder._reveal,
    "move": RecordBuilder._move,
    "destroy": RecordBuilder._destroy,
    "return": RecordBuilder._return,
    "might": RecordBuilder._might,
    "game_end": RecordBuilder._game_end,
}
