#!/usr/bin/env bash
# The corpus of named Life-like rules (bench/corpus_rules.txt) through
# `golgen synth`, several runs side by side: each rule's final stage for
# each library, cached with its proof status (proven, or the lower bound
# reached) under GENERATED/networks. One JSON line per run goes to
# $OUT/corpus.jsonl and the networks to $OUT/corpus.tgz (for a machine
# whose files come back one archive at a time). Rules already proven in
# the cache are printed, not searched again (synth answers from it).
#
#   bash bench/corpus.sh [GOLGEN] [SECONDS_PER_RUN] [JOBS] [THREADS_PER_JOB]
#   defaults: build/golgen, 60, cores/2, 2. LIBS="lut3 gate2" (default
#   both); RULES_FILE: another list; GENERATED: the cache to update (default the source tree's
#   generated/); OUT: where the logs go (default /tmp/corpus).
#   GG_RANKS=N: each run under `mpirun -np N` (a golgen built with MPI),
#   one run at a time, N ranks of THREADS_PER_JOB threads each: e.g.
#   GG_RANKS=16 LIBS=lut3 bash bench/corpus.sh .satlib/golgen-mpi 300 1 1
#   (about 250 s settles a k=6 on the 16-core GPU host, session 15).
#   DEADLINE=S: no run goes past S seconds from the start (each run's
#   limit shrinks to what is left; a run with under 20 s left is skipped),
#   so the networks still reach corpus.tgz inside a bounded call.
#   SYNTH_ARGS: more options for every run (e.g. --trace: each shape's
#   conflicts and seconds in its log).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
G=${1:-$ROOT/build/golgen}
SECS=${2:-60}
CORES=$(nproc)
JOBS=${3:-$(( CORES / 2 > 0 ? CORES / 2 : 1 ))}
THREADS=${4:-2}
OUT=${OUT:-/tmp/corpus}
GEN=${GENERATED:-$ROOT/generated}
mkdir -p "$OUT/logs"
END=$(( $(date +%s) + ${DEADLINE:-1000000000} ))
LAUNCH=
if [ -n "${GG_RANKS:-}" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    LAUNCH="mpirun --oversubscribe --bind-to none -np $GG_RANKS"
    JOBS=1
fi
rules=$(grep -v '^#' "${RULES_FILE:-$ROOT/bench/corpus_rules.txt}" | awk '{print $1}' | sort -u)
for lib in ${LIBS:-lut3 gate2}; do
    for r in $rules; do echo "$lib $r"; done
done | xargs -P "$JOBS" -L 1 bash -c '
    lib=$0 rule=$1
    log='"$OUT"'/logs/$(echo "$rule" | tr / _)-$lib.log
    left=$(( '"$END"' - $(date +%s) ))
    [ "$left" -ge 20 ] || { echo "$lib $rule skipped: deadline" >>"$log"; exit 0; }
    secs=$(( left < '"$SECS"' ? left : '"$SECS"' ))
    '"$LAUNCH"' "'"$G"'" synth --rule "$rule" --lib "$lib" --json --resume \
        --generated "'"$GEN"'" --threads '"$THREADS"' \
        --time-limit "$secs" '"${SYNTH_ARGS:-}"' 2>"$log"
    echo "$lib $rule exit $?" >>"$log"' >>"$OUT/corpus.jsonl"
(cd "$GEN" && tar czf "$OUT/corpus.tgz" networks/rowsum)
wc -l <"$OUT/corpus.jsonl"
