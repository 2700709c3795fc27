#!/usr/bin/env bash
# Row-pair sharing search (research/pair_share.c): NPROC processes over the
# 880 candidates for RULE, at most KMAX final gates, each process stopped
# after LIMIT seconds. Lines "done #N" go to OUT/done.txt; a second run with
# SKIP=OUT/done.txt (a copy) goes on where the first stopped.
#   research/pair_share.sh [BUILD_DIR] [RULE] [KMAX] [NPROC] [LIMIT]
# BUILD_DIR is a build configured with -Dresearch=enabled (research/README.md).
#   defaults: build-research B3/S23 4 $(nproc) 540; OUT (default BUILD_DIR/pair-out)
set -u
B=${1:-build-research}
RULE=${2:-B3/S23}
KMAX=${3:-4}
NP=${4:-$(nproc)}
LIMIT=${5:-540}
OUT=${OUT:-$B/pair-out}
mkdir -p "$OUT"
for i in $(seq 0 $((NP - 1))); do
    timeout "$LIMIT" "$B/research/pair_share" "$RULE" "$KMAX" "$i" "$NP" \
        ${SKIP:-} >"$OUT/p$i.txt" 2>&1 &
done
wait
cat "$OUT"/p*.txt | grep -h '^done' | sort >"$OUT/done.txt"
echo "$(wc -l <"$OUT/done.txt") candidates settled"
grep -h -A6 '^FOUND' "$OUT"/p*.txt || echo "no final stage of at most $KMAX gates"
