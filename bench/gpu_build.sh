# Sourced by the bench/gpu*.sh scripts: build golgen for the GPU box (no
# SAT solver, no cmocka: the networks come from generated/) into $B from
# $ROOT, logs in $OUT. With GG_GOLGEN=DIR, use the golgen in DIR instead,
# built elsewhere (with the solver, say: DIR also holds
# golgen-sat.so and libcryptominisat5.so.5.11; carry DIR): $B becomes DIR, its libraries are
# found there, and the cache is $ROOT/generated (a build's compiled-in
# source root is its own machine's).
build() {
    if [ -n "${GG_GOLGEN:-}" ]; then
        B=$(cd "$GG_GOLGEN" && pwd)
        export LD_LIBRARY_PATH=$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
        export GOLGEN_GENERATED=${GOLGEN_GENERATED:-$ROOT/generated}
        "$B/golgen" --version | head -3
        return
    fi
    if ! [ -e "$B/build.ninja" ]; then
        meson setup "$B" "$ROOT" -Dsat=disabled -Dtests=disabled \
            --buildtype=release >"$OUT/setup.log" 2>&1 ||
            { tail -30 "$OUT/setup.log"; return 1; }
    fi
    ninja -C "$B" golgen >"$OUT/build.log" 2>&1 ||
        { tail -30 "$OUT/build.log"; return 1; }
}
