#include "topo_ring.h"

static int64_t wrap(int64_t v, int64_t n)
{
    int64_t m = v % n;
    return m < 0 ? m + n : m;
}

/* A cell past the top or bottom edge (h rows) brought over it: false for
 * the plane's dead outside. */
static bool fold_y(const gg_rule *r, int64_t *x, int64_t *y)
{
    int64_t w = r->width, h = r->height, n = r->width;
    bool below = *y >= h, edges = !r->vertical_edges;
    switch (r->topo) {
    case GG_TOPO_TORUS:
        if (edges)
            *x += below ? r->shift : -r->shift;
        *y = wrap(*y, h);
        return true;
    case GG_TOPO_KLEIN:
        if (edges) /* reversed; Golly's shift of 1 moves the join back
                      (bgolly 3.3, where its Help's picture has it
                      forward) */
            *x = w - 1 - *x - r->shift;
        *y = wrap(*y, h);
        return true;
    case GG_TOPO_CROSS:
        *x = w - 1 - *x;
        *y = wrap(*y, h);
        return true;
    case GG_TOPO_SPHERE: { /* top to left, bottom to right */
        int64_t ox = *x;
        *x = below ? 2 * n - 1 - *y : -*y - 1;
        *y = ox;
        return true;
    }
    default:
        return false;
    }
}

/* The same for a cell past the left or right edge. */
static bool fold_x(const gg_rule *r, int64_t *x, int64_t *y)
{
    int64_t w = r->width, h = r->height, n = r->width;
    bool right = *x >= w, edges = r->vertical_edges;
    switch (r->topo) {
    case GG_TOPO_TORUS:
        if (edges)
            *y += right ? r->shift : -r->shift;
        *x = wrap(*x, w);
        return true;
    case GG_TOPO_KLEIN:
        if (edges)
            *y = h - 1 - *y - r->shift;
        *x = wrap(*x, w);
        return true;
    case GG_TOPO_CROSS:
        *y = h - 1 - *y;
        *x = wrap(*x, w);
        return true;
    case GG_TOPO_SPHERE: {
        int64_t ox = *x;
        *x = *y;
        *y = right ? 2 * n - 1 - ox : -ox - 1;
        return true;
    }
    default:
        return false;
    }
}

bool gg_ring_source(const gg_rule *rule, int64_t x, int64_t y, int64_t *sx,
                    int64_t *sy)
{
    int64_t w = rule->width, h = rule->height;
    /* a corner folds twice (the sphere's three times at most) */
    for (int i = 0; i < 4; i++) {
        bool out_y = h && (y < 0 || y >= h), out_x = w && (x < 0 || x >= w);
        if (!out_x && !out_y) {
            *sx = x, *sy = y;
            return true;
        }
        if (!(out_y ? fold_y(rule, &x, &y) : fold_x(rule, &x, &y)))
            return false;
    }
    return false; /* not reached for a ring narrower than the grid */
}

int64_t gg_ring_depth(const gg_rule *rule, int64_t max_batch)
{
    if (rule->topo == GG_TOPO_CROSS || rule->topo == GG_TOPO_SPHERE ||
        rule->topo == GG_TOPO_PLANE)
        return 1;
    int64_t k = max_batch > 0 ? max_batch : 1;
    if (rule->width && k > rule->width)
        k = rule->width;
    if (rule->height && k > rule->height)
        k = rule->height;
    return k;
}

void gg_ring_plane_size(const gg_rule *rule, int64_t k, int64_t live_w,
                        int64_t live_h, int64_t *w, int64_t *h)
{
    *w = rule->width ? rule->width + 2 * k : live_w;
    *h = rule->height ? rule->height + 2 * k : live_h;
}

static void fill_cell(const gg_rule *rule, int64_t k, gg_grid *planes,
                      int n, bool clear, int64_t px, int64_t py)
{
    int64_t kx = rule->width ? k : 0, ky = rule->height ? k : 0, sx, sy;
    bool live = !clear && gg_ring_source(rule, px - kx, py - ky, &sx, &sy);
    for (int p = 0; p < n; p++)
        gg_grid_set(&planes[p], px, py,
                    live ? gg_grid_get(&planes[p], sx + kx, sy + ky) : 0);
}

void gg_ring_fill(const gg_rule *rule, int64_t k, gg_grid *planes, int n,
                  bool clear)
{
    int64_t pw = planes[0].width, ph = planes[0].height;
    int64_t kx = rule->width ? k : 0, ky = rule->height ? k : 0;
    for (int64_t py = 0; py < ph; py++) {
        bool ring_row = py < ky || py >= ph - ky;
        for (int64_t px = 0; px < pw; px++) {
            if (!ring_row && px == kx) /* skip the row's inside */
                px = pw - kx;
            if (px < pw)
                fill_cell(rule, k, planes, n, clear, px, py);
        }
    }
}
