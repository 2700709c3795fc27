/* Known results on Golly's unbounded plane, through the universe (growing
 * grid) and the reference simulator. The facts are from the literature
 * (DESIGN.md, LifeWiki), not from golgen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "universe.h"

static void load(gg_universe *u, const char *rle)
{
    gg_pattern p;
    gg_err err;
    gg_rule rule;
    if (gg_pattern_parse(rle, strlen(rle), "test", &p, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(gg_rule_parse(p.rule ? p.rule : "B3/S23", &rule, &err),
                     0);
    if (gg_universe_from_pattern(u, &rule, &p, &err))
        fail_msg("%s", err.msg);
    gg_pattern_free(&p);
}

static int64_t population_at(gg_universe *u, int64_t gen)
{
    gg_stepper s = gg_reference_stepper();
    gg_err err;
    assert_true(gen >= u->generation);
    if (gg_universe_run(u, &s, gen - u->generation, NULL, NULL, &err))
        fail_msg("%s", err.msg);
    return gg_universe_population(u);
}

static void test_r_pentomino(void **state)
{
    (void)state;
    gg_universe u;
    load(&u, "x = 3, y = 3, rule = B3/S23\nb2o$2o$bo!\n");
    assert_int_equal(population_at(&u, 1103), 116);
    /* Stable from then on (only gliders left moving, same count). */
    assert_int_equal(population_at(&u, 1200), 116);
    gg_universe_free(&u);
}

static void test_acorn(void **state)
{
    (void)state;
    gg_universe u;
    load(&u, "x = 7, y = 3, rule = B3/S23\nbo5b$3bo3b$2o2b3o!\n");
    assert_int_equal(population_at(&u, 5206), 633);
    gg_universe_free(&u);
}

static void test_diehard(void **state)
{
    (void)state;
    gg_universe u;
    load(&u, "x = 8, y = 3, rule = B3/S23\n6bob$2o6b$bo3b3o!\n");
    assert_true(population_at(&u, 129) > 0);
    assert_int_equal(population_at(&u, 130), 0);
    gg_universe_free(&u);
}

/* Gosper's gun emits a 5-cell glider every 30 generations. */
static void test_gosper_gun(void **state)
{
    (void)state;
    gg_universe u;
    load(&u, "x = 36, y = 9, rule = B3/S23\n"
             "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$"
             "2o8bo3bob2o4bobo$10bo5bo7bo$11bo3bo$12b2o!\n");
    int64_t base = population_at(&u, 120);
    for (int k = 1; k <= 10; k++)
        assert_int_equal(population_at(&u, 120 + 30 * k), base + 5 * k);
    gg_universe_free(&u);
}

/* A glider on the unbounded plane keeps going: after 4n generations it has
 * moved (n, n) and the grid has grown to follow it. */
static void test_glider_travels(void **state)
{
    (void)state;
    gg_universe u;
    gg_pattern p;
    gg_err err;
    load(&u, "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
    int64_t x0 = u.x0, y0 = u.y0;
    assert_int_equal(population_at(&u, 400), 5);
    assert_int_equal(gg_universe_to_pattern(&u, &p, &err), 0);
    int64_t bx0, by0, bx1, by1;
    assert_true(gg_grid_bbox(&u.grid, &bx0, &by0, &bx1, &by1));
    assert_int_equal(p.x, x0 + 100);
    assert_int_equal(p.y, y0 + 100);
    assert_int_equal(p.plane[0].width, 3);
    gg_pattern_free(&p);
    gg_universe_free(&u);
}

static void test_b0_unbounded_refused(void **state)
{
    (void)state;
    gg_pattern p;
    gg_err err;
    gg_rule rule;
    gg_universe u;
    const char *rle = "x = 1, y = 1\no!\n";
    assert_int_equal(gg_pattern_parse(rle, strlen(rle), "t", &p, &err), 0);
    assert_int_equal(gg_rule_parse("B03/S23", &rule, &err), 0);
    assert_int_equal(gg_universe_from_pattern(&u, &rule, &p, &err), -1);
    assert_non_null(strstr(err.msg, "B0"));
    gg_pattern_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_r_pentomino),
        cmocka_unit_test(test_acorn),
        cmocka_unit_test(test_diehard),
        cmocka_unit_test(test_gosper_gun),
        cmocka_unit_test(test_glider_travels),
        cmocka_unit_test(test_b0_unbounded_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
