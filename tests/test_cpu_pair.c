/* The cpu kernel of two rules by parity (a B0 rule's pair on the unbounded
 * plane: gen/rules/rule_b0.h), against the reference stepping the two
 * rules in turn: both parities, counts 1..9, soups on grids the size of
 * the hash tree's batches of leaf squares, on every ISA path; a kernel whose networks say one
 * rule at both parities, or the two swapped, refused by its validation;
 * the backend table's pair. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cpu_backend.h"
#include "kernel_source.h"
#include "rule_b0.h"

/* B0 rules without S8, as Golly's Life-Like patterns have them
 * (p168-knightship's first); each steps as its pair. */
static const char *const b0_rules[] = {"B013568/S01", "B0123478/S0123467",
                                       "B02/S013"};
#define N_RULES (int)(sizeof b0_rules / sizeof *b0_rules)

static void pair_of(const char *text, gg_rule *even, gg_rule *odd)
{
    gg_rule r;
    gg_err err;
    assert_int_equal(gg_rule_parse(text, &r, &err), 0);
    assert_false(gg_rule_b0_smax(&r));
    gg_rule_b0_pair(&r, even, odd);
    /* the test means something only where the rules differ */
    assert_false(gg_rule_same_transition(even, odd));
}

/* grid after gens generations from parity by the reference: even's rule
 * at generations of the parity's, odd's at the others. */
static void reference_pair(const gg_rule *even, const gg_rule *odd,
                           gg_topo topo, gg_grid *grid, int64_t gens,
                           int parity)
{
    for (int64_t g = 0; g < gens; g++)
        gg_test_reference_run((parity + g) & 1 ? odd : even, topo, grid, 1);
}

/* Soups of three densities on a 384 x 96 plane (a batch of 16x16 leaves'
 * 32-cell squares is 384 cells wide) and a 200 x 37 torus, from both
 * parities, 1 to 9 generations, by the pair kernel of `text` at isa
 * (NULL: the best here). */
static void check_pair(const char *text, const char *isa)
{
    static const struct {
        int64_t w, h;
        gg_topo topo;
    } grids[] = {{384, 96, GG_TOPO_PLANE}, {200, 37, GG_TOPO_TORUS}};
    gg_rule even, odd;
    pair_of(text, &even, &odd);
    gg_cpu_opts o = {.cache_dir = gg_test_dir, .threads = 1, .isa = isa};
    gg_cpu *cpu;
    gg_fail_kind why;
    gg_err err;
    if (gg_cpu_open_pair(&even, &odd, &o, &cpu, &why, &err))
        fail_msg("%s: %s", text, err.msg);
    for (int k = 0; k < 2; k++)
        for (int parity = 0; parity < 2; parity++)
            for (int64_t gens = 1; gens <= 9; gens++) {
                gg_grid a, b;
                assert_int_equal(gg_grid_init(&a, grids[k].w, grids[k].h,
                                              &err), 0);
                gg_grid_random(&a, 0.2 + 0.15 * (double)(gens % 3),
                               0x9a17 + (uint64_t)(gens * 2 + parity));
                assert_int_equal(gg_grid_copy(&b, &a, &err), 0);
                assert_int_equal(gg_cpu_step_pair(cpu, grids[k].topo, &a,
                                                  gens, parity, &err), 0);
                reference_pair(&even, &odd, grids[k].topo, &b, gens, parity);
                if (!gg_grid_equal(&a, &b))
                    fail_msg("%s (%s) %lldx%lld %s: %lld generations from "
                             "parity %d differ from the reference", text,
                             gg_cpu_isa(cpu), (long long)grids[k].w,
                             (long long)grids[k].h,
                             grids[k].topo == GG_TOPO_PLANE ? "plane"
                                                            : "torus",
                             (long long)gens, parity);
                gg_grid_free(&a);
                gg_grid_free(&b);
            }
    /* a kernel of one rule has no pair's step */
    gg_cpu *one;
    if (gg_cpu_open(&even, &o, &one, &why, &err))
        fail_msg("%s", err.msg);
    gg_grid g;
    assert_int_equal(gg_grid_init(&g, 64, 8, &err), 0);
    assert_int_equal(gg_cpu_step_pair(one, GG_TOPO_PLANE, &g, 2, 0, &err),
                     -1);
    gg_grid_free(&g);
    gg_cpu_close(one);
    gg_cpu_close(cpu);
}

static void test_pair_against_reference(void **state)
{
    (void)state;
    for (int i = 0; i < N_RULES; i++)
        check_pair(b0_rules[i], NULL);
}

/* The 2-input networks' paths too (an AVX2 machine's, a capped
 * compiler's). */
static void test_pair_narrower_isas(void **state)
{
    (void)state;
    check_pair(b0_rules[0], "avx2");
    check_pair(b0_rules[0], "portable");
}

/* A pair kernel made of networks a and b opened as (even, odd) must fail
 * validation. */
static void expect_refused(const gg_rule *a, const gg_rule *b,
                           const gg_rule *even, const gg_rule *odd)
{
    char *src;
    size_t len;
    gg_err err;
    assert_int_equal(gg_kernel_c_pair(a, b, NULL, false, &src, &len, NULL,
                                      &err), 0);
    gg_cpu_opts o = {.cache_dir = gg_test_dir};
    gg_cpu *cpu;
    gg_fail_kind why;
    int rc = gg_cpu_open_pair_source(even, odd, src, len, &o, &cpu, &why,
                                     &err);
    free(src);
    if (rc == 0) {
        gg_cpu_close(cpu);
        fail_msg("a pair kernel with the wrong networks passed validation");
    }
    assert_null(cpu);
    assert_int_equal(why, GG_FAIL_INVALID);
    assert_non_null(strstr(err.msg, "validation failed"));
    assert_non_null(strstr(err.msg, "from parity"));
}

/* One rule at both parities (either), or the two swapped: refused. */
static void test_wrong_pairs_refused(void **state)
{
    (void)state;
    gg_rule even, odd;
    pair_of(b0_rules[0], &even, &odd);
    expect_refused(&even, &even, &even, &odd);
    expect_refused(&odd, &odd, &even, &odd);
    expect_refused(&odd, &even, &even, &odd);
}

/* The table: cpu opened with odd_rule steps both rules in one call, the
 * reference (no step_parity) opens the rule alone; the pair's advance
 * matches two backends' generation-a-call advance. */
static void test_backend_pairs(void **state)
{
    (void)state;
    gg_rule even, odd;
    pair_of(b0_rules[0], &even, &odd);
    gg_err err;
    gg_fail_kind why;
    gg_backend *pair, *ref;
    gg_config cfg;
    gg_config_defaults(&cfg); /* its kernel cache: the test's own */
    snprintf(cfg.cache_dir, sizeof cfg.cache_dir, "%s", gg_test_dir);
    gg_backend_opts o = {.config = &cfg, .threads = 1, .odd_rule = &odd};
    const gg_backend_info *cpu = gg_backend_find("cpu", &err);
    const gg_backend_info *reference = gg_backend_find("reference", &err);
    assert_non_null(cpu);
    assert_non_null(reference);
    if (gg_backend_open(cpu, &even, &o, &pair, &why, &err) ||
        gg_backend_open(reference, &even, &o, &ref, &why, &err))
        fail_msg("%s", err.msg);
    assert_true(gg_backend_pairs(pair));
    assert_false(gg_backend_pairs(ref));
    gg_grid a, b;
    assert_int_equal(gg_grid_init(&a, 320, 64, &err), 0);
    gg_grid_random(&a, 0.4, 38);
    assert_int_equal(gg_grid_copy(&b, &a, &err), 0);
    assert_int_equal(gg_backend_advance_parity(pair, GG_TOPO_PLANE, &a, 8, 1,
                                               &err), 0);
    assert_int_equal(gg_backend_advance_parity(ref, GG_TOPO_PLANE, &b, 8, 1,
                                               &err), -1);
    reference_pair(&even, &odd, GG_TOPO_PLANE, &b, 8, 1);
    assert_true(gg_grid_equal(&a, &b));
    gg_grid_free(&a);
    gg_grid_free(&b);
    gg_backend_close(pair);
    gg_backend_close(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pair_against_reference),
        cmocka_unit_test(test_pair_narrower_isas),
        cmocka_unit_test(test_wrong_pairs_refused),
        cmocka_unit_test(test_backend_pairs),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
