/* Golly's rule tables and trees on the GPU targets (issue 39 part 2): the
 * OpenCL table kernel (runtime/gpu/opencl_table.h; PoCL here) passes the
 * same validation as the cpu kernel for Golly's rules and equals the
 * reference on larger boards; broken kernels are refused (the per-cell
 * check, the west/east inputs, the torus wrap) and one that does not
 * compile with the compiler's log; the CUDA C kernel compiles under NVRTC
 * to PTX and a cubin where NVRTC is installed (no GPU needed); cuda and
 * ptx say there is no GPU where there is none. The bundled
 * patterns against bgolly on opencl are in test_table_kernel.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "cuda_table.h"
#include "opencl_table.h"
#include "reference_table.h"
#include "rule_find.h"
#include "rule_gen.h"
#include "rulefile.h"
#include "rulefile_emit.h"
#include "table_kernel.h"
#include "test_util.h"
#include "test_opencl_util.h"

#define RULES GG_GOLLY_RULES_DIR

static uint64_t rng = 0x2545f4914f6cdd1dull;

static int load_rule(const char *name, gg_rulefile *rf)
{
    gg_err berr;
    /* Golly's JvN rules, built in (Hutton32's graph reads the centre
     * first, the others' inputs in tree order) */
    if (gg_rulefile_builtin(name, strlen(name), rf, &berr) == 1)
        return 0;
    char path[512];
    snprintf(path, sizeof path, RULES "/%s.rule", name);
    size_t len;
    char *text = gg_test_read_file(path, &len);
    if (!text)
        return -1;
    gg_err err;
    int bad = gg_rulefile_parse(text, len, path, rf, &err);
    free(text);
    if (bad)
        fail_msg("%s", err.msg);
    return 0;
}

/* A w x h board, mostly state 0, stepped by the reference and by step
 * (a table universe's stepper) for gens generations. */
static void equals_reference(const gg_rulefile *rf, gg_table_step_fn step,
                             void *ctx, int64_t w, int64_t h, gg_topo topo,
                             int gens, const char *name)
{
    gg_gen_cells a, b;
    gg_err err;
    int np = gg_gen_planes(rf->n_states);
    assert_int_equal(gg_gen_cells_init(&a, np, w, h, &err), 0);
    assert_int_equal(gg_gen_cells_init(&b, np, w, h, &err), 0);
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++) {
            uint64_t r = gg_test_xorshift(&rng);
            int s = (r >> 50) % 4 ? 0 : (int)(r % (uint64_t)rf->n_states);
            gg_gen_cells_set(&a, x, y, s);
            gg_gen_cells_set(&b, x, y, s);
        }
    assert_int_equal(gg_reference_table_run(rf, topo, &a, gens, NULL, &err),
                     gens);
    if (step(ctx, topo, &b, gens, &err))
        fail_msg("%s: %s", name, err.msg);
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++)
            if (gg_gen_cells_get(&a, x, y) != gg_gen_cells_get(&b, x, y))
                fail_msg("%s: cell (%lld, %lld) after %d generations: %d, "
                         "the reference %d", name, (long long)x,
                         (long long)y, gens, gg_gen_cells_get(&b, x, y),
                         gg_gen_cells_get(&a, x, y));
    gg_gen_cells_free(&a);
    gg_gen_cells_free(&b);
}

/* Whether this machine has an OpenCL platform (else the tests skip). */
static bool have_opencl(void)
{
    gg_rulefile rf;
    if (gg_test_opencl_skipped() || load_rule("WireWorld", &rf))
        return false;
    gg_opencl_table *k;
    gg_fail_kind why;
    gg_err err;
    int bad = gg_opencl_table_open(&rf, "WireWorld", NULL, &k, &why, &err);
    if (bad && why != GG_FAIL_ENV)
        fail_msg("WireWorld on OpenCL: %s", err.msg);
    if (bad)
        print_message("no OpenCL here: %s\n", err.msg);
    gg_opencl_table_close(k);
    gg_rulefile_free(&rf);
    return !bad;
}

/* The first examples and a spread of the rest (every
 * neighbourhood, 4 to 64 states, tables and trees, Margolus emulated,
 * graphs on both sides of GG_RF_SKIP_TERMS), opened through the one
 * entry that opens table kernels by backend (validated there). */
static void opencl_rules_validate(void **state)
{
    (void)state;
    if (!have_opencl())
        skip();
    static const char *const names[] = {
        "WireWorld", "Langtons-Loops", "Codd", "Evoloop", "Byl-Loop",
        "Perrier", "BBM-Margolus-emulated", "TMGasMargolus_emulated",
        "LifeHistory", "TriTurmite_120010", "Worm-1040512", "Nobili32",
        "Hutton32"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        gg_rulefile rf;
        if (load_rule(names[i], &rf))
            continue;
        gg_table_kernel k;
        gg_fail_kind why;
        gg_err err;
        gg_table_ask a = {.info = gg_backend_find("opencl", &err)};
        if (!a.info || gg_table_kernel_open(&a, &rf, names[i], &k, &why, &err))
            fail_msg("%s: %s", names[i], err.msg);
        assert_string_equal(k.backend, "opencl");
        assert_non_null(strstr(k.what, "opencl on "));
        equals_reference(&rf, k.step, k.ctx, 301, 123, GG_TOPO_TORUS, 20,
                         names[i]);
        equals_reference(&rf, k.step, k.ctx, 200, 97, GG_TOPO_PLANE, 20,
                         names[i]);
        equals_reference(&rf, k.step, k.ctx, 32, 5, GG_TOPO_TORUS, 7,
                         names[i]);
        gg_table_kernel_close(&k);
        gg_rulefile_free(&rf);
    }
}

/* Langton's loops' OpenCL kernel with one edit each: the last level's
 * terms into the wrong plane (the per-cell check sees it), west and east
 * swapped (only whole steps see it: the loops are not mirror symmetric),
 * the torus's east wrap dropped (only torus boards see it). None is
 * used. */
static void broken_opencl_kernels_refused(void **state)
{
    (void)state;
    gg_rulefile rf;
    if (!have_opencl() || load_rule("Langtons-Loops", &rf))
        skip();
    char *src;
    size_t len;
    gg_err err;
    assert_int_equal(gg_rulefile_emit_gpu(&rf, "Langtons-Loops",
                                          GG_RF_GPU_OPENCL, 0, &src, &len,
                                          NULL, &err), 0);
    static const char *const edits[][3] = {
        {"    o0 |= ", "    o1 |= ", "for inputs"},
        {"x[1 * GG_NP + p] = sh[1][0][p]; /* w */",
         "x[1 * GG_NP + p] = sh[1][2][p]; /* w */",
         "differs from the reference"},
        {"e |= (row[0] & 1u) << lastbit;", "e |= (row[0] & 0u) << lastbit;",
         "differs from the reference on a torus"},
    };
    for (int e = 0; e < 3; e++) {
        char *bad = malloc(len + 1);
        assert_non_null(bad);
        memcpy(bad, src, len + 1);
        char *at = strstr(bad, edits[e][0]);
        assert_non_null(at);
        assert_int_equal(strlen(edits[e][0]), strlen(edits[e][1]));
        memcpy(at, edits[e][1], strlen(edits[e][1]));
        gg_opencl_table *k;
        gg_fail_kind why;
        assert_int_equal(gg_opencl_table_open_source(&rf, bad, NULL, &k,
                                                     &why, &err), -1);
        assert_null(k);
        assert_int_equal(why, GG_FAIL_INVALID);
        if (!strstr(err.msg, edits[e][2]))
            fail_msg("edit %d: %s", e, err.msg);
        free(bad);
    }
    free(src);
    gg_rulefile_free(&rf);
}

/* A table kernel that does not compile: an environment failure (not
 * validation's) whose message carries the start of the compiler's log. */
static void broken_opencl_source_logged(void **state)
{
    (void)state;
    gg_rulefile rf;
    if (!have_opencl() || load_rule("WireWorld", &rf))
        skip();
    gg_opencl_table *k;
    gg_fail_kind why;
    gg_err err;
    assert_int_equal(gg_opencl_table_open_source(
                         &rf, "#error gg_broken_on_purpose\n", NULL, &k,
                         &why, &err),
                     -1);
    assert_null(k);
    assert_int_equal(why, GG_FAIL_ENV);
    if (strncmp(err.msg,
                "OpenCL could not build the table kernel (error -11): ",
                53) != 0 ||
        !strstr(err.msg, "gg_broken_on_purpose"))
        fail_msg("%s", err.msg);
    gg_rulefile_free(&rf);
}

/* The CUDA C kernel of each rule compiles under NVRTC, no GPU needed: to
 * PTX (the ptx backend's path) and to an sm_90 cubin (cuda's on an H100). */
static void cuda_kernels_compile(void **state)
{
    (void)state;
    static const char *const names[] = {"WireWorld", "Langtons-Loops",
                                        "Codd", "Evoloop",
                                        "TMGasMargolus_emulated", "Hutton32"};
    int done = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        gg_rulefile rf;
        if (load_rule(names[i], &rf))
            continue;
        char *src, *img;
        size_t len, ilen;
        gg_fail_kind why;
        gg_err err;
        assert_int_equal(gg_rulefile_emit_gpu(&rf, names[i], GG_RF_GPU_CUDA,
                                              0, &src, &len, NULL, &err), 0);
        for (int cubin = 0; cubin < 2; cubin++) {
            if (gg_cuda_tk_compile(src, NULL, !cubin,
                                   cubin ? "sm_90" : "compute_90", &img,
                                   &ilen, &why, &err)) {
                if (why == GG_FAIL_ENV && strstr(err.msg, "not found")) {
                    print_message("%s\n", err.msg);
                    free(src);
                    gg_rulefile_free(&rf);
                    skip();
                }
                fail_msg("%s (%s): %s", names[i], cubin ? "cubin" : "PTX",
                         err.msg);
            }
            assert_true(ilen > 1000);
            if (!cubin) {
                assert_non_null(strstr(img, ".entry gg_table_step"));
                assert_non_null(strstr(img, ".entry gg_table_eval_k"));
                /* the eval function stays in registers (but for
                 * Hutton32, whose 157 state equalities spill) */
                if (strcmp(names[i], "Hutton32"))
                    assert_null(strstr(img, ".local"));
            }
            free(img);
        }
        free(src);
        gg_rulefile_free(&rf);
        done++;
    }
    if (!done)
        skip();
}

/* With no GPU, cuda and ptx refuse with the environment's reason, not a
 * check failure or a crash. */
static void cuda_without_gpu_says_so(void **state)
{
    (void)state;
    gg_rulefile rf;
    if (load_rule("WireWorld", &rf))
        skip();
    static const char *const backends[] = {"cuda", "ptx"};
    for (int b = 0; b < 2; b++) {
        gg_table_kernel k;
        gg_fail_kind why;
        gg_err err;
        gg_table_ask a = {.info = gg_backend_find(backends[b], &err)};
        assert_non_null(a.info);
        if (!gg_table_kernel_open(&a, &rf, "WireWorld", &k, &why, &err)) {
            /* a GPU after all: then it must equal the reference */
            equals_reference(&rf, k.step, k.ctx, 301, 123, GG_TOPO_TORUS,
                             20, backends[b]);
            gg_table_kernel_close(&k);
            continue;
        }
        assert_int_equal(why, GG_FAIL_ENV);
        assert_true(strstr(err.msg, "CUDA") || strstr(err.msg, "GPU") ||
                    strstr(err.msg, "driver"));
    }
    /* the hash tree's leaves are the host's: a device is refused with
     * the backends that can, whatever this host has */
    for (int b = 0; b < 2; b++) {
        gg_table_kernel k;
        gg_fail_kind why;
        gg_err err;
        gg_table_ask a = {.info = gg_backend_find(backends[b], &err),
                          .leaves = true};
        assert_int_equal(gg_table_kernel_open(&a, &rf, "WireWorld", &k,
                                              &why, &err), -1);
        assert_int_equal(why, GG_FAIL_INPUT);
        assert_non_null(strstr(err.msg, "use --backend reference or cpu"));
    }
    gg_rulefile_free(&rf);
}

/* Auto takes the host's first backend that opens (cpu where a compiler
 * is, with no note), the reference is named and needs no kernel, and
 * both step as the reference does. */
static void auto_and_reference_open(void **state)
{
    (void)state;
    gg_rulefile rf;
    if (load_rule("WireWorld", &rf))
        skip();
    gg_table_kernel k;
    gg_fail_kind why;
    gg_err err;
    gg_table_ask a = {0};
    assert_int_equal(gg_table_kernel_open(&a, &rf, "WireWorld", &k, &why,
                                          &err), 0);
    assert_true(gg_table_backend_on_host(gg_backend_find(k.backend, &err)));
    if (!strcmp(k.backend, "cpu"))
        assert_string_equal(k.note, "");
    else /* no compiler here: the reference, and why not cpu */
        assert_non_null(strstr(k.note, "no cpu kernel ("));
    if (k.step)
        equals_reference(&rf, k.step, k.ctx, 301, 123, GG_TOPO_TORUS, 20,
                         "auto");
    gg_table_kernel_close(&k);
    a.info = gg_backend_find("reference", &err);
    assert_int_equal(gg_table_kernel_open(&a, &rf, "WireWorld", &k, &why,
                                          &err), 0);
    assert_null(k.step);
    assert_string_equal(k.backend, "reference");
    gg_table_kernel_close(&k);
    gg_rulefile_free(&rf);
}

/* Auto with no working compiler and an empty kernel cache: the cpu
 * kernel cannot be built, so the reference runs the table and the note
 * says why; a named cpu fails with the compiler's sentence instead. */
static void auto_falls_back_and_says_why(void **state)
{
    (void)state;
    gg_rulefile rf;
    if (load_rule("WireWorld", &rf))
        skip();
    char dir[] = "/tmp/golgen-table-auto-XXXXXX";
    assert_non_null(mkdtemp(dir));
    gg_config cfg;
    gg_config_defaults(&cfg);
    cfg.cc = "/bin/false";
    snprintf(cfg.cache_dir, sizeof cfg.cache_dir, "%s", dir);
    gg_table_kernel k;
    gg_fail_kind why;
    gg_err err;
    gg_table_ask a = {.config = &cfg};
    assert_int_equal(gg_table_kernel_open(&a, &rf, "WireWorld", &k, &why,
                                          &err), 0);
    assert_string_equal(k.backend, "reference");
    assert_null(k.step);
    assert_non_null(strstr(k.note, "no cpu kernel ("));
    assert_non_null(strstr(k.note, "/bin/false"));
    gg_table_kernel_close(&k);
    a.info = gg_backend_find("cpu", &err);
    assert_int_equal(gg_table_kernel_open(&a, &rf, "WireWorld", &k, &why,
                                          &err), -1);
    assert_int_equal(why, GG_FAIL_ENV);
    assert_non_null(strstr(err.msg, "/bin/false"));
    assert_int_equal(gg_test_rmtree(dir), 0);
    gg_rulefile_free(&rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(opencl_rules_validate),
        cmocka_unit_test(broken_opencl_kernels_refused),
        cmocka_unit_test(broken_opencl_source_logged),
        cmocka_unit_test(cuda_kernels_compile),
        cmocka_unit_test(cuda_without_gpu_says_so),
        cmocka_unit_test(auto_and_reference_open),
        cmocka_unit_test(auto_falls_back_and_says_why),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
