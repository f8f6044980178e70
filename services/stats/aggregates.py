"""The aggregate tables (agg_*), each declared once: its key, its values and how a game adds to them.

Every SQL text that lists an aggregate's columns is made from ``AGGREGATES``: the contribution
upserts of the fold (services.games.records.AGGREGATE_SQL), the recount and roll-up checks
(services.games.records.recount_differences, rollup_differences) and the statistics' reads of the
weekly roll-ups (services.stats.queries). The tables themselves are made by the migrations (0001-0004,
history: not generated from here); tests/services/test_stats_rollups.py checks that this
declaration and the migrated schema agree.

A row of agg_X is one day × event × table size (``COMMON_KEY``) × the table's own ``keys``; its
``values`` are sums over the counted games. A game's contribution is computed *in SQL from its
game_* rows* and added with a sign: +1 after the rows are written, -1 before they are replaced. So
what is taken out on a replay is exactly what was put in (same keys, same numbers: the keys come
from game_records, not from the games row, which may have changed since), and a recount from the
game_* tables uses the same definitions. Each statement groups by the aggregate's key, because one
game can hit a key twice (two seats with the same deck) and ON CONFLICT may touch a row only once
per statement, and upserts in key order (ORDER BY), so two transactions that share rows lock them in
the same order (no deadlock between workers; the weekly roll-up triggers of migration 0004 do the
same).

How a game ended (game_records.end_reason, migration 0009): a game conceded or stopped by time counts
in results and win rates like any other (decks, matchups, first player, battlefields, cards), but not
in the figures about the shape of a played-out game: the aggregates declared ``scored_only``
(agg_game_margins, agg_deck_rounds) take only ``end_reason = 'score'``. Sums of might at the end
(agg_battlefield_decks.might_sum, agg_card_metrics.might_at_end_sum) count the board as it stood when
the game ended, however it ended: they share their rows' denominators (games, deployed games) with
the results, and leaving a game out of the sum but not of its denominator would bias the average
(docs/services.md, "Games that end early"). The condition reads the stored record, so +1 and -1 of
one game cancel exactly.

Each agg_X with ``weekly`` has agg_X_weekly (migration 0004): the same rows summed per ISO week over
events, keyed by ``WEEKLY_COMMON_KEY`` and the same ``keys``, with the same ``values`` and
``daily_rows`` (how many agg_X rows it sums), kept by triggers on agg_X.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.bfe.rules import GAME_INFO
from engine.elysian.rules import GAME_INFO as ELYSIAN_INFO
from engine.steam.rules import GAME_INFO as STEAM_INFO
from engine.titans.rules import GAME_INFO as TITANS_INFO

# The key every aggregate starts with, and its expressions over game_records (r).
COMMON_KEY = {"played_on": "r.played_on", "event_id": "r.event_id", "players": "r.players"}
# The weekly roll-ups' (migration 0004): no event, the Monday of the ISO week for the day.
WEEKLY_COMMON_KEY = ("week_start", "players")
# Monday of the ISO week, by date arithmetic (date_trunc on a date goes through timestamptz and
# the session time zone).
WEEK_START = "(played_on - (extract(isodow FROM played_on)::int - 1))"


@dataclass(frozen=True)
class Aggregate:
    """One agg_* table.

    ``keys``: its key columns after ``COMMON_KEY``, each with its expression over the rows of
    ``joins``; ``values``: its value columns, each with the SQL aggregate that gives a group of
    games' part of it (the fold adds it times the sign, the roll-ups and the statistics sum it).
    ``joins``: what follows ``FROM game_records r`` in the contribution (the game rows one game
    adds from); ``scored_only``: only games played to the tally count (see the module's
    docstring); ``weekly``: there is an agg_X_weekly roll-up; ``game``: the key of the one game
    whose games it counts (None: every game's)."""

    table: str
    keys: dict[str, str]
    values: dict[str, str]
    joins: str = ""
    scored_only: bool = False
    weekly: bool = True
    game: str | None = None
    since: str = "0001"  # the migration that made the table

    def contribution_sql_at(self, revision: str) -> str:
        """``contribution_sql`` as a database at ``revision`` runs it (a migration calling the code
        that counts games): before GAME_COLUMN_REVISION, game_records has no game to filter on."""
        if revision >= GAME_COLUMN_REVISION or self.game is None:
            return self.contribution_sql
        return self.contribution_sql.replace(f" AND r.game = '{self.game}'", "")

    @property
    def columns(self) -> list[str]:
        """Its columns after COMMON_KEY: keys, then values."""
        return [*self.keys, *self.values]

    @property
    def weekly_table(self) -> str:
        assert self.weekly, self.table
        return f"{self.table}_weekly"

    @property
    def contribution_sql(self) -> str:
        """The upsert adding %(sign)s (+1 or -1) times the contribution of the games %(games)s (a
        list of game ids), grouped and locked in key order."""
        key = ", ".join([*COMMON_KEY.values(), *self.keys.values()])
        values = ", ".join(f"%(sign)s * {expression}" for expression in self.values.values())
        scored = " AND r.end_reason = 'score'" if self.scored_only else ""
        if self.game is not None:  # a key is letters, digits and '_' (engine.games.KEY_PATTERN)
            scored += f" AND r.game = '{self.game}'"
        added = ", ".join(f"{v} = a.{v} + EXCLUDED.{v}" for v in self.values)
        return (f"INSERT INTO {self.table} AS a ({', '.join([*COMMON_KEY, *self.columns])})\n"
                f"        SELECT {key}, {values}\n"
                f"        FROM game_records r{self.joins}\n"
                f"        WHERE r.game_id = ANY(%(games)s){scored}\n"
                f"        GROUP BY {key}\n"
                f"        ORDER BY {key}\n"
                f"        ON CONFLICT ON CONSTRAINT {self.table}_key DO UPDATE SET {added}")

    @property
    def nonzero_rows_sql(self) -> str:
        """How many of its rows hold a value other than 0 (after every counted game is taken out: rows
        that do not equal the recount)."""
        return f"SELECT count(*) FROM {self.table} WHERE " + " OR ".join(f"{v} <> 0" for v in self.values)

    @property
    def weekly_differences_sql(self) -> str:
        """How many rows of its weekly roll-up differ from (or are missing beside) its daily rows
        summed per ISO week over events."""
        weekly = self.weekly_table
        keys = [*WEEKLY_COMMON_KEY, *self.keys]
        daily_keys = [WEEK_START if k == "week_start" else k for k in keys]
        sums = ", ".join(f"sum({v}) AS {v}" for v in self.values)
        compared = [*self.values, "daily_rows"]
        return f"""
            SELECT count(*) FROM (
                SELECT {", ".join(f"{k} AS {n}" for k, n in zip(daily_keys, keys))}, {sums}, count(*) AS daily_rows
                FROM {self.table} GROUP BY {", ".join(daily_keys)}) d
            FULL JOIN {weekly} w USING ({", ".join(keys)})
            WHERE ({", ".join(f"d.{c}" for c in compared)})
                  IS DISTINCT FROM ({", ".join(f"w.{c}" for c in compared)})"""


# Joins and values several aggregates share.
_PLAYERS = "\n        JOIN game_players p ON p.game_id = r.game_id"
_OPPONENTS = "\n        JOIN game_players o ON o.game_id = r.game_id AND o.seat <> p.seat"
_PLAYER_BATTLEFIELDS = "\n        JOIN game_player_battlefields b ON b.game_id = p.game_id AND b.seat = p.seat"
_PLAYER_CARDS = "\n        JOIN game_player_cards c ON c.game_id = p.game_id AND c.seat = p.seat"
_SEATS = "\n        JOIN game_seats s ON s.game_id = r.game_id"  # every game's seats
_IN_PLAY = "\n        CROSS JOIN unnest(r.battlefields) AS bf"  # once per battlefield in play

_GAMES = "count(*)"
_DRAWS = "count(*) FILTER (WHERE r.winner IS NULL)"
_FIRST_PLAYER_WON = "count(*) FILTER (WHERE r.winner IS NOT DISTINCT FROM r.first_player)"
_RESULTS = {"games": _GAMES, "wins": "count(*) FILTER (WHERE p.won)", "draws": _DRAWS}  # a seat's
_CARD_VALUES = {  # agg_card_metrics and its per-battlefield twin
    "deployed_games": "count(*) FILTER (WHERE c.deployed > 0)",
    "deployed_wins": "count(*) FILTER (WHERE c.deployed > 0 AND p.won)",
    "deploys": "sum(c.deployed)",
    "first_deployed_round_sum": "coalesce(sum(c.first_deployed_round), 0)",
    "destroyed": "sum(c.destroyed)",
    "might_gained_sum": "sum(c.might_gained)",
    "might_at_end_sum": "sum(c.might_at_end)",
}

BFE = GAME_INFO.key  # Battle for Empyrean's aggregates count its games only
GAME_COLUMN_REVISION = "0018"  # the migration that gave game_records its game

# In the order the fold applies them (and the tests and benchmarks list them): Battle for
# Empyrean's, then every game's, then Titans of Empyrean's, Elysian Battlefields' and Spells & Steam's.
AGGREGATES = [
    Aggregate("agg_deck_results", {"deck": "p.deck"}, {
        **_RESULTS,
        "first_player_games": "count(*) FILTER (WHERE p.is_first_player)",
        "first_player_wins": "count(*) FILTER (WHERE p.is_first_player AND p.won)",
    }, joins=_PLAYERS),
    # every ordered pair of different seats at the table
    Aggregate("agg_matchups", {"deck": "p.deck", "opponent_deck": "o.deck"}, _RESULTS,
              joins=_PLAYERS + _OPPONENTS),
    Aggregate("agg_battlefield_decks", {"battlefield": "b.battlefield", "deck": "p.deck"}, {
        **_RESULTS,
        "battlefield_wins": "count(*) FILTER (WHERE b.won)",
        "might_sum": "sum(b.might)",
    }, joins=_PLAYERS + _PLAYER_BATTLEFIELDS),
    Aggregate("agg_first_player", {}, {"games": _GAMES, "first_player_wins": _FIRST_PLAYER_WON, "draws": _DRAWS}),
    Aggregate("agg_card_metrics", {"deck": "p.deck", "card": "c.card"}, _CARD_VALUES,
              joins=_PLAYERS + _PLAYER_CARDS),
    # Per battlefield in play: did the first player (alone) have the most might there, and the game?
    Aggregate("agg_battlefield_first_player", {"battlefield": "b.battlefield"}, {
        "games": _GAMES,
        "first_player_battlefield_wins": "count(*) FILTER (WHERE b.won)",
        "first_player_game_wins": _FIRST_PLAYER_WON,
        "draws": _DRAWS,
    }, joins="\n        JOIN game_player_battlefields b ON b.game_id = r.game_id AND b.seat = r.first_player"),
    # Final might margins: once for every game ('*') and once per battlefield in play.
    Aggregate("agg_game_margins", {"battlefield": "bf", "margin": "r.margin"}, {"games": _GAMES},
              joins=", unnest(ARRAY['*'] || r.battlefields) AS bf", scored_only=True),
    # Might by round (a game that ended early stops in mid-course).
    Aggregate("agg_deck_rounds", {"deck": "p.deck", "round": "g.round"}, {
        "games": _GAMES,
        "might_sum": "sum(g.total)",
        "won_games": "count(*) FILTER (WHERE p.won)",
        "won_might_sum": "coalesce(sum(g.total) FILTER (WHERE p.won), 0)",
        "essence_spent_sum": "sum(g.essence_spent)",
    }, joins=_PLAYERS + """
        JOIN (SELECT game_id, seat, round, essence_spent, (SELECT sum(m) FROM unnest(might) AS m) AS total
              FROM game_player_rounds WHERE game_id = ANY(%(games)s)) g ON g.game_id = p.game_id AND g.seat = p.seat""",
              scored_only=True),
    Aggregate("agg_battlefield_matchups", {"battlefield": "bf", "deck": "p.deck", "opponent_deck": "o.deck"},
              _RESULTS, joins=_IN_PLAY + _PLAYERS + _OPPONENTS),
    Aggregate("agg_battlefield_cards", {"battlefield": "bf", "deck": "p.deck", "card": "c.card"}, _CARD_VALUES,
              joins=_IN_PLAY + _PLAYERS + _PLAYER_CARDS),
]
AGGREGATES = [replace(aggregate, game=BFE) for aggregate in AGGREGATES] + [
    # every game's: each seat's result by what it played as (migration 0019)
    Aggregate("agg_faction_results", {"game": "r.game", "faction": "s.faction"}, {
        "games": _GAMES, "wins": "count(*) FILTER (WHERE s.won)", "draws": _DRAWS,
    }, joins=_SEATS, weekly=False, since="0019"),
]


# Titans of Empyrean's own (migration 0021; engine.titans.record): a seat's species and result are
# its game_seats row (s), its opponent's o.
TITANS = TITANS_INFO.key
_SEAT_RESULTS = {"games": _GAMES, "wins": "count(*) FILTER (WHERE s.won)", "draws": _DRAWS}
_TITANS_AGGREGATES = [
    # every ordered pair of the two seats
    Aggregate("agg_titans_matchups", {"species": "s.faction", "opponent_species": "o.faction"}, _SEAT_RESULTS,
              joins=_SEATS + "\n        JOIN game_seats o ON o.game_id = s.game_id AND o.seat <> s.seat"),
    Aggregate("agg_titans_titans", {"species": "t.species", "titan": "t.titan"}, {
        "picks": _GAMES, "wins": "count(*) FILTER (WHERE s.won)",
        "survived": "count(*) FILTER (WHERE t.survived)",
        "damage_dealt_sum": "sum(t.damage_dealt)", "damage_taken_sum": "sum(t.damage_taken)",
    }, joins=_SEATS + "\n        JOIN titans_squad_titans t ON t.game_id = s.game_id AND t.seat = s.seat"),
    # per seat-game in which the maneuver was played at least once
    Aggregate("agg_titans_maneuvers", {"species": "s.faction", "maneuver": "m.maneuver"}, {
        "played_games": _GAMES, "played_wins": "count(*) FILTER (WHERE s.won)", "plays": "sum(m.plays)",
    }, joins=_SEATS + "\n        JOIN titans_maneuvers_played m ON m.game_id = s.game_id AND m.seat = s.seat"),
    Aggregate("agg_titans_endings", {"end_reason": "r.end_reason", "rounds": "g.rounds"},
              {"games": _GAMES, "draws": _DRAWS},
              joins="\n        JOIN titans_games g ON g.game_id = r.game_id"),
    Aggregate("agg_titans_initiative", {}, {
        "games": _GAMES,
        "top_alone_games": "count(*) FILTER (WHERE g.top_initiative_seat IS NOT NULL)",
        "top_alone_wins": "count(*) FILTER (WHERE r.winner = g.top_initiative_seat)",
        "first_to_act_wins": "count(*) FILTER (WHERE r.winner = g.first_to_act)",
        "draws": _DRAWS,
    }, joins="\n        JOIN titans_games g ON g.game_id = r.game_id"),
    # ally null: a squad of one species
    Aggregate("agg_titans_squads", {"species": "s.faction", "ally": "q.ally"}, _SEAT_RESULTS,
              joins=_SEATS + "\n        JOIN titans_seats q ON q.game_id = s.game_id AND q.seat = s.seat"),
]
AGGREGATES += [replace(aggregate, game=TITANS, weekly=False, since="0021") for aggregate in _TITANS_AGGREGATES]

# Elysian Battlefields' own (migration 0022; engine.elysian.record): a seat's hero, rank, conquest
# points (score) and result are its game_seats row (s), the rest its elysian_seats row (e).
ELYSIAN = ELYSIAN_INFO.key
FACES = tuple(f"face_{face}" for face in range(1, 7))  # elysian_seats' count of each face of its attack dice
_ELYSIAN_SEATS = _SEATS + "\n        JOIN elysian_seats e ON e.game_id = s.game_id AND e.seat = s.seat"
_ELYSIAN_AGGREGATES = [
    Aggregate("agg_elysian_heroes", {"hero": "s.faction"}, {
        "games": _GAMES, "wins": "count(*) FILTER (WHERE s.won)", "rank_sum": "sum(s.rank)",
        "conquest_sum": "coalesce(sum(s.score), 0)", "eliminated": "count(*) FILTER (WHERE e.out_order IS NOT NULL)",
    }, joins=_ELYSIAN_SEATS),
    # winner_hero null: no single winner (time, the round limit, a concession leaving several)
    Aggregate("agg_elysian_endings", {"end_reason": "r.end_reason", "rounds": "g.rounds", "winner_hero": "w.faction"},
              {"games": _GAMES}, joins="\n        JOIN elysian_games g ON g.game_id = r.game_id"
              "\n        LEFT JOIN game_seats w ON w.game_id = r.game_id AND w.seat = r.winner"),
    # position null: the game ended before the first turn; out_order null: the seat was not out
    Aggregate("agg_elysian_positions", {"position": "e.position", "out_order": "e.out_order"}, {
        "games": _GAMES, "wins": "count(*) FILTER (WHERE s.won)", "rank_sum": "sum(s.rank)",
    }, joins=_ELYSIAN_SEATS),
    # per seat-game in which the card was played at least once
    Aggregate("agg_elysian_cards", {"card": "c.card"}, {
        "played_games": _GAMES, "played_wins": "count(*) FILTER (WHERE s.won)", "plays": "sum(c.plays)",
    }, joins=_SEATS + "\n        JOIN elysian_cards_played c ON c.game_id = s.game_id AND c.seat = s.seat"),
    # the dice audit: each player's (meta.players; null: not named) attack dice
    Aggregate("agg_elysian_dice", {"player_name": "s.player_name"}, {
        "games": _GAMES, "dice": "sum(" + " + ".join(f"e.{f}" for f in FACES) + ")",
        **{f: f"sum(e.{f})" for f in (*FACES, "sets", "repelled", "ravaged")},
    }, joins=_ELYSIAN_SEATS),
]
AGGREGATES += [replace(aggregate, game=ELYSIAN, weekly=False, since="0022") for aggregate in _ELYSIAN_AGGREGATES]

# Empyreal: Spells & Steam's own (migration 0023; engine.steam.record): a seat's company, rank (in a team
# game its team's), victory points (score), result and team are its game_seats row (s), its captain, its
# turn-order position and its score's parts its steam_seats row (e).
STEAM = STEAM_INFO.key
SCORE_PARTS = ("score", "goods", "demand", "awards")  # a seat's victory points, then their three parts
_STEAM_SEATS = _SEATS + "\n        JOIN steam_seats e ON e.game_id = s.game_id AND e.seat = s.seat"
_STEAM_PART = {"score": "coalesce(s.score, 0)", "goods": "e.goods", "demand": "e.demand", "awards": "e.awards"}
_SEAT_WON = "count(*) FILTER (WHERE s.won)"
_STEAM_AGGREGATES = [
    Aggregate("agg_steam_results", {"company": "s.faction", "captain": "e.captain", "rank": "s.rank"}, {
        "games": _GAMES, "wins": _SEAT_WON,
        **{f"{part}_sum": f"sum({_STEAM_PART[part]})" for part in SCORE_PARTS},
        **{f"{part}_squares": f"sum({_STEAM_PART[part]}::bigint * {_STEAM_PART[part]})" for part in SCORE_PARTS},
    }, joins=_STEAM_SEATS),
    # position null: the game ended before it had a start player
    Aggregate("agg_steam_positions", {"seat": "s.seat", "position": "e.position"}, {
        "games": _GAMES, "wins": _SEAT_WON, "rank_sum": "sum(s.rank)",
    }, joins=_STEAM_SEATS),
    Aggregate("agg_steam_endings", {"end_trigger": "g.end_trigger", "rounds": "g.rounds"}, {"games": _GAMES},
              joins="\n        JOIN steam_games g ON g.game_id = r.game_id"),
    # per seat-game in which the specialist was hired at least once
    Aggregate("agg_steam_specialists", {"specialist": "h.specialist"}, {
        "hired_games": _GAMES, "hired_wins": _SEAT_WON, "hires": "sum(h.hires)",
    }, joins=_SEATS + "\n        JOIN steam_specialists h ON h.game_id = s.game_id AND h.seat = s.seat"),
    # per seat-game in which the spellcar was taken or activated at least once
    Aggregate("agg_steam_spellcars", {"spellcar": "c.spellcar"}, {
        "taken_games": "count(*) FILTER (WHERE c.taken > 0)",
        "taken_wins": "count(*) FILTER (WHERE c.taken > 0 AND s.won)", "taken": "sum(c.taken)",
        "activated_games": "count(*) FILTER (WHERE c.activations > 0)",
        "activated_wins": "count(*) FILTER (WHERE c.activations > 0 AND s.won)", "activations": "sum(c.activations)",
    }, joins=_SEATS + "\n        JOIN steam_spellcars c ON c.game_id = s.game_id AND c.seat = s.seat"),
    # per seat-game with the award in play, by the seat's company
    Aggregate("agg_steam_awards", {"award": "a.award", "company": "s.faction"}, {
        "games": _GAMES, "wins": _SEAT_WON, "scored": "count(*) FILTER (WHERE a.place IS NOT NULL)",
        "firsts": "count(*) FILTER (WHERE a.place = 1)", "points": "sum(a.points)",
    }, joins=_SEATS + "\n        JOIN steam_awards a ON a.game_id = s.game_id AND a.seat = s.seat"),
    # per team of a team game
    Aggregate("agg_steam_teams", {"team_shape": "g.team_shape", "size": "t.size", "started": "t.started",
                                  "rank": "t.rank"}, {
        "teams": _GAMES, "wins": "count(*) FILTER (WHERE t.won)", "score_sum": "sum(t.score)",
        "bonus_sum": "sum(t.colour_bonus)",
    }, joins="\n        JOIN steam_games g ON g.game_id = r.game_id"
             "\n        JOIN steam_teams t ON t.game_id = r.game_id"),
]
AGGREGATES += [replace(aggregate, game=STEAM, weekly=False, since="0023") for aggregate in _STEAM_AGGREGATES]

BY_TABLE = {aggregate.table: aggregate for aggregate in AGGREGATES}
