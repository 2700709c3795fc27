/* The backend table and its registry (runtime/backends/backend.h): every backend
 * is complete and reachable by name, probing says why a backend cannot
 * run here in one line, the failure kinds map to the exit statuses, and
 * the backends that run here agree with the reference through the table
 * (upload, step, download; the universe's stepper view; bench). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_util.h"

#include <string.h>

#include "backend.h"
#include "backend_auto.h"
#include "multi_band.h"

static void test_registry_complete(void **state)
{
    (void)state;
    gg_err err;
    int n = 0;
    for (int i = 0; gg_backends[i]; i++, n++) {
        const gg_backend_info *b = gg_backends[i];
        assert_non_null(b->name);
        assert_true(b->probe && b->open && b->upload && b->step &&
                    b->download && b->max_batch && b->describe && b->close);
        assert_ptr_equal(gg_backend_find(b->name, &err), b);
        for (int j = 0; j < i; j++) /* names are unique */
            assert_string_not_equal(gg_backends[j]->name, b->name);
    }
    assert_true(n >= 5);
    assert_null(gg_backend_find("warp9", &err));
    assert_non_null(strstr(err.msg, "unknown backend 'warp9'; available: "));
    /* auto's candidates are table backends, the reference (which always
     * runs) last */
    int na = 0;
    for (; gg_backends_auto[na]; na++)
        assert_ptr_equal(gg_backend_find(gg_backends_auto[na]->name, &err),
                         gg_backends_auto[na]);
    assert_true(na >= 2);
    assert_string_equal(gg_backends_auto[na - 1]->name, "reference");
    assert_non_null(gg_backend_accepting(GG_BACKEND_OPT_ISA));
}

static void test_exit_status(void **state)
{
    (void)state;
    assert_int_equal(gg_fail_exit_status(GG_FAIL_INPUT), 2);
    assert_int_equal(gg_fail_exit_status(GG_FAIL_ENV), 3);
    assert_int_equal(gg_fail_exit_status(GG_FAIL_INVALID), 1);
}

/* Backend options whose kernel cache is the test's own directory. */
static gg_backend_opts test_opts(gg_config *cfg)
{
    gg_config_defaults(cfg);
    snprintf(cfg->cache_dir, sizeof cfg->cache_dir, "%s", gg_test_dir);
    return (gg_backend_opts){.config = cfg};
}

/* The reference needs nothing; a backend that cannot run says why in one
 * line. */
static void test_probe(void **state)
{
    (void)state;
    gg_config cfg;
    gg_backend_opts o = test_opts(&cfg);
    gg_err err;
    assert_int_equal(gg_backend_find("reference", &err)->probe(&o, &err), 0);
    for (int i = 0; gg_backends[i]; i++) {
        err.msg[0] = 0;
        int bad = gg_backends[i]->probe(&o, &err);
        print_message("%-10s %s\n", gg_backends[i]->name,
                      bad ? err.msg : "usable");
        if (bad) {
            assert_true(err.msg[0] != 0);
            assert_null(strchr(err.msg, '\n'));
        }
    }
}

/* Every backend usable here runs a torus soup through the table as the
 * reference does, and its stepper view runs a universe. */
static void test_backends_agree(void **state)
{
    (void)state;
    gg_config cfg;
    gg_backend_opts o = test_opts(&cfg);
    gg_rule rule = gg_test_rule("B36/S23");
    gg_err err;
    for (int i = 0; gg_backends[i]; i++) {
        const gg_backend_info *info = gg_backends[i];
        gg_backend *b;
        gg_fail_kind why;
        if (info->probe(&o, &err) ||
            gg_backend_open(info, &rule, &o, &b, &why, &err)) {
            print_message("%s skipped: %s\n", info->name, err.msg);
            continue;
        }
        gg_grid got, want;
        assert_int_equal(gg_grid_init(&got, 130, 70, &err), 0);
        gg_grid_random(&got, 0.4, 99);
        assert_int_equal(gg_grid_copy(&want, &got, &err), 0);
        gg_test_reference_run(&rule, GG_TOPO_TORUS, &want, 17);
        assert_int_equal(gg_backend_advance(b, GG_TOPO_TORUS, &got, 17,
                                            &err), 0);
        assert_true(gg_grid_equal(&got, &want));
        gg_backend_timing t;
        assert_int_equal(gg_backend_bench(b, GG_TOPO_TORUS, &got, 19, &t,
                                          &err), 0);
        assert_true(t.seconds >= 0);
        gg_backend_desc d;
        gg_backend_describe(b, &d);
        assert_true(d.what[0] != 0 && d.threads >= 1);
        gg_stepper s = gg_backend_stepper(b);
        assert_string_equal(s.name, info->name);
        gg_backend_close(b);
        gg_grid_free(&got);
        gg_grid_free(&want);
    }
}

/* Bands kept resident between calls (runtime/universes/multi_band.h) end where the
 * whole grid does: steps that end between exchanges (the halos go stale
 * and are refreshed by the next step), several exchanges a step (T 4:
 * 133-row bands), the torus and the bounded plane, 3 bands, on every
 * backend that opens here (OpenCL's bands are views of the grid, laid out
 * interior first on the torus, with halos copied band to band; the host
 * backends' are host copies); and the stepper view agrees too. */
static void test_multi_band_resident(void **state)
{
    (void)state;
    gg_config cfg;
    gg_backend_opts o = test_opts(&cfg);
    gg_rule rule = gg_test_rule("B36/S23");
    gg_err err;
    static const int64_t steps[] = {5, 7, 1, 9};
    for (int i = 0; gg_backends[i]; i++) {
        gg_backend *b[3];
        gg_fail_kind why;
        if (gg_backends[i]->probe(&o, &err))
            continue;
        for (int k = 0; k < 3; k++)
            assert_int_equal(gg_backend_open(gg_backends[i], &rule, &o, &b[k],
                                             &why, &err), 0);
        for (int topo = 0; topo < 2; topo++) {
            gg_topo t = topo ? GG_TOPO_PLANE : GG_TOPO_TORUS;
            gg_grid got, want;
            assert_int_equal(gg_grid_init(&got, 131, 401, &err), 0);
            gg_grid_random(&got, 0.45, 7 + (uint64_t)topo);
            assert_int_equal(gg_grid_copy(&want, &got, &err), 0);
            gg_test_reference_run(&rule, t, &want, 22);
            gg_multi_band m = {.b = b, .n = 3, .t_max = 4};
            assert_int_equal(gg_multi_band_upload(&m, t, &got, &err), 0);
            for (int s = 0; s < 4; s++)
                assert_int_equal(gg_multi_band_step(&m, steps[s], &err), 0);
            assert_int_equal(gg_multi_band_download(&m, &got, &err), 0);
            if (!gg_grid_equal(&got, &want))
                fail_msg("%s, %s: resident bands differ from the whole grid",
                         gg_backends[i]->name, topo ? "plane" : "torus");
            assert_true(m.exchanges >= 5); /* 22 generations, T 4 */
            /* the view's calls reuse the bands' host copies */
            gg_stepper view = gg_multi_band_view(&m);
            gg_grid_free(&want);
            assert_int_equal(gg_grid_copy(&want, &got, &err), 0);
            gg_test_reference_run(&rule, t, &want, 19);
            assert_int_equal(view.step(view.ctx, &rule, t, &got, 13, &err),
                             0);
            assert_int_equal(view.step(view.ctx, &rule, t, &got, 6, &err), 0);
            assert_true(gg_grid_equal(&got, &want));
            gg_multi_band_release(&m);
            assert_null(m.set);
            gg_grid_free(&got);
            gg_grid_free(&want);
        }
        for (int k = 0; k < 3; k++)
            gg_backend_close(b[k]);
    }
}

/* A scripted candidate list for the policy: "down" fails for the
 * environment, "bad" as input, the rest open. */
static int fake_open(void *ctx, const char *name, gg_fail_kind *why,
                     gg_err *err)
{
    int *opened = ctx;
    (*opened)++;
    if (!strncmp(name, "down", 4)) {
        *why = GG_FAIL_ENV;
        return gg_fail(err, "no device\nat all");
    }
    if (!strcmp(name, "invalid")) {
        *why = GG_FAIL_INVALID;
        return gg_fail(err, "kernel disagreed");
    }
    if (!strcmp(name, "bad")) {
        *why = GG_FAIL_INPUT;
        return gg_fail(err, "bad rule");
    }
    return 0;
}

/* Fastest first; what is passed over is named with its reason, one
 * clause per reason, on one line; an input error ends the search. */
static void test_auto_policy(void **state)
{
    (void)state;
    gg_auto_line line;
    gg_fail_kind why;
    gg_err err;
    int opened = 0;
    const char *first[] = {"fast", "down1"};
    assert_int_equal(gg_auto_choose(first, 2, fake_open, &opened, &line,
                                    &why, &err), 0);
    assert_string_equal(line.text, "backend auto -> fast");
    assert_int_equal(opened, 1);
    const char *fall[] = {"down1", "down2", "invalid", "slow", "slower"};
    assert_int_equal(gg_auto_choose(fall, 5, fake_open, &opened, &line, &why,
                                    &err), 3);
    assert_string_equal(line.text, "backend auto -> slow (down1, down2: no "
                        "device at all; invalid: kernel disagreed)");
    const char *input[] = {"down1", "bad", "slow"};
    opened = 0;
    assert_int_equal(gg_auto_choose(input, 3, fake_open, &opened, &line, &why,
                                    &err), -1);
    assert_int_equal(why, GG_FAIL_INPUT);
    assert_string_equal(err.msg, "bad rule");
    assert_int_equal(opened, 2);
    const char *none[] = {"down1", "invalid"};
    assert_int_equal(gg_auto_choose(none, 2, fake_open, &opened, &line, &why,
                                    &err), -1);
    assert_int_equal(why, GG_FAIL_INVALID);
    assert_non_null(strstr(err.msg, "down1: no device at all; invalid: "
                           "kernel disagreed"));
    assert_true(gg_backend_is_auto(NULL) && gg_backend_is_auto("auto"));
    assert_false(gg_backend_is_auto("cpu"));
}

/* Over the table: the first candidate whose probe passes and that opens
 * is chosen (here, without a GPU, cpu or better), and every faster one is
 * named in the line. */
static void test_auto_table(void **state)
{
    (void)state;
    gg_config cfg;
    gg_backend_opts o = test_opts(&cfg);
    gg_rule rule = gg_test_rule("B3/S23");
    gg_backend *b;
    gg_auto_line line;
    gg_fail_kind why;
    gg_err err;
    assert_int_equal(gg_backend_open_auto(&rule, &o, &b, &line, &why, &err),
                     0);
    const gg_backend_info *chosen = gg_backend_of(b);
    print_message("%s\n", line.text);
    assert_null(strchr(line.text, '\n'));
    int i = 0;
    for (; gg_backends_auto[i] != chosen; i++) {
        assert_non_null(gg_backends_auto[i]);
        assert_non_null(strstr(line.text, gg_backends_auto[i]->name));
        /* a probe that fails here is the reason given */
        if (gg_backends_auto[i]->probe(&o, &err))
            assert_non_null(strstr(line.text, err.msg));
    }
    char want[64];
    snprintf(want, sizeof want, "backend auto -> %s", chosen->name);
    assert_true(!strncmp(line.text, want, strlen(want)));
    assert_int_equal(chosen->probe(&o, &err), 0);
    gg_backend_close(b);
    /* where cpu is chosen, a bad --isa is the input's fault: auto stops
     * there with cpu's message, not falling back to the reference */
    if (strcmp(chosen->name, "cpu"))
        return;
    o.isa = "warp9";
    assert_int_equal(gg_backend_open_auto(&rule, &o, &b, &line, &why, &err),
                     -1);
    assert_int_equal(why, GG_FAIL_INPUT);
    assert_non_null(strstr(err.msg, "warp9"));
    assert_null(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_complete),
        cmocka_unit_test(test_exit_status),
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_backends_agree),
        cmocka_unit_test(test_multi_band_resident),
        cmocka_unit_test(test_auto_policy),
        cmocka_unit_test(test_auto_table),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
