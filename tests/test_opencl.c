/* The OpenCL backend on whatever platform the ICD loader offers (PoCL on
 * the CPU in CI): random soups of Moore, von Neumann and hex rules, torus
 * and plane, odd widths, several launches, against the reference; and a
 * broken kernel is refused by validation, one that does not compile with
 * the compiler's log. Skips with a message when no
 * OpenCL platform is found, or when GOLGEN_SKIP_OPENCL is set (the
 * sanitizer build: PoCL's compiler is not ASan-clean). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_opencl_util.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_opencl.h"
#include "kernel_source.h"
#include "reference.h"

/* Random cases: a rule, an odd or even size, torus or plane, a number of
 * generations that needs several launches. */
static void test_random_cases(void **state)
{
    (void)state;
    if (gg_test_opencl_skipped())
        skip();
    static const char *const rules[] = {"B3/S23", "B36/S23", "B3678/S34678",
                                        "B2/S013V", "B245/S3H", "B1/S1"};
    uint64_t seed = 99;
    for (int i = 0; i < 6; i++) {
        gg_rule r = gg_test_rule(rules[i]);
        gg_opencl *c = gg_test_opencl_open(&r, NULL);
        if (!c)
            skip();
        for (int k = 0; k < 3; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            int64_t w = 1 + (int64_t)(seed >> 33) % 1100;
            int64_t h = 1 + (int64_t)(seed >> 45) % 90;
            int64_t gens = 1 + (int64_t)(seed >> 20) % 40;
            gg_topo topo = (k + i) % 2 ? GG_TOPO_PLANE : GG_TOPO_TORUS;
            gg_grid got, want;
            gg_err err;
            assert_int_equal(gg_grid_init(&got, w, h, &err), 0);
            assert_int_equal(gg_grid_init(&want, w, h, &err), 0);
            gg_grid_random(&got, 0.4, seed);
            memcpy(want.bits, got.bits,
                   (size_t)(got.stride * h) * sizeof(uint64_t));
            gg_test_reference_run(&r, topo, &want, gens);
            if (gg_opencl_step(c, topo, &got, gens, &err))
                fail_msg("%s", err.msg);
            if (!gg_grid_equal(&got, &want))
                fail_msg("%s %s %lldx%lld, %lld generations: differs from "
                         "the reference", rules[i],
                         topo == GG_TOPO_TORUS ? "torus" : "plane",
                         (long long)w, (long long)h, (long long)gens);
            gg_grid_free(&got);
            gg_grid_free(&want);
        }
        gg_opencl_close(c);
    }
}

/* The backend's own validation passes for a good kernel and refuses one
 * whose network is wrong (B3/S23's kernel run as HighLife). */
static void test_validation(void **state)
{
    (void)state;
    if (gg_test_opencl_skipped())
        skip();
    gg_rule life = gg_test_rule("B3/S23"), high = gg_test_rule("B36/S23");
    gg_opencl *c;
    gg_fail_kind why;
    gg_err err;
    if (gg_opencl_open(&life, NULL, &c, &why, &err)) {
        if (why == GG_FAIL_ENV) {
            print_message("no OpenCL (%s); skipped\n", err.msg);
            skip();
        }
        fail_msg("%s", err.msg);
    }
    gg_opencl_close(c);
    char *src;
    size_t len;
    assert_int_equal(gg_kernel_opencl(&life, NULL, &src, &len, &err), 0);
    assert_int_equal(gg_opencl_open_source(&high, src, NULL, &c, &why, &err),
                     -1);
    assert_int_equal(why, GG_FAIL_INVALID);
    assert_non_null(strstr(err.msg, "validation failed"));
    free(src);
}

/* A kernel that does not compile: an environment failure whose message
 * says so and carries the start of the compiler's log (the #error's own
 * words, which only the log can hold). */
static void test_build_error_has_log(void **state)
{
    (void)state;
    if (gg_test_opencl_skipped())
        skip();
    gg_rule life = gg_test_rule("B3/S23");
    gg_opencl *c;
    gg_fail_kind why;
    gg_err err;
    if (gg_opencl_open(&life, NULL, &c, &why, &err)) {
        print_message("no OpenCL (%s); skipped\n", err.msg);
        skip();
    }
    gg_opencl_close(c);
    const char *broken = "#error gg_broken_on_purpose\n";
    assert_int_equal(
        gg_opencl_open_source(&life, broken, NULL, &c, &why, &err), -1);
    assert_null(c);
    assert_int_equal(why, GG_FAIL_ENV);
    if (strncmp(err.msg, "OpenCL could not build the kernel (error -11): ",
                47) != 0 ||
        !strstr(err.msg, "gg_broken_on_purpose"))
        fail_msg("%s", err.msg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_cases),
        cmocka_unit_test(test_validation),
        cmocka_unit_test(test_build_error_has_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
