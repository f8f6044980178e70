"""Static assets: plotly.js straight from the installed plotly package, Swagger UI's from the
swagger-ui-py package (the API reference page, dashboards/api_docs.py), and our own CSS/JS."""

from __future__ import annotations

from pathlib import Path

import plotly
import swagger_ui
from flask import Blueprint, abort, send_from_directory

blueprint = Blueprint("assets", __name__, static_folder="static", static_url_path="/static/dash")

PLOTLY_JS_DIR = Path(plotly.__file__).parent / "package_data"
SWAGGER_UI_DIR = Path(swagger_ui.__file__).parent / "static"
# the only files of Swagger UI's distribution the reference page loads
SWAGGER_UI_FILES = {"swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css"}
ONE_DAY = 86_400


@blueprint.get("/static/plotly.min.js")
def plotly_js():
    # The bundle the python package was built against, so figure JSON and renderer always agree.
    return send_from_directory(PLOTLY_JS_DIR, "plotly.min.js", max_age=ONE_DAY,
                               mimetype="text/javascript")


@blueprint.get("/static/swagger-ui/<name>")
def swagger_ui_file(name: str):
    mimetype = SWAGGER_UI_FILES.get(name)
    if mimetype is None:
        abort(404)
    return send_from_directory(SWAGGER_UI_DIR, name, max_age=ONE_DAY, mimetype=mimetype)
