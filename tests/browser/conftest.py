"""Browser tests: the dashboards in a real headless Chromium (Debian's /usr/bin/chromium, driven by
Playwright — never a browser Playwright downloads), served over real HTTP by the app, over a
database that the real worker filled from a simulated tournament.

Screenshots of every page go to test-artifacts/screenshots/ (kept after the run).
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "services"))

from browser_artifacts import SCREENSHOTS  # noqa: E402
from service_fixtures import *  # noqa: E402,F401,F403  (the real servers, worker and app)
from service_helpers import as_admin, served_at  # noqa: E402
from tournament import load_tournament  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
# As root in a container Chromium needs --no-sandbox; the rest keeps it off the (closed) network.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
                 "--disable-background-networking", "--disable-component-update"]


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Where a test keeps a screenshot of its own choosing (test-artifacts/screenshots/)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="module")
def site(app):
    """The app over real HTTP with the tournament loaded: (base URL, facts)."""
    facts = load_tournament(as_admin(app))
    with served_at(app) as url:
        yield url, facts


@pytest.fixture(scope="module")
def bare_site(app):
    """The app over real HTTP, without the tournament (the recorder and the API reference need none)."""
    with served_at(app) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: infra/test.sh installs Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def csp_violations(messages) -> list[str]:
    """The console messages among ``messages`` in which Chromium reports that the page's Content
    Security Policy refused something ("Refused to execute inline script because it violates the
    following Content Security Policy directive: …")."""
    return [f"CSP violation: {m.text}" for m in messages if "Content Security Policy" in m.text]


@contextmanager
def _watched_page(browser, request, **context_options):
    """A fresh page that fails the test on any JavaScript error, alert dialog or Content Security
    Policy violation reported on the console, and leaves a screenshot named after the test."""
    context = browser.new_context(accept_downloads=True, **context_options)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"JavaScript error: {exc}"))
    page.on("dialog", lambda dialog: (problems.append(f"dialog opened: {dialog.message}"), dialog.dismiss()))
    page.on("console", lambda message: problems.extend(csp_violations([message])))
    yield page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = request.node.name.replace("/", "_").replace("[", "-").replace("]", "")
    try:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    finally:
        context.close()
    assert not problems, problems


@pytest.fixture
def page(browser, request):
    """A desktop-sized page (1280 × 900)."""
    with _watched_page(browser, request, viewport={"width": 1280, "height": 900}) as page:
        yield page


@pytest.fixture
def phone(browser, request):
    """A phone-sized page (390 × 844, touch)."""
    with _watched_page(browser, request, viewport={"width": 390, "height": 844}, is_mobile=True,
                       has_touch=True) as page:
        yield page
