"""Titans of Empyrean's board (static/titans_board.js) in headless Chromium, over the real service: the
docs' table game uploaded into a Titans event and stepped through in the replay viewer, each titan
drawn on the hex its frame names, with its facing, damage and stack, the round and phase said once;
a seeded game stepped through to a card put under a stack, every card the log knows drawn face up by
its name, its text on focus; and the first decisions of the table game recorded in the recorder's
Titans page by clicking, the board above the lines with a pending attack's arc and the active
maneuver named. At 1400 and 390 px, failing on any console error; screenshots of both widths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser_artifacts import SCREENSHOTS
from browser_pages import WIDTHS, new_page, no_sideways_scroll
from service_helpers import as_admin, wait_final

from engine.titans.catalog import load
from engine.titans.rules import RULES

TABLE_GAME = Path(__file__).resolve().parents[2] / "docs" / "examples" / "titans-table-game.json"
EVENT = "Titans Board Cup"
SIZES = ["desktop", "phone"]

# What the field shows at this moment: every titan token (its hex, facing, damage and the centre of
# its box), every hex's box, the highlighted hexes, the hazards, the squads' lists and stacks.
FIELD = """() => {
  const box = (node) => { const b = node.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const hexes = {};
  document.querySelectorAll('#board g.hex, #board-view g.hex').forEach((g) => {
    hexes[g.dataset.hex] = box(g.querySelector('polygon'));
  });
  const tokens = {};
  document.querySelectorAll('g.titan').forEach((g) => {
    const b = box(g.querySelector('circle.token'));
    tokens[g.dataset.titan] = {hex: g.dataset.hex, facing: g.dataset.facing, damage: Number(g.dataset.damage),
                               centre: [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2]};
  });
  const listed = {};
  document.querySelectorAll('.squad li[data-titan]').forEach((li) => {
    const stack = li.querySelector('.stack');
    listed[li.dataset.titan] = {where: li.querySelector('.where').textContent,
                                stack: stack ? Number(stack.dataset.count) : null};
  });
  return {hexes, tokens, listed,
          arc: [...document.querySelectorAll('g.hex.arc')].map((g) => g.dataset.hex).sort(),
          attackers: [...document.querySelectorAll('g.hex.attacker')].map((g) => g.dataset.hex).sort(),
          hazards: [...document.querySelectorAll('g.hazard')].map((g) => g.dataset.hazard).sort(),
          reserves: [...document.querySelectorAll('.squad .reserve')].map((s) => Number(s.dataset.count)),
          round: (document.querySelector('#step-now .where') || {}).textContent,
          roundsSaid: (document.body.innerText.match(/Round [0-9]+|Before (round 1|the first round)/g) || []).length};
}"""

# Every stack and reserve as drawn: per place (a titan's "P1 ashmaw", a reserve's "P1 reserve"), top
# first, each card's name when face up (null: face down), and what a face-up card says on hover.
CARDS = """() => {
  const drawn = (span) => [...span.children].filter((c) => !c.classList.contains('count'))
    .map((c) => c.classList.contains('maneuver') ? c.textContent : null);
  const places = {};
  document.querySelectorAll('.squad li[data-titan]').forEach((li) => {
    const stack = li.querySelector('.stack');
    if (stack) places[li.dataset.titan] = drawn(stack);
  });
  document.querySelectorAll('.squad').forEach((box) => {
    places['P' + box.dataset.seat + ' reserve'] = drawn(box.querySelector('.reserve'));
  });
  const titles = {};
  document.querySelectorAll('button.maneuver').forEach((b) => { titles[b.dataset.card] = b.title; });
  return {places, titles};
}"""


def watched(browser, size: str):
    """new_page's page, failing also on any console error."""
    context, page, problems = new_page(browser, size)
    page.on("console", lambda m: problems.append(f"console error: {m.text}") if m.type == "error" else None)
    return context, page, problems


def shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def inside(point, box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def check_drawn(field: dict, frame: dict) -> None:
    """The field draws the frame: each titan on the field a token on its hex, with its facing and
    damage; off the field and dead ones no token, and said so in their squad; stacks and reserves
    counted face down; the hazards; the round and phase."""
    for t in frame["titans"]:
        key = f"P{t['player']} {t['titan']}"
        listed = field["listed"][key]
        if t["alive"] and t["hex"]:
            token = field["tokens"][key]
            assert (token["hex"], token["facing"], token["damage"]) == (t["hex"], t["facing"], t["damage"]), key
            assert inside(token["centre"], field["hexes"][t["hex"]]), f"{key} is not drawn on {t['hex']}"
            assert listed["where"] == f"{t['hex']} {t['facing']}" and listed["stack"] == t["stack"]
        else:
            assert key not in field["tokens"]
            assert listed["where"] == ("off the field" if t["alive"] else "dead")
    assert field["hazards"] == sorted(frame["hazards"])
    assert field["reserves"] == frame["reserve"]
    assert field["round"].startswith(f"Round {frame['round']} · {frame['phase']} phase")
    assert field["roundsSaid"] == 1  # by the step line only, as in Battle for Empyrean's viewer


@pytest.fixture(scope="module")
def titans_game(app):
    """The docs' table game uploaded into a Titans event."""
    client = as_admin(app)
    created = client.post("/api/v1/events", json={"name": EVENT, "game": "titans"})
    assert created.status_code == 201, created.get_json()
    log = json.loads(TABLE_GAME.read_text())
    log["meta"]["event"] = EVENT
    response = client.post("/api/v1/games", data=json.dumps(log), content_type="application/json")
    assert response.status_code == 202, response.get_json()
    gid = response.get_json()["id"]
    assert wait_final(client, gid)["event"] == EVENT
    return gid, log


@pytest.mark.parametrize("size", SIZES)
def test_a_titans_game_stepped_through_in_the_viewer(bare_site, browser, titans_game, size):
    gid, log = titans_game
    context, page, problems = watched(browser, size)
    try:
        page.goto(f"{bare_site}/games/{gid}/replay?step=0")
        page.wait_for_selector("#board svg.field")
        frames = json.loads(page.text_content("#timeline-data"))["frames"]
        assert len(frames) == len(log["decisions"]) + 1
        field = page.evaluate(FIELD)
        assert len(field["hexes"]) == 37
        check_drawn(field, frames[0])
        assert len(field["listed"]) == 8 and not field["tokens"]  # every titan starts off the field
        for k in range(1, len(frames)):
            page.click("#step-forward")
            assert page.get_attribute("#replay", "data-step") == str(k)
            check_drawn(page.evaluate(FIELD), frames[k])
            if k == 5:  # P2 shrill attack P1 ashmaw: the attack just made is shown on the field
                shown = page.evaluate(FIELD)
                assert (shown["attackers"], shown["arc"]) == (["C6"], ["D7"])
                assert shown["tokens"]["P1 ashmaw"]["damage"] > 0
                shoot(page, f"titans-viewer-attack-{WIDTHS[size]['width']}")
        no_sideways_scroll(page, size)
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        check_drawn(page.evaluate(FIELD), frames[1])
        page.goto(f"{bare_site}/games/{gid}/replay?step=24")  # after Shrill flies into the lightning
        page.wait_for_selector("#board svg.field")
        check_drawn(page.evaluate(FIELD), frames[24])
        shoot(page, f"titans-viewer-{WIDTHS[size]['width']}")
    finally:
        context.close()
    assert not problems, problems


@pytest.fixture(scope="module")
def seeded_game(app):
    """A seeded game (every card known from the seed, the whole table's view) in the Titans event."""
    client = as_admin(app)
    log = RULES.self_play(7, bot="greedy", meta={"players": ["Ada", "Bram"], "event": EVENT}, catalog="1")
    response = client.post("/api/v1/games", data=json.dumps(log), content_type="application/json")
    assert response.status_code == 202, response.get_json()
    gid = response.get_json()["id"]
    assert wait_final(client, gid)["status"] == "valid"
    return gid, log


def expected_cards(frame: dict, names: dict) -> dict:
    """Every place of ``frame`` as CARDS reads it: each card named by its catalog name, or None."""
    out = {f"P{t['player']} {t['titan']}": [names[k] if k else None for k in t["known"]]
           for t in frame["titans"] if t["alive"]}
    out |= {f"P{p} reserve": [names[k] if k else None for k in known]
            for p, known in enumerate(frame["reserve_known"], 1)}
    return out


@pytest.mark.parametrize("size", SIZES)
def test_known_cards_are_drawn_face_up_with_their_names(bare_site, browser, seeded_game, size):
    gid, log = seeded_game
    maneuvers = load(log["catalog"]).maneuvers
    names = {k: m.name for k, m in maneuvers.items()}
    under = log["decisions"].index("P1 goldcrest replenish in") + 1  # the reserve's top under Goldcrest's stack
    context, page, problems = watched(browser, size)
    try:
        page.goto(f"{bare_site}/games/{gid}/replay?step=0")
        page.wait_for_selector("#board svg.field")
        frames = json.loads(page.text_content("#timeline-data"))["frames"]
        for _ in range(under):
            page.click("#step-forward")
        assert page.get_attribute("#replay", "data-step") == str(under)
        frame = frames[under]
        assert frame["decision"] == "P1 goldcrest replenish in"
        goldcrest = next(t for t in frame["titans"] if t["titan"] == "goldcrest")
        bottom = goldcrest["known"][-1]
        assert bottom and bottom == frames[under - 1]["reserve_known"][0][0]  # the reserve's top, now under
        shown = page.evaluate(CARDS)
        assert shown["places"] == expected_cards(frame, names)  # a seeded game: every card face up, by name
        assert None not in shown["places"]["P1 goldcrest"] and shown["places"]["P1 goldcrest"][-1] == names[bottom]
        assert page.locator("#board .squad .back").count() == 0
        card = page.locator("li[data-titan='P1 goldcrest'] .stack button.maneuver").last
        assert card.text_content() == names[bottom] and maneuvers[bottom].text in card.get_attribute("title")
        card.focus()
        assert maneuvers[bottom].text in page.text_content("#board .card-line")  # its text on focus
        for button in page.locator("#board button.maneuver").all():  # each name fits its card
            assert button.evaluate("b => b.scrollWidth <= b.clientWidth + 1"), button.text_content()
        no_sideways_scroll(page, size)
        width = WIDTHS[size]["width"]
        shoot(page, f"titans-viewer-known-{width}")
        page.locator("#board .squads").screenshot(path=str(SCREENSHOTS / f"titans-viewer-known-squads-{width}.png"))
        page.click("#step-forward")  # and the next frame is drawn from its own data
        assert page.evaluate(CARDS)["places"] == expected_cards(frames[under + 1], names)
    finally:
        context.close()
    assert not problems, problems


def wait_ready(page, count: int) -> None:
    page.wait_for_selector(f"#record[data-busy=false][data-count='{count}']", state="attached")


def click_line(page, line: str, done: int) -> int:
    """Click ``line`` (or see that the engine took it by itself); the decisions the page has after it."""
    wait_ready(page, done)
    button = page.locator(f"#answers button[data-line='{line}']")
    if button.count() == 0:
        assert line in page.inner_text("#forced"), line
        return done
    button.click()
    wait_ready(page, done + 1)
    return done + 1


@pytest.mark.parametrize("size", SIZES)
def test_a_titans_game_recorded_by_clicking_under_its_board(bare_site, browser, size):
    log = json.loads(TABLE_GAME.read_text())
    width = WIDTHS[size]["width"]
    context, page, problems = watched(browser, size)
    try:
        page.goto(f"{bare_site}/titans/record")
        page.fill("#player-1", "Ada")
        page.fill("#player-2", "Bram")
        page.fill("#catalog", log["catalog"])  # the table game is catalog 1's; the form offers the newest
        page.fill("#setup-json", json.dumps(log["setup"]))
        page.click("#start")
        page.wait_for_selector("#record[data-screen=game][data-busy=false] #board-view svg.field")
        field = page.evaluate(FIELD)
        assert not field["tokens"] and field["hazards"] == sorted(load(log["catalog"]).layouts["ring"])
        squads = page.locator("#board-view details.squads-box")
        assert squads.evaluate("d => d.open") == (size == "desktop")  # folded on a phone, the answers in reach
        assert "Ada" in squads.text_content() and "dragon" in squads.text_content()
        done = 0
        for line in log["decisions"][:4]:  # Ashmaw enters, plays Braced Wings; Shrill enters facing it
            done = click_line(page, line, done)
        field = page.evaluate(FIELD)
        assert field["roundsSaid"] == 1  # by the counts above the lines only
        assert field["tokens"]["P1 ashmaw"]["hex"] == "D7" and field["tokens"]["P2 shrill"]["hex"] == "C6"
        catalog = load(log["catalog"])
        active = page.locator("li[data-titan='P1 ashmaw'] .active button.maneuver")  # named once the catalog came
        active.wait_for(state="attached")  # (in the squads, folded on a phone)
        assert active.text_content() == "Braced Wings"
        assert catalog.maneuvers["braced-wings"].text in active.get_attribute("title")
        assert page.locator("li[data-titan='P1 ashmaw'] .stack .back").count() == catalog.titans["ashmaw"].stack - 1
        assert inside(field["tokens"]["P2 shrill"]["centre"], field["hexes"]["C6"])
        # Shrill may attack: its arc is the hexes of the titans the legal attack lines name
        assert page.locator("#answers button[data-line='P2 shrill attack P1 ashmaw']").count() == 1
        assert (field["attackers"], field["arc"]) == (["C6"], ["D7"])
        # on a phone the field fits and the answers are within a screen of it
        svg = page.locator("#board-view svg.field").bounding_box()
        answers = page.locator("#answers").bounding_box()
        assert svg["width"] <= width and answers["y"] - svg["y"] < WIDTHS[size]["height"]
        no_sideways_scroll(page, size)
        page.locator("#board-view").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"titans-record-arc-{width}.png"))
        done = click_line(page, "P2 shrill attack P1 ashmaw", done)
        field = page.evaluate(FIELD)
        assert field["tokens"]["P1 ashmaw"]["damage"] > 0
        assert "P2 shrill attack P1 ashmaw" not in [b.get_attribute("data-line")
                                                    for b in page.locator("#answers button.answer").all()]
        assert field["arc"] == []  # no attack is pending any more
        shoot(page, f"titans-record-{width}")
    finally:
        context.close()
    assert not problems, problems
