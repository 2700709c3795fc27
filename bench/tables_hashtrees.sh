#!/usr/bin/env bash
# Issue 39's busy rule-table patterns on the three hash trees we know:
# golgen's (engine auto), Golly's (bgolly -a RuleLoader) and lifelib's
# (python-lifelib, the rule file compiled by lifelib itself; its compile
# is a warm-up run and not timed). CPU milliseconds, best of REPS.
#
#   bench/tables_hashtrees.sh [GOLGEN]     (default build/golgen)
#   LIFELIB_PY=/path/venv/bin/python       also time lifelib (its step
#                                          alone: pattern loaded, stepped,
#                                          population counted)
#   REPS=3
#
# golgen and bgolly write a macrocell (.mc): an RLE of Langton's loops at
# 50000 generations is 17M cells, and writing it costs bgolly more than
# stepping does. Every golgen result is compared with bgolly's population.
set -euo pipefail
cd "$(dirname "$0")/.."
G=${1:-build/golgen}
REPS=${REPS:-3}
P=/usr/share/golly/Patterns
RULES=/usr/share/golly/Rules
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpu_ms() { # best of REPS, CPU ms of one command (perf's task-clock)
    local best=
    for _ in $(seq "$REPS"); do
        local t
        perf stat -x, -e task-clock -o "$work/perf" "$@" >/dev/null 2>&1
        t=$(awk -F, '/task-clock/ {printf "%.1f", $1}' "$work/perf")
        if [ -z "$best" ] || awk "BEGIN {exit !($t < $best)}"; then
            best=$t
        fi
    done
    echo "$best"
}

# lifelib names a rule-file rule x<name> and reads the file from its own
# rules folder: a copy under that name, and the pattern's rule renamed.
lifelib_prepare() { # rule-name pattern -> prints the renamed pattern's path
    local rule=$1 pat=$2 x
    x=x$(echo "$rule" | tr 'A-Z-' 'a-z_')
    sed "s/^@RULE .*/@RULE $x/" "$RULES/$rule.rule" >"$work/$x.rule"
    { "$LIFELIB_PY" - "$work/$x.rule" <<'PY'
import sys
from lifelib.genera.rulefiles import rule2files
rule2files(sys.argv[1])
PY
    } >/dev/null 2>&1
    local out=$work/$(basename "$pat")
    sed -e "s/^#R .*/#R $x/" -e "s/rule *= *[A-Za-z-]*/rule = $x/" "$pat" >"$out"
    echo "$x $out"
}

lifelib_ms() { # x-rule pattern gens -> best CPU ms of the step alone
    "$LIFELIB_PY" - "$@" "$REPS" 2>/dev/null <<'PY'
import resource, sys
import lifelib
rule, pat, gens, reps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sess = lifelib.load_rules(rule)  # compiles the rule: not timed
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
best = None
for _ in range(reps):
    lt = sess.lifetree(memory=4000)  # a fresh tree: no memo from the last
    t0 = cpu()
    pop = lt.load(pat)[gens].population
    t = (cpu() - t0) * 1000
    best = t if best is None or t < best else best
print("%.0f %d" % (best, pop))
PY
}

printf '%-28s %8s %10s %10s %10s %s\n' pattern gens golgen bgolly lifelib population
for spec in Loops/Langtons-Loops.rle:Langtons-Loops:1000 \
            Loops/Langtons-Loops.rle:Langtons-Loops:10000 \
            Loops/Langtons-Loops.rle:Langtons-Loops:50000 \
            WireWorld/primes.mc:WireWorld:10000 \
            WireWorld/primes.mc:WireWorld:100000 \
            WireWorld/primes.mc:WireWorld:1000000; do
    IFS=: read -r pat rule gens <<<"$spec"
    "$G" run --gens "$gens" "$P/$pat" -o "$work/g.mc" >/dev/null 2>&1
    g=$(cpu_ms "$G" run --gens "$gens" "$P/$pat" -o "$work/g.mc")
    b=$(cpu_ms bgolly -a RuleLoader -s "$RULES/" -q -q -m "$gens" \
        -o "$work/b.mc" "$P/$pat")
    gpop=$("$G" run --gens 0 "$work/g.mc" -o "$work/g0.mc" 2>&1 |
           sed -n 's/.*population \([0-9]*\).*/\1/p')
    bpop=$("$G" run --gens 0 "$work/b.mc" -o "$work/b0.mc" 2>&1 |
           sed -n 's/.*population \([0-9]*\).*/\1/p')
    same=same
    [ "$gpop" = "$bpop" ] || same="DIFFERENT ($gpop against $bpop)"
    l=-
    if [ -n "${LIFELIB_PY:-}" ]; then
        read -r x lpat <<<"$(lifelib_prepare "$rule" "$P/$pat")"
        read -r l lpop <<<"$(lifelib_ms "$x" "$lpat" "$gens")"
        [ "$lpop" = "$gpop" ] || same="$same; lifelib $lpop"
    fi
    printf '%-28s %8s %10s %10s %10s %s %s\n' "$pat" "$gens" "$g" "$b" "$l" \
        "$gpop" "$same"
done
