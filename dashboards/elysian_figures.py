"""Elysian Battlefields' own figures, built from the rows services.stats.elysian returns: pure
functions following every convention of dashboards.figures (each number with its n, thin rows grey or
faded, escaped labels, a figure with no games says so). Its bars of rates and its game lengths are
dashboards.game_figures'."""

from __future__ import annotations

from collections.abc import Callable

import plotly.graph_objects as go

from .figures import (
    DIVERGING,
    PALETTE,
    THIN_COLOUR,
    _empty,
    _faded_heatmaps,
    _interval_text,
    _layout,
    _narrow,
    label,
    wrapped,
)
from .game_figures import ordinal

FAIR_FACE = 1 / 6
FLAG_WORD = "FLAGGED"  # beside a flagged row's name, in the figure and the table: words, not colour alone


def wins_by_end(per_hero: list[dict], hero: Callable[[str], str], end: Callable[[str], str],
                min_games: int) -> go.Figure:
    """Per hero, a bar of its wins split by how they were won (each part its share of the hero's
    wins, with the interval in the hover); the hero's n (its wins) in its label; a hero with fewer wins
    than the minimum drawn faded."""
    fig = go.Figure()
    if not per_hero:
        return _layout(_empty(fig, "No wins match these filters"), "How each hero wins")
    wins: dict[str, int] = {}
    for r in per_hero:
        wins[r["hero"]] = wins.get(r["hero"], 0) + r["wins"]
    heroes = sorted(wins, key=lambda h: (wins[h], hero(h)))  # most wins at the top
    names = {h: wrapped(label(hero(h))) + f" · n={wins[h]}" for h in heroes}
    ends = sorted({r["end_reason"] for r in per_hero})  # the colours of game_figures.game_lengths
    for i, e in enumerate(ends):
        mine = [r for r in per_hero if r["end_reason"] == e]
        fig.add_bar(y=[names[r["hero"]] for r in mine], x=[r["share_of_wins"]["rate"] for r in mine],
                    orientation="h", name=label(end(e)),
                    marker={"color": PALETTE[i % len(PALETTE)], "opacity": [0.35 if r["thin"] else 1 for r in mine]},
                    customdata=[_interval_text(r["share_of_wins"]) for r in mine],
                    hovertemplate=f"%{{y}}<br>{label(end(e))}: %{{customdata}}<extra></extra>")
    fig.update_layout(barmode="stack")
    fig.update_xaxes(range=[0, 1], tickformat=".0%", title="share of the hero's wins")
    fig.update_yaxes(type="category", categoryorder="array", categoryarray=[names[h] for h in heroes])
    return _layout(fig, f"How each hero wins — faded: fewer than {min_games} wins",
                   height=max(320, 40 * len(heroes) + 160))


def elimination_order(places: list[dict], players: int) -> go.Figure:
    """Seat-games by turn-order position, a bar segment per place in the order out (first out,
    second out …, not out); n (each position's seat-games) in the axis labels."""
    fig = go.Figure()
    if not places:
        return _layout(_empty(fig), "Order out")
    positions = sorted({r["position"] for r in places})
    n = {p: sum(r["games"] for r in places if r["position"] == p) for p in positions}
    axis = [f"{ordinal(p)} · n={n[p]}" for p in positions]
    orders = sorted({r["out_order"] for r in places}, key=lambda o: (o is None, o or 0))
    for i, o in enumerate(orders):
        mine = {r["position"]: r["games"] for r in places if r["out_order"] == o}
        name = "not out" if o is None else f"{ordinal(o)} out"
        fig.add_bar(x=axis, y=[mine.get(p, 0) for p in positions], name=name,
                    marker_color=THIN_COLOUR if o is None else PALETTE[i % len(PALETTE)],
                    hovertemplate=f"%{{x}}<br>{name}: %{{y}} seat-games<extra></extra>")
    fig.update_layout(barmode="stack")
    fig.update_xaxes(title="turn-order position (1st took the first turn)", type="category")
    fig.update_yaxes(title="seat-games")
    return _layout(fig, f"Order out by turn-order position — {players}-player games, n={n[positions[0]]} "
                        "a position")


def dice_faces(rows: list[dict], name: Callable[[dict], str], title: str) -> go.Figure:
    """Rows (players or events) × faces 1 to 6: each face's share of the row's dice, coloured against
    a fair die's 1/6; a row not tested (too few dice) or thin is faded; a flagged row says so in its
    label. The hover gives the interval and the row's corrected p-value of the faces' test."""
    fig = go.Figure()
    rows = [r for r in rows if r["dice"]]
    if not rows:
        return _layout(_empty(fig, "No attack dice match these filters"), title.partition(" — ")[0])
    ys = [wrapped(label(name(r))) + f"<br>n={r['dice']} dice" + (f" · {FLAG_WORD}" if r["flagged"] else "")
          for r in rows]
    xs = [str(f) for f in range(1, 7)]
    cells = {}
    for y, r in zip(ys, rows):
        p = r["tests"]["faces"]["p_adjusted"]
        test = "not tested: too few dice" if p is None else f"faces test: adjusted p={p:.3g}"
        for x, rate in zip(xs, r["face_rates"]):
            cells[(y, x)] = (rate["rate"], f"{100 * rate['rate']:.0f}%", f"{_interval_text(rate)}<br>{test}",
                             r["thin"] or not r["tested"])
    _faded_heatmaps(fig, xs, ys, cells, zmin=0, zmax=2 * FAIR_FACE, zmid=FAIR_FACE, colorscale=DIVERGING,
                    reversescale=True, colorbar={"title": {"text": "share"}, "tickformat": ".0%"},
                    hovertemplate="%{y}<br>face %{x}: %{customdata}<extra></extra>")
    fig.update_xaxes(type="category", title="face")
    fig.update_yaxes(autorange="reversed", type="category")
    _narrow(fig, restyle={"texttemplate": "", "showscale": False}, traces=[0, 1])  # a phone: no room
    return _layout(fig, title, height=max(260, 44 * len(rows) + 160))
