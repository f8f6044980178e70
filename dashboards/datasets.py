"""The numbers behind every dashboard panel, by name: one function per dataset, each reading the
aggregate statistics (services.stats.queries) for the request's filters. The pages draw them; the
CSV download (GET /download/<name>.csv with the page's query string) writes them, flattened."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

from engine import games
from services.platform.csv_cells import csv_cell
from services.stats import elysian, queries, steam, titans
from services.stats.filters import Filters

from .panels import flatten

Dataset = Callable[[object, Filters], list[dict]]

DATASETS: dict[str, Dataset] = {
    "decks": queries.deck_stats,
    "matchups": queries.matchup_stats,
    "trends": queries.trend_stats,
    "battlefields": lambda conn, f: queries.battlefield_stats(conn, f)[0],
    "battlefield-first-player": lambda conn, f: queries.battlefield_stats(conn, f)[1],
    "first-player": lambda conn, f: queries.first_player_stats(conn, f)[1],
    "margins": lambda conn, f: queries.margin_stats(conn, f)[1],
    "rounds": queries.round_stats,
    "cards": queries.card_stats,
    # Titans of Empyrean's pages' (dashboards/titans.py)
    "titans-species": titans.species_stats,
    "titans-matchups": titans.matchup_stats,
    "titans-titans": titans.titan_stats,
    "titans-maneuvers": lambda conn, f: titans.maneuver_stats(conn, f)[1],
    "titans-endings": lambda conn, f: titans.ending_stats(conn, f)[1],
    "titans-initiative": lambda conn, f: [titans.initiative_stats(conn, f)],
    "titans-squads": lambda conn, f: titans.squad_stats(conn, f)[1],
    # Elysian Battlefields' pages' (dashboards/elysian.py), each at the table size of its players filter
    "elysian-heroes": lambda conn, f: elysian.hero_stats(conn, f)[1],
    "elysian-victories": lambda conn, f: elysian.victory_stats(conn, f)[0],
    "elysian-hero-victories": lambda conn, f: elysian.victory_stats(conn, f)[1],
    "elysian-length": lambda conn, f: elysian.length_stats(conn, f)[1],
    "elysian-seats": lambda conn, f: elysian.seat_stats(conn, f)[1],
    "elysian-eliminations": lambda conn, f: elysian.elimination_stats(conn, f)[1],
    "elysian-elimination-order": lambda conn, f: elysian.elimination_stats(conn, f)[2],
    "elysian-cards": lambda conn, f: elysian.card_stats(conn, f)[1],
    "elysian-dice-players": lambda conn, f: [dice_row(r) for r in elysian.dice_audit(conn, f)["rows"]],
    "elysian-dice-events": lambda conn, f: [dice_row(r) for r in elysian.dice_audit(conn, f)["events"]],
    # Empyreal: Spells & Steam's pages' (dashboards/steam.py), each at the table size of its players filter
    "steam-companies": lambda conn, f: [places_row(r) for r in steam.company_stats(conn, f)[1]],
    "steam-captains": lambda conn, f: [places_row(r) for r in steam.captain_stats(conn, f)[1]],
    "steam-score-parts": lambda conn, f: steam.score_part_stats(conn, f)[1],
    "steam-specialists": lambda conn, f: steam.specialist_stats(conn, f)[1],
    "steam-spellcars": lambda conn, f: steam.spellcar_stats(conn, f)[1],
    "steam-awards": lambda conn, f: steam.award_stats(conn, f)[1],
    "steam-award-companies": lambda conn, f: steam.award_stats(conn, f)[2],
    "steam-endings": lambda conn, f: steam.ending_stats(conn, f)[1],
    "steam-lengths": lambda conn, f: steam.ending_stats(conn, f)[2],
    "steam-positions": lambda conn, f: steam.seat_stats(conn, f)[2],
    "steam-seats": lambda conn, f: steam.seat_stats(conn, f)[1],
    "steam-teams": lambda conn, f: [places_row(r) for r in steam.team_stats(conn, f)[1]],
    "steam-team-start": lambda conn, f: steam.team_stats(conn, f)[2],
}


def dataset_game(name: str) -> str:
    """The game whose statistics dataset ``name`` is: the key it starts with (``titans-species``), else
    Battle for Empyrean's; its download takes that game's filters (Elysian's table sizes)."""
    first = name.split("-", 1)[0]
    return first if "-" in name and games.is_known(first) else games.DEFAULT_GAME


def places_row(row: dict) -> dict:
    """A Spells & Steam row with places (a company's, a captain's, a team shape's) with each place as
    columns of its own: a company's share of its seat-games (rank_1, rank_1_low … rank_2 …, as flatten
    writes a rate), a team shape's teams (rank_1, rank_2 …)."""
    out = {k: v for k, v in row.items() if k != "ranks"}
    return out | {f"rank_{p['rank']}": p["teams"] if "teams" in p else {k: v for k, v in p.items() if k != "rank"}
                  for p in row["ranks"]}


def dice_row(row: dict) -> dict:
    """A dice audit row (services.stats.dice_audit) as flat CSV columns: a column per face, each rate
    with its fair chance, each test's p-values and flag."""
    out = {k: row[k] for k in ("player", "event_id", "event") if k in row}
    out |= {"games": row["games"], "dice": row["dice"], **{f"face_{i}": n for i, n in enumerate(row["faces"], 1)},
            "sets": row["sets"], "repelled": row["repelled"], "ravaged": row["ravaged"]}
    for key in ("repel_rate", "ravage_rate"):
        out |= flatten({key: row[key]}) | {f"{key}_expected": row[key]["expected"]}
    for test, result in row["tests"].items():
        out |= {f"{test}_p_value": result["p_value"], f"{test}_p_adjusted": result["p_adjusted"],
                f"{test}_flagged": result["flagged"]}
    return out | {"tested": row["tested"], "flagged": row["flagged"], "thin": row["thin"]}

def to_csv(rows: list[dict], columns: list[str] | None = None) -> str:
    """The rows, flattened, under a header row. ``columns``: the header, given when there may be no
    row (a file with no row still says what its columns are); a row with another key is an error."""
    flat = [flatten(r) for r in rows]
    out = io.StringIO()
    if not flat and columns is None:
        return ""
    writer = csv.DictWriter(out, fieldnames=columns if columns is not None else list(flat[0]), lineterminator="\n")
    writer.writeheader()
    for row in flat:
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    return out.getvalue()
