#!/usr/bin/env bash
# Issue 22's GPU check in two device calls: the tree before the backend
# interface (a copy of the old commit in .orig/, untracked) against this
# one, built the same way (cache-only), on the same machine.
#
#   PHASE=checks bash bench/refactor_gpu.sh   smoke + checks (this tree)
#   PHASE=table  bash bench/refactor_gpu.sh   the table, old then new
#
# Results go to $OUT (the device tool's folder) or /tmp/refactor-gpu.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-/tmp/refactor-gpu}
mkdir -p "$OUT"
RULES=${GG_RULES:-B3/S23 B36/S23}
case ${PHASE:-checks} in
checks)
    OUT=/tmp/smoke bash "$ROOT/bench/gpu_smoke.sh" "$ROOT/build-gpu" \
        >"$OUT/smoke.txt" 2>&1
    GG_ONLY=checks GG_OUT=/tmp/checks bash "$ROOT/bench/gpu.sh" \
        "$ROOT/build-gpu" >/dev/null 2>&1
    cp /tmp/checks/summary.txt "$OUT/checks.txt"
    ;;
table)
    for t in old new; do
        src=$ROOT b=$ROOT/build-gpu
        [ $t = old ] && src=$ROOT/.orig b=$ROOT/build-gpu-old
        (cd "$src" && GG_ONLY=table GG_RULES="$RULES" GG_BACKENDS="cuda ptx" \
            GG_PROFILE=0 GG_OUT=/tmp/table-$t bash bench/gpu.sh "$b" \
            >/dev/null 2>&1)
        cp /tmp/table-$t/table.txt "$OUT/table-$t.txt"
    done
    ;;
esac
cat "$OUT"/*.txt
