#!/usr/bin/env bash
# What `golgen synth` starts from for a rule with no cache entry: the adder
# tree built within synth's time budget (sat/choose/adder.c), its LUT3 count and
# the seconds to it. The search after it is cut to k=3 (UNSAT at once), so
# the network printed is the best start. One line per rule:
#   RULE LUTS SECONDS
#   bash bench/adder_starts.sh [GOLGEN] [RULES...]
#   default: build/golgen and the rules of bench/corpus_rules.txt.
# Compare two builds on an idle machine (each run takes 1-90 s).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
G=${1:-$ROOT/build/golgen}
shift || true
EMPTY=$(mktemp -d)
trap 'rm -rf "$EMPTY"' EXIT
rules=("$@")
[ ${#rules[@]} -gt 0 ] ||
    mapfile -t rules < <(grep -v '^#' "$ROOT/bench/corpus_rules.txt" | awk 'NF {print $1}')
for r in "${rules[@]}"; do
    t0=$(date +%s.%N)
    gates=$("$G" synth --rule "$r" --lib lut3 --generated "$EMPTY" \
        --no-store --json --k-min 3 --k-max 3 --time-limit 600 \
        --threads 2 2>/dev/null |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["gates"])')
    echo "$r $gates $(echo "$(date +%s.%N) - $t0" | bc)"
done
