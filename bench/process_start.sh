#!/usr/bin/env bash
# What a small run pays before and after its generations: CPU and wall per
# `golgen run` of a few of Golly's small patterns (1000 generations, and 0
# for the fixed cost), against bgolly's faster of QuickLife and HashLife,
# and against a second golgen build when one is given (old and new in the
# same minute, interleaved, so load hits both alike).
#
#   bench/process_start.sh BUILD [OTHER_BUILD]     (default: build)
#   RUNS=30 (perf stat repeats)   PATTERNS="Life-Like/white-whale.rle ..."
set -euo pipefail
builds=("${1:-build}")
[ $# -ge 2 ] && builds+=("$2")
runs=${RUNS:-30}
golly=/usr/share/golly/Patterns
patterns=${PATTERNS:-"Life-Like/white-whale.rle Non-Totalistic/rr14gun.rle
Life/Methuselahs/natural-LWSS.rle Life/Signal-Circuitry/constructor-memory-tape.rle"}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# "task-clock ms / elapsed ms" of a command, perf stat over $runs runs
measure() {
    perf stat -o "$out/stat" -r "$runs" -x, -e task-clock "$@" \
        >/dev/null 2>&1
    local cpu
    cpu=$(awk -F, '/task-clock/ {printf "%.2f", $1}' "$out/stat")
    local t0 t1
    t0=$(date +%s%N)
    for _ in $(seq "$runs"); do "$@" >/dev/null 2>&1; done
    t1=$(date +%s%N)
    echo "$cpu / $(awk -v d=$((t1 - t0)) -v n="$runs" \
        'BEGIN {printf "%.2f", d / n / 1e6}')"
}

printf '%-50s %-6s %s\n' pattern gens "cpu ms / wall ms per run"
for p in $patterns; do
    for g in 0 1000; do
        for b in "${builds[@]}"; do
            printf '%-50s %-6s %-24s %s\n' "$p" "$g" \
                "$(measure "$b/golgen" run "$golly/$p" --gens "$g" \
                   -o "$out/g.rle")" "golgen ($b)"
        done
        [ "$g" = 0 ] && continue
        for a in QuickLife HashLife; do
            printf '%-50s %-6s %-24s %s\n' "$p" "$g" \
                "$(measure bgolly -a "$a" -m "$g" -q -q -o "$out/b.rle" \
                   "$golly/$p")" "bgolly $a"
        done
    done
done
