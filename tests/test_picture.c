/* Pictures of universes (runtime/formats/picture.h, png_write.h): each file is
 * read back with libpng and its pixels checked against the cells, at one
 * pixel a cell, zoomed, windowed, scaled down by density, for Generations
 * states and for 3D's projection; writes are atomic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <png.h>
#include <string.h>
#include <sys/stat.h>

#include "test_util.h"

#include "gen_universe.h"
#include "picture.h"

/* A PNG file as RGB, read by libpng (its own reader, not ours). */
typedef struct rgb_image {
    int w, h;
    uint8_t *px; /* w * h * 3 */
    bool colormap; /* the file is palette-indexed */
} rgb_image;

static rgb_image read_png(const char *path)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&im, path))
        fail_msg("%s: %s", path, im.message);
    rgb_image r = {(int)im.width, (int)im.height, NULL,
                   (im.format & PNG_FORMAT_FLAG_COLORMAP) != 0};
    im.format = PNG_FORMAT_RGB;
    r.px = malloc(PNG_IMAGE_SIZE(im));
    assert_non_null(r.px);
    if (!png_image_finish_read(&im, NULL, r.px, 0, NULL))
        fail_msg("%s: %s", path, im.message);
    return r;
}

static const uint8_t *pixel(const rgb_image *r, int x, int y)
{
    return r->px + ((size_t)y * (size_t)r->w + (size_t)x) * 3;
}

static bool is_rgb(const uint8_t *p, int red, int green, int blue)
{
    return p[0] == red && p[1] == green && p[2] == blue;
}

static void path_of(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", gg_test_dir, name);
}

static gg_universe soup(const char *rule, double density, uint64_t seed)
{
    gg_universe u;
    gg_err err;
    gg_rule r = gg_test_rule(rule);
    assert_int_equal(gg_universe_init(&u, &r, &err), 0);
    gg_grid_random(&u.grid, density, seed);
    return u;
}

/* One pixel a cell: white where alive, black where dead, the file a
 * 1-bit palette (two colours). */
static void test_full_size(void **state)
{
    (void)state;
    char path[256];
    path_of(path, sizeof path, "full.png");
    gg_universe u = soup("B3/S23:T100,37", 0.4, 7);
    gg_picture_opts o = {0};
    gg_picture_info info;
    gg_err err;
    assert_int_equal(gg_picture_write_universe(path, &u, &o, &info, &err), 0);
    assert_int_equal(info.scale, 1);
    assert_int_equal(info.x, -50);
    assert_int_equal(info.y, -18);
    rgb_image r = read_png(path);
    assert_int_equal(r.w, 100);
    assert_int_equal(r.h, 37);
    assert_true(r.colormap);
    for (int y = 0; y < 37; y++)
        for (int x = 0; x < 100; x++) {
            const uint8_t *p = pixel(&r, x, y);
            if (gg_grid_get(&u.grid, x, y))
                assert_true(is_rgb(p, 255, 255, 255));
            else
                assert_true(is_rgb(p, 0, 0, 0));
        }
    free(r.px);
    gg_universe_free(&u);
}

/* A window in Golly coordinates, zoomed: cells outside the grid are
 * dead, and each cell is zoom x zoom pixels. */
static void test_window_zoom(void **state)
{
    (void)state;
    char path[256];
    path_of(path, sizeof path, "window.png");
    gg_universe u = soup("B3/S23:P20,10", 0.5, 3); /* cells -10..9, -5..4 */
    gg_picture_opts o = {.window = true, .wx = 5, .wy = -7, .ww = 8,
                         .wh = 6, .zoom = 3};
    gg_err err;
    assert_int_equal(gg_picture_write_universe(path, &u, &o, NULL, &err), 0);
    rgb_image r = read_png(path);
    assert_int_equal(r.w, 24);
    assert_int_equal(r.h, 18);
    for (int py = 0; py < r.h; py++)
        for (int px = 0; px < r.w; px++) {
            int64_t gx = 5 + px / 3 - u.x0, gy = -7 + py / 3 - u.y0;
            bool alive = gx < u.grid.width && gy >= 0 &&
                         gg_grid_get(&u.grid, gx, gy);
            assert_int_equal(pixel(&r, px, py)[0], alive ? 255 : 0);
        }
    free(r.px);
    gg_universe_free(&u);
}

/* A universe wider than max_side: each pixel stands for scale x scale
 * cells, black exactly where none lives, white where all do, and a
 * square with more live cells never darker than one with fewer. */
static void test_scaled_density(void **state)
{
    (void)state;
    char path[256];
    path_of(path, sizeof path, "scaled.png");
    gg_universe u = soup("B3/S23:T400,200", 0.3, 11);
    for (int y = 0; y < 40; y++) /* a full square, then an empty one */
        for (int x = 0; x < 40; x++) {
            gg_grid_set(&u.grid, x, y, 1);
            gg_grid_set(&u.grid, 200 + x, y, 0);
        }
    gg_picture_opts o = {.max_side = 64};
    gg_picture_info info;
    gg_err err;
    assert_int_equal(gg_picture_write_universe(path, &u, &o, &info, &err), 0);
    assert_int_equal(info.scale, 7); /* ceil(400 / 64) */
    rgb_image r = read_png(path);
    assert_int_equal(r.w, 58); /* ceil(400 / 7) */
    assert_int_equal(r.h, 29);
    int64_t count[29][58] = {{0}};
    for (int y = 0; y < 200; y++)
        for (int x = 0; x < 400; x++)
            count[y / 7][x / 7] += gg_grid_get(&u.grid, x, y);
    for (int py = 0; py < 29; py++)
        for (int px = 0; px < 58; px++) {
            int grey = pixel(&r, px, py)[0];
            int64_t area = (px == 57 ? 400 - 57 * 7 : 7) *
                           (py == 28 ? 200 - 28 * 7 : 7);
            assert_int_equal(grey == 0, count[py][px] == 0);
            assert_int_equal(grey == 255, count[py][px] == area);
            for (int qx = 0; qx < 57; qx++) /* whole squares, same area */
                if (py < 28 && count[py][qx] < count[py][px] && px < 57)
                    assert_true(pixel(&r, qx, py)[0] <= grey);
        }
    assert_int_equal(pixel(&r, 0, 0)[0], 255);
    assert_int_equal(pixel(&r, 200 / 7 + 1, 1)[0], 0);
    free(r.px);
    gg_universe_free(&u);
}

/* The unbounded plane is drawn around its live cells; an empty one is
 * one dead pixel at the origin. */
static void test_unbounded_box(void **state)
{
    (void)state;
    char path[256];
    path_of(path, sizeof path, "box.png");
    gg_pattern p;
    gg_universe u;
    gg_err err;
    const char *rle = "#CXRLE Pos=-7,3\nx = 3, y = 3, rule = B3/S23\n"
                      "bo$2bo$3o!\n";
    assert_int_equal(gg_pattern_parse(rle, strlen(rle), "glider", &p, &err),
                     0);
    gg_rule rule = gg_test_rule("B3/S23");
    assert_int_equal(gg_universe_from_pattern(&u, &rule, &p, &err), 0);
    gg_pattern_free(&p);
    gg_picture_opts o = {0};
    gg_picture_info info;
    assert_int_equal(gg_picture_write_universe(path, &u, &o, &info, &err), 0);
    assert_int_equal(info.x, -7);
    assert_int_equal(info.y, 3);
    rgb_image r = read_png(path);
    assert_int_equal(r.w, 3);
    assert_int_equal(r.h, 3);
    const char *want = ".O...OOOO";
    for (int i = 0; i < 9; i++)
        assert_int_equal(pixel(&r, i % 3, i / 3)[0], want[i] == 'O' ? 255 : 0);
    free(r.px);
    gg_universe_free(&u);
}

/* Generations: a colour per state (0 black, 1 white, the dying states
 * distinct and neither), the same cells the same colour. */
static void test_generations_colours(void **state)
{
    (void)state;
    char path[256];
    path_of(path, sizeof path, "gen.png");
    gg_gen_universe u = {0};
    gg_err err;
    u.rule = gg_test_rule("345/2/6:T12,5");
    assert_int_equal(gg_gen_cells_init(&u.cells, 3, 12, 5, &err), 0);
    u.x0 = -6;
    u.y0 = -2;
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 12; x++)
            gg_gen_cells_set(&u.cells, x, y, (x + y) % 6);
    gg_picture_opts o = {0};
    assert_int_equal(gg_picture_write_gen_universe(path, &u, &o, NULL, &err),
                     0);
    rgb_image r = read_png(path);
    assert_int_equal(r.w, 12);
    assert_int_equal(r.h, 5);
    assert_true(r.colormap);
    const uint8_t *colour[6];
    for (int s = 0; s < 6; s++)
        colour[s] = pixel(&r, s, 0);
    assert_true(is_rgb(colour[0], 0, 0, 0));
    assert_true(is_rgb(colour[1], 255, 255, 255));
    for (int s = 0; s < 6; s++)
        for (int t = 0; t < s; t++)
            assert_memory_not_equal(colour[s], colour[t], 3);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 12; x++)
            assert_memory_equal(pixel(&r, x, y), colour[(x + y) % 6], 3);
    free(r.px);
    gg_gen_cells_free(&u.cells);
}

/* 3D: the projection along z; a column with no live cell is black, a
 * full one white, and more live cells are never darker. */
static void test_3d_projection(void **state)
{
    (void)state;
    char path[256];
    path_of(path, sizeof path, "cube.png");
    gg_grid3d g;
    gg_err err;
    assert_int_equal(gg_grid3d_init(&g, 9, 4, 5, &err), 0);
    for (int x = 0; x < 9; x++) /* column (x, 0) holds min(x, 5) cells */
        for (int z = 0; z < x && z < 5; z++)
            gg_grid3d_set(&g, x, 0, z, 1);
    gg_grid3d_set(&g, 2, 3, 4, 1);
    gg_picture_opts o = {0};
    assert_int_equal(gg_picture_write_grid3d(path, &g, &o, NULL, &err), 0);
    rgb_image r = read_png(path);
    assert_int_equal(r.w, 9);
    assert_int_equal(r.h, 4);
    assert_int_equal(pixel(&r, 0, 0)[0], 0);
    for (int x = 1; x < 9; x++)
        assert_true(pixel(&r, x, 0)[0] >= pixel(&r, x - 1, 0)[0]);
    assert_true(pixel(&r, 1, 0)[0] > 0 && pixel(&r, 4, 0)[0] < 255);
    assert_int_equal(pixel(&r, 5, 0)[0], 255);
    assert_int_equal(pixel(&r, 2, 3)[0], pixel(&r, 1, 0)[0]);
    assert_int_equal(pixel(&r, 3, 2)[0], 0);
    free(r.px);
    gg_grid3d_free(&g);
}

/* A picture that cannot be written leaves nothing behind, and one that
 * replaces a file replaces it whole; a zoom on a scaled picture and an
 * absurd size are refused with a reason. */
static void test_atomic_and_refusals(void **state)
{
    (void)state;
    char path[256], bad[256];
    struct stat st;
    path_of(path, sizeof path, "again.png");
    path_of(bad, sizeof bad, "no/such/dir/x.png");
    gg_universe u = soup("B3/S23:T64,64", 0.5, 5);
    gg_picture_opts o = {0};
    gg_err err;
    assert_int_equal(gg_picture_write_universe(bad, &u, &o, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "no/such/dir"));
    assert_int_not_equal(stat(bad, &st), 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("not a picture", f);
    fclose(f);
    assert_int_equal(gg_picture_write_universe(path, &u, &o, NULL, &err), 0);
    rgb_image r = read_png(path);
    assert_int_equal(r.w, 64);
    free(r.px);
    o.zoom = 4;
    o.max_side = 16;
    assert_int_equal(gg_picture_write_universe(path, &u, &o, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "zoom"));
    gg_picture_opts huge = {.window = true, .ww = 1 << 20, .wh = 1 << 20,
                            .scale = 1};
    gg_image im;
    assert_int_equal(gg_picture_universe(&u, &huge, &im, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "too large"));
    gg_universe_free(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_size),
        cmocka_unit_test(test_window_zoom),
        cmocka_unit_test(test_scaled_density),
        cmocka_unit_test(test_unbounded_box),
        cmocka_unit_test(test_generations_colours),
        cmocka_unit_test(test_3d_projection),
        cmocka_unit_test(test_atomic_and_refusals),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}
