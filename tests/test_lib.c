/* libgolgen as its users see it: include/golgen.h alone, linked against the
 * shared library (which exports golgen_* only). A glider on a torus comes
 * back shifted by (1, 1) after 4 generations on each backend asked for;
 * failures come back as codes and sentences; patterns go through files and
 * text; every target emits a kernel. */
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
