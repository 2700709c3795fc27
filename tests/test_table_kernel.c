/* Golly's rule tables and trees compiled (issue 39 part 2): the cpu
 * table kernel (runtime/backends/cpu_table.h, gen/rulefile/rulefile_emit.h)
 * passes its validation for Golly's rules, equals the reference
 * (runtime/reference/reference_table.h) on larger random boards, is
 * refused when broken, refuses a rule over its size bound by name, and
 * golgen run --backend cpu (and auto) and opencl (PoCL in CI; its own
 * checks are in test_table_gpu.c) agree with bgolly -a RuleLoader on
 * Golly's bundled patterns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cpu_table.h"
#include "reference_table.h"
#include "rule_find.h"
#include "rule_gen.h"
#include "rulefile.h"
#include "rulefile_emit.h"
#include "test_util.h"
#include "test_opencl_util.h"

#define RULES GG_GOLLY_RULES_DIR
#define PATTERNS "/usr/share/golly/Patterns"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static int load_rule(const char *name, gg_rulefile *rf)
{
    char path[512];
    snprintf(path, sizeof path, RULES "/%s.rule", name);
    size_t len;
    char *text = gg_test_read_file(path, &len);
    if (!text)
        return -1;
    gg_err err;
    int bad = gg_rulefile_parse(text, len, path, rf, &err);
    free(text);
    if (bad)
        fail_msg("%s", err.msg);
    return 0;
}

/* A w x h board, sparse or in every state, stepped by both for gens. */
static void kernel_equals_reference(const gg_rulefile *rf, gg_cpu_table *k,
                                    int64_t w, int64_t h, gg_topo topo,
                                    int gens, const char *name)
{
    gg_gen_cells a, b;
    gg_err err;
    int np = gg_gen_planes(rf->n_states);
    assert_int_equal(gg_gen_cells_init(&a, np, w, h, &err), 0);
    assert_int_equal(gg_gen_cells_init(&b, np, w, h, &err), 0);
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++) {
            uint64_t r = gg_test_xorshift(&rng);
            int s = (r >> 50) % 4 ? 0 : (int)(r % (uint64_t)rf->n_states);
            gg_gen_cells_set(&a, x, y, s);
            gg_gen_cells_set(&b, x, y, s);
        }
    assert_int_equal(gg_reference_table_run(rf, topo, &a, gens, NULL, &err),
                     gens);
    if (gg_cpu_table_step(k, topo, &b, gens, &err))
        fail_msg("%s: %s", name, err.msg);
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++)
            if (gg_gen_cells_get(&a, x, y) != gg_gen_cells_get(&b, x, y))
                fail_msg("%s: cell (%lld, %lld) after %d generations: %d, "
                         "the reference %d", name, (long long)x,
                         (long long)y, gens, gg_gen_cells_get(&b, x, y),
                         gg_gen_cells_get(&a, x, y));
    gg_gen_cells_free(&a);
    gg_gen_cells_free(&b);
}

/* Golly's rules compile, pass validation, and equal the reference on
 * larger boards over more generations: a representative set (every
 * neighbourhood, 2 to 64 states, tables and trees, the largest graphs);
 * GG_TABLE_ALL=1 takes all of them (51 pass: about a minute of compiles
 * on an idle 2-core VM). */
static void golly_rules_compile(void **state)
{
    (void)state;
    static const char *const some[] = {
        "WireWorld", "Langtons-Loops", "Codd", "Evoloop", "Byl-Loop",
        "Tempesti", "Perrier", "HPP", "TriTurmite_120010",
        "TMGasMargolus_emulated", "LifeHistory", "Life", "Banks-III",
        "Worm-1040512", "Sand-square4cyclic_emulated"};
    const char *cmd = getenv("GG_TABLE_ALL")
                          ? "ls " RULES "/*.rule 2>/dev/null"
                          : "true";
    FILE *ls = popen(cmd, "r");
    char path[4096];
    int n = 0;
    size_t next = 0;
    for (;;) {
        char name[256];
        if (getenv("GG_TABLE_ALL")) {
            if (!ls || !fgets(path, sizeof path, ls))
                break;
            path[strcspn(path, "\n")] = 0;
            const char *base = strrchr(path, '/') + 1;
            snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - 5),
                     base);
        } else {
            if (next == sizeof some / sizeof *some)
                break;
            snprintf(name, sizeof name, "%s", some[next++]);
        }
        gg_rulefile rf;
        if (load_rule(name, &rf))
            continue; /* no Golly installed */
        gg_cpu_table_opts o = {.cache_dir = gg_test_dir};
        gg_cpu_table *k;
        gg_fail_kind why;
        gg_err err;
        if (gg_cpu_table_open(&rf, name, &o, &k, &why, &err))
            fail_msg("%s: %s", name, err.msg);
        kernel_equals_reference(&rf, k, 301, 123, GG_TOPO_TORUS, 20, name);
        kernel_equals_reference(&rf, k, 200, 97, GG_TOPO_PLANE, 20, name);
        gg_cpu_table_close(k);
        gg_rulefile_free(&rf);
        n++;
    }
    if (ls)
        pclose(ls);
    if (n == 0)
        skip();
}

/* The AVX2 and portable paths (the CI's capped runs use them too). */
static void narrower_isas(void **state)
{
    (void)state;
    static const char *const names[] = {"Langtons-Loops", "TMGasMargolus_emulated"};
    static const char *const isas[] = {"avx2", "portable"};
    for (int r = 0; r < 2; r++) {
        gg_rulefile rf;
        if (load_rule(names[r], &rf))
            skip();
        for (int i = 0; i < 2; i++) {
            gg_cpu_table_opts o = {.cache_dir = gg_test_dir, .isa = isas[i]};
            gg_cpu_table *k;
            gg_fail_kind why;
            gg_err err;
            if (gg_cpu_table_open(&rf, names[r], &o, &k, &why, &err))
                fail_msg("%s %s: %s", names[r], isas[i], err.msg);
            assert_string_equal(gg_cpu_table_isa(k), isas[i]);
            kernel_equals_reference(&rf, k, 131, 67, GG_TOPO_TORUS, 10,
                                    names[r]);
            gg_cpu_table_close(k);
        }
        gg_rulefile_free(&rf);
    }
}

/* Langton's loops' kernel with one edit: the rule's last-level terms
 * written to the wrong plane (its per-cell check sees it), or west and
 * east swapped in the grid walk (only the steps against the reference
 * see it: the loops are not mirror symmetric). Neither is used. */
static void broken_kernels_refused(void **state)
{
    (void)state;
    gg_rulefile rf;
    if (load_rule("Langtons-Loops", &rf))
        skip();
    char *src;
    size_t len;
    gg_err err;
    assert_int_equal(gg_rulefile_emit_c(&rf, "Langtons-Loops", 0, &src, &len,
                                        NULL, &err), 0);
    static const char *const edits[][2] = {
        {"    o0 |= ", "    o1 |= "},
        {"gg_in_sh[5] = {1, 0, 2, 1, 1}", "gg_in_sh[5] = {1, 2, 0, 1, 1}"},
    };
    for (int e = 0; e < 2; e++) {
        char *bad = malloc(len + 1);
        assert_non_null(bad);
        memcpy(bad, src, len + 1);
        char *at = strstr(bad, edits[e][0]);
        assert_non_null(at);
        assert_int_equal(strlen(edits[e][0]), strlen(edits[e][1]));
        memcpy(at, edits[e][1], strlen(edits[e][1]));
        gg_cpu_table_opts o = {.cache_dir = gg_test_dir};
        gg_cpu_table *k;
        gg_fail_kind why;
        assert_int_equal(gg_cpu_table_open_source(&rf, bad, len, &o, &k,
                                                  &why, &err), -1);
        assert_null(k);
        assert_int_equal(why, GG_FAIL_INVALID);
        if (!strstr(err.msg, e ? "differs from the reference"
                               : "for inputs"))
            fail_msg("edit %d: %s", e, err.msg);
        /* and again: a refused kernel left no stamp behind */
        assert_int_equal(gg_cpu_table_open_source(&rf, bad, len, &o, &k,
                                                  &why, &err), -1);
        free(bad);
    }
    free(src);
    gg_rulefile_free(&rf);
}

/* A graph over the size bound is refused by name, before any compiler. */
static void too_large_refused(void **state)
{
    (void)state;
    gg_rulefile rf;
    if (load_rule("Codd", &rf))
        skip();
    char *src;
    size_t len;
    int64_t terms;
    gg_err err;
    assert_int_equal(gg_rulefile_emit_c(&rf, "Codd", 0, &src, &len, &terms,
                                        &err), 0);
    free(src);
    assert_true(terms > 100);
    assert_int_equal(gg_rulefile_emit_c(&rf, "Codd", 100, &src, &len, NULL,
                                        &err), -1);
    assert_non_null(strstr(err.msg, "Codd is too large to compile"));
    gg_cpu_table_opts o = {.cache_dir = gg_test_dir, .max_terms = 100};
    gg_cpu_table *k;
    gg_fail_kind why;
    assert_int_equal(gg_cpu_table_open(&rf, "Codd", &o, &k, &why, &err), -1);
    assert_int_equal(why, GG_FAIL_INPUT);
    gg_rulefile_free(&rf);
}

/* golgen run on `backend` (the dense engine: tests/test_hashlife.c runs
 * tables through the tree) against bgolly -a RuleLoader: the RLE bodies
 * (bgolly writes no #CXRLE); the run's line must name the backend. */
static void agree_with_bgolly(const char *pattern, int gens,
                              const char *backend, const char *says)
{
    const char *golgen = getenv("GG_GOLGEN");
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "set -e; d=$(mktemp -d /tmp/gg_tkb_XXXXXX); "
             "GOLGEN_CACHE_DIR='%s' '%s' run --engine dense --backend %s "
             "--gens %d "
             "-o $d/g.rle '%s' 2>$d/err; grep -q '(%s' $d/err || "
             "{ cat $d/err; exit 1; }; "
             "bgolly -a RuleLoader -s %s/ -q -q -m %d -o $d/b.rle '%s' "
             ">/dev/null 2>&1; grep -v '^#' $d/g.rle > $d/g2.rle; "
             "cmp -s $d/g2.rle $d/b.rle || { diff $d/g2.rle $d/b.rle | "
             "head -5; exit 1; }; rm -rf $d",
             gg_test_dir, golgen, backend, gens, pattern, says, RULES, gens,
             pattern);
    if (gg_test_status(cmd) != 0)
        fail_msg("%s on %s differs from bgolly at generation %d", pattern,
                 backend, gens);
}

/* Golly's bundled patterns on cpu and on opencl (PoCL in CI; skipped with
 * a message where no OpenCL platform is found: golgen exits 3), each
 * against bgolly -a RuleLoader. */
static void golly_patterns_on_cpu_and_opencl(void **state)
{
    (void)state;
    if (!getenv("GG_GOLGEN") ||
        gg_test_status("command -v bgolly >/dev/null 2>&1") != 0 ||
        gg_test_status("test -d " PATTERNS) != 0)
        skip();
    static const struct {
        const char *file;
        int gens;
    } cases[] = {
        {"Loops/Langtons-Loops.rle", 1000},
        {"Loops/Byl-Loop.rle", 1000},
        {"Loops/Evoloop.rle", 1000},
        {"Loops/Chou-Reggia-Loop-1.rle", 1000},
        {"Loops/Perrier-Loop.rle", 1000},
        {"Loops/Tempesti-Loop.rle", 300},
        {"Self-Rep/Codd/signals-demo.rle", 1000},
        {"WireWorld/gate-AND.mcl", 1000},
        {"WireWorld/NylesHeise.mcl", 1000},
        {"Turmites/AlienCounter.rle", 1000},
        {"Other-Rules/HPP-demo-small.rle", 300},
        {"Margolus/BBM.rle", 1000},
        {"Margolus/TMGas.rle", 1000},
        {"Margolus/CrittersOscillators.rle", 1000},
    };
    char probe[1024];
    snprintf(probe, sizeof probe,
             "GOLGEN_CACHE_DIR='%s' '%s' run --backend opencl --gens 1 "
             "'" PATTERNS "/WireWorld/gate-AND.mcl' >/dev/null 2>&1; "
             "test $? -ne 3", gg_test_dir, getenv("GG_GOLGEN"));
    bool opencl = !gg_test_opencl_skipped() && gg_test_status(probe) == 0;
    if (!opencl)
        print_message("no OpenCL platform: the patterns run on cpu only\n");
    for (int b = 0; b < 1 + opencl; b++)
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            char path[512];
            snprintf(path, sizeof path, PATTERNS "/%s", cases[i].file);
            agree_with_bgolly(path, cases[i].gens, b ? "opencl" : "cpu",
                              b ? "opencl on " : "cpu ");
        }
    /* auto takes the compiled cpu kernel */
    agree_with_bgolly(PATTERNS "/Loops/Langtons-Loops.rle", 500, "auto",
                      "cpu ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(golly_rules_compile),
        cmocka_unit_test(narrower_isas),
        cmocka_unit_test(broken_kernels_refused),
        cmocka_unit_test(too_large_refused),
        cmocka_unit_test(golly_patterns_on_cpu_and_opencl),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
