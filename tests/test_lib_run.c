/* libgolgen's runs (golgen_0.6): what a backend takes, RLE3 files, and a
 * 3D rule's run (golgen_run_3d) from a pattern and from its store: a run
 * of a + b generations and one of a resumed for b agree, a stop flag and
 * on_progress end a run early, and what a 3D run does not take is
 * refused with the registry's sentence. Through include/golgen.h only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "golgen.h"
#include "test_lib_files.h"

static int setup(void **state)
{
    (void)state;
    if (lib_dir_make("gg_lib_run"))
        return -1;
    /* a 4x4x4 seed that lives a while under 3D4/4 on a 16^3 torus */
    write_text(path("g.rle3"), "3D version=1 size=16 pos=6,6,6 gen=7\n"
               "x=4 y=4 z=4 rule=3D4/4\nobbo$b2o$obo$3o/2obo$bob$o2bo$bo/"
               "b3o$obbo$2o$bobo/o$2obo$b2o$obo!\n");
    write_text(path("g.rle"), "x = 3, y = 1, rule = B3/S23\n3o!\n");
    return 0;
}

static void test_file_is_rle3(void **state)
{
    (void)state;
    assert_int_equal(golgen_file_is_rle3(path("g.rle3")), 1);
    assert_int_equal(golgen_file_is_rle3(path("g.rle")), 0);
    assert_int_equal(golgen_file_is_rle3(path("none.rle3")), 0);
    assert_int_equal(golgen_file_is_rle3("-"), 0);
    assert_int_equal(golgen_file_is_rle3(NULL), 0);
}

static void test_backend_takes(void **state)
{
    char err[512];
    (void)state;
    assert_int_equal(golgen_backend_takes(NULL, "3d", "run", err,
                                          sizeof err), GOLGEN_OK);
    assert_string_equal(err, "");
    assert_int_equal(golgen_backend_takes("reference", "two-state",
                                          "store", err, sizeof err),
                     GOLGEN_OK);
    assert_int_equal(golgen_backend_takes("nope", "3d", "run", err,
                                          sizeof err), GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "or auto (the default)"));
    assert_int_equal(golgen_backend_takes(NULL, "3d", "host-mem", err,
                                          sizeof err), GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "3D rules do not take --host-mem"));
    assert_int_equal(golgen_backend_takes(NULL, "4d", "run", err,
                                          sizeof err), GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_backend_takes(NULL, "3d", "fly", err,
                                          sizeof err), GOLGEN_ERR_INPUT);
}

static golgen_run3d_opts opts(int64_t gens)
{
    return (golgen_run3d_opts){.in = path("g.rle3"), .gens = gens,
                               .rule = "3D4/4:T16",
                               .backend = "reference"};
}

static void test_run_and_resume_agree(void **state)
{
    char err[512];
    golgen_run3d_result whole, half, rest;
    (void)state;
    golgen_run3d_opts o = opts(6);
    assert_int_equal(golgen_run_3d(&o, &whole, err, sizeof err), GOLGEN_OK);
    assert_int_equal(whole.ran, 1);
    assert_int_equal(whole.reached, 6);
    assert_int_equal(whole.generation, 7 + 6);
    assert_string_equal(whole.backend, "reference");
    assert_string_equal(whole.auto_line, "");
    assert_true(whole.population > 0);

    o = opts(3);
    o.out = path("half.rle3");
    o.store = path("half.ggu");
    o.checkpoint_every = 2;
    assert_int_equal(golgen_run_3d(&o, &half, err, sizeof err), GOLGEN_OK);
    assert_int_equal(half.generation, 10);
    assert_int_equal(golgen_file_is_rle3(path("half.rle3")), 1);

    o = (golgen_run3d_opts){.resume = path("half.ggu"), .gens = 3,
                            .backend = "reference"};
    assert_int_equal(golgen_run_3d(&o, &rest, err, sizeof err), GOLGEN_OK);
    assert_int_equal(rest.generation, whole.generation);
    assert_int_equal(rest.population, whole.population);
}

static int stop_after_first(void *ctx, int64_t done, int64_t total)
{
    (void)done, (void)total;
    ++*(int *)ctx;
    return 0;
}

static void test_stopped_early(void **state)
{
    char err[512];
    golgen_run3d_result res;
    volatile sig_atomic_t stop = 1;
    int told = 0;
    (void)state;
    golgen_run3d_opts o = opts(1000);
    o.stop = &stop;
    assert_int_equal(golgen_run_3d(&o, &res, err, sizeof err), GOLGEN_OK);
    assert_int_equal(res.reached, 0);
    assert_int_equal(res.generation, 7);

    o = opts(1000);
    o.on_progress = stop_after_first;
    o.ctx = &told;
    assert_int_equal(golgen_run_3d(&o, &res, err, sizeof err), GOLGEN_OK);
    assert_int_equal(told, 1);
    assert_true(res.reached >= 1 && res.reached < 1000);
}

static void test_refusals(void **state)
{
    char err[512];
    golgen_run3d_result res;
    (void)state;
    golgen_run3d_opts o = opts(1);
    o.rule = "3D4/4:T2";
    assert_int_equal(golgen_run_3d(&o, &res, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "does not fit"));
    assert_int_equal(res.ran, 0);

    o = opts(1);
    o.backend = "nope";
    assert_int_equal(golgen_run_3d(&o, &res, err, sizeof err),
                     GOLGEN_ERR_INPUT);

    o = opts(1);
    o.resume = path("half.ggu"); /* and in: one of them */
    assert_int_equal(golgen_run_3d(&o, &res, err, sizeof err),
                     GOLGEN_ERR_INPUT);

    o = opts(1);
    o.out = "/nonexistent/dir/x.rle3";
    assert_int_equal(golgen_run_3d(&o, &res, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(res.ran, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_is_rle3),
        cmocka_unit_test(test_backend_takes),
        cmocka_unit_test(test_run_and_resume_agree),
        cmocka_unit_test(test_stopped_early),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, setup, lib_dir_remove);
}
