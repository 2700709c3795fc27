/* Pictures of the hash tree's universe (runtime/engines/hashlife.h): the
 * dense picture (runtime/formats/picture.h) of the region when it is small
 * enough to draw cell by cell, else one drawn from the tree itself, a
 * pixel per power-of-two square shaded by its population, at any size. */
#include "hl_tree.h"

#include <stdlib.h>
#include <string.h>

#include "picture.h"

/* Regions up to this many cells are drawn dense, as other runs draw. */
#define DENSE_CELLS ((int64_t)1 << 26)

typedef struct counts {
    int64_t x0, y0, s; /* the picture's first cell; cells per pixel side */
    int64_t pw, ph;
    int64_t *n;        /* live cells per pixel */
} counts;

static int64_t root_x(const gg_hl *h)
{
    return -((int64_t)1 << (h->node[h->root].level - 1));
}

/* Leaf rows' live cells (any plane) into their pixels. */
static void count_leaf(gg_hl *h, hl_id n, int64_t x, int64_t y, counts *c)
{
    const uint64_t *r = hl_rows(h, n);
    for (int i = 0; i < h->leaf_side; i++) {
        int64_t py = (y + i - c->y0) / c->s;
        for (uint64_t any = hl_live_row(h, r, i); any; any &= any - 1) {
            int64_t px = (x + __builtin_ctzll(any) - c->x0) / c->s;
            if (px >= 0 && px < c->pw && py >= 0 && py < c->ph)
                c->n[py * c->pw + px]++;
        }
    }
}

/* Node n with its top-left cell at (x, y) into the pixels: a node no
 * larger than a pixel (aligned: it lies in one) by its population. */
static void count_node(gg_hl *h, hl_id n, int64_t x, int64_t y, counts *c)
{
    int level = h->node[n].level;
    int64_t size = (int64_t)1 << level;
    if (hl_is_empty(h, n) || x >= c->x0 + c->pw * c->s ||
        y >= c->y0 + c->ph * c->s || x + size <= c->x0 || y + size <= c->y0)
        return;
    if (size <= c->s) {
        int64_t px = (x - c->x0) / c->s, py = (y - c->y0) / c->s;
        c->n[py * c->pw + px] += hl_population(h, n);
        return;
    }
    if (level == h->leaf_log) {
        count_leaf(h, n, x, y, c);
        return;
    }
    int64_t half = size / 2;
    for (int q = 0; q < 4; q++)
        count_node(h, h->node[n].child[q], x + (q & 1) * half,
                   y + (q >> 1) * half, c);
}

/* The region's picture from the tree, s (a power of two) cells a pixel
 * side, its first cell aligned to s as the tree's nodes are. */
static int tree_picture(gg_hl *h, int64_t x, int64_t y, int64_t w,
                        int64_t hgt, int64_t s, gg_image *im,
                        gg_picture_info *info, gg_err *err)
{
    int64_t ax = x - (((x % s) + s) % s), ay = y - ((((y - 1) % s) + s) % s);
    counts c = {ax, ay, s, (x + w - ax + s - 1) / s, (y + hgt - ay + s - 1) / s,
                NULL};
    c.n = gg_alloc((size_t)(c.pw * c.ph), sizeof *c.n, err, "picture");
    if (!c.n || gg_image_init(im, c.pw, c.ph, err)) {
        free(c.n);
        return -1;
    }
    count_node(h, h->root, root_x(h), root_x(h) + 1, &c);
    gg_picture_shade_palette(im);
    for (int64_t i = 0; i < c.pw * c.ph; i++)
        im->index[i] = gg_picture_shade(c.n[i], s * s);
    free(c.n);
    *info = (gg_picture_info){.x = ax, .y = ay, .w = c.pw * s,
                              .h = c.ph * s, .scale = s, .zoom = 1};
    return 0;
}

/* The region drawn dense: the tree's cells there as a universe. */
static int dense_picture(gg_hl *h, const gg_picture_opts *o, gg_image *im,
                         gg_picture_info *info, gg_err *err)
{
    gg_pattern p;
    if (gg_hl_to_pattern(h, DENSE_CELLS, &p, err))
        return -1;
    int rc;
    if (!h->has_rule) { /* a rule table's: its states as planes */
        gg_gen_cells c = {.n_planes = p.n_planes};
        for (int i = 0; i < p.n_planes; i++)
            c.plane[i] = p.plane[i];
        rc = gg_picture_cells(&c, h->states, false, p.x, p.y, o, im, info,
                              err);
    } else if (h->planes > 1) {
        gg_gen_universe g = {0};
        rc = gg_gen_universe_from_pattern(&g, &h->rule, &p, err) ||
             gg_picture_gen_universe(&g, o, im, info, err);
        gg_gen_universe_free(&g);
    } else {
        gg_universe u = {0};
        rc = gg_universe_from_pattern(&u, &h->rule, &p, err) ||
             gg_picture_universe(&u, o, im, info, err);
        gg_universe_free(&u);
    }
    gg_pattern_free(&p);
    return rc ? -1 : 0;
}

int gg_hl_picture(gg_hl *h, const gg_picture_opts *o, gg_image *im,
                  gg_picture_info *info, gg_err *err)
{
    int64_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    if (!o->window && !gg_hl_bbox(h, &x0, &y0, &x1, &y1))
        x1 = x0, y1 = y0;
    int64_t x = o->window ? o->wx : x0, y = o->window ? o->wy : y0;
    int64_t w = o->window ? o->ww : x1 - x0 + 1;
    int64_t hgt = o->window ? o->wh : y1 - y0 + 1;
    if ((double)w * (double)hgt <= (double)DENSE_CELLS && !o->window)
        return dense_picture(h, o, im, info, err);
    if (o->zoom > 1) /* a small window drawn big */
        return gg_fail(err, "--png-zoom draws the live cells' box of a "
                       "hash-tree run; with a window, leave the zoom out");
    int64_t side = o->max_side > 0 ? o->max_side : GG_PICTURE_MAX_SIDE;
    int64_t want = o->scale > 0 ? o->scale : ((w > hgt ? w : hgt) + side - 1)
                                                 / side;
    int64_t s = 1;
    while (s < want && s < ((int64_t)1 << 60))
        s *= 2;
    return tree_picture(h, x, y, w, hgt, s, im, info, err);
}

int gg_hl_write_png(gg_hl *h, const char *path, const gg_picture_opts *o,
                    gg_picture_info *info, gg_err *err)
{
    gg_image im;
    if (gg_hl_picture(h, o, &im, info, err))
        return -1;
    int rc = gg_png_write(path, &im, err);
    gg_image_free(&im);
    return rc;
}
