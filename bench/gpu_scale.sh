#!/usr/bin/env bash
# Universes beyond one device (issue 17) on a fresh CUDA machine: build
# golgen (no solver, no cmocka), cross-check runs streamed through the
# device in bands (--device-mem) and runs in two bands on GPU 0 (--devices
# 0,0, the multi-device path) against the in-memory run (cmp of the output
# RLE: odd torus, bounded plane), then time them:
#   in memory against streamed, the universe 4x --device-mem;
#   one band against two bands on GPU 0 (both on the host clock);
#   a 524288^2 torus (2^38 cells) streamed from host memory (GG_BIG=0: not).
#
#   bench/gpu_scale.sh [BUILD_DIR]      (default build-gpu)
#   GG_BACKEND=ptx|cuda   (default ptx: the driver's JIT takes seconds per
#                          width where NVRTC takes ~40 s)
#   GG_GENS=N             generations of the timings (default 1024)
#   GG_TUNE=SHAPE         GOLGEN_GPU_TUNE for every run (no autotuning)
#   GG_KSTRIDE=0          the generic module only (GOLGEN_GPU_TUNE=generic,
#                         or GG_TUNE's shape then ",generic": no compile per
#                         width; what cuda wants in a short call)
#   GG_OUT=DIR            logs (default BUILD_DIR/gpu-scale-out)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-gpu}
case $B in /*) ;; *) B=$PWD/$B ;; esac
OUT=${GG_OUT:-$B/gpu-scale-out}
BE=${GG_BACKEND:-ptx}
GENS=${GG_GENS:-1024}
mkdir -p "$OUT"
export GOLGEN_CACHE_DIR=$B/cache
G=$B/golgen
[ -n "${GG_TUNE:-}" ] && export GOLGEN_GPU_TUNE=$GG_TUNE
if [ "${GG_KSTRIDE:-1}" = 0 ]; then
    export GOLGEN_GPU_TUNE=${GG_TUNE:+$GG_TUNE,}generic
fi

T0=$(date +%s)
log() { echo "== [$(($(date +%s) - T0)) s] $*" | tee -a "$OUT/summary.txt"; }

. "$ROOT/bench/gpu_build.sh" # build()

. "$ROOT/bench/soup.sh" # soup2()

# same RULE GENS EXTRA...: the in-memory run against one with EXTRA
same() {
    local rule=$1 gens=$2 tag
    shift 2
    tag=$(echo "$rule $*" | tr -c 'A-Za-z0-9' _)
    "$G" run --backend "$BE" --rule "$rule" --gens "$gens" -o "$OUT/m.rle" \
        "$OUT/soup.rle" 2>>"$OUT/cross.log" &&
        "$G" run --backend "$BE" --rule "$rule" --gens "$gens" "$@" \
            -o "$OUT/x_$tag.rle" "$OUT/soup.rle" 2>>"$OUT/cross.log" ||
        { log "FAIL (error) $rule $gens $*"; return; }
    if cmp -s "$OUT/m.rle" "$OUT/x_$tag.rle"; then
        log "same: $rule, $gens generations, $*"
        rm -f "$OUT/x_$tag.rle"
    else
        log "DIFFERS: $rule, $gens generations, $*"
    fi
}

bench() { # bench SIZE EXTRA...: the JSON line
    "$G" bench --backend "$BE" --rule B3/S23 --size "$1" --gens "$GENS" \
        --json "${@:2}" 2>>"$OUT/bench.log" | tail -1
}

log "build"
build || { log "build failed"; exit 1; }
log "cross-checks on $BE"
soup2 4099 3001 7 >"$OUT/soup.rle"
same B3/S23:T4099,3001 300 --device-mem 4M
same B3/S23:T4099,3001 300 --devices 0,0
same B3/S23:T4099,3001 37 --device-mem 4M
same B36/S23:P4099,3001 300 --device-mem 4M
same B36/S23:P4099,3001 300 --devices 0,0
soup2 2051 1501 11 >"$OUT/soup.rle"
same B3/S23:T2051,1501 300 --device-mem 450K
same B3/S23:P2051,1501 299 --device-mem 450K
same B3/S23:T2051,1501 299 --devices 0,0,0
grep -h "streamed\|bands," "$OUT/cross.log" | sort | uniq -c | head -20 \
    >>"$OUT/summary.txt"

log "timings, $GENS generations, backend $BE"
{
    echo "in memory, device clock:     $(bench 131072x65536)"
    echo "streamed, --device-mem 256M: $(bench 131072x65536 --device-mem 256M)"
    echo "in memory, device clock:     $(bench 262144x131072)"
    echo "streamed, --device-mem 1G:   $(bench 262144x131072 --device-mem 1G)"
    echo "in memory, device clock:     $(bench 262144x262144)"
    echo "streamed, --device-mem 2G:   $(bench 262144x262144 --device-mem 2G)"
    echo "one band, host clock:        $(bench 65536x65536 --devices 0)"
    echo "two bands on GPU 0:          $(bench 65536x65536 --devices 0,0)"
} | tee -a "$OUT/summary.txt"
grep -h "golgen:" "$OUT/bench.log" | tail -6 >>"$OUT/summary.txt"
if [ "${GG_BIG:-1}" != 0 ]; then
    log "524288^2 torus from host memory, --device-mem 8G"
    echo "big: $(bench 524288x524288 --device-mem 8G)" | tee -a "$OUT/summary.txt"
    grep -h "golgen: streamed" "$OUT/bench.log" | tail -1 >>"$OUT/summary.txt"
    free -g | head -2 >>"$OUT/summary.txt"
fi
log "done"
