#!/usr/bin/env bash
# One exact-synthesis proof on one machine, as ranks x threads (issue 18
# part 2): `golgen synth` as one process with N threads, and under mpirun
# as R ranks of T threads, from an empty cache, up to --k-max. Prints one
# line per layout: wall seconds, each k's status and seconds.
#
#   bash bench/synth_ranks.sh [RULE] [KMAX]         (default B136/S1256 6)
#   GG_LAYOUTS="1x16 16x1 4x4"   ranks x threads, run one after another
#   GG_GOLGEN=DIR   DIR/golgen (with the solver) and the libraries beside
#                   it; on the GPU host, which has no CryptoMiniSat, carry
#                   one built here with -Dmpi=enabled -Dtests=disabled:
#                   mkdir -p .satlib && cp BUILD/golgen .satlib/golgen-mpi &&
#                   cp BUILD/golgen-sat.so .satlib/ &&
#                   cp /lib/x86_64-linux-gnu/libcryptominisat5.so.5.11 .satlib/
#                   GG_EXE=golgen-mpi GG_GOLGEN=.satlib, carry [".satlib"]
#   GG_LIMIT        --time-limit of each run (default none)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=$(cd "${GG_GOLGEN:-$ROOT/build}" && pwd)
G=$DIR/${GG_EXE:-golgen}
export LD_LIBRARY_PATH=$DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
RULE=${1:-B136/S1256}
KMAX=${2:-6}
OUT=${OUT:-/tmp/synth-ranks}
mkdir -p "$OUT"
"$G" --version | grep -i "sat\|mpi" | head -3
echo "cores: $(nproc)"
for layout in ${GG_LAYOUTS:-1x16 16x1}; do
    r=${layout%x*}
    t=${layout#*x}
    cache=$(mktemp -d)
    cmd=("$G")
    [ "$r" -gt 1 ] && cmd=(mpirun --oversubscribe --bind-to none -np "$r" "$G")
    start=$(date +%s.%N)
    "${cmd[@]}" synth --rule "$RULE" --lib lut3 --generated "$cache" \
        --no-store --json --threads "$t" --k-max "$KMAX" \
        --time-limit "${GG_LIMIT:-none}" >"$OUT/$r-$t.json" \
        2>"$OUT/$r-$t.err"
    rc=$?
    end=$(date +%s.%N)
    python3 - "$OUT/$r-$t.json" "$layout" "$rc" "$start" "$end" <<'PY'
import json, sys
path, layout, rc, t0, t1 = sys.argv[1:]
try:
    d = json.load(open(path))
except Exception:
    print(f"{layout}: exit {rc}, no JSON")
    sys.exit()
ks = " ".join(f'k{k["k"]} {k["status"]} {k["seconds"]:.1f}s'
              for k in d["per_k"])
print(f'{layout} (ranks x threads): {float(t1) - float(t0):.1f} s wall, '
      f'exit {rc}, {d["gates"]} gates, lower bound {d["lower_bound"]}: {ks}')
PY
    rm -rf "$cache"
done
