#!/bin/sh
# Larger than Life on the reference (issue 39 part 3): cell updates per
# second at R = 1, 5, 100 (box and diamond) on a 50% soup filling an NxN
# torus, best of three runs, and bgolly -a "Larger than Life" on the same
# file. Usage: bench/ltl.sh [GOLGEN] [N] [GENS]
set -e
G=${1:-build/golgen}
N=${2:-1024}
GENS=${3:-50}
d=$(mktemp -d /tmp/gg_ltl_bench_XXXXXX)
trap 'rm -rf "$d"' EXIT
for rule in "R1,C0,M0,S2..3,B3..3,NM" "R5,C0,M1,S34..58,B34..45,NM" \
            "R100,C0,M1,S20201..40401,B20201..40401,NM" \
            "R1,C0,M1,S2..3,B2..2,NN" "R5,C0,M1,S31..61,B31..61,NN" \
            "R100,C0,M1,S10101..20201,B10101..20201,NN"; do
    python3 - "$N" "$rule:T$N,$N" > "$d/s.rle" <<'PY'
import random, sys
n = int(sys.argv[1]); random.seed(1)
print(f"x = {n}, y = {n}, rule = {sys.argv[2]}")
print('$\n'.join(''.join('o' if random.random() < 0.5 else 'b'
                         for _ in range(n)) for _ in range(n)) + '!')
PY
    best=
    for i in 1 2 3; do
        s=$("$G" run --backend reference --gens "$GENS" -o /dev/null \
            "$d/s.rle" 2>&1 | sed -n 's/.*, \([0-9.]*\) s (reference.*/\1/p')
        best=$(python3 -c "print(min(float('$s'), float('${best:-1e9}')))")
    done
    b=$( { /usr/bin/time -f %e bgolly -a "Larger than Life" -q -q \
           -m "$GENS" "$d/s.rle" >/dev/null; } 2>&1 | tail -1)
    python3 -c "print('%-44s %7.3f s  %.2e cells/s   bgolly %s s' % \
        ('$rule', $best, $N * $N * $GENS / $best, '$b'))"
done
