"""PLACEHOLDER so that this branch (replay-viewer) runs on its own: the real dashboard pages are
written on another branch and replace this file at merge (take theirs).

It provides only what dashboards/templates/base.html needs: the ``pages.meta`` endpoint its brand
link points at, and the app-wide ``page_title`` / ``nav_pages`` / ``nav_args`` defaults.
"""

from __future__ import annotations

from flask import Blueprint, render_template_string

blueprint = Blueprint("pages", __name__, template_folder="templates")

NAV_PAGES: list[tuple[str, str]] = [("pages.meta", "Meta")]


@blueprint.app_context_processor
def navigation() -> dict:
    return {"page_title": "Empyrean Replay", "nav_pages": NAV_PAGES, "nav_args": {}}


@blueprint.get("/meta")  # not "/": that stays a JSON 404 (tests/services/test_api_health.py)
def meta():
    return render_template_string(
        '{% extends "base.html" %}{% block content %}<h1>Meta</h1>'
        "<p>The dashboards are on their way.</p>{% endblock %}")
