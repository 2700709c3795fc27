#!/usr/bin/env bash
# The 3D GPU kernels on a fresh CUDA machine: build golgen (no SAT solver,
# no cmocka), validate the kernels on the device (opening does), cross-
# check whole runs on cuda and ptx against the cpu backend (bit-identical
# RLE3), then the CUpS table of 3D5..7/6 (seed 003's rule): one
# generation per launch (GOLGEN_GPU_TUNE=3d:1, the kernel before temporal
# blocking) and the tuned choice, per backend; optionally each temporal
# candidate forced and the one-generation kernel's launch-shape sweep at
# 1024^3 (printed last; summary.txt keeps everything).
#
#   bench/gpu3d.sh [BUILD_DIR]      (default build-gpu)
#   GG_GENS=N      the table's generations (default 1024)
#   GG_SIZES="256 512 1024"          the table's sides (N^3 tori)
#   GG_BACKENDS="cuda ptx"           the backends checked and timed
#   GG_CANDS="2,4,12,1 ..."          temporal candidates forced at 1024^3
#                                    (default none)
#   GG_SWEEP=0     no launch-shape sweep
#   GG_SWEEP_GENS=N                  the sweep's generations (default 256)
#   GG_OUT=DIR     logs (default BUILD_DIR/gpu3d-out)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-gpu}
case $B in /*) ;; *) B=$PWD/$B ;; esac
OUT=${GG_OUT:-$B/gpu3d-out}
GENS=${GG_GENS:-1024}
SIZES=${GG_SIZES:-256 512 1024}
BACKENDS=${GG_BACKENDS:-cuda ptx}
mkdir -p "$OUT"
export GOLGEN_CACHE_DIR=$B/cache
CUDA=${CUDA_HOME:-/usr/local/cuda}
export PATH=$PATH:$CUDA/bin
G=$B/golgen

log() { echo "== $*" | tee -a "$OUT/summary.txt"; }

. "$ROOT/bench/gpu_build.sh" # build()

# An RLE3 soup (3D.lua's format, runs written out) of W x H x D cells of
# density 1/2 at pos X,Y,Z in an N^3 frame: soup N W H D X Y Z SEED RULE
soup() {
    python3 - "$@" <<'EOF'
import random, sys
n, w, h, d, x, y, z, seed = map(int, sys.argv[1:9])
rule = sys.argv[9]
r = random.Random(seed)
print(f"3D version=1 size={n} pos={x},{y},{z}")
print(f"x={w} y={h} z={d} rule={rule}")
planes = []
for _ in range(d):
    rows = ["".join("o" if r.random() < 0.5 else "b" for _ in range(w))
            for _ in range(h)]
    planes.append("$".join(rows))
print("/".join(planes) + "!")
EOF
}

# each GPU backend against cpu on one pattern and rule: bit-identical RLE3.
cross() {
    local name=$1 rule=$2 gens=$3 in=$OUT/$1.rle3
    shift 3
    soup "$@" >"$in"
    for be in cpu $BACKENDS; do
        if ! "$G" run --backend $be --rule "$rule" --gens "$gens" \
            -o "$OUT/$name-$be.rle3" "$in" 2>"$OUT/$name-$be.log"; then
            log "cross $name ($rule, $gens gens): $be failed: $(tail -1 \
                "$OUT/$name-$be.log")"
            return
        fi
    done
    for be in $BACKENDS; do
        if cmp -s "$OUT/$name-cpu.rle3" "$OUT/$name-$be.rle3"; then
            log "cross $name ($rule, $gens gens): $be identical ($(tail -1 \
                "$OUT/$name-$be.log"))"
        else
            log "cross $name ($rule, $gens gens): $be DIFFERENT"
        fi
    done
}

# bench TAG BACKEND TUNE ARGS...: TUNE is GOLGEN_GPU_TUNE ("" the tuner's)
bench() {
    local tag=$1 be=$2 tune=$3
    shift 3
    if GOLGEN_GPU_TUNE=$tune "$G" bench --backend "$be" --rule 3D5..7/6 \
        "$@" >"$OUT/bench-$tag.log" 2>&1; then
        log "bench $tag: $(cat "$OUT/bench-$tag.log")"
    else
        log "bench $tag: exit $? ($(tail -1 "$OUT/bench-$tag.log"))"
    fi
}

log "start $(date -u +%FT%TZ) on $(nvidia-smi --query-gpu=name \
    --format=csv,noheader 2>/dev/null | head -1)"
build || { log "build failed"; exit 1; }
log "built"

# opening validates on the device (19 odd sizes, tori and boxes, every
# kernel of the module)
for be in $BACKENDS; do
    bench "validate-$be" "$be" "" --size 64 --gens 4
done

cross torus96 '3D5..7/6' 50 96 96 96 96 0 0 0 1 '3D5..7/6'
cross torus67 '3D4,5/5:T67,45,33' 30 67 60 40 30 3 2 1 2 '3D4,5/5'
cross box100 '3D5..7/6:P100,37,29' 40 100 90 30 25 5 3 2 3 '3D5..7/6'
cross face64 '3D1,3/2,3F:T64' 20 64 40 40 40 10 10 10 4 '3D1,3/2,3F'
# big enough to tune (2^24 cells): the tuned temporal kernel, 101 gens
cross torus256 '3D5..7/6:T256' 101 256 256 256 64 0 0 96 5 '3D5..7/6'

for n in $SIZES; do
    for be in $BACKENDS; do
        bench "${n}-$be-1gen" "$be" 3d:1 --size "$n" --gens "$GENS"
        bench "${n}-$be" "$be" "" --size "$n" --gens "$GENS"
    done
done
for c in ${GG_CANDS:-}; do
    bench "cand-$c" cuda "3d:$c" --size 1024 --gens "$GENS"
done

if [ "${GG_SWEEP:-1}" != 0 ]; then
    SG=${GG_SWEEP_GENS:-256}
    for ty in 2 4 8; do
        for slab in 0 8 16 32 64; do
            if [ "$slab" = 0 ]; then
                bench "sweep-ty$ty-auto" cuda 3d:1 --size 1024 --gens "$SG" \
                    --ty $ty
            else
                bench "sweep-ty$ty-slab$slab" cuda 3d:1 --size 1024 \
                    --gens "$SG" --ty $ty --slab $slab
            fi
        done
    done
fi
log "done $(date -u +%FT%TZ)"
grep '^== bench' "$OUT/summary.txt"
