#!/usr/bin/env bash
# One device call for the Golly families added in session 30: each pattern
# run by `golgen run` on cpu (which the oracle tests hold to bgolly) and on
# cuda and ptx, whole runs, and the written files compared byte for byte.
# Wolfram rules (MAP tables), B0 rules on the plane (two rules in turn),
# Golly's other bounded grids (the ring round the grid), and von Neumann's
# JvN rules (rule tables built in), where this build has them.
#
#   bash bench/gpu_golly_new.sh [BUILD_DIR]     (OUT=dir for logs)
#   GG_GENS      generations per run (default 500)
#   GG_BACKENDS  the GPU backends (default "cuda ptx")
#   GG_PATTERNS  the patterns (default bench/golly_new/, ignored by git:
#                filled from /usr/share/golly/Patterns where that exists,
#                so fill it on the VM and carry it to the GPU host)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-gpu}
OUT=${OUT:-/tmp/gpu-golly-new}
mkdir -p "$OUT"
. "$ROOT/bench/gpu_build.sh"
build || exit 1
export GOLGEN_CACHE_DIR=$OUT/cache
GENS=${GG_GENS:-500}
DIR=${GG_PATTERNS:-$ROOT/bench/golly_new}
G=/usr/share/golly/Patterns
if [ ! -d "$DIR" ] && [ -d "$G" ]; then
    mkdir -p "$DIR"
    cp "$G/Life-Like/p168-knightship.rle" "$G"/Life/Bounded-Grids/*.rle \
        "$G"/Self-Rep/JvN/*.rle "$DIR/"
    # the GPU host has no Golly: its rule files go beside the patterns
    cp "$G/../Rules/LifeHistory.rule" "$DIR/"
    for f in "$G"/Self-Rep/JvN/*.gz "$G/HashLife/wolfram22.mc"; do
        b=$(basename "$f" .gz)
        zcat -f "$f" >"$DIR/$b"
    done
fi
fail=0 n=0
for p in "$DIR"/*; do
    name=$(basename "$p")
    case $name in *.rule) continue ;; esac # found beside the patterns
    # the tree runs these on cpu only: the dense engine on every backend
    eng="--engine dense"
    line="$(printf '%-44s' "$name")"
    for be in cpu ${GG_BACKENDS:-cuda ptx}; do
        if ! timeout 300 "$B/golgen" run --backend "$be" $eng --gens "$GENS" \
                -o "$OUT/r-$be.rle" "$p" >"$OUT/log-$be" 2>&1; then
            line="$line $be=ERROR($(tail -1 "$OUT/log-$be" | cut -c1-120))"
            fail=1
            continue
        fi
        secs=$(grep -oE '[0-9.]+ s \(' "$OUT/log-$be" | tail -1 | cut -d' ' -f1)
        if [ "$be" = cpu ]; then
            line="$line cpu ${secs}s"
        elif cmp -s "$OUT/r-cpu.rle" "$OUT/r-$be.rle"; then
            line="$line $be=cpu ${secs}s"
        else
            line="$line $be=DIFFERS"
            fail=1
        fi
    done
    n=$((n + 1))
    echo "$line"
done
echo "golly-new: $n patterns, $([ $fail = 0 ] && echo 'all identical' || echo FAILURES)"
exit $fail
