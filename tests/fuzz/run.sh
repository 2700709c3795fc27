#!/usr/bin/env bash
# Build the libFuzzer harnesses (tests/fuzz/) with clang under ASan+UBSan,
# replay every regression input in tests/data/fuzz/<harness>/ (each once:
# any crash, sanitizer report or failed round trip fails the script), then
# fuzz each harness for a bounded time from its seeds.
#
#   tests/fuzz/run.sh [BUILD_DIR]      (default build-fuzz)
#   FUZZ_SECONDS=5     seconds per harness (0: replay only)
#   FUZZ_ONLY="rle rule"  a subset of harnesses
#
# What a harness finds is written to BUILD_DIR/fuzz-artifacts/ (crash-*,
# oom-*, timeout-*); copy it into tests/data/fuzz/<harness>/ once the reader
# is fixed, so the replay keeps it fixed. New corpus entries stay in
# BUILD_DIR/fuzz-corpus/, so later runs go on from there. Prints the
# executions per harness and their sum.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-fuzz}
seconds=${FUZZ_SECONDS:-5}
harnesses=${FUZZ_ONLY:-"pattern rle cells life mc rle3 store rule rule3d net_text cache serve_msg"}

if ! command -v clang >/dev/null; then
    echo "tests/fuzz/run.sh: clang is missing; install clang and" \
         "libclang-rt-14-dev (.ci/setup does)" >&2
    exit 3
fi
# quiet unless it fails
quiet() {
    local log
    log=$(mktemp)
    "$@" >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; return 1; }
    rm -f "$log"
}
if [ ! -f "$build/build.ninja" ]; then
    # no solver and no cmocka suites: the harnesses need the readers only
    CC=clang quiet meson setup "$build" -Dfuzz=enabled -Dsat=disabled \
        -Dtests=disabled -Dbuildtype=debugoptimized \
        -Db_sanitize=address,undefined -Db_lundef=false
fi
targets=()
for h in $harnesses; do targets+=("tests/fuzz/fuzz_$h"); done
quiet ninja -C "$build" "${targets[@]}"

# allocator_may_return_null: a box the readers cannot allocate must give
# their error, not an ASan abort. Huge boxes are calloc'd lazily, so the
# malloc limit is off and the RSS limit catches real blow-ups. But ASan
# writes the shadow of every calloc (an eighth of it): a 278-byte RLE whose
# box is 14.8 GB took 23 s and 1.9 GB here, so one allocation over 4 GB
# fails as it does on a host without that much memory (the readers' error).
export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1:max_allocation_size_mb=4096
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
limits=(-rss_limit_mb=4096 -malloc_limit_mb=1048576 -timeout=20)

seeds_of() {
    local h=$1
    echo "tests/fuzz/corpus/$h"
    case $h in
    pattern | rle | cells | life | mc) echo tests/data/patterns tests/data/patterns/bad ;;
    esac
}

mkdir -p "$build/fuzz-artifacts"
total=0
for h in $harnesses; do
    exe="$build/tests/fuzz/fuzz_$h"
    regress="tests/data/fuzz/$h"
    if [ -d "$regress" ] && [ -n "$(ls -A "$regress")" ]; then
        "$exe" "${limits[@]}" "$regress"/* >"$build/fuzz-$h-replay.log" 2>&1 || {
            echo "fuzz_$h: a regression input fails again:" >&2
            tail -n 30 "$build/fuzz-$h-replay.log" >&2
            exit 1
        }
    fi
    [ "$seconds" -gt 0 ] || continue
    corpus="$build/fuzz-corpus/$h"
    mkdir -p "$corpus"
    dirs=("$corpus")
    for d in $(seeds_of "$h") "$regress"; do
        [ -d "$d" ] && dirs+=("$d")
    done
    log="$build/fuzz-$h.log"
    if ! "$exe" "${limits[@]}" -max_total_time="$seconds" \
        -artifact_prefix="$build/fuzz-artifacts/$h-" "${dirs[@]}" >"$log" 2>&1; then
        echo "fuzz_$h: found a failing input (in $build/fuzz-artifacts/):" >&2
        grep -a -E -A3 'ERROR|SUMMARY|round trip|does not|Test unit' "$log" |
            tail -n 40 >&2
        exit 1
    fi
    runs=$(grep -a -o -E '^Done [0-9]+ runs' "$log" | grep -o -E '[0-9]+' || echo 0)
    total=$((total + runs))
    printf 'fuzz_%-9s %10d executions in %ss\n' "$h" "$runs" "$seconds"
done
[ "$seconds" -gt 0 ] && printf 'fuzz total    %10d executions\n' "$total"
echo "fuzz: no failure"
