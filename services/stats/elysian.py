"""Elysian Battlefields' statistics (issue 29): reads of its aggregate tables (migration 0022,
declared in services.stats.aggregates), each row with its n and Wilson intervals
(services.stats.intervals), always at one table size (the ``players`` filter: 2 to 5). Like
services.stats.titans, every function takes an open connection and the Filters and returns JSON-ready
rows for the API (services.api.stats). What each number means: docs/services.md, "Elysian
Battlefields statistics".

A hero's or a position's ``games`` are seat-games; ``even`` is 1/players, the share of wins (or of
first eliminations) each seat would have if none had an edge. The deck and battlefield filters do not
apply: the API refuses them (``refuse_filters_not_taken``)."""

from __future__ import annotations

from engine.elysian.rules import GAME_INFO

from .aggregates import FACES
from .dice_audit import FLAG_BELOW, HOLM, MIN_DICE, audit
from .filters import Filters, refuse_deck_filters
from .intervals import mean, rates, sort_key_lower_bound
from .queries import below_min_games, fetch_filtered

KEY = GAME_INFO.key


def refuse_filters_not_taken(args) -> None:
    """A FilterError naming the first parameter of ``args`` that Elysian's statistics do not take."""
    refuse_deck_filters(args, KEY)


HEROES_SQL = """
SELECT hero, sum(games)::bigint, sum(wins)::bigint, sum(rank_sum)::bigint, sum(conquest_sum)::bigint,
       sum(eliminated)::bigint
FROM agg_elysian_heroes WHERE {where}
GROUP BY hero
"""
ENDINGS_SQL = """
SELECT end_reason, rounds, winner_hero, sum(games)::bigint
FROM agg_elysian_endings WHERE {where}
GROUP BY end_reason, rounds, winner_hero ORDER BY end_reason, rounds, winner_hero NULLS FIRST
"""
POSITIONS_SQL = """
SELECT position, out_order, sum(games)::bigint, sum(wins)::bigint, sum(rank_sum)::bigint
FROM agg_elysian_positions WHERE {where}
GROUP BY position, out_order ORDER BY position NULLS LAST, out_order NULLS LAST
"""
CARDS_SQL = """
SELECT card, sum(played_games)::bigint, sum(played_wins)::bigint, sum(plays)::bigint
FROM agg_elysian_cards WHERE {where}
GROUP BY card
"""
_DICE_SUMS = ", ".join(f"sum({c})::bigint" for c in ("games", *FACES, "sets", "repelled", "ravaged"))
DICE_BY_PLAYER_SQL = f"""
SELECT player_name, {_DICE_SUMS}
FROM agg_elysian_dice WHERE {{where}}
GROUP BY player_name ORDER BY player_name NULLS LAST
"""
# An unlisted event is named only when the filter asks for it (and its reader may read it:
# services.stats.names.hide_unreadable); otherwise its dice are audited in no event's row.
DICE_BY_EVENT_SQL = f"""
SELECT e.id, e.name, d.*
FROM (SELECT CASE WHEN ev.visibility = 'unlisted' AND NOT (a.event_id = ANY(%(named)s)) THEN NULL
                  ELSE a.event_id END AS shown_event, {_DICE_SUMS.replace("sum(", "sum(a.")}
      FROM agg_elysian_dice a LEFT JOIN events ev ON ev.id = a.event_id
      WHERE {{where}}
      GROUP BY shown_event) d
LEFT JOIN events e ON e.id = d.shown_event
ORDER BY e.id NULLS LAST
"""


def _rows(conn, sql: str, filters: Filters, **extra) -> list[tuple]:
    return fetch_filtered(conn, sql, filters, decks=False, **extra)


def _games(conn, filters: Filters) -> int:
    return sum(r[3] for r in _rows(conn, ENDINGS_SQL, filters))


def hero_stats(conn, filters: Filters) -> tuple[dict, list[dict]]:
    """(summary, per hero): games at this table size; per hero its picks (seat-games; the pick rate's
    n is every game, a hero being chosen once a game at most), wins and win rate (n: its seat-games;
    ``even``: 1/players), mean rank and conquest points, and how often it was eliminated; highest
    lower bound of the win rate first."""
    games = _games(conn, filters)
    rows = _rows(conn, HEROES_SQL, filters)
    intervals = rates([(w, g) for _, g, w, *_ in rows] + [(g, games) for _, g, *_ in rows]
                      + [(out, g) for _, g, _, _, _, out in rows])
    n = len(rows)
    out = [{"hero": hero, "games": g, "wins": w, "win_rate": wr, "pick_rate": pr, "rank_mean": mean(rank, g),
            "conquest_mean": mean(conquest, g), "eliminated": er, "thin": below_min_games(g, filters)}
           for (hero, g, w, rank, conquest, _), wr, pr, er in zip(rows, intervals[:n], intervals[n:2 * n],
                                                                    intervals[2 * n:])]
    out.sort(key=lambda r: (*sort_key_lower_bound(r["win_rate"]), r["hero"]))
    return {"games": games, "even": 1 / filters.players, "thin": below_min_games(games, filters)}, out


def victory_stats(conn, filters: Filters) -> tuple[list[dict], list[dict]]:
    """(overall, per hero): how games ended — each end's games and share of every game (n: the games,
    Wilson interval) — and for each hero, its wins by each end and that end's share of its wins (n:
    the hero's wins)."""
    rows = _rows(conn, ENDINGS_SQL, filters)
    total = sum(r[3] for r in rows)
    ends: dict[str, int] = {}
    won: dict[tuple[str, str], int] = {}
    for end, _, hero, games in rows:
        ends[end] = ends.get(end, 0) + games
        if hero is not None:
            won[(hero, end)] = won.get((hero, end), 0) + games
    wins_of: dict[str, int] = {}
    for (hero, _), games in won.items():
        wins_of[hero] = wins_of.get(hero, 0) + games
    intervals = rates([(g, total) for g in ends.values()] + [(g, wins_of[h]) for (h, _), g in won.items()])
    overall = [{"end_reason": end, "games": g, "share": sh, "thin": below_min_games(g, filters)}
               for (end, g), sh in zip(ends.items(), intervals)]
    overall.sort(key=lambda r: (-r["games"], r["end_reason"]))
    per_hero = [{"hero": h, "end_reason": end, "wins": g, "share_of_wins": sh,
                 "thin": below_min_games(wins_of[h], filters)}
                for ((h, end), g), sh in zip(won.items(), intervals[len(ends):])]
    per_hero.sort(key=lambda r: (r["hero"], -r["wins"], r["end_reason"]))
    return overall, per_hero


def _by_position(conn, filters: Filters) -> dict[int | None, list[tuple]]:
    out: dict[int | None, list[tuple]] = {}
    for position, out_order, games, wins, rank in _rows(conn, POSITIONS_SQL, filters):
        out.setdefault(position, []).append((out_order, games, wins, rank))
    return out


def seat_stats(conn, filters: Filters) -> tuple[dict, list[dict]]:
    """(summary, per turn-order position): does going first give an edge — each position's
    seat-games, wins, win rate (n, Wilson interval; ``even``: 1/players) and mean rank. Position 1 took
    the first turn; a game that ended before any turn has no positions and is not counted here."""
    per = {p: rows for p, rows in _by_position(conn, filters).items() if p is not None}
    sums = {p: [sum(r[i] for r in rows) for i in (1, 2, 3)] for p, rows in per.items()}
    out = [{"position": p, "games": g, "wins": w, "win_rate": wr, "rank_mean": mean(rank, g),
            "thin": below_min_games(g, filters)}
           for (p, (g, w, rank)), wr in zip(sums.items(), rates([(w, g) for g, w, _ in sums.values()]))]
    games = out[0]["games"] if out else 0
    return {"games": games, "even": 1 / filters.players, "thin": below_min_games(games, filters)}, out


def length_stats(conn, filters: Filters) -> tuple[dict, list[dict], list[dict]]:
    """(summary, per end, lengths): rounds to win — the mean rounds of the games with a winner and of
    every game, each end's games and mean rounds, and the games by end and length in rounds."""
    rows = _rows(conn, ENDINGS_SQL, filters)
    by: dict[tuple[str, int], int] = {}
    won_games = won_rounds = 0
    for end, rounds, hero, games in rows:
        by[(end, rounds)] = by.get((end, rounds), 0) + games
        if hero is not None:
            won_games += games
            won_rounds += rounds * games
    ends: dict[str, list[int]] = {}
    for (end, rounds), games in by.items():
        acc = ends.setdefault(end, [0, 0])
        acc[0] += games
        acc[1] += rounds * games
    total = sum(g for g, _ in ends.values())
    per_end = [{"end_reason": end, "games": g, "rounds_mean": mean(rs, g), "thin": below_min_games(g, filters)}
               for end, (g, rs) in sorted(ends.items(), key=lambda kv: (-kv[1][0], kv[0]))]
    lengths = [{"end_reason": end, "rounds": rounds, "games": g} for (end, rounds), g in by.items()]
    summary = {"games": total, "rounds_mean": mean(sum(rs for _, rs in ends.values()), total),
               "won_games": won_games, "rounds_to_win_mean": mean(won_rounds, won_games),
               "thin": below_min_games(total, filters)}
    return summary, per_end, lengths


def elimination_stats(conn, filters: Filters) -> tuple[dict, list[dict], list[dict]]:
    """(summary, per turn-order position, by place out): which position goes out first — of the games
    in which someone was eliminated (n), how often each position was the first out (Wilson interval;
    ``even``: 1/players), and each position's elimination rate over its seat-games; then the seat-games
    by position and place in the order out (``out_order`` null: not out)."""
    per = {p: rows for p, rows in _by_position(conn, filters).items() if p is not None}
    with_out = sum(g for rows in per.values() for out_order, g, _, _ in rows if out_order == 1)
    stats = {p: (sum(r[1] for r in rows), sum(r[1] for r in rows if r[0] == 1),
                 sum(r[1] for r in rows if r[0] is not None)) for p, rows in per.items()}
    intervals = rates([(first, with_out) for _, first, _ in stats.values()]
                      + [(out, g) for g, _, out in stats.values()])
    n = len(stats)
    out = [{"position": p, "games": g, "out_first": first_rate, "eliminated": out_rate,
            "thin": below_min_games(g, filters)}
           for (p, (g, _, _)), first_rate, out_rate in zip(stats.items(), intervals[:n], intervals[n:])]
    places = [{"position": p, "out_order": out_order, "games": g}
              for p, rows in per.items() for out_order, g, _, _ in rows]
    return {"games_with_elimination": with_out, "even": 1 / filters.players,
            "thin": below_min_games(with_out, filters)}, out, places


def card_stats(conn, filters: Filters) -> tuple[int, list[dict]]:
    """(all seat-games, per card): the seat-games it was played in (at least once), the win rate when
    played (n: those seat-games), how often it was played in (n: every seat-game), its plays and mean
    plays in a game it was played in; highest lower bound of the win rate first."""
    seat_games = sum(r[1] for r in _rows(conn, HEROES_SQL, filters))
    rows = _rows(conn, CARDS_SQL, filters)
    intervals = rates([(w, g) for _, g, w, _ in rows] + [(g, seat_games) for _, g, _, _ in rows])
    out = [{"card": card, "played_games": g, "played_wins": w, "win_rate": wr, "played_in": pr, "plays": plays,
            "plays_mean": mean(plays, g), "thin": below_min_games(g, filters)}
           for (card, g, w, plays), wr, pr in zip(rows, intervals[:len(rows)], intervals[len(rows):])]
    out.sort(key=lambda r: (*sort_key_lower_bound(r["win_rate"]), r["card"]))
    return seat_games, out


def _dice_row(sums: tuple) -> dict:
    games, *faces, sets, repelled, ravaged = sums
    return {"games": games, "faces": faces, "sets": sets, "repelled": repelled, "ravaged": ravaged}


def dice_audit(conn, filters: Filters) -> dict:
    """The dice audit (services.stats.dice_audit): for each player (``rows``, by the name in the logs'
    ``meta.players``; null: games that name none) and for each event (``events`` (null: games without one, or
    events unlisted and not asked for by the filter)), the faces of their attack dice against a fair
    die, and the repel and ravage rates against 1/27 and 1/216; each table's tests corrected together
    (Holm), rows flagged below ``FLAG_BELOW``."""
    players = [{"player": name, **_dice_row(sums)} for name, *sums in _rows(conn, DICE_BY_PLAYER_SQL, filters)]
    named = [e for e in filters.events or () if e not in filters.unreadable]
    events = [{"event_id": event_id, "event": name, **_dice_row(tuple(sums[1:]))}
              for event_id, name, *sums in _rows(conn, DICE_BY_EVENT_SQL, filters, named=named)]
    thin = [below_min_games(r["games"], filters) for r in players + events]
    players, events = audit(players), audit(events)
    for row, is_thin in zip(players + events, thin):
        row["thin"] = is_thin
    return {"flag_below": FLAG_BELOW, "correction": HOLM, "min_dice": MIN_DICE, "rows": players, "events": events}
