#!/usr/bin/env bash
# The whole test suite, twice: the release build, then a build under
# AddressSanitizer and UndefinedBehaviorSanitizer (any report fails it).
set -euo pipefail
cd "$(dirname "$0")/.."
./.ci/setup

meson test -C build --print-errorlogs

[ -f build-san/build.ninja ] ||
    meson setup build-san -Dbuildtype=debug -Db_sanitize=address,undefined \
        -Db_lundef=false
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
meson test -C build-san --print-errorlogs --timeout-multiplier 4
