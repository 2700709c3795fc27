#!/usr/bin/env bash
# The Python module's tests: install golgen from this checkout into the venv
# that .ci/setup makes (build-py/venv), then run pytest against what was
# installed (test_files.py checks it is not python/ in place).
#
# --no-build-isolation: the venv's own meson-python, meson and numpy build
# it, with no network, and the kept build directory build-py/wheel makes a
# rebuild take seconds. A user's `pip install .` builds the same thing with
# fresh copies of those from PyPI, in a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${GOLGEN_PY_VENV:-build-py/venv}
# the module's kept build directory (another one for a second checkout's
# or a second person's runs beside these)
build=${GOLGEN_PY_BUILD:-build-py/wheel}
if [ ! -x "$venv/bin/python" ]; then
    echo "tests/python/run.sh: no Python venv at $venv: run .ci/setup" \
         "(it makes one with numpy, pytest and meson-python)" >&2
    exit 3
fi
"$venv/bin/python" -m pip install -q --no-build-isolation . \
    -Cbuild-dir="$build"
# No bytecode or pytest cache in the checkout (neither is ignored by git).
PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" -m pytest -q \
    -p no:cacheprovider tests/python "$@"
