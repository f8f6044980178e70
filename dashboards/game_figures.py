"""Figures the pages of every game after Battle for Empyrean draw (Titans', Elysian's, Spells & Steam's),
from their statistics rows: pure functions following every convention of dashboards.figures (a rate
with its 95% Wilson interval and n, a mean with its 95% t interval and n, thin rows grey, escaped
labels, a figure with no games says so)."""

from __future__ import annotations

from collections.abc import Callable

import plotly.graph_objects as go

from .figures import MAIN_COLOUR, PALETTE, THIN_COLOUR, _empty, _errors, _interval_text, _layout, label, wrapped


def ordinal(n: int) -> str:
    """A place as people say it, for the seats of a table: "1st", "2nd", "3rd", "4th"."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def rate_bars(rows: list[dict], name: Callable[[dict], str], rate_key: str, n_key: str, title: str,
              axis_title: str, even: float | None = 0.5) -> go.Figure:
    """Horizontal bars of each row's rate (``row[rate_key]``) with its Wilson interval, in the rows'
    order (drawn from the top), each label with its ``n=``, grey when the row is thin; a dotted line at
    ``even`` (None: none)."""
    fig = go.Figure()
    rows = [r for r in rows if r[n_key] > 0]
    if not rows:
        return _layout(_empty(fig), title.partition(" — ")[0])
    rows = list(reversed(rows))  # plotly draws the first category at the bottom
    rates = [r[rate_key] for r in rows]
    plus, minus = _errors(rates)
    # n in the label, so that a bar of 0% (no width to write in) still shows it
    names = [wrapped(label(name(r))) + f" · n={r[n_key]}" for r in rows]
    fig.add_bar(y=names, x=[r["rate"] for r in rates], orientation="h",
                error_x={"type": "data", "symmetric": False, "array": plus, "arrayminus": minus, "thickness": 1.5},
                marker_color=[THIN_COLOUR if r["thin"] else MAIN_COLOUR for r in rows],
                customdata=[_interval_text(rate) for rate in rates],
                hovertemplate="%{y}<br>%{customdata}<extra></extra>", name=axis_title)
    if even is not None:
        fig.add_vline(x=even, line_dash="dot", line_color="#888")
    fig.update_xaxes(range=[0, 1], tickformat=".0%", title=axis_title)
    fig.update_yaxes(type="category")
    return _layout(fig, title, height=max(320, 32 * len(rows) + 120))


def game_lengths(lengths: list[dict], total: int, name: Callable[[str], str]) -> go.Figure:
    """Games by length in rounds, a bar segment per way of ending; n (every game) in the title."""
    fig = go.Figure()
    if not total:
        return _layout(_empty(fig), "Game length")
    ends = sorted({r["end_reason"] for r in lengths})
    for i, end in enumerate(ends):
        mine = [r for r in lengths if r["end_reason"] == end]
        fig.add_bar(x=[r["rounds"] for r in mine], y=[r["games"] for r in mine], name=label(name(end)),
                    marker_color=PALETTE[i % len(PALETTE)],
                    hovertemplate=f"{label(name(end))}<br>%{{x}} rounds: %{{y}} games<extra></extra>")
    fig.update_layout(barmode="stack")
    fig.update_xaxes(title="rounds played", dtick=1)
    fig.update_yaxes(title="games")
    return _layout(fig, f"Game length — n={total} games, by how each ended")


def mean_bars(rows: list[dict], name: Callable[[dict], str], mean_key: str, title: str, axis_title: str) -> go.Figure:
    """Horizontal bars of each row's mean (``row[mean_key]``: services.stats.intervals.mean_interval)
    with its t interval, in the rows' order (drawn from the top), each label with its ``n=``, grey when
    the row is thin."""
    fig = go.Figure()
    rows = [r for r in rows if r[mean_key]["n"] > 0]
    if not rows:
        return _layout(_empty(fig), title.partition(" — ")[0])
    rows = list(reversed(rows))  # plotly draws the first category at the bottom
    means = [r[mean_key] for r in rows]
    plus = [None if m["high"] is None else m["high"] - m["mean"] for m in means]
    minus = [None if m["low"] is None else m["mean"] - m["low"] for m in means]
    names = [wrapped(label(name(r))) + f" · n={m['n']}" for r, m in zip(rows, means)]
    fig.add_bar(y=names, x=[m["mean"] for m in means], orientation="h",
                error_x={"type": "data", "symmetric": False, "array": plus, "arrayminus": minus, "thickness": 1.5},
                marker_color=[THIN_COLOUR if r["thin"] else MAIN_COLOUR for r in rows],
                customdata=[mean_text(m) for m in means],
                hovertemplate="%{y}<br>%{customdata}<extra></extra>", name=axis_title)
    fig.update_xaxes(rangemode="tozero", title=axis_title)
    fig.update_yaxes(type="category")
    return _layout(fig, title, height=max(320, 32 * len(rows) + 120))


def mean_text(m: dict) -> str:
    """A mean as people read it: '41.2 (95% CI 38.0–44.4), n=52'."""
    if m["mean"] is None:
        return "no games"
    if m["low"] is None:
        return f"{m['mean']:.1f}, n={m['n']}"
    return f"{m['mean']:.1f} (95% CI {m['low']:.1f}–{m['high']:.1f}), n={m['n']}"
