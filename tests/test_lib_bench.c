/* libgolgen's Larger than Life bench (golgen_0.4) as its users see it:
 * include/golgen.h alone, the shared library. The soup the header
 * describes, stepped here by a naive Larger than Life step (an oracle
 * that shares no code with golgen: every neighbour counted one by one),
 * ends with the population every backend reports, on tori and bounded
 * planes, boxes and diamonds, two states and more; the defaults are the
 * rule's grid; bad rules, options and backends are refused with a
 * sentence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golgen.h"

/* The rules below, spelled out for the oracle. */
typedef struct ltl {
    int range, states, middle;
    char nbhd; /* 'M' box, 'N' diamond */
    int s_lo, s_hi, b_lo, b_hi;
} ltl;

/* The header's soup: xorshift64 from seed * golden + 1, bit 63. */
static void soup(uint8_t *c, int64_t n, int64_t seed)
{
    uint64_t s = (uint64_t)seed * 0x9e3779b97f4a7c15ull + 1;
    for (int64_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        c[i] = (uint8_t)(s >> 63);
    }
}

/* Live (state 1) cells around (x, y), the middle only when it counts. */
static int count(const ltl *r, const uint8_t *c, int w, int h, int torus,
                 int x, int y)
{
    int n = 0;
    for (int dy = -r->range; dy <= r->range; dy++)
        for (int dx = -r->range; dx <= r->range; dx++) {
            if (r->nbhd == 'N' && abs(dx) + abs(dy) > r->range)
                continue;
            if (!dx && !dy && !r->middle)
                continue;
            int xx = x + dx, yy = y + dy;
            if (torus) {
                xx = (xx + w) % w;
                yy = (yy + h) % h;
            } else if (xx < 0 || yy < 0 || xx >= w || yy >= h) {
                continue;
            }
            n += c[yy * w + xx] == 1;
        }
    return n;
}

/* Golly's Larger than Life: a live cell outside S starts to die (states
 * 2 .. C-1, then 0), a dying cell goes on dying, a dead one is born in B. */
static void step(const ltl *r, uint8_t *c, uint8_t *next, int w, int h,
                 int torus)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int s = c[y * w + x], k = count(r, c, w, h, torus, x, y);
            int to;
            if (s == 0)
                to = k >= r->b_lo && k <= r->b_hi;
            else if (s == 1)
                to = k >= r->s_lo && k <= r->s_hi ? 1
                     : r->states > 2             ? 2
                                                 : 0;
            else
                to = s + 1 < r->states ? s + 1 : 0;
            next[y * w + x] = (uint8_t)to;
        }
    memcpy(c, next, (size_t)w * (size_t)h);
}

/* The population after the warm-up generation and gens more. */
static int64_t oracle(const ltl *r, int w, int h, int torus, int64_t gens,
                      int64_t seed)
{
    uint8_t *c = malloc((size_t)w * (size_t)h);
    uint8_t *next = malloc((size_t)w * (size_t)h);
    assert_non_null(c);
    assert_non_null(next);
    soup(c, (int64_t)w * h, seed);
    for (int64_t g = 0; g < gens + 1; g++)
        step(r, c, next, w, h, torus);
    int64_t pop = 0;
    for (int i = 0; i < w * h; i++)
        pop += c[i] != 0;
    free(c);
    free(next);
    return pop;
}

static void test_populations_match_the_oracle(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        ltl r;
        int w, h, plane;
        int64_t gens, seed;
    } cases[] = {
        {"R2,C0,M1,S3..9,B3..6,NM:T40,30", {2, 2, 1, 'M', 3, 9, 3, 6}, 40,
         30, 0, 3, 5},
        {"R2,C0,M1,S3..9,B3..6,NM:T40,30", {2, 2, 1, 'M', 3, 9, 3, 6}, 40,
         30, 1, 3, 5},
        {"R3,C4,M0,S5..20,B6..9,NN", {3, 4, 0, 'N', 5, 20, 6, 9}, 37, 29, 0,
         4, 11},
        {"R1,C3,M1,S3..4,B3..3,NM", {1, 3, 1, 'M', 3, 4, 3, 3}, 33, 25, 1, 6,
         0},
    };
    static const char *const backends[] = {"reference", "cpu", "auto"};
    char err[1024];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int64_t want = oracle(&cases[i].r, cases[i].w, cases[i].h,
                              !cases[i].plane, cases[i].gens, cases[i].seed);
        for (size_t b = 0; b < 3; b++) {
            golgen_bench_opts o = {.backend = backends[b],
                                   .width = cases[i].w,
                                   .height = cases[i].h,
                                   .gens = cases[i].gens,
                                   .seed = cases[i].seed,
                                   .plane = cases[i].plane};
            golgen_bench_result r;
            int code = golgen_bench_ltl(cases[i].text, &o, &r, err,
                                        sizeof err);
            if (code)
                fail_msg("%s on %s: %s", cases[i].text, backends[b], err);
            assert_int_equal(r.population, want);
            assert_int_equal(r.torus, !cases[i].plane);
            assert_int_equal(r.width, cases[i].w);
            assert_int_equal(r.height, cases[i].h);
            assert_int_equal(r.gens, cases[i].gens);
            if (b < 2)
                assert_string_equal(r.backend, backends[b]);
            assert_true(r.threads >= 1);
            assert_true(r.seconds >= 0 && r.cpu_seconds >= 0 &&
                        r.open_seconds >= 0);
            /* the rule as golgen writes it, its size said apart */
            assert_null(strchr(r.rule, ':'));
            assert_int_equal(strncmp(r.rule, cases[i].text, 2), 0);
        }
    }
}

static void opened(void *ctx, const golgen_bench_result *r)
{
    int *calls = ctx;
    assert_true(r->backend[0] != 0);
    assert_int_equal(r->population, 0); /* before the soup runs */
    ++*calls;
}

static void test_defaults(void **state)
{
    (void)state;
    char err[1024];
    golgen_bench_result r;
    /* all zero: the rule's grid, 100 generations, seed 0, its torus */
    assert_int_equal(golgen_bench_ltl("R1,C0,M1,S3..4,B3..3,NM:T24,20",
                                      NULL, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_int_equal(r.width, 24);
    assert_int_equal(r.height, 20);
    assert_int_equal(r.gens, 100);
    assert_int_equal(r.torus, 1);
    assert_int_equal(r.population,
                     oracle(&(ltl){1, 2, 1, 'M', 3, 4, 3, 3}, 24, 20, 1, 100,
                            0));
    /* a bounded plane's rule runs on its plane; the unbounded plane's on a
     * 1024 x 1024 torus; on_open is told once, before the run */
    int calls = 0;
    golgen_bench_opts o = {.backend = "cpu", .gens = 1, .on_open = opened,
                           .ctx = &calls};
    assert_int_equal(golgen_bench_ltl("R1,C0,M1,S3..4,B3..3,NM:P24,20", &o,
                                      &r, err, sizeof err), GOLGEN_OK);
    assert_int_equal(r.torus, 0);
    assert_int_equal(calls, 1);
    assert_int_equal(golgen_bench_ltl("R1,C0,M1,S3..4,B3..3,NM", &o, &r, err,
                                      sizeof err), GOLGEN_OK);
    assert_int_equal(r.width, 1024);
    assert_int_equal(r.height, 1024);
    assert_int_equal(r.torus, 1);
    assert_int_equal(calls, 2);
    assert_string_equal(r.auto_note, ""); /* a named backend has none */
}

static void test_refusals(void **state)
{
    (void)state;
    char err[1024];
    golgen_bench_result r;
    const char *ltl = "R2,C0,M1,S3..9,B3..6,NM";
    assert_int_equal(golgen_bench_ltl("B3/S23", NULL, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_true(err[0] != 0);
    assert_int_equal(golgen_bench_ltl(NULL, NULL, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "no rule"));
    golgen_bench_opts o = {.backend = "nosuch"};
    assert_int_equal(golgen_bench_ltl(ltl, &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "unknown backend 'nosuch'"));
    o.backend = "opencl";
    assert_int_equal(golgen_bench_ltl(ltl, &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "does not run Larger than Life rules"));
    o = (golgen_bench_opts){.width = 30}; /* no height */
    assert_int_equal(golgen_bench_ltl(ltl, &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "width and height"));
    o = (golgen_bench_opts){.gens = -1};
    assert_int_equal(golgen_bench_ltl(ltl, &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
}

static void test_is_ltl(void **state)
{
    (void)state;
    assert_int_equal(golgen_rule_is_ltl("R2,C0,M1,S3..9,B3..6,NM"), 1);
    assert_int_equal(golgen_rule_is_ltl("5,34,45,34,58"), 1);
    assert_int_equal(golgen_rule_is_ltl("B3/S23"), 0);
    assert_int_equal(golgen_rule_is_ltl("3D5..7/6"), 0);
    assert_int_equal(golgen_rule_is_ltl(NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_populations_match_the_oracle),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_is_ltl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
