/* A world drawn (lib/world_core.h): a window of states, or of shaded
 * squares of 2^level cells, from the bit planes of the two-state,
 * Generations and rule-table families and a 3D grid's slice (Larger than
 * Life: world_ltl.c; a 3D projection: world_3d.c). */
#include <stdlib.h>
#include <string.h>

#include "world_core.h"

static int64_t wrap(int64_t v, int64_t n)
{
    v %= n;
    return v < 0 ? v + n : v;
}

/* Live cells among bits [a, b) of row r. */
static GG_W_HOT int64_t count_bits(const uint64_t *r, int64_t a, int64_t b)
{
    int64_t n = 0;
    while (a < b) {
        int64_t word = a >> 6, lo = a & 63;
        int64_t hi = (b - (word << 6)) < 64 ? b - (word << 6) : 64;
        uint64_t m = r[word] >> lo;
        if (hi - lo < 64)
            m &= (1ull << (hi - lo)) - 1;
        n += __builtin_popcountll(m);
        a = (word << 6) + hi;
    }
    return n;
}

/* One grid row's live cells added to count[c] for the view's columns:
 * block c covers cells [gx + c * side, + side), wrapped when wrap_w (the
 * torus's width) is set, else clipped to [0, width). Blocks aligned to
 * their size (as the page asks for them) take one masked popcount, or
 * whole words. */
static GG_W_HOT void count_row(const uint64_t *bits, int64_t width,
                             int64_t wrap_w, int64_t gx, int cols,
                             int level, int64_t *count)
{
    int64_t side = 1LL << level;
    int64_t a = wrap_w ? wrap(gx, wrap_w) : gx;
    bool aligned = (a & (side < 64 ? side - 1 : 63)) == 0 &&
                   (!wrap_w || wrap_w % side == 0);
    uint64_t mask = side < 64 ? (1ull << side) - 1 : ~0ull;
    if (aligned && side >= 64) { /* whole words: one pass along the row */
        int64_t per = side >> 6, nw = (width + 63) >> 6, k = a >> 6;
        for (int c = 0; c < cols; c++) {
            int64_t n = 0;
            if (!wrap_w) {
                /* only the words inside the row: a block of 2^40 cells
                 * must not walk 2^34 words past its end (a fuzzed "view
                 * 0 2 6 70 40" took 62 s) */
                if (k >= nw)
                    break; /* this block and those right of it are empty */
                int64_t end = per > nw - k ? nw : k + per;
                for (int64_t j = k < 0 ? 0 : k; j < end; j++)
                    n += __builtin_popcountll(bits[j]);
                k = end;
            } else {
                for (int64_t j = 0; j < per; j++, k++) {
                    if (k == nw) /* (width is a multiple of side) */
                        k = 0;
                    n += __builtin_popcountll(bits[k]);
                }
            }
            count[c] += n;
        }
        return;
    }
    for (int c = 0; c < cols; c++, a += side) {
        if (wrap_w && a >= wrap_w)
            a -= wrap_w;
        int64_t b = a + side;
        if (aligned && a >= 0 && b <= width) {
            if (side < 64) {
                count[c] += __builtin_popcountll((bits[a >> 6] >> (a & 63)) &
                                                 mask);
            } else {
                int64_t n = 0;
                for (int64_t k = a >> 6; k < b >> 6; k++)
                    n += __builtin_popcountll(bits[k]);
                count[c] += n;
            }
            continue;
        }
        if (wrap_w && b > wrap_w) { /* across the seam */
            count[c] += count_bits(bits, a, wrap_w) +
                        count_bits(bits, 0, b - wrap_w);
            continue;
        }
        if (b <= 0 || a >= width)
            continue;
        count[c] += count_bits(bits, a < 0 ? 0 : a, b > width ? width : b);
    }
}

/* Level k > 0: counts of 2^k squares, shaded; with sample (1 .. side)
 * only that many rows of each square, evenly spaced, are read. */
static void render_blocks(const gg_grid **g, int n, bool torus, int64_t gx,
                          int64_t gy, int cols, int rows, int level,
                          int64_t sample, uint8_t *out, uint64_t *row,
                          int64_t *count)
{
    const gg_grid *g0 = g[0];
    int64_t side = 1LL << level;
    int64_t every = sample > 0 && sample < side ? side / sample : 1;
    double area = (double)side * (double)(side / every);
    for (int r = 0; r < rows; r++) {
        memset(count, 0, (size_t)cols * sizeof *count);
        int64_t y = gy + r * side + every / 2, yend = gy + r * side + side;
        if (!torus) {
            if (y < 0)
                y += (-y + every - 1) / every * every;
            if (yend > g0->height)
                yend = g0->height;
        }
        for (; y < yend; y += every) {
            int64_t gyr = torus ? wrap(y, g0->height) : y;
            const uint64_t *bits = gg_grid_row(g0, gyr);
            if (n > 1) { /* Generations: any state but 0 */
                for (int64_t k = 0; k < g0->stride; k++) {
                    uint64_t v = 0;
                    for (int p = 0; p < n; p++)
                        v |= gg_grid_row(g[p], gyr)[k];
                    row[k] = v;
                }
                bits = row;
            }
            count_row(bits, g0->width, torus ? g0->width : 0, gx, cols,
                      level, count);
        }
        for (int c = 0; c < cols; c++) {
            double s = (double)count[c] / area * 254.0;
            out[(size_t)r * cols + c] =
                count[c] ? (uint8_t)(1 + (s > 254 ? 254 : s)) : 0;
        }
    }
}

/* Level 0: each cell's state, bit by bit along the rows. */
static void render_cells(const gg_grid **g, int n, bool torus, int64_t gx,
                         int64_t gy, int cols, int rows, uint8_t *out)
{
    int64_t width = g[0]->width, height = g[0]->height;
    for (int r = 0; r < rows; r++) {
        int64_t cy = gy + r;
        if (torus)
            cy = wrap(cy, height);
        else if (cy < 0 || cy >= height)
            continue;
        uint8_t *o = out + (size_t)r * cols;
        int c = 0;
        int64_t x = gx;
        if (torus)
            x = wrap(gx, width);
        else if (gx < 0)
            c = gx < -(int64_t)cols ? cols : (int)-gx, x = 0;
        while (c < cols && x < width) {
            int64_t end = width - x < cols - c ? width - x : cols - c;
            for (int p = 0; p < n; p++) {
                const uint64_t *bits = gg_grid_row(g[p], cy);
                for (int64_t k = 0; k < end; k++)
                    o[c + k] |= (uint8_t)(((bits[(x + k) >> 6] >>
                                            ((x + k) & 63)) & 1) << p);
            }
            c += (int)end;
            x = torus ? 0 : width;
        }
    }
}

void gg_world_render(const golgen_world *w, int64_t x, int64_t y, int cols,
                     int rows, int level, int64_t sample, uint8_t *out)
{
    if (w->family == GOLGEN_FAMILY_LTL)
        return gg_world_ltl_render(w, x, y, cols, rows, level, sample, out);
    if (w->family == GOLGEN_FAMILY_3D && w->d.project)
        return gg_world_3d_render_sum(w, x, y, cols, rows, level, sample,
                                      out);
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES];
    int64_t x0, y0;
    int n = gg_world_planes(w, g, &x0, &y0);
    int64_t gx = x - x0, gy = y - y0; /* the window in grid cells */
    memset(out, 0, (size_t)cols * rows);
    int64_t side = 1LL << level;
    bool torus = gg_world_topo(w)->topo == GG_TOPO_TORUS &&
                 side <= g[0]->width && side <= g[0]->height;
    if (!torus && (gx >= g[0]->width || gy >= g[0]->height ||
                   gx + cols * side <= 0 || gy + rows * side <= 0))
        return;
    if (level > 0) {
        uint64_t *row = malloc((size_t)g[0]->stride * sizeof *row);
        int64_t *count = malloc((size_t)cols * sizeof *count);
        if (row && count)
            render_blocks(g, n, torus, gx, gy, cols, rows, level, sample, out,
                          row, count);
        free(row);
        free(count);
        return;
    }
    render_cells(g, n, torus, gx, gy, cols, rows, out);
}

