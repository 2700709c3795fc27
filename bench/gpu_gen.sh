#!/usr/bin/env bash
# Generations rules on the GPU (CUDA C backend) on a fresh CUDA machine:
# build golgen (no SAT solver, no cmocka), validate the kernels on the
# device (opening a backend does: runtime/backends/validate_gen.h), cross-check
# whole runs on cuda against the cpu backend (bit-identical RLE, odd tori,
# a bounded plane, the unbounded plane), then the CUpS table: Life, Brian's
# Brain and 23/3/3 in the same command (printed last; summary.txt keeps
# everything).
#
#   bench/gpu_gen.sh [BUILD_DIR]    (default build-gpu)
#   GG_SIZE=WxH GG_GENS=N   table size (default 65536x65536, 1024)
#   GG_RULES="B3/S23 /2/3 23/3/3"   the table's rules
#   GG_TUNES="..."          also time these GOLGEN_GPU_TUNE shapes (Brian's
#                           Brain; e.g. "8,1,4 16,1,4,1,0,6,2,6")
#   GG_TUNE=SHAPE           GOLGEN_GPU_TUNE for every run (skips the
#                           autotuner's builds: NVRTC takes tens of
#                           seconds per candidate)
#   GG_CROSS=0              no cross-checks
#   GG_OUT=DIR              logs (default BUILD_DIR/gpu-gen-out)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-gpu}
case $B in /*) ;; *) B=$PWD/$B ;; esac
OUT=${GG_OUT:-$B/gpu-gen-out}
SIZE=${GG_SIZE:-65536x65536}
GENS=${GG_GENS:-1024}
RULES=${GG_RULES-B3/S23 /2/3 23/3/3}
mkdir -p "$OUT"
export GOLGEN_CACHE_DIR=$B/cache
CUDA=${CUDA_HOME:-/usr/local/cuda}
export PATH=$PATH:$CUDA/bin
G=$B/golgen

T0=$(date +%s)
log() { echo "== [$(($(date +%s) - T0)) s] $*" | tee -a "$OUT/summary.txt"; }
[ -n "${GG_TUNE:-}" ] && export GOLGEN_GPU_TUNE=$GG_TUNE

. "$ROOT/bench/gpu_build.sh" # build()

. "$ROOT/bench/soup.sh" # soup()

# cuda against cpu: the same RLE out of the same soup.
cross() { # cross NAME RULE GENS SOUP_ARGS...
    local name=$1 rule=$2 gens=$3
    shift 3
    soup "$@" >"$OUT/$name.rle"
    for be in cuda cpu; do
        timeout 300 "$G" run --backend "$be" --rule "$rule" --gens "$gens" \
            -o "$OUT/$name-$be.rle" "$OUT/$name.rle" \
            >"$OUT/$name-$be.log" 2>&1 || {
            log "cross $name: $be failed: $(tail -1 "$OUT/$name-$be.log")"
            return
        }
    done
    if cmp -s "$OUT/$name-cuda.rle" "$OUT/$name-cpu.rle"; then
        log "cross $name ($rule, $gens gens): cuda == cpu"
    else
        log "cross $name ($rule, $gens gens): DIFFERENT"
    fi
}

build || exit 1
log "built $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)"
if [ "${GG_CROSS:-1}" != 0 ]; then
    cross bb-torus "/2/3:T1001,703" 300 900 600 3 1 "/2/3"
    cross sw-plane "23/3/3:P999,517" 257 800 500 3 2 "23/3/3"
    cross c5-torus "12/34/5:T517,301" 200 517 301 5 3 "12/34/5"
    cross c17-hex "345/2/17H:T333,211" 150 333 211 17 4 "345/2/17H"
    cross bb-unbounded "/2/3" 500 200 150 3 5 "/2/3"
fi
for r in $RULES; do
    timeout 400 "$G" bench --backend cuda --rule "$r" --size "$SIZE" \
        --gens "$GENS" >"$OUT/table.log" 2>&1
    log "table: $(tail -1 "$OUT/table.log")"
done
for t in ${GG_TUNES:-}; do
    for r in ${GG_TUNE_RULES:-/2/3}; do
        GOLGEN_GPU_TUNE=$t timeout 300 "$G" bench --backend cuda --rule "$r" \
            --size "$SIZE" --gens "$GENS" >"$OUT/tune.log" 2>&1
        log "tune $t: $(tail -1 "$OUT/tune.log")"
    done
done
