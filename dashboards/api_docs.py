"""The API reference: ``GET /api/docs``, Swagger UI over the API's own OpenAPI document
(``/api/v1/openapi.json``, services/api/openapi.py), linked from every page's footer.

Swagger UI's files come from the swagger-ui-py package (dashboards/assets.py), never a CDN. Its own
page starts Swagger UI with an inline script, which the site's Content-Security-Policy refuses
(services/api/headers.py), so the page is ours and the start is in static/api_docs.js.
"""

from __future__ import annotations

from flask import Blueprint, render_template

blueprint = Blueprint("api_docs", __name__, template_folder="templates")


@blueprint.get("/api/docs")
def reference():
    return render_template("api_docs.html", page_title="API reference")
