#!/usr/bin/env bash
# The long Life searches of BENCHMARKS.md ("Exact synthesis"), for a
# many-core machine without CryptoMiniSat (the device machine: Ubuntu 24.04,
# 16 cores). Prepare here, in the repository root:
#   echo /.satlib/ >> .git/info/exclude; mkdir -p .satlib
#   cp build/golgen build/golgen-sat.so bench/synth_device.sh .satlib/
#   cp /usr/lib/x86_64-linux-gnu/libcryptominisat5.so.5.11 .satlib/
#   cp /usr/lib/x86_64-linux-gnu/libOpenCL.so.1.0.0 .satlib/libOpenCL.so.1
# then run `bash .satlib/synth_device.sh 1` (or 2) there with .satlib
# carried. Networks and JSON lines land flat in $OUT.
#   phase 1: rowsum-lr k3.. (1 s per shape first), rowsum k=5 (all
#            shapes), rowsum k=6 (1 s per shape), 16 threads, ~7 minutes
#   phase 2: rowsum-lr k=6 (4 s per shape, last shape first) beside
#            --front none k=10 (one CNF, 8 CryptoMiniSat threads), 200 s
#   phase 3: Life gate2 from k=9 (8 threads) beside HighLife and Day &
#            Night lut3 k=6..7 (4 threads each), 520 s
#   phase 4: lut3 k=6 first pass only (1 s per shape, as found Life's 6)
#            for the four rules with the most LUTs, 4 threads each, 520 s
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD
out=${OUT:-/tmp/synth_out}
mkdir -p "$out"
syn() { # name, then synth options
    local name=$1; shift
    GOLGEN_GENERATED=$out/g_$name ./golgen synth --rule "${SYN_RULE:-B3/S23}" \
        --json --force "$@" \
        >"$out/$name.json" 2>"$out/$name.log"
    grep -E "k=[0-9]+: [A-Zu]" "$out/$name.log"
    for f in "$out"/g_$name/networks/*/*/*.net; do
        [ -e "$f" ] && cp "$f" "$out/$name.net"
    done
    rm -rf "$out/g_$name"
}
if [ "${1:-1}" = 1 ]; then
    syn lr --threads 16 --front rowsum-lr --time-limit 110 --shape-time-limit 1
    syn rs5 --threads 16 --k-min 5 --k-max 5 --time-limit 110
    syn rs6 --threads 16 --k-min 6 --k-max 6 --time-limit 130 --shape-time-limit 1
elif [ "$1" = 4 ]; then
    for r in B36/S23 B3678/S34678 B368/S245 B34568/S15678; do
        SYN_RULE=$r syn "k6_$(echo "$r" | tr / _)" --threads 4 --k-min 6 \
            --k-max 6 --shape-time-limit 1 --time-limit 520 &
    done
    wait
    # 12 files would pass the device's 8-file return limit: one archive
    (cd "$out" && tar czf k6.tgz k6_* && rm -f k6_*)
elif [ "$1" = 3 ]; then
    syn g2 --lib gate2 --threads 8 --k-min 9 --k-max 13 --time-limit 520 &
    SYN_RULE=B36/S23 syn hl --threads 4 --k-min 6 --k-max 7 --time-limit 520 &
    SYN_RULE=B3678/S34678 syn dn --threads 4 --k-min 6 --k-max 6 \
        --time-limit 520 &
    wait
else
    GG_SAT_REVERSE=1 syn lr6 --threads 8 --front rowsum-lr --k-min 6 --k-max 6 \
        --shape-time-limit 4 --time-limit 200 &
    syn none10 --threads 8 --front none --k-min 10 --k-max 10 --time-limit 200 &
    wait
fi
