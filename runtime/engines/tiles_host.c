/* Active tiles on the host (tiles.h): awake tiles copied with their halo
 * into a scratch grid's slots, stepped there by the wrapped stepper, and
 * their centres copied back; the whole grid stepped with a snapshot to
 * learn what changed. Every copy runs over a universe's state planes (one
 * for two-state rules, ceil(log2 C) for Generations). */
#include <stdlib.h>
#include <string.h>

#include "tiles_bits.h"
#include "tiles_internal.h"

/* Slots laid side by side in one scratch row: wide rows keep the kernel's
 * vector loop long. */
#define TILES_ROW_SLOTS 16

static int64_t slot_w(const gg_tiles *tl)
{
    return (tl->side + 2 * tl->t + 63) / 64 * 64;
}
static int64_t slot_h(const gg_tiles *tl) { return tl->side + 2 * tl->t; }

/* The wrapped stepper on np planes: a two-state stepper's one grid, or a
 * Generations stepper's cells (planes may come back with their buffers
 * swapped). */
int gg_tiles_inner(gg_tiles *tl, const gg_rule *rule, gg_topo topo,
                   gg_grid *planes, int np, int64_t n, gg_err *err)
{
    if (!tl->gen)
        return tl->inner.step(tl->inner.ctx, rule, topo, planes, n, err);
    gg_gen_cells c = {.n_planes = np};
    for (int k = 0; k < np; k++)
        c.plane[k] = planes[k];
    int bad = tl->gen_inner.step(tl->gen_inner.ctx, rule, topo, &c, n, err);
    for (int k = 0; k < np; k++)
        planes[k] = c.plane[k];
    return bad;
}

/* A scratch grid of at least n slots, in a power of two of slot rows. */
static int scratch_for(gg_tiles *tl, int np, int64_t n, gg_err *err)
{
    int64_t rows = (n + TILES_ROW_SLOTS - 1) / TILES_ROW_SLOTS, cap = 1;
    while (cap < rows)
        cap *= 2;
    int64_t per_row = TILES_ROW_SLOTS;
    if (n <= TILES_ROW_SLOTS)
        for (per_row = 1; per_row < n; per_row *= 2)
            ;
    int64_t w = per_row * slot_w(tl), h = cap * slot_h(tl);
    gg_gen_cells *s = &tl->scratch;
    if (s->n_planes == np && s->plane[0].width == w &&
        s->plane[0].height == h)
        return 0;
    if (s->n_planes)
        gg_gen_cells_free(s);
    return gg_gen_cells_init(s, np, w, h, err);
}

static void slot_origin(const gg_tiles *tl, int64_t k, int64_t *sx,
                        int64_t *sy)
{
    int64_t per_row = tl->scratch.plane[0].width / slot_w(tl);
    *sx = (k % per_row) * slot_w(tl);
    *sy = (k / per_row) * slot_h(tl);
}

/* Tile `tile` and its halo of t cells into slot k of scratch plane s. */
static void gather(const gg_tiles *tl, const gg_grid *g, gg_grid *s,
                   int64_t tile, int64_t k)
{
    bool torus = tl->topo == GG_TOPO_TORUS;
    int64_t x0 = (tile % tl->nx) * tl->side - tl->t;
    int64_t y0 = (tile / tl->nx) * tl->side - tl->t;
    int64_t sx, sy;
    slot_origin(tl, k, &sx, &sy);
    int64_t words = slot_w(tl) / 64;
    for (int64_t r = 0; r < slot_h(tl); r++) {
        uint64_t *dst = gg_grid_row(s, sy + r) + sx / 64;
        int64_t y = y0 + r;
        if (torus)
            y = ((y % g->height) + g->height) % g->height;
        else if (y < 0 || y >= g->height) {
            memset(dst, 0, (size_t)words * sizeof *dst);
            continue;
        }
        const uint64_t *src = gg_grid_row(g, y);
        for (int64_t j = 0; j < words; j++)
            dst[j] = gg_bits_at(src, x0 + 64 * j, g->width, torus);
    }
}

/* Slot k's centre of scratch plane s back into tile `tile` of plane g;
 * ORs what differed into *diff and the cells into *any. */
static void scatter(const gg_tiles *tl, gg_grid *g, const gg_grid *s,
                    int64_t tile, int64_t k, uint64_t *diff, uint64_t *any)
{
    int64_t x0 = (tile % tl->nx) * tl->side;
    int64_t y0 = (tile / tl->nx) * tl->side;
    int64_t sx, sy;
    slot_origin(tl, k, &sx, &sy);
    int64_t w = tl->side, h = tl->side;
    if (x0 + w > g->width)
        w = g->width - x0;
    if (y0 + h > g->height)
        h = g->height - y0;
    for (int64_t r = 0; r < h; r++) {
        const uint64_t *src = gg_grid_row(s, sy + tl->t + r);
        uint64_t *dst = gg_grid_row(g, y0 + r) + x0 / 64;
        for (int64_t j = 0; j * 64 < w; j++) {
            uint64_t v = gg_bits_span(src, sx + tl->t + 64 * j);
            if (w - 64 * j < 64)
                v &= (1ull << (w - 64 * j)) - 1;
            *diff |= v ^ dst[j];
            *any |= v;
            dst[j] = v;
        }
    }
}

/* Tiles at which copying them in and out goes to threads: a tile's copy
 * takes microseconds, and a parallel region costs a wake-up, or on a
 * loaded machine a time slice waiting for the other thread (a 500^2
 * Generations pattern, 1000 generations: 0.35 s spinning in libgomp
 * against 0.01 s on one thread). */
#define TILES_PARALLEL 64

int gg_tiles_host_step(gg_tiles *tl, const gg_rule *rule, gg_grid *planes,
                       int np, int64_t count, int64_t n, gg_err *err)
{
    if (scratch_for(tl, np, count, err))
        return -1;
    #pragma omp parallel for schedule(dynamic, 4) if (count >= TILES_PARALLEL)
    for (int64_t k = 0; k < count; k++)
        for (int p = 0; p < np; p++)
            gather(tl, &planes[p], &tl->scratch.plane[p], tl->list[k], k);
    if (gg_tiles_inner(tl, rule, GG_TOPO_PLANE, tl->scratch.plane, np, n,
                       err))
        return -1;
    memset(tl->changed, 0, (size_t)(tl->nx * tl->ny));
    #pragma omp parallel for schedule(dynamic, 4) if (count >= TILES_PARALLEL)
    for (int64_t k = 0; k < count; k++) {
        uint64_t diff = 0, any = 0;
        for (int p = 0; p < np; p++)
            scatter(tl, &planes[p], &tl->scratch.plane[p], tl->list[k], k,
                    &diff, &any);
        tl->changed[tl->list[k]] = diff != 0;
        tl->live[tl->list[k]] = any != 0;
    }
    return 0;
}

/* Per tile, whether planes a and b differ and whether b holds a live
 * cell (a state other than 0). */
static void compare_tiles(gg_tiles *tl, const gg_grid *a, const gg_grid *b,
                          int np)
{
    #pragma omp parallel for schedule(dynamic, 1) \
        if (tl->nx * tl->ny >= TILES_PARALLEL)
    for (int64_t ty = 0; ty < tl->ny; ty++) {
        int64_t y0 = ty * tl->side, y1 = y0 + tl->side;
        if (y1 > b->height)
            y1 = b->height;
        for (int64_t tx = 0; tx < tl->nx; tx++) {
            int64_t w0 = tx * tl->side / 64;
            int64_t w1 = ((tx + 1) * tl->side + 63) / 64;
            if (w1 > b->stride)
                w1 = b->stride;
            uint64_t diff = 0, any = 0;
            for (int p = 0; p < np; p++)
                for (int64_t y = y0; y < y1; y++) {
                    const uint64_t *ra = gg_grid_row(&a[p], y);
                    const uint64_t *rb = gg_grid_row(&b[p], y);
                    for (int64_t j = w0; j < w1; j++) {
                        diff |= ra[j] ^ rb[j];
                        any |= rb[j];
                    }
                }
            tl->changed[ty * tl->nx + tx] = diff != 0;
            tl->live[ty * tl->nx + tx] = any != 0;
        }
    }
}

int gg_tiles_host_whole(gg_tiles *tl, const gg_rule *rule, gg_grid *planes,
                        int np, int64_t n, gg_err *err)
{
    int64_t last = n < tl->t ? n : tl->t; /* what the flags cover */
    if (n > last && gg_tiles_inner(tl, rule, tl->topo, planes, np, n - last,
                                   err))
        return -1;
    gg_gen_cells *snap = &tl->snapshot;
    if (snap->n_planes != np || snap->plane[0].width != planes[0].width ||
        snap->plane[0].height != planes[0].height) {
        if (snap->n_planes)
            gg_gen_cells_free(snap);
        if (gg_gen_cells_init(snap, np, planes[0].width, planes[0].height,
                              err))
            return -1;
    }
    for (int p = 0; p < np; p++)
        memcpy(snap->plane[p].bits, planes[p].bits,
               (size_t)(planes[p].stride * planes[p].height) *
                   sizeof *planes[p].bits);
    if (gg_tiles_inner(tl, rule, tl->topo, planes, np, last, err))
        return -1;
    compare_tiles(tl, snap->plane, planes, np);
    return 0;
}
