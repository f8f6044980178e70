"""The dashboard figure functions on known aggregates: what each draws is checked against numbers
computed here by hand (Wilson bounds from the textbook formula), with no database."""

from __future__ import annotations

import json
import math
from statistics import NormalDist

import pytest

from dashboards import figures
from dashboards.datasets import to_csv
from dashboards.panels import Panel, flatten, rate_cell
from services.stats.intervals import difference, rate

Z = NormalDist().inv_cdf(0.975)


def wilson(k: int, n: int) -> tuple[float, float]:
    p = k / n
    denominator = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denominator
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def deck_row(deck: str, wins: int, games: int, min_games: int = 10, share: float | None = 0.5) -> dict:
    return {"deck": deck, "games": games, "wins": wins, "draws": 0, "win_rate": rate(wins, games),
            "meta_share": share, "thin": games < min_games}


def test_win_rate_bars_carry_the_wilson_interval_and_n():
    # 7 of 10: Wilson 95% interval 0.3968–0.8922 (by hand: centre 0.6046, half-width 0.2477)
    rows = [deck_row("Vampires", 7, 10), deck_row("Cavalry", 2, 8)]  # the query's order: best first
    bars = figures.deck_win_rates(rows, 10).data[0]
    assert list(bars.y) == ["Cavalry", "Vampires"]  # drawn bottom-up: best at the top
    vampires = 1
    assert bars.x[vampires] == pytest.approx(0.7)
    assert bars.x[vampires] + bars.error_x.array[vampires] == pytest.approx(0.8922, abs=5e-5)
    assert bars.x[vampires] - bars.error_x.arrayminus[vampires] == pytest.approx(0.3968, abs=5e-5)
    low, high = wilson(2, 8)
    assert bars.x[0] - bars.error_x.arrayminus[0] == pytest.approx(low)
    assert bars.x[0] + bars.error_x.array[0] == pytest.approx(high)
    assert list(bars.text) == ["n=8", "n=10"]
    assert list(bars.marker.color) == [figures.THIN_COLOUR, figures.MAIN_COLOUR]  # 8 < 10 games: thin


def test_decks_without_games_are_left_out_and_no_games_says_so():
    fig = figures.deck_win_rates([deck_row("Ghosts", 0, 0)], 10)
    assert fig.data == ()
    assert fig.layout.annotations[0].text == "No games match these filters"


def test_meta_share_bars_sorted_by_share():
    rows = [deck_row("A", 5, 10, share=0.25), deck_row("B", 1, 30, share=0.75)]
    bars = figures.meta_share(rows, 10).data[0]
    assert list(bars.y) == ["A", "B"] and list(bars.x) == [0.25, 0.75]
    assert list(bars.text) == ["25.0%", "75.0%"]


def test_matchup_heatmap_values_mirror_and_thin_marks():
    rows = [
        {"deck": "A", "opponent_deck": "B", "mirror": False, "games": 10, "wins": 7, "draws": 0,
         "win_rate": rate(7, 10), "thin": False},
        {"deck": "B", "opponent_deck": "A", "mirror": False, "games": 10, "wins": 3, "draws": 0,
         "win_rate": rate(3, 10), "thin": False},
        {"deck": "A", "opponent_deck": "A", "mirror": True, "games": 4, "wins": 2, "draws": 0,
         "win_rate": rate(2, 4), "thin": True},
    ]
    fig = figures.matchup_matrix(rows, 5)
    heatmap, thin = fig.data
    assert list(heatmap.y) == ["A", "B"] and list(heatmap.x) == ["A", "B"]
    assert [list(r) for r in heatmap.z] == [[0.5, 0.7], [0.3, None]]
    assert heatmap.text[0][0] == "mirror" and heatmap.text[0][1] == "70.0%"
    assert "n=10" in heatmap.customdata[0][1] and "39.7%" in heatmap.customdata[0][1]  # 7/10 low bound
    assert (list(thin.x), list(thin.y)) == (["A"], ["A"])


def test_battlefield_impact_is_the_difference_in_points():
    here, overall = rate(5, 6), rate(7, 10)
    rows = [{"battlefield": "Plains", "deck": "A", "games": 6, "wins": 5, "draws": 0, "win_rate": here,
             "deck_win_rate": overall, "difference": difference(here["rate"], overall["rate"]),
             "battlefield_win_rate": rate(4, 6), "average_might": 10.0, "thin": True}]
    heatmap = figures.battlefield_impact(rows, 30).data[0]
    assert heatmap.z[0][0] == pytest.approx(100 * (5 / 6 - 0.7))  # +13.3 points
    assert heatmap.text[0][0] == "+13"
    assert heatmap.zmid == 0


def test_first_player_band_is_the_interval_and_the_baseline_is_one_over_players():
    weeks = [{"week": "2026-W10", "week_start": "2026-03-02", "games": 10, "first_player_wins": 6, "draws": 0,
              "win_rate": rate(6, 10), "baseline": 0.5, "thin": False},
             {"week": "2026-W11", "week_start": "2026-03-09", "games": 4, "first_player_wins": 1, "draws": 0,
              "win_rate": rate(1, 4), "baseline": 0.5, "thin": True}]
    overall = {"games": 14, "first_player_wins": 7, "draws": 0, "win_rate": rate(7, 14), "baseline": 0.5,
               "thin": False}
    fig = figures.first_player_trend(overall, weeks)
    band, line = fig.data
    assert list(band.y) == pytest.approx([wilson(6, 10)[1], wilson(1, 4)[1], wilson(1, 4)[0], wilson(6, 10)[0]])
    assert list(line.y) == [0.6, 0.25] and list(line.marker.symbol) == ["circle", "circle-open"]
    assert fig.layout.shapes[0].y0 == 0.5


def test_margins_and_rounds():
    summary = {"games": 8, "draws": 1, "mean_margin": 3.5, "median_margin": 3.0, "thin": True}
    rows = [{"margin": 0, "games": 1, "share": 0.125}, {"margin": 3, "games": 7, "share": 0.875}]
    fig = figures.margin_distribution(summary, rows)
    assert list(fig.data[0].x) == [0, 3] and list(fig.data[0].y) == [1, 7]
    assert "median 3" in fig.layout.title.text and "mean 3.5" in fig.layout.title.text
    rounds = [{"deck": "A", "round": r, "games": 10, "average_might": 2.0 * r, "won_games": 5,
               "average_might_won": 3.0 * r, "average_might_lost": 1.0 * r, "average_essence_spent": 2.0,
               "thin": False} for r in (1, 2)]
    line = figures.might_per_round(rounds, 5).data[0]
    assert list(line.x) == [1, 2] and list(line.y) == [2.0, 4.0]


def test_card_impact_plots_deploy_rate_against_the_difference():
    deployed, not_deployed = rate(6, 8), rate(2, 6)
    rows = [{"deck": "A", "card": "Lich", "deploy_rate": 8 / 14, "win_rate_deployed": deployed,
             "win_rate_not_deployed": not_deployed, "difference": difference(deployed["rate"], not_deployed["rate"]),
             "thin": True}]
    dots = figures.card_impact(rows, 30).data[0]
    assert dots.x[0] == pytest.approx(8 / 14) and dots.y[0] == pytest.approx(100 * (0.75 - 1 / 3))
    assert list(dots.marker.opacity) == [0.35]


def test_trends_stack_the_shares_per_deck():
    rows = [{"week": "2026-W10", "week_start": "2026-03-02", "deck": d, "games": g, "wins": 1, "draws": 0,
             "meta_share": s, "win_rate": rate(1, g), "thin": False} for d, g, s in (("A", 3, 0.75), ("B", 1, 0.25))]
    fig = figures.trend_meta_share(rows)
    assert [t.stackgroup for t in fig.data] == ["share", "share"]
    assert [list(t.y) for t in fig.data] == [[0.75], [0.25]]


def test_player_text_in_figures_is_escaped_for_plotly():
    fig = figures.deck_win_rates([deck_row("<b>x</b> & co", 1, 10)], 10)
    assert list(fig.data[0].y) == ["&lt;b&gt;x&lt;/b&gt; &amp; co"]
    events = figures.event_verdicts([{"name": "<i>Open</i>", "verdicts": {"valid": 3}}])
    assert list(events.data[0].y) == ["&lt;i&gt;Open&lt;/i&gt;"]


def test_embedded_figure_json_cannot_close_its_script_element():
    fig = figures.deck_win_rates([deck_row("</script><script>alert(1)//", 1, 10)], 10)
    text = str(Panel("x", "x", fig).figure_json())
    assert "</script" not in text and "<" not in text
    assert json.loads(text)["data"][0]["y"] == ["&lt;/script&gt;&lt;script&gt;alert(1)//"]


def test_csv_flattens_rates_and_defuses_formulas():
    rows = [{"deck": "=HYPERLINK(\"x\")", "games": 10, "win_rate": rate(7, 10)}]
    assert flatten(rows[0])["win_rate_n"] == 10
    text = to_csv(rows)
    header, line = text.splitlines()
    assert header == "deck,games,win_rate,win_rate_low,win_rate_high,win_rate_n,win_rate_successes"
    assert line.startswith("\"'=HYPERLINK(\"\"x\"\")\",10,0.7,0.396")
    assert rate_cell(rate(7, 10)) == "70.0% (39.7%–89.2%)" and rate_cell(rate(0, 0)) == "–"
