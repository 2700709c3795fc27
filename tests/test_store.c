/* The universe store (runtime/formats/store.h) from the command line, for every
 * family that `golgen run` takes, and against hostile headers: a store
 * keeps a Generations universe's states, a resumed run ends where the
 * whole run ends (and where bgolly ends), and a header that golgen did
 * not write, or a generation count that would wrap, is refused by name
 * before anything runs (issue 42). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_golgen.h"

/* A w x h soup of states 0 .. states-1 as RLE (Golly's letters), the
 * same for the same seed. */
static void write_gen_soup(const char *name, const char *rule, int w, int h,
                           int states, uint64_t seed)
{
    char *rle = malloc((size_t)(w + 1) * (size_t)h + 128);
    assert_non_null(rle);
    int n = sprintf(rle, "x = %d, y = %d, rule = %s\n", w, h, rule);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int s = (int)(gg_test_xorshift(&seed) % (uint64_t)(2 * states));
            rle[n++] = s >= states ? '.' : s == 0 ? '.' : (char)('A' + s - 1);
        }
        rle[n++] = y < h - 1 ? '$' : '!';
    }
    rle[n] = 0;
    write_file(name, rle);
    free(rle);
}

/* Generations stores: import, a run's --store, checkpoints and resume all
 * end where the whole run in memory ends, on a torus and on the unbounded
 * plane, with 3 and 5 states. */
static void test_generations_round_trip(void **state)
{
    (void)state;
    static const char *const rules[][2] = {
        {"/2/3:T40,30", "3"}, {"345/2/5", "5"}, {"12/34/3:P33,27", "3"}};
    for (int i = 0; i < 3; i++) {
        char script[3000];
        write_gen_soup("gs.rle", rules[i][0], 12, 10, atoi(rules[i][1]),
                       0x9e3779b97f4a7c15ull + (uint64_t)i);
        snprintf(script, sizeof script,
                 "rm -f *.ggu && "
                 "$G run --gens 60 gs.rle -o full.rle 2>/dev/null && "
                 "$G store import gs.rle -o in.ggu && "
                 "$G run --resume in.ggu --gens 60 -o a.rle 2>/dev/null && "
                 "cmp full.rle a.rle && "
                 "$G run --gens 25 gs.rle --store mid.ggu 2>/dev/null && "
                 "$G run --resume mid.ggu --gens 35 -o b.rle 2>/dev/null && "
                 "cmp full.rle b.rle && "
                 "$G run --gens 60 gs.rle --store ck.ggu --checkpoint-every "
                 "20 --backend reference 2>/dev/null && "
                 "$G store export ck.ggu -o e.rle && "
                 "$G run --gens 0 e.rle -o c.rle 2>/dev/null && "
                 "cmp full.rle c.rle");
        shell_ok(rules[i][0], script);
    }
    expect("store info ck.ggu", 0, "2 state planes");
}

/* The case, against bgolly when it is installed: three cells in
 * state 1, imported, resumed for one generation. */
static void test_generations_store_against_bgolly(void **state)
{
    (void)state;
    write_file("g.rle", "x = 3, y = 1, rule = /2/3:T16,16\n3A!\n");
    expect("store import g.rle -o g.ggu", 0, "");
    expect("run --resume g.ggu --gens 1 -o o.rle", 0, "population 7");
    expect("run --resume g.ggu --gens 1 -o r.rle --backend reference", 0,
           "population 7");
    shell_ok("reference and cpu agree", "cmp o.rle r.rle");
    if (gg_test_status("command -v bgolly >/dev/null 2>&1") != 0) {
        printf("store: no bgolly, the oracle case skipped\n");
        return;
    }
    shell_ok("bgolly agrees",
             "bgolly -a Generations -q -q -m 1 -o b.rle g.rle >/dev/null && "
             "grep -v '^#' b.rle >b2 && grep -v '^#' o.rle >o2 && cmp b2 o2");
}

/* The paths that keep two-state universes only say so by name; a
 * Generations store takes --devices, a 3D run stores (test_families.c). */
static void test_generations_refused_by_name(void **state)
{
    (void)state;
    write_file("g.rle", "x = 3, y = 1, rule = /2/3:T64,64\n3A!\n");
    expect("store import g.rle -o g.ggu", 0, "");
    expect("run --resume g.ggu --gens 4 --host-mem 4K --store h.ggu", 2,
           "holds a Generations universe");
    expect("run --resume g.ggu --gens 4 --device-mem 1M", 2,
           "Generations rules do not take --device-mem");
    expect("run --resume g.ggu --gens 4 --devices 0,0", 0,
           "bands (Generations");
    write_file("two.rle", "x = 3, y = 1\nobo!\n");
    expect("store import two.rle --rule B3/S23 -o two.ggu", 0, "");
    expect("run --resume two.ggu --rule /2/3 --gens 1", 2,
           "is not the rule of store");
    write_file("c.rle3", "3D version=1 size=8\nx=2 y=2 z=2 rule=3D5..7/6\n"
               "2o$2o/2o$2o!\n");
    expect("run --gens 2 --host-mem 1M c.rle3", 2,
           "golgen run: 3D rules do not take --host-mem");
    expect("run --gens 2 --frobnicate c.rle3", 2,
           "golgen run: unknown option '--frobnicate' for a 3D rule");
    write_file("s2.rle", "x = 3, y = 1\nABA!\n");
    expect("store import s2.rle -o s2.ggu", 2,
           "B3/S23 has two states (0 and 1); give a Generations rule");
}

/* A generation that would pass 2^63 - 1 is refused before the run, from
 * a store and from a pattern's Gen=; a resumed store prints no negative
 * generation. */
static void test_generation_count_cannot_wrap(void **state)
{
    (void)state;
    write_file("blk.rle", "x = 2, y = 2\n2o$2o!\n");
    expect("store import blk.rle -o w.ggu", 0, "");
    gg_test_patch_store_header("w.ggu", 32, 8,
                               9223372036854775806ull);
    expect("store info w.ggu", 0, "generation: 9223372036854775806");
    expect("run --resume w.ggu --gens 3 -o w.rle", 2, "would pass");
    assert_null(strstr(out_text, "generation -"));
    expect("run --resume w.ggu --gens 1 -o w.rle", 0,
           "generation 9223372036854775807");
    write_file("late.rle", "#CXRLE Pos=0,0 Gen=9223372036854775800\n"
                           "x = 2, y = 2\n2o$2o!\n");
    expect("run --gens 8 late.rle", 2, "would pass");
    expect("run --gens 7 late.rle", 0, "generation 9223372036854775807");
    write_file("gl.rle", "#CXRLE Pos=0,0 Gen=9223372036854775800\n"
                         "x = 3, y = 1, rule = /2/3\n3A!\n");
    expect("run --gens 8 gl.rle", 2, "would pass");
    expect("store import gl.rle -o gl.ggu", 0, "");
    expect("run --resume gl.ggu --gens 8", 2, "would pass");
}

/* Headers that golgen did not write name the field that is wrong. */
static void test_hostile_headers(void **state)
{
    (void)state;
    write_file("blk.rle", "x = 2, y = 2\n2o$2o!\n");
    expect("store import blk.rle -o h.ggu", 0, "");
    shell_ok("copies", "for n in size neg rule dir; do "
             "cp h.ggu $n.ggu; done && rm dir.ggu && mkdir dir.ggu");
    gg_test_patch_store_header("size.ggu", 12, 4, 0);
    expect("store info size.ggu", 2, "header-size field says 0 bytes");
    gg_test_patch_store_header("neg.ggu", 32, 8, (uint64_t)-5);
    expect("run --resume neg.ggu --gens 1", 2, "generation is negative");
    /* a Generations store (2 planes) whose rule says B3/S23 */
    write_file("g3.rle", "x = 3, y = 1, rule = /2/3\n3A!\n");
    expect("store import g3.rle -o planes.ggu", 0, "");
    /* "B3/S23" */
    gg_test_patch_store_header("planes.ggu", 72, 8, 0x3332532f3342ull);
    expect("store export planes.ggu -o p.rle", 2, "needs 1 state plane, but "
           "its header says 2");
    /* "/2/3": 2 planes */
    gg_test_patch_store_header("rule.ggu", 72, 8, 0x332f322f);
    expect("run --resume rule.ggu --gens 1", 2, "needs 2 state planes");
    expect("run --resume dir.ggu --gens 1", 2, "it is a directory");
    expect("store info dir.ggu", 2, "it is a directory");
    /* sizes checked against the file before anything is allocated: a
     * header naming 2^40 x 2^20 cells over a few bytes of rows */
    shell_ok("copies", "cp h.ggu huge.ggu && cp h.ggu short.ggu && "
             "truncate -s -8 short.ggu && cp h.ggu long.ggu && "
             "printf 'xx' >>long.ggu");
    gg_test_patch_store_header("huge.ggu", 16, 8, 1ull << 40);
    gg_test_patch_store_header("huge.ggu", 24, 8, 1ull << 20);
    gg_test_patch_store_header("huge.ggu", 60, 4, 1u << 20);
    expect("store export huge.ggu -o x.rle", 2, "shorter than its header");
    expect("run --resume short.ggu --gens 1", 2, "shorter than its header");
    expect("store info long.ggu", 2, "bytes after its last row");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generations_round_trip),
        cmocka_unit_test(test_generations_store_against_bgolly),
        cmocka_unit_test(test_generations_refused_by_name),
        cmocka_unit_test(test_generation_count_cannot_wrap),
        cmocka_unit_test(test_hostile_headers),
    };
    if (!getenv("GG_GOLGEN"))
        return 1;
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
