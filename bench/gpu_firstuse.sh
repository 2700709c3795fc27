#!/usr/bin/env bash
# What a user waits for the first time a rule runs on a GPU: golgen bench
# from an empty kernel and tuning cache (autotuning every launch shape),
# then the same command again (everything cached), on a pseudo-terminal so
# that the tuner's announcement shows as a user sees it.
#
#   bash bench/gpu_firstuse.sh [BUILD_DIR] [RULES]     (OUT=dir for logs)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build-gpu}
RULES=${2:-B36/S23}
OUT=${OUT:-/tmp/gpu-firstuse}
mkdir -p "$OUT"
if ! [ -e "$B/build.ninja" ]; then
    meson setup "$B" "$ROOT" -Dsat=disabled -Dtests=disabled \
        --buildtype=release >"$OUT/setup.log" 2>&1 ||
        { tail -30 "$OUT/setup.log"; exit 1; }
fi
ninja -C "$B" golgen >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
G=$(cd "$B" && pwd)/golgen

for r in $RULES; do
    for be in ptx cuda; do
        export GOLGEN_CACHE_DIR=$OUT/cache-$be-${r//\//_}
        rm -rf "$GOLGEN_CACHE_DIR"
        for pass in first again; do
            t0=$(date +%s.%N)
            script -qec "$G bench --backend $be --rule $r --size 32768x32768 --gens 1024" \
                /dev/null >"$OUT/$be-$pass.log" 2>&1
            t1=$(date +%s.%N)
            printf '%s %-4s %-5s %6.1f s wall\n' "$r" "$be" "$pass" \
                "$(awk "BEGIN{print $t1 - $t0}")"
            tr -d '\r' <"$OUT/$be-$pass.log" | sed 's/^/    /'
        done
    done
done
