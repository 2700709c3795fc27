/* The C emitter: its kernels compile on every path (AVX-512, AVX2,
 * portable), agree with the reference for Moore, von Neumann and hex rules
 * on torus and plane grids of odd widths, and generated/c/ is reproduced
 * byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu_backend.h"
#include "emit_c.h"
#include "kernel_source.h"
#include "reference.h"


/* The kernel against the reference on one random soup. */
static void check_case(gg_cpu *cpu, const gg_rule *r, gg_topo topo,
                       int64_t w, int64_t h, int64_t gens, uint64_t seed)
{
    gg_grid a, b;
    gg_err err;
    assert_int_equal(gg_grid_init(&a, w, h, &err), 0);
    gg_grid_random(&a, 0.4, seed);
    assert_int_equal(gg_grid_copy(&b, &a, &err), 0);
    assert_int_equal(gg_cpu_step(cpu, topo, &a, gens, &err), 0);
    gg_test_reference_run(r, topo, &b, gens);
    if (!gg_grid_equal(&a, &b))
        fail_msg("%s %s %lldx%lld %lld gens differs from the reference",
                 gg_nbhd_name(r->nbhd),
                 topo == GG_TOPO_TORUS ? "torus" : "plane", (long long)w,
                 (long long)h, (long long)gens);
    gg_grid_free(&a);
    gg_grid_free(&b);
}

/* The ISAs a kernel reports, narrowest first. */
static const char *const isa_names[] = {"portable", "avx2", "avx512"};

static int isa_rank(const char *isa)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(isa, isa_names[i]))
            return i;
    fail_msg("unknown ISA '%s'", isa);
    return -1;
}

/* The rule's kernel at isa against the reference; returns the rank of the
 * ISA it runs (the name lives in the kernel, gone after the close). */
static int check_rule_isa(const char *text, const char *isa)
{
    gg_rule r = gg_test_rule(text);
    gg_cpu_opts o = {.isa = isa, .cache_dir = gg_test_dir};
    gg_cpu *cpu;
    gg_fail_kind why;
    gg_err err;
    if (gg_cpu_open(&r, &o, &cpu, &why, &err))
        fail_msg("%s on %s: %s", text, isa, err.msg);
    int ran = isa_rank(gg_cpu_isa(cpu));
    static const int64_t widths[] = {1, 5, 64, 77, 129, 200};
    for (int i = 0; i < 6; i++) {
        gg_topo topo = i % 2 ? GG_TOPO_PLANE : GG_TOPO_TORUS;
        check_case(cpu, &r, topo, widths[i], 3 + 7 * i, 1 + 9 * (i % 3),
                   (uint64_t)i * 77 + 1);
    }
    gg_cpu_close(cpu);
    return ran;
}

/* Moore, von Neumann and hex, each through all three instruction sets. A
 * named ISA runs as named unless native is narrower: where the compiler
 * targets no AVX2 (a host without it, or the cc tests/run_all.sh caps),
 * avx2 falls back to portable C. */
static void test_nbhds_all_isas(void **state)
{
    (void)state;
    static const char *rules[] = {"B3/S23", "B2/S013V", "B245/S3H"};
    static const char *isas[] = {"avx2", "portable"};
    for (int i = 0; i < 3; i++) {
        int native = check_rule_isa(rules[i], "native");
        for (int k = 0; k < 2; k++) {
            int want = isa_rank(isas[k]) < native ? isa_rank(isas[k]) : native;
            int ran = check_rule_isa(rules[i], isas[k]);
            if (ran != want)
                fail_msg("%s at %s ran %s, expected %s (native: %s)",
                         rules[i], isas[k], isa_names[ran], isa_names[want],
                         isa_names[native]);
        }
    }
}

static const char *const well_known[] = {"B3/S23", "B36/S23", "B3678/S34678",
                                         "B2/S"};

/* generated/c/ is exactly what the emitter writes today. */
static void test_generated_reproduced(void **state)
{
    (void)state;
    const char *root = getenv("GG_SOURCE_ROOT");
    assert_non_null(root);
    for (int i = 0; i < 4; i++) {
        gg_rule r = gg_test_rule(well_known[i]);
        char name[64], path[4096];
        gg_emit_c_filename(&r, name, sizeof name);
        snprintf(path, sizeof path, "%s/generated/c/%s", root, name);
        size_t len, want_len;
        char *src, *want = gg_test_read_file(path, &want_len);
        gg_err err;
        if (!want)
            fail_msg("%s is missing: regenerate with golgen --target c "
                     "--rule %s -o %s", path, well_known[i], path);
        assert_int_equal(gg_kernel_c(&r, NULL, &src, &len, &err), 0);
        if (len != want_len || memcmp(src, want, len))
            fail_msg("%s differs from the emitter's output: regenerate it "
                     "(bench/cpu.sh --regenerate)", path);
        free(src);
        free(want);
    }
}

/* The command line writes the same bytes as the API. */
static void test_cli_emit(void **state)
{
    (void)state;
    const char *golgen = getenv("GG_GOLGEN");
    assert_non_null(golgen);
    char out[4096], cmd[8192];
    snprintf(out, sizeof out, "%s/highlife.c", gg_test_dir);
    snprintf(cmd, sizeof cmd, "'%s' --target c --rule 'B36/S23:T64,64' -o "
             "'%s'", golgen, out);
    assert_int_equal(system(cmd), 0);
    gg_rule r = gg_test_rule("B36/S23");
    size_t len, got_len;
    char *src, *got = gg_test_read_file(out, &got_len);
    gg_err err;
    assert_non_null(got);
    assert_int_equal(gg_kernel_c(&r, NULL, &src, &len, &err), 0);
    assert_int_equal(len, got_len);
    assert_memory_equal(src, got, len);
    /* The readable header names the rule, gate counts and proof status. */
    assert_non_null(strstr(got, "kernel for B36/S23"));
    assert_non_null(strstr(got, "final-stage gates"));
    assert_non_null(strstr(got, "minimal"));
    assert_non_null(strstr(got, "_mm512_ternarylogic_epi64"));
    free(src);
    free(got);
    snprintf(cmd, sizeof cmd, "'%s' --target fpga --rule B3/S23 -o /dev/null "
             "2>/dev/null", golgen);
    int st = system(cmd);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_reproduced),
        cmocka_unit_test(test_cli_emit),
        cmocka_unit_test(test_nbhds_all_isas),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
