#!/usr/bin/env bash
# Where Life's GPU time goes (issue 19, BENCHMARKS.md "What 5.0e13 asks"):
# each backend's CUpS at a fixed launch shape on the 65536^2 torus, and the
# SASS of the kernel that ran, reduced by bench/sass_loop.py to the steady
# loop's instructions per 48 word-generations, grouped by pipe. Needs the
# CUDA toolkit (cuobjdump) and a GPU; builds golgen as bench/gpu.sh does.
#
#   bench/gpu_loop_mix.sh [BUILD_DIR]       (default build-gpu)
#   GG_RULES="B3/S23 ..."                   rules (default Life)
#   GG_PTX_TUNE / GG_CUDA_TUNE              launch shapes (default: what
#       the autotuner picks for Life on the H100, BENCHMARKS.md session 10)
#   GG_SIZE=WxH GG_GENS=N                   (default 65536x65536, 1024)
#   GG_OUT=DIR                              logs and SASS (default
#                                           BUILD_DIR/loop-mix)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-gpu}
case $B in /*) ;; *) B=$PWD/$B ;; esac
OUT=${GG_OUT:-$B/loop-mix}
SIZE=${GG_SIZE:-65536x65536}
GENS=${GG_GENS:-1024}
CUDA=${CUDA_HOME:-/usr/local/cuda}
export PATH=$PATH:$CUDA/bin
mkdir -p "$OUT"
. "$ROOT/bench/gpu_build.sh" # build()
build || exit 1
command -v cuobjdump >/dev/null || { echo "gpu_loop_mix: no cuobjdump" >&2; exit 3; }

shape_for() { # backend -> launch shape
    case $1 in
    ptx) echo "${GG_PTX_TUNE:-16,1,4,1,0,6,3,8}" ;;
    *) echo "${GG_CUDA_TUNE:-16,1,4,1,0,6,2,6}" ;;
    esac
}

for rule in ${GG_RULES:-B3/S23}; do
    for be in ptx cuda; do
        shape=$(shape_for "$be")
        turn=$(echo "$shape" | cut -d, -f6)
        case $turn in '' | 0) turn=3 ;; esac # the 3-tick loop
        name=$(echo "$rule" | tr / _)-$be
        # A cache of its own, so its cubins are this run's modules only
        # (the generic one the validation runs, and the constant-stride one
        # the 65536-wide grid runs).
        cache=$OUT/cache-$name
        rm -rf "$cache"
        GOLGEN_CACHE_DIR=$cache GOLGEN_GPU_TUNE=$shape "$B/golgen" bench \
            --backend "$be" --rule "$rule" --size "$SIZE" --gens "$GENS" \
            2>>"$OUT/bench.log" | tee -a "$OUT/summary.txt"
        for cub in "$cache"/*.cubin; do
            [ -e "$cub" ] || continue
            sass=$OUT/$name-$(basename "$cub" .cubin).sass
            cuobjdump -sass "$cub" >"$sass"
            echo "== $rule $be shape $shape, $(basename "$cub"):" | tee -a "$OUT/summary.txt"
            python3 "$ROOT/bench/sass_loop.py" --levels "$(echo "$shape" | cut -d, -f1)" \
                --ticks "$turn" "$sass" 2>&1 | tee -a "$OUT/summary.txt"
        done
    done
done
