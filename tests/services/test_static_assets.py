"""Static files compressed once and cacheable (issue 18, part 7; dashboards/assets.py): brotli or
gzip as the request accepts, a year's lifetime at a URL that names the version, ETag and 304s, and
the same under gunicorn's gevent workers as `empyrean up` runs them. What a browser really moves on
a first visit is measured in tests/browser/test_static_assets_browser.py."""

from __future__ import annotations

import dataclasses
import gzip
import re
import subprocess
import time

import brotli
import pytest
import requests
from service_helpers import child_env, free_port, running_app, stop_process

from dashboards import assets
from services.platform.launcher import api_command

PLOTLY_URL = f"/static/plotly-{assets.PLOTLY_VERSION}.min.js"


@pytest.fixture(scope="module")
def app(config):
    with running_app(config) as app:
        yield app


@pytest.fixture
def client(app):
    return app.test_client()


def test_pages_link_assets_at_urls_that_name_their_version(client):
    page = client.get("/record").get_data(as_text=True) + client.get("/meta").get_data(as_text=True)
    assert f'src="{PLOTLY_URL}"' in page
    for name in ("app.css", "app.js", "board.js", "record.js"):
        version = assets.asset(assets.STATIC_DIR / name).version
        assert f"/static/dash/{name}?v={version}" in page, name
    docs = client.get("/api/docs").get_data(as_text=True)
    for name in assets.SWAGGER_UI_FILES:
        assert f"/static/swagger-ui/{name}?v={assets.asset(assets.SWAGGER_UI_DIR / name).version}" in docs


@pytest.mark.parametrize(("accept", "encoding", "decode"), [
    ("gzip, deflate, br, zstd", "br", brotli.decompress),
    ("gzip, deflate", "gzip", gzip.decompress),
    ("br;q=0, gzip", "gzip", gzip.decompress),
    ("", None, bytes),
])
def test_each_client_gets_the_best_encoding_it_accepts(client, accept, encoding, decode):
    original = assets.PLOTLY_JS.read_bytes()
    response = client.get(PLOTLY_URL, headers={"Accept-Encoding": accept})
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers.get("Content-Encoding") == encoding
    assert "Accept-Encoding" in response.headers["Vary"]
    assert decode(response.get_data()) == original
    assert int(response.headers["Content-Length"]) == len(response.get_data())
    if encoding == "br":
        assert len(response.get_data()) < 1_300_000  # 4.85 MB as it is


def test_versioned_urls_live_a_year_and_others_an_hour(client):
    versioned = client.get(PLOTLY_URL)
    assert versioned.cache_control.max_age == assets.ONE_YEAR and versioned.cache_control.immutable
    for old in ("/static/plotly.min.js", "/static/plotly-0.0.1.min.js"):
        response = client.get(old)
        assert response.status_code == 200 and response.cache_control.max_age == assets.ONE_HOUR, old
        assert not response.cache_control.immutable
    version = assets.asset(assets.STATIC_DIR / "app.css").version
    assert client.get(f"/static/dash/app.css?v={version}").cache_control.max_age == assets.ONE_YEAR
    assert client.get("/static/dash/app.css?v=0ld").cache_control.max_age == assets.ONE_HOUR
    swagger = assets.asset(assets.SWAGGER_UI_DIR / "swagger-ui.css").version
    assert client.get(f"/static/swagger-ui/swagger-ui.css?v={swagger}").cache_control.immutable


def test_a_browser_that_has_the_file_gets_a_304(client):
    first = client.get("/static/dash/app.js", headers={"Accept-Encoding": "br"})
    etag = first.headers["ETag"]
    assert etag.endswith('-br"') and first.headers["Last-Modified"]
    again = client.get("/static/dash/app.js", headers={"Accept-Encoding": "br", "If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    # the gzip encoding is another entity: its own tag
    other = client.get("/static/dash/app.js", headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert other.status_code == 200 and other.headers["ETag"].endswith('-gzip"')
    since = client.get("/static/dash/app.js", headers={"If-Modified-Since": first.headers["Last-Modified"]})
    assert since.status_code == 304


def test_each_file_is_compressed_once_per_process(client):
    client.get(PLOTLY_URL, headers={"Accept-Encoding": "br"})
    made = assets.asset(assets.PLOTLY_JS)
    client.get(PLOTLY_URL, headers={"Accept-Encoding": "gzip"})
    assert assets.asset(assets.PLOTLY_JS) is made and set(made.encoded) == {"br", "gzip"}


@pytest.mark.parametrize("path", ["/static/dash/nothing.js", "/static/dash/../assets.py",
                                  "/static/dash/%2e%2e/pages.py", "/static/swagger-ui/index.html"])
def test_only_the_static_files_are_served(client, path):
    assert client.get(path).status_code == 404


def test_gunicorns_gevent_workers_serve_the_compressed_files(config, tmp_path):
    """As `empyrean up` runs the web app: gunicorn, its gevent workers, services/platform/gunicorn_conf.py."""
    served = dataclasses.replace(config, api_host="127.0.0.1", api_port=free_port())
    log = open(tmp_path / "gunicorn.log", "wb")
    process = subprocess.Popen(api_command(served), env=child_env(served), stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{served.api_port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None and time.monotonic() < deadline, (tmp_path / "gunicorn.log").read_text()
            try:
                if requests.get(f"{base}/api/v1/health", timeout=1).ok:
                    break
            except requests.RequestException:  # not listening yet, or a worker still booting
                time.sleep(0.2)
        page = requests.get(f"{base}/meta", timeout=30).text
        url = re.search(r'src="(/static/plotly-[^"]+)"', page).group(1)
        response = requests.get(base + url, headers={"Accept-Encoding": "br"}, timeout=30, stream=True)
        raw = response.raw.read()
        assert response.headers["Content-Encoding"] == "br" and "immutable" in response.headers["Cache-Control"]
        assert brotli.decompress(raw) == assets.PLOTLY_JS.read_bytes()
        again = requests.get(base + url, headers={"Accept-Encoding": "br", "If-None-Match": response.headers["ETag"]},
                             timeout=30)
        assert again.status_code == 304
    finally:
        assert stop_process(process) in (0, -15), (tmp_path / "gunicorn.log").read_text()[-3000:]
        log.close()
