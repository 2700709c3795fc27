/* The backend table and its registry (runtime/backend.h): every backend
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
    assert_non_null(gg_backend_default_run());
    assert_non_null(gg_backend_default_bench());
    assert_non_null(gg_backend_accepting(GG_BACKEND_OPT_ISA));
}

static void test_exit_status(void **state)
{
    (void)state;
    assert_int_equal(gg_fail_exit_status(GG_FAIL_INPUT), 2);
    assert_int_equal(gg_fail_exit_status(GG_FAIL_ENV), 3);
    assert_int_equal(gg_fail_exit_status(GG_FAIL_INVALID), 1);
}

/* The default run backend needs nothing; a backend that cannot run says
 * why in one line. */
static void test_probe(void **state)
{
    (void)state;
    gg_config cfg;
    gg_config_defaults(&cfg);
    snprintf(cfg.cache_dir, sizeof cfg.cache_dir, "%s", gg_test_dir);
    gg_backend_opts o = {.config = &cfg};
    gg_err err;
    assert_int_equal(gg_backend_default_run()->probe(&o, &err), 0);
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
    gg_config_defaults(&cfg);
    snprintf(cfg.cache_dir, sizeof cfg.cache_dir, "%s", gg_test_dir);
    gg_backend_opts o = {.config = &cfg};
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_complete),
        cmocka_unit_test(test_exit_status),
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_backends_agree),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
