"""Suite-wide options. ``--engine native`` runs the tests against the mypyc-compiled engine
(built by infra/build_native.py into build/native), which is what the speed figures refer to."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser):
    parser.addoption("--engine", choices=["pure", "native"], default="pure",
                     help="which build of the engine the tests import (default: the Python sources)")


def pytest_configure(config):
    if config.getoption("engine") != "native":
        # The Python sources, in this process and in the API and worker processes the tests start
        # (they would take the compiled engine when a current build exists: services.platform.native).
        os.environ["EMPYREAN_ENGINE"] = "python"
        return
    sys.path.insert(0, str(ROOT / "infra"))
    import build_native

    out = build_native.build()  # no-op when the stamp matches the sources
    assert "engine" not in sys.modules, "the engine was imported before --engine native took effect"
    sys.path.insert(0, str(out))
    import engine.bfe.game

    if not engine.bfe.game.__file__.endswith(".so"):
        raise RuntimeError(f"--engine native imported {engine.bfe.game.__file__}, not the compiled module")
