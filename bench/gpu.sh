#!/usr/bin/env bash
# GPU backends on a fresh CUDA machine: build golgen (no SAT solver, no
# cmocka needed), validate every GPU backend on the device, cross-check
# whole runs against the CPU backend and the reference, run
# compute-sanitizer and ncu on the main kernel, then the CUpS table
# (printed last).
#
#   bench/gpu.sh [BUILD_DIR]        (default build-gpu)
#   GG_QUICK=1    skip sanitizer/ncu and the other rules
#   GG_ONLY=profile   build, then ncu and the SASS mix only
#   GG_ONLY=sweep     build, then the PTX sweep at a fixed launch shape
#                     (GG_PROF_TUNE, three numbers): the four rules, and
#                     with GG_FMA_LIST's shares of the levels shifting by
#                     multiply-adds (GOLGEN_GPU_TUNE's fma, sixteenths);
#                     then the checks and an ncu profile of the ptx
#                     kernel (GG_FMA share)
#                     (GG_TURN_LIST: also the PTX interior loop's ticks
#                     per turn, GOLGEN_GPU_TUNE's turn). The interior
#                     copy's switch (GOLGEN_PTX_INNER) is gone: it won.
#   GG_ONLY=shapes    build, then the PTX fixed-shape matrix of BENCHMARKS
#                     session 5: each rule with fma 0 and 2/16, 3- and 6-tick
#                     turns, rows loaded/warmed ahead, the constant row
#                     stride on and off (GOLGEN_GPU_TUNE=SHAPE,generic);
#                     GG_SHAPE_BE=cuda: the CUDA C target's matrix
#                     (session 6); GG_SHAPES="fma,turn,pf,warm ...": others
#   GG_ONLY=checks    build, validate, cross-check and compute-sanitizer only
#   GG_ONLY=table     build, the table (and the ncu profile) only: with
#                     GG_ONLY=checks first, the whole script in two calls
#                     (one machine: the second reuses the tuning cache)
#   GG_SIZE=WxH GG_GENS=N           table size (default 65536x65536, 1024)
#   GG_BACKENDS="cuda ptx opencl"   the table's backends (OpenCL: Life only;
#                     10 minutes at the default size on the H100)
#   GG_PROFILE=0  no ncu profile after the table
#   GG_RULES="B3/S23 ..."           the table's rules
#   GG_PROF_TUNE=T,S,W  launch shape ncu profiles (default 16,1,4)
#   GG_OUT=DIR    logs (default BUILD_DIR/gpu-out)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-gpu}
case $B in /*) ;; *) B=$PWD/$B ;; esac
OUT=${GG_OUT:-$B/gpu-out}
SIZE=${GG_SIZE:-65536x65536}
GENS=${GG_GENS:-1024}
mkdir -p "$OUT"
export GOLGEN_CACHE_DIR=$B/cache
CUDA=${CUDA_HOME:-/usr/local/cuda}
export PATH=$PATH:$CUDA/bin
# OpenCL headers and ICD loader from the CUDA toolkit when the system has
# none (the NVIDIA ICD comes with the driver).
if ! [ -e /usr/include/CL/cl.h ] && [ -e "$CUDA/include/CL/cl.h" ]; then
    export CPATH=$CUDA/include${CPATH:+:$CPATH}
    export LIBRARY_PATH=$CUDA/lib64${LIBRARY_PATH:+:$LIBRARY_PATH}
    export LD_LIBRARY_PATH=$CUDA/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

log() { echo "== $*" | tee -a "$OUT/summary.txt"; }

. "$ROOT/bench/gpu_build.sh" # build()

# Opening a backend validates it on the device against the reference.
validate() {
    for be in cuda ptx opencl; do
        if "$B/golgen" bench --backend "$be" --rule B3/S23 --size 4096x4096 \
            --gens 64 >"$OUT/validate-$be.log" 2>&1; then
            log "validate $be: PASS ($(cat "$OUT/validate-$be.log"))"
        else
            log "validate $be: exit $? ($(tail -1 "$OUT/validate-$be.log"))"
        fi
    done
}

# Whole runs: a soup on a torus and the R-pentomino on the unbounded
# plane, GPU against the CPU backend (itself checked against the
# reference by its own tests).
crosscheck() {
    python3 - "$OUT/soup.rle" <<'EOF'
import random, sys
random.seed(5)
w = h = 300
rows = []
for y in range(h):
    rows.append(''.join('o' if random.random() < 0.4 else 'b' for _ in range(w)))
open(sys.argv[1], 'w').write('x = %d, y = %d, rule = B3/S23\n%s!\n' % (w, h, '$'.join(rows)))
EOF
    # Hensel and MAP rules too (their kernels read the cells, not only the
    # row sums); the MAP rule is hexagonal; Maze (a rowsum-lr network) and
    # Brian's Brain (Generations) autotune to T16 without the register cap
    for rule in 'B3/S23:T1000,999' 'B36/S23:P1001,700' 'B3678/S34678:T777,800' \
        'B3/S23:T3000,2000' 'B2/S:P2500,1500' 'B2n3/S23-q:T1000,999' \
        'B34e/S2-i3:P1001,700' 'MAPL5ZkfSMH7SbGPmG7nYzmBA:T777,800' \
        'B3/S12345:T1000,999' '/2/3:P1001,700'; do
        "$B/golgen" run --rule "$rule" --gens 300 --backend cpu \
            -o "$OUT/cpu.rle" "$OUT/soup.rle" 2>>"$OUT/run.log"
        for be in cuda ptx opencl; do
            "$B/golgen" run --rule "$rule" --gens 300 --backend "$be" \
                -o "$OUT/$be.rle" "$OUT/soup.rle" 2>>"$OUT/run.log"
            if cmp -s "$OUT/cpu.rle" "$OUT/$be.rle"; then
                log "run $rule 300 gens, $be = cpu: PASS"
            else
                log "run $rule 300 gens, $be = cpu: FAIL"
            fi
        done
    done
    for be in cuda ptx; do
        "$B/golgen" run --gens 1103 --backend "$be" -o "$OUT/r.rle" \
            2>"$OUT/rpent-$be.log"
        log "R-pentomino 1103 gens on $be (116 expected): $(tail -1 "$OUT/rpent-$be.log")"
    done
}

sanitize() {
    command -v compute-sanitizer >/dev/null || { log "no compute-sanitizer"; return; }
    for be in cuda ptx; do
        compute-sanitizer --tool memcheck --error-exitcode 9 "$B/golgen" bench \
            --backend "$be" --size 2048x2048 --gens 40 >"$OUT/sanitizer-$be.log" 2>&1
        log "compute-sanitizer memcheck ($be: validation + bench): exit $? $(grep -E 'ERROR SUMMARY' "$OUT/sanitizer-$be.log" | tail -1)"
    done
}

sweep() {
    local tune=${GG_PROF_TUNE:-16,1,4} r i f
    log "PTX sweep, $SIZE torus, $GENS generations, shape $tune (CUpS, seconds):"
    {
        for r in B3/S23 B36/S23 B3678/S34678 B2/S; do
            echo "fma=0: $(GOLGEN_GPU_TUNE=$tune bench_one ptx $r)"
            for f in ${GG_FMA_LIST:-}; do
                echo "fma=$f: $(GOLGEN_GPU_TUNE=$tune,1,$f bench_one ptx $r)"
            done
            for t in ${GG_TURN_LIST:-}; do
                echo "turn=$t: $(GOLGEN_GPU_TUNE=$tune,1,0,$t bench_one ptx $r)"
            done
        done
    } | tee -a "$OUT/summary.txt"
    grep -i "fail\|error" "$OUT/bench.log" | tail -3 | tee -a "$OUT/summary.txt"
}

# Fixed shapes: the table behind the autotuner's candidates
# (fma,turn,pf,warm; "k0": the generic module, no constant row stride) for
# GG_SHAPE_BE (ptx, the default, or cuda: fma is PTX's only).
shapes() {
    local r s k g be=${GG_SHAPE_BE:-ptx}
    local list="0,0,0,0 0,6,0,0 0,6,3,8 0,6,2,6 2,6,3,8 2,6,2,6 0,6,3,8k0"
    [ "$be" = cuda ] &&
        list="0,0,0,0 0,6,0,0 0,3,2,6 0,6,2,6 0,6,2,8 0,6,1,6 0,6,3,8 0,6,2,6k0"
    list=${GG_SHAPES:-$list}
    log "$be fixed shapes, $SIZE torus, $GENS generations (CUpS, seconds):"
    for r in ${GG_RULES:-B3/S23 B36/S23 B3678/S34678 B2/S}; do
        for s in $list; do
            k=1 g=; case $s in *k0) k=0 g=,generic; s=${s%k0};; esac
            echo "fma,turn,pf,warm=$s kstride=$k: $(GOLGEN_GPU_TUNE=16,1,4,1,$s$g \
                bench_one "$be" $r)"
        done
    done | tee -a "$OUT/summary.txt"
}

# Pipes and the stall reasons per issued instruction, for both profiles.
NCU_METRICS=sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
for r in wait long_scoreboard math_pipe_throttle not_selected short_scoreboard \
    mio_throttle no_instruction barrier dispatch_stall lg_throttle; do
    NCU_METRICS=$NCU_METRICS,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
done

# ncu over one gg_step_16 launch of a 32768^2 bench: ncu_step16 CACHE
# BACKEND [ncu options]. It skips the validation's launches (about 30 of
# gg_step_16); the launch shape is the one autotune chose for every rule
# on the H100 unless GG_PROF_TUNE says otherwise.
ncu_step16() {
    local cache=$1 be=$2
    shift 2
    GOLGEN_CACHE_DIR=$cache GOLGEN_GPU_TUNE=${GG_PROF_TUNE:-16,1,4} \
        ncu --clock-control none -k regex:gg_step_16 --launch-skip 100 \
        --launch-count 1 --metrics "$NCU_METRICS" "$@" \
        "$B/golgen" bench --backend "$be" --size 32768x32768 --gens 2048
}

profile() {
    command -v ncu >/dev/null || { log "no ncu"; return; }
    # A cache of its own, so the one cuda cubin in it is the profiled
    # kernel's (the SASS mix below).
    local pc=$B/cache-profile
    rm -rf "$pc"
    ncu_step16 "$pc" cuda --section SpeedOfLight \
        --section ComputeWorkloadAnalysis --section InstructionStats \
        --section Occupancy --section SchedulerStats --section WarpStateStats \
        >"$OUT/ncu.txt" 2>&1
    log "ncu (cuda gg_step_16, 32768^2, shape ${GG_PROF_TUNE:-16,1,4}):"
    grep -E "Compute \(SM\) Throughput|Memory Throughput|Executed Ipc Active|Issue Slots Busy|Issued Warp|No Eligible|Achieved Occupancy|Registers Per|Duration|Theoretical Occ|sm__pipe|sm__inst|smsp__issue|stalled" \
        "$OUT/ncu.txt" | sed 's/^ */   /' | tee -a "$OUT/summary.txt"
    grep -A12 -i "pipe utilization\|Pipe Utilization" "$OUT/ncu.txt" | head -20 >>"$OUT/summary.txt"
    # Instruction mix of the main kernel from its SASS.
    cub=$(ls -t "$pc"/cuda-*.cubin 2>/dev/null | head -1)
    if [ -n "$cub" ] && command -v cuobjdump >/dev/null; then
        cuobjdump -sass "$cub" | awk '/Function : gg_step_16/{on=1;next} /Function :/{on=0} on' >"$OUT/sass.txt" 2>&1
        log "SASS opcode mix of gg_step_16 ($cub):"
        grep -oE '^\s+/\*[0-9a-f]+\*/\s+(@!?U?P[0-9T] )?[A-Z][A-Z0-9_.]+' "$OUT/sass.txt" |
            awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -14 |
            tee -a "$OUT/summary.txt"
    fi
}

# The ptx kernel with source-level stall sampling: the report, its
# details page and a CSV of samples per SASS instruction.
profile_ptx() {
    command -v ncu >/dev/null || { log "no ncu"; return; }
    ncu_step16 "$B/cache-profile-ptx" ptx --section SpeedOfLight \
        --section SourceCounters --section SchedulerStats \
        --section WarpStateStats -o "$OUT/ptx-prof" -f \
        >"$OUT/ncu-ptx-run.txt" 2>&1
    ncu -i "$OUT/ptx-prof.ncu-rep" --page details >"$OUT/ncu-ptx.txt" 2>&1
    ncu -i "$OUT/ptx-prof.ncu-rep" --page source --csv --print-source sass \
        >"$OUT/ncu-ptx-source.csv" 2>&1
    log "ncu (ptx gg_step_16, 32768^2, shape ${GG_PROF_TUNE:-16,1,4}):"
    grep -E "Duration|Issue Slots Busy|No Eligible|sm__pipe|sm__inst|smsp__issue|stalled" \
        "$OUT/ncu-ptx.txt" | sed 's/^ */   /' | tee -a "$OUT/summary.txt"
}

bench_one() { # backend rule -> one table row
    local be=$1 rule=$2 j
    j=$("$B/golgen" bench --backend "$be" --rule "$rule" --size "$SIZE" \
        --gens "$GENS" --json 2>>"$OUT/bench.log")
    echo "$j" >>"$OUT/bench.jsonl"
    python3 -c '
import json, sys
try:
    d = json.loads(sys.argv[1])
    print("%-14s %-7s %12.3e %9.4f  %s" % (d["rule"], d["backend"], d["cups"], d["seconds"], d["isa"]))
except Exception:
    print("%-14s %-7s %12s" % (sys.argv[3], sys.argv[2], "FAILED"))
' "$j" "$be" "$rule"
}

table() {
    local rules='B3/S23'
    [ -z "${GG_QUICK:-}" ] && rules='B3/S23 B36/S23 B3678/S34678 B2/S'
    rules=${GG_RULES:-$rules}
    {
        echo "golgen GPU backends, $SIZE torus, $GENS generations, device time of the simulation:"
        printf '%-14s %-7s %12s %9s  %s\n' rule backend CUpS seconds device
        for r in $rules; do
            for be in ${GG_BACKENDS:-cuda ptx}; do
                [ "$be" = opencl ] || bench_one "$be" "$r"
            done
        done
        case " ${GG_BACKENDS:-opencl} " in *" opencl "*) bench_one opencl B3/S23 ;; esac
    } >"$OUT/table.txt"
}

nvidia-smi -L 2>&1 | tee "$OUT/summary.txt"
build || exit 1
if [ "${GG_ONLY:-}" = profile ]; then
    profile
    exit 0
fi
if [ "${GG_ONLY:-}" = profile-ptx ]; then
    profile_ptx
    exit 0
fi
if [ "${GG_ONLY:-}" = shapes ]; then
    shapes
    exit 0
fi
if [ "${GG_ONLY:-}" = sweep ]; then
    sweep
    [ -n "${GG_FMA:-}" ] && GG_PROF_TUNE=${GG_PROF_TUNE:-16,1,4},1,$GG_FMA
    crosscheck
    sanitize
    profile_ptx
    exit 0
fi
if [ "${GG_ONLY:-}" = checks ]; then
    validate
    crosscheck
    sanitize
    exit 0
fi
if [ "${GG_ONLY:-}" != table ]; then
    validate
    [ -z "${GG_QUICK:-}" ] && crosscheck
    [ -z "${GG_QUICK:-}" ] && sanitize
fi
table
[ -z "${GG_QUICK:-}" ] && [ "${GG_PROFILE:-1}" != 0 ] && profile
echo
cat "$OUT/table.txt"
