"""Use the compiled engine when it is built: ``infra/build_native.py`` puts a mypyc-compiled copy
of the engine in ``build/native`` (how much faster: docs/performance.md). Long-running commands
(simulate, balance) call ``use_native_engine()`` before they import the engine; it does nothing
when the engine is already imported, when there is no build, or when the build is stale (its stamp
is not the hash of the current sources), so the Python sources are always the fallback.

The service's own processes call it first thing, in their entry points
(services.platform.entrypoints): the worker, where replay is most of a chunk's CPU time, and the
API, which parses every upload. ``EMPYREAN_ENGINE=python`` keeps a process (and the workers it
starts) on the Python sources: the default test run does so, so that it tests them."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def use_native_engine() -> bool:
    """True when the compiled engine will be the one imported."""
    if os.environ.get("EMPYREAN_ENGINE", "auto") == "python":
        return False
    if "engine" in sys.modules:
        return Path(sys.modules["engine"].__file__ or "").parent.parent.name == "native"
    script = ROOT / "infra" / "build_native.py"
    if not script.exists():  # an installed package, not a checkout: no build to use
        return False
    spec = importlib.util.spec_from_file_location("_empyrean_build_native", script)
    assert spec is not None and spec.loader is not None
    build_native = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_native)
    if not build_native.is_current():
        return False
    sys.path.insert(0, str(build_native.DEFAULT_OUT))
    return True
