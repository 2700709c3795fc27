#!/usr/bin/env bash
# Uncached named Hensel and hexagonal rules on a GPU host without the
# solver (issue 40, session 27): a golgen built with -Dsat=disabled (as
# bench/gpu_build.sh builds) makes every network there from empty kernel
# caches; Life first, with its network from the cache, as the yardstick.
# The Hensel rules that generated/ holds (B2n3/S23-q, B34e/S2-i3, B2-a/S12)
# are taken out of a copy of it, so they too are made on the spot.
#
#   bench/gpu_solverless.sh [SRC_TAR] [OUT_DIR]
#   SRC_TAR: a `git archive` of the tree to build (default: this tree);
#   the device copies the working tree as it is, others' half-made edits
#   included, so carry an archive of a commit: git archive HEAD >
#   .gpunet/src.tar, then carry .gpunet/src.tar.
#   GG_RULES (default below), GG_SIZE (65536x65536), GG_GENS (1024).
# Per rule: the ops a word of the network the ptx backend gets (golgen
# verify, lut3, the front the GPU takes) and `golgen bench --backend ptx`
# (autotuned), into OUT_DIR/table.txt (setup and build logs beside it).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${2:-$ROOT/build-solverless-out}
mkdir -p "$OUT"
SRC=$ROOT
if [ -n "${1:-}" ]; then
    SRC=$(mktemp -d)
    tar -xf "$1" -C "$SRC" || exit 3
fi
RULES=${GG_RULES:-B3/S23 B2ce3aei/S23-a B3-k/S23 B2n3/S23-q B34e/S2-i3 B3/S23H B2/S34H B136/S0245H B3/S23}
SIZE=${GG_SIZE:-65536x65536}
GENS=${GG_GENS:-1024}
export PATH=$PATH:${CUDA_HOME:-/usr/local/cuda}/bin
WORK=$(mktemp -d) # the build, the generated/ copy, the kernel cache
B=$WORK/build
meson setup "$B" "$SRC" -Dsat=disabled -Dtests=disabled \
    --buildtype=release >"$OUT/setup.log" 2>&1 &&
    ninja -C "$B" golgen >"$OUT/build.log" 2>&1 ||
    { tail -30 "$OUT/setup.log" "$OUT/build.log"; exit 3; }
"$B/golgen" --version | head -2 | tee "$OUT/table.txt"
GEN=$WORK/generated
rm -rf "$GEN" && cp -r "$SRC/generated" "$GEN"
rm -f "$GEN"/networks/rowsum+cells/*/B2n3* "$GEN"/networks/rowsum+cells/*/B34e* \
    "$GEN"/networks/rowsum+cells/*/B2-a*
export GOLGEN_GENERATED=$GEN GOLGEN_CACHE_DIR=$WORK/cache
rm -rf "$GOLGEN_CACHE_DIR"
for rule in $RULES; do
    case $rule in *H|*V) front=none ;; *) front= ;; esac
    ops=$("$B/golgen" verify --rule "$rule" ${front:+--front $front} 2>&1 |
        grep -o "= [0-9]* logic ops" | grep -o "[0-9]*")
    res=$("$B/golgen" bench --backend ptx --rule "$rule" --size "$SIZE" \
        --gens "$GENS" 2>&1 | tail -1)
    echo "$rule ops=$ops: $res" | tee -a "$OUT/table.txt"
done
rm -rf "$WORK"
[ "$SRC" != "$ROOT" ] && rm -rf "$SRC"
exit 0
