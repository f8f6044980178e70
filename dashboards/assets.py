"""Static assets: plotly.js straight from the installed plotly package, Swagger UI's from the
swagger-ui-py package (the API reference page, dashboards/api_docs.py), and our own CSS/JS —
compressed once and cacheable for a year (docs/performance.md, "Static files").

- **Compressed once per process**, not per request: the first request for a file reads it and makes
  its brotli and gzip encodings (``Asset``), kept in memory; every later request is served the
  bytes as they are. A request gets brotli when it accepts ``br`` (every current browser over HTTPS
  and on localhost), else gzip, else the file as it is; ``Vary: Accept-Encoding`` tells caches so.
  plotly.min.js (4.85 MB) goes over the wire as 1.2 MB (brotli) or 1.46 MB (gzip). Brotli's quality
  is 9, not its maximum 11: 11 saves another 120 KB but takes ~10 s of CPU for plotly.js, in every
  worker process, while the gevent worker serving it answers nobody else; 9 takes ~0.5 s.
- **Cacheable for a year** (``Cache-Control: public, max-age=31536000, immutable``) at a URL that
  names what it holds: plotly.js's URL has the plotly package's version in its path
  (``/static/plotly-6.9.0.min.js``), every other file a hash of its content in ``?v=``. ``url_for``
  adds them (``_versioned_urls``), so a new plotly release or an edited stylesheet is a new URL and
  no browser keeps the old one. A URL without its version (or with an old one) still answers, with
  a one-hour lifetime. An ETag (the content's hash, per encoding) and Last-Modified let a browser
  revalidate with a 304.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import threading
from dataclasses import dataclass, field
from pathlib import Path

import brotli
import plotly
import swagger_ui
from flask import Blueprint, Response, abort, request
from werkzeug.security import safe_join

STATIC_DIR = Path(__file__).parent / "static"
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
PLOTLY_VERSION = plotly.__version__  # the bundle the python package was built against: figures and renderer agree
SWAGGER_UI_DIR = Path(swagger_ui.__file__).parent / "static"
# the only files of Swagger UI's distribution the reference page loads
SWAGGER_UI_FILES = ("swagger-ui-bundle.js", "swagger-ui.css")

ONE_YEAR = 31_536_000  # a versioned URL's lifetime: its content never changes
ONE_HOUR = 3_600  # an unversioned (or outdated) URL's: the file behind it may change with a release
BROTLI_QUALITY = 9  # see the module's docstring
GZIP_LEVEL = 9
ENCODINGS = ("br", "gzip")  # in order of preference (brotli is ~17% smaller on plotly.js)
TEXT_TYPES = {".js": "text/javascript", ".css": "text/css"}  # what is worth compressing

blueprint = Blueprint("assets", __name__)


@dataclass
class Asset:
    """One static file as it is served: its bytes, their hash, and each encoding, made once."""

    path: Path
    mimetype: str
    data: bytes = field(repr=False)
    digest: str  # sha256 of data, hex: the ETag and the ?v= of the URL
    modified: float
    encoded: dict[str, bytes] = field(default_factory=dict, repr=False)

    @classmethod
    def read(cls, path: Path) -> "Asset":
        data = path.read_bytes()
        mimetype = TEXT_TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        asset = cls(path, mimetype, data, hashlib.sha256(data).hexdigest(), path.stat().st_mtime)
        if path.suffix in TEXT_TYPES:
            asset.encoded = {"br": brotli.compress(data, quality=BROTLI_QUALITY, mode=brotli.MODE_TEXT),
                             "gzip": gzip.compress(data, GZIP_LEVEL, mtime=0)}
        return asset

    @property
    def version(self) -> str:
        return self.digest[:12]


_assets: dict[Path, Asset] = {}
_assets_lock = threading.Lock()  # requests at once: gevent greenlets, werkzeug threads in tests


def asset(path: Path) -> Asset:
    """The file at ``path``, read and compressed the first time this process is asked for it."""
    found = _assets.get(path)
    if found is None:
        with _assets_lock:
            found = _assets.get(path)
            if found is None:
                found = _assets[path] = Asset.read(path)
    return found


def serve(item: Asset, versioned: bool) -> Response:
    """``item`` in the best encoding the request accepts, with its caching headers; a 304 when the
    request's If-None-Match / If-Modified-Since says the browser has it."""
    encoding = next((e for e in ENCODINGS if e in item.encoded and request.accept_encodings[e]), None)
    body = item.encoded[encoding] if encoding else item.data
    response = Response(body, mimetype=item.mimetype)
    if encoding:
        response.headers["Content-Encoding"] = encoding
    if item.encoded:
        response.vary.add("Accept-Encoding")
    response.set_etag(f"{item.digest[:32]}-{encoding or 'identity'}")
    response.last_modified = item.modified
    response.cache_control.public = True
    response.cache_control.max_age = ONE_YEAR if versioned else ONE_HOUR
    if versioned:
        response.cache_control.immutable = True
    return response.make_conditional(request)


@blueprint.get("/static/plotly-<version>.min.js")
@blueprint.get("/static/plotly.min.js", defaults={"version": None})
def plotly_js(version: str | None):
    return serve(asset(PLOTLY_JS), versioned=version == PLOTLY_VERSION)


@blueprint.get("/static/swagger-ui/<name>")
def swagger_ui_file(name: str):
    if name not in SWAGGER_UI_FILES:
        abort(404)
    item = asset(SWAGGER_UI_DIR / name)
    return serve(item, versioned=request.args.get("v") == item.version)


@blueprint.get("/static/dash/<path:filename>")
def static(filename: str):
    path = safe_join(str(STATIC_DIR), filename)
    if path is None or not Path(path).is_file():
        abort(404)
    item = asset(Path(path))
    return serve(item, versioned=request.args.get("v") == item.version)


@blueprint.app_url_defaults
def _versioned_urls(endpoint: str, values: dict) -> None:
    """Every URL of an asset that ``url_for`` makes names its version (the module's docstring)."""
    if endpoint == "assets.plotly_js":
        values.setdefault("version", PLOTLY_VERSION)
    elif endpoint == "assets.static" and "filename" in values:
        path = safe_join(str(STATIC_DIR), values["filename"])
        if path is not None and Path(path).is_file():
            values.setdefault("v", asset(Path(path)).version)
    elif endpoint == "assets.swagger_ui_file" and values.get("name") in SWAGGER_UI_FILES:
        values.setdefault("v", asset(SWAGGER_UI_DIR / values["name"]).version)
