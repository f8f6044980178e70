"""Static assets: plotly.js straight from the installed plotly package, and our own CSS/JS."""

from __future__ import annotations

from pathlib import Path

import plotly
from flask import Blueprint, send_from_directory

blueprint = Blueprint("assets", __name__, static_folder="static", static_url_path="/static/dash")

PLOTLY_JS_DIR = Path(plotly.__file__).parent / "package_data"
ONE_DAY = 86_400


@blueprint.get("/static/plotly.min.js")
def plotly_js():
    # The bundle the python package was built against, so figure JSON and renderer always agree.
    return send_from_directory(PLOTLY_JS_DIR, "plotly.min.js", max_age=ONE_DAY,
                               mimetype="text/javascript")
