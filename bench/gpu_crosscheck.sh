#!/usr/bin/env bash
# One device call that checks every two-state family and Generations on
# cuda and ptx against cpu, whole runs, cell for cell: a soup on an odd
# torus and on a bounded plane per rule, with the networks a GPU host
# without the solver builds (decision diagrams over cell pairs for Hensel
# and MAP rules, front none for V and H where cheaper). Every backend also
# validates its kernel against the reference when it opens.
#
#   bash bench/gpu_crosscheck.sh [BUILD_DIR]     (OUT=dir for logs)
#   GG_RULES   the rules (default: Life, a Hensel, a MAP, V, H, Generations)
#   GG_GENS    generations per run (default 300)
#   GG_BACKENDS  the GPU backends checked (default "cuda ptx"; cuda
#              compiles and tunes each rule through NVRTC: ~20 s a rule)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-gpu}
OUT=${OUT:-/tmp/gpu-crosscheck}
mkdir -p "$OUT"
. "$ROOT/bench/gpu_build.sh" # build(), which also takes GG_GOLGEN
build || exit 1
export GOLGEN_CACHE_DIR=$OUT/cache
GENS=${GG_GENS:-300}
# a MAP rule: 512 table bits, base64 (Golly's MAP notation), from a fixed seed
MAP=$(python3 -c "import base64,random;random.seed(40);b=bytearray(random.getrandbits(8) for _ in range(64));b[0]&=0xfe;print('MAP'+base64.b64encode(bytes(b)).decode().rstrip('='))")
RULES=${GG_RULES:-"B3/S23 B2n3/S23-q B1ce2eai3cekaiyq4eanyqjt5ckaiyqr6ca8/S1ce2eka3kyr4eyqrtwz5ckaiyq6kai7e8 $MAP B3/S23V B2/S34H /2/3 345/2/4"}
python3 - "$OUT/soup.rle" <<'PY'
import random, sys
random.seed(7)
w, h = 1001, 777
rows = [''.join('o' if random.random() < 0.4 else 'b' for _ in range(w)) for _ in range(h)]
open(sys.argv[1], 'w').write('x = %d, y = %d\n%s!\n' % (w, h, '$'.join(rows)))
PY
fail=0
for rule in $RULES; do
    for world in T1001,777 P1001,777; do
        line="$(printf '%.24s' "$rule") :$world"
        for be in cpu ${GG_BACKENDS:-cuda ptx}; do
            if ! "$B/golgen" run --backend "$be" --rule "$rule:$world" \
                    --gens "$GENS" -o "$OUT/r-$be.rle" "$OUT/soup.rle" \
                    >"$OUT/log-$be" 2>&1; then
                line="$line $be=ERROR($(tail -1 "$OUT/log-$be"))"
                fail=1
                continue
            fi
            if [ "$be" != cpu ]; then
                if cmp -s "$OUT/r-cpu.rle" "$OUT/r-$be.rle"; then
                    line="$line $be=cpu"
                else
                    line="$line $be=DIFFERS"
                    fail=1
                fi
            fi
        done
        echo "$line"
    done
done
echo "crosscheck: $([ $fail = 0 ] && echo 'all identical' || echo FAILURES)"
exit $fail
