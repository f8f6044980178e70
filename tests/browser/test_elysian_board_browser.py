"""Elysian Battlefields' board (static/elysian_board.js) and the recorder's dice pad (static/record_dice.js)
in headless Chromium, over the real service: a self-played 3-player game stepped through in the replay
viewer, click by click, the field growing tile by tile, each territory's units drawn by owner and
kind, to its first attack, whose target is highlighted and whose dice are drawn as the frame's faces;
and in the recorder's Elysian page, a recorded game opened just before a set of three dice, entered
by three taps, then taken back and rolled "for us" from a typed seed, the faces those of the
engine's own generator. At 1400 and 390 px, failing on any console error; screenshots of both."""

from __future__ import annotations

import json

import pytest
from browser_artifacts import SCREENSHOTS
from browser_pages import WIDTHS, no_sideways_scroll
from service_helpers import as_admin, wait_final
from test_titans_board_browser import shoot, wait_ready, watched

from engine.elysian.rules import RULES
from engine.rng import SplitMix64
from engine.seats import as_recorded

NAMES = ["Ada", "Bram", "Cy"]
SIZES = ["desktop", "phone"]

# What the field shows: each territory drawn (its classes) and the unit chips on it by owner, the
# settlements and their holders, the dice drawn, the panels' counts.
FIELD = """() => {
  const out = {hexes: {}, units: {}, settlements: {}, faces: null, panels: {}};
  document.querySelectorAll('.yboard g.hex').forEach((g) => {
    const t = g.dataset.territory;
    out.hexes[t] = {cls: g.getAttribute('class'), label: g.getAttribute('aria-label')};
    g.querySelectorAll('g.units').forEach((u) => {
      (out.units[t] = out.units[t] || {})[u.dataset.owner] = u.dataset.units;
    });
    const s = g.querySelector('g.settlement');
    if (s) out.settlements[t] = [s.dataset.settlement, s.dataset.holder];
  });
  const dice = document.querySelector('.yboard .dice');
  if (dice) out.faces = [...dice.querySelectorAll('svg.die')].map((d) => Number(d.dataset.face));
  document.querySelectorAll('.yboard .panel').forEach((p) => {
    const counts = {};
    p.querySelectorAll('[data-count]').forEach((c) => {
      counts[c.dataset.count] = Number(c.querySelector('dd').textContent);
    });
    out.panels[p.dataset.seat] = counts;
  });
  return out;
}"""
SHORT = {"infantry": "I", "archer": "A", "cavalry": "C"}


def chips(units: dict) -> str:
    return " ".join("H" if k == "hero" else f"{units[k]}{SHORT[k]}"
                    for k in ("infantry", "archer", "cavalry", "hero") if units.get(k))


def check_drawn(field: dict, frame: dict) -> None:
    assert set(field["hexes"]) == {t["territory"] for t in frame["territories"]}  # only the laid ones
    for t in frame["territories"]:
        name = t["territory"]
        assert field["units"].get(name, {}) == {owner: chips(u) for owner, u in t["units"].items()}, name
        if t["settlement"]:
            holder = str(t["settlement_holder"]) if t["settlement_holder"] else "vacant"
            assert field["settlements"][name] == [t["settlement"], holder]
            assert (f"vacant {t['settlement']}" in field["hexes"][name]["label"]) == (holder == "vacant")
        else:
            assert name not in field["settlements"]
    for p in frame["players"]:
        assert field["panels"][str(p["seat"])] == {"conquest": p["conquest"], "territories": p["territories"],
                                                   "kingdom": p["kingdom"], "hand": p["hand"]}
    assert field["faces"] == (frame["dice"]["faces"] if frame["dice"] else None)


@pytest.fixture(scope="module")
def elysian_game(app):
    client = as_admin(app)
    log = RULES.self_play(3, bot="greedy", players=3, meta={"players": NAMES})
    response = client.post("/api/v1/games", data=json.dumps(log), content_type="application/json")
    assert response.status_code == 202, response.get_json()
    gid = response.get_json()["id"]
    assert wait_final(client, gid)["status"] == "valid"
    return gid, log


@pytest.mark.parametrize("size", SIZES)
def test_an_elysian_game_clicked_through_to_an_attack(bare_site, browser, elysian_game, size):
    gid, log = elysian_game
    width = WIDTHS[size]["width"]
    context, page, problems = watched(browser, size)
    try:
        page.goto(f"{bare_site}/games/{gid}/replay?step=0")
        page.wait_for_selector("#board.yboard")
        frames = json.loads(page.text_content("#timeline-data"))["frames"]
        assert page.locator("#board .no-field").count() == 1  # nothing laid yet
        attack = next(k for k, f in enumerate(frames) if f["dice"])
        grown = []
        for k in range(1, attack + 1):
            page.click("#step-forward")
            assert page.get_attribute("#replay", "data-step") == str(k)
            field = page.evaluate(FIELD)
            check_drawn(field, frames[k])
            grown.append(len(field["hexes"]))
            if k == 12 or (len(field["hexes"]) == 3 and grown.count(3) == 1):
                shoot(page, f"elysian-viewer-setup-{k}-{width}")
        assert grown[0] in (0, 3) and sorted(grown) == grown and grown[-1] > 3  # tile by tile
        frame = frames[attack]
        field = page.evaluate(FIELD)
        target = frame["attack"]["target"] if frame["attack"] else frame["dice"]["target"]
        if frame["attack"]:
            assert "target" in field["hexes"][target]["cls"]
            assert all("source" in field["hexes"][t]["cls"] for t in frame["attack"]["from"])
        attack_box = page.inner_text("#board .attack-box")
        assert f"on {target}" in attack_box and NAMES[frame["dice"]["attacker"] - 1] in attack_box
        no_sideways_scroll(page, size)
        page.mouse.move(0, 0)  # the pointer over no hex (it shows that hex's words)
        page.locator("#board g.hex").first.focus()  # a hex is a tab stop; its words under the field
        assert page.inner_text("#board .hex-line").startswith(frames[attack]["territories"][0]["territory"])
        shoot(page, f"elysian-viewer-attack-{width}")
        page.goto(f"{bare_site}/games/{gid}/replay?step={len(frames) // 2}")
        page.wait_for_selector("#board svg.field")
        check_drawn(page.evaluate(FIELD), frames[len(frames) // 2])
        shoot(page, f"elysian-viewer-mid-{width}")
    finally:
        context.close()
    assert not problems, problems


def before_dice(seed: int) -> tuple[dict, str]:
    """A recorded 3-player game cut just before its first set of three dice, and that set's line."""
    log = as_recorded(RULES.self_play(seed, bot="greedy", players=3, meta={"players": NAMES}))
    k = next(k for k, d in enumerate(log["decisions"]) if d.startswith("C dice ") and len(d.split()) == 5)
    cut = {**log, "decisions": log["decisions"][:k]}
    del cut["result"]
    return cut, log["decisions"][k]


def rolled(seed: int, n: int) -> str:
    rng = SplitMix64(seed)
    return "C dice " + " ".join(sorted(str(1 + rng.below(6)) for _ in range(n)))


@pytest.mark.parametrize("size", SIZES)
def test_a_set_of_dice_entered_by_three_taps_and_rolled_for_us(bare_site, browser, size, tmp_path):
    cut, line = before_dice(3)
    path = tmp_path / "elysian.json"
    path.write_text(json.dumps(cut))
    done = len(cut["decisions"])
    width = WIDTHS[size]["width"]
    context, page, problems = watched(browser, size)
    try:
        page.goto(f"{bare_site}/elysian/record")
        page.set_input_files("#open-log", str(path))
        wait_ready(page, done)
        page.wait_for_selector("#dice-pad:not([hidden]) .die-row")
        assert page.locator("#dice-pad .die-row").count() == 3
        assert page.locator("#board-view svg.field").count() == 1  # the field above the lines
        pad = page.locator("#dice-pad").bounding_box()
        assert pad["y"] < WIDTHS[size]["height"] * 1.5  # in reach
        shoot(page, f"elysian-record-dice-{width}")
        no_sideways_scroll(page, size)
        faces = line.split()[2:]
        for die, face in zip((3, 1, 2), faces, strict=True):  # any order of the dice: one line
            page.click(f"#dice-pad .die-row[data-die='{die}'] button[data-face='{face}']")
        wait_ready(page, done + 1)
        written = page.evaluate("() => JSON.parse(localStorage.getItem(Object.keys(localStorage)"
                                ".find((k) => localStorage.getItem(k).includes('C dice'))))")
        assert written["decisions"][-1] == line
        assert page.locator("#board-view.yboard .dice svg.die").count() == 3  # drawn as faces on the board
        shoot(page, f"elysian-record-after-dice-{width}")
        page.click("#undo")
        wait_ready(page, done)
        page.wait_for_selector("#dice-pad:not([hidden]) #roll-for-us")
        page.fill("#dice-seed", "not a seed")
        page.click("#roll-for-us")
        assert "Seed: The seed is a whole number" in page.inner_text("#dice-pad .problem")
        assert page.get_attribute("#dice-seed", "aria-invalid") == "true"
        page.fill("#dice-seed", "20240601")
        page.click("#roll-for-us")
        expected = rolled(20240601, 3)
        if expected != line:  # it would replace the undone set: the page asks first
            page.click("#replace-later")
        wait_ready(page, done + 1)
        assert expected in page.inner_text("#history-list")
        page.click("#undo")
        wait_ready(page, done)
        page.wait_for_selector("#dice-pad:not([hidden]) #roll-for-us")
        assert f"from seed 20240601: {expected}" in page.inner_text("#dice-pad .last-roll")
        assert page.input_value("#dice-seed") != "20240601"  # the next roll goes on from the generator's state
        shoot(page, f"elysian-record-roll-{width}")
    finally:
        context.close()
    assert not problems, problems
    assert SCREENSHOTS.exists()
