/* Proof records (sat/exact/proof.h): the shapes of a k shown impossible survive
 * the text round trip exactly, a record too long for its text only ever
 * forgets shapes (never claims one), and damaged text is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "encode.h"
#include "proof.h"
#include "shape_prior.h"

/* The undecided list a record gives back, as a 0/1 array of total. */
static void pending_mask(const gg_proof *p, char *mask, int total)
{
    int *list, n;
    gg_err err;
    assert_int_equal(gg_proof_pending(p, &list, &n, &err), 0);
    memset(mask, 0, (size_t)total);
    for (int i = 0; i < n; i++) {
        assert_in_range(list[i], 0, total - 1);
        if (i)
            assert_true(list[i] > list[i - 1]);
        mask[list[i]] = 1;
    }
    free(list);
}

static void test_round_trip(void **state)
{
    (void)state;
    int undecided[] = {19, 35, 3, 129, 36};
    gg_proof p, q;
    gg_err err;
    gg_proof_from_undecided(&p, 5, 130, 0x7c359035u, undecided, 5);
    assert_string_equal(p.unsat, "0-2,4-18,20-34,37-128");
    assert_int_equal(gg_proof_count(&p), 125);
    char text[GG_PROOF_TEXT_MAX + 64], mask[130];
    gg_proof_format(&p, text, sizeof text);
    assert_string_equal(text, "k=5 shapes=130 hash=7c359035 "
                              "unsat=0-2,4-18,20-34,37-128");
    assert_int_equal(gg_proof_parse(text, &q, &err), 0);
    assert_int_equal(q.k, 5);
    assert_int_equal(q.shapes_total, 130);
    assert_int_equal(q.shapes_hash, 0x7c359035u);
    assert_string_equal(q.unsat, p.unsat);
    pending_mask(&q, mask, 130);
    for (int i = 0; i < 130; i++)
        assert_int_equal(mask[i], i == 3 || i == 19 || i == 35 ||
                                      i == 36 || i == 129);
    /* nothing shown impossible, and everything */
    gg_proof_from_undecided(&p, 6, 3, 1, (int[]){0, 1, 2}, 3);
    assert_string_equal(p.unsat, "");
    assert_int_equal(gg_proof_count(&p), 0);
    gg_proof_from_undecided(&p, 6, 3, 1, NULL, 0);
    assert_string_equal(p.unsat, "0-2");
}

/* Every other shape of 100,000 undecided: far more ranges than the text
 * holds. The record keeps a prefix and lists no undecided shape. */
static void test_overflow_forgets_only(void **state)
{
    (void)state;
    enum { TOTAL = 100000 };
    static int undecided[TOTAL / 2];
    static char mask[TOTAL];
    for (int i = 0; i < TOTAL / 2; i++)
        undecided[i] = 2 * i + 1;
    gg_proof p;
    gg_proof_from_undecided(&p, 9, TOTAL, 7, undecided, TOTAL / 2);
    assert_true(strlen(p.unsat) < sizeof p.unsat);
    int shown = gg_proof_count(&p);
    assert_true(shown > 10 && shown < TOTAL / 2);
    pending_mask(&p, mask, TOTAL);
    for (int i = 0; i < TOTAL; i++)
        if (i % 2)
            assert_int_equal(mask[i], 1);
}

static void test_malformed(void **state)
{
    (void)state;
    gg_proof p;
    gg_err err;
    const char *bad[] = {
        "k=5 shapes=130 hash=1 unsat=0-130",   /* past the end */
        "k=5 shapes=130 hash=1 unsat=5-3",     /* backwards */
        "k=5 shapes=130 hash=1 unsat=4,2",     /* not ascending */
        "k=5 shapes=130 hash=1 unsat=1-2,2",   /* overlapping */
        "k=5 shapes=130 hash=1 unsat=1;2",
        "k=0 shapes=130 hash=1 unsat=1",
        "k=5 shapes=130 unsat=1",
        "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (gg_proof_parse(bad[i], &p, &err) == 0)
            fail_msg("'%s' was accepted", bad[i]);
        assert_non_null(strstr(err.msg, "malformed"));
        assert_int_equal(p.k, 0);
    }
    assert_int_equal(gg_proof_parse("k=5 shapes=130 hash=1 unsat=", &p, &err),
                     0);
    assert_int_equal(gg_proof_count(&p), 0);
}

/* The hash tells shape lists apart: another order, another list. */
static void test_hash(void **state)
{
    (void)state;
    gg_shape *v;
    gg_err err;
    int n = gg_shape_enum(5, 3, 7, &v, &err);
    assert_int_equal(n, 130);
    uint32_t h = gg_proof_shapes_hash(v, n);
    assert_int_equal(gg_proof_shapes_hash(v, n), h);
    gg_shape t = v[0];
    v[0] = v[1], v[1] = t;
    assert_int_not_equal(gg_proof_shapes_hash(v, n), h);
    assert_int_not_equal(gg_proof_shapes_hash(v, n - 1), h);
    free(v);
}

/* Records of older pruning versions from GG_ENC_PRUNING_COMPAT on are
 * taken (their rules admit more networks per shape: sat/exact/proof.h), those
 * of other versions and other lists are not (version 1's hash is the
 * one the records in the cache were written with). */
static void test_hash_versions(void **state)
{
    (void)state;
    gg_shape *v;
    gg_err err;
    int n = gg_shape_enum(5, 3, 7, &v, &err);
    assert_int_equal(n, 130);
    assert_true(GG_ENC_PRUNING_COMPAT <= GG_ENC_PRUNING_VERSION);
    for (int ver = 0; ver <= GG_ENC_PRUNING_VERSION + 1; ver++) {
        uint32_t h = gg_proof_shapes_hash_version(v, n, ver);
        bool want = ver >= GG_ENC_PRUNING_COMPAT &&
                    ver <= GG_ENC_PRUNING_VERSION;
        assert_int_equal(gg_proof_hash_ok(h, v, n), want);
        assert_false(gg_proof_hash_ok(h, v, n - 1));
    }
    assert_int_equal(gg_proof_shapes_hash(v, n),
                     gg_proof_shapes_hash_version(v, n,
                                                  GG_ENC_PRUNING_VERSION));
    free(v);
}

/* Each table of usual shape costs belongs to today's shape list (rowsum
 * front, all 7 inputs essential): if the enumeration or the pruning
 * version changes, the hash no longer matches and bench/shape_prior.py
 * must be rerun on new --trace logs. The measured fact the progress
 * estimate relies on holds in the data: the first tenth of the shapes
 * carries more than a tenth of the work. */
static void test_prior_tables(void **state)
{
    (void)state;
    int tables = 0;
    for (const gg_shape_prior *p = gg_shape_priors; p->k; p++, tables++) {
        gg_shape *shapes;
        gg_err err;
        int arity = p->lib == GG_LIB_LUT3 ? 3 : 2;
        int n = gg_shape_enum(p->k, arity, 7, &shapes, &err);
        assert_int_equal(n, p->n_shapes);
        uint32_t hash = gg_proof_shapes_hash(shapes, n);
        free(shapes);
        assert_int_equal(hash, p->shapes_hash);
        assert_ptr_equal(gg_shape_prior_find(p->lib, p->k, hash, n), p);
        assert_null(gg_shape_prior_find(p->lib, p->k, hash ^ 1, n));
        assert_null(gg_shape_prior_find(p->lib, p->k, hash, n - 1));
        uint64_t all = 0, head = 0;
        for (int i = 0; i < n; i++) {
            assert_true(p->cost[i] >= 1);
            all += p->cost[i];
            head += i < n / 10 ? p->cost[i] : 0;
        }
        assert_true(head * 10 > all);
    }
    assert_true(tables >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_overflow_forgets_only),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_hash),
        cmocka_unit_test(test_hash_versions),
        cmocka_unit_test(test_prior_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
