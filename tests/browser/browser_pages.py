"""A page at a person's screen size, watched for script errors and refused content, for the browser
tests that click through a page at both widths, and what the statistics pages' tests read of a page
(its figures drawn with their n, a panel's table) (a module of its own, like browser_artifacts, so
test modules can import it)."""

from __future__ import annotations

import requests

WIDTHS = {"desktop": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}


def new_page(browser, size: str, console_errors: bool = False):
    """(context, page, problems): a fresh context at ``size`` (a phone is touch and mobile) that
    takes downloads; ``problems`` collects JavaScript errors and Content-Security-Policy refusals, and
    with ``console_errors`` every error the console reports (a failed request too)."""
    options = {"viewport": WIDTHS[size], "accept_downloads": True}
    if size == "phone":
        options |= {"is_mobile": True, "has_touch": True}
    context = browser.new_context(**options)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"JavaScript error: {exc}"))
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
    if console_errors:
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    return context, page, problems


def from_game_index(page, base: str, key: str, label: str) -> None:
    """Open game ``key``'s index and follow the link of its statistics page ``label``."""
    page.goto(f"{base}/{key}/")
    page.locator("#stats-pages").get_by_role("link", name=label, exact=True).click()
    page.wait_for_load_state()


def no_sideways_scroll(page, size: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTHS[size]["width"], f"{page.url} is {width}px wide on a {WIDTHS[size]['width']}px screen"


# a statistics panel's table by its headers, as the page has them (textContent: a phone hides some
# columns), and which rows are flagged
TABLE = """id => {
    const table = document.querySelector(`#panel-${id} table`);
    const headers = [...table.querySelectorAll('thead th')].map(th => th.textContent.trim());
    return {headers, rows: [...table.querySelectorAll('tbody tr')].map(tr =>
        [...tr.querySelectorAll('td')].map(td => td.textContent.trim())),
        flagged: [...table.querySelectorAll('tbody tr')].map(tr => tr.classList.contains('flagged'))};
}"""


def check_figures(page, panels) -> None:
    """Each figure of ``panels`` (their ids) is drawn with its n, or says it has nothing to show."""
    for figure in panels:
        page.wait_for_selector(f"#fig-{figure}[data-rendered='true']", timeout=15_000)
        texts = page.evaluate(f"""() => document.getElementById('fig-{figure}').data
            .flatMap(t => [t.text, t.x, t.y, t.hovertemplate, t.customdata].flat(3))
            .filter(v => typeof v === 'string')
            .concat([document.getElementById('fig-{figure}').layout.title.text])""")
        empty = page.evaluate(f"""() => (document.getElementById('fig-{figure}').layout.annotations || [])
            .some(a => a.text.startsWith('No '))""")
        assert empty or any("n=" in t for t in texts), figure  # a figure of nothing says so instead


def shown_rows(page, panel: str, columns: list[str]) -> tuple[list[list[str]], list[bool]]:
    """A panel's table: the cells of ``columns`` (by header) of each row, and which rows are flagged."""
    table = page.evaluate(TABLE, panel)
    at = [table["headers"].index(c) for c in columns]
    return [[row[i] for i in at] for row in table["rows"]], table["flagged"]


def stats_api(base: str, game: str, statistic: str, query: str) -> dict:
    """The answer of /api/v1/stats/<game>/<statistic>?<query> of the site at ``base``."""
    answer = requests.get(f"{base}/api/v1/stats/{game}/{statistic}?{query}", timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def api_rows(body: dict, key, cells) -> list[list[str]]:
    """The rows a statistics table shows of an answer: its list ``key`` (or what ``key(body)`` gives),
    each row's ``cells`` as text."""
    return [[str(c) for c in cells(r)] for r in (key(body) if callable(key) else body[key])]
