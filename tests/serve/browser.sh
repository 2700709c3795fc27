#!/usr/bin/env bash
# golgen serve in a real browser (tests/serve/test_serve_browser.py):
# Debian's chromium driven by Playwright for Python from the venv
# build-serve/venv (.ci/setup makes both). Skips, saying why, when chromium,
# Playwright or a golgen with the viewer is missing. The screenshot and the
# saved RLE stay in BUILD/serve-browser/.
#
#   tests/serve/browser.sh [BUILD]     (default build)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
py=${GOLGEN_SERVE_VENV:-build-serve/venv}/bin/python
skip() { echo "serve browser test skipped: $*"; exit 0; }
[ -x /usr/bin/chromium ] ||
    skip "/usr/bin/chromium is missing (apt-get install chromium; .ci/setup does)"
"$py" -c 'import playwright' 2>/dev/null ||
    skip "no Playwright in $py (python3 -m venv build-serve/venv;" \
         "build-serve/venv/bin/pip install playwright; .ci/setup does)"
"$build/golgen" serve --help >/dev/null 2>&1 ||
    skip "$build/golgen was built without the viewer (libwebsockets-dev)"
exec "$py" tests/serve/test_serve_browser.py "$build/golgen" \
    "$build/serve-browser"
