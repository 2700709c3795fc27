#!/bin/sh
# Where the cpu backend stands against this machine's own limits (issue 19):
# the throughput of the instructions its loops issue on every core at once
# (AVX-512, and the AVX2 and portable paths' two-input logic), the roofs
# that follow for today's loops and for an interleaved layout, the
# interleaved layout's sweep measured in L1 and in an L2-sized band, and
# golgen's own Life figures on each path beside them. BENCHMARKS.md, "CPU
# roofs".
#
#   bench/cpu_roof.sh [BUILD_DIR]     (default: build; needs AVX-512)
#   CCS="gcc clang-14" bench/cpu_roof.sh   compilers for the layout sweep
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
src=$root/bench/cpu_roof
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! grep -qw avx512_vbmi2 /proc/cpuinfo; then
    echo "cpu_roof: this CPU lacks AVX-512 VBMI2; nothing to measure" >&2
    exit 2
fi
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
cc -O2 -mavx512f -mavx512vbmi2 -pthread "$src/ports.c" -o "$tmp/ports"
"$tmp/ports" 1
"$tmp/ports" "$(nproc)"
for c in ${CCS:-cc $(command -v clang >/dev/null && echo clang)}; do
    "$c" -O3 -march=native "$src/interleaved.c" -o "$tmp/il"
    echo "# interleaved layout, $c:"
    "$tmp/il" 4096 32 20000
    "$tmp/il" 16384 256 400
done
if [ -x "$build/golgen" ]; then
    echo "# golgen's Life kernel, whole runs (copies and halos included):"
    "$build/golgen" bench --backend cpu --rule B3/S23 --size 16384x16384 --gens 300 --threads 1
    "$build/golgen" bench --backend cpu --rule B3/S23 --size 16384x16384 --gens 1000
    for isa in avx2 portable; do
        "$build/golgen" bench --backend cpu --rule B3/S23 --size 16384x16384 --gens 300 --threads 1 --isa $isa
        "$build/golgen" bench --backend cpu --rule B3/S23 --size 16384x16384 --gens 1000 --isa $isa
    done
fi
