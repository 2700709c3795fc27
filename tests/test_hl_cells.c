/* The hash tree's 4x4 leaves stepped a cell at a time through a Golly
 * rule's decision graph (runtime/engines/hl_small.c: the leaf memo's
 * misses, given the graph as gg_hl_leaf_stepper.rf), against bgolly -a
 * RuleLoader on Golly's own patterns: von Neumann, Moore and hexagonal
 * tables and a tree rule, 8 to 64 states (3 to 6 planes).
 *
 * Short runs of small patterns go through a leaf stepper that refuses
 * every call, so every cell comes from the graph (a run this short is all
 * memo warm-up, whose misses are too few for the kernel's vectors, under
 * 512 a batch); long runs step the leaves
 * with the reference as well (the timed choice between the memo and the
 * grid, the grid for big miss batches), and a tree without the graph
 * must write the same file. Without bgolly the cases skip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hl_rle.h"
#include "reference_table.h"
#include "rule_find.h"
#include "test_golgen.h"

#define PATTERNS "/usr/share/golly/Patterns/"

/* The first N_SMALL have too few cells for a batch of 512 misses. */
static const char *const cases[] = {
    "Loops/Langtons-Loops.rle",           /* von Neumann, 8 states */
    "Loops/Perrier-Loop.rle",             /* von Neumann, 64 states */
    "Loops/SDSR-Loop.rle",                /* von Neumann, 9 */
    "Loops/Evoloop.rle",                  /* von Neumann, 9 */
    "Patersons-Worms/worm-1040512.rle",   /* hexagonal, 17 */
    "Turmites/TriangularLangtonsAnt.rle", /* @TREE, 64 */
    "Turmites/LangtonsAnt_LLRR.rle",      /* @TREE, Moore */
    "Self-Rep/Codd/tape-reader-demo.rle", /* von Neumann, 8; 2251 cells */
    "Other-Rules/golly-ants.rle",         /* Moore */
};
#define N_SMALL 7

static int refuse_step(void *ctx, gg_gen_cells *cells, int64_t gens,
                       gg_err *err)
{
    (void)ctx, (void)cells, (void)gens;
    return gg_fail(err, "a leaf batch reached the stepper, not the graph");
}

static int reference_step(void *ctx, gg_gen_cells *cells, int64_t gens,
                          gg_err *err)
{
    return gg_reference_table_run(ctx, GG_TOPO_PLANE, cells, gens, NULL,
                                  err) < 0
               ? -1
               : 0;
}

/* Pattern `rel` on 4x4 leaves for `gens` generations, written as RLE to
 * `out`: leaves by the graph (and the stepper, when `reference`), or by
 * the stepper alone (graph false). */
static void run_tree(const char *rel, int64_t gens, bool graph,
                     bool reference, const char *out)
{
    char path[512], dest[512];
    snprintf(path, sizeof path, PATTERNS "%s", rel);
    snprintf(dest, sizeof dest, "%s/%s", gg_test_dir, out);
    gg_err err;
    gg_pattern p;
    gg_rule_found f;
    assert_int_equal(gg_pattern_read(path, &p, &err), 0);
    if (gg_rule_find(p.rule, path, NULL, NULL, &f, &err) != 1)
        fail_msg("%s: %s", rel, err.msg);
    gg_hl_leaf_stepper s = {
        .rule_text = f.rule, .states = f.rf.n_states, .leaf_log = 2,
        .step = reference ? reference_step : refuse_step,
        .ctx = &f.rf, .rf = graph ? &f.rf : NULL};
    gg_hl *h;
    assert_int_equal(gg_hl_new_stepped(&s, (int64_t)1 << 28, &h, &err), 0);
    assert_int_equal(gg_hl_set_pattern(h, &p, &err), 0);
    if (gg_hl_run(h, gens, NULL, NULL, &err))
        fail_msg("%s, %lld generations: %s", rel, (long long)gens, err.msg);
    assert_int_equal(gg_hl_write_rle(h, dest, &err), 0);
    gg_hl_free(h);
    gg_rule_found_free(&f);
    gg_pattern_free(&p);
}

/* bgolly's RLE of `rel` at `gens` into b.rle. */
static void bgolly(const char *rel, int64_t gens)
{
    char script[1024];
    snprintf(script, sizeof script,
             "bgolly -a RuleLoader -s /usr/share/golly/Rules/ -q -q -m %lld "
             "-o b.rle '" PATTERNS "%s' >/dev/null",
             (long long)gens, rel);
    shell_ok(rel, script);
}

/* Two RLE files the same but for comment lines (bgolly writes none with
 * a position; the tree writes #CXRLE). */
static void same_cells(const char *what, const char *a, const char *b)
{
    char script[512];
    snprintf(script, sizeof script,
             "grep -v '^#' %s >a.body && grep -v '^#' %s >b.body && "
             "cmp -s a.body b.body", a, b);
    shell_ok(what, script);
}

static bool have_bgolly(void)
{
    if (gg_test_status("command -v bgolly >/dev/null 2>&1") == 0)
        return true;
    printf("hl_cells: no bgolly, the oracle cases skip\n");
    return false;
}

static void test_graph_alone(void **state)
{
    (void)state;
    if (!have_bgolly())
        return;
    for (size_t c = 0; c < N_SMALL; c++)
        for (int64_t gens = 1; gens <= 25; gens += 12) {
            run_tree(cases[c], gens, true, false, "t.rle");
            bgolly(cases[c], gens);
            same_cells(cases[c], "t.rle", "b.rle");
        }
}

static void test_graph_and_grid(void **state)
{
    (void)state;
    if (!have_bgolly())
        return;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        run_tree(cases[c], 1000, true, true, "t.rle");
        run_tree(cases[c], 1000, false, true, "g.rle");
        bgolly(cases[c], 1000);
        same_cells(cases[c], "t.rle", "b.rle");
        same_cells(cases[c], "g.rle", "b.rle");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graph_alone),
        cmocka_unit_test(test_graph_and_grid),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
