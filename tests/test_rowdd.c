/* The row decision diagram (gen/circuits/net_rowdd.h) and the
 * resubstitution that polishes it (gen/circuits/net_resub.h): right on
 * every neighbourhood of random isotropic and MAP rules, evaluated here
 * against the rule itself, and smaller than the plain decision diagram,
 * which is what they are there for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "front.h"
#include "net_build.h"
#include "net_resub.h"
#include "net_rowdd.h"
#include "rule.h"
#include "truth.h"

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A random MAP rule's text: 86 base64 characters, block 0 off (no B0). */
static void random_map(uint64_t *s, char *buf)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    strcpy(buf, "MAP");
    for (int i = 0; i < 86; i++)
        buf[3 + i] = b64[next(s) % 64 & (i == 0 ? 0x1F : 0x3F)];
    buf[3 + 86] = 0;
}

/* A random isotropic rule's text: every Hensel class of B1..B8 and S0..S8
 * on with probability 1/2. */
static void random_iso(uint64_t *s, char *buf)
{
    static const char letters[] = "ceaiknjqrytwz";
    static const int n_letters[9] = {0, 2, 6, 10, 13, 10, 6, 2, 0};
    size_t n = 0;
    for (int half = 0; half < 2; half++) {
        buf[n++] = half ? 'S' : 'B';
        for (int k = half ? 0 : 1; k <= 8; k++) {
            char set[16];
            int m = 0;
            for (int l = 0; l < n_letters[k]; l++)
                if (next(s) & 1)
                    set[m++] = letters[l];
            if (!n_letters[k] ? !(next(s) & 1) : m == 0)
                continue;
            buf[n++] = (char)('0' + k);
            if (m < n_letters[k])
                for (int l = 0; l < m; l++)
                    buf[n++] = set[l];
        }
        if (!half)
            buf[n++] = '/';
    }
    buf[n] = 0;
}

/* net against the rule on all 512 neighbourhoods, evaluated here row by
 * row with the rule's own next-state function (not by gg_net_check, which
 * the builders used). */
static void check_against_rule(const gg_net *net, const gg_rule *rule,
                               const char *text)
{
    assert_true(gg_net_in_lib(net, GG_LIB_LUT3));
    for (int r = 0; r < 512; r++) {
        uint64_t in[9], out[1];
        for (int i = 0; i < 9; i++)
            in[i] = r >> i & 1 ? ~0ull : 0;
        gg_net_eval64(net, in, out);
        int nb = r & 0xFF, centre = r >> 8;
        if ((int)(out[0] & 1) != gg_rule_next(rule, centre, (uint32_t)nb))
            fail_msg("%s: wrong on neighbourhood %d", text, r);
    }
}

static int build_and_check(const char *text)
{
    gg_rule rule;
    gg_err err;
    gg_tt t;
    assert_int_equal(gg_rule_parse(text, &rule, &err), 0);
    gg_tt_from_rule(&rule, &t);
    static gg_net rowdd, plain;
    assert_int_equal(gg_net_build_rowdd(&t, 0, &rowdd, &err), 0);
    assert_int_equal(gg_net_build_from_tt(&t, GG_LIB_LUT3, &plain, &err), 0);
    check_against_rule(&rowdd, &rule, text);
    assert_true(rowdd.n_gates < plain.n_gates);
    return rowdd.n_gates;
}

static void test_random_isotropic(void **state)
{
    (void)state;
    uint64_t s = 40;
    char text[256];
    int total = 0;
    for (int i = 0; i < 10; i++) {
        random_iso(&s, text);
        total += build_and_check(text);
    }
    /* issue 40's bar is 60 a rule (55.3 over bench/random_rules.py's 20
     * when this was written; the plain diagram 122) */
    assert_true(total <= 10 * 60);
}

static void test_random_map(void **state)
{
    (void)state;
    uint64_t s = 41;
    char text[128];
    int total = 0;
    for (int i = 0; i < 10; i++) {
        random_map(&s, text);
        total += build_and_check(text);
    }
    /* issue 40's bar 90 (72.7 over bench/random_rules.py's 20 when
     * written; plain 127) */
    assert_true(total <= 10 * 90);
}

/* Resubstitution alone, on the plain decision diagram (no pairs, no order
 * search): right on every neighbourhood and smaller. */
static void test_resub_plain_diagram(void **state)
{
    (void)state;
    uint64_t s = 42;
    char text[256];
    for (int i = 0; i < 6; i++) {
        gg_rule rule;
        gg_err err;
        gg_tt t;
        static gg_net net;
        if (i % 2)
            random_map(&s, text);
        else
            random_iso(&s, text);
        assert_int_equal(gg_rule_parse(text, &rule, &err), 0);
        gg_tt_from_rule(&rule, &t);
        assert_int_equal(gg_net_build_from_tt(&t, GG_LIB_LUT3, &net, &err), 0);
        int before = net.n_gates, saved = gg_net_resub(&net, &t, 0, &err);
        assert_true(saved > 0);
        assert_int_equal(net.n_gates, before - saved);
        check_against_rule(&net, &rule, text);
    }
}

/* A gate that complements another and one that nothing observes go; free
 * rows stay free: a network over 3 inputs checked on its care rows by
 * evaluating it here. */
static void test_resub_small(void **state)
{
    (void)state;
    gg_net net = {.n_inputs = 3, .n_outputs = 1};
    gg_err err;
    /* g0 = a&b, g1 = ~(a&b) by another LUT, g2 = g1 ^ c (reads the
     * complement), g3 = g2 | (g0 & ~g0): the last term is never 1 */
    int a = 0, b = 1, c = 2;
    int g0 = gg_net_add(&net, GG_OP_LUT3, 0xC0, a, b, c, &err);
    int g1 = gg_net_add(&net, GG_OP_LUT3, 0x3F, a, b, c, &err);
    int g2 = gg_net_add(&net, GG_OP_LUT3, 0x3C, c, g1, c, &err);
    int g3 = gg_net_add(&net, GG_OP_LUT3, 0xF0, g2, g0, g0, &err);
    net.out[0] = (uint16_t)g3;
    gg_tt t = {.n_inputs = 3};
    for (int r = 0; r < 8; r++) {
        int x = (r & 1) && (r >> 1 & 1), want = !x ^ (r >> 2 & 1);
        gg_tt_put(t.care, r, r != 5); /* row 5 free */
        gg_tt_put(t.on, r, r != 5 && want);
    }
    assert_true(gg_net_resub(&net, &t, 0, &err) >= 2);
    assert_true(net.n_gates <= 2);
    for (int r = 0; r < 8; r++) {
        uint64_t in[3], out[1];
        for (int i = 0; i < 3; i++)
            in[i] = r >> i & 1 ? ~0ull : 0;
        gg_net_eval64(&net, in, out);
        if (r != 5)
            assert_int_equal((int)(out[0] & 1), gg_tt_get(t.on, r));
    }
    /* a network that does not compute the table is refused */
    gg_tt_put(t.on, 0, !gg_tt_get(t.on, 0));
    assert_int_equal(gg_net_resub(&net, &t, 0, &err), -1);
}

/* Resubstitution on the rows a front gives (gg_resub_rows_through), for
 * a final stage over rowsum+cells' 15 outputs, more inputs than a table
 * holds (sat/choose/choose_resub.h polishes composed stages this way).
 * The plain diagram over the cells, read as such a final stage (the row
 * sums unread), must shrink once the row sums are divisors too, and front
 * and final together stay right on every neighbourhood, evaluated here
 * row by row against the rule. */
static void test_resub_through_front(void **state)
{
    (void)state;
    uint64_t s = 43;
    char text[256];
    for (int i = 0; i < 5; i++) {
        gg_rule rule;
        gg_err err;
        gg_tt t;
        static gg_front front;
        static gg_net plain, final, whole;
        static gg_resub_rows rows;
        if (i == 0)
            strcpy(text, "B3-k/S23");
        else
            random_iso(&s, text);
        assert_int_equal(gg_rule_parse(text, &rule, &err), 0);
        gg_tt_from_rule(&rule, &t);
        assert_int_equal(
            gg_front_build(&rule, GG_FRONT_ROWSUM_CELLS, &front, &err), 0);
        assert_int_equal(gg_net_build_from_tt(&t, GG_LIB_LUT3, &plain, &err),
                         0);
        /* the table's neighbours are the front's outputs 7.., the centre
         * its output 6 (after the row sums) */
        int map[9], out;
        for (int c = 0; c < 8; c++)
            map[c] = 7 + c;
        map[8] = 6;
        memset(&final, 0, sizeof final);
        final.n_inputs = front.net.n_outputs;
        assert_int_equal(gg_net_append(&final, &plain, map, &out, &err), 0);
        final.n_outputs = 1;
        final.out[0] = (uint16_t)out;
        final.out_neg[0] = plain.out_neg[0];
        assert_int_equal(gg_resub_rows_through(&front.net, &t, &rows, &err),
                         0);
        assert_int_equal(rows.n_inputs, 15);
        int before = final.n_gates,
            saved = gg_net_resub_rows(&final, &rows, 0, &err);
        assert_true(saved > 0);
        assert_int_equal(final.n_gates, before - saved);
        /* front then final as one network over the cells */
        memset(&whole, 0, sizeof whole);
        whole.n_inputs = 9;
        int fmap[9], fo[GG_NET_MAX_OUTPUTS];
        for (int c = 0; c < 9; c++)
            fmap[c] = c;
        static gg_net one;
        for (int o = 0; o < front.net.n_outputs; o++) {
            one = front.net;
            one.n_outputs = 1;
            one.out[0] = front.net.out[o];
            one.out_neg[0] = front.net.out_neg[o];
            assert_int_equal(gg_net_append(&whole, &one, fmap, &fo[o], &err),
                             0);
            assert_int_equal(one.out_neg[0], 0);
        }
        assert_int_equal(gg_net_append(&whole, &final, fo, &out, &err), 0);
        whole.n_outputs = 1;
        whole.out[0] = (uint16_t)out;
        whole.out_neg[0] = final.out_neg[0];
        check_against_rule(&whole, &rule, text);
    }
}

/* Named rules and the edges: constant rules, Life in Hensel letters. */
static void test_named(void **state)
{
    (void)state;
    const char *rules[] = {"B2n3/S23-q", "B3/S23", "B1c2-ai3aekqy4eiqtz5-ijn6in7e8/S1e2en3",
                           "B/S012345678", "B124-ckyqjrw5-canyj8/S247e8"};
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
        gg_rule rule;
        gg_err err;
        gg_tt t;
        static gg_net net;
        assert_int_equal(gg_rule_parse(rules[i], &rule, &err), 0);
        gg_tt_from_rule(&rule, &t);
        assert_int_equal(gg_net_build_rowdd(&t, 0, &net, &err), 0);
        int bad;
        assert_int_equal(gg_net_check(&net, 0, &t, &bad), 0);
    }
    gg_tt small = {.n_inputs = 7};
    gg_net net;
    gg_err err;
    assert_int_equal(gg_net_build_rowdd(&small, 0, &net, &err), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_isotropic),
        cmocka_unit_test(test_random_map),
        cmocka_unit_test(test_named),
        cmocka_unit_test(test_resub_plain_diagram),
        cmocka_unit_test(test_resub_small),
        cmocka_unit_test(test_resub_through_front),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
