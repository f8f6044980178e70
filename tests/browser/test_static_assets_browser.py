"""What a first visit to /meta moves over the wire (issue 18, part 7): at most 1.5 MB, counted by
Chromium itself (the DevTools protocol's encodedDataLength of every response: headers and body as
received, compressed), and a second visit takes plotly.js from the browser's cache."""

from __future__ import annotations

import time

WIRE_BUDGET = 1_500_000  # bytes: issue 18's "first load of /meta ≤ 1.5 MB over the wire"
# The time printed is over a link like a good home connection (Chromium's throttling: 20 Mbit/s down,
# 20 ms latency), not loopback's, where bytes cost nothing.
LINK = {"offline": False, "latency": 20, "downloadThroughput": 20e6 / 8, "uploadThroughput": 5e6 / 8}


def load_and_count(context, url: str) -> tuple[int, dict[str, dict], float]:
    """Open ``url`` in a new tab of ``context``: (bytes over the wire in all, per URL what came —
    its encoded length, whether from the cache, its Content-Encoding —, seconds until the network is
    idle and a figure is drawn, over ``LINK``)."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", LINK)
    urls: dict[str, str] = {}
    seen: dict[str, dict] = {}

    def sent(event):
        urls[event["requestId"]] = event["request"]["url"]

    def received(event):
        headers = {k.lower(): v for k, v in event["response"]["headers"].items()}
        seen[event["response"]["url"]] = {"encoding": headers.get("content-encoding"), "bytes": 0,
                                          "cached": event["response"].get("fromDiskCache", False)
                                          or event["response"].get("fromMemoryCache", False),
                                          "status": event["response"]["status"]}

    def finished(event):
        url = urls.get(event["requestId"])
        if url in seen:
            seen[url]["bytes"] += int(event["encodedDataLength"])

    def from_cache(event):
        url = urls.get(event["requestId"])
        if url in seen:
            seen[url]["cached"] = True

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.responseReceived", received)
    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.requestServedFromCache", from_cache)
    started = time.perf_counter()
    page.goto(url, wait_until="networkidle")
    page.wait_for_selector(".js-plotly-plot .main-svg")  # a figure was drawn: plotly.js ran
    seconds = time.perf_counter() - started
    page.close()
    return sum(r["bytes"] for r in seen.values()), seen, seconds


def test_the_first_load_of_meta_moves_at_most_1_5_mb_and_plotly_is_cached(site, browser):
    url, _facts = site
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        total, responses, seconds = load_and_count(context, f"{url}/meta")
        for address, r in sorted(responses.items(), key=lambda item: -item[1]["bytes"]):
            print(f"  {r['bytes']:>10,} B  {r['encoding'] or 'identity':8} {address}")
        print(f"first load of /meta: {total:,} bytes over the wire in {len(responses)} responses, {seconds:.2f} s")
        assert total <= WIRE_BUDGET, f"{total:,} bytes > {WIRE_BUDGET:,}"
        [plotly] = [a for a in responses if "plotly" in a and a.endswith(".js")]
        assert responses[plotly]["encoding"] in ("br", "gzip")

        again, second, seconds = load_and_count(context, f"{url}/meta")
        print(f"second load of /meta: {again:,} bytes over the wire, {seconds:.2f} s")
        assert second[plotly]["cached"] and second[plotly]["bytes"] < 1_000, second[plotly]
    finally:
        context.close()
