"""The dispute desk in headless Chromium, as an organiser uses it: from the event page a dispute leads
to its desk, which shows both uploads side by side and the first decision where their logs part; a
wrong token is refused in words and nothing typed is lost; the organiser's token resolves it, and the
ruling is then on the desk and on the event page. At 1400 px and at 390 px (the uploads one under
the other, no sideways scrolling). Screenshots are kept in test-artifacts/screenshots/."""

from __future__ import annotations

import re

import pytest
from browser_pages import WIDTHS, new_page, no_sideways_scroll
from dispute_logs import disputed_match
from service_helpers import make_token


@pytest.mark.parametrize("size", list(WIDTHS))
def test_an_organiser_settles_a_dispute_at_the_desk(app, bare_site, browser, screenshots, size):
    base = bare_site
    found = disputed_match(app)
    wrong = make_token(app, "organiser", owner="Another Organiser", name="theirs")
    a, b, n = found["a"], found["b"], found["differ_at"]
    px = WIDTHS[size]["width"]
    context, page, problems = new_page(browser, size)
    try:
        page.goto(f"{base}/events/{found['event']}")
        page.click(f"#panel-disputes a:text-is('#{found['id']}')")
        page.wait_for_url(re.compile(rf"/disputes/{found['id']}$"))
        assert "R3 · T14 · Ana vs Bo" in page.locator("#desk-title").text_content()

        # both uploads side by side on a desk, one under the other on a phone
        first, second = page.locator(f"#upload-{a}"), page.locator(f"#upload-{b}")
        box_a, box_b = first.bounding_box(), second.bounding_box()
        if size == "desktop":
            assert box_a["x"] + box_a["width"] <= box_b["x"] and abs(box_a["y"] - box_b["y"]) < 2
        else:
            assert box_a["y"] + box_a["height"] <= box_b["y"]
        assert "Ana wins" in first.locator(".claim").text_content()
        assert "Bo wins" in second.locator(".claim").text_content()
        assert first.locator(".verdict").text_content().strip().startswith("valid")
        assert second.locator(".verdict").text_content().strip().startswith("mismatch")
        assert f"{found['owner']} (organiser, token 'desk')" in first.locator(".uploaded-by").text_content()
        assert first.locator("table.tally tbody tr").count() == 3
        # the first decision where the logs part, with each one's line
        assert f"first differ at decision {n}." in page.locator("#difference .diff-words").text_content()
        rows = page.locator("#difference table.diff tbody tr")
        assert rows.nth(0).locator("td").last.text_content().strip() == found["logs"][0]["decisions"][n - 1]
        assert rows.nth(1).locator("td").last.text_content().strip() == found["logs"][1]["decisions"][n - 1]
        assert f"The rules support game {a}" in page.locator("#support").text_content()
        no_sideways_scroll(page, size)
        page.screenshot(path=str(screenshots / f"dispute-desk-{px}.png"), full_page=True)
        first.screenshot(path=str(screenshots / f"dispute-desk-upload-{px}.png"))
        page.locator("#difference").screenshot(path=str(screenshots / f"dispute-desk-difference-{px}.png"))

        # a wrong token: refused in words, and what was typed is still there
        ruling = f"Game {a} stands: its log is legal and both players signed it."
        page.check(f"#resolve-form input[name=counts][value='{a}']")
        page.fill("#resolution", ruling)
        page.fill("#desk-token", wrong)
        page.click("#resolve-button")
        error = page.locator("#resolve-error")
        error.wait_for(state="visible")
        assert "This token may not resolve this dispute: only the event's organiser or an admin can" in (
            error.text_content())
        assert "belongs to another organiser" in error.text_content()
        assert page.input_value("#resolution") == ruling and page.input_value("#desk-token") == wrong
        assert page.is_checked(f"#resolve-form input[name=counts][value='{a}']")
        # the token is kept in this tab's session storage only
        assert page.evaluate("window.sessionStorage.getItem('empyrean.desk.token')") == wrong
        assert page.evaluate("window.localStorage.length") == 0
        page.locator("#resolve").screenshot(path=str(screenshots / f"dispute-desk-refused-{px}.png"))

        # the organiser's own token resolves it; the page then shows the ruling
        page.fill("#desk-token", found["token"])
        page.click("#resolve-button")
        page.locator("#ruling").wait_for()
        assert page.locator("#ruling .ruling-text").text_content() == ruling
        assert f"resolved by {found['owner']} (organiser, token 'desk')" in page.locator("#ruling").text_content()
        assert page.locator("#resolve-form").count() == 0
        no_sideways_scroll(page, size)
        page.screenshot(path=str(screenshots / f"dispute-desk-resolved-{px}.png"), full_page=True)

        # and on the event page: the ruling, and the dispute linked to its desk
        page.click(f"#desk-status a:text-is('{found['name']}')")
        page.wait_for_url(re.compile(rf"/events/{found['event']}$"))
        row = page.locator("#panel-disputes tbody tr").first
        cells = row.locator("td").all_text_contents()
        assert cells[1] == "resolved" and cells[6] == f"game {a}" and cells[7] == ruling
        assert row.locator("a").first.get_attribute("href") == f"/disputes/{found['id']}"
        no_sideways_scroll(page, size)
        page.locator("#panel-disputes").screenshot(path=str(screenshots / f"dispute-event-ruling-{px}.png"))
    finally:
        context.close()
    assert not problems, problems
