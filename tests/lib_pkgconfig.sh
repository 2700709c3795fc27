#!/bin/sh
# libgolgen as a user gets it: `meson install` into a temporary directory,
# then a C program built with `pkg-config --cflags --libs golgen` runs a
# glider on a torus and checks it came back shifted by (1, 1).
# usage: tests/lib_pkgconfig.sh BUILD_DIR [B_SANITIZE]
# (a sanitizer build's library needs the program built with the same
# -fsanitize, as meson builds its own programs)
set -eu
build=$(cd "${1:?usage: lib_pkgconfig.sh BUILD_DIR [B_SANITIZE]}" && pwd)
san=
case ${2:-none} in none | '') ;; *) san="-fsanitize=$2" ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/golgen-pkgconfig-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dest="$tmp/dest"

meson install -C "$build" --no-rebuild --quiet --destdir "$dest" \
    >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
pc=$(find "$dest" -name golgen.pc | head -n 1)
[ -n "$pc" ] || { echo "no golgen.pc installed under $dest"; exit 1; }
[ "$(find "$dest" -name golgen.h | wc -l)" -eq 1 ] ||
    { echo "golgen.h is not the one header installed"; exit 1; }
# besides it, only its sub-headers (include/golgen/*.h, which golgen.h
# includes), each in golgen/ beside it; but mpi_ranks.h, whose functions
# are built into the golgen command's MPI program (golgen-full) and not
# into libgolgen, which never needs MPI (lib/meson.build)
src=$(cd "$(dirname "$0")/.." && pwd)
top=$(dirname "$(find "$dest" -name golgen.h)")
if [ -n "$(find "$dest" -name '*.h' ! -name golgen.h ! -path "$top/golgen/*")" ]
then
    echo "headers besides golgen.h and golgen/*.h were installed:"
    find "$dest" -name '*.h' ! -name golgen.h ! -path "$top/golgen/*"
    exit 1
fi
for h in "$src"/include/golgen/*.h; do
    [ -e "$h" ] || continue
    if [ "$(basename "$h")" = mpi_ranks.h ]; then
        [ ! -e "$top/golgen/mpi_ranks.h" ] ||
            { echo "include/golgen/mpi_ranks.h was installed, but libgolgen has none of its functions"; exit 1; }
        continue
    fi
    [ -f "$top/golgen/$(basename "$h")" ] ||
        { echo "include/golgen/$(basename "$h") was not installed"; exit 1; }
done

# The .pc names the install prefix; the sysroot puts it under DESTDIR.
export PKG_CONFIG_PATH="$(dirname "$pc")"
export PKG_CONFIG_SYSROOT_DIR="$dest"
pkg=$(command -v pkg-config || command -v pkgconf) ||
    { echo "pkg-config is not installed"; exit 1; }
flags=$("$pkg" --cflags --libs golgen)

cat >"$tmp/glider.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <golgen.h>

int main(void)
{
    static const unsigned char glider[9] = {0, 1, 0, 0, 0, 1, 1, 1, 1};
    unsigned char before[64 * 64], after[64 * 64];
    char err[512];
    golgen_rule *r;
    golgen_universe *u;
    if (golgen_rule_parse("B3/S23:T64,64", &r, err, sizeof err) ||
        golgen_universe_from_cells(r, glider, 3, 3, &u, err, sizeof err)) {
        fprintf(stderr, "glider: %s\n", err);
        return 1;
    }
    int64_t ex, ey, ew, eh;
    golgen_universe_extent(u, &ex, &ey, &ew, &eh);
    golgen_universe_window(u, ex, ey, 64, 64, before, NULL, 0);
    if (golgen_universe_run(u, 4, "auto", err, sizeof err)) {
        fprintf(stderr, "glider: %s\n", err);
        return 1;
    }
    golgen_universe_window(u, ex, ey, 64, 64, after, NULL, 0);
    for (int j = 0; j < 64; j++)
        for (int i = 0; i < 64; i++)
            if (after[(j + 1) % 64 * 64 + (i + 1) % 64] != before[j * 64 + i]) {
                fprintf(stderr, "glider: cell %d,%d differs\n", i, j);
                return 1;
            }
    int64_t x, y, w, h;
    golgen_universe_bbox(u, &x, &y, &w, &h);
    printf("%s gen %lld pop %lld box %lld,%lld %lldx%lld\n",
           golgen_universe_backend_line(u),
           (long long)golgen_universe_generation(u),
           (long long)golgen_universe_population(u), (long long)x,
           (long long)y, (long long)w, (long long)h);
    golgen_universe_free(u);
    golgen_rule_free(r);
    /* the same glider as a world (golgen_0.8, include/golgen/world.h) */
    static const char rle[] = "x = 3, y = 3, rule = B3/S23:T64,64\n"
                              "bo$2bo$3o!\n";
    golgen_world *wo;
    if (golgen_world_parse(rle, sizeof rle - 1, NULL, &wo, err, sizeof err) ||
        golgen_world_run(wo, 4, "auto", err, sizeof err)) {
        fprintf(stderr, "world: %s\n", err);
        return 1;
    }
    printf("world gen %lld pop %lld\n",
           (long long)golgen_world_generation(wo),
           (long long)golgen_world_population(wo));
    golgen_world_free(wo);
    return 0;
}
C
# shellcheck disable=SC2086 # the flags are words
${CC:-cc} -std=c11 -Wall -Wextra -Werror $san -o "$tmp/glider" \
    "$tmp/glider.c" $flags
libdir=$(dirname "$(dirname "$pc")")
out=$(LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      "$tmp/glider")
echo "$out"
case $out in
*" gen 4 pop 5 box "*" 3x3
world gen 4 pop 5") ;;
*) echo "unexpected output"; exit 1 ;;
esac
# the shared library exports the public API only
if command -v nm >/dev/null; then
    so=$(find "$libdir" -name 'libgolgen.so.*' | head -n 1)
    if nm -D --defined-only "$so" | awk '{print $3}' | grep -v '^golgen_' |
        grep -qv '^$'; then
        echo "libgolgen.so exports names besides golgen_*:"
        nm -D --defined-only "$so" | awk '{print $3}' | grep -v '^golgen_' |
            head
        exit 1
    fi
fi
# the map's nodes make one chain, each inheriting the node before it
# (golgen_0.8 once inherited golgen_0.6 beside 0.7, and no check saw it)
prev=""
for node in $(awk '/^golgen_[0-9.]+ *\{/ {print $1}' "$src/lib/golgen.map"); do
    parent=$(awk -v n="$node" '/^golgen_[0-9.]+ *\{/ {cur = $1}
                 /^\}/ && cur == n {p = $2; sub(";", "", p); print p}' \
             "$src/lib/golgen.map")
    if [ "$parent" != "$prev" ]; then
        echo "lib/golgen.map: $node inherits '${parent:-nothing}'; it must" \
             "inherit '${prev:-nothing}', the node before it"
        exit 1
    fi
    prev=$node
done
# the ABI stays versioned: every function golgen.h (and its sub-headers)
# declares is in a node of lib/golgen.map, and the library exports each
# with its node's version (a new symbol in an old node, or one missing
# from the map, fails here)
if command -v objdump >/dev/null; then
    want=$(awk '/^golgen_[0-9.]+ *\{/ {node = $1}
                /^ +golgen_[a-z0-9_]+;/ {sub(";", "", $1); print node, $1}' \
               "$src/lib/golgen.map" | sort)
    so=$(find "$libdir" -name 'libgolgen.so.*' | head -n 1)
    have=$(objdump -T "$so" |
           awk '$NF ~ /^golgen_[a-z]/ && $(NF-1) ~ /^golgen_[0-9.]+$/ {
                    print $(NF-1), $NF }' | sort)
    if [ "$want" != "$have" ]; then
        echo "libgolgen.so's versioned symbols differ from lib/golgen.map:"
        printf '%s\n' "$want" > "$tmp/want"
        printf '%s\n' "$have" > "$tmp/have"
        diff "$tmp/want" "$tmp/have" | head -20
        exit 1
    fi
    # (mpi_ranks.h's functions are golgen-full's, not the library's)
    for f in $(ls "$src/include/golgen.h" "$src"/include/golgen/*.h |
               grep -v '/mpi_ranks\.h$' | xargs cat 2>/dev/null |
               grep -o 'golgen_[a-z0-9_]*(' |
               tr -d '(' | sort -u); do
        case " $(echo $want) " in
        *" $f "*) ;;
        *) echo "include/golgen.h or include/golgen/ declares $f, which" \
                "no node of lib/golgen.map exports"; exit 1 ;;
        esac
    done
fi
echo "lib_pkgconfig: ok"
