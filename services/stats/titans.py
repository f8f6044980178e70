"""Titans of Empyrean's statistics (issue 28): reads of its aggregate tables (migration 0021,
declared in services.stats.aggregates), each row with its n and Wilson intervals
(services.stats.intervals). Like services.stats.queries, every function takes an open connection
and the Filters and returns JSON-ready rows; the API (services.api.stats) and the pages
(dashboards/titans.py) share them. What each number means: docs/services.md, "Titans of Empyrean
statistics".

A species' or titan's ``games`` are seat-games (a mirror match counts twice); a game's ``games`` in
the endings and initiative are games. The deck and battlefield filters do not apply: the API and
the pages refuse them (``refuse_filters_not_taken``)."""

from __future__ import annotations

from engine.titans.rules import GAME_INFO

from .filters import Filters, refuse_deck_filters
from .intervals import mean, rates, share, sort_key_lower_bound
from .queries import below_min_games, faction_stats, fetch_filtered

KEY = GAME_INFO.key


def refuse_filters_not_taken(args) -> None:
    """A FilterError naming the first parameter of ``args`` that Titans' statistics do not take (no
    decks, no battlefields: refused, not ignored)."""
    refuse_deck_filters(args, KEY)

MATCHUPS_SQL = """
SELECT species, opponent_species, sum(games)::bigint, sum(wins)::bigint, sum(draws)::bigint
FROM agg_titans_matchups WHERE {where}
GROUP BY species, opponent_species ORDER BY species, opponent_species
"""
TITANS_SQL = """
SELECT species, titan, sum(picks)::bigint, sum(wins)::bigint, sum(survived)::bigint,
       sum(damage_dealt_sum)::bigint, sum(damage_taken_sum)::bigint
FROM agg_titans_titans WHERE {where}
GROUP BY species, titan
"""
MANEUVERS_SQL = """
SELECT maneuver, sum(played_games)::bigint, sum(played_wins)::bigint, sum(plays)::bigint
FROM agg_titans_maneuvers WHERE {where}
GROUP BY maneuver
"""
ENDINGS_SQL = """
SELECT end_reason, rounds, sum(games)::bigint, sum(draws)::bigint
FROM agg_titans_endings WHERE {where}
GROUP BY end_reason, rounds ORDER BY end_reason, rounds
"""
INITIATIVE_SQL = """
SELECT coalesce(sum(games), 0)::bigint, coalesce(sum(top_alone_games), 0)::bigint,
       coalesce(sum(top_alone_wins), 0)::bigint, coalesce(sum(first_to_act_wins), 0)::bigint,
       coalesce(sum(draws), 0)::bigint
FROM agg_titans_initiative WHERE {where}
"""
SQUADS_SQL = """
SELECT species, ally, sum(games)::bigint, sum(wins)::bigint, sum(draws)::bigint
FROM agg_titans_squads WHERE {where}
GROUP BY species, ally ORDER BY species, ally NULLS FIRST
"""


def _rows(conn, sql: str, filters: Filters) -> list[tuple]:
    return fetch_filtered(conn, sql, filters, decks=False)


def species_stats(conn, filters: Filters) -> list[dict]:
    """Per species: seat-games, wins, draws, win rate (n, Wilson interval) and share of the
    seat-games; highest lower bound first. The same numbers as ``/stats/titans/factions``."""
    return [{"species": row.pop("faction"), **row} for row in faction_stats(conn, filters, KEY)]


def matchup_stats(conn, filters: Filters) -> list[dict]:
    """Species × opponent species: games, wins, draws and the species' win rate in that pairing."""
    rows = _rows(conn, MATCHUPS_SQL, filters)
    return [{"species": s, "opponent_species": o, "mirror": s == o, "games": g, "wins": w, "draws": d,
             "win_rate": wr, "thin": below_min_games(g, filters)}
            for (s, o, g, w, d), wr in zip(rows, rates([(r[3], r[2]) for r in rows]))]


def titan_stats(conn, filters: Filters) -> list[dict]:
    """Per titan: picks (seat-games in its squad), its side's win rate when picked, survival rate
    (alive at the end), mean damage dealt (its attacks and abilities) and taken; highest lower bound
    of the win rate first."""
    rows = _rows(conn, TITANS_SQL, filters)
    pairs = [(w, p) for _, _, p, w, *_ in rows] + [(s, p) for _, _, p, _, s, _, _ in rows]
    intervals = rates(pairs)
    out = [{"titan": t, "species": sp, "picks": p, "wins": w, "win_rate": wr, "survived": s, "survival": sr,
            "damage_dealt_mean": mean(dealt, p), "damage_taken_mean": mean(taken, p),
            "thin": below_min_games(p, filters)}
           for (sp, t, p, w, s, dealt, taken), wr, sr in zip(rows, intervals[:len(rows)], intervals[len(rows):])]
    out.sort(key=lambda r: (*sort_key_lower_bound(r["win_rate"]), r["titan"]))
    return out


def maneuver_stats(conn, filters: Filters) -> tuple[int, list[dict]]:
    """(all seat-games, per maneuver rows): the seat-games it was played in (at least once), the win
    rate when played (n: those seat-games), how often it was played in (n: every seat-game) and the
    mean plays in a game it was played in; highest lower bound of the win rate first."""
    seat_games = sum(r["games"] for r in faction_stats(conn, filters, KEY))
    rows = _rows(conn, MANEUVERS_SQL, filters)
    intervals = rates([(w, g) for _, g, w, _ in rows] + [(g, seat_games) for _, g, _, _ in rows])
    out = [{"maneuver": m, "played_games": g, "played_wins": w, "win_rate": wr, "played_in": pr, "plays": plays,
            "plays_mean": mean(plays, g), "thin": below_min_games(g, filters)}
           for (m, g, w, plays), wr, pr in zip(rows, intervals[:len(rows)], intervals[len(rows):])]
    out.sort(key=lambda r: (*sort_key_lower_bound(r["win_rate"]), r["maneuver"]))
    return seat_games, out


def ending_stats(conn, filters: Filters) -> tuple[dict, list[dict], list[dict]]:
    """(summary, per end, lengths): how games ended — each end's games and share of all games (n:
    every game, Wilson interval), its draws and mean length in rounds — and the games by end and
    length in rounds."""
    rows = _rows(conn, ENDINGS_SQL, filters)
    total = sum(r[2] for r in rows)
    ends: dict[str, list[int]] = {}
    for end, rounds, games, draws in rows:
        acc = ends.setdefault(end, [0, 0, 0])
        acc[0] += games
        acc[1] += draws
        acc[2] += rounds * games
    per_end = [{"end_reason": end, "games": g, "draws": d, "share": sh, "rounds_mean": mean(rs, g),
                "thin": below_min_games(g, filters)}
               for (end, (g, d, rs)), sh in zip(ends.items(), rates([(g, total) for g, _, _ in ends.values()]))]
    per_end.sort(key=lambda r: (-r["games"], r["end_reason"]))
    lengths = [{"end_reason": end, "rounds": rounds, "games": games} for end, rounds, games, _ in rows]
    summary = {"games": total, "rounds_mean": mean(sum(r[1] * r[2] for r in rows), total),
               "thin": below_min_games(total, filters)}
    return summary, per_end, lengths


def initiative_stats(conn, filters: Filters) -> dict:
    """Does the highest initiative give an edge: of the games in which one side alone held the
    game's highest initiative, how many it won; and of every game, how many the side whose titan
    acted first in round 1 won (its initiative the highest, ties by rule C1). Rates with n and a
    Wilson interval; draws count as not won."""
    games, top_games, top_wins, first_wins, draws = _rows(conn, INITIATIVE_SQL, filters)[0]
    top, first = rates([(top_wins, top_games), (first_wins, games)])
    return {"games": games, "draws": draws, "top_alone": top, "first_to_act": first,
            "top_alone_share": share(top_games, games), "thin": below_min_games(games, filters)}


def squad_stats(conn, filters: Filters) -> tuple[list[dict], list[dict]]:
    """(mixed and pure, per species and ally): seat-games, wins, draws and the win rate (n, Wilson
    interval) of mixed squads (three titans and an ally's) and of squads of one species, and the
    same per species and ally (``ally`` null: one species)."""
    rows = _rows(conn, SQUADS_SQL, filters)
    kinds = {"pure": [0, 0, 0], "mixed": [0, 0, 0]}
    for _, ally, g, w, d in rows:
        acc = kinds["pure" if ally is None else "mixed"]
        for i, v in enumerate((g, w, d)):
            acc[i] += v
    intervals = rates([(w, g) for g, w, _ in kinds.values()] + [(r[3], r[2]) for r in rows])
    summary = [{"squad": kind, "games": g, "wins": w, "draws": d, "win_rate": wr, "thin": below_min_games(g, filters)}
               for (kind, (g, w, d)), wr in zip(kinds.items(), intervals)]
    per = [{"species": s, "ally": ally, "mixed": ally is not None, "games": g, "wins": w, "draws": d,
            "win_rate": wr, "thin": below_min_games(g, filters)}
           for (s, ally, g, w, d), wr in zip(rows, intervals[len(kinds):])]
    return summary, per

