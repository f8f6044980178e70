"""Helpers shared by the service tests (imported by name: pytest puts this folder on sys.path)."""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import subprocess
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import psutil
import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from services.platform.config import Config

REPO_ROOT = Path(__file__).resolve().parents[2]


def create_fresh_database(server_url: str) -> str:
    """A new, empty database on the server at ``server_url``; returns its URL."""
    name = f"empyrean_test_{os.getpid()}_{secrets.token_hex(4)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return make_conninfo(server_url, dbname=name)


def drop_database(url: str) -> None:
    name = conninfo_to_dict(url)["dbname"]
    with psycopg.connect(make_conninfo(url, dbname="postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def child_env(config: Config | None = None, **extra: str) -> dict[str, str]:
    """Environment for a subprocess: this checkout importable, DATABASE_URL / REDIS_URL only as
    ``config`` says (none: the child starts embedded servers), plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    if config is not None:
        env.update(config.environment())
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


def stop_process(process: subprocess.Popen, timeout: float = 30) -> int:
    if process.poll() is None:
        process.terminate()
        try:
            return process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
    return process.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_json(url: str, timeout: float = 10) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def processes_mentioning(text: str) -> list[psutil.Process]:
    """Live (not zombie) processes whose command line contains ``text``."""
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        try:
            if proc.info["status"] != psutil.STATUS_ZOMBIE and text in " ".join(proc.info["cmdline"] or []):
                found.append(proc)
        except psutil.NoSuchProcess:
            continue
    return found


FINAL = {"valid", "illegal", "mismatch", "malformed", "error"}


def wait_final(client, game_id: int, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(f"/api/v1/games/{game_id}").get_json()
        if body["status"] in FINAL:
            return body
        assert time.monotonic() < deadline, f"game {game_id} still {body['status']}: {body['message']}"
        time.sleep(0.1)


@contextmanager
def running_app(config: Config):
    """The API app for ``config``; its connection pool and Redis client are closed afterwards."""
    from services.platform.entrypoints import api_app

    app = api_app(config)
    try:
        yield app
    finally:
        app.extensions["empyrean"].close()


# --- games as people write them at a table (engine.seats) -------------------------------------------


def ended_early(seed: int, meta: dict, rnd: int, result: dict, concede: str | None = None) -> dict:
    """A self-played game written as a table writes it (every card named), stopped in round ``rnd``
    (at the first line written while that round is played) by a concession (``concede``: the line,
    e.g. 'P2 concede') or by time, claiming ``result``."""
    from engine.bfe.selfplay import self_play
    from engine.seats import as_recorded
    from engine.timeline import timeline

    log = as_recorded(self_play(seed, meta=meta))
    first = next(f["line"] for f in timeline(log).frames[1:] if f["round"] == rnd)
    return {**log, "decisions": log["decisions"][:first + 1] + ([concede] if concede else []), "result": result}



# --- API tokens in tests (docs/security.md) ----------------------------------------------------------
# Reads are public: app.test_client() sends no token. Every mutating route needs one, so a test that
# writes says whose rights it uses: as_admin(app) (or the admin_client fixture), or token_client with
# a token of the role it is about.

from flask.testing import FlaskClient  # noqa: E402


def make_token(app, role: str = "admin", **kwargs) -> str:
    """A new token of ``role`` in ``app``'s database (kwargs: name, owner, event_id)."""
    from services.platform.tokens import create_token

    with app.extensions["empyrean"].db_pool.connection(timeout=5) as conn:
        text, _ = create_token(conn, role, **kwargs)
    return text


def anonymous_client(app) -> FlaskClient:
    return app.test_client()


def token_client(app, token: str) -> FlaskClient:
    client = anonymous_client(app)
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


def as_admin(app) -> FlaskClient:
    """A test client sending an admin token of ``app``'s database (made once per app)."""
    token = app.extensions.get("test_admin_token")
    if token is None:
        token = app.extensions["test_admin_token"] = make_token(app, "admin", name="tests")
    return token_client(app, token)


# --- the app behind a real HTTP server, for the command line's HTTP clients -----------------------------


@contextmanager
def served_at(app):
    """The app served on a free port of 127.0.0.1 by a threaded server (the command line's HTTP
    clients, the browser tests); yields its base URL. The server is stopped and its thread joined."""
    import threading

    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)


def panel_rows(page: str, panel: str) -> list[str]:
    """The text of each body row of a dashboard panel's table (its id ``panel-<panel>``), tags dropped."""
    body = page[page.index(f'id="panel-{panel}"'):]
    body = body[body.index("<tbody>"):body.index("</tbody>")]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def documented_csvs() -> dict[str, list[str]]:
    """docs/dashboards.md, "CSV downloads": URL -> the columns it lists, in order."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "dashboards.md").read_text(encoding="utf-8")
    section = text.split("## CSV downloads", 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`/"):
            out[cells[0].strip("`")] = re.findall(r"`([^`]+)`", cells[2])
    return out
