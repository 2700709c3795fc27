#!/usr/bin/env bash
# One short device call for the GPU side of CLI changes: the cache-only
# build (as bench/gpu.sh builds it), GOLGEN_GPU_TUNE refused when it is not
# a launch shape, a rejected cache entry's exit status on cuda and ptx,
# and Life and Diehard with no cache entry at all (the fallback networks
# a fresh rule gets on a GPU box without the solver), at a fixed shape so
# that no autotuning runs.
#
#   bash bench/gpu_smoke.sh [BUILD_DIR]      (OUT=dir for logs, else $OUT)
#
# Prints one line per check and one table row per bench.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build-gpu}
OUT=${OUT:-/tmp/gpu-smoke}
mkdir -p "$OUT"
SIZE=${GG_SIZE:-32768x32768}
GENS=${GG_GENS:-1024}

if ! [ -e "$B/build.ninja" ]; then
    meson setup "$B" "$ROOT" -Dsat=disabled -Dtests=disabled \
        --buildtype=release >"$OUT/setup.log" 2>&1 ||
        { tail -30 "$OUT/setup.log"; exit 1; }
fi
ninja -C "$B" golgen >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
G=$B/golgen
export GOLGEN_CACHE_DIR=$OUT/cache

expect_exit() { # want-status label command...
    local want=$1 label=$2
    shift 2
    "$@" >"$OUT/last.log" 2>&1
    local got=$?
    printf '%-44s exit %d (want %d) %s | %s\n' "$label" "$got" "$want" \
        "$([ "$got" = "$want" ] && echo OK || echo MISMATCH)" \
        "$(tail -1 "$OUT/last.log" | cut -c1-150)"
}

for be in cuda ptx; do
    expect_exit 0 "$be validate, fixed shape" env GOLGEN_GPU_TUNE=16,1,4 \
        "$G" bench --backend $be --size 4096x4096 --gens 64
    expect_exit 3 "$be GOLGEN_GPU_TUNE=garbage" env GOLGEN_GPU_TUNE=garbage \
        "$G" bench --backend $be --size 4096x4096 --gens 64
    expect_exit 3 "$be GOLGEN_GPU_TUNE=16,1,4x" env GOLGEN_GPU_TUNE=16,1,4x \
        "$G" bench --backend $be --size 4096x4096 --gens 64
done

bad=$OUT/badgen/networks/rowsum/lut3
mkdir -p "$bad"
printf 'rule B3/S23\nfront rowsum\nlib lut3\ngates 5\n' >"$bad/B3_S23.net"
for be in cuda ptx; do
    expect_exit 1 "$be rejected cache entry" env GOLGEN_GENERATED=$OUT/badgen \
        GOLGEN_GPU_TUNE=16,1,4 "$G" bench --backend $be --size 4096x4096 \
        --gens 64
done

empty=$OUT/emptygen
mkdir -p "$empty"
echo "uncached rules, fixed shape 16,1,4, $SIZE torus, $GENS generations:"
for r in B3/S23 B35678/S5678; do
    for gen in cached uncached; do
        for be in cuda ptx; do
            if [ $gen = uncached ]; then
                set -- env GOLGEN_GENERATED=$empty
            else
                set -- env
            fi
            j=$("$@" GOLGEN_GPU_TUNE=16,1,4 "$G" bench --backend $be \
                --rule $r --size "$SIZE" --gens "$GENS" --json 2>>"$OUT/bench.log")
            lut=$("$@" "$G" verify --rule $r 2>/dev/null |
                  grep -o 'final stage: *[0-9]*' | grep -o '[0-9]*$')
            python3 -c '
import json, sys
try:
    d = json.loads(sys.argv[1])
    print("%-14s %-8s %-5s %3s LUTs %12.3e CUpS" % (d["rule"], sys.argv[2], d["backend"], sys.argv[3], d["cups"]))
except Exception:
    print("%-14s %-8s %-5s FAILED" % (sys.argv[4], sys.argv[2], sys.argv[5]))
' "$j" "$gen" "$lut" "$r" "$be"
        done
    done
done
