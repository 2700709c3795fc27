#!/usr/bin/env bash
# Generations rules on the ptx backend, in one command on a fresh CUDA
# machine: build golgen (no SAT solver, no cmocka), open the ptx backend
# on each rule (every open validates the kernel against the multi-state
# reference: runtime/backends/validate_gen.h), cross-check whole runs of ptx
# against cuda and cpu (bit-identical RLE; odd tori, a bounded plane, the
# unbounded plane; ptx at each Generations launch shape of the tuner),
# then the table: Life, Brian's Brain and 23/3/3 on ptx at 65536^2 x 1024
# (bench --json), so the Generations rows read as a share of Life's.
#
#   bench/gpu_gen_ptx.sh [BUILD_DIR]   (default build-gpu)
#   GG_OUT=DIR         logs and summaries (default $OUT, else
#                      BUILD_DIR/gpu-gen-ptx-out)
#   GG_ONLY=cross|table  one half only (each fits a 600 s call alone)
#   GG_SIZE=WxH GG_GENS=N   table size (default 65536x65536, 1024)
#   GG_RULES="B3/S23 /2/3 23/3/3"   the table's rules
#   GG_XTUNE=SHAPE     GOLGEN_GPU_TUNE of the cross-checks' cuda runs (skips
#                      NVRTC's autotuning; default 8,1,4,1,0,6,2,6; empty:
#                      no cuda runs, NVRTC's ~40 s a rule saved)
#   GG_PTX_TUNES="..." the ptx shapes each cross-check runs (default: the
#                      tuner's Generations candidates, runtime/gpu/cuda_tune.c)
#   GG_CUDA_TABLE=1    also time the table's rules on cuda (autotuned)
#
# Writes summary.txt (every line below, as it happens), table.json (one
# bench --json object per line) and a log per run.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-gpu}
case $B in /*) ;; *) B=$PWD/$B ;; esac
OUT=${GG_OUT:-${OUT:-$B/gpu-gen-ptx-out}}
SIZE=${GG_SIZE:-65536x65536}
GENS=${GG_GENS:-1024}
RULES=${GG_RULES-B3/S23 /2/3 23/3/3}
XTUNE=${GG_XTUNE-8,1,4,1,0,6,2,6}
PTX_TUNES=${GG_PTX_TUNES-8,1,4,1,0,6,2,6 8,1,4,1,0,3,1,0 16,1,4,1,0,3,1,0}
ONLY=${GG_ONLY:-all}
mkdir -p "$OUT"
export GOLGEN_CACHE_DIR=$B/cache
CUDA=${CUDA_HOME:-/usr/local/cuda}
export PATH=$PATH:$CUDA/bin
G=$B/golgen

T0=$(date +%s)
log() { echo "== [$(($(date +%s) - T0)) s] $*" | tee -a "$OUT/summary.txt"; }

. "$ROOT/bench/gpu_build.sh" # build()

. "$ROOT/bench/soup.sh" # soup()

# One run: go NAME BACKEND TUNE RULE GENS; the RLE in $OUT/NAME-<tag>.rle.
# Every open of a GPU backend validates its kernel first, so a pass here
# is also the kernel's validation (a failed one exits 1 and says so).
go() {
    local name=$1 be=$2 tune=$3 rule=$4 gens=$5 tag=$2
    [ -n "$tune" ] && tag=$be-${tune//,/.}
    GOLGEN_GPU_TUNE=$tune timeout 300 "$G" run --backend "$be" \
        --rule "$rule" --gens "$gens" -o "$OUT/$name-$tag.rle" \
        "$OUT/$name.rle" >"$OUT/$name-$tag.log" 2>&1
    local rc=$?
    [ $rc = 0 ] || log "cross $name: $tag FAILED (exit $rc): $(tail -2 \
        "$OUT/$name-$tag.log" | tr '\n' ' ')"
    return $rc
}

# ptx (each shape) and cuda against cpu: the same RLE out of one soup.
cross() { # cross NAME RULE GENS SOUP_ARGS...
    local name=$1 rule=$2 gens=$3
    shift 3
    soup "$@" >"$OUT/$name.rle"
    go "$name" cpu "" "$rule" "$gens" || return
    local verdict=""
    for t in $PTX_TUNES; do
        if go "$name" ptx "$t" "$rule" "$gens"; then
            if cmp -s "$OUT/$name-ptx-${t//,/.}.rle" "$OUT/$name-cpu.rle"; then
                verdict+=" ptx[$t]==cpu"
            else
                verdict+=" ptx[$t]:DIFFERENT"
            fi
        fi
    done
    if [ -n "$XTUNE" ] && go "$name" cuda "$XTUNE" "$rule" "$gens"; then
        if cmp -s "$OUT/$name-cuda-${XTUNE//,/.}.rle" "$OUT/$name-cpu.rle"
        then
            verdict+=" cuda==cpu"
        else
            verdict+=" cuda:DIFFERENT"
        fi
    fi
    log "cross $name ($rule, $gens gens):$verdict"
}

# bench ROW BACKEND RULE: one table row, its JSON appended to table.json.
bench() {
    local be=$1 r=$2 f
    f=$OUT/bench-$be-$(echo "$r" | tr '/' '_').log
    timeout 400 "$G" bench --backend "$be" --rule "$r" --size "$SIZE" \
        --gens "$GENS" --json >"$f" 2>&1
    local rc=$?
    local json
    json=$(grep '^{' "$f" | tail -1)
    if [ $rc = 0 ] && [ -n "$json" ]; then
        echo "$json" >>"$OUT/table.json"
        log "table $be $r: $(echo "$json" | python3 -c 'import json,sys
d=json.load(sys.stdin)
print("%.3e CUpS, %.3f s" % (d["cups"], d["seconds"]))') $(grep -o \
            'chose [^(]*' "$f" | head -1)"
    else
        log "table $be $r FAILED (exit $rc): $(tail -2 "$f" | tr '\n' ' ')"
    fi
}

build || exit 1
log "built $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)$(git -C \
    "$ROOT" diff --quiet 2>/dev/null || echo ' + uncommitted changes'); \
$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
"$G" rule /2/3 | grep '^backends' | tee -a "$OUT/summary.txt"
if [ "$ONLY" != table ]; then
    cross ss-torus "23/3/3:T1001,703" 300 1001 703 3 1 "23/3/3"
    cross bb-torus "/2/3:T999,517" 257 999 517 3 2 "/2/3"
    cross c4-torus "345/2/4:T517,301" 200 517 301 4 3 "345/2/4"
    cross c8-torus "12/34/8:T333,211" 300 333 211 8 4 "12/34/8"
    cross ss-plane "23/3/3:P801,403" 257 801 403 3 5 "23/3/3"
    cross bb-unbounded "/2/3" 300 200 150 3 6 "/2/3"
fi
if [ "$ONLY" != cross ]; then
    : >"$OUT/table.json"
    for r in $RULES; do
        bench ptx "$r"
        [ "${GG_CUDA_TABLE:-0}" = 1 ] && bench cuda "$r"
    done
    python3 - "$OUT/table.json" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for be in sorted({r["backend"] for r in rows}):
    life = [r["cups"] for r in rows if r["backend"] == be
            and r["rule"] in ("B3/S23", "b3/s23")]
    for r in rows:
        if r["backend"] == be and life:
            print("== share %s %s: %.1f%% of Life's CUpS"
                  % (be, r["rule"], 100.0 * r["cups"] / life[-1]))
PY
fi
log "done"
