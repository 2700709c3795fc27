/* The network text format: round trips and one error per malformed line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "net_text.h"

static gg_net a, b; /* big: keep them off the stack */

static char *to_text(const gg_net *n, const char (*names)[GG_NET_NAME_MAX])
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    gg_net_write_text(m, n, names);
    fclose(m);
    return buf;
}

static void round_trip(const gg_net *n, const char (*names)[GG_NET_NAME_MAX])
{
    gg_err err;
    char got_names[GG_NET_TEXT_MAX_INPUTS][GG_NET_NAME_MAX];
    char *text = to_text(n, names);
    assert_int_equal(gg_net_parse_text(text, 1, &b, got_names, &err), 0);
    assert_int_equal(b.n_inputs, n->n_inputs);
    assert_int_equal(b.n_gates, n->n_gates);
    assert_int_equal(b.n_outputs, n->n_outputs);
    assert_memory_equal(b.gate, n->gate, (size_t)n->n_gates * sizeof *n->gate);
    assert_memory_equal(b.out, n->out, (size_t)n->n_outputs * sizeof *n->out);
    assert_memory_equal(b.out_neg, n->out_neg, (size_t)n->n_outputs);
    if (names)
        assert_string_equal(got_names[0], names[0]);
    free(text);
}

static void test_round_trip(void **state)
{
    (void)state;
    gg_err err;
    static const char names[3][GG_NET_NAME_MAX] = {"sT", "cT", "C"};
    memset(&a, 0, sizeof a);
    a.n_inputs = 3;
    int g0 = gg_net_add(&a, GG_OP_LUT3, 0x96, 0, 1, 2, &err);
    int g1 = gg_net_add(&a, GG_OP_ANDNOT, 0, g0, 2, 0, &err);
    int g2 = gg_net_add(&a, GG_OP_NOT, 0, g1, 0, 0, &err);
    gg_net_add(&a, GG_OP_XOR, 0, g2, 0, 0, &err);
    a.n_outputs = 3;
    a.out[0] = (uint16_t)g1, a.out_neg[0] = 1;
    a.out[1] = GG_SIG_CONST0, a.out_neg[1] = 1;
    a.out[2] = 1;
    round_trip(&a, names);
    round_trip(&a, NULL);
}

static void test_readable(void **state)
{
    (void)state;
    gg_err err;
    const char *text = "# Life, a comment line\n"
                       "inputs x y z\n"
                       "g0 = lut3 0xe8 x y z   # majority\n"
                       "\n"
                       "g1 = or g0 x\n"
                       "out ~g1\n";
    assert_int_equal(gg_net_parse_text(text, 1, &a, NULL, &err), 0);
    assert_int_equal(a.n_gates, 2);
    assert_int_equal(a.gate[0].lut, 0xe8);
    assert_int_equal(a.gate[1].op, GG_OP_OR);
    assert_int_equal(a.out[0], 4);
    assert_true(a.out_neg[0]);
}

static void expect_error(const char *text, const char *fragment)
{
    gg_err err = {{0}};
    assert_int_equal(gg_net_parse_text(text, 1, &a, NULL, &err), -1);
    if (!strstr(err.msg, fragment))
        fail_msg("error '%s' lacks '%s'", err.msg, fragment);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("g0 = and x y\nout g0\n", "line 1");
    expect_error("inputs x y\ng0 = nand x y\nout g0\n", "unknown gate");
    expect_error("inputs x y\ng0 = and x g1\nout g0\n", "'g1'");
    expect_error("inputs x y\ng1 = and x y\nout g1\n", "expected 'g0");
    expect_error("inputs x y\ng0 = lut3 x y x\nout g0\n", "8-bit");
    expect_error("inputs x y\ng0 = lut3 0x100 x y x\nout g0\n", "8-bit");
    expect_error("inputs x y\ng0 = and x\nout g0\n", "takes 2");
    expect_error("inputs x y\ng0 = and x y\n", "no 'out'");
    expect_error("inputs x y\ninputs z\n", "second 'inputs'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_readable),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
