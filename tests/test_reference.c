/* The reference simulator on small cases whose answers are known by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_util.h"

#include "reference.h"
#include "reference_words.h"

static void put(gg_grid *g, const int (*cells)[2], int n, int dx, int dy)
{
    for (int i = 0; i < n; i++)
        gg_grid_set(g, cells[i][0] + dx, cells[i][1] + dy, 1);
}

static const int glider[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};

/* A glider moves (+1, +1) every 4 generations; on a 70x9 torus it crosses
 * the word boundary at x = 64 and wraps both edges. */
static void test_glider_torus(void **state)
{
    (void)state;
    gg_rule life = gg_test_rule("B3/S23");
    gg_grid g, want;
    gg_err err;
    assert_int_equal(gg_grid_init(&g, 70, 9, &err), 0);
    assert_int_equal(gg_grid_init(&want, 70, 9, &err), 0);
    put(&g, glider, 5, 60, 2);
    for (int k = 1; k <= 20; k++) {
        gg_test_reference_run(&life, GG_TOPO_TORUS, &g, 4);
        gg_grid_random(&want, 0.0, 0); /* clear */
        for (int c = 0; c < 5; c++)
            gg_grid_set(&want, (glider[c][0] + 60 + k) % 70,
                        (glider[c][1] + 2 + k) % 9, 1);
        assert_true(gg_grid_equal(&g, &want));
    }
    gg_grid_free(&g);
    gg_grid_free(&want);
}

/* On a bounded plane the glider hits the edge and becomes a block. */
static void test_glider_plane_edge(void **state)
{
    (void)state;
    gg_rule life = gg_test_rule("B3/S23");
    gg_grid g;
    gg_err err;
    assert_int_equal(gg_grid_init(&g, 8, 8, &err), 0);
    put(&g, glider, 5, 0, 0);
    gg_test_reference_run(&life, GG_TOPO_PLANE, &g, 40);
    assert_int_equal(gg_grid_population(&g), 4);
    assert_true(gg_grid_get(&g, 6, 6) && gg_grid_get(&g, 7, 7) &&
                gg_grid_get(&g, 6, 7) && gg_grid_get(&g, 7, 6));
    gg_grid_free(&g);
}

static void test_blinker_and_block(void **state)
{
    (void)state;
    gg_rule life = gg_test_rule("B3/S23");
    gg_grid g, start;
    gg_err err;
    static const int blinker[3][2] = {{1, 0}, {1, 1}, {1, 2}};
    static const int block[4][2] = {{5, 5}, {6, 5}, {5, 6}, {6, 6}};
    assert_int_equal(gg_grid_init(&g, 9, 9, &err), 0);
    put(&g, blinker, 3, 0, 0);
    put(&g, block, 4, 0, 0);
    assert_int_equal(gg_grid_copy(&start, &g, &err), 0);
    gg_test_reference_run(&life, GG_TOPO_PLANE, &g, 1);
    assert_false(gg_grid_equal(&g, &start));
    assert_true(gg_grid_get(&g, 0, 1) && gg_grid_get(&g, 2, 1));
    gg_test_reference_run(&life, GG_TOPO_PLANE, &g, 1);
    assert_true(gg_grid_equal(&g, &start));
    gg_grid_free(&g);
    gg_grid_free(&start);
}

/* B0 is simulated literally on bounded grids: an empty torus turns full
 * under B0/S (no survival) and back to empty. */
static void test_b0_literal(void **state)
{
    (void)state;
    gg_rule r = gg_test_rule("B0/S");
    gg_grid g;
    gg_err err;
    assert_int_equal(gg_grid_init(&g, 67, 3, &err), 0);
    gg_test_reference_run(&r, GG_TOPO_TORUS, &g, 1);
    assert_int_equal(gg_grid_population(&g), 67 * 3);
    gg_test_reference_run(&r, GG_TOPO_TORUS, &g, 1);
    assert_int_equal(gg_grid_population(&g), 0);
    gg_grid_free(&g);
}

/* Width-1 torus: a cell's west and east neighbours are itself. Under B/S2
 * (survive with 2) a lone live cell sees exactly itself twice. */
static void test_width_one_torus(void **state)
{
    (void)state;
    gg_rule r = gg_test_rule("B/S2");
    gg_grid g;
    gg_err err;
    assert_int_equal(gg_grid_init(&g, 1, 5, &err), 0);
    gg_grid_set(&g, 0, 2, 1);
    gg_test_reference_run(&r, GG_TOPO_TORUS, &g, 3);
    assert_int_equal(gg_grid_population(&g), 1);
    assert_int_equal(gg_grid_get(&g, 0, 2), 1);
    gg_grid_free(&g);
}

/* B1357/S1357 is linear: after 2^k generations a pattern is the XOR of
 * copies shifted by 2^k in each of the 8 directions (DESIGN.md). */
/* The word-parallel reference (what GPU validation runs) equals the
 * per-cell one generation by generation: every neighbourhood, torus and
 * plane, widths on both sides of word edges, heights down to 1, random
 * birth and survival sets (B0 included), dense and sparse soups. */
static void test_words_match_cells(void **state)
{
    (void)state;
    static const int64_t widths[] = {1, 2, 3, 63, 64, 65, 127, 128, 130, 200};
    static const int64_t heights[] = {1, 2, 3, 7, 20};
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    int checked = 0;
    for (int nb = 0; nb < GG_NBHD_COUNT; nb++)
        for (int topo = 0; topo < 2; topo++)
            for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
                for (size_t hi = 0; hi < sizeof heights / sizeof *heights;
                     hi++) {
                    gg_rule rule;
                    gg_err err;
                    assert_int_equal(gg_rule_parse("B3/S23", &rule, &err), 0);
                    int n;
                    gg_nbhd_offsets((gg_nbhd)nb, &n);
                    rule.nbhd = (gg_nbhd)nb;
                    rule.n_neighbours = n;
                    uint64_t r = gg_test_xorshift(&rng);
                    rule.birth = (uint32_t)(r & ((2u << n) - 1));
                    rule.survive = (uint32_t)((r >> 16) & ((2u << n) - 1));
                    assert_true(gg_reference_words_takes(&rule));
                    gg_topo t = topo ? GG_TOPO_PLANE : GG_TOPO_TORUS;
                    gg_grid a, b, want, next;
                    int64_t w = widths[wi], h = heights[hi];
                    assert_int_equal(gg_grid_init(&a, w, h, &err), 0);
                    assert_int_equal(gg_grid_init(&b, w, h, &err), 0);
                    assert_int_equal(gg_grid_init(&next, w, h, &err), 0);
                    assert_int_equal(gg_grid_init(&want, w, h, &err), 0);
                    gg_grid_random(&a, (r >> 40) & 1 ? 0.5 : 0.1, r);
                    for (int g = 0; g < 4; g++) {
                        gg_reference_step(&rule, t, &a, &want);
                        gg_reference_words_step(&rule, t, &a, &next);
                        assert_true(gg_grid_equal(&next, &want));
                        gg_grid tmp = a;
                        a = want;
                        want = tmp;
                        checked++;
                    }
                    gg_grid_free(&a);
                    gg_grid_free(&b);
                    gg_grid_free(&next);
                    gg_grid_free(&want);
                }
    assert_int_equal(checked, GG_NBHD_COUNT * 2 * 10 * 5 * 4);
    /* Hensel rules stay with the per-cell reference */
    gg_rule hensel;
    gg_err err;
    assert_int_equal(gg_rule_parse("B2n3/S23-q", &hensel, &err), 0);
    assert_false(gg_reference_words_takes(&hensel));
}

static void test_replicator_linearity(void **state)
{
    (void)state;
    gg_rule r = gg_test_rule("B1357/S1357:T128,128");
    gg_grid g, want;
    gg_err err;
    assert_int_equal(gg_grid_init(&g, 128, 128, &err), 0);
    assert_int_equal(gg_grid_init(&want, 128, 128, &err), 0);
    static const int seed[4][2] = {{0, 0}, {1, 0}, {2, 1}, {0, 2}};
    put(&g, seed, 4, 60, 60);
    gg_test_reference_run(&r, GG_TOPO_TORUS, &g, 16);
    int n;
    const gg_offset *off = gg_nbhd_offsets(GG_NBHD_MOORE, &n);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 4; c++) {
            int64_t x = 60 + seed[c][0] + 16 * off[i].dx;
            int64_t y = 60 + seed[c][1] + 16 * off[i].dy;
            gg_grid_set(&want, x, y, !gg_grid_get(&want, x, y));
        }
    assert_true(gg_grid_equal(&g, &want));
    gg_grid_free(&g);
    gg_grid_free(&want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glider_torus),
        cmocka_unit_test(test_glider_plane_edge),
        cmocka_unit_test(test_blinker_and_block),
        cmocka_unit_test(test_b0_literal),
        cmocka_unit_test(test_width_one_torus),
        cmocka_unit_test(test_replicator_linearity),
        cmocka_unit_test(test_words_match_cells),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
