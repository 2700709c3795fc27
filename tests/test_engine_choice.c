/* Auto's leaf size for rule tables (runtime/engines/engine_choice.h): the
 * share of a pattern's 4 x 4 squares unlike every other, counted here
 * against what the patterns are built to hold, and the leaf it picks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "engine_choice.h"
#include "hashlife.h"

/* A size x size box: states from f(x, y), n_planes planes. */
static void fill(gg_pattern *p, int size, int n_planes,
                 int (*f)(int x, int y))
{
    gg_err err;
    assert_int_equal(gg_pattern_init(p, size, size, n_planes, &err), 0);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++)
            assert_int_equal(gg_pattern_set(p, x, y, f(x, y), &err), 0);
}

static int empty(int x, int y) { return (void)x, (void)y, 0; }
/* period 4 both ways, three states: every square the same */
static int tiled(int x, int y) { return (x % 4 + y % 4) % 3; }
/* two kinds of square: a band of state 2 every 8 rows */
static int banded(int x, int y) { return (void)x, (y / 4) % 2 ? 2 : 1; }
static int noise(int x, int y)
{
    uint32_t h = (uint32_t)x * 73856093u ^ (uint32_t)y * 19349663u;
    h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
    return (int)(h % 4);
}

static void test_variety_counts_kinds(void **state)
{
    (void)state;
    gg_pattern p;
    /* 64 x 64: 256 squares */
    fill(&p, 64, 1, empty);
    assert_true(gg_engine_square_variety(&p) == 1.0 / 256);
    gg_pattern_free(&p);
    fill(&p, 64, 2, tiled);
    assert_true(gg_engine_square_variety(&p) == 1.0 / 256);
    gg_pattern_free(&p);
    fill(&p, 64, 2, banded);
    assert_true(gg_engine_square_variety(&p) == 2.0 / 256);
    gg_pattern_free(&p);
    /* 16 random 2-bit cells a square: all 256 unlike in practice */
    fill(&p, 64, 2, noise);
    assert_true(gg_engine_square_variety(&p) > 0.95);
    gg_pattern_free(&p);
}

static void test_big_box_sampled(void **state)
{
    (void)state;
    gg_pattern p;
    /* 2048^2: 262144 squares, 2^16 of them looked at */
    fill(&p, 2048, 2, tiled);
    assert_true(gg_engine_square_variety(&p) == 1.0 / (1 << 16));
    gg_pattern_free(&p);
    fill(&p, 2048, 2, noise);
    assert_true(gg_engine_square_variety(&p) > 0.95);
    gg_pattern_free(&p);
}

static void test_ordered_busy_box_keeps_small_leaves(void **state)
{
    (void)state;
    /* a busy 256^2 box (2^15 live): 32 x 32 leaves for a soup, 4 x 4
     * for one whose squares repeat, as without a count of them */
    int64_t side = 256, pop = 1 << 15;
    assert_int_equal(gg_engine_table_leaf_log(side, side, pop, 0.9),
                     HL_LEAF_LOG_DEFAULT);
    assert_int_equal(gg_engine_table_leaf_log(side, side, pop, -1),
                     HL_LEAF_LOG_DEFAULT);
    assert_int_equal(gg_engine_table_leaf_log(side, side, pop, 0.01),
                     HL_LEAF_LOG_MIN);
    /* a sparse box is 4 x 4 whatever its squares */
    assert_int_equal(gg_engine_table_leaf_log(side, side, 500, 0.9),
                     HL_LEAF_LOG_MIN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variety_counts_kinds),
        cmocka_unit_test(test_big_box_sampled),
        cmocka_unit_test(test_ordered_busy_box_keeps_small_leaves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
