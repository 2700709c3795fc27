/* Truth tables and front-end final-stage tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "front.h"
#include "truth.h"

static int binomial(int n, int k)
{
    int r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

/* On-rows of a totalistic rule counted by combinatorics, independently of
 * the table: sum of C(n, c) over birth counts and survival counts. */
static int expected_on(const gg_rule *r)
{
    int on = 0;
    for (int c = 0; c <= r->n_neighbours; c++) {
        if ((r->birth >> c) & 1)
            on += binomial(r->n_neighbours, c);
        if ((r->survive >> c) & 1)
            on += binomial(r->n_neighbours, c);
    }
    return on;
}

static void test_rule_tables(void **state)
{
    (void)state;
    const char *rules[] = {"B3/S23", "B36/S23", "B3678/S34678", "B2/S",
                           "B2/S013V", "B245/S3H", "B012345678/S012345678",
                           "B/S"};
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
        gg_rule r;
        gg_err err;
        gg_tt t;
        assert_int_equal(gg_rule_parse(rules[i], &r, &err), 0);
        gg_tt_from_rule(&r, &t);
        assert_int_equal(t.n_inputs, r.n_neighbours + 1);
        assert_int_equal(gg_tt_count_care(&t), 1 << t.n_inputs);
        assert_int_equal(gg_tt_count_on(&t), expected_on(&r));
    }
}

/* DESIGN.md: Life's row-sum final stage has 7 inputs and 96 care rows of
 * 128, because (sM, cM, C) = (0,0,1) and (1,1,0) cannot occur. */
static void test_life_final_stage(void **state)
{
    (void)state;
    gg_rule r;
    gg_err err;
    gg_front f;
    gg_tt t;
    assert_int_equal(gg_rule_parse("B3/S23", &r, &err), 0);
    assert_int_equal(gg_front_build(&r, GG_FRONT_ROWSUM, &f, &err), 0);
    assert_int_equal(gg_front_final_tt(&r, &f, &t, &err), 0);
    assert_int_equal(t.n_inputs, 7);
    assert_int_equal(gg_tt_count_care(&t), 96);
    assert_string_equal(f.names[0], "sT");
    assert_string_equal(f.names[3], "cM");
    assert_string_equal(f.names[6], "C");
    for (int row = 0; row < 128; row++) {
        int sm = (row >> 2) & 1, cm = (row >> 3) & 1, c = (row >> 6) & 1;
        int impossible = (!sm && !cm && c) || (sm && cm && !c);
        assert_int_equal(gg_tt_get(t.care, row), !impossible);
    }
    assert_int_equal(f.gates_per_word, 2);
    assert_true(f.rows_shared);
}

static void test_front_none_is_identity(void **state)
{
    (void)state;
    gg_rule r;
    gg_err err;
    gg_front f;
    gg_tt t, want;
    assert_int_equal(gg_rule_parse("B36/S23", &r, &err), 0);
    assert_int_equal(gg_front_build(&r, GG_FRONT_NONE, &f, &err), 0);
    assert_int_equal(gg_front_final_tt(&r, &f, &t, &err), 0);
    gg_tt_from_rule(&r, &want);
    assert_int_equal(t.n_inputs, 9);
    assert_memory_equal(t.on, want.on, 8 * sizeof(uint64_t));
    assert_int_equal(gg_tt_count_care(&t), 512);
}

/* Applies an input permutation to a row: input i moves to perm[i]. */
static int permute_row(int row, const int *perm, int n)
{
    int out = 0;
    for (int i = 0; i < n; i++)
        out |= (row >> i & 1) << perm[i];
    return out;
}

/* Input permutations that map care rows to care rows of the same value. */
static int count_symmetries(const gg_tt *t, int *perm, int depth, int used)
{
    int n = t->n_inputs;
    if (depth == n) {
        for (int r = 0; r < gg_tt_rows(t); r++) {
            int s = permute_row(r, perm, n);
            if (gg_tt_get(t->care, r) != gg_tt_get(t->care, s) ||
                (gg_tt_get(t->care, r) && gg_tt_get(t->on, r) != gg_tt_get(t->on, s)))
                return 0;
        }
        return 1;
    }
    int count = 0;
    for (int i = 0; i < n; i++)
        if (!(used >> i & 1)) {
            perm[depth] = i;
            count += count_symmetries(t, perm, depth + 1, used | 1 << i);
        }
    return count;
}

/* DESIGN.md: with the middle row's W and E apart, Life's final stage has
 * all 128 rows as care rows and 48 input symmetries (any order of sT, L,
 * R, sB; swap cT and cB); the row-sum front has 4. */
static void test_life_rowsum_lr(void **state)
{
    (void)state;
    gg_rule r;
    gg_err err;
    gg_front f;
    gg_tt t;
    gg_front_kind k;
    int perm[GG_TT_MAX_INPUTS];
    assert_int_equal(gg_rule_parse("B3/S23", &r, &err), 0);
    assert_int_equal(gg_front_build(&r, GG_FRONT_ROWSUM_LR, &f, &err), 0);
    assert_int_equal(gg_front_final_tt(&r, &f, &t, &err), 0);
    assert_int_equal(t.n_inputs, 7);
    assert_int_equal(gg_tt_count_care(&t), 128);
    static const char *names[] = {"sT", "cT", "L", "R", "sB", "cB", "C"};
    for (int i = 0; i < 7; i++)
        assert_string_equal(f.names[i], names[i]);
    assert_int_equal(f.gates_per_word, 2);
    assert_true(f.rows_shared);
    assert_int_equal(count_symmetries(&t, perm, 0, 0), 48);
    assert_int_equal(gg_front_build(&r, GG_FRONT_ROWSUM, &f, &err), 0);
    assert_int_equal(gg_front_final_tt(&r, &f, &t, &err), 0);
    assert_int_equal(count_symmetries(&t, perm, 0, 0), 4);
    /* the name round-trips; other neighbourhoods are refused */
    assert_int_equal(gg_front_parse("rowsum-lr", &k, &err), 0);
    assert_int_equal(k, GG_FRONT_ROWSUM_LR);
    assert_string_equal(gg_front_name(k), "rowsum-lr");
    assert_int_equal(gg_rule_parse("B2/S34H", &r, &err), 0);
    assert_int_not_equal(gg_front_build(&r, GG_FRONT_ROWSUM_LR, &f, &err), 0);
    assert_non_null(strstr(err.msg, "Moore"));
    assert_int_equal(gg_rule_parse("B2/S1V", &r, &err), 0);
    assert_int_not_equal(gg_front_build(&r, GG_FRONT_ROWSUM_LR, &f, &err), 0);
}

static void test_input_words(void **state)
{
    (void)state;
    assert_true(gg_tt_input_word(0, 0) == 0xAAAAAAAAAAAAAAAAull);
    assert_true(gg_tt_input_word(5, 0) == 0xFFFFFFFF00000000ull);
    assert_true(gg_tt_input_word(6, 0) == 0);
    assert_true(gg_tt_input_word(6, 64) == ~0ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_tables),
        cmocka_unit_test(test_life_final_stage),
        cmocka_unit_test(test_front_none_is_identity),
        cmocka_unit_test(test_life_rowsum_lr),
        cmocka_unit_test(test_input_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
