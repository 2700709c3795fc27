#!/usr/bin/env bash
# Larger than Life on the GPU (issue 39 part 3; runtime/gpu/cuda_ltl.h):
# 1. whole runs of random soups (box R5 and R100, diamond R5, a C > 2
#    diamond with M0), torus and bounded plane, on each GPU backend
#    against the cpu backend (RLE outputs compared byte for byte), and
#    cpu against bgolly -a "Larger than Life" where bgolly is installed
#    (not on the GPU host: run this script on the VM too);
# 2. speed: golgen bench (a 50% soup filling an NxN torus, one untimed
#    generation, then GENS timed in one call: upload, GENS generations on
#    the device, download) at two generation counts, whose difference is
#    the time a generation without the transfers; and bgolly's CPU time a
#    generation where installed (1+G generations less 1, as bench/ltl.sh;
#    Golly's LtL grids stop at 100M cells, so not past 8192^2).
# Every kernel validates itself against the reference when it opens, so a
# run that prints a result passed that too.
#
#   bash bench/gpu_ltl.sh [BUILD_DIR]       (logs in $OUT or /tmp/gpu-ltl)
#   GG_BACKENDS   backends checked (default "cuda ptx"; the cpu backend is
#                 the reference for the comparisons; on the VM:
#                 GG_BACKENDS=" "), GG_TIMED those timed (default "cuda")
#   GG_CHECK_N    the checked soups' side (default 1024), GG_CHECK_GENS
#                 their generations (default 100); GG_CHECK_BIG the side
#                 of a second check of the box rules (default 4096; empty:
#                 none)
#   GG_SIZES      the timed sides (default "4096 16384"); GG_GENS "G1 G2"
#                 the two generation counts per side (default "100 1000"
#                 for 4096, "10 60" for bigger sides)
#   GG_BGOLLY_SIZES  sides bgolly is timed at (default "4096 8192")
#   GG_GOLGEN     a golgen built elsewhere (bench/gpu_build.sh)
#
# On the device (one call, about 2-3 minutes from a cold build):
#   run: bash bench/gpu_ltl.sh /tmp/ltl-build
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-gpu}
OUT=${OUT:-/tmp/gpu-ltl}
mkdir -p "$OUT"
. "$ROOT/bench/gpu_build.sh" # build(), which also takes GG_GOLGEN
build || exit 1
export GOLGEN_CACHE_DIR=${GOLGEN_CACHE_DIR:-/tmp/gg-cache-ltl}
BACKENDS=${GG_BACKENDS:-cuda ptx}
BGOLLY=$(command -v bgolly || true)
N=${GG_CHECK_N:-1024} CG=${GG_CHECK_GENS:-100}
RULES=("R5,C0,M1,S34..58,B34..45,NM"
       "R100,C0,M1,S12000..20300,B10000..20150,NM"
       "R5,C0,M1,S31..61,B31..61,NN"
       "R7,C5,M0,S20..40,B22..31,NN")
echo "golgen $("$B/golgen" --version | head -1); backends: $BACKENDS;" \
     "bgolly: ${BGOLLY:-none}; $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"

# soup FILE RULE N TOPO(T|P) STATES: a 50% soup (states 1..C-1) as RLE
soup() {
    python3 - "$@" <<'PY'
import random, sys
out, rule, n, topo, states = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    sys.argv[4], int(sys.argv[5])
random.seed(7)
letter = lambda s: 'b' if s == 0 else 'o' if states <= 2 else chr(ord('A') + s - 1)
rows = [''.join(letter(random.randrange(1, states)) if random.random() < 0.5
                else letter(0) for _ in range(n)) for _ in range(n)]
if states > 2:
    rows = [r.replace('b', '.') for r in rows]
open(out, 'w').write('x = %d, y = %d, rule = %s:%s%d,%d\n%s!\n'
                     % (n, n, rule, topo, n, n, '$\n'.join(rows)))
PY
}

# ---- 1. soups: each backend = cpu (= bgolly where installed) ----
fails=0
for rule in "${RULES[@]}"; do
    c=$(sed -n 's/.*,C\([0-9]*\),.*/\1/p' <<<"$rule")
    states=$((c > 2 ? c : 2))
    for topo in T P; do
        f=$OUT/soup.rle
        soup "$f" "$rule" "$N" "$topo" "$states"
        line="$rule:$topo$N,$N $CG gens:"
        s=$SECONDS
        if ! "$B/golgen" run --backend cpu --gens "$CG" -o "$OUT/cpu.rle" \
            "$f" 2>"$OUT/err"; then
            echo "$line cpu ERROR $(tail -1 "$OUT/err")"
            fails=$((fails + 1))
            continue
        fi
        line+=" cpu($((SECONDS - s)) s)"
        if [ -n "$BGOLLY" ]; then
            "$BGOLLY" -a "Larger than Life" -q -q -m "$CG" \
                -o "$OUT/bgolly.rle" "$f" >/dev/null 2>&1
            grep -v '^#' "$OUT/cpu.rle" | cmp -s - "$OUT/bgolly.rle" &&
                line+=" cpu=bgolly" ||
                { line+=" cpu!=BGOLLY"; fails=$((fails + 1)); }
        fi
        for be in $BACKENDS; do
            s=$SECONDS
            if ! "$B/golgen" run --backend "$be" --gens "$CG" \
                -o "$OUT/$be.rle" "$f" 2>"$OUT/err"; then
                line+=" $be:ERROR($(tail -1 "$OUT/err" | cut -c1-300))"
                fails=$((fails + 1))
                continue
            fi
            cmp -s "$OUT/cpu.rle" "$OUT/$be.rle" &&
                line+=" $be=cpu($((SECONDS - s)) s)" ||
                { line+=" $be!=CPU"; fails=$((fails + 1)); }
        done
        echo "$line"
    done
done
# the timed side's walks are shorter than the checks' (cuda_ltl.c sizes
# them to the device): the box rules once more at that side, on a torus
BN=${GG_CHECK_BIG-4096}
for rule in "${RULES[@]:0:2}"; do
    [ -n "$BN" ] && [ -n "${BACKENDS// /}" ] || break
    f=$OUT/soup.rle
    soup "$f" "$rule" "$BN" T 2
    line="$rule:T$BN,$BN 30 gens:"
    "$B/golgen" run --backend cpu --gens 30 -o "$OUT/cpu.rle" "$f" \
        2>"$OUT/err" || { echo "$line cpu ERROR"; fails=$((fails + 1)); continue; }
    for be in $BACKENDS; do
        "$B/golgen" run --backend "$be" --gens 30 -o "$OUT/$be.rle" "$f" \
            2>"$OUT/err" && cmp -s "$OUT/cpu.rle" "$OUT/$be.rle" &&
            line+=" $be=cpu" ||
            { line+=" $be!=CPU($(tail -1 "$OUT/err" | cut -c1-200))"; fails=$((fails + 1)); }
    done
    echo "$line"
done
echo "soup checks: $fails failures"

# ---- 2. speed ----
# bench_s BACKEND RULE N GENS: bench's timed seconds
bench_s() {
    "$B/golgen" bench --backend "$1" --rule "$2" --size "${3}x$3" \
        --gens "$4" --json 2>"$OUT/err" |
        python3 -c "import json,sys; print(json.load(sys.stdin)['seconds'])" ||
        { echo "ERROR $(tail -1 "$OUT/err")" >&2; echo nan; }
}
for n in ${GG_SIZES:-4096 16384}; do
    if [ -n "${GG_GENS:-}" ]; then set -- $GG_GENS
    elif [ "$n" -le 4096 ]; then set -- 100 1000
    else set -- 10 60; fi
    g1=$1 g2=$2
    for rule in "${RULES[@]:0:3}"; do
        for be in ${GG_TIMED-cuda}; do
            bench_s "$be" "$rule" 64 1 >/dev/null # compile, validate, cache
            t1=$(bench_s "$be" "$rule" "$n" "$g1")
            t2=$(bench_s "$be" "$rule" "$n" "$g2")
            python3 - "$be" "$rule" "$n" "$g1" "$t1" "$g2" "$t2" <<'PY'
import sys
be, rule, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
g1, t1, g2, t2 = int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
per = (t2 - t1) / (g2 - g1)
print(f"{be} {rule} {n}x{n} torus: {g1} gens {t1:.4f} s, {g2} gens {t2:.4f} s;"
      f" {1e3 * t2 / g2:.4f} ms/gen with transfers, {1e3 * per:.4f} ms/gen"
      f" without; {n * n / per:.3g} cell updates/s")
PY
        done
    done
done
if [ -n "$BGOLLY" ]; then
    cpu_of() { /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 |
               awk '{print $1 + $2}'; }
    for n in ${GG_BGOLLY_SIZES:-4096 8192}; do
        for rule in "${RULES[@]:0:3}"; do
            soup "$OUT/b.rle" "$rule" "$n" T 2
            g=20
            [ "$n" -gt 4096 ] && g=5
            b1=$(cpu_of "$BGOLLY" -a "Larger than Life" -q -q -m 1 "$OUT/b.rle")
            bn=$(cpu_of "$BGOLLY" -a "Larger than Life" -q -q -m $((g + 1)) \
                 "$OUT/b.rle")
            echo "bgolly $rule ${n}x$n torus: CPU $(python3 -c \
                 "print('%.2f' % (1e3 * ($bn - $b1) / $g))") ms/gen ($g gens)"
        done
    done
fi
