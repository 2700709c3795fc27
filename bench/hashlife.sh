#!/usr/bin/env bash
# The sparse suite of issue 38: golgen's engine auto against bgolly's
# QuickLife and HashLife (and lifelib where its venv is given), process
# start to written file, same machine, same run; every golgen result is
# checked cell for cell against bgolly HashLife's.
#
#   bench/hashlife.sh [GOLGEN]          (default build/golgen)
#   LIFELIB_PY=/path/venv/bin/python    also time python-lifelib (its rule's
#                                       first compile is excluded: a warm-up)
#                                       twice: its step alone (in-process,
#                                       column lifelib) and, as golgen and
#                                       bgolly are timed and issue 38's bar
#                                       reads, its process from start to
#                                       the written file (column ll-proc)
#   REPS=3                              best of REPS runs each
#   BASE=/path/golgen                   also time another golgen (e.g. a
#                                       build of an older commit: before
#                                       and after in one run)
#   ONLY=REGEX                          only the cases whose "pattern gens"
#                                       matches (grep -E), e.g. 'jagged|puzzle'
#   CLOCK=cpu                           CPU seconds (user + sys of the
#                                       process, lifelib's step's process
#                                       time) instead of wall: steadier on
#                                       a shared machine, where wall times
#                                       swing 1.5x between runs
#
# Prints one line per case: pattern, generations, seconds for golgen auto,
# QuickLife, HashLife, lifelib, and "same" when golgen matched HashLife.
set -euo pipefail
cd "$(dirname "$0")/.."
G=${1:-build/golgen}
REPS=${REPS:-3}
P=/usr/share/golly/Patterns
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/gun.rle" <<'EOF'
x = 36, y = 9, rule = B3/S23
24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4bobo$
10bo5bo7bo$11bo3bo$12b2o!
EOF
cat >"$work/acorn.rle" <<'EOF'
x = 7, y = 3, rule = B3/S23
bo5b$3bo3b$2o2b3o!
EOF
python3 - "$work" <<'EOF'
import random, sys
random.seed(38)
for name, size in (("soup1k", 1024), ("soup4k", 4096)):
    rows = [''.join('o' if random.random() < 0.5 else 'b' for _ in range(size))
            for _ in range(size)]
    open(f"{sys.argv[1]}/{name}.rle", "w").write(
        f"x = {size}, y = {size}, rule = B3/S23\n" + "$".join(rows) + "!\n")
EOF

# best seconds (wall, or CPU with CLOCK=cpu) of REPS runs of "$@"
best() {
    python3 - "$REPS" "${CLOCK:-wall}" "$@" <<'PY'
import resource, subprocess, sys, time
reps, clock, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
best = None
for _ in range(reps):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    if subprocess.run(cmd, stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode:
        print("fail")
        sys.exit()
    t = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if clock == "cpu":
        t = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    best = t if best is None else min(best, t)
print(f"{best:.3f}")
PY
}

lifelib_time() { # pattern gens
    [ -n "${LIFELIB_PY:-}" ] || { echo "-"; return; }
    "$LIFELIB_PY" - "$1" "$2" "${CLOCK:-wall}" <<'EOF' 2>/dev/null || echo fail
import sys, time, lifelib
sess = lifelib.load_rules("b3s23")
lt = sess.lifetree(memory=4000)
p = lt.load(sys.argv[1]) if not sys.argv[1].endswith(".rle") else \
    lt.pattern(open(sys.argv[1]).read())
clock = time.process_time if sys.argv[3] == "cpu" else time.time
t0 = clock()
q = p[int(sys.argv[2])]
q.population
print(f"{clock() - t0:.3f}")
EOF
}

# lifelib's process from start to the written macrocell (its compiled
# rule is cached: the warm-up of lifelib_time compiled it)
cat >"$work/ll_proc.py" <<'EOF'
import sys, lifelib
lt = lifelib.load_rules("b3s23").lifetree(memory=4000)
src, gens, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
p = lt.load(src) if not src.endswith(".rle") else lt.pattern(open(src).read())
p[gens].save(out)
EOF
lifelib_process() { # pattern gens
    [ -n "${LIFELIB_PY:-}" ] || { echo "-"; return; }
    best "$LIFELIB_PY" "$work/ll_proc.py" "$1" "$2" "$work/l.mc"
}

cases=(
    "$work/acorn.rle 20000"
    "$work/gun.rle 30000"
    "$work/gun.rle 1099511627776"
    "$P/Life/Breeders/breeder.lif 1000"
    "$P/HashLife/metacatacryst.mc 1000"
    "$P/HashLife/catacryst.mc 65536"
    "$P/HashLife/wedge-grow.mc 65536"
    "$P/HashLife/unlimited-novelty.mc 65536"
    "$P/HashLife/jagged2.mc 65536"
    "$P/HashLife/puzzle.mc 65536"
    "$work/soup1k.rle 1000"
    "$work/soup4k.rle 1000"
)
printf '%-28s %14s %8s %8s %8s %8s %8s %8s  %s\n' pattern gens auto \
    before QuickLife HashLife lifelib ll-proc check
for c in "${cases[@]}"; do
    [ -z "${ONLY:-}" ] || echo "$(basename "${c% *}") ${c##* }" |
        grep -Eq -- "$ONLY" || continue
    set -- $c
    in=$1 gens=$2 name=$(basename "$1")
    ext=mc
    g=$(best "$G" run --gens "$gens" "$in" -o "$work/g.$ext")
    b=-
    [ -z "${BASE:-}" ] || b=$(best "$BASE" run --gens "$gens" "$in" -o "$work/b.$ext")
    q=$(best timeout 120 bgolly -a QuickLife -q -q -m "$gens" -o "$work/q.rle" "$in")
    h=$(best timeout 120 bgolly -a HashLife -q -q -m "$gens" -o "$work/h.$ext" "$in")
    l=$(lifelib_time "$in" "$gens")
    lp=$(lifelib_process "$in" "$gens")
    check=differs
    if cmp -s <(grep -v '^[[#]' "$work/g.$ext") <(grep -v '^[[#]' "$work/h.$ext"); then
        check=same
    fi
    printf '%-28s %14s %8s %8s %8s %8s %8s %8s  %s\n' "$name" "$gens" "$g" \
        "$b" "$q" "$h" "$l" "$lp" "$check"
done
