#include "tiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiles_bits.h"
#include "backend.h"

/* Chosen by bench/tiles.sh on the 2-core VM (BENCHMARKS "Active tiles"). */
#define TILES_SIDE 256
#define TILES_T 32
/* Awake tiles above this share of all make the whole grid cheaper: slots
 * carry their halo (here 1.9x a tile's area). */
#define TILES_WHOLE_SHARE 0.45
/* Whole-grid generations between two looks at what changed, at first
 * (TILES_CHECK sub-batches); a grid still busy is looked at after twice
 * as long each time, up to 8 times. */
#define TILES_CHECK 8
/* Slots laid side by side in one scratch row: wide rows keep the kernel's
 * vector loop long. */
#define TILES_ROW_SLOTS 16

static int64_t slot_w(const gg_tiles *tl)
{
    return (tl->side + 2 * tl->t + 63) / 64 * 64;
}
static int64_t slot_h(const gg_tiles *tl) { return tl->side + 2 * tl->t; }

static int near_lists(gg_tiles *tl, gg_err *err);

/* Forget what the flags say: a new grid, or a failed call. */
static int reset(gg_tiles *tl, const gg_grid *g, gg_topo topo, gg_err *err)
{
    tl->bits = g->bits;
    tl->width = g->width;
    tl->height = g->height;
    tl->topo = topo;
    tl->known = false;
    tl->blind = 0;
    tl->streak = 0;
    int64_t nx = (g->width + tl->side - 1) / tl->side;
    int64_t ny = (g->height + tl->side - 1) / tl->side;
    if (nx != tl->nx || ny != tl->ny) {
        free(tl->changed);
        free(tl->live);
        free(tl->awake);
        free(tl->list);
        free(tl->flags);
        size_t n = (size_t)(nx * ny);
        tl->flags = calloc(n, 1);
        tl->changed = calloc(n, 1);
        tl->live = calloc(n, 1);
        tl->awake = calloc(n, 1);
        tl->list = calloc(n, sizeof *tl->list);
        tl->nx = nx, tl->ny = ny;
        if (!tl->changed || !tl->live || !tl->awake || !tl->list ||
            !tl->flags) {
            tl->nx = tl->ny = 0;
            return gg_fail(err, "out of memory for %lld tiles",
                           (long long)n);
        }
    }
    /* Nothing known: every tile counts as live, so all of them wake. */
    memset(tl->live, 1, (size_t)(nx * ny));
    return near_lists(tl, err);
}

/* Tiles whose cells lie within t of tile i along one axis (n tiles over
 * `len` cells, wrapping on the torus): at most 5, i itself included. */
static int near_tiles(const gg_tiles *tl, int64_t i, int64_t n, int64_t len,
                      bool torus, int64_t out[5])
{
    int k = 0;
    int64_t lo = i * tl->side - tl->t;
    int64_t hi = (i + 1) * tl->side + tl->t;
    if (hi > len + tl->t)
        hi = len + tl->t;
    for (int64_t x = lo; x < hi && k < 5;) {
        int64_t c = x;
        if (torus)
            c = ((x % len) + len) % len;
        else if (x < 0 || x >= len) {
            x = x < 0 ? 0 : hi;
            continue;
        }
        int64_t tile = c / tl->side;
        bool seen = false;
        for (int j = 0; j < k; j++)
            seen |= out[j] == tile;
        if (!seen)
            out[k++] = tile;
        int64_t end = (tile + 1) * tl->side;
        if (end > len)
            end = len;
        x += end - c;
    }
    (void)n;
    return k;
}

/* Each tile's near tiles along both axes, once per grid: near[] holds 6
 * per tile (a count, then up to 5). The relation is symmetric. */
static int near_lists(gg_tiles *tl, gg_err *err)
{
    bool torus = tl->topo == GG_TOPO_TORUS;
    free(tl->near_x);
    free(tl->near_y);
    tl->near_x = malloc((size_t)tl->nx * 6 * sizeof *tl->near_x);
    tl->near_y = malloc((size_t)tl->ny * 6 * sizeof *tl->near_y);
    if (!tl->near_x || !tl->near_y)
        return gg_fail(err, "out of memory for the tiles' neighbours");
    for (int64_t i = 0; i < tl->nx; i++)
        tl->near_x[6 * i] = near_tiles(tl, i, tl->nx, tl->width, torus,
                                       tl->near_x + 6 * i + 1);
    for (int64_t i = 0; i < tl->ny; i++)
        tl->near_y[6 * i] = near_tiles(tl, i, tl->ny, tl->height, torus,
                                       tl->near_y + 6 * i + 1);
    return 0;
}

/* awake[] = the tiles near one whose flag is set; list[] those tiles in
 * order; returns how many. Marks around the set flags only: a sparse
 * grid costs a scan, not a neighbourhood per tile. */
static int64_t wake(gg_tiles *tl, const uint8_t *flag)
{
    int64_t all = tl->nx * tl->ny, count = 0;
    memset(tl->awake, 0, (size_t)all);
    for (int64_t tile = 0; tile < all; tile++) {
        if (!flag[tile])
            continue;
        const int64_t *ys = tl->near_y + 6 * (tile / tl->nx);
        const int64_t *xs = tl->near_x + 6 * (tile % tl->nx);
        for (int64_t j = 1; j <= ys[0]; j++)
            for (int64_t i = 1; i <= xs[0]; i++)
                tl->awake[ys[j] * tl->nx + xs[i]] = 1;
    }
    for (int64_t tile = 0; tile < all; tile++)
        if (tl->awake[tile])
            tl->list[count++] = tile;
    return count;
}

/* A scratch grid of at least n slots; its rows grow by doubling so that
 * the backend's buffers are rarely made anew. */
static int scratch_for(gg_tiles *tl, int64_t n, gg_err *err)
{
    int64_t per_row = n < TILES_ROW_SLOTS ? n : TILES_ROW_SLOTS;
    int64_t rows = (n + TILES_ROW_SLOTS - 1) / TILES_ROW_SLOTS, cap = 1;
    while (cap < rows)
        cap *= 2;
    if (n > TILES_ROW_SLOTS)
        per_row = TILES_ROW_SLOTS;
    else {
        int64_t p = 1;
        while (p < per_row)
            p *= 2;
        per_row = p;
    }
    int64_t w = per_row * slot_w(tl), h = cap * slot_h(tl);
    if (tl->scratch.width == w && tl->scratch.height == h)
        return 0;
    gg_grid_free(&tl->scratch);
    return gg_grid_init(&tl->scratch, w, h, err);
}

static void slot_origin(const gg_tiles *tl, int64_t k, int64_t *sx,
                        int64_t *sy)
{
    int64_t per_row = tl->scratch.width / slot_w(tl);
    *sx = (k % per_row) * slot_w(tl);
    *sy = (k / per_row) * slot_h(tl);
}

/* Tile `tile` and its halo of t cells into slot k. */
static void gather(gg_tiles *tl, const gg_grid *g, int64_t tile, int64_t k)
{
    bool torus = tl->topo == GG_TOPO_TORUS;
    int64_t x0 = (tile % tl->nx) * tl->side - tl->t;
    int64_t y0 = (tile / tl->nx) * tl->side - tl->t;
    int64_t sx, sy;
    slot_origin(tl, k, &sx, &sy);
    int64_t words = slot_w(tl) / 64;
    for (int64_t r = 0; r < slot_h(tl); r++) {
        uint64_t *dst = gg_grid_row(&tl->scratch, sy + r) + sx / 64;
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

/* Slot k's centre back into tile `tile`; sets its changed and live flags. */
static void scatter(gg_tiles *tl, gg_grid *g, int64_t tile, int64_t k)
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
    uint64_t diff = 0, any = 0;
    for (int64_t r = 0; r < h; r++) {
        const uint64_t *src = gg_grid_row(&tl->scratch, sy + tl->t + r);
        uint64_t *dst = gg_grid_row(g, y0 + r) + x0 / 64;
        for (int64_t j = 0; j * 64 < w; j++) {
            uint64_t v = gg_bits_span(src, sx + tl->t + 64 * j);
            if (w - 64 * j < 64)
                v &= (1ull << (w - 64 * j)) - 1;
            diff |= v ^ dst[j];
            any |= v;
            dst[j] = v;
        }
    }
    tl->changed[tile] = diff != 0;
    tl->live[tile] = any != 0;
}

/* n generations of the whole grid, nothing learnt: the wrapped stepper,
 * or the device's copy of the grid. */
static int plain(gg_tiles *tl, const gg_rule *rule, gg_topo topo, gg_grid *g,
                 int64_t n, gg_err *err)
{
    if (tl->dev)
        return gg_backend_step(tl->dev, n, err);
    return tl->inner.step(tl->inner.ctx, rule, topo, g, n, err);
}

/* The device's flags (bit 0 changed, bit 1 live) into changed[], live[]:
 * for list[k] (count >= 0) or every tile (count -1). */
static void take_flags(gg_tiles *tl, int64_t count)
{
    int64_t all = tl->nx * tl->ny, n = count < 0 ? all : count;
    if (count >= 0)
        memset(tl->changed, 0, (size_t)all);
    for (int64_t k = 0; k < n; k++) {
        int64_t tile = count < 0 ? k : tl->list[k];
        tl->changed[tile] = tl->flags[k] & 1;
        tl->live[tile] = (tl->flags[k] >> 1) & 1;
    }
}

/* The device steps the plan's tiles (count >= 0) or the whole grid. */
static int device_tiles(gg_tiles *tl, int64_t count, int64_t n, gg_err *err)
{
    gg_tiles_plan plan = {tl->side, tl->t, tl->nx, tl->ny, tl->list, count};
    if (gg_backend_tiles_step(tl->dev, &plan, n, tl->flags, err))
        return -1;
    take_flags(tl, count);
    return 0;
}

/* One sub-batch of n <= t generations over the awake tiles in list. */
static int step_tiles(gg_tiles *tl, const gg_rule *rule, gg_grid *g,
                      int64_t count, int64_t n, gg_err *err)
{
    if (tl->dev) {
        tl->stats.sub_batches++;
        return device_tiles(tl, count, n, err);
    }
    if (scratch_for(tl, count, err))
        return -1;
    #pragma omp parallel for schedule(dynamic, 4)
    for (int64_t k = 0; k < count; k++)
        gather(tl, g, tl->list[k], k);
    if (tl->inner.step(tl->inner.ctx, rule, GG_TOPO_PLANE, &tl->scratch, n,
                       err))
        return -1;
    memset(tl->changed, 0, (size_t)(tl->nx * tl->ny));
    #pragma omp parallel for schedule(dynamic, 4)
    for (int64_t k = 0; k < count; k++)
        scatter(tl, g, tl->list[k], k);
    tl->stats.sub_batches++;
    return 0;
}

/* Per tile, whether a and b differ and whether b holds a live cell. */
static void compare_tiles(gg_tiles *tl, const gg_grid *a, const gg_grid *b)
{
    #pragma omp parallel for schedule(dynamic, 1)
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
            for (int64_t y = y0; y < y1; y++) {
                const uint64_t *ra = gg_grid_row(a, y), *rb = gg_grid_row(b, y);
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

/* n (a multiple of t) generations of the whole grid; the flags then cover
 * its last t. */
static int step_whole(gg_tiles *tl, const gg_rule *rule, gg_grid *g,
                      int64_t n, gg_err *err)
{
    tl->stats.whole_gens += n;
    if (tl->dev)
        return device_tiles(tl, -1, n, err);
    if (n > tl->t && tl->inner.step(tl->inner.ctx, rule, tl->topo, g,
                                    n - tl->t, err))
        return -1;
    if (tl->snapshot.width != g->width || tl->snapshot.height != g->height) {
        gg_grid_free(&tl->snapshot);
        if (gg_grid_init(&tl->snapshot, g->width, g->height, err))
            return -1;
    }
    memcpy(tl->snapshot.bits, g->bits,
           (size_t)(g->stride * g->height) * sizeof *g->bits);
    if (tl->inner.step(tl->inner.ctx, rule, tl->topo, g, tl->t, err))
        return -1;
    compare_tiles(tl, &tl->snapshot, g);
    return 0;
}

static int device_can(gg_tiles *tl, gg_err *err);

static int tiles_step(void *ctx, const gg_rule *rule, gg_topo topo,
                      gg_grid *g, int64_t gens, gg_err *err)
{
    gg_tiles *tl = ctx;
    /* a bounded plane's edge kills every generation, which a slot's halo
     * would not; too few tiles for a neighbourhood of their own: the whole
     * grid (the unbounded plane's box keeps its edge out of reach) */
    if (tl->dev && g != tl->held) /* the unbounded plane: not held */
        return gg_backend_advance(tl->dev, topo, g, gens, err);
    if ((topo == GG_TOPO_PLANE && gg_rule_is_bounded(rule)) ||
        g->width < 3 * tl->side || g->height < 3 * tl->side || tl->off)
        return plain(tl, rule, topo, g, gens, err);
    if ((g->bits != tl->bits || g->width != tl->width ||
         g->height != tl->height || topo != tl->topo) &&
        (reset(tl, g, topo, err) || device_can(tl, err)))
        return -1;
    if (tl->off)
        return plain(tl, rule, topo, g, gens, err);
    int64_t all = tl->nx * tl->ny;
    int bad = 0;
    for (int64_t done = 0; done < gens && !bad;) {
        if (tl->blind > 0) { /* a busy grid: whole, unchecked for a while */
            int64_t n = gens - done;
            bad = plain(tl, rule, topo, g, n, err);
            tl->blind -= n;
            tl->stats.whole_gens += n;
            tl->known = false;
            memset(tl->live, 1, (size_t)all);
            done += n;
            continue;
        }
        int64_t n = gens - done < tl->t ? gens - done : tl->t;
        /* changed[] holds for a sub-batch of t; a shorter one, or one
         * after a grid it does not know, wakes every tile near a live
         * cell (all of them under B0) */
        bool full = n == tl->t && tl->known;
        int64_t count = gg_rule_has_b0(rule) && !full
                            ? (memset(tl->awake, 1, (size_t)all), all)
                            : wake(tl, full ? tl->changed : tl->live);
        if (full && count == 0) { /* all asleep: so they stay */
            int64_t k = (gens - done) / tl->t;
            tl->stats.tile_slept += k * all;
            done += k * tl->t;
            continue;
        }
        if (count > TILES_WHOLE_SHARE * (double)all && n == tl->t) {
            int64_t m = (gens - done) / tl->t * tl->t;
            if (m > TILES_CHECK * tl->t)
                m = TILES_CHECK * tl->t;
            bad = step_whole(tl, rule, g, m, err);
            done += m;
            tl->known = true;
            /* still busy: check again after twice as long each time */
            bool busy = wake(tl, tl->changed) > TILES_WHOLE_SHARE * (double)all;
            tl->streak = busy ? tl->streak + 1 : 0;
            if (busy)
                tl->blind = TILES_CHECK * tl->t
                            << (tl->streak < 3 ? tl->streak : 3);
            continue;
        }
        if (count == all && n < tl->t) {
            bad = plain(tl, rule, topo, g, n, err);
            memset(tl->live, 1, (size_t)all);
        } else if (count)
            bad = step_tiles(tl, rule, g, count, n, err);
        else
            memset(tl->changed, 0, (size_t)all);
        tl->stats.tile_steps += count;
        tl->stats.tile_slept += all - count;
        done += n;
        tl->known = n == tl->t;
    }
    tl->bits = g->bits;
    if (bad)
        tl->bits = NULL; /* a failed call: trust nothing next time */
    return bad;
}

/* Whether the device tiles this grid (an empty plan asks); where it
 * cannot, the run goes on whole and the closing line says why. */
static int device_can(gg_tiles *tl, gg_err *err)
{
    if (!tl->dev)
        return 0;
    gg_tiles_plan plan = {tl->side, tl->t, tl->nx, tl->ny, tl->list, 0};
    gg_err why;
    if (gg_backend_tiles_step(tl->dev, &plan, 0, tl->flags, &why)) {
        tl->off = true;
        snprintf(tl->off_why, sizeof tl->off_why, "%.190s", why.msg);
    }
    (void)err;
    return 0;
}

static int device_hold(void *ctx, gg_topo topo, gg_grid *grid, gg_err *err)
{
    gg_tiles *tl = ctx;
    if (gg_backend_upload(tl->dev, topo, grid, err))
        return -1;
    tl->held = grid;
    tl->bits = NULL; /* a new grid on the device: nothing known */
    return 0;
}

static int device_drop(void *ctx, gg_grid *grid, gg_err *err)
{
    gg_tiles *tl = ctx;
    tl->held = NULL;
    return gg_backend_download(tl->dev, grid, err);
}

gg_stepper gg_tiles_device_stepper(gg_tiles *tl, gg_backend *b,
                                   int64_t side, int64_t t)
{
    gg_stepper inner = gg_backend_stepper(b);
    gg_stepper s = gg_tiles_stepper(tl, &inner, side, t);
    tl->dev = b;
    s.hold = device_hold;
    s.drop = device_drop;
    return s;
}

gg_stepper gg_tiles_stepper(gg_tiles *tl, const gg_stepper *inner,
                            int64_t side, int64_t t)
{
    memset(tl, 0, sizeof *tl);
    tl->inner = *inner;
    tl->side = side > 0 ? side : TILES_SIDE;
    tl->t = t > 0 ? t : TILES_T;
    gg_stepper s = {.name = inner->name, .step = tiles_step, .ctx = tl,
                    .max_batch = inner->max_batch,
                    .min_batch = inner->min_batch};
    return s;
}

void gg_tiles_free(gg_tiles *tl)
{
    free(tl->near_x);
    free(tl->near_y);
    free(tl->flags);
    free(tl->changed);
    free(tl->live);
    free(tl->awake);
    free(tl->list);
    gg_grid_free(&tl->scratch);
    gg_grid_free(&tl->snapshot);
    memset(tl, 0, sizeof *tl);
}

void gg_tiles_describe(const gg_tiles *tl, char *buf, size_t size)
{
    int64_t all = tl->stats.tile_steps + tl->stats.tile_slept;
    if (tl->off) {
        snprintf(buf, size, "no tiles: %s", tl->off_why);
        return;
    }
    snprintf(buf, size, "tiles %lld%s: %.0f%% of tile steps slept, "
             "%lld generations whole", (long long)tl->side,
             tl->dev ? " on the device" : "",
             all ? 100.0 * (double)tl->stats.tile_slept / (double)all : 0.0,
             (long long)tl->stats.whole_gens);
}
