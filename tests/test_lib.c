/* libgolgen as its users see it: include/golgen.h alone, linked against the
 * shared library (which exports golgen_* only). A glider on a torus comes
 * back shifted by (1, 1) after 4 generations on each backend asked for;
 * failures come back as codes and sentences; patterns go through files and
 * text; every target emits a kernel. An R-pentomino run by every engine
 * (hashlife, tiles, dense, auto; tiles and dense on a torus too) ends in
 * the same cells, and in bgolly's where bgolly is installed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golgen.h"

static const uint8_t glider[9] = {0, 1, 0, 0, 0, 1, 1, 1, 1};

static golgen_rule *parse(const char *text)
{
    golgen_rule *r = NULL;
    char err[512];
    int rc = golgen_rule_parse(text, &r, err, sizeof err);
    if (rc)
        fail_msg("%s: %s", text, err);
    assert_non_null(r);
    return r;
}

/* The whole torus before and after 4 generations on `backend`. */
static void glider_on_torus(const char *backend)
{
    enum { W = 16, H = 12 };
    golgen_rule *r = parse("B3/S23:T16,12");
    golgen_universe *u = NULL;
    char err[512];
    assert_int_equal(golgen_universe_from_cells(r, glider, 3, 3, &u, err,
                                                sizeof err), GOLGEN_OK);
    int64_t x, y, w, h;
    golgen_universe_extent(u, &x, &y, &w, &h);
    assert_int_equal(x, -8);
    assert_int_equal(y, -6);
    assert_int_equal(w, W);
    assert_int_equal(h, H);
    uint8_t before[H][W], after[H][W];
    assert_int_equal(golgen_universe_window(u, x, y, W, H, &before[0][0],
                                            err, sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_population(u), 5);
    /* round the torus: 4 * W generations come back to the start too */
    int rc = golgen_universe_run(u, 4, backend, err, sizeof err);
    if (rc)
        fail_msg("backend %s: %s", backend ? backend : "NULL", err);
    assert_int_equal(golgen_universe_generation(u), 4);
    assert_true(strlen(golgen_universe_backend(u)) > 0);
    assert_non_null(strstr(golgen_universe_backend_line(u), "backend "));
    assert_int_equal(golgen_universe_window(u, x, y, W, H, &after[0][0], err,
                                            sizeof err), GOLGEN_OK);
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++)
            assert_int_equal(after[(j + 1) % H][(i + 1) % W], before[j][i]);
    /* again on the open backend: all the way round the torus */
    assert_int_equal(golgen_universe_run(u, 4 * 47, backend, err, sizeof err),
                     GOLGEN_OK);
    assert_int_equal(golgen_universe_generation(u), 4 * 48);
    assert_int_equal(golgen_universe_window(u, x, y, W, H, &after[0][0], err,
                                            sizeof err), GOLGEN_OK);
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) /* 48 steps of (1, 1) on 16 x 12 */
            assert_int_equal(after[j][i], before[j][i]);
    golgen_universe_free(u);
    golgen_rule_free(r);
}

static void test_glider_reference(void **state)
{
    (void)state;
    glider_on_torus("reference");
}

static void test_glider_cpu(void **state)
{
    (void)state;
    glider_on_torus("cpu");
}

static void test_glider_auto(void **state)
{
    (void)state;
    glider_on_torus("auto");
    glider_on_torus(NULL);
}

/* On the unbounded plane the grid regrows around the glider. */
static void test_glider_plane(void **state)
{
    (void)state;
    golgen_rule *r = parse("B3/S23");
    golgen_universe *u;
    char err[512];
    assert_int_equal(golgen_universe_from_cells(r, glider, 3, 3, &u, err,
                                                sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_get(u, 1, 0), 1);
    assert_int_equal(golgen_universe_get(u, 0, 0), 0);
    assert_int_equal(golgen_universe_get(u, -100, 7), 0);
    assert_int_equal(golgen_universe_run(u, 400, "reference", err,
                                         sizeof err), GOLGEN_OK);
    int64_t x, y, w, h;
    assert_int_equal(golgen_universe_bbox(u, &x, &y, &w, &h), GOLGEN_OK);
    assert_int_equal(x, 100);
    assert_int_equal(y, 100);
    assert_int_equal(w, 3);
    assert_int_equal(h, 3);
    assert_int_equal(golgen_universe_population(u), 5);
    assert_int_equal(golgen_universe_get(u, 101, 100), 1);
    char rule[64];
    golgen_universe_rule(u, rule, sizeof rule);
    assert_string_equal(rule, "B3/S23");
    golgen_universe_free(u);
    golgen_rule_free(r);
}

static void test_bits(void **state)
{
    (void)state;
    /* the glider as bit rows, 2 bytes a row */
    const uint8_t bits[6] = {0x2, 0, 0x4, 0, 0x7, 0};
    golgen_rule *r = parse("B3/S23:P8,8");
    golgen_universe *a, *b;
    char err[512];
    assert_int_equal(golgen_universe_from_bits(r, bits, 3, 3, 2, &a, err,
                                               sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_from_cells(r, glider, 3, 3, &b, err,
                                                sizeof err), GOLGEN_OK);
    uint8_t wa[64], wb[64];
    assert_int_equal(golgen_universe_window(a, -4, -4, 8, 8, wa, NULL, 0), 0);
    assert_int_equal(golgen_universe_window(b, -4, -4, 8, 8, wb, NULL, 0), 0);
    assert_memory_equal(wa, wb, sizeof wa);
    golgen_universe_free(a);
    assert_int_equal(golgen_universe_from_bits(r, bits, 17, 3, 2, &a, err,
                                               sizeof err), GOLGEN_ERR_INPUT);
    assert_null(a);
    assert_non_null(strstr(err, "row_bytes"));
    golgen_universe_free(b);
    golgen_rule_free(r);
}

static void test_errors(void **state)
{
    (void)state;
    char err[512];
    golgen_rule *r = (golgen_rule *)&err; /* overwritten with NULL */
    assert_int_equal(golgen_rule_parse("B3/S2x", &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_null(r);
    assert_true(strlen(err) > 0);
    assert_non_null(strstr(err, "x"));
    /* a short buffer gets the start of the sentence, NUL-terminated */
    char tiny[8];
    assert_int_equal(golgen_rule_parse("B9/S23", &r, tiny, sizeof tiny),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(strlen(tiny), 7);
    /* no buffer: the code alone */
    assert_int_equal(golgen_rule_parse("nonsense", &r, NULL, 0),
                     GOLGEN_ERR_INPUT);

    r = parse("B3/S23:T16,16");
    golgen_universe *u = NULL;
    assert_int_equal(golgen_universe_from_cells(r, glider, 0, 3, &u, err,
                                                sizeof err), GOLGEN_ERR_INPUT);
    assert_null(u);
    assert_non_null(strstr(err, "width and height"));
    assert_int_equal(golgen_universe_from_cells(r, glider, 3, -1, &u, err,
                                                sizeof err), GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_universe_from_cells(r, NULL, 3, 3, &u, err,
                                                sizeof err), GOLGEN_ERR_INPUT);
    /* a box larger than the torus */
    uint8_t big[20 * 20];
    memset(big, 1, sizeof big);
    assert_int_equal(golgen_universe_from_cells(r, big, 20, 20, &u, err,
                                                sizeof err), GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "does not fit"));

    assert_int_equal(golgen_universe_new(r, &u, err, sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_population(u), 0);
    assert_int_equal(golgen_universe_run(u, 1, "warp9", err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "unknown backend 'warp9'"));
    /* a GPU backend runs, or says in one sentence why it cannot here */
    int rc = golgen_universe_run(u, 1, "cuda", err, sizeof err);
    assert_true(rc == GOLGEN_OK || rc == GOLGEN_ERR_ENV);
    if (rc)
        assert_true(strlen(err) > 0);
    else
        assert_int_equal(golgen_universe_generation(u), 1);
    int64_t gen = golgen_universe_generation(u);
    assert_int_equal(golgen_universe_run(u, -1, "reference", err,
                                         sizeof err), GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_universe_generation(u), gen);
    uint8_t cell;
    assert_int_equal(golgen_universe_window(u, 0, 0, -1, 1, &cell, err,
                                            sizeof err), GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_universe_write(u, "-", err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "give a file name"));
    assert_non_null(strstr(err, "golgen_universe_format gives the text"));
    assert_int_equal(golgen_universe_write(u, "/nonexistent-dir/x.rle", err,
                                           sizeof err), GOLGEN_ERR_INPUT);
    assert_true(strlen(err) > 0);
    char *text;
    size_t len;
    assert_int_equal(golgen_universe_format(u, "gif", &text, &len, err,
                                            sizeof err), GOLGEN_ERR_INPUT);
    assert_null(text);
    golgen_universe_free(u);
    golgen_rule_free(r);

    /* an unbounded rule has no empty universe of its own size */
    r = parse("B3/S23");
    assert_int_equal(golgen_universe_new(r, &u, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "bounded"));
    assert_int_equal(golgen_universe_read(r, "/nonexistent.rle", &u, err,
                                          sizeof err), GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "/nonexistent.rle"));
    golgen_rule_free(r);

    /* Generations rules: parsed and emitted, not yet run */
    r = parse("23/3/3");
    assert_int_equal(golgen_universe_from_cells(r, glider, 3, 3, &u, err,
                                                sizeof err), GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "not in the library yet"));
    golgen_rule_free(r);

    /* NULL handles are refused, not crashed on */
    golgen_universe_free(NULL);
    golgen_rule_free(NULL);
    assert_int_equal(golgen_universe_run(NULL, 1, NULL, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_universe_population(NULL), 0);
}

static void test_files_and_text(void **state)
{
    (void)state;
    char err[512];
    golgen_rule *r = parse("B3/S23:T16,16");
    golgen_universe *u, *v;
    assert_int_equal(golgen_universe_from_cells(r, glider, 3, 3, &u, err,
                                                sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_run(u, 3, "reference", err, sizeof err),
                     GOLGEN_OK);
    char dir[] = "/tmp/golgen-test-lib-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *names[] = {"g.rle", "g.cells", "g.lif", "g.mc"};
    for (int i = 0; i < 4; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        int rc = golgen_universe_write(u, path, err, sizeof err);
        if (rc)
            fail_msg("%s: %s", path, err);
        /* the file's rule when none is given */
        rc = golgen_universe_read(i ? r : NULL, path, &v, err, sizeof err);
        if (rc)
            fail_msg("%s: %s", path, err);
        /* .cells keeps no position: the box comes back centred, so
         * compare the live cells from their boxes' corners */
        int64_t ua[4], va[4];
        golgen_universe_bbox(u, &ua[0], &ua[1], &ua[2], &ua[3]);
        golgen_universe_bbox(v, &va[0], &va[1], &va[2], &va[3]);
        if (i != 1) {
            assert_int_equal(va[0], ua[0]);
            assert_int_equal(va[1], ua[1]);
        }
        assert_int_equal(va[2], ua[2]);
        assert_int_equal(va[3], ua[3]);
        uint8_t a[9], b[9];
        assert_int_equal(golgen_universe_window(u, ua[0], ua[1], 3, 3, a,
                                                NULL, 0), 0);
        assert_int_equal(golgen_universe_window(v, va[0], va[1], 3, 3, b,
                                                NULL, 0), 0);
        assert_memory_equal(a, b, sizeof a);
        if (i == 0) /* the RLE keeps the generation */
            assert_int_equal(golgen_universe_generation(v), 3);
        golgen_universe_free(v);
        unlink(path);
    }
    rmdir(dir);
    char *text;
    size_t len;
    const char *formats[] = {"rle", "cells", "lif", "mc"};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(golgen_universe_format(u, formats[i], &text, &len,
                                                err, sizeof err), GOLGEN_OK);
        assert_int_equal(strlen(text), len);
        assert_int_equal(golgen_universe_parse(r, text, len, &v, err,
                                               sizeof err), GOLGEN_OK);
        assert_int_equal(golgen_universe_population(v), 5);
        golgen_universe_free(v);
        golgen_free(text);
    }
    assert_int_equal(golgen_universe_parse(r, "bo$2bo$3o!", 10, &v, err,
                                           sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_population(v), 5);
    golgen_universe_free(v);
    assert_int_equal(golgen_universe_parse(r, "x = 3, y = 3\nbo$2bz!", 20,
                                           &v, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_true(strlen(err) > 0);
    golgen_universe_free(u);
    golgen_rule_free(r);
}

static void test_emit(void **state)
{
    (void)state;
    const char *targets[] = {"c", "cuda", "ptx", "opencl"};
    char err[512];
    golgen_rule *r = parse("B36/S23");
    for (int i = 0; i < 4; i++) {
        char *src = NULL;
        size_t len = 0;
        int rc = golgen_emit(r, targets[i], &src, &len, err, sizeof err);
        if (rc)
            fail_msg("target %s: %s", targets[i], err);
        assert_non_null(src);
        assert_true(len > 100);
        assert_int_equal(strlen(src), len);
        golgen_free(src);
    }
    char *src = (char *)err;
    size_t len;
    assert_int_equal(golgen_emit(r, "vhdl", &src, &len, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_null(src);
    assert_non_null(strstr(err, "c, cuda, ptx, opencl"));
    golgen_rule_free(r);
    /* Generations: every target (ptx's kernel takes the plane stride) */
    r = parse("B2/S/C3");
    for (int i = 0; i < 4; i++) {
        assert_int_equal(golgen_emit(r, targets[i], &src, &len, err,
                                     sizeof err),
                         GOLGEN_OK);
        if (!strcmp(targets[i], "ptx"))
            assert_non_null(strstr(src, "p_ps"));
        golgen_free(src);
    }
    golgen_rule_free(r);
    assert_true(strlen(golgen_version()) > 0);
}

/* ---- engines ---- */

/* The R-pentomino; 3000 generations: it settles at 1103 (116 cells, six
 * gliders flying off), the gliders some 750 cells out by then. */
static const uint8_t rpent[9] = {0, 1, 1, 1, 1, 0, 0, 1, 0};
enum { R_GENS = 3000, R_POP = 116 };

static golgen_universe *rpent_in(const char *rule)
{
    golgen_rule *r = parse(rule);
    golgen_universe *u = NULL;
    char err[512];
    assert_int_equal(golgen_universe_from_cells(r, rpent, 3, 3, &u, err,
                                                sizeof err), GOLGEN_OK);
    golgen_rule_free(r);
    return u;
}

/* The live cells of u trimmed to their box: malloc'd, w x h bytes. */
static uint8_t *trimmed(const golgen_universe *u, int64_t *x, int64_t *y,
                        int64_t *w, int64_t *h)
{
    char err[512];
    assert_int_equal(golgen_universe_bbox(u, x, y, w, h), GOLGEN_OK);
    uint8_t *cells = malloc((size_t)(*w * *h) + 1);
    assert_non_null(cells);
    assert_int_equal(golgen_universe_window(u, *x, *y, *w, *h, cells, err,
                                            sizeof err), GOLGEN_OK);
    return cells;
}

/* a and b hold the same live cells, b's shifted by (dx, dy). */
static void same_cells(const golgen_universe *a, const golgen_universe *b,
                       int64_t dx, int64_t dy, const char *what)
{
    int64_t ax, ay, aw, ah, bx, by, bw, bh;
    uint8_t *ca = trimmed(a, &ax, &ay, &aw, &ah);
    uint8_t *cb = trimmed(b, &bx, &by, &bw, &bh);
    if (ax + dx != bx || ay + dy != by || aw != bw || ah != bh ||
        memcmp(ca, cb, (size_t)(aw * ah)))
        fail_msg("%s: box %lld,%lld %lldx%lld against %lld,%lld %lldx%lld "
                 "(shift %lld,%lld), or the cells differ", what,
                 (long long)ax, (long long)ay, (long long)aw, (long long)ah,
                 (long long)bx, (long long)by, (long long)bw, (long long)bh,
                 (long long)dx, (long long)dy);
    free(ca);
    free(cb);
}

/* engine on backend, gens generations in the parts given (0-ended). */
static golgen_universe *rpent_run(const char *rule, const char *backend,
                                  const char *engine, const int64_t *parts)
{
    golgen_universe *u = rpent_in(rule);
    char err[512];
    for (int i = 0; parts[i]; i++)
        if (golgen_universe_run_engine(u, parts[i], backend, engine, err,
                                       sizeof err))
            fail_msg("%s on %s, %s: %s", engine ? engine : "NULL",
                     backend ? backend : "NULL", rule, err);
    assert_int_equal(golgen_universe_generation(u), R_GENS);
    assert_int_equal(golgen_universe_population(u), R_POP);
    return u;
}

/* bgolly's HashLife from the same start, read back (NULL: no bgolly). */
static golgen_universe *bgolly_rpent(void)
{
    if (system("command -v bgolly >/dev/null 2>&1") != 0)
        return NULL;
    char dir[] = "/tmp/gg_lib_XXXXXX", in[64], out[64], cmd[300];
    char err[512];
    assert_non_null(mkdtemp(dir));
    snprintf(in, sizeof in, "%s/in.rle", dir);
    snprintf(out, sizeof out, "%s/out.rle", dir);
    golgen_universe *u = rpent_in("B3/S23");
    assert_int_equal(golgen_universe_write(u, in, err, sizeof err),
                     GOLGEN_OK);
    golgen_universe_free(u);
    snprintf(cmd, sizeof cmd, "bgolly -a HashLife -q -q -m %d -o '%s' '%s' "
             ">/dev/null", R_GENS, out, in);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(golgen_universe_read(NULL, out, &u, err, sizeof err),
                     GOLGEN_OK);
    unlink(in);
    unlink(out);
    rmdir(dir);
    return u;
}

static void test_engines_agree(void **state)
{
    (void)state;
    static const int64_t whole[] = {R_GENS, 0};
    static const int64_t parts[] = {1, 99, 900, 2000, 0};
    golgen_universe *tree = rpent_run("B3/S23", "auto", "hashlife", whole);
    assert_string_equal(golgen_universe_engine(tree), "hashlife");
    /* the tree kept between runs: its parts end where the whole run does */
    golgen_universe *u = rpent_run("B3/S23", "cpu", "hashlife", parts);
    assert_string_equal(golgen_universe_backend(u), "cpu");
    same_cells(tree, u, 0, 0, "hashlife in parts");
    golgen_universe_free(u);
    u = rpent_run("B3/S23", "cpu", "dense", whole);
    assert_string_equal(golgen_universe_engine(u), "dense");
    same_cells(tree, u, 0, 0, "dense");
    golgen_universe_free(u);
    u = rpent_run("B3/S23", "cpu", "tiles", parts);
    assert_string_equal(golgen_universe_engine(u), "tiles");
    same_cells(tree, u, 0, 0, "tiles on the plane");
    golgen_universe_free(u);
    u = rpent_run("B3/S23", NULL, NULL, whole); /* auto, auto */
    assert_string_equal(golgen_universe_engine(u), "hashlife");
    same_cells(tree, u, 0, 0, "auto");
    golgen_universe_free(u);
    /* engines taking turns on one universe */
    static const int64_t turns[] = {700, 800, 1500, 0};
    static const char *const by[] = {"tiles", "hashlife", "dense"};
    u = rpent_in("B3/S23");
    char err[512];
    for (int i = 0; turns[i]; i++) {
        assert_int_equal(golgen_universe_run_engine(u, turns[i], "cpu",
                                                    by[i], err, sizeof err),
                         GOLGEN_OK);
        assert_string_equal(golgen_universe_engine(u), by[i]);
    }
    assert_int_equal(golgen_universe_generation(u), R_GENS);
    same_cells(tree, u, 0, 0, "tiles, hashlife, dense in turn");
    golgen_universe_free(u);
    /* a torus wide enough that nothing comes round in 3000 generations:
     * the same cells, the pattern centred at (-1, -1) */
    static const char *const torus[] = {"tiles", "dense", "auto"};
    for (int i = 0; i < 3; i++) {
        u = rpent_run("B3/S23:T2048,2048", "cpu", torus[i], whole);
        assert_string_equal(golgen_universe_engine(u),
                            i == 1 ? "dense" : "tiles");
        same_cells(tree, u, -1, -1, torus[i]);
        golgen_universe_free(u);
    }
    u = bgolly_rpent();
    if (u) { /* bgolly's RLE gives no position: the trimmed cells */
        int64_t tx, ty, bx, by;
        golgen_universe_bbox(tree, &tx, &ty, NULL, NULL);
        golgen_universe_bbox(u, &bx, &by, NULL, NULL);
        same_cells(tree, u, bx - tx, by - ty, "bgolly -a HashLife");
        golgen_universe_free(u);
    } else {
        printf("lib: no bgolly, its comparison skipped\n");
    }
    golgen_universe_free(tree);
}

static void test_engine_choice_and_errors(void **state)
{
    (void)state;
    char err[512];
    const char *engine = "x";
    golgen_universe *u = rpent_in("B3/S23");
    assert_string_equal(golgen_universe_engine(u), "");
    assert_int_equal(golgen_universe_choose_engine(u, 10, "cpu", &engine,
                                                   err, sizeof err),
                     GOLGEN_OK);
    assert_string_equal(engine, "hashlife");
    assert_int_equal(golgen_universe_run_engine(u, 1, "cpu", "quick", err,
                                                sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "unknown engine 'quick'"));
    assert_non_null(strstr(err, "hashlife"));
    assert_int_equal(golgen_universe_run_engine(u, 1, "warp9", "hashlife",
                                                err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "unknown backend 'warp9'"));
    /* a device backend without tiles (OpenCL): refused by name where it
     * runs, else the sentence why it cannot run here */
    int rc = golgen_universe_run_engine(u, 1, "opencl", "tiles", err,
                                        sizeof err);
    assert_true(rc == GOLGEN_ERR_INPUT || rc == GOLGEN_ERR_ENV);
    if (rc == GOLGEN_ERR_INPUT)
        assert_non_null(strstr(err, "the opencl backend does not"));
    assert_true(strlen(err) > 0);
    assert_int_equal(golgen_universe_generation(u), 0);
    /* past 2^63-1 generations: refused before anything runs */
    assert_int_equal(golgen_universe_run_engine(u, 5, "cpu", "hashlife", err,
                                                sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_run_engine(u, INT64_MAX - 1, "cpu",
                                                "hashlife", err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_universe_generation(u), 5);
    assert_int_equal(golgen_universe_run_engine(u, 0, "cpu", "dense", err,
                                                sizeof err), GOLGEN_OK);
    assert_string_equal(golgen_universe_engine(u), "dense");
    assert_int_equal(golgen_universe_choose_engine(u, 1, "cpu", NULL, err,
                                                   sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_universe_run_engine(NULL, 1, NULL, NULL, err,
                                                sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_string_equal(golgen_universe_engine(NULL), "");
    golgen_universe_free(u);

    /* a bounded grid: the tree refuses it by name, auto takes tiles */
    u = rpent_in("B3/S23:T64,64");
    assert_int_equal(golgen_universe_run_engine(u, 1, "cpu", "hashlife", err,
                                                sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "B3/S23:T64,64 is a bounded grid"));
    assert_non_null(strstr(err, "hashlife"));
    assert_int_equal(golgen_universe_choose_engine(u, 1000, "reference",
                                                   &engine, err, sizeof err),
                     GOLGEN_OK);
    assert_string_equal(engine, "tiles");
    assert_int_equal(golgen_universe_run(u, 8, "reference", err, sizeof err),
                     GOLGEN_OK);
    assert_string_equal(golgen_universe_engine(u), "tiles");
    assert_string_equal(golgen_universe_backend(u), "reference");
    golgen_universe_free(u);

    /* a glider gun 2^40 generations on: the tree runs it, but its gliders
     * span more than a grid holds; the universe stays where it was */
    static const char gun[] =
        "x = 36, y = 9, rule = B3/S23\n24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b"
        "2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4bobo$10bo5bo7bo$11bo3bo$12b2o!\n";
    assert_int_equal(golgen_universe_parse(NULL, gun, strlen(gun), &u, err,
                                           sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_run_engine(u, (int64_t)1 << 40, "cpu",
                                                "hashlife", err, sizeof err),
                     GOLGEN_ERR_ENV);
    assert_non_null(strstr(err, "more than the universe's grid may hold"));
    assert_int_equal(golgen_universe_generation(u), 0);
    assert_int_equal(golgen_universe_population(u), 36);
    assert_int_equal(golgen_universe_run_engine(u, 30, "cpu", "hashlife",
                                                err, sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_population(u), 36 + 5); /* a glider */
    golgen_universe_free(u);

    /* a busy box of 2^22 cells: dense (in tiles on cpu) for fewer than 4x
     * its side, the tree for more */
    enum { S = 2048 };
    uint8_t *soup = malloc((size_t)S * S);
    assert_non_null(soup);
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < (size_t)S * S; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        soup[i] = (x & 3) == 0;
    }
    golgen_rule *r = parse("B3/S23");
    assert_int_equal(golgen_universe_from_cells(r, soup, S, S, &u, err,
                                                sizeof err), GOLGEN_OK);
    free(soup);
    assert_int_equal(golgen_universe_choose_engine(u, 4 * S - 1, "cpu",
                                                   &engine, err, sizeof err),
                     GOLGEN_OK);
    assert_string_equal(engine, "tiles");
    assert_int_equal(golgen_universe_choose_engine(u, 4 * S, "cpu", &engine,
                                                   err, sizeof err),
                     GOLGEN_OK);
    assert_string_equal(engine, "hashlife");
    golgen_universe_free(u);
    golgen_rule_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glider_reference),
        cmocka_unit_test(test_glider_cpu),
        cmocka_unit_test(test_glider_auto),
        cmocka_unit_test(test_glider_plane),
        cmocka_unit_test(test_bits),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_files_and_text),
        cmocka_unit_test(test_emit),
        cmocka_unit_test(test_engines_agree),
        cmocka_unit_test(test_engine_choice_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
