#!/usr/bin/env bash
# The README's test command: installs the project (editable, with test extras) into .venv and runs the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
exec .venv/bin/python -m pytest "$@"
