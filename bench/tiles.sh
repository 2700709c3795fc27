#!/usr/bin/env bash
# Active tiles on the cpu backend (issue 38 part 2): --engine dense against
# --engine tiles on tori, process start to written file, cells compared.
#
#   bash bench/tiles.sh [GOLGEN]        (default build/golgen)
#   REPS=2                              best of REPS runs each
#
# Cases: a sparse 16384^2 torus (1% live: still lifes and blinkers, a few
# gliders and soup patches; bench/sparse_torus.py) at 4000 and 20000
# generations; a 2048^2 soup torus for 20000 generations (it settles into
# ash and gliders); a 4096^2 soup for 2000 (busy all along: tiles must not
# lose).
set -euo pipefail
cd "$(dirname "$0")/.."
G=${1:-build/golgen}
REPS=${REPS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/sparse_torus.py 16384 0.01 1 "$work/sparse.rle" - 0.00003 0.00001
python3 - "$work" <<'PY'
import random, sys
random.seed(1)
for name, n in (("soup2k", 2048), ("soup4k", 4096)):
    with open(f"{sys.argv[1]}/{name}.rle", "w") as f:
        f.write(f"x = {n}, y = {n}, rule = B3/S23:T{n},{n}\n")
        for y in range(n):
            f.write("".join("o" if random.random() < 0.5 else "b" for _ in range(n)))
            f.write("$\n" if y < n - 1 else "!\n")
PY

best() { # engine gens file: best wall seconds of REPS, output kept
    local b=999999
    for _ in $(seq "$REPS"); do
        local t0=$EPOCHREALTIME
        "$G" run --backend cpu --engine "$1" --gens "$2" "$work/$3.rle" \
            -o "$work/$3.$1.rle" 2>"$work/log"
        local t=$(awk "BEGIN{print $EPOCHREALTIME - $t0}")
        b=$(awk "BEGIN{print ($t < $b) ? $t : $b}")
    done
    echo "$b"
}

printf '%-22s %7s %10s %10s %8s %s\n' case gens dense tiles speedup cells
for c in "sparse 4000" "sparse 20000" "soup2k 20000" "soup4k 2000"; do
    set -- $c
    d=$(best dense "$2" "$1")
    t=$(best tiles "$2" "$1")
    same=$(cmp -s "$work/$1.dense.rle" "$work/$1.tiles.rle" && echo same || echo DIFFER)
    printf '%-22s %7s %10.3f %10.3f %7.1fx %s | %s\n' "$1" "$2" "$d" "$t" \
        "$(awk "BEGIN{print $d / $t}")" "$same" "$(tail -1 "$work/log" | sed 's/.*(//')"
done
