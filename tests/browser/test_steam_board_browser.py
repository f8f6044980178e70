"""Spells & Steam's board (static/steam_board.js) in headless Chromium, over the real service: a
self-played 3-player game uploaded and stepped through in the replay viewer, click by click and then
at chosen steps (a wasteland placed, the middle, the end), every hex of the layout drawn with its
terrain, each city's demand tiles, the goods and the train cars by company as the frame has them, and
each company's folio (mana, spent, trains, demand tiles, score, the conductor on its path, the
railyard's spellcars with the printed ones marked, exhausted specialists dimmed), the market and the
awards; and in the recorder's Spells & Steam page, a recorded game opened just before a build over a
transfer, the hexes the build may go on highlighted with their mana, a tap on one writing the line
("P1 builds f4 via e4"). At 1400 and 390 px, failing on any console error; screenshots of both."""

from __future__ import annotations

import json

import pytest
from accessibility import blocking, describe, run_axe
from browser_artifacts import SCREENSHOTS
from browser_pages import WIDTHS, no_sideways_scroll
from test_steam_viewer import NAMES, uploaded_game
from test_titans_board_browser import shoot, wait_ready, watched

from engine.position import position
from engine.seats import as_recorded
from engine.steam.rules import RULES
from engine.timeline import timeline

SIZES = ["desktop", "phone"]

# What the board shows: each hex (its classes, the cars on it by seat, its goods, its city's demand
# tiles, the cost badge over it), each folio's counts, conductor, railyard and specialists, the market, the awards.
BOARD = """(root) => {
  const box = document.querySelector(root);
  const out = {hexes: {}, folios: {}, market: [], awards: []};
  box.querySelectorAll('g.hex').forEach((g) => {
    const cost = box.querySelector(`g.cost[data-hex="${g.dataset.hex}"]`);
    const goods = {};
    g.querySelectorAll('g.good').forEach((d) => { goods[d.dataset.good] = Number(d.dataset.count); });
    out.hexes[g.dataset.hex] = {
      cls: g.getAttribute('class'),
      cars: [...g.querySelectorAll('g.car')].map((c) => Number(c.dataset.seat)),
      goods, demand: [...g.querySelectorAll('g.demand')].map((d) => d.dataset.demand),
      cost: cost ? Number(cost.dataset.cost) : null, line: g.dataset.line || null};
  });
  box.querySelectorAll('.folio').forEach((f) => {
    const counts = {};
    f.querySelectorAll('[data-count]').forEach((c) => { counts[c.dataset.count] = c.querySelector('dd').textContent; });
    out.folios[f.dataset.seat] = {
      counts, conductor: f.querySelector('.path li.here').textContent,
      yard: [...f.querySelectorAll('.yard .slot[data-spellcar]')].map((s) => s.dataset.slot + ' ' + s.dataset.spellcar),
      printed: [...f.querySelectorAll('.yard .slot.printed')].map((s) => s.dataset.slot),
      exhausted: [...f.querySelectorAll('.specialists li.exhausted [data-specialist]')]
        .map((s) => s.dataset.specialist),
      demand: [...f.querySelectorAll('.tile[data-demand]')].map((t) => t.dataset.demand),
      colour: getComputedStyle(f).getPropertyValue('--company').trim()};
  });
  out.market = [...box.querySelectorAll('.market .spellcar')].map((s) => s.dataset.spellcar);
  out.awards = [...box.querySelectorAll('.market .award')].map((s) => s.dataset.award);
  return out;
}"""


def conductor_words(f: dict) -> str:
    at = f["conductor"]
    return "Start" if at == 0 else "End of the Line" if at > f["columns"] else str(at)


def check_drawn(board: dict, frame: dict, layout: list[dict]) -> None:
    """The board draws the frame: every hex of the layout, the cars on each by seat, its goods, its
    city's demand tiles, the wastelands placed; each folio's numbers and parts; the market and awards."""
    assert set(board["hexes"]) == {h["hex"] for h in layout}
    assert sum(len(h["cars"]) for h in board["hexes"].values()) == sum(len(c) for c in frame["cars"].values())
    for h in layout:
        drawn = board["hexes"][h["hex"]]
        assert drawn["cars"] == frame["cars"].get(h["hex"], []), h["hex"]
        assert drawn["goods"] == frame["goods"].get(h["hex"], {}), h["hex"]
        assert drawn["demand"] == [f"{c}-{s}" for c, s in frame["stands"].get(h["hex"], [])], h["hex"]
        assert ("placed" in drawn["cls"].split()) == (h["hex"] in frame["wastelands"]), h["hex"]
        assert f"terrain-{'city' if h['city'] else h['terrain']}" in drawn["cls"] or h["hex"] in frame["wastelands"]
    scores = {s["seat"]: s for s in frame["scores"]}
    for f in frame["companies"]:
        drawn = board["folios"][str(f["seat"])]
        assert drawn["counts"] == {"score": str(scores[f["seat"]]["score"]), "mana": str(f["mana"]),
                                   "spent": str(f["spent"]), "trains": str(f["trains"]),
                                   "demand": str(len(f["demand"]))}, f["seat"]
        assert drawn["conductor"] == conductor_words(f)
        assert drawn["yard"] == [f"{s['slot']} {s['spellcar']}" for s in
                                 sorted(f["railyard"], key=lambda s: (s["slot"][2], s["slot"][0]))]
        assert sorted(drawn["printed"]) == sorted(s["slot"] for s in f["railyard"] if s["printed"])
        assert sorted(drawn["exhausted"]) == sorted(s["key"] for s in f["specialists"].values() if s["exhausted"])
        assert drawn["demand"] == [f"{c}-{s}" for c, s in f["demand"]]
        if f["colour"]:
            assert drawn["colour"].lower() == f["colour"].lower()  # the company's own colour
    assert board["market"] == frame["market"] and board["awards"] == frame["awards"]


@pytest.fixture(scope="module")
def steam_game(app):
    return uploaded_game(app)


@pytest.mark.parametrize("size", SIZES)
def test_a_steam_game_stepped_through_in_the_viewer(bare_site, browser, steam_game, size):
    gid, log = steam_game
    width = WIDTHS[size]["width"]
    context, page, problems = watched(browser, size)
    try:
        page.goto(f"{bare_site}/games/{gid}/replay?step=0")
        page.wait_for_selector("#board.sboard svg.map")
        tl = json.loads(page.text_content("#timeline-data"))
        frames, layout = tl["frames"], tl["battlefields"]
        check_drawn(page.evaluate(BOARD, "#board"), frames[0], layout)
        for k in range(1, 16):  # the companies chosen, headquarters placed, the first turns
            page.click("#step-forward")
            assert page.get_attribute("#replay", "data-step") == str(k)
            check_drawn(page.evaluate(BOARD, "#board"), frames[k], layout)
        built = next(k for k, f in enumerate(frames) if f["decision"] and " builds " in f["decision"]
                     and " via " in f["decision"])
        wasted = next((k for k, f in enumerate(frames) if f["wastelands"]), None)
        middle, last = len(frames) // 2, len(frames) - 1
        for name, k in (("build", built), ("wasteland", wasted), ("mid", middle), ("end", last)):
            if k is None:
                continue
            page.goto(f"{bare_site}/games/{gid}/replay?step={k}")
            page.wait_for_selector("#board.sboard svg.map")
            board = page.evaluate(BOARD, "#board")
            check_drawn(board, frames[k], layout)
            if name == "build":  # the hex just built on, and those transferred over
                words = frames[k]["decision"].split()
                assert "built" in board["hexes"][words[2]]["cls"].split()
                assert all("via" in board["hexes"][h]["cls"].split() for h in words[4:])
            no_sideways_scroll(page, size)
            shoot(page, f"steam-viewer-{name}-{width}")
            if name == "mid":  # the map, the folios and the key read by everyone (axe-core)
                found = blocking(run_axe(page, unfold=False))
                assert not found, describe(found)
        assert frames[last]["over"] and any(f["cars"] for f in frames[last:])
        page.mouse.move(0, 0)
        page.locator("#board g.hex").first.focus()  # a hex is a tab stop; its words under the map
        assert page.inner_text("#board .hex-line").startswith(layout[0]["hex"] + ", ")
        name_box = page.locator("#board g.hex text.name").first.bounding_box()
        assert name_box["height"] >= 8  # hex names readable: the map scrolls rather than shrinks
        assert "Ada" in page.inner_text("#board .folios")
    finally:
        context.close()
    assert not problems, problems


def before_build(seed: int) -> tuple[dict, str]:
    """A recorded 3-player game cut just before its first build that pays for a transfer, and that line."""
    log = as_recorded(RULES.self_play(seed, bot="greedy", players=3, meta={"players": NAMES}))
    frames = timeline(log).to_dict()["frames"]  # frames[k]: the board before line k
    k = next(k for k, d in enumerate(log["decisions"]) if " builds " in d and " via " in d
             and frames[k]["builds"][d.split()[2]]["cost"] > 0)
    cut = {**log, "decisions": log["decisions"][:k]}
    del cut["result"]
    return cut, log["decisions"][k]


@pytest.mark.parametrize("size", SIZES)
def test_a_build_recorded_by_tapping_a_hex(bare_site, browser, size, tmp_path):
    cut, line = before_build(5)
    builds = position(cut).board["builds"]
    target = line.split()[2]
    assert builds[target]["cost"] > 0 and " ".join(builds[target]["via"]) == line.split(" via ")[1]
    path = tmp_path / "steam.json"
    path.write_text(json.dumps(cut))
    done = len(cut["decisions"])
    width = WIDTHS[size]["width"]
    context, page, problems = watched(browser, size)
    try:
        page.goto(f"{bare_site}/steam/record")
        page.set_input_files("#open-log", str(path))
        wait_ready(page, done)
        page.wait_for_selector("#board-view.sboard svg.map.picking")
        board = page.evaluate(BOARD, "#board-view")
        lit = {h: d for h, d in board["hexes"].items() if "buildable" in d["cls"].split()}
        assert set(lit) == set(builds)  # every hex the build may go on, and no other
        assert {h: d["cost"] for h, d in lit.items()} == {h: b["cost"] for h, b in builds.items()}  # before the tap
        assert lit[target]["line"] == line
        assert page.locator("#answers button[data-line]").count() == len(builds) + 1  # the lines too, and skips
        shoot(page, f"steam-record-build-{width}")
        no_sideways_scroll(page, size)
        found = blocking(run_axe(page, unfold=False))  # the hexes to tap are buttons named by their line
        assert not found, describe(found)
        page.click(f"#board-view g.hex[data-hex='{target}']")
        wait_ready(page, done + 1)
        written = page.evaluate("() => JSON.parse(localStorage.getItem(Object.keys(localStorage)"
                                ".find((k) => localStorage.getItem(k).includes(' builds '))))")
        assert written["decisions"][-1] == line
        assert line in page.inner_text("#history-list")
        after = page.evaluate(BOARD, "#board-view")
        seat = int(line[1])
        assert after["hexes"][target]["cars"].count(seat) == 1 + board["hexes"][target]["cars"].count(seat)  # drawn
        shoot(page, f"steam-record-built-{width}")
        if not page.locator("#board-view svg.map.picking").count():  # another point: the generic lines only
            assert page.locator("#board-view g.hex.buildable").count() == 0
            assert page.locator("#answers button[data-line]").count() > 0
    finally:
        context.close()
    assert not problems, problems
    assert SCREENSHOTS.exists()
