#!/usr/bin/env bash
# The Debian packages the tests need beyond Python: Chromium for the browser tests (tests/browser
# drive /usr/bin/chromium with Playwright; no browser is ever downloaded by a test tool) and a
# font for its text. Idempotent: does nothing when they are there. Needs root (or sudo) and apt.
set -euo pipefail
NEEDED=(chromium fonts-dejavu-core)
missing=()
for package in "${NEEDED[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ "${#missing[@]}" -eq 0 ] && exit 0
echo "installing Debian packages: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root or sudo to apt-get install ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
