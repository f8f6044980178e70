"""The dashboard figure functions on known aggregates: what each draws is checked against numbers
computed here by hand (Wilson bounds from the textbook formula), with no database."""

from __future__ import annotations

import json
import math
import re
from statistics import NormalDist

import pytest

from dashboards import figures
from dashboards.datasets import to_csv
from dashboards.panels import Panel, flatten, rate_cell
from services.stats.intervals import difference, rate
from services.stats.significance import battlefield_evidence, matchup_evidence

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


def matchup(deck: str, opponent: str, wins: int, games: int, min_games: int = 5) -> dict:
    return {"deck": deck, "opponent_deck": opponent, "mirror": deck == opponent, "games": games, "wins": wins,
            "draws": 0, "win_rate": rate(wins, games), "thin": games < min_games}


def heatmap_cells(fig) -> dict:
    """(y, x) -> (z, text, hover, faded) of a two-trace faded heatmap."""
    clear, faded = fig.data
    assert (clear.opacity, faded.opacity) == (1.0, figures.FADED_OPACITY)
    any_clear = any(v is not None for row in clear.z for v in row)
    assert (clear.showscale, faded.showscale) == (any_clear, not any_clear)  # one colour bar, drawn
    cells = {}
    for trace, is_faded in ((clear, False), (faded, True)):
        for i, y in enumerate(trace.y):
            for j, x in enumerate(trace.x):
                if trace.z[i][j] is not None:
                    assert (y, x) not in cells  # a cell is drawn by one trace only
                    cells[(y, x)] = (trace.z[i][j], trace.text[i][j], trace.customdata[i][j], is_faded)
    return cells


def test_matchup_heatmap_fades_thin_mirror_and_not_different_cells_and_shows_n():
    rows = [matchup("Vikings of Valhalla", "Zulus of the Mfecane", 20, 20),   # p = 2/2^20: stands out
            matchup("Zulus of the Mfecane", "Vikings of Valhalla", 0, 20),
            matchup("Vikings of Valhalla", "Vikings of Valhalla", 3, 6),       # mirror
            matchup("Zulus of the Mfecane", "Zulus of the Mfecane", 2, 4),     # mirror, thin
            matchup("Vikings of Valhalla", "Azteca & Mexica of Tenochtitlan", 6, 10),  # 60%: could be luck
            matchup("Azteca & Mexica of Tenochtitlan", "Vikings of Valhalla", 4, 4),   # thin (4 < 5)
            matchup("Azteca & Mexica of Tenochtitlan", "Zulus of the Mfecane", 0, 0)]  # no games: no cell
    evidence = matchup_evidence(rows)
    fig = figures.matchup_matrix(rows, 5, evidence)
    cells = heatmap_cells(fig)
    vikings, zulus, azteca = "Vikings of Valhalla", "Zulus of the Mfecane", "Azteca &amp; Mexica of Tenochtitlan"
    assert cells[(vikings, zulus)][:2] == (1.0, "100%<br>n=20") and cells[(vikings, zulus)][3] is False
    assert cells[(zulus, vikings)][:2] == (0.0, "0%<br>n=20") and cells[(zulus, vikings)][3] is False
    assert cells[(vikings, azteca)][3] is True and "not different from 50%" in cells[(vikings, azteca)][2]
    assert cells[(azteca, vikings)][3] is True and "fewer than 5 games" in cells[(azteca, vikings)][2]
    assert cells[(vikings, vikings)][1] == "mirror<br>n=6" and cells[(vikings, vikings)][3] is True
    assert (azteca, zulus) not in cells
    for (y, x), (z, text, hover, _) in cells.items():  # n in the cell and in its hover, with the interval
        n = next(r["games"] for r in rows if (figures.label(r["deck"]), figures.label(r["opponent_deck"])) == (y, x))
        assert f"n={n}" in text and f"n={n}" in hover and "95% CI" in hover
    assert "Benjamini–Hochberg" in cells[(vikings, zulus)][2]
    # premade decks in the one deck order, on both axes
    assert list(fig.data[0].y) == [azteca, vikings, zulus] == list(fig.data[0].x)
    with pytest.raises(ValueError):
        figures.matchup_matrix(rows, 5, evidence[:-1])


def test_heatmap_deck_order_is_the_same_under_every_filter():
    decks = ["Zulus of the Mfecane", "<b>mash</b>", "Cavalry of the Parthian Empire", "apple pie",
             "Knights of the Round Table"]
    rows = [matchup(a, b, 3, 6) for a in decks for b in decks]
    everything = figures.matchup_matrix(rows, 5, matchup_evidence(rows)).data[0]
    assert list(everything.y) == ["Cavalry of the Parthian Empire", "Knights of the Round Table",
                                  "Zulus of the Mfecane", "&lt;b&gt;mash&lt;/b&gt;", "apple pie"]
    assert list(everything.x) == list(everything.y)
    # a filter that leaves two decks out: the others keep their order
    some = [r for r in rows if r["deck"] not in ("Knights of the Round Table", "apple pie")]
    filtered = figures.matchup_matrix(some, 5, matchup_evidence(some)).data[0]
    assert list(filtered.y) == [d for d in everything.y if d not in ("Knights of the Round Table", "apple pie")]
    battlefield = [{"battlefield": bf, "deck": d, "games": 6, "wins": 3, "draws": 0, "win_rate": rate(3, 6),
                    "deck_win_rate": rate(5, 10), "difference": 0.0, "battlefield_win_rate": rate(3, 6),
                    "average_might": 5.0, "thin": False} for bf in ("b", "A") for d in decks]
    impact = figures.battlefield_impact(battlefield, 5, battlefield_evidence(battlefield)).data[0]
    assert list(impact.x) == list(everything.x) and list(impact.y) == ["A", "b"]


def test_signed_numbers_never_show_minus_or_plus_zero():
    assert figures.signed(-0.4) == "0" and figures.signed(0.4) == "0" and figures.signed(-0.0) == "0"
    assert figures.signed(-0.04, 1) == "0.0" and figures.signed(0.04, 1) == "0.0"
    assert figures.signed(-0.6) == "-1" and figures.signed(13.3) == "+13" and figures.signed(-2.25, 1) == "-2.2"
    assert figures.signed(None) == "–"


def test_battlefield_impact_is_the_difference_in_points_faded_unless_clear():
    here, overall = rate(5, 6), rate(7, 10)
    near_zero_here, near_zero_all = rate(70, 100), rate(7003, 10000)  # -0.03 points: "0", not "-0"
    clear_here, clear_all = rate(30, 30), rate(40, 80)             # 30/30 here, 10/50 without it
    rows = [{"battlefield": bf, "deck": "A", "games": h["n"], "wins": h["successes"], "draws": 0, "win_rate": h,
             "deck_win_rate": o, "difference": difference(h["rate"], o["rate"]), "battlefield_win_rate": rate(1, 2),
             "average_might": 10.0, "thin": h["n"] < 30}
            for bf, h, o in (("Plains", here, overall), ("Marsh", near_zero_here, near_zero_all),
                             ("Keep", clear_here, clear_all))]
    evidence = battlefield_evidence(rows)
    fig = figures.battlefield_impact(rows, 30, evidence)
    cells = heatmap_cells(fig)
    assert cells[("Plains", "A")][0] == pytest.approx(100 * (5 / 6 - 0.7))  # +13.3 points
    assert cells[("Plains", "A")][1] == "+13<br>n=6" and cells[("Plains", "A")][3] is True  # thin
    assert cells[("Marsh", "A")][1] == "0<br>n=100" and "difference 0.0 points" in cells[("Marsh", "A")][2]
    assert cells[("Marsh", "A")][3] is True and "not different" in cells[("Marsh", "A")][2]
    assert cells[("Keep", "A")][1] == "+50<br>n=30" and cells[("Keep", "A")][3] is False
    assert fig.data[0].zmid == 0
    for _, text, hover, _ in cells.values():  # no signed zero anywhere a person reads
        assert not re.search(r"[+-]0(\.0+)?(?![.\d])", text + hover), (text, hover)


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
    fig = figures.might_per_round(rounds, 7)
    line = fig.data[0]
    assert list(line.x) == [1, 2] and list(line.y) == [2.0, 4.0]
    assert "hollow: fewer than 7 games" in fig.layout.title.text


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


def test_a_csv_with_no_rows_still_has_its_header():
    assert to_csv([], ["rank", "player"]) == "rank,player\n"
    assert to_csv([]) == ""  # no columns named: nothing to say
    assert to_csv([{"rank": 1, "player": "Ada"}], ["rank", "player"]) == "rank,player\n1,Ada\n"


def test_a_figure_is_as_tall_as_its_rows_need():
    few = figures.deck_win_rates([deck_row(f"Deck {i}", 3, 10) for i in range(2)], 10)
    many = figures.deck_win_rates([deck_row(f"Deck {i}", 3, 10) for i in range(12)], 10)
    assert few.layout.height == 320 and many.layout.height == 40 * 12 + 120


def trend_row(week_start: str, deck: str, wins: int, games: int, min_games: int = 5) -> dict:
    return {"week": f"W{week_start}", "week_start": week_start, "deck": deck, "games": games, "wins": wins, "draws": 0,
            "meta_share": 0.1, "win_rate": rate(wins, games), "thin": games < min_games}


def test_trend_win_rates_draw_bands_for_the_most_played_decks_and_offer_the_rest():
    games = {"Vikings of Valhalla": 40, "Zulus of the Mfecane": 30, "Cavalry of the Parthian Empire": 20,
             "Knights of the Round Table": 3}
    rows = [trend_row(week, deck, played // 2, played)
            for week in ("2026-03-02", "2026-03-09") for deck, n in games.items()
            for played in [n if week == "2026-03-02" else 3]]
    fig = figures.trend_win_rates(rows, 5, drawn=2)
    picker = fig.layout.meta["picker"]
    assert [p["deck"] for p in picker] == ["Cavalry of the Parthian Empire", "Knights of the Round Table",
                                          "Vikings of Valhalla", "Zulus of the Mfecane"]  # deck order
    assert [p["shown"] for p in picker] == [False, False, True, True]  # the two most played
    assert [p["games"] for p in picker] == [23, 6, 43, 33]
    assert [p["short"] for p in picker] == ["Cavalry", "Knights", "Vikings", "Zulus"]  # a phone's chips
    assert fig.layout.showlegend is False  # the picker's chips are the legend
    vikings = [t for t in fig.data if t.legendgroup == "Vikings of Valhalla"]
    band, line = vikings
    first, second = wilson(20, 40), wilson(1, 3)
    assert band.fill == "toself" and list(band.y) == pytest.approx([first[1], second[1], second[0], first[0]])
    assert list(band.x) == ["2026-03-02", "2026-03-09", "2026-03-09", "2026-03-02"]
    assert band.fillcolor.startswith("rgba(") and line.line.color == picker[2]["colour"]
    assert band.visible is True and line.visible is True
    assert all(t.visible is False for t in fig.data if t.legendgroup == "Knights of the Round Table")
    assert list(line.marker.symbol) == ["circle", "circle-open"]  # the second week is thin (3 games)
    assert "n=3" in line.customdata[1][1] and "thin" in line.customdata[1][2] and line.customdata[0][2] == ""
    assert [p["shown"] for p in figures.trend_win_rates(rows, 5, drawn=4).layout.meta["picker"]] == [True] * 4
    # one week only: the axis spans days around it, not milliseconds
    single = figures.trend_win_rates([r for r in rows if r["week_start"] == "2026-03-02"], 5, drawn=2)
    assert list(single.layout.xaxis.range) == ["2026-02-26", "2026-03-06"]
    box = next(t for t in single.data if t.legendgroup == "Vikings of Valhalla" and t.fill == "toself")
    assert list(box.x) == ["2026-02-28T12:00:00", "2026-03-03T12:00:00", "2026-03-03T12:00:00", "2026-02-28T12:00:00"]
    assert list(box.y) == pytest.approx([first[1], first[1], first[0], first[0]])


def test_trend_win_rates_break_at_weeks_without_counted_games_and_leave_out_decks_without_any():
    """A week in which a deck had no counted game is no 0% point, and no line joins the weeks on
    either side of it; a deck without a counted game is neither drawn nor offered."""
    rows = [trend_row("2026-03-02", "Vikings of Valhalla", 5, 10),
            trend_row("2026-03-09", "Vikings of Valhalla", 6, 10),
            trend_row("2026-03-16", "Vikings of Valhalla", 0, 0),  # a row whose games were all taken out
            trend_row("2026-03-23", "Vikings of Valhalla", 4, 10),
            trend_row("2026-03-02", "Zulus of the Mfecane", 0, 0)]
    fig = figures.trend_win_rates(rows, 5)
    assert [p["deck"] for p in fig.layout.meta["picker"]] == ["Vikings of Valhalla"]
    assert {t.legendgroup for t in fig.data} == {"Vikings of Valhalla"}
    bands = [t for t in fig.data if t.fill == "toself"]
    line = next(t for t in fig.data if t.fill != "toself")
    assert [list(b.x) for b in bands] == [["2026-03-02", "2026-03-09", "2026-03-09", "2026-03-02"],
                                         ["2026-03-21T12:00:00", "2026-03-24T12:00:00",  # one week: a box
                                          "2026-03-24T12:00:00", "2026-03-21T12:00:00"]]
    assert list(line.x) == ["2026-03-02", "2026-03-09", "2026-03-16", "2026-03-23"]
    assert list(line.y) == [0.5, 0.6, None, 0.4] and line.connectgaps is False
    assert fig.layout.meta["picker"][0]["games"] == 30
    assert not figures.trend_win_rates([trend_row("2026-03-02", "Zulus of the Mfecane", 0, 0)], 5).data


def test_figures_carry_a_small_template_not_plotlys_default():
    """plotly's "plotly_white" template is ~7.3 kB of JSON in every figure (it styles every trace
    type); the figures carry ``TEMPLATE`` (~0.5 kB) instead. The meta page's win-rate bars for ten
    decks measured 9,169 bytes with the default template and 3,672 with ours."""
    rows = [deck_row(f"Deck {i}", i, 20) for i in range(10)]
    fig = figures.deck_win_rates(rows, 10)
    layout = json.loads(fig.to_json())["layout"]
    assert len(json.dumps(layout["template"])) < 1_000
    assert set(layout["template"]["layout"]) <= {"font", "paper_bgcolor", "plot_bgcolor", "colorway", "hoverlabel",
                                                 "xaxis", "yaxis"}
    assert "data" not in layout["template"]  # no per-trace-type styling
    assert len(fig.to_json()) < 4_500
    for empty in (figures.matchup_matrix([], 5, []), figures.trend_win_rates([], 5), figures.meta_share([], 5)):
        assert len(empty.to_json()) < 2_000


def test_long_deck_names_wrap_on_the_axis_and_stay_whole_in_the_data():
    fig = figures.deck_win_rates([deck_row("Azteca & Mexica of Tenochtitlan", 3, 10)], 10)
    assert list(fig.data[0].y) == ["Azteca &amp; Mexica of Tenochtitlan"]
    assert list(fig.layout.yaxis.ticktext) == ["Azteca &amp;<br>Mexica of<br>Tenochtitlan"]
    assert figures.wrapped("Zulus of the Mfecane", 12) == "Zulus of the<br>Mfecane"
    assert figures.wrapped("<script>alert(1)</script>", 8) == "<script>alert(1)</script>"  # a word is never split


def test_a_deck_name_too_long_to_wrap_is_shortened_on_a_slanted_axis_only():
    nasty = '<script>alert("x")</script>&"'
    rows = [matchup(nasty, "Zulus of the Mfecane", 1, 2), matchup("Zulus of the Mfecane", nasty, 1, 2)]
    layout = figures.matchup_matrix(rows, 5, matchup_evidence(rows)).layout
    assert list(layout.yaxis.ticktext)[1] == figures.label(nasty)  # whole on the y axis
    assert list(layout.xaxis.ticktext)[1] == figures.label('<script>alert("…')
    assert layout.meta["narrow"]["layout"]["xaxis.ticktext"] == ["Zulus", figures.label('<script>alert("…')]
    assert layout.meta["narrow"]["restyle"] == [{"update": {"texttemplate": ""}, "traces": [0, 1]}]


def test_on_a_phone_a_long_title_and_long_axis_titles_are_wrapped():
    fig = figures.go.Figure()
    fig.update_xaxes(title="first player won this battlefield")
    fig = figures._layout(fig, "How often the first player wins each battlefield — grey: fewer than 30 games")
    phone = fig.layout.meta["narrow"]["layout"]
    main = phone["title.text"].split("<br><sup>")[0].split("<br>")
    assert main == ["How often the first player wins", "each battlefield"]
    assert all(len(line) <= figures.NARROW_MAIN_WIDTH for line in main)
    assert phone["xaxis.title.text"] == "first player won this<br>battlefield"
    assert phone["margin.t"] == 24 + 24 * 2 + 16  # room for two lines of title and one of detail
    # whole on a wide screen
    assert fig.layout.title.text.startswith("How often the first player wins each battlefield<br>")
    short = figures._layout(figures.go.Figure(), "Meta share by week")
    assert "narrow" not in (short.layout.meta or {})  # nothing to change on a phone


def test_event_names_wrap_on_a_phone_and_stay_escaped():
    fig = figures.event_verdicts([{"name": "Demo League (simulated games) <b>", "verdicts": {"valid": 3}}])
    phone = fig.layout.meta["narrow"]["layout"]
    assert phone["yaxis.tickvals"] == ["Demo League (simulated games) &lt;b&gt;"]
    assert phone["yaxis.ticktext"] == ["Demo League<br>(simulated<br>games) &lt;b&gt;"]
