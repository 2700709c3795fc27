#!/usr/bin/env bash
# Golly rule tables and trees on the GPU backends (issue 39 part 2): whole
# runs of Golly's bundled patterns on each backend against the cpu backend
# and the reference (and bgolly -a RuleLoader where installed), then the
# speed on busy universes (a torus soup per rule) against cpu and bgolly.
# Every kernel validates itself against the reference when it opens, so a
# run that prints a result passed that too.
#
#   bash bench/gpu_tables.sh [BUILD_DIR]        (logs in $OUT or /tmp)
#   GG_BACKENDS   backends checked and timed (default "cpu cuda ptx"; on a
#                 machine without a GPU: GG_BACKENDS="cpu opencl")
#   GG_SIZE       the soups' side (default 4096), GG_GENS their timed
#                 generations (default 1000), GG_RULES the soups' rules
#                 (default "WireWorld Langtons-Loops Codd")
#   GG_GOLLY      Golly's share folder (Rules/ and Patterns/); default
#                 /usr/share/golly, else .gpunet/golly. The GPU host may
#                 have no Golly: run `bash bench/gpu_tables.sh --pack` here
#                 first (copies the rules and patterns used into
#                 .gpunet/golly) and carry [".gpunet"].
#   GG_GOLGEN     a golgen built elsewhere (bench/gpu_build.sh)
#
# On the device (one call, about 3-6 minutes from a cold build: NVRTC
# compiles each rule's CUDA C in seconds, ptx JITs the same PTX):
#   run: bash bench/gpu_tables.sh /tmp/gt-build   carry: [".gpunet"]
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PATTERNS=(Loops/Langtons-Loops.rle:1000 Loops/Evoloop.rle:1000
          Loops/Byl-Loop.rle:1000 Loops/Tempesti-Loop.rle:300
          Self-Rep/Codd/signals-demo.rle:1000 WireWorld/gate-AND.mcl:1000
          WireWorld/NylesHeise.mcl:1000 WireWorld/primes.mc:1000
          Margolus/BBM.rle:1000 Margolus/TMGas.rle:1000
          Margolus/CrittersOscillators.rle:1000
          Other-Rules/HPP-demo-small.rle:300)

if [ "${1:-}" = --pack ]; then
    src=${GG_GOLLY:-/usr/share/golly}
    dst=$ROOT/.gpunet/golly
    mkdir -p "$dst/Rules" "$dst/Patterns"
    cp "$src"/Rules/*.rule "$dst/Rules/" || exit 1
    for p in "${PATTERNS[@]}"; do
        mkdir -p "$dst/Patterns/$(dirname "${p%%:*}")"
        cp "$src/Patterns/${p%%:*}" "$dst/Patterns/${p%%:*}" || exit 1
    done
    echo "packed $(ls "$dst/Rules" | wc -l) rules and ${#PATTERNS[@]} patterns into $dst"
    exit 0
fi

# GG_SRC_TAR=.gpunet/src.tar: build and run a `git archive` of a commit
# (the device copies the working tree as it is, others' half-made edits
# included): the archive's own copy of this script runs, with this tree's
# .gpunet beside it
if [ -n "${GG_SRC_TAR:-}" ]; then
    s=$(mktemp -d)
    tar -xf "$GG_SRC_TAR" -C "$s" || exit 3
    ln -s "$ROOT/.gpunet" "$s/.gpunet"
    GG_SRC_TAR= exec bash "$s/bench/gpu_tables.sh" "$@"
fi

B=${1:-$ROOT/build-gpu}
OUT=${OUT:-/tmp/gpu-tables}
mkdir -p "$OUT"
. "$ROOT/bench/gpu_build.sh" # build(), which also takes GG_GOLGEN
build || exit 1
GOLLY=${GG_GOLLY:-/usr/share/golly}
[ -d "$GOLLY/Rules" ] || GOLLY=$ROOT/.gpunet/golly
[ -d "$GOLLY/Rules" ] || { echo "no Golly rules: see --pack"; exit 1; }
RULES=$GOLLY/Rules
export GOLGEN_CACHE_DIR=${GOLGEN_CACHE_DIR:-/tmp/gg-cache-tables}
BACKENDS=${GG_BACKENDS:-cpu cuda ptx}
BGOLLY=$(command -v bgolly || true)
echo "golgen $("$B/golgen" --version | head -1); backends: $BACKENDS;" \
     "bgolly: ${BGOLLY:-none}; rules from $RULES"

# run BACKEND GENS IN OUT: golgen's run, its line (with the run's own
# seconds) appended to run.log; the exit status
run() {
    "$B/golgen" run --rules "$RULES" --backend "$1" --gens "$2" -o "$4" \
        "$3" 2>"$OUT/err"
    local rc=$?
    tail -1 "$OUT/err" | tee -a "$OUT/run.log" >"$OUT/last"
    return $rc
}

# ---- 1. the bundled patterns: every backend = cpu = reference = bgolly ----
fails=0
for p in "${PATTERNS[@]}"; do
    f=$GOLLY/Patterns/${p%%:*} g=${p##*:}
    [ -f "$f" ] || { echo "missing $f"; continue; }
    run cpu "$g" "$f" "$OUT/cpu.rle" || { echo "cpu failed on $f"; cat "$OUT/err"; }
    line="${p%%:*} $g gens:"
    # the reference on the smaller runs (it is 2-14x slower than cpu)
    case $p in *primes*|*Tempesti*) ;; *)
        run reference "$g" "$f" "$OUT/ref.rle"
        cmp -s "$OUT/cpu.rle" "$OUT/ref.rle" && line+=" cpu=reference" ||
            { line+=" cpu!=REFERENCE"; fails=$((fails + 1)); } ;;
    esac
    if [ -n "$BGOLLY" ]; then
        "$BGOLLY" -a RuleLoader -s "$RULES/" -q -q -m "$g" \
            -o "$OUT/bgolly.rle" "$f" >/dev/null 2>&1
        grep -v '^#' "$OUT/cpu.rle" | cmp -s - "$OUT/bgolly.rle" &&
            line+=" cpu=bgolly" ||
            { line+=" cpu!=BGOLLY"; fails=$((fails + 1)); }
    fi
    for be in $BACKENDS; do
        [ "$be" = cpu ] && continue
        s=$SECONDS
        if ! timeout 300 "$B/golgen" run --rules "$RULES" --backend "$be" \
            --gens "$g" -o "$OUT/$be.rle" "$f" 2>"$OUT/err"; then
            line+=" $be:ERROR($(tail -1 "$OUT/err" | cut -c1-200))"
            fails=$((fails + 1))
            continue
        fi
        tail -1 "$OUT/err" >>"$OUT/run.log"
        cmp -s "$OUT/cpu.rle" "$OUT/$be.rle" &&
            line+=" $be=cpu($((SECONDS - s)) s)" ||
            { line+=" $be!=CPU"; fails=$((fails + 1)); }
    done
    echo "$line"
done
echo "pattern checks: $fails failures"

# ---- 2. speed: torus soups, each backend's run against bgolly ----
SIZE=${GG_SIZE:-4096} GENS=${GG_GENS:-1000}
for rule in ${GG_RULES:-WireWorld Langtons-Loops Codd}; do
    soup=$OUT/soup-$rule.rle
    python3 - "$soup" "$rule" "$SIZE" "$RULES/$rule.rule" <<'PY'
import random, re, sys
out, rule, n, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
text = open(path).read()
m = re.search(r'n_states\s*[:=]\s*(\d+)', text) or \
    re.search(r'num_states\s*=\s*(\d+)', text)
states = int(m.group(1))
random.seed(1)
letter = lambda s: '.' if s == 0 else chr(ord('A') + s - 1)
rows = [''.join(letter(random.randrange(1, states))
                if random.random() < 0.5 else '.' for _ in range(n))
        for _ in range(n)]
open(out, 'w').write('x = %d, y = %d, rule = %s:T%d,%d\n%s!\n'
                     % (n, n, rule, n, n, '$\n'.join(rows)))
PY
    echo "== $rule soup ${SIZE}x$SIZE torus, $GENS generations"
    for be in $BACKENDS; do
        # first use compiles and validates (cached after); then the timed run
        run "$be" 1 "$soup" "$OUT/t.rle" >/dev/null
        s=$(date +%s.%N)
        run "$be" "$GENS" "$soup" "$OUT/t-$be.rle" ||
            { echo "  $be: ERROR $(cat "$OUT/last")"; continue; }
        e=$(date +%s.%N)
        own=$(sed -n 's/.*, \([0-9.]*\) s (.*/\1/p' "$OUT/last")
        echo "  $be: run ${own} s, process $(awk "BEGIN { printf \"%.3f\", $e - $s }") s:" \
             "$(python3 -c "print('%.3g cell updates/s' % ($SIZE**2*$GENS/max($own,1e-9)))")" \
             "[$(cat "$OUT/last")]"
    done
    first=${BACKENDS%% *}
    for be in $BACKENDS; do
        cmp -s "$OUT/t-$first.rle" "$OUT/t-$be.rle" ||
            echo "  $be DIFFERS from $first on the soup"
    done
    if [ -n "$BGOLLY" ] && [ -z "${GG_NO_BGOLLY:-}" ]; then
        s=$(date +%s.%N)
        timeout 1200 "$BGOLLY" -a RuleLoader -s "$RULES/" -q -q -m "$GENS" \
            -o "$OUT/t-bgolly.rle" "$soup" >/dev/null 2>&1
        e=$(date +%s.%N)
        grep -v '^#' "$OUT/t-$first.rle" | cmp -s - "$OUT/t-bgolly.rle" &&
            same="same cells" || same="DIFFERENT cells"
        echo "  bgolly -a RuleLoader: process $(awk "BEGIN { printf \"%.3f\", $e - $s }") s ($same)"
    fi
done
