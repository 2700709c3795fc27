#!/bin/sh
# What a rule with no cache entry runs with: the work-bounded fallback's
# final-stage LUTs (rowsum front, what the kernels emit) and the seconds it
# takes, per rule, with an empty network cache. BENCHMARKS.md, "The
# fallback for rules never synthesized".
#
#   bench/fallback_sizes.sh [GOLGEN] [RULE...]   default: build/golgen, the
#                                                corpus (bench/corpus_rules.txt)
#   RANDOM_RULES="N SEED" bench/fallback_sizes.sh GOLGEN
#       N Life-like rules drawn as in BENCHMARKS "Twenty random rules"
#       (each digit of B and S with probability 1/2, B0 rejected)
# Prints "RULE LUTS SECONDS" lines, then the total and the rules over 9.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
golgen=${1:-$root/build/golgen}
[ $# -gt 0 ] && shift
if [ -n "${RANDOM_RULES:-}" ]; then
    set -- $(python3 - $RANDOM_RULES <<'PY'
import random, sys
n, seed = int(sys.argv[1]), int(sys.argv[2])
random.seed(seed)
out = []
while len(out) < n:
    b = ''.join(str(d) for d in range(9) if random.random() < 0.5)
    s = ''.join(str(d) for d in range(9) if random.random() < 0.5)
    if '0' not in b:
        out.append('B%s/S%s' % (b, s))
print(' '.join(out))
PY
)
elif [ $# -eq 0 ]; then
    set -- $(grep -v '^#' "$root/bench/corpus_rules.txt" | awk '$1 ~ /^B/ {print $1}')
fi
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT INT TERM
mkdir -p "$empty/networks"
for r in "$@"; do
    t0=$(date +%s.%N)
    n=$(GOLGEN_GENERATED=$empty "$golgen" --target ptx --rule "$r" 2>/dev/null |
        sed -n 's/.* \([0-9]*\) final-stage gates.*/\1/p' | head -1)
    t1=$(date +%s.%N)
    echo "$r ${n:-?} $(awk "BEGIN{printf \"%.2f\", $t1 - $t0}")"
done | awk '{print; s += $3; g += $2; if ($2 > 9) big++}
            END {printf "# %d rules: %d LUTs, %.1f s, %d over 9 LUTs\n", NR, g, s, big}'
