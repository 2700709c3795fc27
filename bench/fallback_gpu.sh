#!/usr/bin/env bash
# What a rule without a cache entry runs at on the GPU, this tree against
# an older one (session 8: the adder tree replaced the decision diagram as
# the fallback final stage). Both golgen builds are cache-only (no solver,
# as on the GPU box), and GOLGEN_GENERATED points at an empty folder so
# that every rule, Life included, takes the fallback.
#
#   bench/fallback_gpu.sh OLD_TREE [OUT_DIR]
#   e.g. mkdir -p .gpunet/old && git archive 1ee135c | tar -x -C .gpunet/old
#        then on the device, with .gpunet carried:
#        bash bench/fallback_gpu.sh .gpunet/old $OUT
#   GG_RULES (default: Diehard's B35678/S5678, Life B3/S23, Day & Night)
#   GG_SIZE (default 32768x32768), GG_GENS (default 1024)
#   GOLGEN_GPU_TUNE=16,1,4 (for example) fixes one launch shape for both
#   builds: autotuning every kernel from scratch takes minutes per rule.
# Progress goes to OUT_DIR/table.txt; the builds are removed at the end
# (the device returns few files).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OLD=$(cd "${1:?usage: bench/fallback_gpu.sh OLD_TREE [OUT_DIR]}" && pwd)
OUT=${2:-$ROOT/build-fallback-out}
RULES=${GG_RULES:-B35678/S5678 B3/S23 B3678/S34678}
SIZE=${GG_SIZE:-32768x32768}
GENS=${GG_GENS:-1024}
mkdir -p "$OUT" "$OUT/empty"
export PATH=$PATH:${CUDA_HOME:-/usr/local/cuda}/bin
export GOLGEN_GENERATED=$OUT/empty

build() { # source tree, build dir
    meson setup "$2" "$1" -Dsat=disabled -Dtests=disabled \
        --buildtype=release >"$2.setup.log" 2>&1 &&
        ninja -C "$2" golgen >"$2.build.log" 2>&1 ||
        { tail -20 "$2.setup.log" "$2.build.log"; exit 3; }
}
build "$ROOT" "$OUT/new"
build "$OLD" "$OUT/old"

for rule in $RULES; do
    for be in ptx cuda; do
        for which in old new; do
            # each build tunes its own kernels
            export GOLGEN_CACHE_DIR=$OUT/$which/cache
            "$OUT/$which/golgen" --target "$be" --rule "$rule" \
                -o "$OUT/kernel.txt" 2>/dev/null
            gates=$(grep -m1 -o "[0-9]* final-stage gates" "$OUT/kernel.txt")
            from=$(grep -m1 -o "Final stage from [a-z ]*" "$OUT/kernel.txt")
            res=$("$OUT/$which/golgen" bench --backend "$be" --rule "$rule" \
                --size "$SIZE" --gens "$GENS" 2>&1 | tail -1)
            echo "$rule $be $which: $gates ($from): $res" | tee -a "$OUT/table.txt"
        done
    done
done
rm -rf "$OUT/new" "$OUT/old" "$OUT/empty"
