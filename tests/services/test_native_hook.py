"""The engine build a process runs is chosen by its entry point (the API's in
services.platform.entrypoints, the worker's app in workers.celery_app), through
services.platform.native.use_native_engine(), before anything imports the engine:
EMPYREAN_ENGINE=python keeps the sources; otherwise the compiled engine is used exactly when
infra/build_native.py's build is current. Checked in fresh interpreters (the choice is made once
per process), for the API's entry point and the worker's."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Each entry point builds its app from the environment; nothing here connects to the servers named.
SERVERS = {"DATABASE_URL": "postgresql://127.0.0.1:1/none", "REDIS_URL": "redis://127.0.0.1:1/0"}
PROBES = {
    "api": "from services.platform.entrypoints import api_app; api_app()",
    "worker": "import workers.celery_app as w; w.app",  # what `celery -A workers.celery_app:app` looks up
}


def engine_file(entry: str, choice: str) -> str:
    env = {**os.environ, **SERVERS, "EMPYREAN_ENGINE": choice, "PYTHONPATH": str(ROOT)}
    probe = f"{PROBES[entry]}\nimport engine.bfe.game; print(engine.bfe.game.__file__)"
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[-1]


def build_is_current() -> bool:
    spec = importlib.util.spec_from_file_location("_probe_build_native", ROOT / "infra" / "build_native.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.is_current()


@pytest.mark.parametrize("entry", sorted(PROBES))
def test_python_keeps_the_sources(entry):
    assert engine_file(entry, "python") == str(ROOT / "engine" / "bfe" / "game.py")


@pytest.mark.parametrize("entry", sorted(PROBES))
def test_auto_takes_the_build_exactly_when_it_is_current(entry):
    loaded = engine_file(entry, "auto")
    if build_is_current():
        assert loaded.startswith(str(ROOT / "build" / "native" / "engine")) and loaded.endswith(".so"), loaded
    else:
        assert loaded == str(ROOT / "engine" / "bfe" / "game.py")


def test_importing_the_entry_points_chooses_nothing():
    probe = ("import sys, services.platform.entrypoints, workers.celery_app\n"
             "print(any(p.endswith('native') for p in sys.path))")
    env = {**os.environ, "EMPYREAN_ENGINE": "auto", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
