/* Larger than Life on the GPU (runtime/gpu/cuda_ltl.h): the emitted CUDA C
 * compiles under NVRTC to PTX and an sm_90 cubin where NVRTC is installed
 * (no GPU needed) for the box, the diamond, M0 and C > 2; NC is refused
 * by name before any device is opened; cuda and ptx are in the LtL
 * backend table; with no GPU both say so as the environment's failure
 * (GG_FAIL_ENV), and with one they equal the reference on grids of both
 * topologies (beside the validation every open runs), stop at the stop
 * flag and keep the stepped grid's size between calls. Without NVRTC or
 * a GPU the tests that need them skip with a message. The whole runs
 * against the cpu backend on the H100 and bgolly: bench/gpu_ltl.sh. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backend_ltl.h"
#include "cuda_ltl.h"
#include "emit_ltl_cuda.h"
#include "reference_ltl.h"
#include "test_util.h"

extern const gg_backend_info gg_backend_cuda, gg_backend_ptx;

static const char *const rules[] = {
    "R5,C0,M1,S34..58,B34..45,NM",             /* Bosco */
    "R100,C0,M1,S12000..20300,B10000..20150,NM", /* bench/ltl.sh's R100 */
    "R5,C0,M1,S31..61,B31..61,NN",              /* the diamond */
    "R7,C5,M0,S20..40,B22..31,NN",              /* decay through 2..4, M0 */
    "R3,C4,M0,S8..15,B9..12,NM",                /* C > 2 on the box, M0 */
};
#define N_RULES (sizeof rules / sizeof *rules)

static gg_ltl_rule parse(const char *text)
{
    gg_ltl_rule r;
    gg_err err;
    if (gg_ltl_parse(text, &r, &err))
        fail_msg("%s: %s", text, err.msg);
    return r;
}

/* Each rule's kernel compiles, to PTX and to a cubin, with all five
 * entry points and the rule's constants. */
static void kernels_compile(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_RULES; i++) {
        gg_ltl_rule r = parse(rules[i]);
        char *src, *img;
        size_t len, ilen;
        gg_fail_kind why;
        gg_err err;
        assert_int_equal(gg_ltl_emit_cuda(&r, &src, &len, &err), 0);
        assert_int_equal(strlen(src), len);
        char def[32];
        snprintf(def, sizeof def, "#define GG_R %d\n", r.range);
        assert_non_null(strstr(src, def));
        for (int cubin = 0; cubin < 2; cubin++) {
            if (gg_cuda_ltl_compile(src, NULL, !cubin,
                                    cubin ? "sm_90" : "compute_90", &img,
                                    &ilen, &why, &err)) {
                free(src);
                if (why == GG_FAIL_ENV && strstr(err.msg, "not found")) {
                    print_message("skipped: %s\n", err.msg);
                    skip();
                }
                fail_msg("%s (%s): %s", rules[i], cubin ? "cubin" : "PTX",
                         err.msg);
            }
            assert_true(ilen > 1000);
            if (!cubin) {
                static const char *const entries[] = {
                    ".entry gg_ltl_hsum", ".entry gg_ltl_vstep",
                    ".entry gg_ltl_diag", ".entry gg_ltl_dstep",
                    ".entry gg_ltl_abi"};
                for (int e = 0; e < 5; e++)
                    assert_non_null(strstr(img, entries[e]));
            }
            free(img);
        }
        free(src);
    }
}

/* The circle has no CUDA kernel: refused as the input's, naming it,
 * before a device is looked for (the same answer with a GPU or not). */
static void circle_refused_by_name(void **state)
{
    (void)state;
    gg_ltl_rule r = parse("R4,C0,M1,S20..30,B20..25,NC");
    char *src = NULL;
    size_t len;
    gg_err err;
    assert_int_equal(gg_ltl_emit_cuda(&r, &src, &len, &err), -1);
    assert_null(src);
    assert_non_null(strstr(err.msg, "NC (circle)"));
    gg_cuda_ltl *k;
    gg_fail_kind why;
    assert_int_equal(gg_cuda_ltl_open(&r, NULL, &k, &why, &err), -1);
    assert_null(k);
    assert_int_equal(why, GG_FAIL_INPUT);
    assert_non_null(strstr(err.msg, "NM (box) and NN (diamond)"));
}

/* cuda and ptx run LtL through the table; the names list them. */
static void in_the_table(void **state)
{
    (void)state;
    assert_non_null(gg_backend_ltl_of(&gg_backend_cuda));
    assert_non_null(gg_backend_ltl_of(&gg_backend_ptx));
    char names[256];
    gg_backend_ltl_names(names, sizeof names);
    assert_non_null(strstr(names, "cuda"));
    assert_non_null(strstr(names, "ptx"));
    assert_non_null(strstr(names, "cpu"));
}

/* cells (w x h, random states) after gens generations of the reference */
static uint8_t *reference_after(const gg_ltl_rule *r, const uint8_t *cells,
                                int64_t w, int64_t h, bool torus, int gens)
{
    size_t n = (size_t)(w * h);
    uint8_t *a = malloc(n), *b = malloc(n);
    assert_non_null(a);
    assert_non_null(b);
    memcpy(a, cells, n);
    gg_ltl_ref ref;
    gg_err err;
    assert_int_equal(gg_ltl_ref_init(&ref, r, &err), 0);
    for (int g = 0; g < gens; g++) {
        assert_int_equal(gg_ltl_ref_step(&ref, a, b, w, h, torus, NULL, &err),
                         0);
        uint8_t *t = a;
        a = b;
        b = t;
    }
    gg_ltl_ref_free(&ref);
    free(b);
    return a;
}

static uint8_t *soup(const gg_ltl_rule *r, int64_t w, int64_t h,
                     uint64_t *seed)
{
    uint8_t *c = malloc((size_t)(w * h));
    assert_non_null(c);
    for (int64_t i = 0; i < w * h; i++) {
        uint64_t x = gg_test_xorshift(seed);
        c[i] = x % 2 ? (uint8_t)((x >> 8) % (uint64_t)r->states) : 0;
    }
    return c;
}

/* With a GPU: each rule on cuda and ptx equals the reference on a torus
 * and a plane of sizes the validation does not use, with two calls on
 * the same open kernel (the buffers kept, then resized); a set stop flag
 * ends a long call at its first look. Without one: the environment's
 * failure, saying why. */
static void gpu_equals_reference_or_says_why(void **state)
{
    (void)state;
    uint64_t seed = 0x1234567887654321ull;
    int ran = 0;
    for (int ptx = 0; ptx < 2; ptx++)
        for (size_t i = 0; i < N_RULES; i++) {
            gg_ltl_rule r = parse(rules[i]);
            gg_cuda_ltl_opts o = {.ptx = ptx};
            gg_cuda_ltl *k;
            gg_fail_kind why;
            gg_err err;
            if (gg_cuda_ltl_open(&r, &o, &k, &why, &err)) {
                if (why == GG_FAIL_ENV) {
                    print_message("skipped (%s): %s\n", ptx ? "ptx" : "cuda",
                                  err.msg);
                    skip();
                }
                fail_msg("%s on %s: %s", rules[i], ptx ? "ptx" : "cuda",
                         err.msg);
            }
            static const struct {
                int w, h, torus, gens;
            } grids[] = {{1031, 517, 1, 5}, {517, 1031, 0, 4},
                         {77, 1203, 1, 3}};
            for (int g = 0; g < 3; g++) {
                int64_t w = grids[g].w, h = grids[g].h;
                uint8_t *c = soup(&r, w, h, &seed);
                uint8_t *want =
                    reference_after(&r, c, w, h, grids[g].torus,
                                    grids[g].gens);
                assert_int_equal(gg_cuda_ltl_step(k, c, w, h, grids[g].torus,
                                                  grids[g].gens, NULL, &err),
                                 grids[g].gens);
                if (memcmp(c, want, (size_t)(w * h)))
                    fail_msg("%s on %s differs from the reference on %lldx"
                             "%lld", rules[i], ptx ? "ptx" : "cuda",
                             (long long)w, (long long)h);
                free(want);
                free(c);
            }
            /* stopped at the first look: 32 whole generations, kept */
            volatile sig_atomic_t stop_now = 1;
            uint8_t *c = soup(&r, 64, 64, &seed);
            uint8_t *want = reference_after(&r, c, 64, 64, true, 32);
            assert_int_equal(gg_cuda_ltl_step(k, c, 64, 64, true, 1000,
                                              &stop_now, &err),
                             32);
            assert_memory_equal(c, want, 64 * 64);
            free(want);
            free(c);
            assert_non_null(strstr(gg_cuda_ltl_device(k), "sm_"));
            gg_cuda_ltl_close(k);
            ran++;
        }
    assert_true(ran > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_compile),
        cmocka_unit_test(circle_refused_by_name),
        cmocka_unit_test(in_the_table),
        cmocka_unit_test(gpu_equals_reference_or_says_why),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
