/* Pictures of universes (runtime/formats/picture.h): one fill over a "source" of
 * cells, which the three kinds of universe describe. */
#include "picture.h"

#include <stdlib.h>
#include <string.h>

/* Cells as a picture sees them. */
typedef struct source {
    int64_t width, height; /* cells */
    int64_t depth;         /* live cells one (x, y) can hold: 1, or 3D's z */
    int states;            /* colours per state at one pixel a cell (2, or
                              Generations' C); 0: shades only */
    const gg_grid *planes; /* 2D: its grid; Generations: the state planes
                              (a cell not 0 has a bit in one of them) */
    int n_planes;
    const gg_gen_cells *cells; /* Generations: for the state itself */
    const gg_grid3d *g3;       /* 3D: counted along z */
} source;

/* Row y as words with a bit for each cell not 0: the grid's own row, the
 * state planes OR-ed into scratch (Generations), or plane z = layer (3D,
 * whose rows are counted one z at a time). */
static const uint64_t *layer_row(const source *s, int64_t y, int64_t layer,
                                 uint64_t *scratch)
{
    if (s->g3)
        return gg_grid3d_row(s->g3, y, layer);
    if (s->n_planes == 1)
        return gg_grid_row(s->planes, y);
    int64_t words = s->planes[0].stride;
    memcpy(scratch, gg_grid_row(&s->planes[0], y),
           (size_t)words * sizeof *scratch);
    for (int p = 1; p < s->n_planes; p++) {
        const uint64_t *row = gg_grid_row(&s->planes[p], y);
        for (int64_t w = 0; w < words; w++)
            scratch[w] |= row[w];
    }
    return scratch;
}

/* Set bits of row in [x0, x1). */
static int64_t range_count(const uint64_t *row, int64_t x0, int64_t x1)
{
    if (x0 >= x1)
        return 0;
    int64_t w0 = x0 >> 6, w1 = (x1 - 1) >> 6;
    uint64_t m0 = ~0ull << (x0 & 63);
    uint64_t m1 = ~0ull >> (63 - ((x1 - 1) & 63));
    if (w0 == w1)
        return __builtin_popcountll(row[w0] & m0 & m1);
    int64_t n = __builtin_popcountll(row[w0] & m0) +
                __builtin_popcountll(row[w1] & m1);
    for (int64_t w = w0 + 1; w < w1; w++)
        n += __builtin_popcountll(row[w]);
    return n;
}

static int state_at(const source *s, int64_t x, int64_t y)
{
    if (x < 0 || y < 0 || x >= s->width || y >= s->height)
        return 0;
    return s->cells ? gg_gen_cells_get(s->cells, x, y)
                    : gg_grid_get(s->planes, x, y);
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Dead black, alive white, Generations' dying states from orange to dark
 * purple: Golly's look, darker as a cell ages. */
static void state_palette(gg_image *im, int states)
{
    static const uint8_t from[3] = {255, 170, 0}, to[3] = {90, 20, 120};
    memset(im->palette, 0, sizeof im->palette);
    memset(im->palette[1], 255, 3);
    for (int st = 2; st < states; st++)
        for (int c = 0; c < 3; c++) {
            int span = states > 3 ? states - 3 : 1;
            im->palette[st][c] = (uint8_t)(from[c] + (to[c] - from[c]) *
                                                         (st - 2) / span);
        }
    im->colours = states;
}

/* 0 black (no live cell), then 255 greys from one any eye sees on black
 * (a lone live cell in a large square) to white (all live). */
void gg_picture_shade_palette(gg_image *im)
{
    memset(im->palette, 0, sizeof im->palette);
    for (int i = 1; i < 256; i++)
        memset(im->palette[i], 56 + (199 * (i - 1)) / 254, 3);
    im->colours = 256;
}

uint8_t gg_picture_shade(int64_t count, int64_t area)
{
    if (count <= 0)
        return 0;
    return (uint8_t)(1 + (254 * count + area / 2) / area);
}

/* The picture of the region [rx, rx + rw) x [ry, ry + rh) of the source's
 * cells (parts outside it are dead). */
typedef struct region {
    int64_t x, y, w, h;
} region;

static int pick_scale(const region *r, const gg_picture_opts *o,
                      int64_t *scale, int64_t *zoom, gg_err *err)
{
    int64_t side = o->max_side > 0 ? o->max_side : GG_PICTURE_MAX_SIDE;
    int64_t big = r->w > r->h ? r->w : r->h;
    *zoom = o->zoom > 0 ? o->zoom : 1;
    *scale = o->scale > 0 ? o->scale : (big + side - 1) / side;
    if (*scale < 1)
        *scale = 1;
    if (*zoom > 1 && *scale > 1)
        return gg_fail(err, "a zoom of %lld pixels a cell needs one cell a "
                       "pixel, but the %lld x %lld cells shown take %lld a "
                       "pixel side; draw a smaller window or leave the zoom "
                       "out", (long long)*zoom, (long long)r->w,
                       (long long)r->h, (long long)*scale);
    return 0;
}

/* One row of pixels, py, by density: counts[] gathers each pixel's cells
 * row by row (a row's words are read once). */
static void fill_shaded_row(const source *s, const region *r, int64_t scale,
                            int64_t py, int64_t pw, int64_t *counts,
                            uint64_t *scratch, uint8_t *out)
{
    int64_t cy0 = r->y + py * scale;
    int64_t cy1 = cy0 + scale < r->y + r->h ? cy0 + scale : r->y + r->h;
    int64_t layers = s->g3 ? s->g3->sz : 1;
    memset(counts, 0, (size_t)pw * sizeof *counts);
    for (int64_t y = clamp(cy0, 0, s->height); y < clamp(cy1, 0, s->height);
         y++)
        for (int64_t l = 0; l < layers; l++) {
            const uint64_t *row = layer_row(s, y, l, scratch);
            for (int64_t px = 0; px < pw; px++) {
                int64_t cx0 = r->x + px * scale;
                int64_t cx1 = cx0 + scale < r->x + r->w ? cx0 + scale
                                                        : r->x + r->w;
                counts[px] += range_count(row, clamp(cx0, 0, s->width),
                                          clamp(cx1, 0, s->width));
            }
        }
    for (int64_t px = 0; px < pw; px++) {
        int64_t cw = (r->x + r->w < r->x + (px + 1) * scale
                          ? r->x + r->w
                          : r->x + (px + 1) * scale) -
                     (r->x + px * scale);
        out[px] = gg_picture_shade(counts[px], cw * (cy1 - cy0) * s->depth);
    }
}

static int draw(const source *s, const region *r, const gg_picture_opts *o,
                gg_image *im, int64_t *scale_out, int64_t *zoom_out,
                gg_err *err)
{
    int64_t scale, zoom;
    if (pick_scale(r, o, &scale, &zoom, err))
        return -1;
    int64_t pw = (r->w + scale - 1) / scale, ph = (r->h + scale - 1) / scale;
    if (pw > INT32_MAX / zoom || ph > INT32_MAX / zoom)
        return gg_fail(err, "a picture %lld x %lld cells at %lld pixels a "
                       "cell is too large", (long long)r->w,
                       (long long)r->h, (long long)zoom);
    if (gg_image_init(im, pw * zoom, ph * zoom, err))
        return -1;
    bool states = scale == 1 && s->depth == 1 && s->states >= 2;
    if (states)
        state_palette(im, s->states);
    else
        gg_picture_shade_palette(im);
    int64_t *counts = gg_alloc((size_t)pw, sizeof *counts, err, "picture");
    uint8_t *row = gg_alloc((size_t)pw, 1, err, "picture");
    uint64_t *scratch = gg_alloc((size_t)(s->width + 63) / 64,
                                 sizeof *scratch, err, "picture");
    if (!counts || !row || !scratch) {
        free(counts);
        free(row);
        free(scratch);
        gg_image_free(im);
        return -1;
    }
    for (int64_t py = 0; py < ph; py++) {
        if (states)
            for (int64_t px = 0; px < pw; px++)
                row[px] = (uint8_t)state_at(s, r->x + px, r->y + py);
        else
            fill_shaded_row(s, r, scale, py, pw, counts, scratch, row);
        for (int64_t zy = 0; zy < zoom; zy++) {
            uint8_t *dst = im->index + (py * zoom + zy) * im->width;
            for (int64_t px = 0; px < pw; px++)
                memset(dst + px * zoom, row[px], (size_t)zoom);
        }
    }
    free(counts);
    free(row);
    free(scratch);
    *scale_out = scale;
    *zoom_out = zoom;
    return 0;
}

/* The region of a 2D universe (grid coordinates): the window, the whole
 * bounded grid, or the live cells' box. */
static region region_2d(const gg_picture_opts *o, bool bounded, bool any,
                        int64_t bx0, int64_t by0, int64_t bx1, int64_t by1,
                        int64_t x0, int64_t y0, int64_t w, int64_t h)
{
    if (o->window)
        return (region){o->wx - x0, o->wy - y0, o->ww, o->wh};
    if (bounded)
        return (region){0, 0, w, h};
    if (!any) /* Golly's origin */
        return (region){-x0, -y0, 1, 1};
    return (region){bx0, by0, bx1 - bx0 + 1, by1 - by0 + 1};
}

static int finish(const source *s, const region *r, const gg_picture_opts *o,
                  int64_t x0, int64_t y0, gg_image *im,
                  gg_picture_info *info, gg_err *err)
{
    gg_picture_info ignored;
    info = info ? info : &ignored;
    info->x = r->x + x0;
    info->y = r->y + y0;
    info->w = r->w;
    info->h = r->h;
    return draw(s, r, o, im, &info->scale, &info->zoom, err);
}

int gg_picture_universe(const gg_universe *u, const gg_picture_opts *o,
                        gg_image *im, gg_picture_info *info, gg_err *err)
{
    int64_t bx0 = 0, by0 = 0, bx1 = 0, by1 = 0;
    bool any = gg_grid_bbox(&u->grid, &bx0, &by0, &bx1, &by1);
    source s = {u->grid.width, u->grid.height, 1, 2, &u->grid, 1, NULL,
                NULL};
    region r = region_2d(o, gg_rule_is_bounded(&u->rule), any, bx0, by0, bx1,
                         by1, u->x0, u->y0, u->grid.width, u->grid.height);
    return finish(&s, &r, o, u->x0, u->y0, im, info, err);
}

int gg_picture_gen_universe(const gg_gen_universe *u,
                            const gg_picture_opts *o, gg_image *im,
                            gg_picture_info *info, gg_err *err)
{
    int64_t bx0 = 0, by0 = 0, bx1 = 0, by1 = 0;
    bool any = gg_gen_cells_bbox(&u->cells, &bx0, &by0, &bx1, &by1);
    int64_t w = gg_gen_cells_width(&u->cells);
    int64_t h = gg_gen_cells_height(&u->cells);
    int states = u->rule.states > 256 ? 256 : u->rule.states;
    source s = {w, h, 1, states, u->cells.plane, u->cells.n_planes,
                &u->cells, NULL};
    region r = region_2d(o, gg_rule_is_bounded(&u->rule), any, bx0, by0, bx1,
                         by1, u->x0, u->y0, w, h);
    return finish(&s, &r, o, u->x0, u->y0, im, info, err);
}

int gg_picture_cells(const gg_gen_cells *c, int states, bool bounded,
                     int64_t x0, int64_t y0, const gg_picture_opts *o,
                     gg_image *im, gg_picture_info *info, gg_err *err)
{
    int64_t bx0 = 0, by0 = 0, bx1 = 0, by1 = 0;
    bool any = gg_gen_cells_bbox(c, &bx0, &by0, &bx1, &by1);
    int64_t w = gg_gen_cells_width(c), h = gg_gen_cells_height(c);
    source s = {w, h, 1, states > 256 ? 256 : states, c->plane, c->n_planes,
                c, NULL};
    region r = region_2d(o, bounded, any, bx0, by0, bx1, by1, x0, y0, w, h);
    return finish(&s, &r, o, x0, y0, im, info, err);
}

int gg_picture_grid3d(const gg_grid3d *g, const gg_picture_opts *o,
                      gg_image *im, gg_picture_info *info, gg_err *err)
{
    source s = {g->sx, g->sy, g->sz, 0, NULL, 0, NULL, g};
    region r = o->window ? (region){o->wx, o->wy, o->ww, o->wh}
                         : (region){0, 0, g->sx, g->sy};
    return finish(&s, &r, o, 0, 0, im, info, err);
}

/* ---- to files ---- */

static int write_image(const char *path, gg_image *im, int drawn,
                       gg_err *err)
{
    if (drawn)
        return -1;
    int bad = gg_png_write(path, im, err);
    gg_image_free(im);
    return bad;
}

int gg_picture_write_universe(const char *path, const gg_universe *u,
                              const gg_picture_opts *o,
                              gg_picture_info *info, gg_err *err)
{
    gg_image im;
    return write_image(path, &im, gg_picture_universe(u, o, &im, info, err),
                       err);
}

int gg_picture_write_gen_universe(const char *path,
                                  const gg_gen_universe *u,
                                  const gg_picture_opts *o,
                                  gg_picture_info *info, gg_err *err)
{
    gg_image im;
    return write_image(path, &im,
                       gg_picture_gen_universe(u, o, &im, info, err), err);
}

int gg_picture_write_cells(const char *path, const gg_gen_cells *c,
                           int states, bool bounded, int64_t x0, int64_t y0,
                           const gg_picture_opts *o, gg_picture_info *info,
                           gg_err *err)
{
    gg_image im;
    return write_image(path, &im,
                       gg_picture_cells(c, states, bounded, x0, y0, o, &im,
                                        info, err),
                       err);
}

int gg_picture_write_grid3d(const char *path, const gg_grid3d *g,
                            const gg_picture_opts *o, gg_picture_info *info,
                            gg_err *err)
{
    gg_image im;
    return write_image(path, &im, gg_picture_grid3d(g, o, &im, info, err),
                       err);
}
