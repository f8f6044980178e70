"""Benchmark: how long each dashboard page takes to be fully drawn in a real browser.

    .venv/bin/python tests/bench/bench_pages_browser.py --url http://127.0.0.1:8000 [--repeat 10]
        [--query "event=3"] [--query "battlefield=The Throne"] ...

Not part of the default test run. Against a running service (e.g. `empyrean up`, or the API started
on the 1,000,000-game database tests/bench/bench_dashboards.py leaves with --keep), it opens each
page in headless Debian Chromium (Playwright, /usr/bin/chromium) with a warm cache and measures from
the start of navigation until every figure on the page reports it is drawn (app.js sets
data-rendered once Plotly.newPlot resolves). Prints p50 / p95 in ms per page and query
(DESIGN.md bar: a page fully drawn in ≤ 1.5 s).
"""

from __future__ import annotations

import argparse
import statistics
import time

from playwright.sync_api import sync_playwright

PAGES = ["/meta", "/matchups", "/trends", "/battlefields", "/game-shape", "/cards", "/events"]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
                 "--disable-background-networking", "--disable-component-update"]


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--query", action="append", default=None, help="a query string to add (repeatable)")
    args = parser.parse_args()
    queries = args.query or [""]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        print(f"{'page':<14} {'query':<40} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
        for query in queries:
            for path in PAGES:
                url = f"{args.url}{path}" + (f"?{query}" if query else "")
                page.goto(url)  # warm: plotly.js cached, connection open
                times = []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    page.goto(url)
                    page.wait_for_function(
                        "Array.from(document.querySelectorAll('[data-figure]'))"
                        ".every(el => el.getAttribute('data-rendered') === 'true')", timeout=30_000)
                    times.append(1000 * (time.perf_counter() - start))
                print(f"{path:<14} {query[:40]:<40} {percentile(times, 50):8.0f} {percentile(times, 95):8.0f} "
                      f"{max(times):8.0f}")
        browser.close()


if __name__ == "__main__":
    main()
