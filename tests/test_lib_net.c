/* libgolgen's networks (golgen_0.3) as its users see them: include/golgen.h
 * alone, the shared library. golgen_verify on every family it takes and on
 * a damaged cache entry; golgen_synth's network read back from its text
 * and evaluated here, gate by gate, on all 512 neighbourhoods against the
 * rule's B/S counts (an oracle that shares no code with golgen), stored
 * in a private cache and found there again by synth and verify; a stop
 * flag set before the call; bad options refused by name; a rule's
 * description against its counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "golgen.h"

/* ---- an evaluator of golgen's network text, written from its format:
 * "inputs A B ...", "gK = op args" (and, or, xor, andnot, not, lut3 0xNN a
 * b c with a the high bit of the index), "out [~]name" or "out 0|1" ---- */

#define MAXSIG 600

typedef struct evaluator {
    char names[MAXSIG][16];
    int n;
    unsigned value[MAXSIG];
} evaluator;

static int lookup(const evaluator *e, const char *name)
{
    for (int i = 0; i < e->n; i++)
        if (!strcmp(e->names[i], name))
            return i;
    fail_msg("network names an unknown signal '%s'", name);
    return -1;
}

/* The network's output for inputs (bit i of `in` is input i). */
static int eval_text(const char *text, unsigned in, int *n_gates)
{
    evaluator *e = calloc(1, sizeof *e);
    char *copy = strdup(text), *save = NULL, *line;
    int out = -1, inputs = 0;
    *n_gates = 0;
    for (line = strtok_r(copy, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char op[16], a[16], b[16], c[16], name[16];
        unsigned lut;
        if (!strncmp(line, "inputs", 6)) {
            int off = 6, used;
            while (sscanf(line + off, "%15s%n", e->names[e->n], &used) == 1) {
                e->value[e->n] = in >> inputs++ & 1;
                e->n++;
                off += used;
            }
        } else if (!strncmp(line, "out ", 4)) {
            const char *s = line + 4;
            bool neg = *s == '~';
            if (!strcmp(s, "0") || !strcmp(s, "1"))
                out = *s - '0';
            else
                out = e->value[lookup(e, s + neg)] ^ neg;
        } else {
            int got = sscanf(line, "%15s = %15s", name, op);
            assert_int_equal(got, 2);
            unsigned v = 0;
            const char *args = strchr(line, '=') + 2 + strlen(op);
            if (!strcmp(op, "lut3")) {
                assert_int_equal(sscanf(args, " 0x%x %15s %15s %15s", &lut,
                                        a, b, c), 4);
                unsigned i = e->value[lookup(e, a)] << 2 |
                             e->value[lookup(e, b)] << 1 |
                             e->value[lookup(e, c)];
                v = lut >> i & 1;
            } else if (!strcmp(op, "not")) {
                assert_int_equal(sscanf(args, " %15s", a), 1);
                v = !e->value[lookup(e, a)];
            } else {
                assert_int_equal(sscanf(args, " %15s %15s", a, b), 2);
                unsigned x = e->value[lookup(e, a)], y = e->value[lookup(e, b)];
                if (!strcmp(op, "and"))
                    v = x & y;
                else if (!strcmp(op, "or"))
                    v = x | y;
                else if (!strcmp(op, "xor"))
                    v = x ^ y;
                else if (!strcmp(op, "andnot"))
                    v = x & !y;
                else
                    fail_msg("unknown op '%s'", op);
            }
            assert_true(e->n < MAXSIG);
            snprintf(e->names[e->n], sizeof e->names[0], "%s", name);
            e->value[e->n++] = v;
            ++*n_gates;
        }
    }
    free(copy);
    free(e);
    assert_true(out == 0 || out == 1);
    return out;
}

/* The rule's next state for front "none" inputs NW N NE W E SW S SE C
 * (bit 0 .. bit 8): birth and survival masks by live-neighbour count. */
static int rule_next(unsigned in, uint32_t birth, uint32_t survive)
{
    int count = __builtin_popcount(in & 0xFF), centre = in >> 8 & 1;
    return (centre ? survive : birth) >> count & 1;
}

/* net is right on every neighbourhood; returns its gate count. */
static int check_network(const char *net, uint32_t birth, uint32_t survive)
{
    assert_non_null(strstr(net, "inputs NW N NE W E SW S SE C\n"));
    int gates = 0;
    for (unsigned in = 0; in < 512; in++)
        if (eval_text(net, in, &gates) != rule_next(in, birth, survive))
            fail_msg("wrong on neighbourhood %u:\n%s", in, net);
    return gates;
}

static char *make_root(void)
{
    char tmpl[] = "/tmp/golgen-libnet-XXXXXX";
    char *root = mkdtemp(tmpl);
    assert_non_null(root);
    return strdup(root);
}

static void remove_root(const char *root)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

static int kinds_sum(const golgen_gates *g)
{
    int n = 0;
    for (int i = 0; i < g->n_kinds; i++)
        n += g->kind[i].count;
    return n;
}

/* ---- verify ---- */

static void test_verify_life(void **state)
{
    (void)state;
    golgen_verify_result *r = NULL;
    char err[512];
    assert_int_equal(golgen_verify("B3/S23", NULL, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_true(r->passed);
    assert_int_equal(r->dims, 2);
    assert_string_equal(r->rule, "B3/S23");
    assert_string_equal(r->front, "rowsum");
    assert_string_equal(r->lib, "lut3");
    assert_int_equal(r->rows, 512);
    assert_int_equal(r->neighbours, 8);
    assert_int_equal(r->wrong, 0);
    assert_int_equal(r->first_bad, -1);
    /* the source tree's cache holds Life's proven 6-LUT network */
    assert_true(r->cached);
    assert_true(r->proven);
    assert_non_null(strstr(r->cache_path, "rowsum/lut3/B3_S23.net"));
    assert_int_equal(r->final_gates.total, 6);
    assert_int_equal(kinds_sum(&r->final_gates), r->final_gates.total);
    assert_int_equal(kinds_sum(&r->front_gates), r->front_gates.total);
    assert_int_equal(r->ops_per_word, r->front_per_word + r->final_gates.total);
    /* the cache file itself: one "gK = " line per final-stage gate */
    FILE *f = fopen(r->cache_path, "r");
    assert_non_null(f);
    char line[512];
    int gates = 0;
    while (fgets(line, sizeof line, f))
        gates += line[0] == 'g' && strstr(line, " = ") != NULL;
    fclose(f);
    assert_int_equal(gates, r->final_gates.total);
    golgen_verify_free(r);
}

static void test_verify_families(void **state)
{
    (void)state;
    golgen_verify_result *r = NULL;
    char err[512];
    /* Generations: the two-state circuit, then the per-cell stage */
    assert_int_equal(golgen_verify("23/3/3", NULL, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_true(r->passed);
    assert_string_equal(r->rule, "B3/S23");
    assert_int_equal(r->states, 3);
    assert_int_equal(r->gen_status, 0);
    assert_true(r->planes >= 2);
    assert_true(r->next_gates.total > 0);
    golgen_verify_free(r);
    /* Hensel, gate2, front none */
    golgen_verify_opts o = {.lib = "gate2", .front = "none"};
    assert_int_equal(golgen_verify("B2n3/S23-q", &o, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_true(r->passed);
    assert_string_equal(r->front, "none");
    assert_string_equal(r->lib, "gate2");
    assert_int_equal(r->front_gates.total, 0);
    golgen_verify_free(r);
    /* 3D: every (count, centre) pair of the 26-cell Moore neighbourhood */
    assert_int_equal(golgen_verify("3D5..7/6", NULL, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_int_equal(r->dims, 3);
    assert_true(r->passed);
    assert_int_equal(r->neighbours, 26);
    assert_int_equal(r->rows, 2 * 27);
    assert_true(r->count_bits >= 5);
    golgen_verify_free(r);
}

static void test_verify_errors(void **state)
{
    (void)state;
    golgen_verify_result *r = (void *)1;
    char err[512];
    assert_int_equal(golgen_verify("B3/S2x", NULL, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_null(r);
    assert_true(strlen(err) > 10);
    golgen_verify_opts o = {.lib = "lut4"};
    assert_int_equal(golgen_verify("B3/S23", &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "lut4"));
    o = (golgen_verify_opts){.front = "diagonal"};
    assert_int_equal(golgen_verify("B3/S23", &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_verify(NULL, NULL, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_verify("B3/S23", NULL, NULL, NULL, 0),
                     GOLGEN_ERR_INPUT);
}

/* ---- synth ---- */

static golgen_synth_opts quick(const char *lib, const char *root)
{
    golgen_synth_opts o;
    golgen_synth_defaults(&o);
    o.lib = lib;
    o.front = "none";
    o.cache_root = root;
    o.time_limit = 4;
    o.resynth_time = 0.5;
    o.threads = 1;
    return o;
}

/* A network found, stored in a private cache, and found there again by
 * synth and by verify; each one right on every neighbourhood. */
static void test_synth_store_and_find(void **state)
{
    (void)state;
    if (!golgen_solver_available("any"))
        skip();
    char *root = make_root(), err[512];
    golgen_synth_opts o = quick("gate2", root);
    golgen_synth_result *r = NULL, *again = NULL;
    /* B1/S1 (each cell alive next when exactly one neighbour is) */
    const uint32_t b = 1u << 1, s = 1u << 1;
    assert_int_equal(golgen_synth("B1/S1", &o, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_string_equal(r->rule, "B1/S1");
    assert_string_equal(r->front, "none");
    assert_string_equal(r->lib, "gate2");
    assert_false(r->cached);
    assert_int_equal(check_network(r->network, b, s), r->gates);
    assert_true(r->gates > 0 && r->gates <= 40);
    assert_true(r->lower_bound <= r->gates);
    assert_int_equal(r->ops_per_word, r->shifts + r->front_ops +
                                          r->final_ops + r->not_ops);
    assert_int_equal(r->final_ops, r->gates);
    assert_int_equal(r->front_ops, 0); /* front none */
    assert_true(r->n_k >= 0 && r->n_k <= GOLGEN_SYNTH_MAX_K);
    for (int i = 0; i < r->n_k; i++)
        assert_true(!strcmp(r->per_k[i].status, "SAT") ||
                    !strcmp(r->per_k[i].status, "UNSAT") ||
                    !strcmp(r->per_k[i].status, "unknown"));
    /* the cache's answer now, the same network */
    assert_int_equal(golgen_synth("B1/S1", &o, &again, err, sizeof err),
                     GOLGEN_OK);
    assert_true(again->cached);
    assert_int_equal(again->gates, r->gates);
    assert_string_equal(again->network, r->network);
    assert_int_equal(again->n_k, 0);
    /* and verify finds it under the same root */
    golgen_verify_opts v = {.front = "none", .lib = "gate2",
                            .cache_root = root};
    golgen_verify_result *vr = NULL;
    assert_int_equal(golgen_verify("B1/S1", &v, &vr, err, sizeof err),
                     GOLGEN_OK);
    assert_true(vr->passed);
    assert_true(vr->cached);
    assert_int_equal(vr->final_gates.total, r->gates);
    assert_non_null(strstr(vr->cache_path, root));
    golgen_verify_free(vr);
    golgen_synth_free(again);
    golgen_synth_free(r);
    remove_root(root);
    free(root);
}

/* A damaged cache entry: verify and synth refuse it as a failed check;
 * synth's force searches afresh and replaces it. */
static void test_damaged_entry(void **state)
{
    (void)state;
    if (!golgen_solver_available("any"))
        skip();
    char *root = make_root(), err[512];
    golgen_synth_opts o = quick("lut3", root);
    golgen_synth_result *r = NULL;
    assert_int_equal(golgen_synth("B2/S", &o, &r, err, sizeof err),
                     GOLGEN_OK);
    int gates = check_network(r->network, 1u << 2, 0);
    golgen_synth_free(r);
    golgen_verify_opts v = {.front = "none", .cache_root = root};
    golgen_verify_result *vr = NULL;
    assert_int_equal(golgen_verify("B2/S", &v, &vr, err, sizeof err),
                     GOLGEN_OK);
    assert_true(vr->cached);
    /* flip one LUT's bits in the stored file */
    char path[4096];
    snprintf(path, sizeof path, "%s", vr->cache_path);
    golgen_verify_free(vr);
    FILE *f = fopen(path, "r+");
    assert_non_null(f);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    char *lut = strstr(text, "lut3 0x");
    assert_non_null(lut);
    lut[7] = lut[7] == 'f' ? '0' : 'f';
    rewind(f);
    assert_int_equal(fwrite(text, 1, n, f), n);
    fclose(f);
    assert_int_equal(golgen_verify("B2/S", &v, &vr, err, sizeof err),
                     GOLGEN_ERR_CHECK);
    assert_int_equal(golgen_synth("B2/S", &o, &r, err, sizeof err),
                     GOLGEN_ERR_CHECK);
    assert_null(r);
    o.force = 1;
    assert_int_equal(golgen_synth("B2/S", &o, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_true(check_network(r->network, 1u << 2, 0) <= gates);
    golgen_synth_free(r);
    assert_int_equal(golgen_verify("B2/S", &v, &vr, err, sizeof err),
                     GOLGEN_OK);
    assert_true(vr->passed);
    golgen_verify_free(vr);
    remove_root(root);
    free(root);
}

/* Stopped before it starts: the best start, unproven, still right. */
static void test_synth_stop(void **state)
{
    (void)state;
    if (!golgen_solver_available("any"))
        skip();
    volatile int stop = 1;
    golgen_synth_opts o = quick("lut3", NULL);
    o.no_store = 1;
    o.stop = &stop;
    o.time_limit = 0; /* none: only the flag ends it */
    golgen_synth_result *r = NULL;
    char err[512];
    /* B36/S23 (HighLife) */
    assert_int_equal(golgen_synth("B36/S23", &o, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_true(r->stopped);
    assert_false(r->proven);
    assert_false(r->cached);
    check_network(r->network, 1u << 3 | 1u << 6, 1u << 2 | 1u << 3);
    golgen_synth_free(r);
}

static void test_synth_errors(void **state)
{
    (void)state;
    golgen_synth_opts o;
    golgen_synth_defaults(&o);
    golgen_synth_result *r = (void *)1;
    char err[512];
    assert_int_equal(golgen_synth("B3/S2x", &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_null(r);
    /* a Generations rule: its two-state rule is the one to search */
    assert_int_equal(golgen_synth("23/3/3", &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "B3/S23"));
    o.k_min = 6;
    o.k_max = 5;
    assert_int_equal(golgen_synth("B3/S23", &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "k-min"));
    golgen_synth_defaults(&o);
    o.solver = "minisat";
    assert_int_equal(golgen_synth("B3/S23", &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "minisat"));
    golgen_synth_defaults(&o);
    o.resynth_leaves = 2;
    assert_int_equal(golgen_synth("B3/S23", &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    golgen_synth_defaults(&o);
    o.front = "rowsum+cells"; /* composed: for rules whose arrangement
                                 matters only */
    o.no_store = 1;
    assert_int_equal(golgen_synth("B3/S23", &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_synth(NULL, NULL, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_solver_available("no such solver"), 0);
}

/* The cache's answer through the defaults (no search): Life's proven
 * network, its text right on every neighbourhood of the rowsum front's
 * inputs is verify's job; here the counts agree with verify's. */
static void test_synth_cached_life(void **state)
{
    (void)state;
    golgen_synth_result *r = NULL;
    golgen_verify_result *v = NULL;
    char err[512];
    assert_int_equal(golgen_synth("B3/S23", NULL, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_int_equal(golgen_verify("B3/S23", NULL, &v, err, sizeof err),
                     GOLGEN_OK);
    assert_true(r->cached);
    assert_true(r->proven);
    assert_int_equal(r->gates, v->final_gates.total);
    assert_int_equal(r->lower_bound, r->gates);
    assert_int_equal(r->front_ops, v->front_per_word);
    assert_int_equal(r->shifts, v->shifts_per_word);
    assert_string_equal(r->search, v->search);
    assert_non_null(strstr(r->network, "inputs sT cT sM cM sB cB C\n"));
    golgen_verify_free(v);
    golgen_synth_free(r);
}

/* ---- what a rule string means ---- */

static char *describe(const char *text)
{
    char *d = NULL, err[512];
    size_t len = 0;
    int rc = golgen_rule_describe(text, NULL, &d, &len, err, sizeof err);
    if (rc)
        fail_msg("%s: %s", text, err);
    assert_int_equal(strlen(d), len);
    return d;
}

static void test_describe(void **state)
{
    (void)state;
    /* Life's table: 56 dead cells with 3 of 8 neighbours, 28 + 56 live
     * ones with 2 or 3: 140 of 512 rows on */
    char *d = describe("B3/S23:T64,64");
    assert_non_null(strstr(d, "rule:           B3/S23:T64,64\n"));
    assert_non_null(strstr(d, "512 rows (centre + 8 neighbours), 140 on\n"));
    assert_non_null(strstr(d, "birth:          3\n"));
    assert_non_null(strstr(d, "survival:       2 3\n"));
    assert_non_null(strstr(d, "torus 64 x 64"));
    golgen_free(d);
    d = describe("/2/3"); /* Brian's Brain */
    assert_non_null(strstr(d, "Generations, 3 states"));
    assert_non_null(strstr(d, "survival:       (none)\n"));
    golgen_free(d);
    d = describe("R5,C0,M1,S34..58,B34..45,NM");
    assert_non_null(strstr(d, "Larger than Life, range 5"));
    assert_non_null(strstr(d, "survival:       34..58\n"));
    golgen_free(d);
    d = describe("3D5..7/6");
    assert_non_null(strstr(d, "3D totalistic"));
    golgen_free(d);
    assert_true(golgen_rule_is_3d("3D5..7/6"));
    assert_false(golgen_rule_is_3d("B3/S23"));
    assert_false(golgen_rule_is_3d(NULL));
    char *none = (char *)1, err[512];
    size_t len;
    assert_int_equal(golgen_rule_describe("NoSuchRuleAnywhere", NULL, &none,
                                          &len, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_null(none);
    assert_non_null(strstr(err, "nor a rule file"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_verify_life),
        cmocka_unit_test(test_verify_families),
        cmocka_unit_test(test_verify_errors),
        cmocka_unit_test(test_synth_cached_life),
        cmocka_unit_test(test_synth_errors),
        cmocka_unit_test(test_synth_stop),
        cmocka_unit_test(test_synth_store_and_find),
        cmocka_unit_test(test_damaged_entry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
