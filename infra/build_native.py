"""Build the compiled ("native") engine: the hot engine modules compiled to C extensions by mypyc.

    python infra/build_native.py [--out build/native] [--force]

The engine is written as ordinary typed Python; mypyc compiles the modules in NATIVE_MODULES
to C with no change in behaviour (how much faster: docs/performance.md). The build goes to a
separate folder — a complete copy of the ``engine`` package with the compiled modules beside
their sources — so that editing ``engine/*.py`` can never leave a stale compiled module shadowing
the source in the working tree. A stamp (hash of every engine source file) makes re-running it
free when nothing changed. Use the build by putting its folder first on ``sys.path``
(``PYTHONPATH=build/native``), or in tests with ``pytest --engine native``.

Needs a C compiler and the Python headers, and mypy (which ships mypyc) from the test extras.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "build" / "native"
# The modules a replay spends its time in, and the bots (self-play: the simulator, the balance
# report, the demo data). The rest (log parsing, replay driver, positions) stay interpreted: they are
# cold or dominated by library code.
NATIVE_MODULES = ["bfe/state", "bfe/decisions", "rng", "bfe/observe", "bfe/board", "bfe/game", "bfe/effects",
                  "bfe/catalog", "bfe/record", "bfe/hidden", "reader", "bfe/bots"]


def source_hash(engine_dir: Path = ROOT / "engine") -> str:
    h = hashlib.sha256()
    for path in sorted(engine_dir.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".so":
            h.update(str(path.relative_to(engine_dir)).encode() + b"\0" + path.read_bytes())
    h.update(" ".join(NATIVE_MODULES).encode())
    return h.hexdigest()


def is_current(out: Path = DEFAULT_OUT) -> bool:
    stamp = out / "STAMP"
    return stamp.exists() and stamp.read_text().strip() == source_hash()


def build(out: Path = DEFAULT_OUT, force: bool = False) -> Path:
    if not force and is_current(out):
        print(f"native engine in {out} is up to date")
        return out
    work = out.with_name(out.name + ".tmp")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(ROOT / "engine", work / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    print(f"compiling {', '.join(NATIVE_MODULES)} with mypyc (about a minute) …", flush=True)
    cmd = [sys.executable, "-m", "mypyc", *[f"engine/{m}.py" for m in NATIVE_MODULES]]
    env = dict(os.environ, MYPYC_OPT_LEVEL=os.environ.get("MYPYC_OPT_LEVEL", "3"))
    res = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stdout[-4000:] + res.stderr[-4000:])
        raise SystemExit(f"mypyc failed (exit {res.returncode}); the pure-Python engine is unaffected")
    shutil.rmtree(work / "build", ignore_errors=True)  # C sources and objects: not needed at run time
    (work / "STAMP").write_text(source_hash() + "\n")
    shutil.rmtree(out, ignore_errors=True)
    work.rename(out)
    print(f"native engine built in {out}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--force", action="store_true", help="rebuild even if the stamp matches")
    args = ap.parse_args()
    build(args.out.resolve(), args.force)


if __name__ == "__main__":
    main()
