#!/usr/bin/env bash
# von Neumann (V) and hexagonal (H) rules against Life on the GPU (issue
# 40): build golgen (no SAT solver: cached networks), then per GG_ONLY
#   table   (default) the autotuned CUpS table of GG_RULES on GG_BACKENDS,
#           Life first, and the launch shape the tuner chose per rule
#   shapes  fixed launch shapes (GG_SHAPES, GOLGEN_GPU_TUNE texts) per rule
#   ncu     one gg_step_16 launch per rule under ncu (issue, stalls, memory)
#   checks  whole runs of V and H rules (and Life) against the cpu backend
# GG_RULES: the rules (default Life, the random V and H sets, Life again);
# GG_GOLGEN=DIR: a golgen built elsewhere (with the solver: see
# bench/gpu_build.sh); GG_CACHE=DIR the kernel cache (BUILD_DIR/cache);
# checks run cuda at GG_CHECK_TUNE (default 16,1,4,1,0,6,2,6: no tuning).
# GG_SIZE=WxH GG_GENS=N (default 65536x65536, 1024); GG_OUT=DIR logs
# (default BUILD_DIR/gpu-vh-out). Several modes: GG_ONLY="checks table".
#
# Without the solver (the default build here) an uncached V or H rule's
# final stage is a decision diagram: every V rule 12 LUTs (front none) or
# 2 + 13, the H rules 17 or 6 + 13..15, so the table measures the fallback,
# not the kernel (issue 40's 62% and 44-48% of Life were that). With the
# solver they take 4-5 and 7-8. For the figures in issue 40 carry a golgen
# built here with the solver: mkdir -p .satlib && cp BUILD/golgen
# BUILD/golgen-sat.so .satlib/ && cp -L /lib/x86_64-linux-gnu/{libcryptominisat5.so.5.11,
# libwebsockets.so.17,libpng16.so.16,libOpenCL.so.1} .satlib/ (BUILD:
# -Dmpi=disabled -Dtests=disabled), then GG_GOLGEN=.satlib, carry .satlib.
#
#   bench/gpu_vh.sh [BUILD_DIR]        (default build-gpu)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-gpu}
case $B in /*) ;; *) B=$PWD/$B ;; esac
OUT=${GG_OUT:-$B/gpu-vh-out}
SIZE=${GG_SIZE:-65536x65536}
GENS=${GG_GENS:-1024}
# The seeded random sets (issue 40's bar): GG_SEED (40), 10 rules each of
# B1..4/S0..4 von Neumann and B1..6/S0..6 hexagonal (each count on with
# probability 1/2, B not empty).
rand_rules() {
    python3 - "$1" "${GG_SEED:-40}" <<'PY'
import random, sys
kind, seed = sys.argv[1], int(sys.argv[2])
r = random.Random(seed * 100 + (1 if kind == 'V' else 2))
top = 4 if kind == 'V' else 6
out = []
while len(out) < 10:
    b = ''.join(str(i) for i in range(1, top + 1) if r.random() < 0.5)
    s = ''.join(str(i) for i in range(0, top + 1) if r.random() < 0.5)
    if b and 'B%s/S%s%s' % (b, s, kind) not in out:
        out.append('B%s/S%s%s' % (b, s, kind))
print(' '.join(out))
PY
}
RULES=${GG_RULES:-B3/S23 $(rand_rules V) $(rand_rules H) B3/S23}
BACKENDS=${GG_BACKENDS:-ptx cuda}
mkdir -p "$OUT"
export GOLGEN_CACHE_DIR=${GG_CACHE:-$B/cache}
CUDA=${CUDA_HOME:-/usr/local/cuda}
export PATH=$PATH:$CUDA/bin

log() { echo "== $*" | tee -a "$OUT/summary.txt"; }

. "$ROOT/bench/gpu_build.sh" # build()

bench_one() { # backend rule -> one table row
    local be=$1 rule=$2 j
    j=$("$B/golgen" bench --backend "$be" --rule "$rule" --size "$SIZE" \
        --gens "$GENS" --json 2>>"$OUT/bench.log")
    echo "$j" >>"$OUT/bench.jsonl"
    python3 -c '
import json, sys
try:
    d = json.loads(sys.argv[1])
    print("%-14s %-5s %11.3e %8.4f  open %.1f s" % (d["rule"], d["backend"],
          d["cups"], d["seconds"], d["open_seconds"]))
except Exception:
    print("%-14s %-5s %11s" % (sys.argv[3], sys.argv[2], "FAILED"))
' "$j" "$be" "$rule"
}

table() {
    log "autotuned, $SIZE torus, $GENS generations (CUpS, seconds):"
    for r in $RULES; do
        for be in $BACKENDS; do
            bench_one "$be" "$r"
        done
    done | tee -a "$OUT/summary.txt"
    python3 - "$OUT/bench.jsonl" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith('{')]
for be in sorted({d['backend'] for d in rows}):
    mine = [d for d in rows if d['backend'] == be]
    life = [d['cups'] for d in mine if d['rule'] == 'B3/S23']
    if not life:
        continue
    ref = sum(life) / len(life)
    for kind in 'VH':
        rs = [(d['cups'] / ref, d['rule']) for d in mine if d['rule'].endswith(kind)]
        if rs:
            print('%s %s: %d rules, ratio to Life (%.3e) min %.2f (%s) mean %.2f'
                  % (be, kind, len(rs), ref, min(rs)[0], min(rs)[1],
                     sum(x for x, _ in rs) / len(rs)))
PY
    log "tuning cache:"
    grep -H . "$GOLGEN_CACHE_DIR"/gpu-tune-*.txt | sed 's|.*/||' |
        tee -a "$OUT/summary.txt"
}

shapes() {
    local s r be
    log "fixed shapes, $SIZE torus, $GENS generations (CUpS, seconds):"
    for s in ${GG_SHAPES:-16,1,4,1,0,6,3,8}; do
        for r in $RULES; do
            for be in $BACKENDS; do
                echo "$s: $(GOLGEN_GPU_TUNE=$s bench_one "$be" "$r")"
            done
        done
    done | tee -a "$OUT/summary.txt"
}

NCU_METRICS=smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,sm__cycles_elapsed.avg
for m in wait long_scoreboard math_pipe_throttle not_selected short_scoreboard \
    mio_throttle no_instruction barrier dispatch_stall lg_throttle selected; do
    NCU_METRICS=$NCU_METRICS,smsp__average_warps_issue_stalled_${m}_per_issue_active.ratio
done

ncu_rules() {
    command -v ncu >/dev/null || { log "no ncu"; return; }
    local r be=${GG_NCU_BE:-ptx}
    for r in $RULES; do
        log "ncu $be $r gg_step_16, 32768^2, shape ${GG_PROF_TUNE:-autotuned}"
        ${GG_PROF_TUNE:+env GOLGEN_GPU_TUNE=$GG_PROF_TUNE} \
            ncu --clock-control none -k regex:gg_step_16 --launch-skip 60 \
            --launch-count 1 --metrics "$NCU_METRICS" \
            "$B/golgen" bench --backend "$be" --rule "$r" --size 32768x32768 \
            --gens 2048 >"$OUT/ncu.log" 2>&1
        grep -E "^\s+(smsp|sm__|dram|lts|gpu__|launch)" "$OUT/ncu.log" |
            sed 's/^ */   /' | tee -a "$OUT/summary.txt"
    done
}

checks() {
    python3 - "$OUT/soup.rle" <<'EOF'
import random, sys
random.seed(5)
w = h = 300
rows = []
for y in range(h):
    rows.append(''.join('o' if random.random() < 0.4 else 'b' for _ in range(w)))
open(sys.argv[1], 'w').write('x = %d, y = %d, rule = B3/S23\n%s!\n' % (w, h, '$'.join(rows)))
EOF
    local rule be
    for rule in ${GG_CHECK_RULES:-B3/S23:T1000,999 B3/S23V:T1000,999 \
        B2/S23V:P1001,700 B13/S012V:T777,800 B3/S23H:T1000,999 \
        B2/S34H:P1001,700 B3/S23:P1001,700}; do
        "$B/golgen" run --rule "$rule" --gens 300 --backend cpu \
            -o "$OUT/cpu.rle" "$OUT/soup.rle" 2>>"$OUT/run.log"
        for be in $BACKENDS; do
            GOLGEN_GPU_TUNE=${GG_CHECK_TUNE:-$(
                [ "$be" = cuda ] && echo 16,1,4,1,0,6,2,6)} \
            "$B/golgen" run --rule "$rule" --gens 300 --backend "$be" \
                -o "$OUT/$be.rle" "$OUT/soup.rle" 2>>"$OUT/run.log"
            if cmp -s "$OUT/cpu.rle" "$OUT/$be.rle"; then
                log "run $rule 300 gens, $be = cpu: PASS"
            else
                log "run $rule 300 gens, $be = cpu: FAIL"
            fi
        done
    done
}

nvidia-smi -L 2>&1 | tee "$OUT/summary.txt"
build || exit 1
for m in ${GG_ONLY:-table}; do
    case $m in
    table) table ;;
    shapes) shapes ;;
    ncu) ncu_rules ;;
    checks) checks ;;
    *) log "unknown mode $m" ;;
    esac
done
