/* Auto's leaf size for rule tables (runtime/engines/engine_choice.h): the
 * share of a pattern's 4 x 4 squares unlike every other and of its 8 x 8
 * squares over generations (its motion), counted here against what the
 * patterns and steppers are built to do, and the leaf it picks, for
 * Golly's own patterns too (where Golly is installed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine_choice.h"
#include "hashlife.h"
#include "reference_table.h"
#include "rule_find.h"

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

/* Steppers whose motion is known: none, and every cell `gens` to the
 * right (a gas's particles, all one way). */
static int still(void *ctx, gg_gen_cells *c, int64_t gens, gg_err *err)
{
    return (void)ctx, (void)c, (void)gens, (void)err, 0;
}

static int drift(void *ctx, gg_gen_cells *c, int64_t gens, gg_err *err)
{
    (void)ctx;
    for (int i = 0; i < c->n_planes; i++) {
        gg_grid moved;
        if (gg_grid_init(&moved, c->plane[i].width, c->plane[i].height, err))
            return -1;
        gg_grid_blit(&moved, &c->plane[i], gens, 0);
        gg_grid_free(&c->plane[i]);
        c->plane[i] = moved;
    }
    return 0;
}

static void test_motion_counts_new_squares(void **state)
{
    (void)state;
    gg_pattern p;
    /* 512^2: 8 of its 16 windows, 16 x 16 squares each, at 5 generations:
     * 10240 squares seen */
    fill(&p, 512, 2, tiled);
    /* still, a tiling's squares are one; moving (period 4 both ways,
     * moved 2, 4, 6, 8: two kinds) a few more, where the dead cells left
     * of the box drift into the windows at its left edge */
    assert_true(gg_engine_table_motion(&p, 4, 8, still, NULL) ==
                1.0 / 10240);
    assert_true(gg_engine_table_motion(&p, 4, 8, drift, NULL) <
                10.0 / 10240);
    gg_pattern_free(&p);
    /* noise: every square new, still only at generation 0 (1 in 5);
     * moved 2, 4 and 6 new, moved 8 (a square's side) every square seen
     * at 0 again (4 in 5) */
    fill(&p, 512, 2, noise);
    double s = gg_engine_table_motion(&p, 4, 8, still, NULL);
    double d = gg_engine_table_motion(&p, 4, 8, drift, NULL);
    assert_true(s > 0.199 && s <= 0.2);
    assert_true(d > 0.799 && d < 0.82);
    gg_pattern_free(&p);
    /* nothing alive: not known */
    fill(&p, 256, 1, empty);
    assert_true(gg_engine_table_motion(&p, 2, 8, still, NULL) == -1);
    gg_pattern_free(&p);
}

static int leaf(int64_t side, int64_t pop, double variety, double motion,
                int states, int64_t gens)
{
    gg_engine_table_facts f = {.width = side, .height = side,
                               .population = pop, .variety = variety,
                               .motion = motion, .states = states,
                               .gens = gens};
    return gg_engine_table_leaf_log(&f);
}

static void test_leaf_by_facts(void **state)
{
    (void)state;
    int64_t side = 256, busy = 1 << 15;
    /* a gas: 16 x 16, 32 x 32 for a rule of 4 states */
    assert_int_equal(leaf(side, busy, 0.9, 0.99, 34, 1000), 4);
    assert_int_equal(leaf(side, busy, 0.9, 0.99, 4, 1000), 5);
    /* a busy box whose squares repeat: 4 x 4 however it moves */
    assert_int_equal(leaf(side, busy, 0.01, 0.5, 9, 1000), 2);
    assert_int_equal(leaf(side, busy, 0.01, 0.99, 9, 1000), 2);
    /* a soup, or cells that move much: 8 x 8 */
    assert_int_equal(leaf(side, busy, 1.0, 0.5, 8, 1000), 3);
    assert_int_equal(leaf(side, busy, 0.5, 0.85, 9, 1000), 3);
    /* wires: 8 x 8 for a big machine's short run, else 4 x 4 */
    assert_int_equal(leaf(4096, 1 << 20, 0.02, 0.14, 29, 1000), 3);
    assert_int_equal(leaf(4096, 1 << 20, 0.02, 0.14, 29, 10000), 2);
    assert_int_equal(leaf(side, 6000, 0.2, 0.57, 32, 1000), 2);
    /* a small box, or a macrocell file (0 x 0): 4 x 4 */
    assert_int_equal(leaf(30, 900, 1.0, 1.0, 34, 1000), 2);
    assert_int_equal(leaf(0, -1, -1, -1, 29, 1000), 2);
}

static int reference_step(void *ctx, gg_gen_cells *c, int64_t gens,
                          gg_err *err)
{
    return gg_reference_table_run(ctx, GG_TOPO_PLANE, c, gens, NULL, err) <
                   0
               ? -1
               : 0;
}

/* Golly's pattern folder/name: the leaf auto takes for a run of gens,
 * its cells stepped by the reference; -1 when Golly is not installed. */
#define GOLLY "/usr/share/golly"
static int golly_leaf(const char *name, int64_t gens)
{
    char path[256];
    snprintf(path, sizeof path, GOLLY "/Patterns/%s", name);
    if (access(path, R_OK))
        return -1;
    gg_pattern p;
    gg_rule_found f;
    gg_err err;
    assert_int_equal(gg_pattern_read(path, &p, &err), 0);
    assert_int_equal(gg_rule_find(p.rule, path, GOLLY "/Rules", NULL, &f, &err),
                     1);
    int got = gg_engine_table_leaf_for(&p, f.rf.n_states, gens,
                                       reference_step, &f.rf);
    gg_rule_found_free(&f);
    gg_pattern_free(&p);
    return got;
}

/* The choices BENCHMARKS.md measured (CPU ms to 1000 generations, 4x4 /
 * 8x8 / 16x16 / 32x32 leaves, session 31), each its pattern's fastest or
 * within 10% of it. */
static void test_golly_patterns(void **state)
{
    (void)state;
    struct {
        const char *name;
        int64_t gens;
        int leaf;
    } cases[] = {
        {"Other-Rules/HPP-demo.rle", 1000, 4},     /* 954/238/147/170 */
        {"Margolus/DLA.rle", 1000, 4},             /* 993/267/195/214 */
        {"Self-Rep/JvN/Hutton-replicator.rle", 1000, 2}, /* 44/93/180 */
        {"Margolus/Sand.rle", 1000, 2},            /* 4.9/8.5/11.8 */
        {"Self-Rep/JvN/codon5-auto-retract.rle", 1000, 3}, /* 31/28/44 */
        {"Self-Rep/JvN/codon5-auto-retract.rle", 10000, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int got = golly_leaf(cases[i].name, cases[i].gens);
        if (got < 0) {
            skip();
            return;
        }
        assert_int_equal(got, cases[i].leaf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variety_counts_kinds),
        cmocka_unit_test(test_big_box_sampled),
        cmocka_unit_test(test_motion_counts_new_squares),
        cmocka_unit_test(test_leaf_by_facts),
        cmocka_unit_test(test_golly_patterns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
