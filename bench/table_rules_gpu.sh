#!/usr/bin/env bash
# Hensel and MAP rules on the GPU backends: whole runs against the cpu
# backend (itself checked against bgolly by tests/test_oracle.c) and the
# speed of a Hensel rule against Life at a fixed launch shape (no
# autotuning). The CUDA C kernels of these rules take NVRTC about a minute
# each on the H100 host (the template unrolls 16 levels of a network
# 3-5 times Life's), so they get long timeouts.
#
#   bash bench/table_rules_gpu.sh [BUILD_DIR]     (logs in $OUT or /tmp)
#   GG_GOLGEN=DIR   use DIR/golgen (and the libraries beside it) instead
#                   of building one without the solver: a golgen built
#                   with CryptoMiniSat gets the solver's networks (Hensel
#                   rules: the gated correction, 12 ops a word for
#                   B2n3/S23-q against 25 without it). Prepare here:
#                   mkdir -p .satlib && cp build-dev/golgen .satlib/ &&
#                   cp build-dev/golgen-sat.so .satlib/ &&
#                   cp /lib/x86_64-linux-gnu/libcryptominisat5.so.5.11 .satlib/
#                   (build-dev: -Dmpi=disabled -Dtests=disabled), then
#                   GG_GOLGEN=.satlib with carry [".satlib"].
#   GG_RULES, GG_BENCH   the timed rules and backends
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-gpu}
OUT=${OUT:-/tmp/table-rules-gpu}
mkdir -p "$OUT"
. "$ROOT/bench/gpu_build.sh" # build(), which also takes GG_GOLGEN
build || exit 1
export GOLGEN_CACHE_DIR=${GOLGEN_CACHE_DIR:-/tmp/gg-cache-rules} GOLGEN_GPU_TUNE=${GG_TUNE:-16,1,4}
python3 - "$OUT/soup.rle" <<'PY'
import random, sys
random.seed(5)
w = h = 300
rows = [''.join('o' if random.random() < 0.4 else 'b' for _ in range(w))
        for _ in range(h)]
open(sys.argv[1], 'w').write('x = %d, y = %d, rule = B3/S23\n%s!\n'
                             % (w, h, '$'.join(rows)))
PY
# crosscheck RULE BACKEND TIMEOUT
crosscheck() {
    "$B/golgen" run --rule "$1" --gens 300 --backend cpu -o "$OUT/cpu.rle" \
        "$OUT/soup.rle" 2>>"$OUT/run.log"
    local s=$SECONDS r=FAIL
    timeout "$3" "$B/golgen" run --rule "$1" --gens 300 --backend "$2" \
        -o "$OUT/$2.rle" "$OUT/soup.rle" 2>>"$OUT/run.log"
    local rc=$?
    cmp -s "$OUT/cpu.rle" "$OUT/$2.rle" && r=PASS
    echo "run $1 300 gens, $2 = cpu: $r (exit $rc, $((SECONDS - s)) s)"
}
# rules: the ptx backend on all four, then the speed, then CUDA C (slow
# to compile) on the first rule only unless GG_ALL_CUDA is set
rules=('B2n3/S23-q:T1000,999' 'B34e/S2-i3:P1001,700'
       'MAPL5ZkfSMH7SbGPmG7nYzmBA:T777,800' 'B2-a/S12:T3000,2000')
for rule in "${rules[@]}"; do
    crosscheck "$rule" ptx 60
done
for r in ${GG_RULES:-B3/S23 B2n3/S23-q}; do
    for be in ${GG_BENCH:-ptx}; do
        "$B/golgen" bench --backend $be --rule "$r" --size 65536x65536 \
            --gens 1024 2>&1 | tail -1
    done
done
for rule in "${rules[@]}"; do
    crosscheck "$rule" cuda 300
    [ -z "${GG_ALL_CUDA:-}" ] && break
done
