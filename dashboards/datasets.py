"""The numbers behind every dashboard panel, by name: one function per dataset, each reading the
aggregate statistics (services.stats.queries) for the request's filters. The pages draw them; the
CSV download (GET /download/<name>.csv with the page's query string) writes them, flattened."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

from services.platform.csv_cells import csv_cell
from services.stats import queries, titans
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
}

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
