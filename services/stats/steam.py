"""Empyreal: Spells & Steam's statistics (issue 30): reads of its aggregate tables (migration 0023,
declared in services.stats.aggregates), each rate with its n and Wilson interval and each mean with
its n and Student-t interval (services.stats.intervals), always at one table size (the ``players``
filter: 2 to 6). Like services.stats.elysian, every function takes an open connection and the Filters
and returns JSON-ready rows for the API (services.api.stats) and the pages (dashboards/steam.py).
What each number means: docs/services.md, "Spells & Steam statistics".

A company's, captain's, seat's or specialist's ``games`` are seat-games; ``even`` is 1/players, the
share of wins each seat would have if none had an edge (in a team game a seat wins with its team, so
its even share is 1/teams: the ``teams`` statistic gives each shape's). The deck and battlefield
filters do not apply: the API refuses them (``refuse_filters_not_taken``)."""

from __future__ import annotations

from engine.steam.rules import GAME_INFO

from .aggregates import SCORE_PARTS
from .filters import Filters, refuse_deck_filters
from .intervals import mean, mean_interval, rates, share, sort_key_lower_bound
from .queries import below_min_games, fetch_filtered

KEY = GAME_INFO.key


def refuse_filters_not_taken(args) -> None:
    """A FilterError naming the first parameter of ``args`` that Spells & Steam's statistics do not take."""
    refuse_deck_filters(args, KEY)


_PART_SUMS = ", ".join(f"sum({p}_sum)::bigint, sum({p}_squares)::bigint" for p in SCORE_PARTS)
# {key}: company or captain
RESULTS_SQL = f"""
SELECT {{key}}, rank, sum(games)::bigint, sum(wins)::bigint, {_PART_SUMS}
FROM agg_steam_results WHERE {{where}}
GROUP BY {{key}}, rank ORDER BY {{key}}, rank
"""
CAPTAIN_COMPANIES_SQL = """
SELECT captain, company, sum(games)::bigint
FROM agg_steam_results WHERE {where}
GROUP BY captain, company
"""
POSITIONS_SQL = """
SELECT seat, position, sum(games)::bigint, sum(wins)::bigint, sum(rank_sum)::bigint
FROM agg_steam_positions WHERE {where}
GROUP BY seat, position ORDER BY seat, position NULLS LAST
"""
ENDINGS_SQL = """
SELECT end_trigger, rounds, sum(games)::bigint
FROM agg_steam_endings WHERE {where}
GROUP BY end_trigger, rounds ORDER BY end_trigger, rounds
"""
SPECIALISTS_SQL = """
SELECT specialist, sum(hired_games)::bigint, sum(hired_wins)::bigint, sum(hires)::bigint
FROM agg_steam_specialists WHERE {where}
GROUP BY specialist
"""
SPELLCARS_SQL = """
SELECT spellcar, sum(taken_games)::bigint, sum(taken_wins)::bigint, sum(taken)::bigint,
       sum(activated_games)::bigint, sum(activated_wins)::bigint, sum(activations)::bigint
FROM agg_steam_spellcars WHERE {where}
GROUP BY spellcar
"""
AWARDS_SQL = """
SELECT award, company, sum(games)::bigint, sum(wins)::bigint, sum(scored)::bigint, sum(firsts)::bigint,
       sum(points)::bigint
FROM agg_steam_awards WHERE {where}
GROUP BY award, company ORDER BY award, company
"""
TEAMS_SQL = """
SELECT team_shape, size, started, rank, sum(teams)::bigint, sum(wins)::bigint, sum(score_sum)::bigint,
       sum(bonus_sum)::bigint
FROM agg_steam_teams WHERE {where}
GROUP BY team_shape, size, started, rank ORDER BY team_shape, size, started, rank
"""


def _rows(conn, sql: str, filters: Filters) -> list[tuple]:
    return fetch_filtered(conn, sql, filters, decks=False)


def games_played(conn, filters: Filters) -> int:
    """The games at this table size (every game has one end)."""
    return sum(r[2] for r in _rows(conn, ENDINGS_SQL, filters))


def _summary(games: int, filters: Filters) -> dict:
    return {"games": games, "even": 1 / filters.players, "thin": below_min_games(games, filters)}


def _results(conn, filters: Filters, key: str) -> dict[str, list]:
    """Per company or captain (``key``): [seat-games, wins, {rank: seat-games}, [sum, squares] of each
    score part]."""
    out: dict[str, list] = {}
    for name, rank, games, wins, *parts in _rows(conn, RESULTS_SQL.replace("{key}", key), filters):
        acc = out.setdefault(name, [0, 0, {}, [[0, 0] for _ in SCORE_PARTS]])
        acc[0] += games
        acc[1] += wins
        acc[2][rank] = acc[2].get(rank, 0) + games
        for i in range(len(SCORE_PARTS)):
            acc[3][i][0] += parts[2 * i]
            acc[3][i][1] += parts[2 * i + 1]
    return out


def _result_rows(conn, filters: Filters, key: str) -> tuple[dict, list[dict]]:
    """(summary, per company or captain): seat-games, wins, win rate (n, Wilson interval), mean rank,
    mean score (n, t interval) and the rank distribution — each place's share of its seat-games, 1 to
    players; highest lower bound of the win rate first."""
    by = _results(conn, filters, key)
    places = range(1, filters.players + 1)
    pairs = [(w, g) for g, w, _, _ in by.values()]
    pairs += [(ranks.get(p, 0), g) for g, _, ranks, _ in by.values() for p in places]
    intervals = rates(pairs)
    n, width = len(by), len(places)
    out = []
    for i, (name, (g, w, ranks, parts)) in enumerate(by.items()):
        distribution = intervals[n + i * width:n + (i + 1) * width]
        out.append({key: name, "games": g, "wins": w, "win_rate": intervals[i],
                    "rank_mean": mean(sum(r * c for r, c in ranks.items()), g),
                    "score": mean_interval(*parts[0], g),
                    "ranks": [{"rank": p, **d} for p, d in zip(places, distribution)],
                    "thin": below_min_games(g, filters)})
    out.sort(key=lambda r: (*sort_key_lower_bound(r["win_rate"]), r[key]))
    return _summary(games_played(conn, filters), filters), out


def company_stats(conn, filters: Filters) -> tuple[dict, list[dict]]:
    """(summary, per company): see ``_result_rows``; a company's ``pick_rate`` is the share of the games
    it was at the table in (n: every game; a company is played by one seat at most)."""
    summary, rows = _result_rows(conn, filters, "company")
    for row, pick in zip(rows, rates([(r["games"], summary["games"]) for r in rows])):
        row["pick_rate"] = pick
    return summary, rows


def captain_stats(conn, filters: Filters) -> tuple[dict, list[dict]]:
    """(summary, per captain, a wild captain too): see ``_result_rows``; with ``companies``, the
    companies the captain led and their seat-games, most first."""
    summary, rows = _result_rows(conn, filters, "captain")
    led: dict[str, dict[str, int]] = {}
    for captain, company, games in _rows(conn, CAPTAIN_COMPANIES_SQL, filters):
        led.setdefault(captain, {})[company] = games
    for row in rows:
        companies = sorted(led.get(row["captain"], {}).items(), key=lambda kv: (-kv[1], kv[0]))
        row["companies"] = [{"company": c, "games": g} for c, g in companies]
    return summary, rows


def score_part_stats(conn, filters: Filters) -> tuple[dict, list[dict]]:
    """(every seat, per company): the mean victory points of a seat-game (n, t interval), in all and
    from each part — goods delivered, demand tiles, awards — with each part's share of the points."""
    def parts_of(g: int, sums: list[list[int]]) -> dict:
        total = sums[0][0]
        return {part: {**mean_interval(s, sq, g), "share": share(s, total) if i else None}
                for i, (part, (s, sq)) in enumerate(zip(SCORE_PARTS, sums))}

    by = _results(conn, filters, "company")
    every = [sum(acc[0] for acc in by.values()),
             [[sum(acc[3][i][j] for acc in by.values()) for j in (0, 1)] for i in range(len(SCORE_PARTS))]]
    overall = {"games": every[0], **parts_of(*every), "thin": below_min_games(every[0], filters)}
    rows = [{"company": name, "games": g, **parts_of(g, parts), "thin": below_min_games(g, filters)}
            for name, (g, _, _, parts) in by.items()]
    rows.sort(key=lambda r: (r["score"]["mean"] is None, -(r["score"]["mean"] or 0), r["company"]))
    return overall, rows


def _seat_games(conn, filters: Filters) -> int:
    return sum(r[2] for r in _rows(conn, POSITIONS_SQL, filters))


def specialist_stats(conn, filters: Filters) -> tuple[int, list[dict]]:
    """(all seat-games, per specialist): the seat-games it was hired in (at least once), how often (n:
    every seat-game), the win rate when hired (n: those seat-games), its hires; highest lower bound
    of the win rate first."""
    seat_games = _seat_games(conn, filters)
    rows = _rows(conn, SPECIALISTS_SQL, filters)
    intervals = rates([(w, g) for _, g, w, _ in rows] + [(g, seat_games) for _, g, _, _ in rows])
    out = [{"specialist": name, "hired_games": g, "hired_wins": w, "win_rate": wr, "hired_in": hr, "hires": hires,
            "thin": below_min_games(g, filters)}
           for (name, g, w, hires), wr, hr in zip(rows, intervals[:len(rows)], intervals[len(rows):])]
    out.sort(key=lambda r: (*sort_key_lower_bound(r["win_rate"]), r["specialist"]))
    return seat_games, out


def spellcar_stats(conn, filters: Filters) -> tuple[int, list[dict]]:
    """(all seat-games, per spellcar): the seat-games it was taken in, how often (n: every seat-game),
    the win rate when taken (n: those seat-games) and how many times it was taken; the same of its
    activations (a company's printed spellcars are activated without being taken); highest lower bound
    of the win rate when taken first."""
    seat_games = _seat_games(conn, filters)
    rows = _rows(conn, SPELLCARS_SQL, filters)
    n = len(rows)
    intervals = rates([(tw, tg) for _, tg, tw, _, _, _, _ in rows] + [(tg, seat_games) for _, tg, *_ in rows]
                      + [(aw, ag) for _, _, _, _, ag, aw, _ in rows] + [(r[4], seat_games) for r in rows])
    out = [{"spellcar": name, "taken_games": tg, "taken": taken, "win_rate_taken": intervals[i],
            "taken_in": intervals[n + i], "activated_games": ag, "activations": activations,
            "win_rate_activated": intervals[2 * n + i], "activated_in": intervals[3 * n + i],
            "activations_mean": mean(activations, ag), "thin": below_min_games(tg, filters)}
           for i, (name, tg, _, taken, ag, _, activations) in enumerate(rows)]
    out.sort(key=lambda r: (*sort_key_lower_bound(r["win_rate_taken"]), r["spellcar"]))
    return seat_games, out


def ending_stats(conn, filters: Filters) -> tuple[dict, list[dict], list[dict]]:
    """(summary, per end trigger, lengths): what ended the games — each trigger's games and share of
    every game (n: the games, Wilson interval) and mean rounds — and the games by trigger and length
    in rounds."""
    rows = _rows(conn, ENDINGS_SQL, filters)
    total = sum(r[2] for r in rows)
    ends: dict[str, list[int]] = {}
    for end, rounds, games in rows:
        acc = ends.setdefault(end, [0, 0])
        acc[0] += games
        acc[1] += rounds * games
    per_end = [{"end_trigger": end, "games": g, "share": sh, "rounds_mean": mean(rs, g),
                "thin": below_min_games(g, filters)}
               for (end, (g, rs)), sh in zip(ends.items(), rates([(g, total) for g, _ in ends.values()]))]
    per_end.sort(key=lambda r: (-r["games"], r["end_trigger"]))
    lengths = [{"end_trigger": end, "rounds": rounds, "games": games} for end, rounds, games in rows]
    summary = {"games": total, "rounds_mean": mean(sum(rounds * g for _, rounds, g in rows), total),
               "thin": below_min_games(total, filters)}
    return summary, per_end, lengths


def seat_stats(conn, filters: Filters) -> tuple[dict, list[dict], list[dict]]:
    """(summary, per seat, per turn-order position): each seat's and each position's seat-games, wins,
    win rate (n, Wilson interval; ``even``: 1/players) and mean rank. Position 1 is the start player
    (``summary.start_player``: its win rate); the others follow in turn order. A game that ended before
    it had a start player has no positions."""
    seats: dict[int, list[int]] = {}
    positions: dict[int, list[int]] = {}
    for seat, position, games, wins, rank_sum in _rows(conn, POSITIONS_SQL, filters):
        for key, by in ((seat, seats), (position, positions)):
            if key is None:
                continue
            acc = by.setdefault(key, [0, 0, 0])
            for i, v in enumerate((games, wins, rank_sum)):
                acc[i] += v
    positions = dict(sorted(positions.items()))
    intervals = rates([(w, g) for g, w, _ in seats.values()] + [(w, g) for g, w, _ in positions.values()])

    def rows(by: dict[int, list[int]], name: str, at: list[dict]) -> list[dict]:
        return [{name: k, "games": g, "wins": w, "win_rate": wr, "rank_mean": mean(rank, g),
                 "thin": below_min_games(g, filters)} for (k, (g, w, rank)), wr in zip(by.items(), at)]

    per_seat = rows(seats, "seat", intervals[:len(seats)])
    per_position = rows(positions, "position", intervals[len(seats):])
    start = per_position[0] if per_position and per_position[0]["position"] == 1 else None
    summary = {**_summary(games_played(conn, filters), filters),
               "start_player": start["win_rate"] if start else rates([(0, 0)])[0]}
    return summary, per_seat, per_position


def award_stats(conn, filters: Filters) -> tuple[dict, list[dict], list[dict]]:
    """(summary, per award, per award and company): how often each award was in play (n: every game at
    this table size), the share of seat-games with it in play that took points from it and that were
    first on it, and the mean points a seat took; then who won it — per award and company, the share of
    the company's seat-games with the award in play in which it was first (n: those seat-games) and
    the company's wins in them."""
    games = games_played(conn, filters)
    rows = _rows(conn, AWARDS_SQL, filters)
    awards: dict[str, list[int]] = {}
    for award, _, g, w, scored, firsts, points in rows:
        acc = awards.setdefault(award, [0, 0, 0, 0, 0])
        for i, v in enumerate((g, w, scored, firsts, points)):
            acc[i] += v
    n = len(awards)
    intervals = rates([(g // filters.players, games) for g, *_ in awards.values()]
                      + [(scored, g) for g, _, scored, _, _ in awards.values()]
                      + [(firsts, g) for g, _, _, firsts, _ in awards.values()]
                      + [(firsts, g) for _, _, g, _, firsts, _, _ in rows])
    per_award = [{"award": award, "in_play_games": g // filters.players, "in_play": intervals[i],
                  "scored": intervals[n + i], "first": intervals[2 * n + i], "points_mean": mean(points, g),
                  "thin": below_min_games(g // filters.players, filters)}
                 for i, (award, (g, _, _, _, points)) in enumerate(awards.items())]
    per_award.sort(key=lambda r: (-r["in_play_games"], r["award"]))
    by_company = [{"award": award, "company": company, "games": g, "wins": w, "firsts": firsts,
                   "first": first, "points_mean": mean(points, g), "thin": below_min_games(g, filters)}
                  for (award, company, g, w, _, firsts, points), first in zip(rows, intervals[3 * n:])]
    return _summary(games, filters), per_award, by_company


def team_stats(conn, filters: Filters) -> tuple[dict, list[dict], list[dict]]:
    """(summary, per team shape, per shape and start): team results of the team games at this table
    size — per shape ("2v2", "2v2v2", "3v3"), its games, the teams' mean score, the colour bonus's
    mean and its share of the teams' points, and the rank distribution of its teams; and per shape,
    the win rate (n, Wilson interval) of the team the start player was on and of the others
    (``even``: 1/teams). ``summary.team_games``: the games played in teams; ``summary.games``: every game."""
    shapes: dict[str, dict] = {}
    started: dict[tuple[str, bool], list[int]] = {}
    for shape, size, start, rank, teams, wins, score, bonus in _rows(conn, TEAMS_SQL, filters):
        acc = shapes.setdefault(shape, {"teams": 0, "wins": 0, "score": 0, "bonus": 0, "ranks": {}, "size": size})
        for k, v in (("teams", teams), ("wins", wins), ("score", score), ("bonus", bonus)):
            acc[k] += v
        acc["ranks"][rank] = acc["ranks"].get(rank, 0) + teams
        by = started.setdefault((shape, start), [0, 0])
        by[0] += teams
        by[1] += wins
    count = {shape: len(shape.split("v")) for shape in shapes}
    team_games = {shape: acc["teams"] // count[shape] for shape, acc in shapes.items()}
    rows = [{"team_shape": shape, "teams_per_game": count[shape], "games": team_games[shape], "teams": acc["teams"],
             "wins": acc["wins"], "score_mean": mean(acc["score"], acc["teams"]),
             "bonus_mean": mean(acc["bonus"], acc["teams"]), "bonus_share": share(acc["bonus"], acc["score"]),
             "ranks": [{"rank": r, "teams": t} for r, t in sorted(acc["ranks"].items())],
             "even": 1 / count[shape], "thin": below_min_games(team_games[shape], filters)}
            for shape, acc in shapes.items()]
    starts = [{"team_shape": shape, "started": start, "teams": t, "wins": w, "win_rate": wr,
               "even": 1 / count[shape], "thin": below_min_games(t, filters)}
              for ((shape, start), (t, w)), wr in zip(started.items(), rates([(w, t) for t, w in started.values()]))]
    total = sum(team_games.values())
    return {"games": games_played(conn, filters), "team_games": total, "thin": below_min_games(total, filters)}, \
        rows, starts
