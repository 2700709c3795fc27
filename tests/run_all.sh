#!/usr/bin/env bash
# The whole test suite, twice: the release build, then a build under
# AddressSanitizer and UndefinedBehaviorSanitizer (any report fails it).
set -euo pipefail
cd "$(dirname "$0")/.."
./.ci/setup

meson test -C build --print-errorlogs

# One retry: three times in session 6 (2-core VM, other jobs running)
# meson 1.0.1 died in this setup decoding `cc -E -v -` output
# (UnicodeDecodeError, "This is a Meson bug"); the rerun passed each time.
san_setup() {
    rm -rf build-san
    meson setup build-san -Dbuildtype=debug -Db_sanitize=address,undefined \
        -Db_lundef=false
}
[ -f build-san/build.ninja ] || san_setup || san_setup
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
meson test -C build-san --print-errorlogs --timeout-multiplier 4
