/* Active tiles (runtime/engines/tiles.h) against the whole grid: sparse
 * tori of still lifes, blinkers, gliders and soup patches (gliders cross
 * the wrap and wake sleeping tiles; blinkers sleep over even sub-batches),
 * calls of odd and uneven lengths, tori whose last tile is narrower than
 * the halo, a B0 rule, dense soups (the whole-grid path), the unbounded
 * plane regrown under the stepper, and a bounded plane; every result
 * equal to the reference simulator's, through the cpu backend's kernel
 * and the reference stepper alike. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_util.h"

#include <string.h>

#include "backend.h"
#include "pattern.h"
#include "rule_gen.h"
#include "tiles.h"
#include "universe.h"

/* Small tiles so that test grids hold many of them. */
#define SIDE 64
#define T 16

static gg_config cfg;

static int setup(void **state)
{
    if (gg_test_setup_dir(state))
        return -1;
    gg_config_defaults(&cfg);
    snprintf(cfg.cache_dir, sizeof cfg.cache_dir, "%s", gg_test_dir);
    return 0;
}

static int teardown(void **state) { return gg_test_teardown_dir(state); }

/* The stepper tiles wrap: the cpu backend's kernel for rule (*b, closed
 * by the caller), or the reference where the cpu backend cannot run. */
static gg_stepper open_inner(const gg_rule *rule, gg_backend **b)
{
    gg_backend_opts o = {.config = &cfg};
    gg_err err;
    gg_fail_kind why;
    const gg_backend_info *info = gg_backend_find("cpu", &err);
    if (info->probe(&o, &err) ||
        gg_backend_open(info, rule, &o, b, &why, &err)) {
        print_message("cpu backend skipped: %s\n", err.msg);
        *b = NULL;
        return gg_reference_stepper();
    }
    gg_stepper s = gg_backend_stepper(*b);
    s.hold = NULL, s.drop = NULL; /* tiles step the host's grid */
    return s;
}

static void close_inner(gg_backend *b)
{
    if (b)
        gg_backend_close(b);
}

/* Cells of `rows` (strings of '.' and 'o') at (x, y), wrapped. */
static void put(gg_grid *g, int64_t x, int64_t y, const char *const *rows,
                int n)
{
    for (int r = 0; r < n; r++)
        for (int c = 0; rows[r][c]; c++)
            if (rows[r][c] == 'o')
                gg_grid_set(g, (x + c) % g->width, (y + r) % g->height, 1);
}

/* Still lifes, blinkers, gliders and 12x12 soup patches scattered over
 * g, one in `area` cells, reproducibly from seed. */
static void sparse(gg_grid *g, uint64_t seed, int64_t area)
{
    static const char *const block[] = {"oo", "oo"};
    static const char *const blinker[] = {"ooo"};
    static const char *const glider[] = {".o.", "..o", "ooo"};
    uint64_t s = seed;
    int64_t n = g->width * g->height / area;
    for (int64_t i = 0; i < n; i++) {
        int64_t x = (int64_t)(gg_test_xorshift(&s) % (uint64_t)g->width);
        int64_t y = (int64_t)(gg_test_xorshift(&s) % (uint64_t)g->height);
        switch (gg_test_xorshift(&s) % 8) {
        case 0: case 1: case 2: put(g, x, y, block, 2); break;
        case 3: case 4: case 5: put(g, x, y, blinker, 1); break;
        case 6: put(g, x, y, glider, 3); break;
        default:
            for (int k = 0; k < 60; k++)
                gg_grid_set(g, (x + (int64_t)(gg_test_xorshift(&s) % 12)) %
                                   g->width,
                            (y + (int64_t)(gg_test_xorshift(&s) % 12)) %
                                g->height, 1);
        }
    }
}

/* gens in calls of the lengths in `calls` (repeated), tiles against the
 * reference after every call; returns the share of tile steps slept. */
static double run_against_reference(const char *rule_text, gg_topo topo,
                                    gg_grid *g, const int64_t *calls,
                                    int ncalls, int64_t gens)
{
    gg_rule rule = gg_test_rule(rule_text);
    gg_grid want;
    gg_err err;
    assert_int_equal(gg_grid_copy(&want, g, &err), 0);
    gg_backend *b;
    gg_stepper inner = open_inner(&rule, &b);
    gg_tiles tl;
    gg_stepper s = gg_tiles_stepper(&tl, &inner, SIDE, T);
    for (int64_t done = 0, i = 0; done < gens; i++) {
        int64_t n = calls[i % ncalls];
        if (n > gens - done)
            n = gens - done;
        if (s.step(s.ctx, &rule, topo, g, n, &err))
            fail_msg("%s: %s", rule_text, err.msg);
        gg_test_reference_run(&rule, topo, &want, n);
        done += n;
        int64_t x, y;
        if (gg_grid_first_diff(g, &want, &x, &y))
            fail_msg("%s %lldx%lld: tiles differ at (%lld,%lld) after "
                     "generation %lld", rule_text, (long long)g->width,
                     (long long)g->height, (long long)x, (long long)y,
                     (long long)done);
    }
    int64_t all = tl.stats.tile_steps + tl.stats.tile_slept;
    print_message("%s: %lld tile steps, %lld slept, %lld whole gens\n", rule_text, (long long)tl.stats.tile_steps, (long long)tl.stats.tile_slept, (long long)tl.stats.whole_gens);
    double slept = all ? (double)tl.stats.tile_slept / (double)all : 0;
    gg_tiles_free(&tl);
    close_inner(b);
    gg_grid_free(&want);
    return slept;
}

static void test_sparse_torus(void **state)
{
    (void)state;
    static const int64_t calls[] = {1, 16, 7, 32, 100, 16, 48, 3, 64};
    gg_grid g;
    gg_err err;
    assert_int_equal(gg_grid_init(&g, 960, 768, &err), 0);
    sparse(&g, 7, 20000);
    double slept = run_against_reference("B3/S23", GG_TOPO_TORUS, &g, calls,
                                         9, 500);
    print_message("sparse torus: %.0f%% of tile steps slept\n",
                  100 * slept);
    /* gliders and soups keep some tiles awake, but not most */
    assert_true(slept > 0.3);
    gg_grid_free(&g);
}

/* The last column and row of tiles narrower than the halo: a tile's
 * neighbourhood across the wrap reaches two tiles on. */
static void test_narrow_last_tile(void **state)
{
    (void)state;
    static const int64_t calls[] = {16, 16, 5, 32};
    gg_grid g;
    gg_err err;
    assert_int_equal(gg_grid_init(&g, 64 * 5 + 10, 64 * 4 + 3, &err), 0);
    sparse(&g, 11, 1500);
    run_against_reference("B3/S23", GG_TOPO_TORUS, &g, calls, 4, 400);
    gg_grid_free(&g);
}

/* Only period 1 and 2 objects: after the first sub-batch nearly every
 * tile sleeps, blinkers included, even across odd calls. */
static void test_oscillators_sleep(void **state)
{
    (void)state;
    static const char *const blinker[] = {"ooo"};
    static const char *const block[] = {"oo", "oo"};
    static const int64_t calls[] = {64, 64, 13, 64};
    gg_grid g;
    gg_err err;
    assert_int_equal(gg_grid_init(&g, 512, 512, &err), 0);
    for (int64_t y = 5; y < 512; y += 37)
        for (int64_t x = 9; x < 512; x += 41)
            put(&g, x, y, (x + y) % 2 ? blinker : block, (x + y) % 2 ? 1 : 2);
    double slept = run_against_reference("B3/S23", GG_TOPO_TORUS, &g, calls,
                                         4, 600);
    assert_true(slept > 0.75);
    gg_grid_free(&g);
}

/* A B0 rule wakes every tile when it cannot rely on sleep, and sleeps
 * by the same argument otherwise. */
static void test_b0_torus(void **state)
{
    (void)state;
    static const int64_t calls[] = {32, 9, 16, 64};
    gg_grid g;
    gg_err err;
    assert_int_equal(gg_grid_init(&g, 384, 320, &err), 0);
    sparse(&g, 3, 1500);
    run_against_reference("B0123478/S01234678", GG_TOPO_TORUS, &g, calls, 4,
                          300);
    gg_grid_free(&g);
}

/* A dense soup takes the whole-grid path, then tiles once it settles. */
static void test_dense_soup(void **state)
{
    (void)state;
    static const int64_t calls[] = {128, 256, 31};
    gg_grid g;
    gg_err err;
    assert_int_equal(gg_grid_init(&g, 448, 384, &err), 0);
    gg_grid_random(&g, 0.35, 5);
    run_against_reference("B3/S23", GG_TOPO_TORUS, &g, calls, 3, 1500);
    run_against_reference("B36/S23", GG_TOPO_TORUS, &g, calls, 3, 300);
    gg_grid_free(&g);
}

/* A universe on the unbounded plane regrows its grid between calls; the
 * stepper starts over on each new grid. A bounded plane passes through. */
static void test_plane_universes(void **state)
{
    (void)state;
    const char *rules[] = {"B3/S23", "B3/S23:P500,400"};
    for (int k = 0; k < 2; k++) {
        gg_rule rule = gg_test_rule(rules[k]);
        gg_pattern p = {0};
        gg_err err;
        p.n_planes = 1;
        assert_int_equal(gg_grid_init(&p.plane[0], 300, 260, &err), 0);
        sparse(&p.plane[0], 21, 1500);
        p.x = -150, p.y = -130, p.positioned = true;
        gg_universe a, b;
        assert_int_equal(gg_universe_from_pattern(&a, &rule, &p, &err), 0);
        assert_int_equal(gg_universe_from_pattern(&b, &rule, &p, &err), 0);
        gg_backend *be;
        gg_stepper inner = open_inner(&rule, &be);
        gg_tiles tl;
        gg_stepper s = gg_tiles_stepper(&tl, &inner, SIDE, T);
        gg_stepper ref = gg_reference_stepper();
        assert_int_equal(gg_universe_run(&a, &s, 900, NULL, NULL, &err), 0);
        assert_int_equal(gg_universe_run(&b, &ref, 900, NULL, NULL, &err), 0);
        gg_pattern pa, pb;
        assert_int_equal(gg_universe_to_pattern(&a, &pa, &err), 0);
        assert_int_equal(gg_universe_to_pattern(&b, &pb, &err), 0);
        assert_true(pa.x == pb.x && pa.y == pb.y);
        assert_true(gg_grid_equal(&pa.plane[0], &pb.plane[0]));
        gg_pattern_free(&pa);
        gg_pattern_free(&pb);
        gg_tiles_free(&tl);
        close_inner(be);
        gg_universe_free(&a);
        gg_universe_free(&b);
        gg_pattern_free(&p);
    }
}

/* A Generations rule (23/3/3: Life with a dying state) on a sparse
 * torus: the state planes are copied together, tiles with only dying
 * cells count as live, and the result equals the reference's, through
 * the cpu backend's Generations kernel. */
static void test_generations_torus(void **state)
{
    (void)state;
    static const int64_t calls[] = {16, 7, 48, 32};
    gg_rule rule = gg_test_rule("23/3/3:T640,448");
    gg_gen_cells got, want;
    gg_err err;
    int np = gg_gen_planes_of(&rule);
    assert_int_equal(gg_gen_cells_init(&got, np, 640, 448, &err), 0);
    assert_int_equal(gg_gen_cells_init(&want, np, 640, 448, &err), 0);
    sparse(&got.plane[0], 9, 3000);
    for (int p = 0; p < np; p++)
        memcpy(want.plane[p].bits, got.plane[p].bits,
               (size_t)(got.plane[p].stride * got.plane[p].height) * 8);
    gg_backend *b;
    gg_stepper two = open_inner(&rule, &b);
    (void)two;
    gg_gen_stepper inner = b ? gg_backend_gen_stepper(b)
                             : gg_reference_gen_stepper();
    gg_gen_stepper ref = gg_reference_gen_stepper();
    gg_tiles tl;
    gg_gen_stepper s = gg_tiles_gen_stepper(&tl, &inner, SIDE, T);
    for (int64_t done = 0, i = 0; done < 600; i++) {
        int64_t n = calls[i % 4];
        assert_int_equal(s.step(s.ctx, &rule, GG_TOPO_TORUS, &got, n, &err),
                         0);
        assert_int_equal(ref.step(ref.ctx, &rule, GG_TOPO_TORUS, &want, n,
                                  &err), 0);
        done += n;
        for (int p = 0; p < np; p++)
            if (!gg_grid_equal(&got.plane[p], &want.plane[p]))
                fail_msg("23/3/3: plane %d differs after generation %lld", p,
                         (long long)done);
    }
    print_message("23/3/3: %lld tile steps, %lld slept\n",
                  (long long)tl.stats.tile_steps,
                  (long long)tl.stats.tile_slept);
    assert_true(tl.stats.tile_slept > 0);
    gg_tiles_free(&tl);
    close_inner(b);
    gg_gen_cells_free(&got);
    gg_gen_cells_free(&want);
}

/* Trimmed to its live box (bgolly writes no position). */
static void trimmed(const char *path, gg_grid *out)
{
    gg_pattern p;
    gg_err err;
    int64_t x0, y0, x1, y1;
    if (gg_pattern_read(path, &p, &err))
        fail_msg("%s: %s", path, err.msg);
    assert_true(gg_grid_bbox(&p.plane[0], &x0, &y0, &x1, &y1));
    assert_int_equal(gg_grid_init(out, x1 - x0 + 1, y1 - y0 + 1, &err), 0);
    gg_grid_blit(out, &p.plane[0], -x0, -y0);
    gg_pattern_free(&p);
}

/* `golgen run --engine tiles` (the default 256-cell tiles) on a sparse
 * 1000^2 torus whose gliders cross the wrap, against bgolly. */
static void test_cli_against_bgolly(void **state)
{
    (void)state;
    if (gg_test_status("command -v bgolly >/dev/null 2>&1")) {
        print_message("no bgolly: skipped\n");
        return;
    }
    gg_rule rule = gg_test_rule("B3/S23:T1000,1000");
    gg_universe u;
    gg_err err;
    assert_int_equal(gg_universe_init(&u, &rule, &err), 0);
    sparse(&u.grid, 5, 6000);
    gg_pattern p = {.rule = "B3/S23:T1000,1000", .x = u.x0, .y = u.y0,
                    .n_planes = 1, .plane = {u.grid}};
    char in[300], mine[300], theirs[300], cmd[2400];
    snprintf(in, sizeof in, "%s/tiles_in.rle", gg_test_dir);
    snprintf(mine, sizeof mine, "%s/tiles_g.rle", gg_test_dir);
    snprintf(theirs, sizeof theirs, "%s/tiles_b.rle", gg_test_dir);
    assert_int_equal(gg_pattern_write_rle(in, &p, &err), 0);
    snprintf(cmd, sizeof cmd, "GOLGEN_CACHE_DIR=%s \"$GG_GOLGEN\" run "
             "--backend cpu --engine tiles --gens 3000 %s -o %s 2>%s/log && "
             "grep -q 'tiles 256' %s/log && bgolly -q -q -m 3000 -o %s %s "
             ">/dev/null", gg_test_dir, in, mine, gg_test_dir, gg_test_dir,
             theirs, in);
    assert_int_equal(gg_test_status(cmd), 0);
    gg_grid a, b;
    trimmed(mine, &a);
    trimmed(theirs, &b);
    assert_true(a.width == b.width && a.height == b.height);
    assert_true(gg_grid_equal(&a, &b));
    gg_grid_free(&a);
    gg_grid_free(&b);
    gg_universe_free(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse_torus),
        cmocka_unit_test(test_narrow_last_tile),
        cmocka_unit_test(test_oscillators_sleep),
        cmocka_unit_test(test_b0_torus),
        cmocka_unit_test(test_dense_soup),
        cmocka_unit_test(test_plane_universes),
        cmocka_unit_test(test_cli_against_bgolly),
        cmocka_unit_test(test_generations_torus),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
