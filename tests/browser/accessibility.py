"""axe-core in the browser tests: a page checked for accessibility with its own Content-Security-Policy
in force (never Playwright's bypass_csp). The policy lets a page run scripts from its own origin only,
so axe-core is served from the page's origin: the browser's request for ``/__axe__.js`` is answered by
the test with the ``axe.min.js`` that the axe-playwright-python package ships (only that file is
used), and the page loads it like any of its own scripts. A module of its own, like browser_pages, so
test modules can import it."""

from __future__ import annotations

from importlib import resources

AXE_PATH = "/__axe__.js"
BLOCKING = ("critical", "serious")  # the impacts a page must not have (issue 26: pages everyone can read)
# Every rule axe-core runs by default (WCAG 2.x A and AA, best practice), and its experimental rules
# too: label-content-name-mismatch (WCAG 2.5.3, a control's visible text is part of its name),
# td-has-header, p-as-heading, table-fake-caption, css-orientation-lock ...
EXPERIMENTAL = ["css-orientation-lock", "focus-order-semantics", "hidden-content", "label-content-name-mismatch",
                "p-as-heading", "table-fake-caption", "td-has-header"]
AXE_OPTIONS = {"resultTypes": ["violations"], "rules": {rule: {"enabled": True} for rule in EXPERIMENTAL}}


def axe_source() -> str:
    return (resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


def axe_version(page) -> str:
    return page.evaluate("window.axe ? axe.version : null")


def inject_axe(page) -> None:
    """Load axe-core into ``page`` as a script of the page's own origin (the CSP allows no other)."""
    if page.evaluate("typeof window.axe === 'object'"):
        return
    source = axe_source()
    page.route(f"**{AXE_PATH}", lambda route: route.fulfill(
        status=200, content_type="application/javascript; charset=utf-8", body=source))
    page.add_script_tag(url=AXE_PATH)
    assert page.evaluate("typeof window.axe === 'object'"), "axe-core did not load"


def run_axe(page, exclude: list[str] | None = None, unfold: bool = True) -> list[dict]:
    """axe-core's violations on ``page`` as it is now (every impact), leaving out the parts of the
    page matched by the CSS selectors in ``exclude``. ``unfold``: open every ``<details>`` first (a
    folded table is what a person opens; axe-core checks only what is shown)."""
    inject_axe(page)
    if unfold:
        page.evaluate("document.querySelectorAll('details:not([open])').forEach(d => { d.open = true; })")
    context = {"exclude": [[s] for s in exclude]} if exclude else None
    return page.evaluate("([context, options]) => axe.run(context || document, options).then(r => r.violations)",
                         [context, AXE_OPTIONS])


def blocking(violations: list[dict], allowed: set[str] = frozenset()) -> list[dict]:
    """The violations of a blocking impact, less the rules in ``allowed``."""
    return [v for v in violations if v["impact"] in BLOCKING and v["id"] not in allowed]


def describe(violations: list[dict], targets: int = 4) -> str:
    """Each violation as a person fixing it wants it: rule, impact, nodes, help text, the first few
    target selectors with axe's summary of what is wrong at the first one."""
    lines = []
    for v in violations:
        nodes = v["nodes"]
        lines.append(f"- {v['id']} ({v['impact']}, {len(nodes)} node{'' if len(nodes) == 1 else 's'}): "
                     f"{v['help']} <{v['helpUrl']}>")
        for node in nodes[:targets]:
            lines.append(f"    {' '.join(str(t) for t in node['target'])}")
        if nodes and nodes[0].get("failureSummary"):
            summary = " ".join(nodes[0]["failureSummary"].split())
            lines.append(f"    first: {summary[:300]}")
    return "\n".join(lines)
