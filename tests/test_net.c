/* Gate networks, decision-diagram construction and whole circuits, checked
 * exhaustively. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "test_util.h"

#include "choose.h"
#include "net_build.h"
#include "net_sop.h"

/* Correctness of a thousand circuits, not the fallback's gate counts: a
 * tenth of the work keeps this suite to about a minute. */
static const gg_choose_opts quick = {.work = 3000};

/* The LUT3 immediate follows lop3: a = 0xF0, b = 0xCC, c = 0xAA. */
static void test_lut3_convention(void **state)
{
    (void)state;
    gg_net n = {0};
    gg_err err;
    n.n_inputs = 3;
    assert_int_equal(gg_net_add(&n, GG_OP_LUT3, 0xF0, 0, 1, 2, &err), 3);
    assert_int_equal(gg_net_add(&n, GG_OP_LUT3, 0xCC, 0, 1, 2, &err), 4);
    assert_int_equal(gg_net_add(&n, GG_OP_LUT3, 0xAA, 0, 1, 2, &err), 5);
    n.n_outputs = 3;
    n.out[0] = 3, n.out[1] = 4, n.out[2] = 5;
    uint64_t in[3] = {0x1111, 0x2222, 0x4444}, out[3];
    gg_net_eval64(&n, in, out);
    assert_true(out[0] == in[0] && out[1] == in[1] && out[2] == in[2]);
}

static void test_gate2_ops(void **state)
{
    (void)state;
    gg_net n = {0};
    gg_err err;
    n.n_inputs = 2;
    gg_net_add(&n, GG_OP_AND, 0, 0, 1, 0, &err);
    gg_net_add(&n, GG_OP_OR, 0, 0, 1, 0, &err);
    gg_net_add(&n, GG_OP_XOR, 0, 0, 1, 0, &err);
    gg_net_add(&n, GG_OP_ANDNOT, 0, 0, 1, 0, &err);
    gg_net_add(&n, GG_OP_NOT, 0, 0, 0, 0, &err);
    n.n_outputs = 5;
    for (int i = 0; i < 5; i++)
        n.out[i] = (uint16_t)(2 + i);
    uint64_t in[2] = {0xC, 0xA}, out[5];
    gg_net_eval64(&n, in, out);
    assert_true(out[0] == 0x8 && out[1] == 0xE && out[2] == 0x6);
    assert_true(out[3] == 0x4 && out[4] == ~0xCull);
    /* A gate may only read earlier signals. */
    assert_int_equal(gg_net_add(&n, GG_OP_AND, 0, 0, 9, 0, &err), -1);
}

static uint64_t rng_state = 12345;
static uint64_t rng(void)
{
    return gg_test_xorshift(&rng_state);
}

/* Random functions with random don't-cares, 1..9 inputs, both libraries. */
static void test_build_random_tables(void **state)
{
    (void)state;
    for (int trial = 0; trial < 300; trial++) {
        gg_tt t = {0};
        t.n_inputs = 1 + trial % 9;
        for (int w = 0; w < gg_tt_words(&t); w++) {
            t.on[w] = rng();
            t.care[w] = trial % 2 ? rng() | rng() : ~0ull;
        }
        gg_lib lib = trial % 3 ? GG_LIB_LUT3 : GG_LIB_GATE2;
        gg_net n;
        gg_err err;
        assert_int_equal(gg_net_build_from_tt(&t, lib, &n, &err), 0);
        assert_true(gg_net_in_lib(&n, lib));
        assert_int_equal(gg_net_check(&n, 0, &t, NULL), 0);
    }
}

/* The cover grown into free rows (gen/circuits/net_sop.h): right on the care rows
 * of random tables, from nearly all rows free to none. */
static void test_sop_random_tables(void **state)
{
    (void)state;
    for (int trial = 0; trial < 200; trial++) {
        gg_tt t = {0};
        t.n_inputs = 1 + trial % 8;
        for (int w = 0; w < gg_tt_words(&t); w++) {
            t.on[w] = rng();
            t.care[w] = trial % 3 == 0 ? ~0ull
                        : trial % 3 == 1 ? rng() & rng() & rng()
                                         : rng() | rng();
        }
        gg_net n;
        gg_err err;
        assert_int_equal(gg_net_build_sop(&t, &n, &err), 0);
        assert_true(gg_net_in_lib(&n, GG_LIB_LUT3));
        assert_int_equal(gg_net_check(&n, 0, &t, NULL), 0);
    }
}

static void test_constants(void **state)
{
    (void)state;
    gg_tt t = {0};
    gg_net n;
    gg_err err;
    t.n_inputs = 4;
    t.care[0] = 0xFFFF;
    assert_int_equal(gg_net_build_from_tt(&t, GG_LIB_LUT3, &n, &err), 0);
    assert_int_equal(n.n_gates, 0);
    assert_int_equal(gg_net_check(&n, 0, &t, NULL), 0);
    t.on[0] = 0xFFFF;
    assert_int_equal(gg_net_build_from_tt(&t, GG_LIB_GATE2, &n, &err), 0);
    assert_int_equal(gg_net_check(&n, 0, &t, NULL), 0);
}

/* A wrong network is caught: flip one LUT bit at a time in Life's final
 * stage and the exhaustive check must fail every time the flip matters. */
static void test_check_catches_errors(void **state)
{
    (void)state;
    gg_rule r;
    gg_err err;
    gg_circuit c;
    int first_bad;
    assert_int_equal(gg_rule_parse("B3/S23", &r, &err), 0);
    assert_int_equal(gg_choose_circuit(&r, GG_FRONT_ROWSUM, GG_LIB_LUT3,
                                       &quick, &c, &err), 0);
    assert_int_equal(gg_circuit_check(&c, &first_bad), 0);
    int caught = 0;
    for (int g = 0; g < c.final.n_gates; g++) {
        for (int bit = 0; bit < 8; bit++) {
            gg_circuit broken = c;
            broken.final.gate[g].lut ^= (uint8_t)(1u << bit);
            if (gg_circuit_check(&broken, &first_bad)) {
                caught++;
                assert_true(first_bad >= 0 && first_bad < 512);
            }
        }
    }
    assert_true(caught > c.final.n_gates); /* most flips matter */
}

static void check_rule(const char *text, gg_front_kind front, gg_lib lib)
{
    gg_rule r;
    gg_err err;
    gg_circuit c;
    int first_bad;
    assert_int_equal(gg_rule_parse(text, &r, &err), 0);
    if (gg_choose_circuit(&r, front, lib, &quick, &c, &err))
        fail_msg("%s: %s", text, err.msg);
    if (gg_circuit_check(&c, &first_bad))
        fail_msg("%s front %d lib %d wrong at row %d", text, front, lib,
                 first_bad);
}

/* Every von Neumann rule (2^10), a sample of Moore and hexagonal rules,
 * through both fronts and both libraries. */
static void test_circuits_all_families(void **state)
{
    (void)state;
    char text[64];
    for (int mask = 0; mask < 1024; mask++) {
        gg_rule r = {0};
        r.birth = (uint32_t)mask & 31, r.survive = (uint32_t)mask >> 5;
        r.nbhd = GG_NBHD_VONNEUMANN;
        r.n_neighbours = 4;
        gg_rule_format(&r, text, sizeof text);
        check_rule(text, mask & 1 ? GG_FRONT_NONE : GG_FRONT_ROWSUM,
                   mask & 2 ? GG_LIB_GATE2 : GG_LIB_LUT3);
    }
    for (int i = 0; i < 200; i++) {
        gg_rule r = {0};
        r.nbhd = i % 2 ? GG_NBHD_MOORE : GG_NBHD_HEX;
        r.n_neighbours = i % 2 ? 8 : 6;
        uint32_t all = (2u << r.n_neighbours) - 1;
        r.birth = (uint32_t)rng() & all, r.survive = (uint32_t)rng() & all;
        gg_rule_format(&r, text, sizeof text);
        check_rule(text, i % 4 < 2 ? GG_FRONT_ROWSUM : GG_FRONT_NONE,
                   i % 3 ? GG_LIB_LUT3 : GG_LIB_GATE2);
        if (r.nbhd == GG_NBHD_MOORE) /* W and E apart: Moore only */
            check_rule(text, GG_FRONT_ROWSUM_LR,
                       i % 4 < 2 ? GG_LIB_LUT3 : GG_LIB_GATE2);
    }
    check_rule("B3/S23", GG_FRONT_ROWSUM_LR, GG_LIB_LUT3); /* the cache's */
    check_rule("B3/S23", GG_FRONT_ROWSUM, GG_LIB_LUT3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lut3_convention),
        cmocka_unit_test(test_gate2_ops),
        cmocka_unit_test(test_build_random_tables),
        cmocka_unit_test(test_sop_random_tables),
        cmocka_unit_test(test_constants),
        cmocka_unit_test(test_check_catches_errors),
        cmocka_unit_test(test_circuits_all_families),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
