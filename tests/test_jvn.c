/* Golly's JvN rules built in (gen/rulefile/rulefile_jvn.c): JvN29,
 * Nobili32 and Hutton32 are found by their names and Golly's older ones
 * with no rule file; each one's decision graph is its transition function
 * on every von Neumann neighbourhood; the graph does what von Neumann's,
 * Nobili's and Hutton's descriptions say on cases picked by hand; and
 * Golly's own JvN patterns and random soups of each rule (on the plane
 * and on a torus) run cell for cell and state for state as bgolly -a JvN
 * runs them (skipped without bgolly). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rule_find.h"
#include "rulefile.h"
#include "test_util.h"

#define PATTERNS "/usr/share/golly/Patterns/Self-Rep/JvN"

static const char *const names[3] = {"JvN29", "Nobili32", "Hutton32"};

static gg_rulefile built(int rule)
{
    gg_rulefile rf;
    gg_err err;
    const char *name = names[rule];
    assert_int_equal(gg_rulefile_builtin(name, strlen(name), &rf, &err), 1);
    return rf;
}

static void found_by_name_as_golly(void **state)
{
    (void)state;
    static const struct {
        const char *name, *canonical;
        int states;
    } cases[] = {
        {"JvN29", "JvN29", 29},       {"jvn29", "JvN29", 29},
        {"JvN-29", "JvN29", 29},      {"Nobili32", "Nobili32", 32},
        {"JVN-32", "Nobili32", 32},   {"Hutton32", "Hutton32", 32},
        {"modJvN-32", "Hutton32", 32},
    };
    gg_rulefile rf;
    gg_err err;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *n = cases[i].name;
        assert_int_equal(gg_rulefile_builtin(n, strlen(n), &rf, &err), 1);
        assert_string_equal(rf.name, cases[i].canonical);
        assert_int_equal(rf.n_states, cases[i].states);
        assert_true(rf.builtin);
        assert_int_equal(rf.n_inputs, 5);
        assert_true(gg_rulefile_zero_stays(&rf));
        gg_rulefile_free(&rf);
    }
    assert_int_equal(gg_rulefile_builtin("JvN30", 5, &rf, &err), 0);
    assert_int_equal(gg_rulefile_builtin("Hutton32x", 9, &rf, &err), 0);
    assert_int_equal(gg_rulefile_builtin("Hutton32x", 8, &rf, &err), 1);
    gg_rulefile_free(&rf);

    /* no file: found before any folder is looked in, suffix kept */
    gg_rule_found f;
    assert_int_equal(gg_rule_find("modjvn-32:T40,30", NULL, NULL, NULL, &f, &err),
                     1);
    assert_string_equal(f.rule, "Hutton32:T40,30");
    assert_string_equal(f.path, GG_RULE_BUILTIN_PATH);
    assert_int_equal(f.topo, GG_TOPO_TORUS);
    gg_rule_found_free(&f);
    assert_int_equal(gg_rule_find("Nobili32:Q3", NULL, NULL, NULL, &f, &err), -1);
}

/* Every neighbourhood: the graph (built over classes of neighbour states)
 * gives the transition function's next state. */
static void graph_is_the_function(void **state)
{
    (void)state;
    for (int r = 0; r < 3; r++) {
        gg_rulefile rf = built(r);
        int ns = rf.n_states;
        uint8_t in[5];
        for (int c = 0; c < ns; c++)
            for (int n = 0; n < ns; n++)
                for (int w = 0; w < ns; w++)
                    for (int e = 0; e < ns; e++)
                        for (int s = 0; s < ns; s++) {
                            in[0] = (uint8_t)n, in[1] = (uint8_t)w;
                            in[2] = (uint8_t)e, in[3] = (uint8_t)s;
                            in[4] = (uint8_t)c;
                            int want = gg_rulefile_jvn_cell(r, c, n, w, e, s);
                            int got = gg_rulefile_lookup(&rf, in);
                            if (got != want)
                                fail_msg("%s: c %d n %d w %d e %d s %d: "
                                         "graph %d, function %d", names[r],
                                         c, n, w, e, s, got, want);
                        }
        gg_rulefile_free(&rf);
    }
}

/* Through the graph. States: 0 ground, 1..8 S S0 S1 S00 S01 S10 S11 S000,
 * 9..12 OTS east north west south, 13..16 excited, 17..24 STS likewise,
 * 25..28 C00 C01 C10 C11, 29..31 Nobili's crossings. */
static int next(const gg_rulefile *rf, int c, int n, int w, int e, int s)
{
    uint8_t in[5] = {(uint8_t)n, (uint8_t)w, (uint8_t)e, (uint8_t)s,
                     (uint8_t)c};
    return gg_rulefile_lookup(rf, in);
}

static void as_described(void **state)
{
    (void)state;
    gg_rulefile j = built(0), nb = built(1), h = built(2);
    /* ground: sensitized by an excited arrow of either kind into it */
    assert_int_equal(next(&j, 0, 0, 0, 0, 0), 0);
    assert_int_equal(next(&j, 0, 16, 0, 0, 0), 1);  /* OTS south, above */
    assert_int_equal(next(&j, 0, 0, 21, 0, 0), 1);  /* STS east, left */
    assert_int_equal(next(&j, 0, 0, 0, 13, 0), 0);  /* pointing away */
    /* sensitized: 10000 OTS east, 10001 north, 1111 confluent */
    assert_int_equal(next(&j, 1, 0, 0, 0, 0), 2);
    assert_int_equal(next(&j, 2, 0, 0, 0, 0), 4);
    assert_int_equal(next(&j, 4, 0, 0, 0, 0), 8);
    assert_int_equal(next(&j, 8, 0, 0, 0, 0), 9);
    assert_int_equal(next(&j, 8, 0, 13, 0, 0), 10);
    assert_int_equal(next(&j, 7, 0, 13, 0, 0), 25);
    /* transmission: a step a generation, not head on; the other kind's
     * excitation destroys */
    assert_int_equal(next(&j, 9, 0, 13, 0, 0), 13);
    assert_int_equal(next(&j, 13, 0, 0, 0, 0), 9);
    assert_int_equal(next(&j, 9, 0, 0, 15, 0), 9);  /* head on */
    assert_int_equal(next(&j, 9, 24, 0, 0, 0), 0);  /* excited STS in */
    assert_int_equal(next(&j, 17, 0, 13, 0, 0), 0); /* excited OTS in */
    assert_int_equal(next(&j, 17, 0, 21, 0, 0), 21);
    /* confluent: AND of its ordinary inputs, a generation's delay, then
     * emitting into the cells that do not point at it */
    assert_int_equal(next(&j, 25, 12, 13, 0, 0), 25);
    assert_int_equal(next(&j, 25, 16, 13, 0, 0), 26);
    assert_int_equal(next(&j, 26, 0, 0, 0, 0), 27);
    assert_int_equal(next(&j, 9, 0, 27, 0, 0), 13);
    assert_int_equal(next(&j, 9, 0, 0, 27, 0), 9);  /* it points at it */
    assert_int_equal(next(&j, 25, 0, 21, 0, 0), 0);
    /* Nobili32: inputs and outputs on both axes make a crossing; a
     * confluent with no output keeps its state */
    assert_int_equal(next(&nb, 25, 12, 13, 9, 12), 29);
    assert_int_equal(next(&nb, 25, 16, 9, 9, 12), 30);
    assert_int_equal(next(&j, 25, 12, 13, 9, 12), 25);
    assert_int_equal(next(&nb, 27, 0, 0, 0, 0), 27);
    assert_int_equal(next(&j, 27, 0, 0, 0, 0), 25);
    /* Hutton32: a wire's end writing marks itself with an excited STS,
     * and Golly's arithmetic for a sensitized cell without input */
    assert_int_equal(next(&h, 13, 0, 0, 0, 0), 21);
    assert_int_equal(next(&h, 8, 0, 0, 0, 0), 8);
    assert_int_equal(next(&h, 5, 0, 0, 0, 0), 7);
    gg_rulefile_free(&j);
    gg_rulefile_free(&nb);
    gg_rulefile_free(&h);
}

static bool have_bgolly(void)
{
    return getenv("GG_GOLGEN") &&
           gg_test_status("command -v bgolly >/dev/null 2>&1") == 0;
}

/* golgen run (engine auto) against bgolly -a JvN: the RLE bodies. */
static void agree_with_bgolly(const char *pattern, int gens)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "set -e; d=$(mktemp -d /tmp/gg_jvn_XXXXXX); "
             "'%s' run --gens %d -o $d/g.rle '%s' 2>/dev/null; "
             "bgolly -a JvN -q -q -m %d -o $d/b.rle '%s' >/dev/null 2>&1; "
             "grep -v '^#' $d/g.rle > $d/g2.rle; "
             "cmp -s $d/g2.rle $d/b.rle || { diff $d/g2.rle $d/b.rle | "
             "head -5; exit 1; }; rm -rf $d",
             getenv("GG_GOLGEN"), gens, pattern, gens, pattern);
    if (gg_test_status(cmd) != 0)
        fail_msg("%s differs from bgolly at generation %d", pattern, gens);
}

static void golly_patterns_match_bgolly(void **state)
{
    (void)state;
    if (!have_bgolly() || gg_test_status("test -d " PATTERNS) != 0)
        skip();
    static const struct {
        const char *file;
        int gens;
    } cases[] = {
        {"counter-demo.rle", 3000},          /* JvN29 */
        {"cell-coders-demo.rle", 1000},      /* JvN29 */
        {"read-arm-demo.rle", 2000},         /* JvN29 */
        {"construction-arm-demo.rle", 2000}, /* Nobili32 */
        {"codon5-auto-retract.rle", 1000},   /* Nobili32 */
        {"golly-constructor.rle", 1000},     /* Hutton32 */
        {"Hutton-replicator.rle", 1000},     /* Hutton32 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[512];
        snprintf(path, sizeof path, PATTERNS "/%s", cases[i].file);
        agree_with_bgolly(path, cases[i].gens);
    }
}

/* A state in RLE: . for 0, A..X for 1..24, then pA..pX. */
static void put_state(FILE *f, int s)
{
    if (!s)
        fputc('.', f);
    else if (s <= 24)
        fputc('A' + s - 1, f);
    else
        fprintf(f, "p%c", 'A' + s - 25);
}

/* A random soup of the rule (half the cells not ground) on the plane and
 * on a torus, 100 generations. */
static void soups_match_bgolly(void **state)
{
    (void)state;
    if (!have_bgolly())
        skip();
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    for (int r = 0; r < 3; r++)
        for (int torus = 0; torus < 2; torus++) {
            int side = torus ? 64 : 48, ns = r ? 32 : 29;
            char path[600];
            snprintf(path, sizeof path, "%s/soup-%s-%d.rle", gg_test_dir,
                     names[r], torus);
            FILE *f = fopen(path, "w");
            assert_non_null(f);
            fprintf(f, "x = %d, y = %d, rule = %s", side, side, names[r]);
            if (torus)
                fprintf(f, ":T%d,%d", side, side);
            fputc('\n', f);
            for (int y = 0; y < side; y++) {
                for (int x = 0; x < side; x++) {
                    uint64_t v = gg_test_xorshift(&rng);
                    put_state(f, v & 1 ? 0 : 1 + (int)((v >> 8) % (ns - 1)));
                }
                fputs(y + 1 < side ? "$\n" : "!\n", f);
            }
            fclose(f);
            agree_with_bgolly(path, 100);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(found_by_name_as_golly),
        cmocka_unit_test(graph_is_the_function),
        cmocka_unit_test(as_described),
        cmocka_unit_test(golly_patterns_match_bgolly),
        cmocka_unit_test(soups_match_bgolly),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
