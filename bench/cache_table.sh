#!/usr/bin/env bash
# The network cache as a markdown table: one row per entry of
# generated/networks (or DIR), as `golgen synth --json` reads it back
# (verified on load), so BENCHMARKS.md's synthesis table can be rebuilt
# from what the cache really holds instead of being edited by hand.
#
# usage: bench/cache_table.sh [GOLGEN] [DIR]
#   defaults: build/golgen, the source tree's generated/
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
golgen=${1:-$here/build/golgen}
gen=${2:-$here/generated}

field() { # json name -> the value of "name" (a number, string or bool)
    sed -E "s/.*\"$2\":(\"[^\"]*\"|[^,}]*).*/\1/; s/\"//g" <<<"$1"
}

echo "| rule | front | lib | final gates | proven | lower bound | ops/word | search (cache) |"
echo "|---|---|---|---|---|---|---|---|"
for f in "$gen"/networks/*/*/*.net; do
    rule=$(sed -n 's/^rule //p' "$f")
    front=$(sed -n 's/^front //p' "$f")
    lib=$(sed -n 's/^lib //p' "$f")
    json=$("$golgen" synth --rule "$rule" --front "$front" --lib "$lib" \
        --generated "$gen" --json)
    not=$(sed -E 's/.*"not":([0-9]+).*/\1/' <<<"$json")
    gates=$(field "$json" gates)
    [ "$not" = 0 ] || gates="$gates + $not NOT"
    echo "| $rule | $front | $lib | $gates | $(field "$json" proven) |" \
         "$(field "$json" lower_bound) | $(field "$json" ops_per_word) |" \
         "$(field "$json" search) |"
done
