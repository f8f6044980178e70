"""The dashboards: server-rendered pages with Plotly figures, mounted on the API's Flask app.

Why Plotly figures in Flask pages and not Dash (docs/dashboards.md has the longer version):
- a page is one GET whose query string *is* the filter state, so every view is a shareable URL
  and the filter form works without any client code;
- the figures are built in Python from the same ``services.stats.queries`` rows the JSON API
  returns (one source of numbers), serialised into the page and drawn by plotly.js, which is
  served from the plotly package itself (no CDN: the machines here reach no other host);
- no second app, callback server or React bundle to run, secure and test.

``init_app(app)`` registers every dashboard blueprint on the API's app; the entry point that composes
the web app calls it (services.platform.entrypoints.api_app).
"""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    from . import api_docs, assets, disputes, elysian, events, games, pages, players, record, replay, steam, titans

    app.register_blueprint(api_docs.blueprint)
    app.register_blueprint(assets.blueprint)
    app.register_blueprint(pages.blueprint)
    app.register_blueprint(games.blueprint)
    app.register_blueprint(titans.blueprint)
    app.register_blueprint(elysian.blueprint)
    app.register_blueprint(steam.blueprint)
    app.register_blueprint(events.blueprint)
    app.register_blueprint(replay.blueprint)
    app.register_blueprint(record.blueprint)
    app.register_blueprint(players.blueprint)
    app.register_blueprint(disputes.blueprint)
