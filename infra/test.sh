#!/usr/bin/env bash
# The README's test command: installs the project (editable, with test extras) into .venv, runs ruff
# and then the whole suite; then builds the mypyc-compiled engine (cached by a source hash) and runs the
# engine's tests again against it, since that build is the one the speed figures are for. Spells &
# Steam's own tests are left out of that second run: none of its modules is compiled, and the compiled
# modules it shares (the reader, the generator) are run there by the other games' tests.
# Arguments are passed to the first pytest run (e.g. infra/test.sh -k draft). Browser screenshots
# are left in test-artifacts/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
infra/system-packages.sh  # Chromium for tests/browser (a no-op when installed)
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
.venv/bin/python -m ruff check .  # lint and import order (pyproject.toml [tool.ruff]): a finding fails the run
.venv/bin/python -m pytest "$@"
if [ "$#" -eq 0 ]; then
    .venv/bin/python -m pytest --engine native tests/engine -k "not steam"
fi
