"""Plotly figures built from the rows services.stats.queries returns — pure functions, no I/O
(beyond the packaged catalog's deck names, read once, for the order decks are listed in).

Conventions every figure follows:
- a rate is drawn with its 95% Wilson interval (error bars or a band) and its n is in the hover;
- rows flagged ``thin`` (n below the page's minimum) are drawn grey / hollow / faded, never dropped;
  heatmap cells are also faded when they are not different from even after the Benjamini–Hochberg
  correction across the heatmap (services.stats.significance) — faded, the number still there;
- decks are listed in one order everywhere (services.stats.names.deck_order: premade decks, then
  mash-ups, alphabetically), so a deck keeps its place across heatmaps, pages and filters;
- a signed number that rounds to zero is written "0", never "+0" or "-0";
- every label that may come from a player (mash-up deck names) is HTML-escaped: plotly.js renders
  a subset of HTML in text, so a deck called ``<b>x</b>`` must show those characters, not bold;
- each figure carries a small explicit template (``TEMPLATE``), not plotly's default one, which
  would add some 7 kB of styling for every trace type to every figure's JSON;
- a figure may carry ``layout.meta.narrow``: the changes static/app.js makes when it is drawn on
  a phone (short deck names on the axes, no text inside heatmap cells, the title's detail on
  several lines), so one figure reads at 390 px and at 1400 px;
- an empty filter gives a figure with a "no games" note, not an error.
"""

from __future__ import annotations

import datetime as dt
import html
import textwrap
from collections import defaultdict
from collections.abc import Sequence

import plotly.graph_objects as go

from services.stats.names import deck_order, short_deck_names
from services.stats.significance import Evidence

THIN_COLOUR = "#b8b8b8"
MAIN_COLOUR = "#3b6ea8"
SECOND_COLOUR = "#d9822b"
DIVERGING = "RdBu"
FONT = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"
FADED_OPACITY = 0.3        # a heatmap cell that is thin or not different from even
LABEL_WIDTH = 16           # characters per line of a wrapped category label (long deck names)
LONG_WORD = 24             # characters: an x-axis deck name with a longer word is shown by its short name
NARROW_TITLE_WIDTH = 56    # characters per line of a title's detail on a phone
NARROW_MAIN_WIDTH = 32     # characters per line of a title's main part on a phone (a larger font)
NARROW_AXIS_WIDTH = 24     # characters per line of an axis title on a phone (beside long tick labels)
DEFAULT_DRAWN = 4          # decks the trend lines draw until the reader picks others
# one colour per deck, in deck order (plotly's default colourway, kept so figures look as before)
PALETTE = ["#636efa", "#EF553B", "#00cc96", "#ab63fa", "#FFA15A", "#19d3f3", "#FF6692", "#B6E880", "#FF97FF",
           "#FECB52"]
GRID = "#e5eaf2"
# What the figures need of a template (plotly's "plotly_white" look): white paper, light grid,
# the palette. Everything else is plotly.js's own default.
TEMPLATE = go.layout.Template(layout={
    "font": {"family": FONT, "size": 12, "color": "#2a3f5f"}, "paper_bgcolor": "white",
    "plot_bgcolor": "white", "colorway": PALETTE, "hoverlabel": {"align": "left"},
    "xaxis": {"gridcolor": GRID, "linecolor": GRID, "zerolinecolor": GRID, "automargin": True},
    "yaxis": {"gridcolor": GRID, "linecolor": GRID, "zerolinecolor": GRID, "automargin": True},
})


def label(text: str | None) -> str:
    """A player-supplied string made safe for plotly's HTML-subset text rendering (plotly decodes
    &lt; &gt; &amp; back to characters but shows &quot; as is, so quotes stay quotes)."""
    return html.escape(str(text), quote=False) if text is not None else ""


def wrapped(text: str, width: int = LABEL_WIDTH) -> str:
    """An (escaped) label broken into lines of about ``width`` characters at spaces, for tick labels
    that must fit a phone ("Azteca & Mexica<br>of Tenochtitlan"); a word is never split."""
    return "<br>".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)) or text


def percent(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def signed(x: float | None, digits: int = 0) -> str:
    """A signed number as people write it: "+13", "-4", and "0" (never "+0" or "-0") for anything
    that rounds to zero."""
    if x is None:
        return "–"
    text = f"{x:+.{digits}f}"
    return text[1:] if float(text) == 0 else text


def _layout(fig: go.Figure, title: str, *, height: int = 420, **extra) -> go.Figure:
    """Shared look. A title "Main — detail" is drawn as two lines (the detail smaller); on a phone
    the title and long axis titles are wrapped onto as many lines as they need. The legend sits at
    the very bottom of the figure, under the x axis's title (placed against the whole figure, so
    plotly makes room for both)."""
    main, _, detail = title.partition(" — ")
    text = f"{main}<br><sup>{detail}</sup>" if detail else main
    fig.update_layout(title={"text": text, "x": 0.01, "xanchor": "left"}, height=height,
                      margin={"l": 10, "r": 10, "t": 64 if detail else 44, "b": 10}, template=TEMPLATE,
                      legend={"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0},
                      **extra)
    mains = textwrap.wrap(main, NARROW_MAIN_WIDTH) or [main]
    details = textwrap.wrap(detail, NARROW_TITLE_WIDTH)
    phone = {"title.text": "<br>".join(mains) + "".join(f"<br><sup>{line}</sup>" for line in details)}
    if len(mains) > 1 or details:
        phone["margin.t"] = 24 + 24 * len(mains) + 16 * len(details)
    for axis in ("xaxis", "yaxis"):
        axis_title = fig.layout[axis].title.text
        if axis_title and len(axis_title) > NARROW_AXIS_WIDTH:
            phone[f"{axis}.title.text"] = "<br>".join(textwrap.wrap(axis_title, NARROW_AXIS_WIDTH))
    if len(phone) > 1:  # a title that fits one line and short axis titles change nothing
        _narrow(fig, phone)
    return fig


def _narrow(fig: go.Figure, layout: dict | None = None, restyle: dict | None = None,
            traces: list[int] | None = None) -> None:
    """Record changes for a phone in ``layout.meta.narrow`` (static/app.js applies them with
    Plotly.relayout / Plotly.restyle when the figure is narrower than 600 px)."""
    meta = dict(fig.layout.meta or {})
    narrow = dict(meta.get("narrow", {}))
    if layout:
        narrow["layout"] = {**narrow.get("layout", {}), **layout}
    if restyle:
        narrow.setdefault("restyle", []).append({"update": restyle, "traces": traces})
    meta["narrow"] = narrow
    fig.update_layout(meta=meta)


def _empty(fig: go.Figure, message: str = "No games match these filters") -> go.Figure:
    fig.add_annotation(text=message, showarrow=False, xref="paper", yref="paper", x=0.5, y=0.5,
                       font={"size": 14, "color": "#666"})
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    return fig


def _deck_axis(fig: go.Figure, axis: str, decks: list[str]) -> list[str]:
    """Deck names (as the rows have them, in the order drawn) as the categories of an axis: the
    escaped names are the categories, shown wrapped onto lines of LABEL_WIDTH characters, and on a
    phone by their short names ("Zulus"). Returns the categories."""
    categories = [label(d) for d in decks]
    short = short_deck_names(decks)
    # on a slanted x axis a name with a word too long to wrap (a mash-up's) would run off the figure's
    # edge: it is shown by its short name there (a y axis makes room for it)
    shown = [d if axis == "y" or max(map(len, d.split() or [""])) <= LONG_WORD else short[d] for d in decks]
    fig.update_layout({f"{axis}axis": {"tickmode": "array", "tickvals": categories,
                                       "ticktext": [wrapped(label(d)) for d in shown]}})
    _narrow(fig, {f"{axis}axis.ticktext": [label(short[d]) for d in decks]})
    return categories


def _errors(rates: list[dict]) -> tuple[list, list]:
    """(plus, minus) distances from each rate to its interval bounds, for error bars."""
    plus = [None if r["rate"] is None else r["high"] - r["rate"] for r in rates]
    minus = [None if r["rate"] is None else r["rate"] - r["low"] for r in rates]
    return plus, minus


def _interval_text(r: dict) -> str:
    if r["rate"] is None:
        return "no games"
    return f"{percent(r['rate'])} (95% CI {percent(r['low'])}–{percent(r['high'])}), n={r['n']}"


def _evidence_text(evidence: Evidence, thin: bool, min_games: int, even: str) -> str:
    """Why a heatmap cell is faded or not, for its hover."""
    if thin:
        return f"faded: fewer than {min_games} games"
    if evidence.p_value is None:
        return "not tested"
    verdict = "different from" if evidence.different else "faded: not different from"
    return f"{verdict} {even} (p={evidence.p_value:.3g}, after Benjamini–Hochberg {evidence.p_adjusted:.3g})"


def _faded_heatmaps(fig: go.Figure, x: list[str], y: list[str], cells: dict, **common) -> None:
    """A heatmap drawn as two traces on one colour scale: the cells that stand out, in full colour
    (with the colour bar), and the faded ones (thin or not different from even) at low opacity —
    plotly has no per-cell opacity. ``cells``: (y, x) -> (z, text, hover, faded). The colour bar
    goes with the full-colour cells, or with the faded ones when every cell is faded (a trace with
    no cell draws none)."""
    any_clear = any(not cell[3] for cell in cells.values())
    for faded in (False, True):
        def pick(i: int, yv: str, xv: str):
            cell = cells.get((yv, xv))
            return cell[i] if cell is not None and cell[3] == faded else None
        z, text, hover = ([[pick(i, yv, xv) for xv in x] for yv in y] for i in range(3))
        fig.add_heatmap(z=z, x=x, y=y, text=[[t or "" for t in row] for row in text], customdata=hover,
                        texttemplate="%{text}", hoverongaps=False, xgap=1, ygap=1,
                        showscale=faded != any_clear,  # one colour bar, on a trace that has cells
                        opacity=FADED_OPACITY if faded else 1.0, name="faded" if faded else "stands out",
                        # plotly picks white or black text for the full colour, which a faded cell is not
                        textfont={"color": "#333"} if faded else {}, **common)


def matchup_cell(r: dict, evidence: Evidence, min_games: int) -> tuple:
    """A matchup heatmap's cell (for ``_faded_heatmaps``) of a row with ``games``, ``wins``, a
    ``win_rate``, ``mirror`` and ``thin``: the rate, its text with n, its hover (the interval and
    the test) and whether it is faded (thin, or not different from 50%: a mirror is never tested)."""
    rate = r["win_rate"]["rate"]
    if r["mirror"]:
        text, why = f"mirror<br>n={r['games']}", "faded: a mirror match"
    else:
        text, why = f"{100 * rate:.0f}%<br>n={r['games']}", _evidence_text(evidence, r["thin"], min_games, "50%")
    return rate, text, f"{_interval_text(r['win_rate'])}<br>{why}", r["thin"] or not evidence.different


def win_rate_heatmap(fig: go.Figure, x: list[str], y: list[str], cells: dict) -> None:
    """``_faded_heatmaps`` of win rates: 0 to 100% around 50%, "row vs column" in the hover."""
    _faded_heatmaps(fig, x, y, cells, zmin=0, zmax=1, zmid=0.5, colorscale=DIVERGING,
                    colorbar={"title": {"text": "win rate"}, "tickformat": ".0%"},
                    hovertemplate="%{y} vs %{x}<br>%{customdata}<extra></extra>")


def _check_evidence(rows: list[dict], evidence: Sequence[Evidence]) -> None:
    if len(rows) != len(evidence):
        raise ValueError(f"{len(evidence)} tests for {len(rows)} heatmap cells")


# --- meta overview ---------------------------------------------------------------------------


def deck_win_rates(rows: list[dict], min_games: int) -> go.Figure:
    """Horizontal bars of each deck's win rate with its Wilson interval, in the rows' order (the
    query sorts by the interval's lower bound: best first, drawn at the top)."""
    fig = go.Figure()
    rows = [r for r in rows if r["games"] > 0]
    if not rows:
        return _layout(_empty(fig), "Deck win rates")
    rows = list(reversed(rows))  # plotly draws the first category at the bottom
    rates = [r["win_rate"] for r in rows]
    plus, minus = _errors(rates)
    decks = _deck_axis(fig, "y", [r["deck"] for r in rows])
    fig.add_bar(
        y=decks, x=[r["rate"] for r in rates], orientation="h",
        error_x={"type": "data", "symmetric": False, "array": plus, "arrayminus": minus, "thickness": 1.5},
        marker_color=[THIN_COLOUR if r["thin"] else MAIN_COLOUR for r in rows],
        text=[f"n={r['games']}" for r in rows], textposition="inside", insidetextanchor="start",
        customdata=[[_interval_text(r["win_rate"]), r["wins"], r["draws"]] for r in rows],
        hovertemplate="%{y}<br>win rate %{customdata[0]}<br>wins %{customdata[1]}, draws %{customdata[2]}"
                      "<extra></extra>",
        name="win rate")
    fig.add_vline(x=0.5, line_dash="dot", line_color="#888")
    fig.update_xaxes(range=[0, 1], tickformat=".0%", title="win rate, 95% interval")
    return _layout(fig, f"Deck win rates — grey: fewer than {min_games} games", height=max(320, 40 * len(rows) + 120))


def meta_share(rows: list[dict], min_games: int) -> go.Figure:
    """Bars of each deck's share of all seat-games in the filter (play rate)."""
    fig = go.Figure()
    rows = sorted((r for r in rows if r["games"] > 0), key=lambda r: r["meta_share"] or 0)
    if not rows:
        return _layout(_empty(fig), "Meta share")
    decks = _deck_axis(fig, "y", [r["deck"] for r in rows])
    fig.add_bar(y=decks, x=[r["meta_share"] for r in rows], orientation="h",
                marker_color=[THIN_COLOUR if r["thin"] else SECOND_COLOUR for r in rows],
                text=[percent(r["meta_share"]) for r in rows], textposition="auto",
                customdata=[r["games"] for r in rows],
                hovertemplate="%{y}<br>meta share %{x:.1%}<br>%{customdata} seat-games<extra></extra>",
                name="meta share")
    fig.update_xaxes(tickformat=".0%", title="share of seat-games")
    return _layout(fig, f"Meta share (play rate) — grey: fewer than {min_games} games",
                   height=max(320, 36 * len(rows) + 120))


# --- matchups --------------------------------------------------------------------------------


def matchup_matrix(rows: list[dict], min_games: int, evidence: Sequence[Evidence]) -> go.Figure:
    """Deck (rows) × opponent deck (columns) heatmap of the row deck's win rate, decks in
    ``deck_order``. ``evidence``: each row's test against 50% (services.stats.significance,
    Benjamini–Hochberg across the heatmap), in the rows' order. A cell that is thin, a mirror, or
    not different from 50% is faded; the cell shows the rate and n, the hover the interval and
    the test."""
    _check_evidence(rows, evidence)
    fig = go.Figure()
    tested = [(r, e) for r, e in zip(rows, evidence) if r["games"] > 0]
    if not tested:
        return _layout(_empty(fig), "Matchups")
    decks = _deck_axis(fig, "y", deck_order(r["deck"] for r, _ in tested))
    opponents = _deck_axis(fig, "x", deck_order(r["opponent_deck"] for r, _ in tested))
    cells = {(label(r["deck"]), label(r["opponent_deck"])): matchup_cell(r, e, min_games) for r, e in tested}
    win_rate_heatmap(fig, opponents, decks, cells)
    fig.update_xaxes(title="opponent deck", tickangle=-30, side="bottom")
    fig.update_yaxes(title="deck", autorange="reversed")
    _narrow(fig, {"xaxis.tickangle": -90}, {"texttemplate": ""}, [0, 1])  # a phone's cells are too small for text
    return _layout(fig, f"Matchups — the row deck's win rate; faded: under {min_games} games or not clearly ≠ 50%",
                   height=max(420, 48 * len(decks) + 220))


# --- trends ----------------------------------------------------------------------------------


def _by_deck(rows: list[dict]) -> dict[str, list[dict]]:
    """Rows grouped by deck, the decks in ``deck_order``."""
    grouped: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        grouped[r["deck"]].append(r)
    return {deck: grouped[deck] for deck in deck_order(grouped)}


def _colours(decks) -> dict[str, str]:
    """Each deck's colour, by its place in ``deck_order`` (the same deck, the same colour on every
    trend figure and in the deck picker)."""
    return {deck: PALETTE[i % len(PALETTE)] for i, deck in enumerate(decks)}


def _translucent(colour: str, alpha: float) -> str:
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red},{green},{blue},{alpha})"


def _week_axis(fig: go.Figure, rows: list[dict]) -> None:
    """An x axis of ISO weeks: ticks on Mondays, dates as people write them; a single week gets a
    week's room around it (plotly would otherwise zoom to milliseconds)."""
    weeks = sorted({r["week_start"] for r in rows})
    fig.update_xaxes(title="week (Monday)", tickformat="%d %b %Y", tick0="2024-01-01", dtick=7 * 86_400_000)
    if len(weeks) == 1:
        monday, room = dt.date.fromisoformat(weeks[0]), dt.timedelta(days=4)
        fig.update_xaxes(range=[(monday - room).isoformat(), (monday + room).isoformat()])


def trend_meta_share(rows: list[dict]) -> go.Figure:
    """Stacked areas: each deck's share of the week's seat-games."""
    fig = go.Figure()
    if not rows:
        return _layout(_empty(fig), "Meta share by week")
    grouped = _by_deck(rows)
    colours = _colours(grouped)
    for deck, points in grouped.items():
        fig.add_scatter(x=[p["week_start"] for p in points], y=[p["meta_share"] for p in points],
                        mode="lines+markers", stackgroup="share", name=label(deck), line={"color": colours[deck]},
                        customdata=[[p["week"], p["games"]] for p in points],
                        hovertemplate=label(deck) + "<br>%{customdata[0]}: %{y:.1%} (%{customdata[1]} seat-games)"
                                                    "<extra></extra>")
    fig.update_yaxes(tickformat=".0%", title="meta share")
    _week_axis(fig, rows)
    return _layout(fig, "Meta share by week", height=460 + 18 * ((len(grouped) + 1) // 2))


def trend_win_rates(rows: list[dict], min_games: int, drawn: int = DEFAULT_DRAWN) -> go.Figure:
    """Each deck's win rate by week: a line, its 95% interval as a band of the deck's colour, thin
    weeks as hollow markers. A week in which a deck has no counted game has no win rate: its line
    and band break there (never a 0% point, never a line across the gap), and a deck with no
    counted game at all is left out, of the lines and of the picker alike. Only the ``drawn`` decks
    with the most games are drawn at first (ten overlapping bands are unreadable);
    ``layout.meta.picker`` lists every deck drawn with its colour, for the page's deck picker
    (static/app.js), which shows and hides a deck's line and bands."""
    fig = go.Figure()
    grouped = {deck: [p for p in points if p["games"] > 0] for deck, points in _by_deck(rows).items()}
    grouped = {deck: points for deck, points in grouped.items() if points}
    if not grouped:
        return _layout(_empty(fig), "Win rate by week")
    colours = _colours(grouped)
    games = {deck: sum(p["games"] for p in points) for deck, points in grouped.items()}
    shown = set(sorted(grouped, key=lambda d: (-games[d], deck_order(grouped).index(d)))[:drawn])
    for deck, points in grouped.items():
        visible = deck in shown
        for run in _consecutive_weeks(points):
            band_x = [p["week_start"] for p in run]
            band_high, band_low = [p["win_rate"]["high"] for p in run], [p["win_rate"]["low"] for p in run]
            if len(run) == 1:  # one week: the band is a short box around it (a band of one point has no width)
                monday = dt.datetime.fromisoformat(band_x[0])
                band_x = [(monday + dt.timedelta(hours=h)).isoformat() for h in (-36, 36)]
                band_high, band_low = band_high * 2, band_low * 2
            fig.add_scatter(x=band_x + band_x[::-1], y=band_high + band_low[::-1], fill="toself", mode="lines",
                            fillcolor=_translucent(colours[deck], 0.15), line={"width": 0}, hoverinfo="skip",
                            legendgroup=deck, showlegend=False, visible=visible, name=label(deck) + " 95% interval")
        line = _with_gaps(points)
        fig.add_scatter(
            x=[p["week_start"] for p in line], y=[p["win_rate"]["rate"] if "win_rate" in p else None for p in line],
            mode="lines+markers", name=label(deck), legendgroup=deck, visible=visible, connectgaps=False,
            line={"color": colours[deck], "width": 2},
            marker={"symbol": ["circle-open" if p.get("thin") else "circle" for p in line], "size": 9,
                    "line": {"width": 2, "color": colours[deck]}},
            customdata=[[p["week"], _interval_text(p["win_rate"]),
                         f" · thin: fewer than {min_games} games" if p["thin"] else ""] if "win_rate" in p
                        else ["", "", ""] for p in line],
            hovertemplate=label(deck) + "<br>%{customdata[0]}: %{customdata[1]}%{customdata[2]}<extra></extra>")
    fig.add_hline(y=0.5, line_dash="dot", line_color="#888")
    fig.update_yaxes(range=[0, 1], tickformat=".0%", title="win rate")
    _week_axis(fig, rows)
    short = short_deck_names(grouped)
    picker = [{"deck": deck, "short": short[deck], "colour": colours[deck], "games": games[deck],
               "shown": deck in shown} for deck in grouped]
    return _layout(fig, f"Win rate by week — band: 95% interval; hollow: fewer than {min_games} games",
                   height=460, showlegend=False, meta={"picker": picker})


def _consecutive_weeks(points: list[dict]) -> list[list[dict]]:
    """A deck's weeks with counted games (in order), cut into runs of weeks that follow each other."""
    runs: list[list[dict]] = []
    for p in points:
        if runs and _monday(p) - _monday(runs[-1][-1]) == dt.timedelta(days=7):
            runs[-1].append(p)
        else:
            runs.append([p])
    return runs


def _with_gaps(points: list[dict]) -> list[dict]:
    """A deck's weeks with a point with no win rate (``{"week_start"}`` only) in the middle of each
    stretch of weeks without counted games: plotly breaks the line there."""
    out: list[dict] = []
    for p in points:
        if out and _monday(p) - _monday(out[-1]) > dt.timedelta(days=7):
            out.append({"week_start": (_monday(out[-1]) + dt.timedelta(days=7)).isoformat()})
        out.append(p)
    return out


def _monday(point: dict) -> dt.date:
    return dt.date.fromisoformat(point["week_start"][:10])


# --- battlefields ----------------------------------------------------------------------------


def battlefield_impact(rows: list[dict], min_games: int, evidence: Sequence[Evidence]) -> go.Figure:
    """Battlefield × deck heatmap of (deck's win rate with the battlefield in play) − (deck's win
    rate overall), in percentage points, centred on 0. ``evidence``: each row's test of "with the
    battlefield" against "without it" (services.stats.significance, Benjamini–Hochberg across the
    heatmap), in the rows' order; thin cells and cells not different from 0 are faded."""
    _check_evidence(rows, evidence)
    fig = go.Figure()
    tested = [(r, e) for r, e in zip(rows, evidence) if r["games"] > 0 and r["difference"] is not None]
    if not tested:
        return _layout(_empty(fig), "Battlefield impact")
    battlefields = [label(b) for b in sorted({r["battlefield"] for r, _ in tested}, key=lambda b: (b.casefold(), b))]
    decks = _deck_axis(fig, "x", deck_order(r["deck"] for r, _ in tested))
    cells = {}
    for r, e in tested:
        points = 100 * r["difference"]
        hover = (f"here {_interval_text(r['win_rate'])}<br>overall {percent(r['deck_win_rate']['rate'])}"
                 f"<br>difference {signed(points, 1)} points"
                 f"<br>won this battlefield {percent(r['battlefield_win_rate']['rate'])}"
                 f"<br>{_evidence_text(e, r['thin'], min_games, 'its games without it')}")
        cells[(label(r["battlefield"]), label(r["deck"]))] = (
            points, f"{signed(points)}<br>n={r['games']}", hover, r["thin"] or not e.different)
    limit = max([abs(c[0]) for c in cells.values()] + [5])
    _faded_heatmaps(fig, decks, battlefields, cells, zmid=0, zmin=-limit, zmax=limit, colorscale=DIVERGING,
                    colorbar={"title": {"text": "points"}},
                    hovertemplate="%{x} on %{y}<br>%{customdata}<extra></extra>")
    fig.update_xaxes(tickangle=-30, title="deck")
    fig.update_yaxes(autorange="reversed", title="battlefield in play")
    _narrow(fig, {"xaxis.tickangle": -90}, {"texttemplate": ""}, [0, 1])
    return _layout(fig, f"Battlefield impact — points vs the deck's overall rate; faded: under {min_games} games "
                   "or no clear difference",
                   height=max(460, 34 * len(battlefields) + 240))


def battlefield_first_player(rows: list[dict], min_games: int) -> go.Figure:
    """Per battlefield: how often the first player won that battlefield, with interval."""
    fig = go.Figure()
    rows = [r for r in rows if r["games"] > 0]
    if not rows:
        return _layout(_empty(fig), "First player per battlefield")
    rows = sorted(rows, key=lambda r: r["first_player_battlefield_win_rate"]["rate"] or 0)
    rates = [r["first_player_battlefield_win_rate"] for r in rows]
    plus, minus = _errors(rates)
    fig.add_bar(y=[label(r["battlefield"]) for r in rows], x=[r["rate"] for r in rates], orientation="h",
                error_x={"type": "data", "symmetric": False, "array": plus, "arrayminus": minus},
                marker_color=[THIN_COLOUR if r["thin"] else MAIN_COLOUR for r in rows],
                customdata=[[_interval_text(r["first_player_battlefield_win_rate"]),
                             _interval_text(r["first_player_game_win_rate"])] for r in rows],
                hovertemplate="%{y}<br>first player won it: %{customdata[0]}"
                              "<br>first player won the game: %{customdata[1]}<extra></extra>",
                name="first player won the battlefield")
    fig.update_xaxes(range=[0, 1], tickformat=".0%", title="first player won this battlefield")
    return _layout(fig, f"How often the first player wins each battlefield — grey: fewer than {min_games} games",
                   height=max(360, 26 * len(rows) + 140))


# --- first player and game shape -------------------------------------------------------------


def first_player_trend(overall: dict, weeks: list[dict]) -> go.Figure:
    """The first player's game win rate by week with its interval as a band, and the no-advantage
    baseline (1 / players)."""
    fig = go.Figure()
    weeks = [w for w in weeks if w["games"] > 0]
    if not weeks:
        return _layout(_empty(fig), "First-player win rate by week")
    x = [w["week_start"] for w in weeks]
    fig.add_scatter(x=x + x[::-1],
                    y=[w["win_rate"]["high"] for w in weeks] + [w["win_rate"]["low"] for w in weeks][::-1],
                    fill="toself", fillcolor="rgba(59,110,168,0.18)", line={"width": 0}, hoverinfo="skip",
                    name="95% interval")
    fig.add_scatter(x=x, y=[w["win_rate"]["rate"] for w in weeks], mode="lines+markers", name="first player",
                    line={"color": MAIN_COLOUR},
                    marker={"symbol": ["circle-open" if w["thin"] else "circle" for w in weeks]},
                    customdata=[[w["week"], _interval_text(w["win_rate"])] for w in weeks],
                    hovertemplate="%{customdata[0]}: %{customdata[1]}<extra></extra>")
    fig.add_hline(y=overall["baseline"], line_dash="dot", line_color="#888",
                  annotation_text=f"no advantage ({percent(overall['baseline'])})")
    fig.update_yaxes(range=[0, 1], tickformat=".0%", title="first player won the game")
    _week_axis(fig, weeks)
    return _layout(fig, f"First-player win rate by week — overall {_interval_text(overall['win_rate'])}")


def margin_distribution(summary: dict, rows: list[dict]) -> go.Figure:
    """Games per final might margin (0 = draw)."""
    fig = go.Figure()
    if not rows:
        return _layout(_empty(fig), "Final might margins")
    fig.add_bar(x=[r["margin"] for r in rows], y=[r["games"] for r in rows], marker_color=MAIN_COLOUR,
                customdata=[r["share"] for r in rows],
                hovertemplate="margin %{x}: %{y} games (%{customdata:.1%})<extra></extra>", name="games")
    fig.update_xaxes(title="winner's might minus the best other player's (0 = draw)")
    fig.update_yaxes(title="games")
    median = summary["median_margin"]
    mean_margin = summary["mean_margin"]
    return _layout(fig, f"Final might margins — {summary['games']} games, median {median:g}, mean {mean_margin:.1f}"
                   if summary["games"] else "Final might margins")


def might_per_round(rows: list[dict], min_games: int) -> go.Figure:
    """Lines: each deck's average might (over all battlefields) at the end of each round."""
    fig = go.Figure()
    if not rows:
        return _layout(_empty(fig), "Might per round")
    for deck, points in _by_deck(rows).items():
        fig.add_scatter(x=[p["round"] for p in points], y=[p["average_might"] for p in points],
                        mode="lines+markers", name=label(deck),
                        marker={"symbol": ["circle-open" if p["thin"] else "circle" for p in points]},
                        customdata=[[p["games"], p["average_might_won"], p["average_might_lost"]] for p in points],
                        hovertemplate=label(deck) + "<br>round %{x}: %{y:.1f} might (n=%{customdata[0]})"
                                                    "<br>in wins %{customdata[1]:.1f}, in losses %{customdata[2]:.1f}"
                                                    "<extra></extra>")
    fig.update_xaxes(title="round", dtick=1)
    fig.update_yaxes(title="average might at the end of the round")
    return _layout(fig, f"Might per round by deck — hollow: fewer than {min_games} games", height=460)


# --- cards -----------------------------------------------------------------------------------


def card_impact(rows: list[dict], min_games: int) -> go.Figure:
    """Each card: deploy rate (x) against the win-rate difference between games it was deployed in
    and games it was not (y), one colour per deck; thin cards grey."""
    fig = go.Figure()
    rows = [r for r in rows if r["deploy_rate"] is not None and r["difference"] is not None]
    if not rows:
        return _layout(_empty(fig), "Card impact")
    for deck, cards in _by_deck(rows).items():
        fig.add_scatter(
            x=[c["deploy_rate"] for c in cards], y=[100 * c["difference"] for c in cards], mode="markers",
            name=label(deck), text=[label(c["card"]) for c in cards],
            marker={"size": 9, "opacity": [0.35 if c["thin"] else 0.9 for c in cards],
                    "line": {"width": 0.5, "color": "#333"}},
            customdata=[[_interval_text(c["win_rate_deployed"]), _interval_text(c["win_rate_not_deployed"])]
                        for c in cards],
            hovertemplate="%{text} (" + label(deck) + ")<br>deployed in %{x:.0%} of games"
                          "<br>win rate deployed %{customdata[0]}<br>not deployed %{customdata[1]}<extra></extra>")
    fig.add_hline(y=0, line_dash="dot", line_color="#888")
    fig.update_xaxes(tickformat=".0%", title="deploy rate (share of the deck's games)", range=[0, 1.02])
    fig.update_yaxes(title="win rate deployed − not deployed (points)")
    return _layout(fig, f"Card impact — faded: deployed in fewer than {min_games} games", height=500)


# --- events ----------------------------------------------------------------------------------

VERDICT_COLOURS = {"valid": "#4c9a52", "illegal": "#c0392b", "mismatch": "#d9822b", "malformed": "#7f5fa8",
                   "error": "#444444", "pending": "#b8b8b8"}


def event_verdicts(events: list[dict]) -> go.Figure:
    """Stacked bars: games per event by verdict (pending = received, queued or replaying)."""
    fig = go.Figure()
    if not events:
        return _layout(_empty(fig, "No events yet"), "Games per event")
    names = [label(e["name"]) for e in events]
    for verdict, colour in VERDICT_COLOURS.items():
        counts = [e["verdicts"].get(verdict, 0) for e in events]
        if any(counts):
            fig.add_bar(y=names, x=counts, orientation="h", name=verdict, marker_color=colour,
                        hovertemplate="%{y}: %{x} " + verdict + "<extra></extra>")
    fig.update_layout(barmode="stack")
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title="games")
    # an event's name takes half a phone's width on one line
    _narrow(fig, {"yaxis.tickmode": "array", "yaxis.tickvals": names, "yaxis.ticktext": [wrapped(n) for n in names]})
    return _layout(fig, "Games per event by verdict", height=max(300, 28 * len(events) + 140))
