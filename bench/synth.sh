#!/usr/bin/env bash
# Exact synthesis of the final stage for every Life-like rule that a pattern
# under /usr/share/golly/Patterns/Life-Like uses, plus B2/S (Seeds, which
# the kernel emitters ship), both libraries, the default (rowsum) front,
# plus Life with --front rowsum-lr and --front none. Results go to the
# network cache (generated/networks, or --generated DIR) and one JSON line
# per run to stdout; progress per k goes to stderr.
#
# usage: bench/synth.sh [GOLGEN] [TIME_PER_RUN] [THREADS] [GENERATED_DIR]
#   defaults: build/golgen, 60 s, 2 threads, the source tree's generated/
#   LIBS="gate2": one library only; SYNTH_ARGS: more synth options, e.g.
#   LIBS=gate2 SYNTH_ARGS="--resynth-time 60 --k-max 8" bench/synth.sh
#   build/golgen 0 only polishes the gate2 networks (k=8 is below every
#   lower bound, so no search; 0: no time limit)
# Slow: with the defaults about 25 minutes on 2 cores.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
golgen=${1:-$here/build/golgen}
limit=${2:-60}
threads=${3:-2}
gen=${4:-$here/generated}

rules=(B3/S23 B36/S23 B3678/S34678 B34568/S15678 B345/S5 B3/S45678
       B25678/S5678 B1357/S1357 B013568/S01 B368/S245 B234/S B3/S135 B2/S)

run() {
    # --force re-solves; the cache keeps the better of old and new.
    "$golgen" synth --json --force --generated "$gen" --threads "$threads" \
        --time-limit "$limit" --shape-time-limit 2 ${SYNTH_ARGS:-} "$@"
}

for lib in ${LIBS:-lut3 gate2}; do
    for rule in "${rules[@]}"; do
        run --rule "$rule" --lib "$lib"
    done
done
if [ -z "${LIBS:-}" ]; then
    run --rule B3/S23 --lib lut3 --front rowsum-lr
    run --rule B3/S23 --lib lut3 --front none
fi
