/* Rule parsing, canonical form and bad-rule errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rule.h"
#include "rule3d.h"

static void canonical(const char *in, const char *want)
{
    gg_rule r;
    gg_err err = {{0}};
    char buf[256];
    if (gg_rule_parse(in, &r, &err))
        fail_msg("'%s' rejected: %s", in, err.msg);
    gg_rule_format(&r, buf, sizeof buf);
    assert_string_equal(buf, want);
    /* The canonical form parses back to the same rule. */
    gg_rule again;
    assert_int_equal(gg_rule_parse(buf, &again, &err), 0);
    assert_memory_equal(&r, &again, sizeof r);
}

static void test_canonical_forms(void **state)
{
    (void)state;
    canonical("B3/S23", "B3/S23");
    canonical("b3/s23", "B3/S23");
    canonical("23/3", "B3/S23");
    canonical("S23/B3", "B3/S23");
    canonical("B3S23", "B3/S23");
    canonical("B3_S23", "B3/S23");
    canonical("B63/S32", "B36/S23");
    canonical("/3", "B3/S");
    canonical("B2/S", "B2/S");
    /* a part left out is empty, as bgolly 3.3 reads them */
    canonical("B234", "B234/S");
    canonical("S23", "B/S23");
    canonical("B3/", "B3/S");
    canonical("/B3", "B3/S");
    canonical("/S23", "B/S23");
    canonical("B2/S013V", "B2/S013V");
    canonical("b2/s013v", "B2/S013V");
    canonical("B245/S3H", "B245/S3H");
    canonical("B36/S23:T512,512", "B36/S23:T512,512");
    canonical("B3/S23:t100,37", "B3/S23:T100,37");
    canonical("B3/S23:P30,20", "B3/S23:P30,20");
    canonical("B3/S23:T72", "B3/S23:T72,72");
    canonical("B245/S3H:P30,20", "B245/S3H:P30,20");
    canonical("w22", "W22");
    canonical("W110:T64,32", "W110:T64,32");
    canonical("b2/s013v:t10", "B2/S013V:T10,10");
    canonical("B0123478/S01234678", "B0123478/S01234678");
}

static void test_fields(void **state)
{
    (void)state;
    gg_rule r;
    gg_err err;
    assert_int_equal(gg_rule_parse("B36/S23:T100,37", &r, &err), 0);
    assert_int_equal(r.nbhd, GG_NBHD_MOORE);
    assert_int_equal(r.n_neighbours, 8);
    assert_int_equal(r.birth, (1u << 3) | (1u << 6));
    assert_int_equal(r.survive, (1u << 2) | (1u << 3));
    assert_int_equal(r.topo, GG_TOPO_TORUS);
    assert_int_equal(r.width, 100);
    assert_int_equal(r.height, 37);
    assert_int_equal(gg_rule_parse("B2/S013V", &r, &err), 0);
    assert_int_equal(r.n_neighbours, 4);
    assert_int_equal(r.topo, GG_TOPO_UNBOUNDED);
    assert_int_equal(gg_rule_parse("B245/S3H", &r, &err), 0);
    assert_int_equal(r.n_neighbours, 6);
}

/* Every neighbourhood's offsets: distinct, non-zero, within one cell, and
 * hexagonal is Moore without NE and SW (as Golly's help describes). */
static void test_offsets(void **state)
{
    (void)state;
    int n;
    const gg_offset *o = gg_nbhd_offsets(GG_NBHD_HEX, &n);
    assert_int_equal(n, 6);
    for (int i = 0; i < n; i++) {
        assert_false(o[i].dx == 1 && o[i].dy == -1);
        assert_false(o[i].dx == -1 && o[i].dy == 1);
        assert_false(o[i].dx == 0 && o[i].dy == 0);
    }
    o = gg_nbhd_offsets(GG_NBHD_VONNEUMANN, &n);
    assert_int_equal(n, 4);
    for (int i = 0; i < n; i++)
        assert_int_equal(abs(o[i].dx) + abs(o[i].dy), 1);
    o = gg_nbhd_offsets(GG_NBHD_MOORE, &n);
    assert_int_equal(n, 8);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            assert_false(o[i].dx == o[j].dx && o[i].dy == o[j].dy);
}

static void rejected(const char *in, const char *needle)
{
    gg_rule r;
    gg_err err = {{0}};
    if (!gg_rule_parse(in, &r, &err))
        fail_msg("'%s' was accepted", in);
    if (!strstr(err.msg, needle))
        fail_msg("error for '%s' lacks '%s': %s", in, needle, err.msg);
}

static void test_bad_rules(void **state)
{
    (void)state;
    rejected("", "empty");
    rejected("B9/S23", "column 2");
    rejected("B9/S23", "out of range");
    rejected("B5/S2V", "0..4");
    rejected("B7/S2H", "0..6");
    rejected("B3/S23x", "column 7");
    rejected("B3/Q23", "'Q'");
    rejected("B3/S23/", "second separator");
    rejected("B3//S23", "second separator");
    rejected("B3S23/", "either side");
    rejected("V", "no B or S");
    rejected("H", "no B or S");
    rejected("B3/S23/B4", "second");
    /* Hensel and MAP (tests/test_oracle.c checks them against bgolly) */
    rejected("B2q/S23", "letter not valid");
    rejected("B0c/S", "no letters");
    rejected("B3c-e/S", "'-' follows a digit");
    rejected("Bc3/S", "starts with a digit");
    rejected("B3c3-e/S", "with and without '-'");
    rejected("B2n3/S23-qV", "Moore");
    rejected("B2n3/S2x", "'x' at column 8");
    rejected("MAPABC", "86 base64 characters");
    rejected("W23", "odd Wolfram rule");
    rejected("W256", "W0 to W254");
    rejected("W01234", "W0 to W254");
    /* a non-ASCII character is printed whole, its column in characters */
    rejected("B3/S2\xc3\xa9" "3", "'\xc3\xa9' at column 6");
    rejected("B2n/S2\xc3\xa9", "'\xc3\xa9' at column 7");
    rejected("MAP!AAAAA", "not a base64 character");
    rejected("B3/S23:T0,10", "infinite");
    rejected("B3/S23:T10,", "expected a grid size");
    rejected("B3/S23:T3000000000,10", "too large");
    rejected("B3/S23:K10,10", "unsupported topology");
    rejected("B3/S23:S10", "unsupported topology");
    rejected("B3/S23:T10+1,10", "shift");
    rejected("B3/S23:X10,10", "unknown topology");
    rejected("B3/S23:T10,10junk", "unexpected");
    rejected("23/3/", "unexpected");
}

/* Issue 42: a letter that is not Hensel's names the letters its count
 * takes (golgen reads Hensel rules, so "only totalistic rules are
 * supported" named the wrong cause), and no parser says "at" twice before
 * a column ("... one or three, at at column 14"). */
static void test_letter_and_column_messages(void **state)
{
    (void)state;
    rejected("B2x/S23", "not a Hensel letter 'x' at column 3; a count of 2 "
             "takes the Hensel letters c e k a i n,");
    rejected("B3/S23x4", "count of 3 takes the Hensel letters c e k a i n y "
             "q j r,");
    rejected("B0x/S23", "count of 0 takes no letters");
    rejected("Bx/S23", "expected a neighbour count, found 'x' at column 2");
    rejected("B2n3/S2x", "not a Hensel letter 'x' at column 8; a count of 2 "
             "takes the Hensel letters c e k a i n,");
    rejected("B2n/S4x", "count of 4 takes the Hensel letters c e k a i n y q "
             "j r t w z,");
    rejected("B2n/S7e6j", "letter not valid here 'j' at column 9; a count "
             "of 6 takes the Hensel letters c e k a i n,");
    rejected("B2n/S8c", "count of 8 takes no letters");
    static const char *const two_d[] = {
        "B3/S23:T3000000000,10", "B3c3-e/S", "B2x/S23", "B3/S23:T10,",
        "B3S2/3/3", "23/3/257", "23/3/C", "B2n/S7e6j"};
    static const char *const three_d[] = {
        "3D5..7/6:T8,8", "3D1234/6", "3D7..5/6", "3D5..7/27", "3D5..9/6F",
        "3D5/6:T99999999", "3D5..7/6:T5,5,5,5"};
    gg_err err;
    for (size_t i = 0; i < sizeof two_d / sizeof *two_d; i++) {
        gg_rule r;
        assert_int_equal(gg_rule_parse(two_d[i], &r, &err), -1);
        if (strstr(err.msg, " at at ") || strstr(err.msg, " at '"))
            fail_msg("'%s': \"at\" twice: %s", two_d[i], err.msg);
    }
    for (size_t i = 0; i < sizeof three_d / sizeof *three_d; i++) {
        gg_rule3d r;
        assert_int_equal(gg_rule3d_parse(three_d[i], &r, &err), -1);
        if (strstr(err.msg, " at at ") || strstr(err.msg, " at '"))
            fail_msg("'%s': \"at\" twice: %s", three_d[i], err.msg);
    }
}

/* Life written out letter by letter is Life, and a MAP of Life's table
 * is totalistic; a real Hensel rule differs from its digits alone. */
static void test_table_rules(void **state)
{
    (void)state;
    gg_rule life, hensel, map, b2n;
    gg_err err;
    assert_int_equal(gg_rule_parse("B3/S23", &life, &err), 0);
    assert_int_equal(gg_rule_parse("B3cekainyjqr/S2cekain3-", &hensel, &err),
                     0);
    assert_true(gg_rule_is_totalistic(&hensel));
    assert_true(gg_rule_same_transition(&life, &hensel));
    char text[64];
    gg_rule_format(&hensel, text, sizeof text);
    assert_string_equal(text, "B3/S23");
    /* Life's 512-row table as a MAP rule */
    assert_int_equal(gg_rule_parse("MAPARYXfhZofugWaH7oaIDogBZofuhogOiAaIDog"
                                   "IAAgAAWaH7oaIDogGiA6ICAAIAAaIDogIAAgACAAIA"
                                   "AAAAAAA", &map, &err), 0);
    assert_true(gg_rule_is_totalistic(&map));
    assert_true(gg_rule_same_transition(&life, &map));
    gg_rule view = gg_rule_totalistic_view(&map);
    assert_int_equal(view.kind, GG_KIND_TOTALISTIC);
    assert_int_equal(view.birth, life.birth);
    assert_int_equal(view.survive, life.survive);
    assert_int_equal(gg_rule_parse("B2n3/S23", &b2n, &err), 0);
    assert_false(gg_rule_is_totalistic(&b2n));
    /* 2n: two neighbours at opposite corners (NE and SW) */
    assert_int_equal(gg_rule_next(&b2n, 0, 1u << 2 | 1u << 5), 1);
    assert_int_equal(gg_rule_next(&b2n, 0, 1u << 0 | 1u << 1), 0);
    canonical("B2n3/S23-q", "B2n3/S23-q");
    canonical("s23-q/b2n3", "B2n3/S23-q");
    canonical("B2n3S23-q", "B2n3/S23-q");
    canonical("2n3-q/3", "B3/S2n3-q");
    /* MAP's last character keeps its bits past the table, as bgolly
     * writes it back */
    char padded[96] = "MAP";
    memset(padded + 3, 'A', 85);
    padded[88] = 'b';
    padded[89] = 0;
    canonical(padded, padded);
}

static void test_next_state(void **state)
{
    (void)state;
    gg_rule r;
    gg_err err;
    assert_int_equal(gg_rule_parse("B3/S23", &r, &err), 0);
    assert_int_equal(gg_rule_next(&r, 0, 0x07), 1); /* 3 neighbours: birth */
    assert_int_equal(gg_rule_next(&r, 0, 0x03), 0);
    assert_int_equal(gg_rule_next(&r, 1, 0x03), 1); /* 2: survival */
    assert_int_equal(gg_rule_next(&r, 1, 0x0F), 0); /* 4: death */
    assert_false(gg_rule_has_b0(&r));
    assert_int_equal(gg_rule_parse("B0/S8", &r, &err), 0);
    assert_true(gg_rule_has_b0(&r));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canonical_forms),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_offsets),
        cmocka_unit_test(test_bad_rules),
        cmocka_unit_test(test_next_state),
        cmocka_unit_test(test_table_rules),
        cmocka_unit_test(test_letter_and_column_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
