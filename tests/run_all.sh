#!/usr/bin/env bash
# The whole test suite, twice: the release build, then a build under
# AddressSanitizer and UndefinedBehaviorSanitizer (any report fails it);
# between them the suites that depend on the solver, in a build without it.
set -euo pipefail
cd "$(dirname "$0")/.."
./.ci/setup

# The sanitizer build is configured before any test runs: in session 6,
# configured after the release tests, meson 1.0.1 died in this setup
# decoding `cc -E -v -` output (UnicodeDecodeError, "This is a Meson
# bug") five times out of five, twice in a row within one run, while
# the same setup alone, by hand or from a script, passed every time.
# Cause not found; one retry stays for safety. In session 7 the same
# error came from the regeneration an existing build-san does after a
# meson.build change, when that ran after the release tests: so build it
# (regenerating if needed) before them too.
# It also builds the SAT research programs (research/, -Dresearch=enabled)
# so they keep compiling. A build-san set up before that option existed
# is reconfigured to take it (meson 1.0.1's `meson configure` answers
# "Unknown options" there until the build regenerates).
san_setup() {
    rm -rf build-san
    meson setup build-san -Dbuildtype=debug -Db_sanitize=address,undefined \
        -Db_lundef=false -Dresearch=enabled
}
[ -f build-san/build.ninja ] || san_setup || san_setup
meson configure build-san | grep -E '^ *research +enabled' >/dev/null ||
    meson setup --reconfigure build-san -Dresearch=enabled || san_setup
ninja -C build-san
# A cache-only build, as on the GPU box (bench/gpu.sh): no solver, so the
# suites that synthesize must skip and the fallbacks must still work.
[ -f build-nosat/build.ninja ] ||
    meson setup build-nosat -Dsat=disabled --buildtype=release
ninja -C build-nosat

meson test -C build --print-errorlogs
meson test -C build-nosat --print-errorlogs cache sat remap cli emit_c
# The Python module: pip install from the checkout into build-py/venv (made
# by .ci/setup), then pytest on the installed module (tests/python/).
tests/python/run.sh

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
san_tests() { meson test -C build-san --print-errorlogs --timeout-multiplier 4 "$@"; }
# A test whose only failure is LeakSanitizer's tracer crashing at its exit
# (tests/lsan_flake.py says why) runs once more; any sanitizer report or
# other failure still fails the suite.
if ! san_tests; then
    again=$(tests/lsan_flake.py build-san/meson-logs/testlog.json)
    echo "LeakSanitizer's tracer crashed at the exit of: $again; once more"
    # shellcheck disable=SC2086 # one word per test name
    san_tests $again
fi

# The readers under libFuzzer (clang, ASan+UBSan): every input found so far
# (tests/data/fuzz/), then 5 s per harness; about 2 minutes with the build.
tests/fuzz/run.sh build-fuzz
