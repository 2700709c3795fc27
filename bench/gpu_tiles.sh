#!/usr/bin/env bash
# Active tiles on the GPU (issue 38's sparse bar): correctness of
# `--engine tiles` on cuda and ptx against the cpu backend's dense run,
# then the dense kernel against tiles on a sparse torus (1% live: still
# lifes and blinkers, a few gliders and soup patches; bench/sparse_torus.py)
# and on a dense soup, from process start to the written file.
#
#   bash bench/gpu_tiles.sh [BUILD_DIR]   (OUT=dir for logs, else $OUT)
#   N=65536 GENS="4096 65536" BACKENDS="ptx cuda"
#   ONLY=generations: only the Generations cases (23/3/3 sparse tori)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build-gpu}
OUT=${OUT:-/tmp/gpu-tiles}
N=${N:-65536}
GENS=${GENS:-4096 65536}
BACKENDS=${BACKENDS:-ptx cuda}
mkdir -p "$OUT"
W=${WORK:-/tmp/gpu-tiles-work}
mkdir -p "$W"
if ! [ -e "$B/build.ninja" ]; then
    meson setup "$B" "$ROOT" -Dsat=disabled -Dtests=disabled \
        --buildtype=release >"$OUT/setup.log" 2>&1 ||
        { tail -30 "$OUT/setup.log"; exit 1; }
fi
ninja -C "$B" golgen >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
G=$B/golgen
export GOLGEN_CACHE_DIR=${GOLGEN_CACHE_DIR:-$W/cache}

run() { # label out args...: time from start to written file, closing line
    local label=$1 out=$2
    shift 2
    local t0=$EPOCHREALTIME
    "$G" run "$@" -o "$out" >"$OUT/last.log" 2>&1
    local rc=$? t1=$EPOCHREALTIME
    printf '%-34s rc %d %7.3f s | %s\n' "$label" "$rc" \
        "$(awk "BEGIN{print $t1 - $t0}")" \
        "$(tail -1 "$OUT/last.log" | cut -c1-150)"
}

same() { cmp -s "$1" "$2" && echo "  same: $1 $2" || echo "  DIFFER: $1 $2"; }

# Generations (23/3/3: Life with a dying state): the state planes tiled
# together on the device, against the cpu backend's dense run
generations() {
    local r="23/3/3:T4096,4096" R="23/3/3:T16384,16384"
    python3 "$ROOT/bench/sparse_torus.py" 4096 0.01 2 "$W/g4k.rle" "$r" 0.002 0.001
    python3 "$ROOT/bench/sparse_torus.py" 16384 0.01 2 "$W/g16k.rle" "$R" \
        0.00003 0.00001
    run "cpu dense 23/3/3 4096^2 x 3000" "$W/gc_cpu.rle" --backend cpu \
        --engine dense --gens 3000 "$W/g4k.rle"
    for be in $BACKENDS; do
        run "$be tiles 23/3/3 4096^2 x 3000" "$W/gc_$be.rle" --backend $be \
            --engine tiles --gens 3000 "$W/g4k.rle"
        same "$W/gc_cpu.rle" "$W/gc_$be.rle"
        run "$be dense 23/3/3 16384^2 x 8192" "$W/gd_$be.rle" --backend $be \
            --engine dense --gens 8192 "$W/g16k.rle"
        run "$be tiles 23/3/3 16384^2 x 8192" "$W/gt_$be.rle" --backend $be \
            --engine tiles --gens 8192 "$W/g16k.rle"
        same "$W/gd_$be.rle" "$W/gt_$be.rle"
    done
}
if [ "${ONLY:-}" = generations ]; then
    generations
    exit 0
fi

# correctness: a busy sparse torus (gliders cross tiles and the wrap)
python3 "$ROOT/bench/sparse_torus.py" 4096 0.01 1 "$W/c4k.rle" - 0.002 0.001
run "cpu dense 4096^2 x 3000" "$W/c_cpu.rle" --backend cpu --engine dense \
    --gens 3000 "$W/c4k.rle"
for be in $BACKENDS; do
    run "$be tiles 4096^2 x 3000" "$W/c_$be.rle" --backend $be \
        --engine tiles --gens 3000 "$W/c4k.rle"
    same "$W/c_cpu.rle" "$W/c_$be.rle"
done

# the bar: a sparse N^2 torus, dense against tiles
[ -e "$W/s$N.rle" ] ||
    python3 "$ROOT/bench/sparse_torus.py" "$N" 0.01 1 "$W/s$N.rle" - 0.00003 0.00001
for be in $BACKENDS; do
    for g in $GENS; do
        run "$be dense ${N}^2 x $g" "$W/d_$be.rle" --backend $be \
            --engine dense --gens "$g" "$W/s$N.rle"
        run "$be tiles ${N}^2 x $g" "$W/t_$be.rle" --backend $be \
            --engine tiles --gens "$g" "$W/s$N.rle"
        same "$W/d_$be.rle" "$W/t_$be.rle"
    done
    run "$be dense ${N}^2 x 0 (read+write)" "$W/z_$be.rle" --backend $be \
        --engine dense --gens 0 "$W/s$N.rle"
done

# a dense soup: auto (tiles, whole-grid path) must not lose to dense
python3 - "$W/soup8k.rle" <<'PY'
import random, sys
random.seed(5)
n = 8192
with open(sys.argv[1], "w") as f:
    f.write(f"x = {n}, y = {n}, rule = B3/S23:T{n},{n}\n")
    for y in range(n):
        f.write("".join("o" if random.random() < 0.5 else "b" for _ in range(n)))
        f.write("$\n" if y < n - 1 else "!\n")
PY
for be in $BACKENDS; do
    run "$be dense soup 8192^2 x 8192" "$W/sd_$be.rle" --backend $be \
        --engine dense --gens 8192 "$W/soup8k.rle"
    run "$be auto soup 8192^2 x 8192" "$W/sa_$be.rle" --backend $be \
        --gens 8192 "$W/soup8k.rle"
    same "$W/sd_$be.rle" "$W/sa_$be.rle"
done

generations
