"""What a dashboard page shows, as plain values the template renders: panels of a figure and/or a
table, each with its CSV download. Tables are built here (cells are plain strings and numbers:
the template escapes them), figures in dashboards.figures."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import plotly.graph_objects as go
from markupsafe import Markup

from services.stats.significance import Evidence

from .figures import percent


@dataclass
class Table:
    headers: list[str]
    rows: list[list]                      # cells: str | int | float | None, or a Link
    thin: list[bool] = field(default_factory=list)  # per row: drawn grey
    flagged: list[bool] = field(default_factory=list)  # per row: marked (a cell of the row says why in words)
    numeric: set[int] = field(default_factory=set)  # column indexes aligned right
    secondary: set[int] = field(default_factory=set)  # column indexes a phone leaves out (key columns stay)
    open: bool | None = None              # shown unfolded; None: when it has 20 rows or fewer
    # Text columns kept readable when a table is wider than the screen (it then scrolls sideways in
    # its panel rather than squeeze them to a word per line): sentences (a reason, a ruling) keep
    # 14rem, a few words (names, a short state, links to replays) 8rem with each link on one line.
    prose: set[int] = field(default_factory=set)
    phrase: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Link:
    text: str
    href: str


@dataclass
class Panel:
    id: str                               # element id stem: the figure is #fig-<id>
    title: str
    figure: go.Figure | None = None
    table: Table | None = None
    dataset: str | None = None            # the /download/<dataset>.csv this panel's numbers come from
    note: str = ""
    csv_url: str | None = None            # a panel whose CSV is not a filtered dataset (events pages)

    def figure_json(self) -> Markup | None:
        """The figure as JSON safe inside a <script type="application/json"> element: '<', '>' and
        '&' become \\u escapes (still the same JSON), so no player text can close the element."""
        if self.figure is None:
            return None
        text = self.figure.to_json()
        return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def rate_cell(r: dict) -> str:
    """A rate as people read it: '53.1% (48.2–58.0%)'; '–' with no games."""
    if r["rate"] is None:
        return "–"
    return f"{percent(r['rate'])} ({percent(r['low'])}–{percent(r['high'])})"


def evidence_cell(evidence: Evidence) -> str:
    """A heatmap cell's test as a table cell: 'yes (0.003)' when it is called different after the
    Benjamini–Hochberg correction, 'no (0.41)' when not (the adjusted p-value), '–' untested."""
    if evidence.p_adjusted is None:
        return "–"
    return f"{'yes' if evidence.different else 'no'} ({evidence.p_adjusted:.2g})"


def number(x: float | None) -> str:
    """A figure in a table cell, to one decimal."""
    return "–" if x is None else f"{x:.1f}"


def flatten(row: dict) -> dict:
    """A statistic row as flat CSV columns: a rate {successes, n, rate, low, high} becomes
    <name>, <name>_low, <name>_high, <name>_n, <name>_successes; a mean {n, mean, sd, low, high} (and
    any more numbers beside them: a share) <name>, <name>_low, <name>_high, <name>_n, <name>_sd …"""
    out: dict = {}
    for key, value in row.items():
        if isinstance(value, dict) and "rate" in value and "n" in value:
            out[key] = value["rate"]
            out[f"{key}_low"] = value["low"]
            out[f"{key}_high"] = value["high"]
            out[f"{key}_n"] = value["n"]
            out[f"{key}_successes"] = value["successes"]
        elif isinstance(value, dict) and "mean" in value and "n" in value:
            out[key] = value["mean"]
            out |= {f"{key}_{k}": v for k, v in value.items() if k != "mean"}
        elif isinstance(value, (list, dict)):
            out[key] = json.dumps(value)
        else:
            out[key] = value
    return out
