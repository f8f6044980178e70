"""Plotly figures built from the rows services.stats.queries returns — pure functions, no I/O.

Conventions every figure follows:
- a rate is drawn with its 95% Wilson interval (error bars or a band) and its n is in the hover;
- rows flagged ``thin`` (n below the page's minimum) are drawn grey / marked, never dropped;
- every label that may come from a player (mash-up deck names) is HTML-escaped: plotly.js renders
  a subset of HTML in text, so a deck called ``<b>x</b>`` must show those characters, not bold;
- an empty filter gives a figure with a "no games" note, not an error.
"""

from __future__ import annotations

import html
from collections import defaultdict

import plotly.graph_objects as go

THIN_COLOUR = "#b8b8b8"
MAIN_COLOUR = "#3b6ea8"
SECOND_COLOUR = "#d9822b"
DIVERGING = "RdBu"
FONT = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"


def label(text: str | None) -> str:
    """A player-supplied string made safe for plotly's HTML-subset text rendering (plotly decodes
    &lt; &gt; &amp; back to characters but shows &quot; as is, so quotes stay quotes)."""
    return html.escape(str(text), quote=False) if text is not None else ""


def percent(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _layout(fig: go.Figure, title: str, *, height: int = 420, **extra) -> go.Figure:
    """Shared look. A title "Main — detail" is drawn as two lines (the detail smaller), so it
    fits a phone's width."""
    main, _, detail = title.partition(" — ")
    text = f"{main}<br><sup>{detail}</sup>" if detail else main
    fig.update_layout(title={"text": text, "x": 0.01, "xanchor": "left"}, height=height,
                      margin={"l": 10, "r": 10, "t": 64 if detail else 44, "b": 10}, font={"family": FONT, "size": 12},
                      template="plotly_white", legend={"orientation": "h", "y": -0.15}, **extra)
    fig.update_xaxes(automargin=True)
    fig.update_yaxes(automargin=True)
    return fig


def _empty(fig: go.Figure, message: str = "No games match these filters") -> go.Figure:
    fig.add_annotation(text=message, showarrow=False, xref="paper", yref="paper", x=0.5, y=0.5,
                       font={"size": 14, "color": "#666"})
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    return fig


def _errors(rates: list[dict]) -> tuple[list, list]:
    """(plus, minus) distances from each rate to its interval bounds, for error bars."""
    plus = [None if r["rate"] is None else r["high"] - r["rate"] for r in rates]
    minus = [None if r["rate"] is None else r["rate"] - r["low"] for r in rates]
    return plus, minus


def _interval_text(r: dict) -> str:
    if r["rate"] is None:
        return "no games"
    return f"{percent(r['rate'])} (95% CI {percent(r['low'])}–{percent(r['high'])}), n={r['n']}"


def _grid(rows: list[dict], row_key: str, row_values: list, column_key: str, column_values: list, cell):
    """(z, text, hover) matrices for a heatmap: ``cell(row) -> (z, text, hover)`` for each row of
    the statistic at (row value, column value); empty cells are (None, "", "no games")."""
    by_key = {(r[row_key], r[column_key]): r for r in rows}
    empty = (None, "", "no games")
    grid = [[cell(by_key[(y, x)]) if (y, x) in by_key else empty for x in column_values] for y in row_values]
    return tuple([[c[i] for c in line] for line in grid] for i in range(3))


def _mark_thin(fig: go.Figure, rows: list[dict], x_key: str, y_key: str, min_games: int) -> None:
    """An ✕ on each heatmap cell with fewer games than the minimum (a trace: the legend explains it)."""
    thin = [r for r in rows if r["thin"]]
    if thin:
        fig.add_scatter(x=[label(r[x_key]) for r in thin], y=[label(r[y_key]) for r in thin], mode="markers",
                        marker={"symbol": "x-thin", "size": 13, "line": {"width": 1.5, "color": "#444"}},
                        name=f"fewer than {min_games} games", hoverinfo="skip")


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
    fig.add_bar(
        y=[label(r["deck"]) for r in rows], x=[r["rate"] for r in rates], orientation="h",
        error_x={"type": "data", "symmetric": False, "array": plus, "arrayminus": minus, "thickness": 1.5},
        marker_color=[THIN_COLOUR if r["thin"] else MAIN_COLOUR for r in rows],
        text=[f"n={r['games']}" for r in rows], textposition="inside", insidetextanchor="start",
        customdata=[[_interval_text(r["win_rate"]), r["wins"], r["draws"]] for r in rows],
        hovertemplate="%{y}<br>win rate %{customdata[0]}<br>wins %{customdata[1]}, draws %{customdata[2]}"
                      "<extra></extra>",
        name="win rate")
    fig.add_vline(x=0.5, line_dash="dot", line_color="#888")
    fig.update_xaxes(range=[0, 1], tickformat=".0%", title="win rate (95% Wilson interval)")
    return _layout(fig, f"Deck win rates — grey: fewer than {min_games} games", height=max(320, 34 * len(rows) + 120))


def meta_share(rows: list[dict], min_games: int) -> go.Figure:
    """Bars of each deck's share of all seat-games in the filter (play rate)."""
    fig = go.Figure()
    rows = sorted((r for r in rows if r["games"] > 0), key=lambda r: r["meta_share"] or 0)
    if not rows:
        return _layout(_empty(fig), "Meta share")
    fig.add_bar(y=[label(r["deck"]) for r in rows], x=[r["meta_share"] for r in rows], orientation="h",
                marker_color=[THIN_COLOUR if r["thin"] else SECOND_COLOUR for r in rows],
                text=[percent(r["meta_share"]) for r in rows], textposition="auto",
                customdata=[r["games"] for r in rows],
                hovertemplate="%{y}<br>meta share %{x:.1%}<br>%{customdata} seat-games<extra></extra>",
                name="meta share")
    fig.update_xaxes(tickformat=".0%", title="share of seat-games")
    return _layout(fig, "Meta share (play rate)", height=max(320, 30 * len(rows) + 120))


# --- matchups --------------------------------------------------------------------------------


def matchup_matrix(rows: list[dict], min_games: int) -> go.Figure:
    """Deck (rows) × opponent deck (columns) heatmap of the row deck's win rate; the hover has n and
    the interval; thin cells carry an ✕ marker (a second trace, so the legend explains it)."""
    fig = go.Figure()
    rows = [r for r in rows if r["games"] > 0]
    if not rows:
        return _layout(_empty(fig), "Matchups")
    decks = sorted({r["deck"] for r in rows})
    opponents = sorted({r["opponent_deck"] for r in rows})
    z, text, hover = _grid(rows, "deck", decks, "opponent_deck", opponents, lambda r: (
        r["win_rate"]["rate"], percent(r["win_rate"]["rate"]) if not r["mirror"] else "mirror",
        _interval_text(r["win_rate"]) + (" · thin" if r["thin"] else "")))
    y = [label(d) for d in decks]
    x = [label(o) for o in opponents]
    fig.add_heatmap(z=z, x=x, y=y, zmin=0, zmax=1, zmid=0.5, colorscale=DIVERGING, text=text,
                    texttemplate="%{text}", customdata=hover, xgap=1, ygap=1,
                    colorbar={"title": "win rate", "tickformat": ".0%"},
                    hovertemplate="%{y} vs %{x}<br>%{customdata}<extra></extra>", name="win rate")
    _mark_thin(fig, rows, "opponent_deck", "deck", min_games)
    fig.update_xaxes(title="opponent deck", tickangle=-30, side="bottom")
    fig.update_yaxes(title="deck", autorange="reversed")
    return _layout(fig, "Matchups — the row deck's win rate against the column deck",
                   height=max(420, 44 * len(decks) + 200))


# --- trends ----------------------------------------------------------------------------------


def _by_deck(rows: list[dict]) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        grouped[r["deck"]].append(r)
    return dict(sorted(grouped.items()))


def trend_meta_share(rows: list[dict]) -> go.Figure:
    """Stacked areas: each deck's share of the week's seat-games."""
    fig = go.Figure()
    if not rows:
        return _layout(_empty(fig), "Meta share by week")
    for deck, points in _by_deck(rows).items():
        fig.add_scatter(x=[p["week_start"] for p in points], y=[p["meta_share"] for p in points],
                        mode="lines", stackgroup="share", name=label(deck),
                        customdata=[[p["week"], p["games"]] for p in points],
                        hovertemplate=label(deck) + "<br>%{customdata[0]}: %{y:.1%} (%{customdata[1]} seat-games)"
                                                    "<extra></extra>")
    fig.update_yaxes(tickformat=".0%", title="meta share")
    fig.update_xaxes(title="week (Monday)")
    return _layout(fig, "Meta share by week", height=460)


def trend_win_rates(rows: list[dict], min_games: int) -> go.Figure:
    """Lines: each deck's win rate by week; thin weeks are hollow markers."""
    fig = go.Figure()
    if not rows:
        return _layout(_empty(fig), "Win rate by week")
    for deck, points in _by_deck(rows).items():
        fig.add_scatter(
            x=[p["week_start"] for p in points], y=[p["win_rate"]["rate"] for p in points],
            mode="lines+markers", name=label(deck),
            marker={"symbol": ["circle-open" if p["thin"] else "circle" for p in points], "size": 7},
            customdata=[[p["week"], _interval_text(p["win_rate"])] for p in points],
            hovertemplate=label(deck) + "<br>%{customdata[0]}: %{customdata[1]}<extra></extra>")
    fig.add_hline(y=0.5, line_dash="dot", line_color="#888")
    fig.update_yaxes(range=[0, 1], tickformat=".0%", title="win rate")
    fig.update_xaxes(title="week (Monday)")
    return _layout(fig, f"Win rate by week — hollow: fewer than {min_games} games", height=460)


# --- battlefields ----------------------------------------------------------------------------


def battlefield_impact(rows: list[dict], min_games: int) -> go.Figure:
    """Battlefield × deck heatmap of (deck's win rate with the battlefield in play) − (deck's win
    rate overall), in percentage points, centred on 0; thin cells marked ✕."""
    fig = go.Figure()
    rows = [r for r in rows if r["games"] > 0]
    if not rows:
        return _layout(_empty(fig), "Battlefield impact")
    battlefields = sorted({r["battlefield"] for r in rows})
    decks = sorted({r["deck"] for r in rows})
    def cell(r: dict) -> tuple:
        if r["difference"] is None:
            return None, "", "no games"
        points = 100 * r["difference"]
        hover = (f"here {_interval_text(r['win_rate'])}<br>overall {percent(r['deck_win_rate']['rate'])}"
                 f"<br>difference {points:+.1f} points"
                 f"<br>won this battlefield {percent(r['battlefield_win_rate']['rate'])}")
        return points, f"{points:+.0f}", hover + (" · thin" if r["thin"] else "")

    z, text, hover = _grid(rows, "battlefield", battlefields, "deck", decks, cell)
    limit = max([abs(v) for row in z for v in row if v is not None] + [5])
    fig.add_heatmap(z=z, x=[label(d) for d in decks], y=[label(b) for b in battlefields], zmid=0,
                    zmin=-limit, zmax=limit, colorscale=DIVERGING, customdata=hover, xgap=1, ygap=1,
                    text=text, texttemplate="%{text}", colorbar={"title": "points"},
                    hovertemplate="%{x} on %{y}<br>%{customdata}<extra></extra>", name="difference")
    _mark_thin(fig, rows, "deck", "battlefield", min_games)
    fig.update_xaxes(tickangle=-30, title="deck")
    fig.update_yaxes(autorange="reversed", title="battlefield in play")
    return _layout(fig, "Battlefield impact — win rate with the battlefield in play minus the deck's overall rate",
                   height=max(460, 28 * len(battlefields) + 220))


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
    fig.update_xaxes(title="week (Monday)")
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
    return _layout(fig, "Might per round by deck", height=460)


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
    fig.update_xaxes(tickformat=".0%", title="deploy rate (games deployed / deck's games)", range=[0, 1.02])
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
    return _layout(fig, "Games per event by verdict", height=max(300, 28 * len(events) + 140))
