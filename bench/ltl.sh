#!/bin/sh
# Larger than Life (issue 39 part 3): golgen's compiled cpu kernel and its
# reference against bgolly -a "Larger than Life" on a 50% soup filling an
# NxN torus, per generation. bgolly's time is its CPU time for 1+GENS
# generations less that for 1 (reading and writing the file cancel out);
# golgen's is bench's timed region (no I/O, no compile), wall and CPU
# seconds, the cpu kernel on all threads and on one. The first rule's
# result is also checked cell for cell against bgolly's (golgen run).
# The VM is shared: compare CPU seconds. Usage:
#   bench/ltl.sh [GOLGEN] [N] [GENS] [REF_GENS]
set -e
G=${1:-build/golgen}
N=${2:-1024}
GENS=${3:-100}
RGENS=${4:-10}
d=$(mktemp -d /tmp/gg_ltl_bench_XXXXXX)
trap 'rm -rf "$d"' EXIT
# "wall cpu" seconds of a command
cpu_of() { /usr/bin/time -f "%e %U %S" "$@" 2>&1 >/dev/null | tail -1 |
           awk '{print $1, $2 + $3}'; }
json() { python3 -c "import json,sys; d=json.load(sys.stdin); \
print(d['seconds'], d['cpu_seconds'], d['threads'])"; }
first=1
for rule in "R5,C0,M1,S34..58,B34..45,NM" \
            "R100,C0,M1,S12000..20300,B10000..20150,NM" \
            "R5,C0,M1,S31..61,B31..61,NN"; do
    python3 - "$N" "$rule:T$N,$N" > "$d/s.rle" <<'PY'
import random, sys
n = int(sys.argv[1]); random.seed(1)
print(f"x = {n}, y = {n}, rule = {sys.argv[2]}")
print('$\n'.join(''.join('o' if random.random() < 0.5 else 'b'
                         for _ in range(n)) for _ in range(n)) + '!')
PY
    b1=$(cpu_of bgolly -a "Larger than Life" -q -q -m 1 "$d/s.rle")
    bn=$(cpu_of bgolly -a "Larger than Life" -q -q -m $((GENS + 1)) \
         "$d/s.rle")
    set -- $("$G" bench --backend cpu --rule "$rule" --size "${N}x$N" \
             --gens "$GENS" --json 2>/dev/null | json)
    cw=$1 cc=$2 ct=$3
    set -- $("$G" bench --backend cpu --threads 1 --rule "$rule" \
             --size "${N}x$N" --gens "$GENS" --json 2>/dev/null | json)
    c1w=$1 c1c=$2
    set -- $("$G" bench --backend reference --rule "$rule" \
             --size "${N}x$N" --gens "$RGENS" --json 2>/dev/null | json)
    rw=$1 rc=$2
    python3 - "$rule" "$N" "$GENS" "$RGENS" $b1 $bn "$cw" "$cc" "$ct" \
        "$c1w" "$c1c" "$rw" "$rc" <<'PY'
import sys
rule, n, g, rg = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
b1w, b1, bnw, bn, cw, cc, ct, c1w, c1c, rw, rc = map(float, sys.argv[5:])
bg = max(bn - b1, 1e-9) / g            # bgolly CPU s a generation
bgw = max(bnw - b1w, 1e-9) / g
ms = lambda s: '%.3f' % (1e3 * s)
print(f"{rule} {n}x{n} torus, per generation (ms):")
print(f"  bgolly: wall {ms(bgw)}, CPU {ms(bg)}")
print(f"  golgen cpu {int(ct)} threads: wall {ms(cw / g)}, CPU {ms(cc / g)}"
      f"  -> {bg / (cc / g):.1f}x bgolly in CPU, {bgw / (cw / g):.1f}x in wall")
print(f"  golgen cpu 1 thread: wall {ms(c1w / g)}, CPU {ms(c1c / g)}"
      f"  -> {bg / (c1c / g):.1f}x bgolly in CPU")
print(f"  golgen reference: wall {ms(rw / rg)}, CPU {ms(rc / rg)}"
      f"  (cpu kernel {rc / rg / (c1c / g):.1f}x it, one thread, CPU)")
PY
    if [ $first = 1 ]; then
        "$G" run --backend cpu --gens "$GENS" -o "$d/g.rle" "$d/s.rle" \
            2>/dev/null
        bgolly -a "Larger than Life" -q -q -m "$GENS" -o "$d/b.rle" \
            "$d/s.rle" >/dev/null 2>&1
        grep -v '^#' "$d/g.rle" | cmp -s - "$d/b.rle" &&
            echo "  generation $GENS: golgen cpu identical to bgolly" ||
            { echo "  generation $GENS: golgen cpu DIFFERS from bgolly"; exit 1; }
        first=0
    fi
done
