"""Empyreal: Spells & Steam's own figures, built from the rows services.stats.steam returns: pure
functions following every convention of dashboards.figures (each number with its n, thin rows faded,
escaped labels, a figure with no games says so). Its bars of rates and of means and its game lengths
are dashboards.game_figures'."""

from __future__ import annotations

from collections.abc import Callable

import plotly.graph_objects as go

from .figures import PALETTE, _empty, _interval_text, _layout, label, wrapped
from .game_figures import mean_text, ordinal

ROW_HEIGHT = 52  # px a bar of stacks: a company's name may wrap to three lines
PART_WORDS = {"goods": "goods delivered", "demand": "demand tiles", "awards": "awards"}


def _stack(fig: go.Figure, names: list[str], title: str, axis_title: str) -> go.Figure:
    """A stack of horizontal bars whose parts are shares, its categories in ``names``' order from the top."""
    fig.update_layout(barmode="stack", legend={"traceorder": "normal"})  # 1st first, as the bars are drawn
    fig.update_xaxes(range=[0, 1], tickformat=".0%", title=axis_title)
    fig.update_yaxes(type="category", categoryorder="array", categoryarray=list(reversed(names)))
    return _layout(fig, title, height=max(320, ROW_HEIGHT * len(names) + 160))


def rank_distribution(rows: list[dict], name: Callable[[dict], str], title: str) -> go.Figure:
    """Per row (a company or a captain), a bar of its seat-games split by the place it finished in (each
    part its share, with the interval in the hover); n in the label; a thin row faded."""
    fig = go.Figure()
    rows = [r for r in rows if r["games"]]
    if not rows:
        return _layout(_empty(fig), title.partition(" — ")[0])
    names = [wrapped(label(name(r))) + f" · n={r['games']}" for r in rows]
    for i, rank in enumerate(p["rank"] for p in rows[0]["ranks"]):
        shares = [r["ranks"][i] for r in rows]
        fig.add_bar(y=names, x=[s["rate"] for s in shares], orientation="h", name=ordinal(rank),
                    marker={"color": PALETTE[i % len(PALETTE)], "opacity": [0.35 if r["thin"] else 1 for r in rows]},
                    customdata=[_interval_text(s) for s in shares],
                    hovertemplate=f"%{{y}}<br>{ordinal(rank)}: %{{customdata}}<extra></extra>")
    return _stack(fig, names, title, "share of its seat-games, by place")


def score_parts(rows: list[dict], name: Callable[[dict], str], title: str) -> go.Figure:
    """Per row (every seat, or a company), its mean victory points as a bar of its three parts — goods,
    demand tiles, awards — each part's mean and interval in the hover; n in the label; a thin row faded."""
    fig = go.Figure()
    rows = [r for r in rows if r["games"]]
    if not rows:
        return _layout(_empty(fig), title.partition(" — ")[0])
    names = [wrapped(label(name(r))) + f" · n={r['games']}" for r in rows]
    for i, (part, words) in enumerate(PART_WORDS.items()):
        fig.add_bar(y=names, x=[r[part]["mean"] for r in rows], orientation="h", name=words,
                    marker={"color": PALETTE[i], "opacity": [0.35 if r["thin"] else 1 for r in rows]},
                    customdata=[mean_text(r[part]) for r in rows],
                    hovertemplate=f"%{{y}}<br>{words}: %{{customdata}}<extra></extra>")
    fig.update_layout(barmode="stack", legend={"traceorder": "normal"})
    fig.update_xaxes(rangemode="tozero", title="mean victory points of a seat-game")
    fig.update_yaxes(type="category", categoryorder="array", categoryarray=list(reversed(names)))
    return _layout(fig, title, height=max(320, ROW_HEIGHT * len(names) + 160))


def firsts_by_company(rows: list[dict], award: Callable[[str], str], company: Callable[[str], str],
                      title: str) -> go.Figure:
    """Who wins each award: per award, a bar of the seats that were first on it split by their company
    (each part its share of the award's firsts); the award's n (its firsts) in its label."""
    fig = go.Figure()
    firsts: dict[str, int] = {}
    for r in rows:
        firsts[r["award"]] = firsts.get(r["award"], 0) + r["firsts"]
    awards = sorted((a for a in firsts if firsts[a]), key=lambda a: (-firsts[a], award(a)))
    if not awards:
        return _layout(_empty(fig, "No award was won in these games"), title.partition(" — ")[0])
    names = {a: wrapped(label(award(a))) + f" · n={firsts[a]}" for a in awards}
    for i, c in enumerate(sorted({r["company"] for r in rows})):
        mine = [r for r in rows if r["company"] == c and r["award"] in names]
        fig.add_bar(y=[names[r["award"]] for r in mine], x=[r["firsts"] / firsts[r["award"]] for r in mine],
                    orientation="h", name=label(company(c)), marker_color=PALETTE[i % len(PALETTE)],
                    customdata=[r["firsts"] for r in mine],
                    hovertemplate=f"%{{y}}<br>{label(company(c))}: first %{{customdata}} times<extra></extra>")
    return _stack(fig, [names[a] for a in awards], title, "share of the award's firsts")
