#!/usr/bin/env bash
# The README's first command: installs the project (editable) into .venv and starts the whole
# service with `empyrean up` (embedded PostgreSQL and Redis unless DATABASE_URL / REDIS_URL are set).
# Ctrl-C stops it. Arguments are passed on to `empyrean up`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
exec .venv/bin/empyrean up "$@"
