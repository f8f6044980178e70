"""services.platform.native.use_native_engine(), which the worker and the API call before anything imports
the engine: EMPYREAN_ENGINE=python keeps the sources; otherwise the compiled engine is used exactly
when infra/build_native.py's build is current. Checked in fresh interpreters (the choice is made at
import)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = "import workers.celery_app, engine.game; print(engine.game.__file__)"


def engine_file(choice: str) -> str:
    env = {**os.environ, "EMPYREAN_ENGINE": choice, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def build_is_current() -> bool:
    spec = importlib.util.spec_from_file_location("_probe_build_native", ROOT / "infra" / "build_native.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.is_current()


def test_python_keeps_the_sources():
    assert engine_file("python") == str(ROOT / "engine" / "game.py")


def test_auto_takes_the_build_exactly_when_it_is_current():
    loaded = engine_file("auto")
    if build_is_current():
        assert loaded.startswith(str(ROOT / "build" / "native" / "engine")) and loaded.endswith(".so"), loaded
    else:
        assert loaded == str(ROOT / "engine" / "game.py")
