#!/bin/sh
# Cell updates per second against grid size, one line per backend, drawn
# with gnuplot from the JSON lines that `golgen bench --json` prints (2D
# and 3D alike: the size is the grid's cells).
#
#   bench/plot.sh [-o cups.png] RESULTS.jsonl...     plot saved results
#   bench/plot.sh [-o cups.png] --run [BUILD_DIR]    bench here first: each
#       backend whose probe passes (golgen --version), square tori of
#       SIDES (default "256 512 1024 2048 4096 8192"), GENS generations
#       (default 20), RULE (default B3/S23); the JSON lines are kept
#       beside the picture (cups.jsonl)
#
# Needs gnuplot (Debian: apt-get install gnuplot-nox).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=cups.png
if [ "${1:-}" = "-o" ]; then out=$2; shift 2; fi
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "bench/plot.sh: gnuplot is not installed; on Debian: apt-get install gnuplot-nox" >&2
    exit 3
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "${1:-}" = "--run" ]; then
    golgen=${2:-$root/build}/golgen
    data=${out%.png}.jsonl
    : >"$data"
    backends=$("$golgen" --version | awk '$2 == "usable" { print $1 }')
    for b in $backends; do
        for side in ${SIDES:-256 512 1024 2048 4096 8192}; do
            "$golgen" bench --json --backend "$b" --rule "${RULE:-B3/S23}" \
                --size "${side}x$side" --gens "${GENS:-20}" >>"$data" ||
                echo "bench/plot.sh: $b at ${side}^2 failed; left out" >&2
        done
    done
    set -- "$data"
fi
[ $# -gt 0 ] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# One file per backend: cells and CUpS, by size (the JSON is golgen's own,
# one flat object a line, so a pattern per field reads it).
awk -v dir="$work" '
function field(name,   m) {
    if (!match($0, "\"" name "\": *\"?[^,\"}]*")) return ""
    m = substr($0, RSTART, RLENGTH)
    sub(/^"[^"]*": *"?/, "", m)
    return m
}
/"cups"/ {
    b = field("backend")
    cells = field("width") != "" ? field("width") * field("height") \
                                 : field("sx") * field("sy") * field("sz")
    print cells, field("cups") >> (dir "/" b ".dat")
    seen[b] = 1
}
END { for (b in seen) print b > (dir "/backends") }' "$@"
[ -s "$work/backends" ] || { echo "bench/plot.sh: no golgen bench --json lines in $*" >&2; exit 2; }

plots=""
for b in $(sort "$work/backends"); do
    sort -n "$work/$b.dat" -o "$work/$b.dat"
    plots="$plots${plots:+, }'$work/$b.dat' using 1:2 with linespoints title '$b'"
done
gnuplot <<GP
set terminal pngcairo size 900,600 noenhanced
set output '$out'
set title 'golgen bench: cell updates per second'
set xlabel 'cells (grid size)'
set ylabel 'CUpS'
set logscale xy
set format x '%.0e'
set format y '%.0e'
set grid
set key left top
plot $plots
GP
echo "$out"
