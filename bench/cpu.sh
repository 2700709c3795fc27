#!/bin/sh
# CPU backend: the benchmark set behind BENCHMARKS.md "## CPU backend", and
# the regeneration of generated/c/.
#
#   bench/cpu.sh [BUILD_DIR]                 benchmark (default build dir: build)
#   bench/cpu.sh --regenerate [BUILD_DIR]    rewrite generated/c/*.c
#   SIZE=4096x4096 GENS=100 bench/cpu.sh     smaller run
#   BGOLLY=1 bench/cpu.sh                    also time bgolly on the same torus
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
regen=0
if [ "${1:-}" = "--regenerate" ]; then regen=1; shift; fi
build=${1:-$root/build}
golgen=$build/golgen
rules="B3/S23 B36/S23 B3678/S34678 B2/S"

if [ $regen = 1 ]; then
    for r in $rules; do
        name=$(echo "$r" | tr 'A-Z/' 'a-z_').c
        "$golgen" --target c --rule "$r" -o "$root/generated/c/$name"
        echo "generated/c/$name"
    done
    exit 0
fi

size=${SIZE:-16384x16384}
gens=${GENS:-1000}
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
for r in $rules; do
    "$golgen" bench --backend cpu --rule "$r" --size "$size" --gens "$gens" \
        ${THREADS:+--threads $THREADS}
done

if [ "${BGOLLY:-0}" = 1 ]; then
    # bgolly on the same torus: a full-size soup so QuickLife has all of it.
    w=${size%x*}; h=${size#*x}
    tmp=$(mktemp -d)
    python3 - "$w" "$h" "$tmp/soup.rle" <<'PY'
import random, re, sys
w, h, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
random.seed(1)
parts = []
for y in range(h):
    row = format(random.getrandbits(w), '0%db' % w).translate(
        str.maketrans('01', 'bo'))
    parts.append(''.join((str(len(m)) if len(m) > 1 else '') + m[0]
                         for m in re.findall(r'(o+|b+)', row)))
tokens = re.findall(r'\d*[ob$!]', '$'.join(parts) + '!')
with open(out, 'w') as f:  # lines of at most 70 characters, whole tokens
    f.write('x = %d, y = %d, rule = B3/S23:T%d,%d\n' % (w, h, w, h))
    line = ''
    for t in tokens:
        if len(line) + len(t) > 70:
            f.write(line + '\n')
            line = ''
        line += t
    f.write(line + '\n')
PY
    start=$(date +%s.%N)
    bgolly -q -q -m "$gens" -o "$tmp/out.rle" "$tmp/soup.rle"
    end=$(date +%s.%N)
    python3 -c "import sys; t=float(sys.argv[2])-float(sys.argv[1]); \
print('bgolly B3/S23 torus $size, $gens generations: %.3f s, %.3e CUpS' \
% (t, $w*$h*$gens/t))" "$start" "$end"
    rm -rf "$tmp"
fi
