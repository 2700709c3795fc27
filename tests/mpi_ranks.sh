#!/bin/sh
# golgen run over MPI ranks (issue 17 part 3; cli/run_ranks.c): 1, 2 and
# 3 ranks under mpirun give the same -o file, byte for byte, as one
# process without mpirun, on an odd-sized torus and a bounded plane, on
# the cpu and reference backends, for generations below T, not a
# multiple of T, and over several batches (T is 5 to 9 rows here). The
# bad combinations fail on every rank with one message, and none hangs.
# usage: tests/mpi_ranks.sh GOLGEN MPIRUN
set -eu
golgen=${1:?usage: mpi_ranks.sh GOLGEN MPIRUN}
mpirun=${2:?usage: mpi_ranks.sh GOLGEN MPIRUN}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/golgen-mpi-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# CI runs as root, which Open MPI refuses unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fails=0

# A random soup filling a W x H grid edge to edge (the wrap and the
# plane's edges both matter).
soup() { # W H SEED FILE
    awk -v w="$1" -v h="$2" -v seed="$3" 'BEGIN {
        srand(seed); printf "x = %d, y = %d, rule = B3/S23\n", w, h
        for (y = 0; y < h; y++) {
            for (x = 0; x < w; x++) printf "%s", rand() < 0.35 ? "o" : "b"
            printf "%s\n", y < h - 1 ? "$" : "!"
        }
    }' >"$4"
}
soup 201 157 7 "$tmp/torus.rle"
soup 97 131 9 "$tmp/plane.rle"

# Open MPI 4.1 dlcloses its components at MPI_Finalize with what they
# allocated still held: LeakSanitizer (sanitizer builds) reports dozens of
# leaks from "<unknown module>", which no suppression can name. So ranked
# runs check everything but leaks; the one-process runs check leaks too.
ranks() { # N golgen-run-arguments...: mpirun, failing a hang after 60 s
    n=$1
    shift
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        timeout 60 "$mpirun" --oversubscribe -np "$n" "$golgen" run "$@"
}

# BACKEND RULE SOUP GENS RANKS...
same() {
    be=$1 rule=$2 in=$3 gens=$4
    shift 4
    "$golgen" run --rule "$rule" --gens "$gens" --backend "$be" \
        -o "$tmp/one.rle" "$in" 2>"$tmp/one.err" ||
        { echo "one process failed: $rule $gens $be"; cat "$tmp/one.err"; fails=1; return; }
    grep -q o "$tmp/one.rle" || { echo "$rule $gens: the soup died out, a test of nothing"; fails=1; }
    for n in "$@"; do
        rm -f "$tmp/ranks.rle"
        if ! ranks "$n" --rule "$rule" --gens "$gens" --backend "$be" \
            -o "$tmp/ranks.rle" "$in" 2>"$tmp/ranks.err"; then
            echo "FAIL $n ranks, $rule, $gens generations, $be: exit status"
            cat "$tmp/ranks.err"
            fails=1
        elif [ "$n" -gt 1 ] && ! grep -q "on $n MPI ranks" "$tmp/ranks.err"; then
            echo "FAIL $n ranks, $rule, $be: the run did not go over the ranks"
            cat "$tmp/ranks.err"
            fails=1
        elif ! cmp -s "$tmp/one.rle" "$tmp/ranks.rle"; then
            echo "FAIL $n ranks, $rule, $gens generations, $be: differs from one process"
            fails=1
        else
            echo "ok   $n ranks, $rule, $gens generations, $be"
        fi
    done
}

for gens in 3 47 131; do
    same cpu 'B3/S23:T201,157' "$tmp/torus.rle" "$gens" 1 2 3
    same cpu 'B3/S23:P97,131' "$tmp/plane.rle" "$gens" 1 2 3
done
same reference 'B3/S23:T201,157' "$tmp/torus.rle" 47 2 3
same reference 'B3/S23:P97,131' "$tmp/plane.rle" 47 2 3

# --store from 3 ranks (gathered at each checkpoint and at the end) is the
# store one process writes.
"$golgen" run --rule 'B3/S23:T201,157' --gens 50 --backend cpu \
    --store "$tmp/one.ggu" "$tmp/torus.rle" 2>/dev/null
if ranks 3 --rule 'B3/S23:T201,157' --gens 50 --backend cpu \
    --store "$tmp/ranks.ggu" --checkpoint-every 20 "$tmp/torus.rle" \
    2>"$tmp/ranks.err" && cmp -s "$tmp/one.ggu" "$tmp/ranks.ggu"; then
    echo "ok   3 ranks, --store with checkpoints"
else
    echo "FAIL 3 ranks, --store: not the one-process store"
    cat "$tmp/ranks.err"
    fails=1
fi

# Refused on every rank: a non-zero exit, one message saying what to do,
# and no hang.
refused() { # WHAT EXPECTED-WORDS golgen-run-arguments...
    what=$1 words=$2
    shift 2
    rc=0
    ranks 2 "$@" >"$tmp/out" 2>&1 || rc=$?
    if [ "$rc" -eq 0 ]; then
        echo "FAIL $what: accepted over 2 ranks"
        fails=1
    elif [ "$rc" -eq 124 ]; then
        echo "FAIL $what: hung (killed after 60 s)"
        fails=1
    elif [ "$(grep -c "^golgen run: .*$words" "$tmp/out")" -ne 1 ]; then
        echo "FAIL $what: not one message with '$words':"
        cat "$tmp/out"
        fails=1
    else
        echo "ok   refused: $what"
    fi
}
refused "the unbounded plane" "bounded grid" \
    --rule B3/S23 --gens 5 --backend cpu "$tmp/plane.rle"
refused "fewer than 3 rows a rank" "at most 1 rank" \
    --rule 'B3/S23:T64,5' --gens 5 --backend cpu
refused "a Generations rule" "one process only" \
    --rule '23/3/3:T64,64' --gens 5 --backend cpu

# golgen synth over 2 ranks (the library's team, include/golgen/mpi_ranks.h)
# proves what one process proves: Life's rowsum-lr final stage, 6 LUTs,
# every smaller k UNSAT (about 4 s), each into an empty network cache;
# the network, its size and "proven" the same, and rank 0 alone stored it.
synth_json() { # FILE: the answer's size, proof and network, one line
    tr -d ' \n' <"$1" | sed 's/"seconds":[0-9.]*//g; s/"per_k":.*"network"/"network"/; s/"search":"[^"]*"//'
}
mkdir -p "$tmp/gen1" "$tmp/gen2"
if "$golgen" synth --rule B3/S23 --front rowsum-lr --threads 1 --json \
        --generated "$tmp/gen1" >"$tmp/one.json" 2>"$tmp/one.err" &&
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        timeout 120 "$mpirun" --oversubscribe -np 2 "$golgen" synth \
        --rule B3/S23 --front rowsum-lr --threads 1 --json \
        --generated "$tmp/gen2" >"$tmp/ranks.json" 2>"$tmp/ranks.err" &&
    grep -q '"proven":true' "$tmp/ranks.json" &&
    [ "$(synth_json "$tmp/one.json")" = "$(synth_json "$tmp/ranks.json")" ] &&
    [ "$(find "$tmp/gen2" -type f | wc -l)" -eq "$(find "$tmp/gen1" -type f | wc -l)" ]; then
    echo "ok   2 ranks, synth: the one-process proof and network"
else
    echo "FAIL 2 ranks, synth: not the one-process answer"
    cat "$tmp/one.err" "$tmp/ranks.err" "$tmp/ranks.json"
    fails=1
fi

[ "$fails" -eq 0 ] && echo "MPI ranks: every run equals one process"
exit "$fails"
