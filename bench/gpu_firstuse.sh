#!/usr/bin/env bash
# What a user waits for the first time a rule runs on a GPU: golgen bench
# from an empty kernel, tuning and driver JIT cache (autotuning every
# launch shape), then the same command again (everything cached), on a
# pseudo-terminal so that the tuner's announcement shows as a user sees
# it. golgen bench prints where opening spent its seconds.
#
#   bash bench/gpu_firstuse.sh [BUILD_DIR] [RULES] [BACKENDS]  (OUT=dir)
# Defaults: build-gpu; HighLife, Day & Night and B2/S345 (no cache entry:
# the GPU host builds its network without the solver); ptx and cuda.
# GG_GOLGEN=DIR times a golgen built elsewhere (bench/gpu_build.sh), e.g.
# one with the solver, whose uncached rules get the exact fallback.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build-gpu}
RULES=${2:-B36/S23 B3678/S34678 B2/S345}
BACKENDS=${3:-ptx cuda}
OUT=${OUT:-/tmp/gpu-firstuse}
SIZE=${SIZE:-32768x32768}
mkdir -p "$OUT"
. "$ROOT/bench/gpu_build.sh"
build || exit 1
G=$(cd "$B" && pwd)/golgen

for r in $RULES; do
    for be in $BACKENDS; do
        export GOLGEN_CACHE_DIR=$OUT/cache-$be-${r//\//_}
        export CUDA_CACHE_PATH=$GOLGEN_CACHE_DIR/driver # the driver's JIT cache
        rm -rf "$GOLGEN_CACHE_DIR"
        for pass in first again; do
            t0=$(date +%s.%N)
            script -qec "$G bench --backend $be --rule $r --size $SIZE --gens 1024" \
                /dev/null >"$OUT/$be-$pass.log" 2>&1
            t1=$(date +%s.%N)
            printf '%s %-4s %-5s %6.2f s wall\n' "$r" "$be" "$pass" \
                "$(awk "BEGIN{print $t1 - $t0}")"
            tr -d '\r' <"$OUT/$be-$pass.log" | sed 's/^/    /'
        done
    done
done
