/* Bit grids: layout, bounds, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "grid.h"

static void test_layout(void **state)
{
    (void)state;
    gg_grid g;
    gg_err err;
    assert_int_equal(gg_grid_init(&g, 130, 3, &err), 0);
    assert_int_equal(g.stride, 3);
    gg_grid_set(&g, 0, 1, 1);
    gg_grid_set(&g, 65, 1, 1);
    gg_grid_set(&g, 129, 2, 1);
    /* Cell (x, y): bit x % 64 of word x / 64 of row y, LSB leftmost. */
    assert_true(g.bits[3] == 1ull);
    assert_true(g.bits[4] == 2ull);
    assert_true(g.bits[8] == 2ull);
    assert_int_equal(gg_grid_population(&g), 3);
    int64_t x0, y0, x1, y1;
    assert_true(gg_grid_bbox(&g, &x0, &y0, &x1, &y1));
    assert_true(x0 == 0 && y0 == 1 && x1 == 129 && y1 == 2);
    assert_true(gg_grid_tail_mask(&g) == 3ull);
    gg_grid_set(&g, 65, 1, 0);
    assert_int_equal(gg_grid_get(&g, 65, 1), 0);
    gg_grid_free(&g);
}

static void test_bad_sizes(void **state)
{
    (void)state;
    gg_grid g;
    gg_err err;
    assert_int_equal(gg_grid_init(&g, 0, 5, &err), -1);
    assert_non_null(strstr(err.msg, "at least 1"));
    assert_int_equal(gg_grid_init(&g, 5, -1, &err), -1);
    assert_int_equal(gg_grid_init(&g, INT64_MAX, INT64_MAX, &err), -1);
    assert_int_equal(gg_grid_init(&g, 1ll << 40, 1ll << 30, &err), -1);
    assert_null(g.bits);
}

static void test_random_and_blit(void **state)
{
    (void)state;
    gg_grid a, b, c;
    gg_err err;
    assert_int_equal(gg_grid_init(&a, 100, 50, &err), 0);
    assert_int_equal(gg_grid_init(&b, 100, 50, &err), 0);
    gg_grid_random(&a, 0.5, 7);
    gg_grid_random(&b, 0.5, 7);
    assert_true(gg_grid_equal(&a, &b));
    for (int64_t y = 0; y < a.height; y++) /* tail bits stay zero */
        assert_true((gg_grid_row(&a, y)[1] & ~gg_grid_tail_mask(&a)) == 0);
    int64_t pop = gg_grid_population(&a);
    assert_true(pop > 2000 && pop < 3000);
    gg_grid_random(&b, 0.1, 8);
    pop = gg_grid_population(&b);
    assert_true(pop > 300 && pop < 700);
    assert_int_equal(gg_grid_init(&c, 102, 52, &err), 0);
    gg_grid_blit(&c, &a, 1, 1);
    assert_int_equal(gg_grid_population(&c), gg_grid_population(&a));
    for (int64_t y = 0; y < a.height; y++)
        for (int64_t x = 0; x < a.width; x++)
            assert_int_equal(gg_grid_get(&c, x + 1, y + 1),
                             gg_grid_get(&a, x, y));
    gg_grid_free(&a);
    gg_grid_free(&b);
    gg_grid_free(&c);
}

/* Word-level blit against the cell-by-cell definition, offsets of every
 * sign and alignment, clipping on all sides. */
static void test_blit_offsets(void **state)
{
    (void)state;
    gg_err err;
    gg_grid src, dst;
    assert_int_equal(gg_grid_init(&src, 150, 7, &err), 0);
    gg_grid_random(&src, 0.5, 3);
    const int64_t offsets[] = {-200, -129, -64, -63, -1, 0, 1, 5, 63, 64,
                               65, 100, 127, 300};
    for (size_t i = 0; i < sizeof offsets / sizeof *offsets; i++) {
        for (int64_t dy = -8; dy <= 8; dy += 4) {
            int64_t dx = offsets[i];
            assert_int_equal(gg_grid_init(&dst, 130, 9, &err), 0);
            gg_grid_blit(&dst, &src, dx, dy);
            for (int64_t y = 0; y < dst.height; y++)
                for (int64_t x = 0; x < dst.width; x++) {
                    int64_t sx = x - dx, sy = y - dy;
                    int want = sx >= 0 && sx < src.width && sy >= 0 &&
                               sy < src.height && gg_grid_get(&src, sx, sy);
                    assert_int_equal(gg_grid_get(&dst, x, y), want);
                }
            for (int64_t y = 0; y < dst.height; y++)
                assert_true((gg_grid_row(&dst, y)[dst.stride - 1] &
                             ~gg_grid_tail_mask(&dst)) == 0);
            gg_grid_free(&dst);
        }
    }
    gg_grid_free(&src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_bad_sizes),
        cmocka_unit_test(test_random_and_blit),
        cmocka_unit_test(test_blit_offsets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
