/* Networks rewritten without a whole-table search: gg_net_tidy, the
 * LUT3 -> gate2 mapping (sat/choose/lut_map.c) and window resynthesis
 * (sat/choose/resynth.c). Every result is checked row by row against the table it
 * must compute; the counts asserted are facts that hold independently of
 * the code (a 2-input LUT is one 2-input gate; xor is one gate). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"

#include "cache.h"
#include "cms.h"
#include "front.h"
#include "lut_map.h"
#include "net_text.h"
#include "resynth.h"
#include "rule.h"
#include "synth.h"

static uint64_t rng_state = 0x853C49E6748FEA9Bull;
static uint64_t rng(void)
{
    return gg_test_xorshift(&rng_state);
}

static int add(gg_net *n, gg_op op, int lut, int a, int b, int c)
{
    gg_err err;
    int s = gg_net_add(n, op, (uint8_t)lut, a, b, c, &err);
    if (s < 0)
        fail_msg("%s", err.msg);
    return s;
}

/* A random signal of n so far: an input or a gate. */
static int any_signal(const gg_net *n)
{
    return (int)(rng() % (uint64_t)(n->n_inputs + n->n_gates));
}

static gg_net empty(int inputs)
{
    gg_net n;
    memset(&n, 0, sizeof n);
    n.n_inputs = inputs;
    n.n_outputs = 1;
    return n;
}

/* n's output as a table, with a random three quarters of rows cared for
 * (all rows when all is set). */
static gg_tt table_of(const gg_net *n, bool all)
{
    gg_tt t;
    gg_net_output_tt(n, 0, &t);
    for (int w = 0; w < gg_tt_words(&t) && !all; w++)
        t.care[w] &= rng() | rng();
    return t;
}

static void skip_without_sat(void)
{
    if (!gg_sat_available()) {
        print_message("built without CryptoMiniSat; skipped\n");
        skip();
    }
}

/* A twin gate (and with its inputs swapped) merges, a gate nobody reads
 * goes, and the output's function stays. */
static void test_tidy(void **state)
{
    (void)state;
    gg_net n = empty(3);
    int g0 = add(&n, GG_OP_AND, 0, 0, 1, 0);
    int g1 = add(&n, GG_OP_AND, 0, 1, 0, 0);
    add(&n, GG_OP_OR, 0, 0, 2, 0); /* dead */
    int g3 = add(&n, GG_OP_XOR, 0, g0, 2, 0);
    n.out[0] = (uint16_t)add(&n, GG_OP_OR, 0, g3, g1, 0);
    gg_tt before, after;
    gg_net_output_tt(&n, 0, &before);
    assert_int_equal(gg_net_tidy(&n), 2);
    assert_int_equal(n.n_gates, 3);
    gg_net_output_tt(&n, 0, &after);
    assert_memory_equal(before.on, after.on, sizeof before.on);
}

/* A gate that cannot reach the output is observable nowhere; the output
 * gate everywhere. */
static void test_observable(void **state)
{
    (void)state;
    gg_net n = empty(2);
    int dead = add(&n, GG_OP_OR, 0, 0, 1, 0);
    int live = add(&n, GG_OP_XOR, 0, 0, 1, 0);
    n.out[0] = (uint16_t)live;
    gg_tt t;
    gg_net_observable_tt(&n, dead - 2, &t);
    assert_int_equal(t.on[0] & 0xF, 0);
    gg_net_observable_tt(&n, live - 2, &t);
    assert_int_equal(t.on[0] & 0xF, 0xF);
}

/* The lop3 code of a 2-input function of inputs a and b (c ignored). */
static int lut2(unsigned f4)
{
    int lut = 0;
    for (int k = 0; k < 8; k++)
        lut |= (int)(f4 >> ((k >> 2 & 1) << 1 | (k >> 1 & 1)) & 1) << k;
    return lut;
}

/* Every LUT reading two signals is one gate2 gate, whatever its function
 * (up to the polarity a reader absorbs): random chains of them map to at
 * most as many gates, right on every row. */
static void test_map_two_input_luts(void **state)
{
    (void)state;
    skip_without_sat();
    for (int trial = 0; trial < 40; trial++) {
        gg_net n = empty(5), g;
        int luts = 3 + (int)(rng() % 6);
        for (int i = 0; i < luts; i++) {
            int a = any_signal(&n), b = any_signal(&n);
            unsigned f4 = 1 + (unsigned)(rng() % 14); /* not constant */
            add(&n, GG_OP_LUT3, lut2(f4), a, b, b);
        }
        n.out[0] = (uint16_t)(n.n_inputs + n.n_gates - 1);
        gg_tt t = table_of(&n, true);
        gg_err err;
        if (gg_lut3_to_gate2(&n, &t, &g, &err))
            fail_msg("%s", err.msg);
        assert_true(gg_net_in_lib(&g, GG_LIB_GATE2));
        assert_int_equal(gg_net_check(&g, 0, &t, NULL), 0);
        assert_true(g.n_gates <= luts);
    }
}

/* Random LUT3 networks with don't-cares: the mapping is right on every
 * care row. */
static void test_map_random(void **state)
{
    (void)state;
    skip_without_sat();
    for (int trial = 0; trial < 40; trial++) {
        gg_net n = empty(6), g;
        int luts = 2 + (int)(rng() % 7);
        for (int i = 0; i < luts; i++) {
            add(&n, GG_OP_LUT3, (int)(rng() & 0xFF), any_signal(&n),
                any_signal(&n), any_signal(&n));
        }
        n.out[0] = (uint16_t)(n.n_inputs + n.n_gates - 1);
        n.out_neg[0] = (uint8_t)(rng() & 1);
        gg_tt t = table_of(&n, false);
        gg_err err;
        if (gg_lut3_to_gate2(&n, &t, &g, &err))
            fail_msg("trial %d: %s", trial, err.msg);
        assert_true(gg_net_in_lib(&g, GG_LIB_GATE2));
        assert_int_equal(gg_net_check(&g, 0, &t, NULL), 0);
    }
}

/* Life's cached 6-LUT final stage maps to a gate2 network that computes
 * Life's table and costs no more than the cached gate2 entry (14, derived
 * by hand). */
static void test_map_life(void **state)
{
    (void)state;
    skip_without_sat();
    const char *root = getenv("GG_SOURCE_ROOT");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/generated", root ? root : ".");
    gg_rule life = gg_test_rule("B3/S23");
    gg_front f;
    gg_tt t;
    static gg_net lut, hand, g;
    gg_err err;
    assert_int_equal(gg_front_build(&life, GG_FRONT_ROWSUM, &f, &err), 0);
    assert_int_equal(gg_front_final_tt(&life, &f, &t, &err), 0);
    assert_int_equal(gg_cache_lookup(dir, &life, GG_FRONT_ROWSUM, GG_LIB_LUT3,
                                     &lut, NULL, &err), 1);
    assert_int_equal(gg_cache_lookup(dir, &life, GG_FRONT_ROWSUM,
                                     GG_LIB_GATE2, &hand, NULL, &err), 1);
    if (gg_lut3_to_gate2(&lut, &t, &g, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(gg_net_check(&g, 0, &t, NULL), 0);
    assert_true(gg_synth_cost(&g, GG_LIB_GATE2) <=
                gg_synth_cost(&hand, GG_LIB_GATE2));
}

/* xor spelled as (a | b) & ~(a & b) shrinks to the one xor gate. */
static void test_resynth_xor(void **state)
{
    (void)state;
    skip_without_sat();
    gg_net n = empty(2);
    int o = add(&n, GG_OP_OR, 0, 0, 1, 0), a = add(&n, GG_OP_AND, 0, 0, 1, 0);
    n.out[0] = (uint16_t)add(&n, GG_OP_ANDNOT, 0, o, a, 0);
    gg_tt t = table_of(&n, true);
    gg_resynth_opts ro = {.lib = GG_LIB_GATE2};
    gg_err err;
    assert_int_equal(gg_resynth(&n, &t, &ro, &err), 2);
    assert_int_equal(n.n_gates, 1);
    assert_int_equal(n.gate[0].op, GG_OP_XOR);
}

/* Majority over a b c takes 4 and/or/xor/andnot gates (here (a&(b|c)) |
 * (b&c)), but only 2 where a^b and a&b exist anyway: a&b | c&(a^b). With
 * windows of at most 3 leaves only resubstitution can see that. */
static void test_resynth_divisors(void **state)
{
    (void)state;
    skip_without_sat();
    gg_net n = empty(4); /* a b c d */
    int x = add(&n, GG_OP_XOR, 0, 0, 1, 0), y = add(&n, GG_OP_AND, 0, 0, 1, 0);
    int u = add(&n, GG_OP_XOR, 0, x, 3, 0), v = add(&n, GG_OP_OR, 0, y, 3, 0);
    int t1 = add(&n, GG_OP_OR, 0, 1, 2, 0), t2 = add(&n, GG_OP_AND, 0, 0, t1, 0);
    int t3 = add(&n, GG_OP_AND, 0, 1, 2, 0), r = add(&n, GG_OP_OR, 0, t2, t3, 0);
    int w = add(&n, GG_OP_AND, 0, u, v, 0);
    n.out[0] = (uint16_t)add(&n, GG_OP_XOR, 0, w, r, 0);
    gg_tt t = table_of(&n, true);
    gg_net windows_only = n;
    gg_err err;
    gg_resynth_opts ro = {.lib = GG_LIB_GATE2, .leaves = 3,
                          .window_seconds = 1, .no_divisors = true};
    assert_true(gg_resynth(&windows_only, &t, &ro, &err) >= 0);
    ro.no_divisors = false;
    assert_true(gg_resynth(&n, &t, &ro, &err) >= 2);
    assert_int_equal(gg_net_check(&n, 0, &t, NULL), 0);
    assert_true(n.n_gates < windows_only.n_gates);
}

/* HighLife's 16-gate final stage of session 8: no single window or
 * resubstitution shrinks it, two roots at once do (g7 and g8 share work
 * that neither can shed alone). */
static void test_resynth_pairs(void **state)
{
    (void)state;
    skip_without_sat();
    static const char *text =
        "inputs sT cT sM cM sB cB C\n"
        "g0 = xor cT cM\ng1 = xor cB g0\ng2 = xor sT sB\ng3 = or sT sB\n"
        "g4 = xor sM g2\ng5 = xor g4 g3\ng6 = andnot C g3\n"
        "g7 = or g2 g5\ng8 = or g6 g7\ng9 = xor g1 cM\n"
        "g10 = or g0 g9\ng11 = xor g8 g10\ng12 = xor g7 g1\n"
        "g13 = or g4 C\ng14 = xor g12 g13\ng15 = andnot g14 g11\n"
        "out g15\n";
    static gg_net n, alone;
    gg_err err;
    gg_rule rule;
    gg_front f;
    gg_tt t;
    assert_int_equal(gg_net_parse_text(text, 1, &n, NULL, &err), 0);
    assert_int_equal(gg_rule_parse("B36/S23", &rule, &err), 0);
    assert_int_equal(gg_front_build(&rule, GG_FRONT_ROWSUM, &f, &err), 0);
    assert_int_equal(gg_front_final_tt(&rule, &f, &t, &err), 0);
    assert_int_equal(gg_net_check(&n, 0, &t, NULL), 0);
    alone = n;
    /* 5 leaves: the pair that shrinks has 5, and fewer windows are tried */
    gg_resynth_opts ro = {.lib = GG_LIB_GATE2, .leaves = 5,
                          .window_seconds = 1, .no_pairs = true};
    assert_int_equal(gg_resynth(&alone, &t, &ro, &err), 0);
    ro.no_pairs = false;
    assert_true(gg_resynth(&n, &t, &ro, &err) >= 1);
    assert_true(n.n_gates <= 15);
    assert_true(gg_net_in_lib(&n, GG_LIB_GATE2));
    assert_int_equal(gg_net_check(&n, 0, &t, NULL), 0);
}

/* Random gate2 networks with don't-cares: never larger, always right on
 * the care rows. Up to 17 gates: with this seed that makes a two-root
 * window whose leaf reads the earlier root (a cycle, if it were taken). */
static void test_resynth_random(void **state)
{
    (void)state;
    skip_without_sat();
    for (int trial = 0; trial < 25; trial++) {
        gg_net n = empty(5);
        int gates = 4 + (int)(rng() % 14);
        for (int i = 0; i < gates; i++) {
            add(&n, (gg_op)(rng() % 4), 0, any_signal(&n), any_signal(&n), 0);
        }
        n.out[0] = (uint16_t)(n.n_inputs + n.n_gates - 1);
        gg_tt t = table_of(&n, false);
        gg_resynth_opts ro = {.lib = GG_LIB_GATE2, .window_seconds = 1};
        gg_err err;
        int saved = gg_resynth(&n, &t, &ro, &err);
        if (saved < 0)
            fail_msg("%s", err.msg);
        assert_true(n.n_gates <= gates);
        assert_true(gg_net_in_lib(&n, GG_LIB_GATE2));
        assert_int_equal(gg_net_check(&n, 0, &t, NULL), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tidy),
        cmocka_unit_test(test_observable),
        cmocka_unit_test(test_map_two_input_luts),
        cmocka_unit_test(test_map_random),
        cmocka_unit_test(test_map_life),
        cmocka_unit_test(test_resynth_xor),
        cmocka_unit_test(test_resynth_divisors),
        cmocka_unit_test(test_resynth_pairs),
        cmocka_unit_test(test_resynth_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
