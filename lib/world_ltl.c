/* A Larger than Life world (lib/world_core.h): its board is a byte a cell
 * (runtime/universes/ltl_universe.h), drawn from the bytes as the planes
 * of other families are (world_render.c). */
#include <stdlib.h>
#include <string.h>

#include "world_core.h"

static int64_t wrap(int64_t v, int64_t n)
{
    v %= n;
    return v < 0 ? v + n : v;
}

bool gg_world_ltl_bbox(const golgen_world *w, int64_t *x0, int64_t *y0,
                       int64_t *x1, int64_t *y1)
{
    const gg_ltl_universe *u = &w->l;
    *x0 = u->w, *y0 = u->h, *x1 = -1, *y1 = -1;
    for (int64_t y = 0; y < u->h; y++) {
        const uint8_t *r = u->cells + y * u->w;
        int64_t a = 0, b = u->w - 1;
        while (a < u->w && !r[a])
            a++;
        if (a == u->w)
            continue;
        while (!r[b])
            b--;
        *x0 = a < *x0 ? a : *x0, *x1 = b > *x1 ? b : *x1;
        *y0 = y < *y0 ? y : *y0, *y1 = y;
    }
    return *x1 >= 0;
}

int gg_world_ltl_regrow(golgen_world *w, int64_t nx, int64_t ny, int64_t nw,
                  int64_t nh, gg_err *err)
{
    gg_ltl_universe *u = &w->l;
    if ((double)nw * (double)nh > (double)GG_LTL_MAX_BOARD)
        return gg_fail(err, "a %lld x %lld board passes golgen's %lld cells "
                       "for the unbounded Larger than Life plane",
                       (long long)nw, (long long)nh,
                       (long long)GG_LTL_MAX_BOARD);
    uint8_t *c = calloc((size_t)(nw * nh), 1);
    uint8_t *n = calloc((size_t)(nw * nh), 1);
    if (!c || !n) {
        free(c);
        free(n);
        return gg_fail(err, "out of memory for a %lld x %lld board",
                       (long long)nw, (long long)nh);
    }
    int64_t dx = u->x0 - nx, dy = u->y0 - ny;
    for (int64_t y = 0; y < u->h; y++)
        memcpy(c + (y + dy) * nw + dx, u->cells + y * u->w, (size_t)u->w);
    free(u->cells);
    free(u->next);
    u->cells = c, u->next = n;
    u->w = nw, u->h = nh;
    u->x0 = nx, u->y0 = ny;
    return 0;
}

/* Board row r (wrapped on a torus), NULL outside. */
static const uint8_t *row(const gg_ltl_universe *u, bool torus, int64_t r)
{
    if (torus)
        r = wrap(r, u->h);
    else if (r < 0 || r >= u->h)
        return NULL;
    return u->cells + r * u->w;
}

/* Live cells of [a, a + side) of a board row. */
static int64_t count_run(const uint8_t *r, int64_t width, bool torus,
                         int64_t a, int64_t side)
{
    int64_t n = 0;
    if (torus && side <= width) {
        a = wrap(a, width);
        for (int64_t i = 0; i < side; i++, a = a + 1 == width ? 0 : a + 1)
            n += r[a] != 0;
        return n;
    }
    int64_t b = a + side > width ? width : a + side;
    for (a = a < 0 ? 0 : a; a < b; a++)
        n += r[a] != 0;
    return n;
}

void gg_world_ltl_render(const golgen_world *w, int64_t x, int64_t y, int cols,
                   int rows, int level, int64_t sample, uint8_t *out)
{
    const gg_ltl_universe *u = &w->l;
    int64_t gx = x - u->x0, gy = y - u->y0, side = 1LL << level;
    bool torus = gg_world_topo(w)->topo == GG_TOPO_TORUS && side <= u->w &&
                 side <= u->h;
    memset(out, 0, (size_t)cols * rows);
    if (!torus && (gx >= u->w || gy >= u->h || gx + cols * side <= 0 ||
                   gy + rows * side <= 0))
        return;
    if (level == 0) {
        for (int r = 0; r < rows; r++) {
            const uint8_t *src = row(u, torus, gy + r);
            uint8_t *o = out + (size_t)r * cols;
            for (int c = 0; src && c < cols; c++) {
                int64_t cx = gx + c;
                if (torus)
                    o[c] = src[wrap(cx, u->w)];
                else if (cx >= 0 && cx < u->w)
                    o[c] = src[cx];
            }
        }
        return;
    }
    /* blocks: their share of live cells, from every row or from `sample`
     * rows of each, evenly spaced (world.h) */
    int64_t every = sample > 0 && sample < side ? side / sample : 1;
    double area = (double)side * (double)(side / every);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int64_t n = 0, a = gx + c * side;
            if (!torus && (a >= u->w || a + side <= 0))
                continue;
            /* rows inside the board only (a block may be 2^40 high) */
            int64_t top = gy + r * side, k = every / 2, end = side;
            if (!torus && top + k < 0)
                k += (-(top + k) + every - 1) / every * every;
            if (!torus && top + end > u->h)
                end = u->h - top;
            for (; k < end; k += every)
                n += count_run(row(u, torus, top + k), u->w, torus, a, side);
            double s = (double)n / area * 254.0;
            out[(size_t)r * cols + c] =
                n ? (uint8_t)(1 + (s > 254 ? 254 : s)) : 0;
        }
}
