# Sourced by the bench/gpu*.sh scripts: build golgen for the GPU box (no
# SAT solver, no cmocka: the networks come from generated/) into $B from
# $ROOT, logs in $OUT.
build() {
    if ! [ -e "$B/build.ninja" ]; then
        meson setup "$B" "$ROOT" -Dsat=disabled -Dtests=disabled \
            --buildtype=release >"$OUT/setup.log" 2>&1 ||
            { tail -30 "$OUT/setup.log"; return 1; }
    fi
    ninja -C "$B" golgen >"$OUT/build.log" 2>&1 ||
        { tail -30 "$OUT/build.log"; return 1; }
}
