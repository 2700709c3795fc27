#!/usr/bin/env bash
# Several GPUs of one host (issue 20): build golgen (no solver, no cmocka),
# check that bands on every GPU end bit-identical to one GPU (cmp of the
# RLE of `golgen run` on soups: odd torus and bounded plane, halos device
# to device),
# then time Life, 1024 generations:
#   strong scaling, 131072^2: one GPU resident (device clock), one band
#   through the multi-band path (host clock), then 2, 4, 8... bands up to
#   every GPU with halos device to device, and every GPU with halos
#   through the host; efficiency against the one GPU resident, and
#   against one band's share of the rows alone on one GPU (so a smaller
#   band's own speed is told apart from the exchanges);
#   weak scaling, 65536^2 per GPU, against one band of 65536^2;
#   end to end, `golgen run` of 8192 generations on the 131072^2 torus
#   (GG_RUN_GENS), command to exit, on 1, 2, 4... GPUs up to the bands
#   given (twice, after a first use that builds and checks the kernel for
#   the width), and the outputs compared: the grid lives
#   on the devices alone (runtime/universes/resident.h), checked first
#   against the host grid's run (no --devices: auto's engine) on smaller
#   grids.
# The bands stay resident for the timed steps (as one GPU's grid does);
# moving them in and out is reported apart (transfer_seconds).
#
#   bench/gpu_multi.sh [BUILD_DIR]   (default build-gpu)
#   GG_DEVICES=LIST   the bands (default: one per GPU nvidia-smi lists;
#                     0,0 runs two bands on GPU 0, the same code path)
#   GG_BACKEND=ptx|cuda (default ptx)   GG_GENS=N (default 1024)
#   GG_SIDE=N         the strong-scaling torus side (default 131072)
#   GG_OUT=DIR        logs (default BUILD_DIR/gpu-multi-out)
#   GG_PARTS=LIST     which parts run (default cross,bench,run)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-gpu}
case $B in /*) ;; *) B=$PWD/$B ;; esac
OUT=${GG_OUT:-$B/gpu-multi-out}
BE=${GG_BACKEND:-ptx}
GENS=${GG_GENS:-1024}
SIDE=${GG_SIDE:-131072}
PARTS=,${GG_PARTS:-cross,bench,run},
part() { case $PARTS in *,$1,*) return 0 ;; esac; return 1; }
mkdir -p "$OUT"
export GOLGEN_CACHE_DIR=$B/cache CUDA_CACHE_PATH=$B/cache/nv
export PATH=/usr/local/cuda/bin:$PATH
G=$B/golgen
NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
DEV=${GG_DEVICES:-$(seq -s, 0 $((NGPU > 0 ? NGPU - 1 : 0)))}
NB=$(echo "$DEV" | tr ',' '\n' | grep -c .)

T0=$(date +%s)
log() { echo "== [$(($(date +%s) - T0)) s] $*" | tee -a "$OUT/summary.txt"; }

. "$ROOT/bench/gpu_build.sh" # build()
. "$ROOT/bench/soup.sh"      # soup2()

# same RULE GENS: one GPU against the bands on $DEV
same() {
    "$G" run --backend "$BE" --rule "$1" --gens "$2" -o "$OUT/one.rle" \
        "$OUT/soup.rle" 2>>"$OUT/cross.log" &&
        "$G" run --backend "$BE" --rule "$1" --gens "$2" --devices "$DEV" \
            -o "$OUT/many.rle" "$OUT/soup.rle" 2>>"$OUT/cross.log" ||
        { log "FAIL (error) $1 $2"; return; }
    if cmp -s "$OUT/one.rle" "$OUT/many.rle"; then
        log "same: $1, $2 generations, --devices $DEV"
    else
        log "DIFFERS: $1, $2 generations, --devices $DEV"
    fi
}

bench() { # bench SIZE EXTRA...: the JSON line, without the open detail
    "$G" bench --backend "$BE" --rule B3/S23 --size "$1" --gens "$GENS" \
        --json "${@:2}" 2>>"$OUT/bench.log" | tail -1 |
        sed 's/"kernel_cached.*"open_detail": "[^"]*", //'
}

log "$(nvidia-smi -L 2>&1 | tr '\n' ';')"
nvidia-smi topo -m >"$OUT/topo.txt" 2>&1
log "build"
build || { log "build failed"; exit 1; }
G=$B/golgen # GG_GOLGEN's, where given
# same RULE GENS IN: the host grid's run (one GPU, auto's engine) against
# the grid on the devices alone, on GPU 0 and on the bands
same_resident() {
    "$G" run --backend "$BE" --rule "$1" --gens "$2" -o "$OUT/host.rle" \
        ${3:-} 2>>"$OUT/cross.log" || { log "FAIL (error) host $1 $2"; return; }
    for d in 0 "$DEV"; do
        "$G" run --backend "$BE" --rule "$1" --gens "$2" --devices "$d" \
            -o "$OUT/res.rle" ${3:-} 2>>"$OUT/cross.log" ||
            { log "FAIL (error) resident $1 $2 --devices $d"; continue; }
        if cmp -s "$OUT/host.rle" "$OUT/res.rle"; then
            log "same resident: $1, $2 generations, --devices $d ${3:-}"
        else
            log "DIFFERS resident: $1, $2 generations, --devices $d ${3:-}"
        fi
    done
}

if part cross; then
log "cross-checks on $BE, bands on $DEV"
soup2 4099 3001 7 >"$OUT/soup.rle"
same B3/S23:T4099,3001 300
same B36/S23:P4099,3001 301
soup2 2051 777 11 >"$OUT/soup.rle"
same B3/S23:T2051,777 1000
printf '#CXRLE Pos=-8000,8100\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n' \
    >"$OUT/glider.rle"
same_resident B3/S23:T16384,16384 3000
same_resident B3/S23:T16385,16387 1500 "$OUT/glider.rle"
same_resident B3/S23:P16383,16001 2000
grep -h "alone" "$OUT/cross.log" | tail -2 >>"$OUT/summary.txt"
fi

secs() { sed -n 's/.*"seconds": \([0-9.e+-]*\).*/\1/p'; }
eff() { # eff ONE MANY [COUNT]: ONE / (MANY * COUNT) as a percentage
    awk -v a="$1" -v b="$2" -v n="${3:-1}" \
        'BEGIN { if (b > 0) printf "%.1f%%", 100 * a / (b * n); else print "-" }'
}

if part bench; then
log "timings, $GENS generations, backend $BE"
half=$((SIDE / 2))
one=$(bench ${SIDE}x$SIDE)
one_s=$(echo "$one" | secs)
weak1=$(bench ${half}x$half --devices 0)
weak1_s=$(echo "$weak1" | secs)
{
    echo "1 GPU resident ${SIDE}^2:   $one"
    echo "1 band, host clock:        $(bench ${SIDE}x$SIDE --devices 0)"
    echo "weak, 1 GPU ${half}^2:     $weak1"
} | tee -a "$OUT/summary.txt"
# every count 2, 4, 8... up to the bands given, and the bands given
for n in $(seq 2 "$NB"); do
    [ $((n & (n - 1))) -eq 0 ] || [ "$n" -eq "$NB" ] || continue
    devs=$(echo "$DEV" | cut -d, -f1-"$n")
    strong=$(bench ${SIDE}x$SIDE --devices "$devs")
    strong_s=$(echo "$strong" | secs)
    share=$(bench ${SIDE}x$((SIDE / n)))
    weak=$(bench ${half}x$((half * n)) --devices "$devs")
    {
        echo "$n bands ($devs), peer halos: $strong"
        echo "   strong efficiency against 1 GPU resident: $(eff "$one_s" "$strong_s" "$n")"
        echo "1 GPU resident, one band's share ${SIDE}x$((SIDE / n)): $share"
        echo "   the bands against their share alone (what the exchanges cost): $(eff "$(echo "$share" | secs)" "$strong_s")"
        echo "weak, $n bands ${half}x$((half * n)): $weak"
        echo "   weak efficiency: $(eff "$weak1_s" "$(echo "$weak" | secs)")"
    } | tee -a "$OUT/summary.txt"
done
host=$(bench ${SIDE}x$SIDE --devices "$DEV" --halos host)
{
    echo "$NB bands, host halos:     $host"
    echo "   strong efficiency: $(eff "$one_s" "$(echo "$host" | secs)" "$NB")"
} | tee -a "$OUT/summary.txt"
grep -h "golgen:" "$OUT/bench.log" | tail -8 >>"$OUT/summary.txt"
fi

# end to end: `golgen run` holds the grid on the devices for the whole run
run_wall() { # run_wall DEVICES|-: seconds from command to exit (-: none)
    local t0=$(date +%s.%N) dev=(--devices "$1")
    [ "$1" = - ] && dev=()
    "$G" run --backend "$BE" --rule "B3/S23:T$SIDE,$SIDE" --gens "$RUNGENS" \
        "${dev[@]}" -o "$OUT/run_$1.rle" 2>>"$OUT/run.log" ||
        { echo "FAIL"; return; }
    awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'
}
RUNGENS=${GG_RUN_GENS:-8192}
# 1, 2, 4, 8... GPUs up to the bands given, and the bands given
counts() {
    for n in $(seq 1 "$NB"); do
        [ $((n & (n - 1))) -eq 0 ] || [ "$n" -eq "$NB" ] && echo "$n"
    done
}
if part run; then
log "golgen run, ${SIDE}^2 torus (the R-pentomino), $RUNGENS generations"
{
    # a kernel built (and checked) for this width first: apart
    echo "1 GPU, first use: $(run_wall "$(echo "$DEV" | cut -d, -f1)") s"
    for round in 1 2; do
        for n in $(counts); do
            devs=$(echo "$DEV" | cut -d, -f1-"$n")
            echo "$n GPU$([ "$n" -gt 1 ] && echo s) ($devs): $(run_wall "$devs") s"
        done
    done
    echo "no --devices (auto's engine, the host grid): $(run_wall -) s"
} | tee -a "$OUT/summary.txt"
one=$(echo "$DEV" | cut -d, -f1)
for n in $(counts); do
    devs=$(echo "$DEV" | cut -d, -f1-"$n")
    cmp -s "$OUT/run_$one.rle" "$OUT/run_$devs.rle" &&
        log "same RLE: 1 GPU and $devs" ||
        log "DIFFERS: run on 1 GPU and on $devs"
done
cmp -s "$OUT/run_$one.rle" "$OUT/run_-.rle" && log "same RLE as the host grid" ||
    log "DIFFERS: run on the devices alone and the host grid's"
grep -h "golgen\|generation" "$OUT/run.log" | tail -24 >>"$OUT/summary.txt"
fi
log "done"
