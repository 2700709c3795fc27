/* libgolgen's benches (golgen_0.4; 2D rules, golgen_0.5), and what the
 * build has (golgen_0.5), as their users see them:
 * include/golgen.h alone, the shared library. The soups the header
 * describes, stepped here by naive Larger than Life and 3D steps (oracles
 * that share no code with golgen: every neighbour counted one by one),
 * end with the population every backend reports, on tori and bounded
 * planes or boxes, several neighbourhoods, two states and more; the
 * defaults are the rule's grid; bad rules, options and backends are
 * refused with a sentence; the backend names of a family are the ones
 * that run it. */
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

/* ---- 3D ---- */

/* The header's 3D soup: splitmix64 words, row by row (z, then y). */
static void soup3d(uint8_t *c, int sx, int sy, int sz, int64_t seed)
{
    uint64_t s = (uint64_t)seed;
    int words = (sx + 63) / 64;
    for (int z = 0; z < sz; z++)
        for (int y = 0; y < sy; y++)
            for (int w = 0; w < words; w++) {
                uint64_t v = (s += 0x9e3779b97f4a7c15ull);
                v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
                v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
                v ^= v >> 31;
                for (int b = 0; b < 64 && 64 * w + b < sx; b++)
                    c[((size_t)z * sy + y) * sx + 64 * w + b] =
                        (uint8_t)((v >> b) & 1);
            }
}

/* 3D.lua: survival counts s, birth counts b (bit c: c live neighbours);
 * face: the 6 face neighbours, else the 26 of the Moore cube. */
static int64_t oracle3d(uint32_t s, uint32_t b, int face, int sx, int sy,
                        int sz, int torus, int64_t gens, int64_t seed)
{
    size_t n = (size_t)sx * sy * sz;
    uint8_t *c = malloc(n), *next = malloc(n);
    assert_non_null(c);
    assert_non_null(next);
    soup3d(c, sx, sy, sz, seed);
    for (int64_t g = 0; g < gens + 1; g++) {
        for (int z = 0; z < sz; z++)
            for (int y = 0; y < sy; y++)
                for (int x = 0; x < sx; x++) {
                    int k = 0;
                    for (int dz = -1; dz <= 1; dz++)
                        for (int dy = -1; dy <= 1; dy++)
                            for (int dx = -1; dx <= 1; dx++) {
                                int d = abs(dx) + abs(dy) + abs(dz);
                                if (!d || (face && d != 1))
                                    continue;
                                int xx = x + dx, yy = y + dy, zz = z + dz;
                                if (torus) {
                                    xx = (xx + sx) % sx;
                                    yy = (yy + sy) % sy;
                                    zz = (zz + sz) % sz;
                                } else if (xx < 0 || yy < 0 || zz < 0 ||
                                           xx >= sx || yy >= sy ||
                                           zz >= sz) {
                                    continue;
                                }
                                k += c[((size_t)zz * sy + yy) * sx + xx];
                            }
                    size_t i = ((size_t)z * sy + y) * sx + x;
                    next[i] = (uint8_t)((((c[i] ? s : b) >> k) & 1) != 0);
                }
        memcpy(c, next, n);
    }
    int64_t pop = 0;
    for (size_t i = 0; i < n; i++)
        pop += c[i];
    free(c);
    free(next);
    return pop;
}

static void test_3d_populations_match_the_oracle(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        uint32_t s, b;
        int face, sx, sy, sz, box;
        int64_t gens, seed;
    } cases[] = {
        /* sides that leave part of a word (70 = 64 + 6) */
        {"3D5..7/6", 0xe0, 0x40, 0, 70, 9, 7, 0, 3, 5},
        {"3D5..7/6", 0xe0, 0x40, 0, 70, 9, 7, 1, 3, 5},
        {"3D2,3/2F", 0x0c, 0x04, 1, 33, 10, 12, 0, 4, 9},
        {"3D4..9/5..7:P20,12,8", 0x3f0, 0xe0, 0, 20, 12, 8, 1, 2, 0},
    };
    static const char *const backends[] = {"reference", "cpu", "auto"};
    char err[1024];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int64_t want = oracle3d(cases[i].s, cases[i].b, cases[i].face,
                                cases[i].sx, cases[i].sy, cases[i].sz,
                                !cases[i].box, cases[i].gens, cases[i].seed);
        for (size_t k = 0; k < 3; k++) {
            golgen_bench3d_opts o = {.backend = backends[k],
                                     .sx = cases[i].sx, .sy = cases[i].sy,
                                     .sz = cases[i].sz,
                                     .gens = cases[i].gens,
                                     .seed = cases[i].seed,
                                     .box = cases[i].box};
            golgen_bench3d_result r;
            if (golgen_bench_3d(cases[i].text, &o, &r, err, sizeof err))
                fail_msg("%s on %s: %s", cases[i].text, backends[k], err);
            assert_int_equal(r.population, want);
            assert_int_equal(r.torus, !cases[i].box);
            assert_int_equal(r.sx, cases[i].sx);
            assert_int_equal(r.sz, cases[i].sz);
            assert_int_equal(r.gens, cases[i].gens);
            assert_null(strchr(r.rule, ':'));
            if (k < 2) {
                assert_string_equal(r.backend, backends[k]);
                assert_string_equal(r.auto_line, "");
            } else {
                assert_non_null(strstr(r.auto_line, "backend auto -> "));
            }
        }
    }
}

static void test_3d_defaults_and_refusals(void **state)
{
    (void)state;
    char err[1024];
    golgen_bench3d_result r;
    golgen_bench3d_opts o = {.backend = "cpu", .gens = 1};
    /* the rule's own grid, or 256^3 when its text carries none */
    assert_int_equal(golgen_bench_3d("3D5..7/6:T16,8,4", &o, &r, err,
                                     sizeof err), GOLGEN_OK);
    assert_int_equal(r.sx * 10000 + r.sy * 100 + r.sz, 160804);
    assert_int_equal(r.torus, 1);
    assert_int_equal(golgen_bench_3d("3D5..7/6", &o, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_int_equal(r.sx + r.sy + r.sz, 3 * 256);
    assert_int_equal(golgen_bench_3d("3D5..7/6:T16,8,4", NULL, &r, err,
                                     sizeof err), GOLGEN_OK);
    assert_int_equal(r.gens, 16);
    o.backend = "nosuch";
    assert_int_equal(golgen_bench_3d("3D5..7/6", &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "unknown backend 'nosuch'"));
    assert_non_null(strstr(err, ", or auto (the default)"));
    o.backend = "opencl";
    assert_int_equal(golgen_bench_3d("3D5..7/6", &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "does not run 3D rules"));
    o.backend = "cpu";
    assert_int_equal(golgen_bench_3d("3D5..7/6/2", &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_true(err[0] != 0);
    o.sx = 10; /* sy and sz missing */
    assert_int_equal(golgen_bench_3d("3D5..7/6", &o, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "all or none"));
    assert_int_equal(golgen_bench_3d(NULL, NULL, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
}

/* Every backend a family's list names runs it (or cannot run here: no
 * GPU), and one it leaves out is refused as not running it. */
static void test_backend_names(void **state)
{
    (void)state;
    char names[256], err[1024];
    assert_int_equal(golgen_backend_names("3d", ",", names, sizeof names),
                     GOLGEN_OK);
    assert_non_null(strstr(names, "reference"));
    assert_non_null(strstr(names, "cpu"));
    assert_null(strstr(names, "opencl"));
    static const char *const all[] = {"reference", "cpu", "cuda", "ptx",
                                      "opencl"};
    char ltl[256];
    assert_int_equal(golgen_backend_names("ltl", NULL, ltl, sizeof ltl),
                     GOLGEN_OK);
    assert_non_null(strstr(ltl, "reference|cpu"));
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        golgen_bench3d_opts o = {.backend = all[i], .sx = 8, .sy = 8,
                                 .sz = 8, .gens = 1};
        golgen_bench3d_result r;
        int code = golgen_bench_3d("3D5..7/6", &o, &r, err, sizeof err);
        if (code && strstr(err, "unknown backend")) /* not in this build */
            continue;
        int refused = code == GOLGEN_ERR_INPUT &&
                      strstr(err, "does not run 3D rules") != NULL;
        assert_int_equal(refused, strstr(names, all[i]) == NULL);
        golgen_bench_opts lo = {.backend = all[i], .width = 8, .height = 8,
                                .gens = 1};
        golgen_bench_result lr;
        code = golgen_bench_ltl("R1,C0,M1,S3..4,B3..3,NM", &lo, &lr, err,
                                sizeof err);
        refused = code == GOLGEN_ERR_INPUT &&
                  strstr(err, "does not run Larger than Life") != NULL;
        assert_int_equal(refused, strstr(ltl, all[i]) == NULL);
    }
    assert_int_equal(golgen_backend_names("4d", "|", names, sizeof names),
                     GOLGEN_ERR_INPUT);
    assert_string_equal(names, "");
}

/* What `golgen --version` says of the build (golgen_0.5): the solver,
 * auto's order, a line per backend; a bad environment value stops the
 * probes with its sentence. */
static void test_about(void **state)
{
    (void)state;
    char buf[4096], err[1024], order[256], cut[4];
    golgen_solver_version(buf, sizeof buf);
    assert_true(strlen(buf) > 0);
    golgen_backend_auto_order(", ", order, sizeof order);
    assert_non_null(strstr(order, "cpu, reference"));
    golgen_backend_auto_order(NULL, cut, sizeof cut); /* cut to len */
    assert_true(strlen(cut) < sizeof cut);
    assert_int_equal(golgen_backend_probes("  ", buf, sizeof buf, err,
                                           sizeof err), GOLGEN_OK);
    assert_non_null(strstr(buf, "  reference  usable\n"));
    assert_non_null(strstr(buf, "  cpu        "));
    const char *was = getenv("GOLGEN_FALLBACK_WORK");
    char *kept = was ? strdup(was) : NULL;
    setenv("GOLGEN_FALLBACK_WORK", "many", 1);
    assert_int_equal(golgen_backend_probes(NULL, buf, sizeof buf, err,
                                           sizeof err), GOLGEN_ERR_INPUT);
    assert_string_equal(buf, "");
    assert_non_null(strstr(err, "GOLGEN_FALLBACK_WORK"));
    if (kept)
        setenv("GOLGEN_FALLBACK_WORK", kept, 1);
    else
        unsetenv("GOLGEN_FALLBACK_WORK");
    free(kept);
}

static void count_note(void *ctx, const char *line)
{
    (void)line;
    ++*(int *)ctx;
}

/* A 2D rule's bench (golgen_0.5): every engine and backend that steps the
 * same soup on the same torus ends with the same population (the bands
 * too), the defaults are the rule's grid, auto's engine is noted, and
 * what does not combine is refused with a sentence. */
static void test_bench_2d(void **state)
{
    (void)state;
    char err[1024];
    int notes = 0;
    golgen_bench2d_result r;
    golgen_bench2d_opts o = {.backend = "reference", .width = 96,
                             .height = 80, .gens = 20, .seed = 7,
                             .on_note = count_note, .ctx = &notes};
    assert_int_equal(golgen_bench_2d("B3/S23", &o, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_int_equal(notes, 1); /* engine auto -> dense */
    assert_string_equal(r.engine, "dense");
    assert_string_equal(r.backend, "reference");
    assert_int_equal(r.torus, 1);
    assert_true(r.population > 0);
    int64_t pop = r.population;
    static const char *const ways[][2] = {
        {"cpu", "dense"}, {"cpu", "tiles"}, {"reference", "tiles"}};
    for (size_t i = 0; i < sizeof ways / sizeof *ways; i++) {
        o.backend = ways[i][0];
        o.engine = ways[i][1];
        assert_int_equal(golgen_bench_2d("B3/S23", &o, &r, err, sizeof err),
                         GOLGEN_OK);
        assert_int_equal(r.population, pop);
        assert_string_equal(r.engine, ways[i][1]);
    }
    o.backend = "cpu";
    o.engine = NULL;
    o.devices = "0,0";
    assert_int_equal(golgen_bench_2d("B3/S23", &o, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_int_equal(r.bands, 2);
    assert_int_equal(r.population, pop);
    o.devices = NULL;
    /* Generations: the reference and the cpu kernel agree */
    o.backend = "reference";
    assert_int_equal(golgen_bench_2d("/2/3", &o, &r, err, sizeof err),
                     GOLGEN_OK);
    pop = r.population;
    o.backend = "cpu";
    assert_int_equal(golgen_bench_2d("/2/3", &o, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_int_equal(r.population, pop);
    /* the tree on the unbounded plane */
    o.engine = "hashlife";
    assert_int_equal(golgen_bench_2d("B3/S23", &o, &r, err, sizeof err),
                     GOLGEN_OK);
    assert_string_equal(r.engine, "hashlife");
    assert_int_equal(r.torus, 0);
    assert_true(r.nodes > 0);
    /* defaults: the rule's grid, 100 generations */
    golgen_bench2d_opts d = {.backend = "cpu"};
    assert_int_equal(golgen_bench_2d("B3/S23:T64,32", &d, &r, err,
                                     sizeof err), GOLGEN_OK);
    assert_int_equal(r.width, 64);
    assert_int_equal(r.height, 32);
    assert_int_equal(r.gens, 100);
    assert_string_equal(r.rule, "B3/S23");
    static const struct {
        const char *rule, *engine, *devices, *backend, *says;
        int64_t mem, device_mem;
    } bad[] = {
        {"B3/Sx", NULL, NULL, NULL, "", 0, 0},
        {"B3/S23", "sparse", NULL, NULL, "unknown engine", 0, 0},
        {"B3/S23", "dense", NULL, NULL, "--mem bounds the hash tree",
         1 << 20, 0},
        {"B3/S23:T64,64", "hashlife", NULL, NULL, "does not take", 0, 0},
        {"B3/S23", NULL, "0,x", NULL, "--devices wants", 0, 0},
        {"B3/S23", NULL, "0,0", NULL, "do not combine", 0, 1 << 20},
        {"B3/S23", "tiles", "0,0", NULL, "--engine tiles steps one", 0, 0},
        {"B3/S23", NULL, NULL, "gpu9", "unknown backend", 0, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        golgen_bench2d_opts b = {.width = 8, .height = 8, .gens = 1,
                                 .engine = bad[i].engine,
                                 .devices = bad[i].devices,
                                 .backend = bad[i].backend,
                                 .mem = bad[i].mem,
                                 .device_mem = bad[i].device_mem};
        assert_int_equal(golgen_bench_2d(bad[i].rule, &b, &r, err,
                                         sizeof err), GOLGEN_ERR_INPUT);
        assert_non_null(strstr(err, bad[i].says));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_populations_match_the_oracle),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_is_ltl),
        cmocka_unit_test(test_3d_populations_match_the_oracle),
        cmocka_unit_test(test_3d_defaults_and_refusals),
        cmocka_unit_test(test_backend_names),
        cmocka_unit_test(test_about),
        cmocka_unit_test(test_bench_2d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
