#!/usr/bin/env bash
# What a lut3 k=7 proof costs, and whether a rule has a 7-LUT network the
# adder tree missed (issue 18; BENCHMARKS.md, session 20). Runs on every
# core under mpirun, golgen built with MPI and the solver.
#
#   bench/k7_cost.sh sample RULE [STRIDE]   every STRIDE-th (default 200)
#       of k=7's 36,390 shapes with --trace: per-shape conflicts and
#       seconds (the rule needs a cache entry with k <= 6 ruled out, or
#       the search stops at k=7's first network)
#   bench/k7_cost.sh search RULE...         k=7 with a first pass of
#       SHAPE_S seconds a shape (default 0.5): a 7-LUT network, if the
#       first pass finds one (give each rule a cache entry first, e.g.
#       `golgen synth --rule R --k-min 3 --k-max 3 --generated DIR`, so
#       that the ranks do not wait on rank 0's adder tree)
#
# GOLGEN (default build-mpi/golgen), GENERATED (the cache, default the
# source tree's generated/; the run adds its proof records there), LIMIT
# (seconds per rule, default 420), RANKS (default nproc), OUT (logs,
# default /tmp/k7cost). Session 20 on 64 ranks: sample of Maze, 169 of
# 182 shapes UNSAT, at least 37 CPU-s a shape; search of B12347/S01256
# and B348/S34578, no 7-LUT network in first passes of about 200 s.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
G=${GOLGEN:-$ROOT/build-mpi/golgen}
GEN=${GENERATED:-$ROOT/generated}
OUT=${OUT:-/tmp/k7cost}
LIMIT=${LIMIT:-420}
mode=${1:?usage: k7_cost.sh sample RULE [STRIDE] | search RULE...}
shift
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() { # rule, extra options...
    local r=$1 n
    n=$(echo "$r" | tr / _)
    shift
    timeout $((LIMIT + 60)) mpirun --oversubscribe --bind-to none \
        -np "${RANKS:-$(nproc)}" "$G" synth --rule "$r" --lib lut3 --resume \
        --k-min 7 --k-max 7 --generated "$GEN" --threads 1 \
        --time-limit "$LIMIT" --json "$@" >"$OUT/$n.json" 2>"$OUT/$n.log"
    echo "$r exit $?"
    grep -v '^ *shape' "$OUT/$n.log" | tail -2
}
case $mode in
sample)
    run "$1" --shape-stride "${2:-200}" --trace
    python3 - "$OUT/$(echo "$1" | tr / _).log" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.lstrip().startswith('shape ')]
secs = [float(r[5]) for r in rows]
conf = [int(r[3]) for r in rows]
if rows:
    print(f"{len(rows)} shapes reported ({sum(r[2] == 'UNSAT' for r in rows)} UNSAT): "
          f"{sum(secs):.0f} CPU-s, {sum(conf)} conflicts, "
          f"mean {sum(secs) / len(rows):.1f} CPU-s a shape (a lower bound "
          f"where shapes were cut off)")
PY
    ;;
search)
    for r in "$@"; do
        run "$r" --shape-time-limit "${SHAPE_S:-0.5}"
    done
    ;;
*)
    echo "k7_cost.sh: unknown mode '$mode' (sample or search)" >&2
    exit 2
    ;;
esac
