/* A universe on the devices alone (runtime/universes/resident.h, issue
 * 37): bands that start empty, take a pattern's rows, step, and give back
 * only their live rows end where the whole grid stepped by the reference
 * does; the seed is placed where gg_universe_from_pattern places the
 * pattern; and `golgen run` takes that way with --devices (cpu and the
 * reference here: host bands; every backend that opens with the resident
 * ops too, OpenCL not), writing the RLE the host grid's run writes, also
 * after a stop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_golgen.h"
#include "test_util.h"

#include <string.h>

#include "backend.h"
#include "resident.h"

static gg_backend_opts test_opts(gg_config *cfg)
{
    gg_config_defaults(cfg);
    snprintf(cfg->cache_dir, sizeof cfg->cache_dir, "%s", gg_test_dir);
    return (gg_backend_opts){.config = cfg};
}

/* 3 bands start empty, take a random block of rows (crossing a band's
 * edge), step 40 generations in calls that end between exchanges, and
 * say which rows live and what they hold: the reference's whole grid
 * (torus and bounded plane) is the oracle. */
static void test_bands_start_empty(void **state)
{
    (void)state;
    gg_config cfg;
    gg_backend_opts o = test_opts(&cfg);
    gg_rule rule = gg_test_rule("B36/S23");
    gg_err err;
    static const char *const names[] = {"cpu", "reference"};
    for (int i = 0; i < 2; i++) {
        const gg_backend_info *info = gg_backend_find(names[i], &err);
        assert_non_null(info);
        gg_backend *b[3];
        gg_fail_kind why;
        for (int k = 0; k < 3; k++)
            assert_int_equal(gg_backend_open(info, &rule, &o, &b[k], &why,
                                             &err), 0);
        for (int topo = 0; topo < 2; topo++) {
            gg_topo t = topo ? GG_TOPO_PLANE : GG_TOPO_TORUS;
            int64_t w = 141, h = 300, y = 80, n = 40; /* bands of 100 */
            gg_grid seed, whole, got;
            assert_int_equal(gg_grid_init(&seed, w, n, &err), 0);
            gg_grid_random(&seed, 0.4, 11 + (uint64_t)topo);
            assert_int_equal(gg_grid_init(&whole, w, h, &err), 0);
            gg_grid_blit(&whole, &seed, 0, y);
            gg_test_reference_run(&rule, t, &whole, 40);
            gg_multi_band m = {.b = b, .n = 3, .t_max = 4};
            assert_true(gg_multi_band_can_start_empty(&m, h));
            assert_int_equal(gg_multi_band_start_empty(&m, t, w, h, &err),
                             0);
            assert_int_equal(gg_multi_band_put_rows(&m, &seed, y, &err), 0);
            assert_int_equal(gg_multi_band_step(&m, 13, &err), 0);
            assert_int_equal(gg_multi_band_step(&m, 27, &err), 0);
            uint8_t live[300];
            assert_int_equal(gg_multi_band_live_rows(&m, 0, h, live, &err),
                             0);
            for (int64_t r = 0; r < h; r++) {
                int64_t x0, y0, x1, y1;
                gg_grid row = {.width = w, .height = 1,
                               .stride = whole.stride,
                               .bits = gg_grid_row(&whole, r)};
                if (live[r] != gg_grid_bbox(&row, &x0, &y0, &x1, &y1))
                    fail_msg("%s, %s: row %lld live %d", names[i],
                             topo ? "plane" : "torus", (long long)r,
                             live[r]);
            }
            assert_int_equal(gg_grid_init(&got, w, h, &err), 0);
            assert_int_equal(gg_multi_band_get_rows(&m, &got, 0, &err), 0);
            if (!gg_grid_equal(&got, &whole))
                fail_msg("%s, %s: bands started empty differ from the whole "
                         "grid", names[i], topo ? "plane" : "torus");
            gg_multi_band_release(&m);
            gg_grid_free(&seed);
            gg_grid_free(&whole);
            gg_grid_free(&got);
        }
        for (int k = 0; k < 3; k++)
            gg_backend_close(b[k]);
    }
}

/* The seed is the pattern where gg_universe_from_pattern puts it (by
 * default and at a #CXRLE Pos), and the host universe made from it equals
 * that one; a pattern too tall for the grid's eighth, or outside it, or
 * an unbounded rule, does not suit. */
static void test_seed_placed(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "x = 3, y = 3, rule = B3/S23\nb2o$2o$bo!\n",
        "#CXRLE Pos=-60,47\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n",
        "x = 0, y = 0, rule = B3/S23\n!\n"};
    static const char *const rules[] = {"B3/S23:T128,100", "B3/S23:P127,99"};
    gg_err err;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++) {
            gg_pattern p;
            assert_int_equal(gg_pattern_parse(texts[i], strlen(texts[i]),
                                              "test", &p, &err), 0);
            gg_rule rule = gg_test_rule(rules[k]);
            gg_universe want, got;
            gg_resident r;
            assert_true(gg_resident_suits(&rule, &p));
            assert_int_equal(gg_universe_from_pattern(&want, &rule, &p,
                                                      &err), 0);
            assert_int_equal(gg_resident_from_pattern(&r, &rule, &p, &err),
                             0);
            assert_int_equal(gg_resident_to_universe(&r, &got, &err), 0);
            assert_true(gg_grid_equal(&got.grid, &want.grid));
            assert_true(got.x0 == want.x0 && got.y0 == want.y0);
            gg_universe_free(&want);
            gg_universe_free(&got);
            gg_pattern_free(&p);
        }
    gg_pattern p;
    assert_int_equal(gg_pattern_parse(texts[0], strlen(texts[0]), "test", &p,
                                      &err), 0);
    gg_rule small = gg_test_rule("B3/S23:T20,20"),
            plane = gg_test_rule("B3/S23");
    assert_false(gg_resident_suits(&small, &p)); /* 3 rows of 20 */
    assert_false(gg_resident_suits(&plane, &p));
    gg_pattern_free(&p);
}

/* `golgen run --devices` on host bands takes the resident way and writes
 * what the reference's host grid writes: the R-pentomino and a glider
 * that wraps, on an odd torus and a bounded plane; a stop (SIGTERM) keeps
 * the generation reached, as the host grid run to it. */
static void test_run_resident(void **state)
{
    (void)state;
    write_file("glider.rle", "#CXRLE Pos=-120,95\nx = 3, y = 3, rule = "
                             "B3/S23\nbo$2bo$3o!\n");
    static const char *const rules[] = {"B3/S23:T256,203", "B3/S23:P255,200"};
    static const char *const ins[] = {"", "glider.rle"};
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++) {
            char cmd[1024];
            snprintf(cmd, sizeof cmd, "$G run --backend reference --rule %s "
                     "--gens 1200 -o m.rle %s 2>/dev/null && $G run "
                     "--backend cpu --rule %s --gens 1200 --devices 0,0,0 "
                     "-o b.rle %s 2>b.log && cmp -s m.rle b.rle && grep -q "
                     "'on the devices alone' b.log", rules[i], ins[k],
                     rules[i], ins[k]);
            shell_ok("a resident run against the host grid", cmd);
        }
    /* what needs the host grid keeps it (a picture here) */
    shell_ok("--png keeps the host grid",
             "$G run --backend cpu --rule B3/S23:T256,203 --gens 50 "
             "--devices 0,0 --png p.png -o p.rle 2>p.log && "
             "! grep -q 'alone' p.log");
    shell_ok("a stop keeps the generation reached",
             "timeout -s TERM 3 $G run --backend cpu --rule "
             "B3/S23:T300,300 --gens 1000000000 --devices 0,0 -o s.rle "
             "2>s.log; gen=$(sed -n 's/.*generation \\([0-9]*\\),.*/\\1/p' "
             "s.log) && [ -n \"$gen\" ] && $G run --backend cpu --rule "
             "B3/S23:T300,300 --gens $gen -o c.rle 2>/dev/null && "
             "cmp -s s.rle c.rle");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bands_start_empty),
        cmocka_unit_test(test_seed_placed),
        cmocka_unit_test(test_run_resident),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
