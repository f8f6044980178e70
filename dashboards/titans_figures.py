"""Titans of Empyrean's own figures, built from the rows services.stats.titans returns: pure functions
following every convention of dashboards.figures (heatmap cells faded when thin or not clearly
different from even, escaped labels, a figure with no games says so). Its bars of rates and its game
lengths are dashboards.game_figures'."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import plotly.graph_objects as go

from services.stats.significance import Evidence

from .figures import _check_evidence, _empty, _layout, _narrow, label, matchup_cell, win_rate_heatmap


def species_matchups(rows: list[dict], min_games: int, evidence: Sequence[Evidence],
                     name: Callable[[str], str]) -> go.Figure:
    """Species (rows) × opponent species (columns): the row species' win rate, each cell with its n;
    a mirror, a thin cell or one not clearly different from 50% is faded."""
    _check_evidence(rows, evidence)
    fig = go.Figure()
    tested = [(r, e) for r, e in zip(rows, evidence) if r["games"] > 0]
    if not tested:
        return _layout(_empty(fig), "Species matchups")
    species = sorted({r["species"] for r, _ in tested} | {r["opponent_species"] for r, _ in tested}, key=name)
    axis = [label(name(s)) for s in species]
    cells = {(label(name(r["species"])), label(name(r["opponent_species"]))): matchup_cell(r, e, min_games)
             for r, e in tested}
    win_rate_heatmap(fig, axis, axis, cells)
    fig.update_xaxes(title="opponent species", tickangle=-30, side="bottom", type="category")
    fig.update_yaxes(title="species", autorange="reversed", type="category")
    _narrow(fig, {"xaxis.tickangle": -90}, {"texttemplate": ""}, [0, 1])  # a phone's cells are too small for text
    return _layout(fig, f"Species matchups — the row species' win rate; faded: under {min_games} games or not "
                        "clearly ≠ 50%", height=max(420, 48 * len(species) + 220))
