/* libgolgen's stores (golgen_0.3) as its users see them: include/golgen.h
 * alone, the shared library. A pattern imported into a store reads back
 * the same cells (whole and through a window); a checkpoint written part
 * way and resumed ends where the run straight through ends, and both where
 * a Life step written here (an oracle that shares no code with golgen)
 * ends; a damaged band is refused; Generations imports keep their
 * states' planes; a picture says what it shows. */
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
#include "test_lib_files.h"

enum { W = 32, H = 24 };

/* One B3/S23 generation on the W x H torus. */
static void life_step(uint8_t a[H][W])
{
    uint8_t b[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int n = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    n += (dy || dx) &&
                         a[(y + dy + H) % H][(x + dx + W) % W];
            b[y][x] = n == 3 || (a[y][x] && n == 2);
        }
    memcpy(a, b, sizeof b);
}

static void cells_of(const golgen_universe *u, uint8_t out[H][W])
{
    char err[512];
    assert_int_equal(golgen_universe_window(u, -W / 2, -H / 2, W, H,
                                            &out[0][0], err, sizeof err),
                     GOLGEN_OK);
}

static int setup(void **state)
{
    (void)state;
    assert_int_equal(lib_dir_make("golgen-libstore"), 0);
    /* an R-pentomino and a glider apart on the torus */
    write_text(path("p.rle"), "x = 12, y = 3, rule = B3/S23:T32,24\n"
               "b2o6bo$2o8bo$bo6b3o!\n");
    return 0;
}

static void test_import_info_export(void **state)
{
    (void)state;
    char err[512];
    golgen_store_info *info = NULL;
    assert_int_equal(golgen_store_import(path("p.rle"), NULL,
                                         path("p.ggu"), err, sizeof err),
                     GOLGEN_OK);
    assert_int_equal(golgen_store_info_read(path("p.ggu"), &info, err,
                                            sizeof err), GOLGEN_OK);
    assert_string_equal(info->rule, "B3/S23:T32,24");
    assert_int_equal(info->width, W);
    assert_int_equal(info->height, H);
    assert_int_equal(info->depth, 0);
    assert_int_equal(info->planes, 1);
    assert_int_equal(info->generation, 0);
    assert_int_equal(info->x0, -W / 2);
    assert_int_equal(info->y0, -H / 2);
    assert_true(info->bands >= 1 && info->band_rows >= 1);
    golgen_store_info_free(info);
    /* the store's cells are the pattern's, placed as golgen_universe_read
     * places it */
    golgen_universe *from_file, *from_store, *exported;
    uint8_t a[H][W], b[H][W], c[H][W];
    assert_int_equal(golgen_universe_read(NULL, path("p.rle"), &from_file,
                                          err, sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_read_store(path("p.ggu"), &from_store,
                                                err, sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_store_export(path("p.ggu"), NULL,
                                         path("all.rle"), err, sizeof err),
                     GOLGEN_OK);
    assert_int_equal(golgen_universe_read(NULL, path("all.rle"),
                                          &exported, err, sizeof err),
                     GOLGEN_OK);
    cells_of(from_file, a);
    cells_of(from_store, b);
    cells_of(exported, c);
    assert_memory_equal(a, b, sizeof a);
    assert_int_equal(golgen_universe_population(exported), 10);
    assert_int_equal(golgen_universe_population(from_store), 10);
    /* a window around the glider: the live cells' last 5 columns (the
     * R-pentomino ends 6 columns before it), every row */
    int64_t x, y, w, h, right = -1;
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++)
            if (a[j][i] && i > right)
                right = i;
    assert_true(right >= 4);
    const int64_t win[4] = {-W / 2 + right - 4, -H / 2, 5, H};
    assert_int_equal(golgen_store_export(path("p.ggu"), win,
                                         path("win.rle"), err, sizeof err),
                     GOLGEN_OK);
    golgen_universe *wu;
    assert_int_equal(golgen_universe_read(NULL, path("win.rle"), &wu, err,
                                          sizeof err), GOLGEN_OK);
    int64_t want = 0;
    for (int j = 0; j < H; j++)
        for (int i = right - 4; i <= right; i++)
            want += a[j][i];
    assert_int_equal(want, 5);
    assert_int_equal(golgen_universe_population(wu), want);
    assert_int_equal(golgen_universe_bbox(exported, &x, &y, &w, &h), 0);
    assert_true(w <= W && h <= H);
    golgen_universe_free(wu);
    golgen_universe_free(exported);
    golgen_universe_free(from_store);
    golgen_universe_free(from_file);
}

/* Run 40 generations straight, and 17 + checkpoint + resume + 23. */
static void test_checkpoint_resume(void **state)
{
    (void)state;
    char err[512];
    golgen_universe *straight, *part, *resumed;
    uint8_t oracle[H][W], a[H][W], b[H][W];
    assert_int_equal(golgen_universe_read(NULL, path("p.rle"), &straight,
                                          err, sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_read(NULL, path("p.rle"), &part, err,
                                          sizeof err), GOLGEN_OK);
    cells_of(straight, oracle);
    for (int g = 0; g < 40; g++)
        life_step(oracle);
    assert_int_equal(golgen_universe_run(straight, 40, "reference", err,
                                         sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_run(part, 17, "reference", err,
                                         sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_write_store(part, path("ck.ggu"), err,
                                                 sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_read_store(path("ck.ggu"), &resumed,
                                                err, sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_generation(resumed), 17);
    char rule[64];
    golgen_universe_rule(resumed, rule, sizeof rule);
    assert_string_equal(rule, "B3/S23:T32,24");
    assert_int_equal(golgen_universe_run(resumed, 23, "reference", err,
                                         sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_universe_generation(resumed), 40);
    cells_of(straight, a);
    cells_of(resumed, b);
    assert_memory_equal(a, oracle, sizeof a);
    assert_memory_equal(b, oracle, sizeof b);
    golgen_universe_free(resumed);
    golgen_universe_free(part);
    golgen_universe_free(straight);
}

static void test_damaged_and_missing(void **state)
{
    (void)state;
    char err[512];
    golgen_universe *u = (void *)1;
    golgen_store_info *info = (void *)1;
    assert_int_equal(golgen_store_info_read(path("none.ggu"), &info, err,
                                            sizeof err), GOLGEN_ERR_INPUT);
    assert_null(info);
    assert_non_null(strstr(err, "none.ggu"));
    assert_int_equal(golgen_store_import(path("p.rle"), NULL,
                                         path("d.ggu"), err, sizeof err),
                     GOLGEN_OK);
    /* flip the last byte: the last band's cells */
    FILE *f = fopen(path("d.ggu"), "r+");
    assert_non_null(f);
    assert_int_equal(fseek(f, -1, SEEK_END), 0);
    int ch = fgetc(f);
    assert_int_equal(fseek(f, -1, SEEK_END), 0);
    fputc(ch ^ 0x10, f);
    fclose(f);
    assert_int_equal(golgen_universe_read_store(path("d.ggu"), &u, err,
                                                sizeof err), GOLGEN_ERR_INPUT);
    assert_null(u);
    assert_true(strlen(err) > 10);
    assert_int_equal(golgen_store_import(path("none.rle"), NULL,
                                         path("x.ggu"), err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_store_import(path("p.rle"), "B3/S2Q",
                                         path("x.ggu"), err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_not_equal(access(path("x.ggu"), F_OK), 0);
}

/* A Generations pattern keeps its states: 2 planes for 3 states. */
static void test_generations_import(void **state)
{
    (void)state;
    char err[512];
    golgen_store_info *info;
    write_text(path("g.rle"), "x = 3, y = 1, rule = 23/3/3\nA.B!\n");
    assert_int_equal(golgen_store_import(path("g.rle"), "23/3/3:T16,16",
                                         path("g.ggu"), err, sizeof err),
                     GOLGEN_OK);
    assert_int_equal(golgen_store_info_read(path("g.ggu"), &info, err,
                                            sizeof err), GOLGEN_OK);
    assert_int_equal(info->planes, 2);
    assert_int_equal(info->width, 16);
    golgen_store_info_free(info);
    assert_int_equal(golgen_store_export(path("g.ggu"), NULL,
                                         path("g2.rle"), err, sizeof err),
                     GOLGEN_OK);
    FILE *f = fopen(path("g2.rle"), "r");
    char text[512] = "";
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    assert_non_null(strstr(text, "A.B!"));
}

/* A picture of the torus: one pixel a cell, the grid's region; a window
 * zoomed. (tests/python/test_stores.py decodes the pixels.) */
static void test_png(void **state)
{
    (void)state;
    char err[512];
    golgen_universe *u;
    golgen_picture_info info;
    assert_int_equal(golgen_universe_read(NULL, path("p.rle"), &u, err,
                                          sizeof err), GOLGEN_OK);
    int rc = golgen_universe_write_png(u, path("p.png"), NULL, &info, err,
                                       sizeof err);
    if (rc == GOLGEN_ERR_ENV) { /* a build without libpng says so */
        assert_non_null(strstr(err, "libpng"));
        golgen_universe_free(u);
        skip();
    }
    assert_int_equal(rc, GOLGEN_OK);
    assert_int_equal(info.x, -W / 2);
    assert_int_equal(info.y, -H / 2);
    assert_int_equal(info.w, W);
    assert_int_equal(info.h, H);
    assert_int_equal(info.scale, 1);
    FILE *f = fopen(path("p.png"), "rb");
    unsigned char sig[8];
    assert_non_null(f);
    assert_int_equal(fread(sig, 1, 8, f), 8);
    fclose(f);
    assert_memory_equal(sig, "\x89PNG\r\n\x1a\n", 8);
    golgen_picture_opts o = {.window = 1, .x = 0, .y = 0, .w = 5, .h = 4,
                             .zoom = 4};
    assert_int_equal(golgen_universe_write_png(u, path("w.png"), &o, &info,
                                               err, sizeof err), GOLGEN_OK);
    assert_int_equal(info.w, 5);
    assert_int_equal(info.zoom, 4);
    assert_int_equal(golgen_universe_write_png(u, "/nonexistent/dir/x.png",
                                               NULL, NULL, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    golgen_universe_free(u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_info_export),
        cmocka_unit_test(test_checkpoint_resume),
        cmocka_unit_test(test_damaged_and_missing),
        cmocka_unit_test(test_generations_import),
        cmocka_unit_test(test_png),
    };
    return cmocka_run_group_tests(tests, setup, lib_dir_remove);
}
