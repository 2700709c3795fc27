/* 3D totalistic rules (issue 16 part 3): 3D.lua notation, RLE3 files, the
 * 3D reference against an independent counter written here, the emitted
 * cpu kernel against the reference, and the CLI's 3D path. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "cpu3d.h"
#include "cuda3d.h"
#include "emit_c3d.h"
#include "emit_cuda3d.h"
#include "grid3d.h"
#include "pattern_rle3.h"
#include "reference3d.h"
#include "rule3d.h"
#include "test_util.h"

/* ---- notation ---- */

static void canon(const char *in, const char *want)
{
    gg_rule3d r;
    gg_err err = {{0}};
    if (gg_rule3d_parse(in, &r, &err))
        fail_msg("%s: %s", in, err.msg);
    char buf[320];
    gg_rule3d_format(&r, buf, sizeof buf);
    if (strcmp(buf, want))
        fail_msg("%s formats as %s, want %s", in, buf, want);
    /* the canonical form reads back to itself */
    gg_rule3d r2;
    assert_int_equal(gg_rule3d_parse(buf, &r2, &err), 0);
    assert_int_equal(r2.birth, r.birth);
    assert_int_equal(r2.survive, r.survive);
    assert_int_equal(r2.nbhd, r.nbhd);
}

static void test_parse_format(void **state)
{
    (void)state;
    /* 3D.lua's examples and its CanonicalForm (runs of 2 as a,b; of 3+ as
     * a..b; V written as F) */
    canon("3D5..7/6", "3D5..7/6");
    canon("3D4,5/5", "3D4,5/5");
    canon("3D2,3/3", "3D2,3/3");
    canon("3d5,6,7/6", "3D5..7/6");
    canon("3D4,5/5V", "3D4,5/5F");
    canon("3D4,5/5f", "3D4,5/5F");
    canon("3D0..26/1..26", "3D0..26/1..26");
    canon("3D/3", "3D/3");
    canon("3D3/", "3D3/");
    canon("3D1,2,3,5,6/4H", "3D1..3,5,6/4H");
    canon("3D2,3,4,6..8/3C", "3D2..4,6..8/3C");
    canon("3D5,6,/6", "3D5,6/6");
    canon("3D5..7/6:T64", "3D5..7/6:T64");
    canon("3D5..7/6:t64,64,64", "3D5..7/6:T64");
    canon("3D5..7/6:T64,32,16", "3D5..7/6:T64,32,16");
    canon("3D4,5/5E:p9", "3D4,5/5E:P9");
    gg_rule3d r;
    gg_err err;
    assert_int_equal(gg_rule3d_parse("3D5..7/6", &r, &err), 0);
    assert_int_equal(r.survive, (1u << 5) | (1u << 6) | (1u << 7));
    assert_int_equal(r.birth, 1u << 6);
    assert_int_equal(r.n_neighbours, 26);
    assert_int_equal(r.topo, GG_TOPO3D_SIZED_BY_PATTERN);
    assert_int_equal(gg_rule3d_parse("3D1/1E:T5,6,7", &r, &err), 0);
    assert_int_equal(r.n_neighbours, 12);
    assert_int_equal(r.sx, 5);
    assert_int_equal(r.sy, 6);
    assert_int_equal(r.sz, 7);
    assert_true(gg_rule3d_is_3d("3d5/6"));
    assert_false(gg_rule3d_is_3d("B3/S23"));
}

static void bad(const char *in, const char *needle)
{
    gg_rule3d r;
    gg_err err = {{0}};
    if (!gg_rule3d_parse(in, &r, &err))
        fail_msg("%s parsed", in);
    if (!strstr(err.msg, needle))
        fail_msg("%s: '%s' lacks '%s'", in, err.msg, needle);
    if (!strstr(err.msg, in))
        fail_msg("%s: '%s' does not name the rule", in, err.msg);
}

static void test_parse_errors(void **state)
{
    (void)state;
    bad("3D5..7/6/7", "column 9");
    bad("3D5..7/0", "column 8");      /* births run 1..26 */
    bad("3D5..7/27", "column 8");
    bad("3D9/6F", "column 3");        /* face: 0..6 */
    bad("3D7..5/6", "column 6");
    bad("3D5x/6", "'x' at column 4");
    bad("3D,5/6", "column 3");
    bad("3D5..7", "no '/'");
    bad("B3/S23x", "starts with 3D");
    bad("3D5..7/6:T0", "unbounded");
    bad("3D5..7/6:P", "unbounded");
    bad("3D5..7/6:T5,5", "one or three");
    bad("3D5..7/6:Q5", "column 10");
    bad("3D5..7/6:T5,5,5,5", "column 16");
    bad("BusyBoxes", "BusyBoxes");
}

/* ---- RLE3 ---- */

static void test_rle3_exact(void **state)
{
    (void)state;
    /* 3D.lua's WritePattern: header, pos of the live box, comments, x=
     * line, runs of 2 as "oo", trailing b and $ dropped, '/' between
     * planes */
    gg_grid3d g;
    gg_err err;
    assert_int_equal(gg_grid3d_init(&g, 8, 8, 8, &err), 0);
    gg_grid3d_set(&g, 2, 3, 4, 1);
    gg_grid3d_set(&g, 3, 3, 4, 1);
    gg_grid3d_set(&g, 4, 5, 4, 1);
    gg_grid3d_set(&g, 2, 3, 6, 1);
    char *s;
    size_t n;
    assert_int_equal(gg_rle3_format(&g, "3D5..7/6", 7, "#C hi\n", &s, &n,
                                    &err), 0);
    assert_string_equal(s, "3D version=1 size=8 pos=2,3,4 gen=7\n#C hi\n"
                           "x=3 y=3 z=3 rule=3D5..7/6\noo$$bbo//o!\n");
    gg_rle3 p;
    assert_int_equal(gg_rle3_parse(s, n, "t", &p, &err), 0);
    assert_int_equal(p.size, 8);
    assert_int_equal(p.pos[0], 2);
    assert_int_equal(p.pos[2], 4);
    assert_int_equal(p.gen, 7);
    assert_string_equal(p.rule, "3D5..7/6");
    assert_string_equal(p.comments, "#C hi\n");
    assert_int_equal(gg_grid3d_population(&p.cells), 4);
    assert_true(gg_grid3d_get(&p.cells, 2, 2, 0));
    assert_true(gg_grid3d_get(&p.cells, 0, 0, 2));
    gg_rle3_free(&p);
    free(s);
    /* empty grid */
    memset(g.bits, 0, (size_t)gg_grid3d_words(&g) * 8);
    assert_int_equal(gg_rle3_format(&g, "3D4,5/5", 0, NULL, &s, &n, &err),
                     0);
    assert_string_equal(s, "3D version=1 size=8\nx=0 y=0 z=0 "
                           "rule=3D4,5/5\n!\n");
    assert_int_equal(gg_rle3_parse(s, n, "t", &p, &err), 0);
    assert_null(p.cells.bits);
    gg_rle3_free(&p);
    free(s);
    gg_grid3d_free(&g);
}

static void test_rle3_round_trip(void **state)
{
    (void)state;
    static const int64_t sizes[][3] = {{21, 21, 21}, {70, 9, 5}, {1, 1, 1}};
    for (int k = 0; k < 3; k++) {
        gg_grid3d g, h;
        gg_err err;
        assert_int_equal(gg_grid3d_init(&g, sizes[k][0], sizes[k][1],
                                        sizes[k][2], &err), 0);
        gg_grid3d_random(&g, k == 1 ? 0.2 : 0.5, 77 + (uint64_t)k);
        char *s;
        size_t n;
        assert_int_equal(gg_rle3_format(&g, "3D5..7/6", 0, NULL, &s, &n,
                                        &err), 0);
        /* 3D.lua wraps before 71 columns */
        for (char *l = s; *l;) {
            size_t len = strcspn(l, "\n");
            assert_true(len <= 70 || l == s);
            l += len + (l[len] == '\n');
        }
        gg_rle3 p;
        if (gg_rle3_parse(s, n, "rt", &p, &err))
            fail_msg("%s", err.msg);
        assert_int_equal(gg_grid3d_init(&h, sizes[k][0], sizes[k][1],
                                        sizes[k][2], &err), 0);
        for (int64_t z = 0; z < p.d; z++)
            for (int64_t y = 0; y < p.h; y++)
                for (int64_t x = 0; x < p.w; x++)
                    if (gg_grid3d_get(&p.cells, x, y, z))
                        gg_grid3d_set(&h, x + p.pos[0], y + p.pos[1],
                                      z + p.pos[2], 1);
        assert_true(gg_grid3d_equal(&g, &h));
        gg_rle3_free(&p);
        free(s);
        gg_grid3d_free(&g);
        gg_grid3d_free(&h);
    }
}

static void rle_bad(const char *text, const char *needle)
{
    gg_rle3 p;
    gg_err err = {{0}};
    if (!gg_rle3_parse(text, strlen(text), "f.rle3", &p, &err)) {
        gg_rle3_free(&p);
        fail_msg("parsed: %s", text);
    }
    if (!strstr(err.msg, needle))
        fail_msg("'%s' lacks '%s'", err.msg, needle);
}

static void test_rle3_malformed(void **state)
{
    (void)state;
    rle_bad("", "no 'x=");
    rle_bad("hello\n", "f.rle3:1:1");
    rle_bad("3D version=2 size=8\nx=1 y=1 z=1 rule=3D5..7/6\no!\n",
            "version");
    rle_bad("3D size=abc\n", "f.rle3:1:");
    rle_bad("3D version=1 size=8\no!\n", "f.rle3:2:1: cells before");
    rle_bad("3D version=1 size=8\nx=2 y=1 z=1 rule=3D5..7/6\noq!\n",
            "f.rle3:3:2: unexpected character 'q'");
    rle_bad("3D version=1 size=8\nx=2 y=1 z=1 rule=3D5..7/6\n3o!\n",
            "f.rle3:3:2: a live cell outside");
    rle_bad("3D version=1 size=8\nx=2 y=1 z=1 rule=3D5..7/6\nb$o!\n",
            "outside");
    rle_bad("3D version=1 size=8\nx=2 y=1 z=1 rule=3D5..7/6\noo\n",
            "truncated");
    rle_bad("3D version=1 size=8\nx=2 y=1 rule=3D5..7/6\no!\n",
            "f.rle3:2:8: expected ' z='");
    rle_bad("3D version=1 size=8\nx=9 y=1 z=1 rule=3D5..7/6\no!\n",
            "bigger than the grid");
    rle_bad("3D version=1 size=8 pos=7,0,0\nx=2 y=1 z=1 rule=3D5..7/6\no!\n",
            "outside the grid");
    rle_bad("3D version=1 size=8 pos=1,2\nx=2 y=1 z=1 rule=3D5..7/6\no!\n",
            "pos");
    rle_bad("3D version=1 size=8\nx=2 y=1 z=1 rule=3D5..7/6\n"
            "99999999999999999o!\n", "too large");
    rle_bad("3D version=1 size=8\nx=2 y=1 z=1 rule=\no!\n", "empty");
    rle_bad("3D version=1 size=99999999999\nx=1 y=1 z=1 rule=3D/3\no!\n",
            "size");
    static const char nul[] = "3D version=1\nx=1 y=1 z=1 rule=3D/3\no\0!\n";
    gg_rle3 p;
    gg_err err;
    assert_int_equal(gg_rle3_parse(nul, sizeof nul - 1, "n", &p, &err), -1);
    assert_non_null(strstr(err.msg, "NUL"));
    /* accepted: CR line ends, a run count across a line break, blank
     * lines, a missing size (3D.lua's 100) */
    const char *ok = "3D version=1\r\nx=12 y=1 z=1 rule=3D5..7/6\r\n1\r\n2o!";
    assert_int_equal(gg_rle3_parse(ok, strlen(ok), "ok", &p, &err), 0);
    assert_int_equal(p.size, 100);
    assert_int_equal(gg_grid3d_population(&p.cells), 12);
    gg_rle3_free(&p);
}

/* ---- the reference against an independent counter ---- */

/* This counter shares nothing with runtime/: neighbourhoods are defined
 * by their geometry here (hexahedral by its list in Golly's source, in
 * another order), cells are bytes. */
static int in_nbhd(gg_nbhd3d nb, int dx, int dy, int dz)
{
    int nz = (dx != 0) + (dy != 0) + (dz != 0);
    if (!nz)
        return 0;
    switch (nb) {
    case GG_NBHD3D_MOORE: return 1;
    case GG_NBHD3D_FACE: return nz == 1;
    case GG_NBHD3D_CORNER: return nz == 3;
    case GG_NBHD3D_EDGE: return nz == 2;
    case GG_NBHD3D_HEX: {
        static const int h[12][3] = {
            {-1, 1, 0}, {1, -1, 0}, {-1, 0, 0}, {-1, 0, 1}, {0, -1, 0},
            {0, -1, 1}, {0, 1, 0},  {0, 1, -1}, {0, 0, 1},  {0, 0, -1},
            {1, 0, 0},  {1, 0, -1}};
        for (int k = 0; k < 12; k++)
            if (h[k][0] == dx && h[k][1] == dy && h[k][2] == dz)
                return 1;
        return 0;
    }
    default: return 0;
    }
}

static void plain_step(const gg_rule3d *r, bool torus, int X, int Y, int Z,
                       const unsigned char *a, unsigned char *b)
{
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) {
                int n = 0;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            if (!in_nbhd(r->nbhd, dx, dy, dz))
                                continue;
                            int u = x + dx, v = y + dy, w = z + dz;
                            if (torus) {
                                u = (u + X) % X;
                                v = (v + Y) % Y;
                                w = (w + Z) % Z;
                            } else if (u < 0 || v < 0 || w < 0 || u >= X ||
                                       v >= Y || w >= Z)
                                continue;
                            n += a[(w * Y + v) * X + u];
                        }
                int c = a[(z * Y + y) * X + x];
                uint32_t set = c ? r->survive : r->birth;
                b[(z * Y + y) * X + x] = (set >> n) & 1u;
            }
}

static const char *const rules[] = {
    "3D5..7/6",  "3D4,5/5",   "3D2,3/3",    "3D0..3,9..26/1..4,13",
    "3D1,3/2,3F", "3D0,2/1,3C", "3D1..3/2,5E", "3D2,4/1,3H",
};

static void test_reference_vs_plain(void **state)
{
    (void)state;
    static const int sizes[][4] = {
        {7, 5, 3, 1}, {9, 7, 5, 0}, {67, 3, 5, 1}, {3, 3, 3, 1},
        {2, 1, 3, 1}, {11, 4, 6, 0}};
    for (size_t ri = 0; ri < sizeof rules / sizeof *rules; ri++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            gg_rule3d r;
            gg_err err;
            assert_int_equal(gg_rule3d_parse(rules[ri], &r, &err), 0);
            int X = sizes[si][0], Y = sizes[si][1], Z = sizes[si][2];
            bool torus = sizes[si][3];
            gg_grid3d g;
            assert_int_equal(gg_grid3d_init(&g, X, Y, Z, &err), 0);
            gg_grid3d_random(&g, 0.4, ri * 31 + si);
            unsigned char *a = calloc((size_t)(X * Y * Z), 1),
                          *b = calloc((size_t)(X * Y * Z), 1);
            for (int z = 0; z < Z; z++)
                for (int y = 0; y < Y; y++)
                    for (int x = 0; x < X; x++)
                        a[(z * Y + y) * X + x] =
                            (unsigned char)gg_grid3d_get(&g, x, y, z);
            for (int gen = 0; gen < 3; gen++) {
                plain_step(&r, torus, X, Y, Z, a, b);
                memcpy(a, b, (size_t)(X * Y * Z));
            }
            assert_int_equal(gg_ref3d_run(&r, torus, &g, 3, &err), 0);
            for (int z = 0; z < Z; z++)
                for (int y = 0; y < Y; y++)
                    for (int x = 0; x < X; x++)
                        if (a[(z * Y + y) * X + x] !=
                            gg_grid3d_get(&g, x, y, z))
                            fail_msg("%s %dx%dx%d %s: (%d,%d,%d) differs",
                                     rules[ri], X, Y, Z,
                                     torus ? "torus" : "box", x, y, z);
            free(a);
            free(b);
            gg_grid3d_free(&g);
        }
}

/* Known facts, derived by hand: under 3D5..7/6 a 2x2x2 cube is a still
 * life (each cell has 7 live neighbours; outside cells touch at most 4);
 * under 3D/3 (births only) three cells in a row in a plane give birth to
 * the 8 + ... cells with exactly 3 neighbours and die themselves. */
static void test_known(void **state)
{
    (void)state;
    gg_rule3d r;
    gg_err err;
    gg_grid3d g, h;
    assert_int_equal(gg_rule3d_parse("3D5..7/6", &r, &err), 0);
    assert_int_equal(gg_grid3d_init(&g, 10, 10, 10, &err), 0);
    for (int k = 0; k < 8; k++)
        gg_grid3d_set(&g, 4 + (k & 1), 4 + ((k >> 1) & 1), 4 + (k >> 2), 1);
    assert_int_equal(gg_grid3d_copy(&h, &g, &err), 0);
    assert_int_equal(gg_ref3d_run(&r, true, &g, 5, &err), 0);
    assert_true(gg_grid3d_equal(&g, &h));
    gg_grid3d_free(&h);
    gg_grid3d_free(&g);
    /* face rule 3D/1F: one cell becomes its 6 face neighbours */
    assert_int_equal(gg_rule3d_parse("3D/1F", &r, &err), 0);
    assert_int_equal(gg_grid3d_init(&g, 5, 5, 5, &err), 0);
    gg_grid3d_set(&g, 2, 2, 2, 1);
    assert_int_equal(gg_ref3d_run(&r, false, &g, 1, &err), 0);
    assert_int_equal(gg_grid3d_population(&g), 6);
    assert_true(gg_grid3d_get(&g, 2, 2, 1) && gg_grid3d_get(&g, 1, 2, 2));
    gg_grid3d_free(&g);
}

/* ---- the cpu kernel ---- */

static gg_config test_cfg(void)
{
    gg_config c;
    gg_config_defaults(&c);
    snprintf(c.cache_dir, sizeof c.cache_dir, "%s", gg_test_dir);
    return c;
}

static void test_cpu_vs_reference(void **state)
{
    (void)state;
    gg_config cfg = test_cfg();
    static const int64_t sizes[][4] = {
        {131, 9, 7, 1}, {131, 9, 7, 0}, {64, 5, 3, 1}, {65, 3, 11, 0},
        {5, 5, 5, 1},   {200, 3, 3, 1}};
    for (size_t ri = 0; ri < sizeof rules / sizeof *rules; ri++) {
        gg_rule3d r;
        gg_err err;
        assert_int_equal(gg_rule3d_parse(rules[ri], &r, &err), 0);
        gg_cpu3d *k;
        bool cf;
        gg_cpu3d_opts o = {.config = &cfg, .threads = 2};
        if (gg_cpu3d_open(&r, &o, &k, &cf, &err))
            fail_msg("%s: %s", rules[ri], err.msg);
        assert_true(gg_cpu3d_final_gates(k) > 0);
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            gg_grid3d a, b;
            assert_int_equal(gg_grid3d_init(&a, sizes[si][0], sizes[si][1],
                                            sizes[si][2], &err), 0);
            gg_grid3d_random(&a, 0.45, 1000 + ri * 7 + si);
            assert_int_equal(gg_grid3d_copy(&b, &a, &err), 0);
            bool torus = sizes[si][3];
            assert_int_equal(gg_ref3d_run(&r, torus, &a, 4, &err), 0);
            assert_int_equal(gg_cpu3d_run(k, &b, torus, 4, &err), 0);
            int64_t x, y, z;
            if (gg_grid3d_first_diff(&a, &b, &x, &y, &z))
                fail_msg("%s %s %lld: (%lld,%lld,%lld)", rules[ri],
                         torus ? "torus" : "box", (long long)sizes[si][0],
                         (long long)x, (long long)y, (long long)z);
            /* bits past the width stay 0 */
            assert_true(gg_grid3d_equal(&a, &b));
            gg_grid3d_free(&a);
            gg_grid3d_free(&b);
        }
        gg_cpu3d_close(k);
    }
}

static void test_cpu_broken_net_refused(void **state)
{
    (void)state;
    gg_config cfg = test_cfg();
    gg_rule3d r;
    gg_err err;
    assert_int_equal(gg_rule3d_parse("3D5..7/6", &r, &err), 0);
    /* the right table except one row: birth on 7 as well */
    gg_rule3d wrong = r;
    wrong.birth |= 1u << 7;
    gg_net net;
    char src[160];
    assert_int_equal(gg_cpu3d_choose_final(&wrong, &net, src, sizeof src,
                                           &err), 0);
    gg_cpu3d_opts o = {.config = &cfg, .final = &net};
    gg_cpu3d *k = NULL;
    bool cf = false;
    assert_int_equal(gg_cpu3d_open(&r, &o, &k, &cf, &err), -1);
    assert_true(cf);
    assert_null(k);
    assert_non_null(strstr(err.msg, "disagrees"));
}

/* ---- the cuda kernel (compiled here; run by bench/gpu3d.sh) ---- */

/* The GPU's LUT3 final stage, checked against the rule itself (not the
 * table it was searched on): every count and centre the kernels can
 * give, as the count bits (Moore: the 27-sum with the centre) and the
 * centre. It is never larger than the cpu's gate2 network, and 3D5..7/6
 * (the benchmark's rule) takes 3 lop3 (by hand: x3 picks ~x1&~x2 or
 * x1&x2, and ~x0&c or ~x0|c; both and ~x4). */
static void test_cuda_lut3_final(void **state)
{
    (void)state;
    for (size_t ri = 0; ri < sizeof rules / sizeof *rules; ri++) {
        gg_rule3d r;
        gg_err err;
        assert_int_equal(gg_rule3d_parse(rules[ri], &r, &err), 0);
        gg_net *net = malloc(sizeof *net);
        assert_non_null(net);
        char source[160];
        assert_int_equal(gg_cpu3d_choose_final(&r, net, source,
                                               sizeof source, &err), 0);
        int before = gg_net_count(net, (int[GG_OP_COUNT]){0});
        assert_int_equal(gg_cuda3d_lut3_final(&r, net, source, sizeof source,
                                              &err), 0);
        int counts[GG_OP_COUNT];
        int after = gg_net_count(net, counts);
        assert_true(after <= before);
        if (!strcmp(rules[ri], "3D5..7/6")) {
            assert_int_equal(after, 3);
            assert_int_equal(counts[GG_OP_LUT3], 3);
        }
        int nb = gg_c3d_count_bits(&r);
        bool moore = r.nbhd == GG_NBHD3D_MOORE;
        for (int centre = 0; centre < 2; centre++)
            for (int count = 0; count <= r.n_neighbours; count++) {
                int v = moore ? count + centre : count;
                uint64_t in[GG_NET_MAX_OUTPUTS] = {0}, out[1];
                for (int b = 0; b < nb; b++)
                    in[b] = (v >> b) & 1 ? ~0ull : 0;
                in[nb] = centre ? ~0ull : 0;
                gg_net_eval64(net, in, out);
                if ((int)(out[0] & 1) != gg_rule3d_next(&r, centre, count))
                    fail_msg("%s: LUT3 final stage wrong at centre %d "
                             "count %d", rules[ri], centre, count);
            }
        free(net);
    }
}


/* The emitted CUDA source of every test rule compiles with nvcc for
 * sm_90 at the default rows per thread and at 1 and 8; skipped without
 * nvcc (the device run validates the kernels against the reference). */
static void test_cuda_source_nvcc(void **state)
{
    (void)state;
    const char *nvcc = "/usr/local/cuda/bin/nvcc";
    if (access(nvcc, X_OK))
        skip();
    static const char *const tys[] = {"", "-DGG_TY=1", "-DGG_TY=8"};
    for (size_t ri = 0; ri < sizeof rules / sizeof *rules; ri++) {
        gg_rule3d r;
        gg_err err;
        assert_int_equal(gg_rule3d_parse(rules[ri], &r, &err), 0);
        char *src = NULL, source[160], path[1100], cmd[4096];
        size_t len;
        int gates = 0;
        if (gg_cuda3d_source(&r, NULL, &src, &len, source, sizeof source,
                             &gates, &err))
            fail_msg("%s: %s", rules[ri], err.msg);
        assert_true(gates > 0);
        assert_non_null(strstr(src, "gg3d_step_plain"));
        snprintf(path, sizeof path, "%s/k3d.cu", gg_test_dir);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        assert_int_equal(fwrite(src, 1, len, f), len);
        fclose(f);
        free(src);
        /* the Moore rules at every rows per thread, the others once */
        size_t nty = r.nbhd == GG_NBHD3D_MOORE ? 3 : 1;
        for (size_t t = 0; t < nty; t++) {
            snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 -cubin %s -o "
                     "'%s/k3d.cubin' '%s' 2>'%s/nvcc.log' || { cat "
                     "'%s/nvcc.log' >&2; exit 1; }", nvcc, tys[t],
                     gg_test_dir, path, gg_test_dir, gg_test_dir);
            if (gg_test_status(cmd))
                fail_msg("%s %s: nvcc failed", rules[ri], tys[t]);
            /* Moore modules hold the temporal kernels cuda3d.c loads */
            snprintf(cmd, sizeof cmd, "grep -q gg3d_steps_2_3_16_1 "
                     "'%s/k3d.cubin'", gg_test_dir);
            assert_int_equal(gg_test_status(cmd) == 0,
                             r.nbhd == GG_NBHD3D_MOORE);
        }
    }
}

/* ---- CLI ---- */

static void test_cli(void **state)
{
    (void)state;
    const char *golgen = getenv("GG_GOLGEN");
    if (!golgen)
        skip();
    char cmd[8192], in[1100], out[1100];
    snprintf(in, sizeof in, "%s/in.rle3", gg_test_dir);
    snprintf(out, sizeof out, "%s/out.rle3", gg_test_dir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    fputs("3D version=1 size=10 pos=4,4,4\nx=2 y=2 z=2 rule=3D5..7/6\n"
          "oo$oo/oo$oo!\n", f);
    fclose(f);
    const char *env = "GOLGEN_CACHE_DIR=";
    snprintf(cmd, sizeof cmd, "%s%s '%s' rule '3D5..7/6:T64' >/dev/null",
             env, gg_test_dir, golgen);
    assert_int_equal(gg_test_status(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s '%s' rule '3D5..7/6:T0' 2>/dev/null",
             env, golgen);
    assert_int_equal(gg_test_status(cmd), 2);
    for (int b = 0; b < 2; b++) {
        snprintf(cmd, sizeof cmd, "%s%s '%s' run --gens 3 --backend %s -o "
                 "'%s' '%s' 2>/dev/null && grep -q 'pos=4,4,4 gen=3' '%s' && "
                 "grep -q 'oo\\$oo/oo\\$oo!' '%s'",
                 env, gg_test_dir, golgen, b ? "cpu" : "reference", out, in,
                 out, out);
        assert_int_equal(gg_test_status(cmd), 0);
    }
    /* cuda: runs where a GPU is, else says so with exit 3 */
    snprintf(cmd, sizeof cmd, "%s%s '%s' run --gens 1 --backend cuda '%s' "
             "2>/dev/null", env, gg_test_dir, golgen, in);
    int st = gg_test_status(cmd);
    assert_true(st == 0 || st == 3);
    snprintf(cmd, sizeof cmd, "%s%s '%s' run --gens 1 --backend opencl "
             "'%s' 2>/dev/null", env, gg_test_dir, golgen, in);
    assert_int_equal(gg_test_status(cmd), 2); /* no 3D kernel */
    snprintf(cmd, sizeof cmd, "%s%s '%s' run --rule '3D5..7/6:T3' --gens 1 "
             "'%s' 2>/dev/null", env, gg_test_dir, golgen, in);
    assert_int_equal(gg_test_status(cmd), 2); /* does not fit */
    snprintf(cmd, sizeof cmd, "%s%s '%s' bench --rule '3D5..7/6' --size "
             "70x9x5 --gens 2 --backend cpu | grep -q CUpS", env,
             gg_test_dir, golgen);
    assert_int_equal(gg_test_status(cmd), 0);
    /* verify checks every (count, centre); --target c and cuda print the
     * kernels the backends compile (the C one compiles here), others
     * refuse */
    static const char *const rules[] = {"3D5..7/6", "3D4,5/5", "3D2,3/3F",
                                        "3D1,3/2H", "3D2/3E", "3D2/3C"};
    for (int i = 0; i < 6; i++) {
        snprintf(cmd, sizeof cmd, "'%s' verify --rule '%s' | grep -q "
                 "'^PASS: all'", golgen, rules[i]);
        assert_int_equal(gg_test_status(cmd), 0);
    }
    snprintf(cmd, sizeof cmd, "'%s' --target c --rule 3D5..7/6 -o '%s/k.c' "
             "&& cc -O1 -fopenmp -shared -fPIC '%s/k.c' -o '%s/k.so' && "
             "'%s' --target cuda --rule 3D5..7/6 | grep -q gg3d_step",
             golgen, gg_test_dir, gg_test_dir, gg_test_dir, golgen);
    assert_int_equal(gg_test_status(cmd), 0);
    snprintf(cmd, sizeof cmd, "'%s' --target ptx --rule 3D5..7/6 "
             "2>/dev/null", golgen);
    assert_int_equal(gg_test_status(cmd), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_format),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_rle3_exact),
        cmocka_unit_test(test_rle3_round_trip),
        cmocka_unit_test(test_rle3_malformed),
        cmocka_unit_test(test_reference_vs_plain),
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_cpu_vs_reference),
        cmocka_unit_test(test_cpu_broken_net_refused),
        cmocka_unit_test(test_cuda_lut3_final),
        cmocka_unit_test(test_cuda_source_nvcc),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
