"""Security headers on every answer of the web app (docs/security.md, "Security headers").

Set in one place, an ``after_request`` hook of the API's app factory, so they are on JSON, the
dashboards' pages (mounted on the same app), raw logs, static files and every error (Flask runs the
hook on the answers of error handlers and of before-request hooks too, 401 and 429 included). A
few lines of our own rather than flask-talisman: Talisman's value is its defaults for HTTPS
(redirects, HSTS, secure cookies), and TLS is the reverse proxy's job here; the app has no cookies.

The policy: everything from this origin only, nothing inline but styles, nothing may frame a page.
- ``script-src 'self'``: no inline script and no ``eval`` — the pages load plotly.min.js,
  app.js and replay.js as files and read their data from ``<script type="application/json">``
  blocks, which are data, not script;
- ``style-src 'self' 'unsafe-inline'``: plotly.js writes the styles of its figures and mode bar as
  inline ``style`` attributes and a ``<style>`` element of its own (checked in Chromium:
  without it every figure reports violations); inline style cannot run code, and every piece
  of player text on a page is escaped (Jinja) or set with textContent;
- ``img-src 'self' data: blob:``: the page's empty icon (``data:,``) and plotly's "download as
  PNG", which draws through data: and blob: images;
- ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY`` (for older browsers): no framing,
  so no clickjacking;
- ``Referrer-Policy: same-origin``: a link out of the site does not carry the page's URL (which
  may name an unlisted event);
- ``X-Content-Type-Options: nosniff``: a stored log is served as ``application/json`` and is
  never read as HTML or script, whatever it holds.
"""

from __future__ import annotations

from flask import Flask, Response

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def init_headers(app: Flask) -> None:
    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response
