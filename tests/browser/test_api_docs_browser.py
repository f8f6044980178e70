"""The API reference (/api/docs): reached from a page's footer, Swagger UI drawn from the service's
own OpenAPI document and files, nothing fetched from another host, no script the CSP refuses."""

from __future__ import annotations

import pytest

from services.api.openapi import document

HTTP_METHODS = {"get", "put", "post", "delete", "patch"}


@pytest.mark.parametrize("viewport", ["page", "phone"])
def test_the_footer_opens_the_api_reference_and_an_operation_unfolds(bare_site, viewport, request, screenshots):
    page = request.getfixturevalue(viewport)
    hosts: list[str] = []
    page.on("request", lambda r: hosts.append(r.url.split("/")[2]))
    page.goto(f"{bare_site}/meta")
    page.get_by_role("link", name="API reference").click()
    page.wait_for_url("**/api/docs")
    operation = page.locator(".opblock", has=page.locator("[data-path='/positions']"))
    operation.first.wait_for()
    operations = sum(1 for item in document()["paths"].values() for method in item if method in HTTP_METHODS)
    assert page.locator(".opblock").count() == operations  # every operation of /api/v1 is listed
    operation.first.locator(".opblock-summary-control").click()
    page.get_by_text("Request body").first.wait_for()
    page.screenshot(path=str(screenshots / f"api-reference-{viewport}.png"))  # what a person sees first
    assert set(hosts) == {bare_site.split("/")[2]}  # no CDN, no validator badge
    wide = page.evaluate("document.scrollingElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"the page scrolls sideways: {wide} px"
