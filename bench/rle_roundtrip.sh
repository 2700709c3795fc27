#!/bin/sh
# Time RLE write and read of a random soup (default 32768 x 32768, density
# 0.5) with the golgen pattern I/O.
#   bench/rle_roundtrip.sh BUILD_DIR [SIZE] [SCRATCH_DIR]
# Builds nothing: BUILD_DIR must hold tests/rle_bench (ninja -C BUILD_DIR).
# The soup file (about 0.8 GB at 32768^2) goes to SCRATCH_DIR (default
# $TMPDIR or /tmp) and is removed afterwards.
set -eu
build=${1:?usage: $0 BUILD_DIR [SIZE] [SCRATCH_DIR]}
size=${2:-32768}
dir=${3:-${TMPDIR:-/tmp}}
exe=$build/tests/rle_bench
if [ ! -x "$exe" ]; then
    echo "$0: $exe not found; build first: ninja -C $build" >&2
    exit 1
fi
file=$(mktemp "$dir/rle_bench.XXXXXX.rle")
trap 'rm -f "$file"' EXIT INT TERM
"$exe" "$size" "$size" "$file"
if [ "${GG_BENCH_BGOLLY:-0}" = 1 ] && command -v bgolly >/dev/null; then
    # For scale: bgolly reading and rewriting the same file.
    out=$(mktemp "$dir/rle_bench.XXXXXX.rle")
    start=$(date +%s.%N)
    bgolly -q -q -m 0 -o "$out" "$file" >/dev/null
    end=$(date +%s.%N)
    echo "bgolly read+write $(echo "$end - $start" | bc) s"
    cmp -s "$file" "$out" && echo "bgolly output is byte-identical" ||
        echo "bgolly output differs"
    rm -f "$out"
fi
