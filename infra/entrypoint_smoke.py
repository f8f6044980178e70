"""Run the container entrypoint's four roles WITHOUT containers, against the embedded PostgreSQL and
Redis: migrate, then api + worker + beat; check /api/v1/ready answers 200, the worker answers the
same `celery inspect ping` the Kubernetes liveness probe sends, and a ping task comes back. Stops
everything again. For machines with no container engine (infra/README.md, "What is tested").

    PYTHONPATH=. .venv/bin/python infra/entrypoint_smoke.py
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRYPOINT = ROOT / "infra" / "container-entrypoint.sh"
PORT = "18765"


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from services.games.queues import PING_TASK
    from services.platform.broker import make_celery
    from services.platform.config import Config
    from services.platform.embedded import EmbeddedStack

    data = Path(tempfile.mkdtemp(prefix="empyrean-entrypoint-"))
    stack = EmbeddedStack(data, None, None)
    stack.start()
    env = {**os.environ,
           # the entrypoint runs `python`, `celery`, `empyrean`: this interpreter's
           "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
           "PYTHONPATH": str(ROOT), "HOSTNAME": socket.gethostname(),
           "DATABASE_URL": stack.database_url, "REDIS_URL": stack.redis_url,
           "EMPYREAN_DATA_DIR": str(data), "EMPYREAN_API_HOST": "127.0.0.1", "EMPYREAN_API_PORT": PORT,
           "WEB_CONCURRENCY": "1", "EMPYREAN_WORKER_CONCURRENCY": "1"}
    procs: dict[str, subprocess.Popen] = {}
    failures = []
    try:
        migrate = subprocess.run(["sh", str(ENTRYPOINT), "migrate"], env=env, capture_output=True, text=True,
                                 timeout=120)
        print("migrate:", migrate.returncode, migrate.stdout.strip())
        if migrate.returncode:
            failures.append("migrate")
        for role in ("api", "worker", "beat"):
            procs[role] = subprocess.Popen(["sh", str(ENTRYPOINT), role], env=env,
                                           stdout=open(data / f"{role}.log", "w"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/api/v1/ready", timeout=3) as resp:
                    print("ready:", resp.status)
                    break
            except OSError as exc:
                if time.monotonic() > deadline:
                    failures.append(f"ready: {exc}")
                    break
                time.sleep(0.5)
        app = make_celery(Config.from_env(env))
        try:
            print("ping task:", app.send_task(PING_TASK).get(timeout=30))
        finally:
            app.close()
        probe = subprocess.run(["sh", "-c",
                                "celery -A workers.celery_app inspect ping -d empyrean@$HOSTNAME --timeout 10"],
                               env=env, capture_output=True, text=True, timeout=60)
        print("liveness probe:", probe.returncode, probe.stdout.strip().splitlines()[:1])
        if probe.returncode:
            failures.append("worker liveness probe")
        if "beat: Starting" not in (data / "beat.log").read_text():
            failures.append("beat did not start")
    finally:
        for process in procs.values():  # SIGTERM to the main process only, as a container stop does
            process.send_signal(signal.SIGTERM)
        for role, process in procs.items():
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
                failures.append(f"{role} did not stop on SIGTERM")
            print(f"{role} exited {process.returncode}")
        stack.stop()
        shutil.rmtree(data, ignore_errors=True)
    print("FAILED: " + "; ".join(failures) if failures else "all roles OK")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
