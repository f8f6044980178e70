"""The statistics: SQL over the aggregate tables (agg_*) only, and the rows each statistic returns.

Each agg_* row holds counts and sums for one day × event × table size × key (migrations 0001,
0002); a statistic sums the rows inside the filters (``Filters.where``) with GROUP BY and computes
rates, Wilson intervals, shares and means from the sums (``services.stats.intervals``). Raw game
tables are never read: at a million games the aggregates are what keeps every query fast.

Every function takes an open psycopg connection and the Filters and returns JSON-ready rows; the
API (services.api.stats) and the dashboards share them. ``read_snapshot`` makes the several
queries of one statistic see one consistent snapshot.

Counting conventions (docs/services.md, "Statistics API"):
- a deck's ``games`` are seat-games: a mirror match counts twice for that deck, once per seat;
- a win rate is wins / games; a draw is a game not won (draws are reported beside it);
- meta share = the deck's seat-games / all decks' seat-games in the filter.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass

from .aggregates import BY_TABLE, WEEK_START
from .filters import Filters
from .intervals import difference, mean, rate, rates, share, sort_key_lower_bound

# ---------------------------------------------------------------------------------------------
# SQL. ``{where}`` is replaced by Filters.where() (fixed text over key columns, values bound as
# parameters); nothing from a request is ever formatted into the text.

DECKS_SQL = """
SELECT deck, sum(games)::bigint, sum(wins)::bigint, sum(draws)::bigint
FROM agg_deck_results
WHERE {where}
GROUP BY deck
"""

# Every game's (migration 0019): a seat's results by what it played as; no weekly roll-up.
FACTIONS_SQL = """
SELECT faction, sum(games)::bigint, sum(wins)::bigint, sum(draws)::bigint
FROM agg_faction_results
WHERE game = %(game)s AND {where}
GROUP BY faction
"""

SEAT_GAMES_SQL = """
SELECT coalesce(sum(games), 0)::bigint
FROM agg_deck_results
WHERE {where}
"""

MATCHUPS_SQL = """
SELECT deck, opponent_deck, sum(games)::bigint, sum(wins)::bigint, sum(draws)::bigint
FROM agg_matchups
WHERE {where}
GROUP BY deck, opponent_deck
ORDER BY deck, opponent_deck
"""

BATTLEFIELD_DECKS_SQL = """
SELECT battlefield, deck, sum(games)::bigint, sum(wins)::bigint, sum(draws)::bigint,
       sum(battlefield_wins)::bigint, sum(might_sum)::bigint
FROM agg_battlefield_decks
WHERE {where}
GROUP BY battlefield, deck
ORDER BY battlefield, deck
"""

BATTLEFIELD_FIRST_PLAYER_SQL = """
SELECT battlefield, sum(games)::bigint, sum(first_player_battlefield_wins)::bigint,
       sum(first_player_game_wins)::bigint, sum(draws)::bigint
FROM agg_battlefield_first_player
WHERE {where}
GROUP BY battlefield
ORDER BY battlefield
"""

FIRST_PLAYER_WEEKS_SQL = f"""
SELECT {WEEK_START} AS week_start, sum(games)::bigint, sum(first_player_wins)::bigint, sum(draws)::bigint
FROM agg_first_player
WHERE {{where}}
GROUP BY week_start
ORDER BY week_start
"""

CARDS_SQL = """
WITH cards AS (
    SELECT deck, card, sum(deployed_games)::bigint AS deployed_games,
           sum(deployed_wins)::bigint AS deployed_wins, sum(deploys)::bigint AS deploys,
           sum(first_deployed_round_sum)::bigint AS first_round_sum, sum(destroyed)::bigint AS destroyed,
           sum(might_gained_sum)::bigint AS might_gained_sum, sum(might_at_end_sum)::bigint AS might_at_end_sum
    FROM agg_card_metrics
    WHERE {where}
    GROUP BY deck, card
), decks AS (
    SELECT deck, sum(games)::bigint AS games, sum(wins)::bigint AS wins
    FROM agg_deck_results
    WHERE {where}
    GROUP BY deck
)
SELECT cards.deck, cards.card, coalesce(decks.games, 0), coalesce(decks.wins, 0),
       cards.deployed_games, cards.deployed_wins, cards.deploys, cards.first_round_sum,
       cards.destroyed, cards.might_gained_sum, cards.might_at_end_sum
FROM cards LEFT JOIN decks ON decks.deck = cards.deck
ORDER BY cards.deck, cards.card
"""

TRENDS_SQL = f"""
SELECT {WEEK_START} AS week_start, deck, sum(games)::bigint, sum(wins)::bigint, sum(draws)::bigint
FROM agg_deck_results
WHERE {{where}}
GROUP BY week_start, deck
ORDER BY week_start, deck
"""

WEEK_SEAT_GAMES_SQL = f"""
SELECT {WEEK_START} AS week_start, sum(games)::bigint
FROM agg_deck_results
WHERE {{where}}
GROUP BY week_start
"""

# The battlefield filter ("games with this battlefield in play") reads the per-battlefield twins of
# the tables above: same columns, one more key (migrations 0001-0003).


def _twin(sql: str, table: str, twin: str) -> str:
    assert f"FROM {table}" in sql
    return sql.replace(f"FROM {table}", f"FROM {twin}")


BF_DECKS_SQL = _twin(DECKS_SQL, "agg_deck_results", "agg_battlefield_decks")

BF_SEAT_GAMES_SQL = _twin(SEAT_GAMES_SQL, "agg_deck_results", "agg_battlefield_decks")

BF_MATCHUPS_SQL = _twin(MATCHUPS_SQL, "agg_matchups", "agg_battlefield_matchups")

BF_FIRST_PLAYER_WEEKS_SQL = f"""
SELECT {WEEK_START} AS week_start, sum(games)::bigint, sum(first_player_game_wins)::bigint, sum(draws)::bigint
FROM agg_battlefield_first_player
WHERE {{where}}
GROUP BY week_start
ORDER BY week_start
"""

BF_CARDS_SQL = _twin(_twin(CARDS_SQL, "agg_card_metrics", "agg_battlefield_cards"),
                     "agg_deck_results", "agg_battlefield_decks")

BF_TRENDS_SQL = _twin(TRENDS_SQL, "agg_deck_results", "agg_battlefield_decks")
BF_WEEK_SEAT_GAMES_SQL = _twin(WEEK_SEAT_GAMES_SQL, "agg_deck_results", "agg_battlefield_decks")

# battlefield '*' is every game (migration 0003); the filter's battlefield, else '*', is bound
MARGINS_SQL = """
SELECT margin, sum(games)::bigint
FROM agg_game_margins
WHERE {where} AND battlefield = %(margin_battlefield)s
GROUP BY margin
ORDER BY margin
"""

ROUNDS_SQL = """
SELECT deck, round, sum(games)::bigint, sum(might_sum)::bigint, sum(won_games)::bigint,
       sum(won_might_sum)::bigint, sum(essence_spent_sum)::bigint
FROM agg_deck_rounds
WHERE {where}
GROUP BY deck, round
ORDER BY deck, round
"""

ALL_SQL = {
    name: text for name, text in globals().items() if name.endswith("_SQL") and isinstance(text, str)
}


def read_snapshot(conn) -> None:
    """Start the connection's transaction read-only, on one snapshot for all of a statistic's
    queries (a worker committing between two of them cannot make the numbers disagree)."""
    conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")


def fetch_filtered(conn, template: str, filters: Filters, *, decks: bool = True, battlefield: bool = False,
                   **extra) -> list[tuple]:
    """Run a statistic's SQL ``template`` with the filters' WHERE in its ``{where}``, reading the
    weekly roll-ups where they give the same sums."""
    where, params = filters.where(decks=decks, battlefield=battlefield)
    text = template.format(where=where)
    split = weekly_split(filters)
    if split is not None:
        text, params = _with_rollups(text, params, split)
    return conn.execute(text, params | extra).fetchall()


# ---------------------------------------------------------------------------------------------
# Weekly roll-ups (migration 0004). Every agg_X declared ``weekly`` (services.stats.aggregates) has
# agg_X_weekly: the same rows summed per ISO week over events (week_start = the Monday), kept in the
# same transaction by triggers on agg_X. Without an event filter, each ``FROM agg_X`` above (of such
# a table; any other is read as it is) reads the full ISO weeks inside the date range from
# agg_X_weekly (its week_start standing for played_on: the week's Monday, in the same week, inside
# the range) and the days of the partial weeks at either end from agg_X; the outer WHERE is then
# true of every row the branches give, so the sums, and the answers, are exactly those of agg_X.

_FROM_AGG = re.compile(r"\bFROM (agg_\w+)")


@dataclass(frozen=True)
class WeeklySplit:
    """Where a filter's date range is read from: full ISO weeks [first_week, last_week] (Mondays;
    None: unbounded) from the roll-ups; ``head`` days before first_week and ``tail`` days after
    last_week's Sunday from the daily rows."""
    first_week: dt.date | None
    last_week: dt.date | None
    head: bool
    tail: bool


def weekly_split(filters: Filters) -> WeeklySplit | None:
    """None when the daily rows alone are read: an event filter (the roll-ups have no event key;
    an event's rows are few), or a date range holding no full ISO week."""
    if filters.events is not None:
        return None
    first = last = None
    if filters.date_from is not None:
        first = filters.date_from + dt.timedelta(days=(7 - filters.date_from.weekday()) % 7)
    if filters.date_to is not None:
        sunday = filters.date_to - dt.timedelta(days=(filters.date_to.weekday() + 1) % 7)
        last = sunday - dt.timedelta(days=6)
    if first is not None and last is not None and first > last:
        return None
    return WeeklySplit(first, last, head=first is not None and filters.date_from < first,
                       tail=last is not None and filters.date_to > last + dt.timedelta(days=6))


def _rollup_source(table: str, split: WeeklySplit) -> str:
    aggregate = BY_TABLE[table]
    if not aggregate.weekly:
        return table
    columns = ", ".join(aggregate.columns)  # besides played_on, event_id, players
    weekly = [f"SELECT week_start AS played_on, players, {columns} FROM {aggregate.weekly_table} WHERE true"]
    if split.first_week is not None:
        weekly.append("week_start >= %(rollup_first_week)s")
    if split.last_week is not None:
        weekly.append("week_start <= %(rollup_last_week)s")
    branches = [" AND ".join(weekly)]
    daily = f"SELECT played_on, players, {columns} FROM {table} WHERE "
    if split.head:
        branches.append(daily + "played_on >= %(date_from)s AND played_on < %(rollup_first_week)s")
    if split.tail:
        branches.append(daily + "played_on > %(rollup_after)s AND played_on <= %(date_to)s")
    return "(" + " UNION ALL ".join(branches) + f") AS {table}"


def _with_rollups(text: str, params: dict, split: WeeklySplit) -> tuple[str, dict]:
    text = _FROM_AGG.sub(lambda m: "FROM " + _rollup_source(m.group(1), split), text)
    extra = {"rollup_first_week": split.first_week, "rollup_last_week": split.last_week}
    if split.last_week is not None:
        extra["rollup_after"] = split.last_week + dt.timedelta(days=6)
    return text, params | extra


def _by_battlefield(conn, filters: Filters, plain: str, per_battlefield: str, **kwargs) -> list[tuple]:
    """Rows of ``plain``, or of its per-battlefield twin when the battlefield filter is set."""
    if filters.battlefield is None:
        return fetch_filtered(conn, plain, filters, **kwargs)
    return fetch_filtered(conn, per_battlefield, filters, battlefield=True, **kwargs)


def iso_week(week_start: dt.date) -> str:
    year, week, _ = week_start.isocalendar()
    return f"{year}-W{week:02d}"


def below_min_games(n: int, filters: Filters) -> bool:
    """Whether ``n`` games are too few to draw a figure in colour (the filters' ``min_games``)."""
    return n < filters.min_games


# ---------------------------------------------------------------------------------------------


def deck_stats(conn, filters: Filters) -> list[dict]:
    """Per deck: games, wins, draws, win rate (n, Wilson interval), meta share; highest lower
    bound first (a deck with few games cannot top the list on luck)."""
    rows = _by_battlefield(conn, filters, DECKS_SQL, BF_DECKS_SQL)
    total = _seat_games(conn, filters, rows)
    win_rates = rates([(wins, games) for _, games, wins, _ in rows])
    out = [
        {"deck": deck, "games": games, "wins": wins, "draws": draws, "win_rate": wr,
         "meta_share": share(games, total), "thin": below_min_games(games, filters)}
        for (deck, games, wins, draws), wr in zip(rows, win_rates)
    ]
    out.sort(key=lambda r: (*sort_key_lower_bound(r["win_rate"]), r["deck"]))
    return out


def faction_stats(conn, filters: Filters, game: str) -> list[dict]:
    """Any game's: per faction (what a seat played as: BfE's deck, a species, a hero, a company),
    seat-games, wins, games without one winner, win rate (n, Wilson interval) and share of the
    seat-games; highest lower bound first. The deck filter does not apply (factions are not decks)."""
    where, params = filters.where(decks=False)
    rows = conn.execute(FACTIONS_SQL.format(where=where), params | {"game": game}).fetchall()
    total = sum(r[1] for r in rows)
    out = [{"faction": faction, "games": games, "wins": wins, "draws": draws, "win_rate": wr,
            "share": share(games, total), "thin": below_min_games(games, filters)}
           for (faction, games, wins, draws), wr in zip(rows, rates([(w, g) for _, g, w, _ in rows]))]
    out.sort(key=lambda r: (*sort_key_lower_bound(r["win_rate"]), r["faction"]))
    return out


def _seat_games(conn, filters: Filters, rows) -> int:
    if filters.decks is None:  # the rows are every deck: their sum is the total
        return sum(r[1] for r in rows)
    return _by_battlefield(conn, filters, SEAT_GAMES_SQL, BF_SEAT_GAMES_SQL, decks=False)[0][0]


def matchup_stats(conn, filters: Filters) -> list[dict]:
    """Deck × opponent deck: games, wins, draws and the deck's win rate against that opponent.
    The deck filter selects the first deck; a mirror match is marked ``mirror``."""
    rows = _by_battlefield(conn, filters, MATCHUPS_SQL, BF_MATCHUPS_SQL)
    win_rates = rates([(wins, games) for _, _, games, wins, _ in rows])
    return [
        {"deck": deck, "opponent_deck": opponent, "mirror": deck == opponent, "games": games,
         "wins": wins, "draws": draws, "win_rate": wr, "thin": below_min_games(games, filters)}
        for (deck, opponent, games, wins, draws), wr in zip(rows, win_rates)
    ]


def battlefield_stats(conn, filters: Filters) -> tuple[list[dict], list[dict]]:
    """(battlefield × deck rows, per-battlefield first-player rows).

    Battlefield × deck: the deck's games with that battlefield in play, its win rate there, how
    far that is from the deck's overall win rate in the same filter (``difference``), how often the
    deck won that battlefield, and its average might on it at the end.
    Per battlefield: how often the first player won that battlefield, and the game, when it was in
    play."""
    rows = fetch_filtered(conn, BATTLEFIELD_DECKS_SQL, filters, battlefield=True)
    overall = {deck: (games, wins) for deck, games, wins, _ in fetch_filtered(conn, DECKS_SQL, filters)}
    deck_rates = dict(zip(overall, rates([(w, g) for g, w in overall.values()])))
    here = rates([(r[3], r[2]) for r in rows])
    bf_wins = rates([(r[5], r[2]) for r in rows])
    no_games = rate(0, 0)
    out = []
    for (battlefield, deck, games, wins, draws, battlefield_wins, might_sum), wr, bw in zip(rows, here, bf_wins):
        deck_rate = deck_rates.get(deck, no_games)
        out.append({
            "battlefield": battlefield, "deck": deck, "games": games, "wins": wins, "draws": draws,
            "win_rate": wr, "deck_win_rate": deck_rate,
            "difference": difference(wr["rate"], deck_rate["rate"]),
            "battlefield_win_rate": bw, "average_might": mean(might_sum, games),
            "thin": below_min_games(games, filters),
        })
    fp_rows = fetch_filtered(conn, BATTLEFIELD_FIRST_PLAYER_SQL, filters, decks=False, battlefield=True)
    fp_bf = rates([(r[2], r[1]) for r in fp_rows])
    fp_game = rates([(r[3], r[1]) for r in fp_rows])
    first_player = [
        {"battlefield": battlefield, "games": games, "draws": draws,
         "first_player_battlefield_win_rate": bw, "first_player_game_win_rate": gw,
         "thin": below_min_games(games, filters)}
        for (battlefield, games, _, _, draws), bw, gw in zip(fp_rows, fp_bf, fp_game)
    ]
    return out, first_player


def first_player_stats(conn, filters: Filters) -> tuple[dict, list[dict]]:
    """(overall, per ISO week): how often the first player won the game. ``baseline`` is what a
    seat order without advantage would give (1 / players). The deck filter does not apply."""
    weeks = _by_battlefield(conn, filters, FIRST_PLAYER_WEEKS_SQL, BF_FIRST_PLAYER_WEEKS_SQL, decks=False)
    games = sum(w[1] for w in weeks)
    wins = sum(w[2] for w in weeks)
    draws = sum(w[3] for w in weeks)
    baseline = 1 / filters.players
    overall = {"games": games, "first_player_wins": wins, "draws": draws, "win_rate": rate(wins, games),
               "baseline": baseline, "thin": below_min_games(games, filters)}
    week_rates = rates([(w[2], w[1]) for w in weeks])
    rows = [
        {"week": iso_week(start), "week_start": start.isoformat(), "games": g, "first_player_wins": k,
         "draws": d, "win_rate": wr, "baseline": baseline, "thin": below_min_games(g, filters)}
        for (start, g, k, d), wr in zip(weeks, week_rates)
    ]
    return overall, rows


def card_stats(conn, filters: Filters) -> list[dict]:
    """Per deck and card: games where the card was deployed, the deck's win rate in those games
    and in its other games (each with n and interval), how often it is deployed, average might it
    contributed (its might on the board at the end) and gained, average round first deployed."""
    rows = _by_battlefield(conn, filters, CARDS_SQL, BF_CARDS_SQL)
    deployed = rates([(r[5], r[4]) for r in rows])
    not_deployed = rates([(r[3] - r[5], r[2] - r[4]) for r in rows])
    out = []
    for r, dep, nd in zip(rows, deployed, not_deployed):
        (deck, card, deck_games, _, deployed_games, _, deploys, first_round_sum, destroyed,
         might_gained_sum, might_at_end_sum) = r
        out.append({
            "deck": deck, "card": card, "deck_games": deck_games, "games_deployed": deployed_games,
            "deploy_rate": share(deployed_games, deck_games),
            "win_rate_deployed": dep, "win_rate_not_deployed": nd,
            "difference": difference(dep["rate"], nd["rate"]),
            "deploys": deploys, "destroyed": destroyed,
            "average_might_contributed": mean(might_at_end_sum, deployed_games),
            "average_might_gained": mean(might_gained_sum, deployed_games),
            "average_first_deploy_round": mean(first_round_sum, deployed_games),
            "thin": below_min_games(deployed_games, filters),
        })
    return out


def trend_stats(conn, filters: Filters) -> list[dict]:
    """Per ISO week and deck: meta share (of that week's seat-games) and win rate with n."""
    rows = _by_battlefield(conn, filters, TRENDS_SQL, BF_TRENDS_SQL)
    if filters.decks is None:
        totals: dict = defaultdict(int)
        for start, _, games, _, _ in rows:
            totals[start] += games
    else:
        totals = dict(_by_battlefield(conn, filters, WEEK_SEAT_GAMES_SQL, BF_WEEK_SEAT_GAMES_SQL, decks=False))
    win_rates = rates([(wins, games) for _, _, games, wins, _ in rows])
    return [
        {"week": iso_week(start), "week_start": start.isoformat(), "deck": deck, "games": games,
         "wins": wins, "draws": draws, "meta_share": share(games, totals.get(start, 0)),
         "win_rate": wr, "thin": below_min_games(games, filters)}
        for (start, deck, games, wins, draws), wr in zip(rows, win_rates)
    ]


def margin_stats(conn, filters: Filters) -> tuple[dict, list[dict]]:
    """(summary, per margin): how many games ended with each final might margin (the winner's total
    might minus the best other total; 0 is a draw). Only games played to the tally (agg_game_margins
    leaves out games conceded or stopped by time). The deck filter does not apply."""
    rows = fetch_filtered(conn, MARGINS_SQL, filters, decks=False,
                  margin_battlefield=filters.battlefield if filters.battlefield is not None else "*")
    games = sum(n for _, n in rows)
    summary = {"games": games, "draws": sum(n for m, n in rows if m == 0),
               "mean_margin": mean(sum(m * n for m, n in rows), games),
               "median_margin": _median(rows, games), "thin": below_min_games(games, filters)}
    return summary, [{"margin": m, "games": n, "share": share(n, games)} for m, n in rows]


def _median(counts: list[tuple[int, int]], total: int) -> float | None:
    """The median of a value × count list sorted by value (mean of the two middle values)."""
    if total == 0:
        return None
    middle = [(total - 1) // 2, total // 2]
    found: list[int] = []
    seen = 0
    for value, n in counts:
        while middle and middle[0] < seen + n:
            found.append(value)
            middle.pop(0)
        seen += n
    return sum(found) / 2


def round_stats(conn, filters: Filters) -> list[dict]:
    """Per deck and round: its average might over all battlefields at the end of the round, in all
    its games and split by games it won and lost, and its average essence spent in the round. Only
    games played to the tally (agg_deck_rounds leaves out games that ended early). The battlefield
    filter does not apply (agg_deck_rounds has no battlefield key)."""
    out = []
    for deck, rnd, games, might_sum, won, won_might, essence in fetch_filtered(conn, ROUNDS_SQL, filters):
        out.append({
            "deck": deck, "round": rnd, "games": games, "average_might": mean(might_sum, games),
            "won_games": won, "average_might_won": mean(won_might, won),
            "average_might_lost": mean(might_sum - won_might, games - won),
            "average_essence_spent": mean(essence, games), "thin": below_min_games(games, filters),
        })
    return out
