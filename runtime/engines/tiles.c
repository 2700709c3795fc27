#include "tiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "tiles_internal.h"

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

/* Tiles whose cells lie within t of tile i along one axis (`len` cells,
 * wrapping on the torus): at most 5, i itself included. */
static int near_tiles(const gg_tiles *tl, int64_t i, int64_t len, bool torus,
                      int64_t out[5])
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
        tl->near_x[6 * i] = near_tiles(tl, i, tl->width, torus,
                                       tl->near_x + 6 * i + 1);
    for (int64_t i = 0; i < tl->ny; i++)
        tl->near_y[6 * i] = near_tiles(tl, i, tl->height, torus,
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

/* n generations of the whole grid, nothing learnt: the wrapped stepper,
 * or the device's copy of the grid. */
static int plain(gg_tiles *tl, const gg_rule *rule, gg_topo topo,
                 gg_grid *planes, int np, int64_t n, gg_err *err)
{
    if (tl->dev)
        return gg_backend_step(tl->dev, n, err);
    return gg_tiles_inner(tl, rule, topo, planes, np, n, err);
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
static int step_tiles(gg_tiles *tl, const gg_rule *rule, gg_grid *planes,
                      int np, int64_t count, int64_t n, gg_err *err)
{
    tl->stats.sub_batches++;
    return tl->dev ? device_tiles(tl, count, n, err)
                   : gg_tiles_host_step(tl, rule, planes, np, count, n, err);
}

/* n (a multiple of t) generations of the whole grid; the flags then cover
 * its last t. */
static int step_whole(gg_tiles *tl, const gg_rule *rule, gg_grid *planes,
                      int np, int64_t n, gg_err *err)
{
    tl->stats.whole_gens += n;
    return tl->dev ? device_tiles(tl, -1, n, err)
                   : gg_tiles_host_whole(tl, rule, planes, np, n, err);
}

static int device_can(gg_tiles *tl, gg_err *err);

/* The sub-batches of a call over the np planes of a grid (planes[0]
 * names it: size and buffer). */
static int run_tiles(gg_tiles *tl, const gg_rule *rule, gg_topo topo,
                     gg_grid *planes, int np, int64_t gens, gg_err *err)
{
    gg_grid *g = &planes[0];
    /* a bounded plane's edge kills every generation, which a slot's halo
     * would not; too few tiles for a neighbourhood of their own: the whole
     * grid (the unbounded plane's box keeps its edge out of reach) */
    if (tl->dev && g != tl->held) /* the unbounded plane: not held */
        return gg_backend_advance(tl->dev, topo, g, gens, err);
    if ((topo == GG_TOPO_PLANE && gg_rule_is_bounded(rule)) ||
        g->width < 3 * tl->side || g->height < 3 * tl->side || tl->off)
        return plain(tl, rule, topo, planes, np, gens, err);
    if ((g->bits != tl->bits || g->width != tl->width ||
         g->height != tl->height || topo != tl->topo) &&
        (reset(tl, g, topo, err) || device_can(tl, err)))
        return -1;
    if (tl->off)
        return plain(tl, rule, topo, planes, np, gens, err);
    int64_t all = tl->nx * tl->ny;
    int bad = 0;
    for (int64_t done = 0; done < gens && !bad;) {
        if (tl->blind > 0) { /* a busy grid: whole, unchecked for a while */
            int64_t n = gens - done;
            bad = plain(tl, rule, topo, planes, np, n, err);
            tl->blind -= n;
            tl->stats.whole_gens += n;
            tl->known = false;
            memset(tl->live, 1, (size_t)all);
            done += n;
            continue;
        }
        int64_t n = gens - done < tl->t ? gens - done : tl->t;
        /* changed[] covers the last sub-batch, of tl->span generations:
         * it tells which tiles sleep through one of the same length (up
         * to t: the halo); one of another length, or one after a grid it
         * does not know, wakes every tile near a live cell (all of them
         * under B0) */
        bool full = tl->known && n == tl->span;
        int64_t count = gg_rule_has_b0(rule) && !full
                            ? all /* then the whole grid steps */
                            : wake(tl, full ? tl->changed : tl->live);
        if (full && count == 0) { /* all asleep: so they stay */
            int64_t k = (gens - done) / n;
            tl->stats.tile_slept += k * all;
            done += k * n;
            continue;
        }
        if (count > TILES_WHOLE_SHARE * (double)all) {
            int64_t m = n;
            if (n == tl->t) {
                m = (gens - done) / tl->t * tl->t;
                if (m > TILES_CHECK * tl->t)
                    m = TILES_CHECK * tl->t;
            }
            bad = step_whole(tl, rule, planes, np, m, err);
            done += m;
            tl->known = true;
            tl->span = n; /* the whole path compares its last n */
            /* still busy: check again after twice as long each time (an
             * odd span sees every blinker change: only a t long look
             * counts) */
            bool busy = n == tl->t &&
                        wake(tl, tl->changed) > TILES_WHOLE_SHARE * (double)all;
            tl->streak = busy ? tl->streak + 1 : 0;
            if (busy)
                tl->blind = TILES_CHECK * tl->t
                            << (tl->streak < 3 ? tl->streak : 3);
            continue;
        }
        if (count)
            bad = step_tiles(tl, rule, planes, np, count, n, err);
        else
            memset(tl->changed, 0, (size_t)all);
        tl->stats.tile_steps += count;
        tl->stats.tile_slept += all - count;
        done += n;
        tl->known = true;
        tl->span = n;
    }
    tl->bits = g->bits;
    if (bad)
        tl->bits = NULL; /* a failed call: trust nothing next time */
    return bad;
}

static int tiles_step(void *ctx, const gg_rule *rule, gg_topo topo,
                      gg_grid *g, int64_t gens, gg_err *err)
{
    return run_tiles(ctx, rule, topo, g, 1, gens, err);
}

static int gen_tiles_step(void *ctx, const gg_rule *rule, gg_topo topo,
                          gg_gen_cells *cells, int64_t gens, gg_err *err)
{
    return run_tiles(ctx, rule, topo, cells->plane, cells->n_planes, gens,
                     err);
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
    /* calls of t or more (powers of two of it: runtime/universes/batch.c)
     * keep every sub-batch t long, so that what one learnt the next can
     * use; a stepper that gives up a long generation at a stop
     * (step_until, the reference's) keeps its one-generation start */
    int64_t floor = inner->step_until ? 1 : tl->t;
    gg_stepper s = {.name = inner->name, .step = tiles_step, .ctx = tl,
                    .max_batch = inner->max_batch,
                    .min_batch = inner->min_batch > floor ? inner->min_batch
                                                          : floor};
    return s;
}

/* A Generations call on a device: the cells up, the sub-batches there,
 * the cells down (Generations steppers hold nothing between calls). */
static int gen_device_step(void *ctx, const gg_rule *rule, gg_topo topo,
                           gg_gen_cells *cells, int64_t gens, gg_err *err)
{
    gg_tiles *tl = ctx;
    if (gg_backend_upload_cells(tl->dev, topo, cells, err))
        return -1;
    tl->held = &cells->plane[0];
    tl->bits = NULL; /* a new grid on the device: nothing known */
    int bad = run_tiles(tl, rule, topo, cells->plane, cells->n_planes, gens,
                        err);
    tl->held = NULL;
    gg_err later; /* the first failure is the one reported */
    return gg_backend_download_cells(tl->dev, cells, bad ? &later : err) ||
                   bad
               ? -1
               : 0;
}

gg_gen_stepper gg_tiles_gen_device_stepper(gg_tiles *tl, gg_backend *b,
                                           int64_t side, int64_t t)
{
    gg_gen_stepper inner = gg_backend_gen_stepper(b);
    gg_gen_stepper s = gg_tiles_gen_stepper(tl, &inner, side, t);
    tl->dev = b;
    s.step = gen_device_step;
    return s;
}

gg_gen_stepper gg_tiles_gen_stepper(gg_tiles *tl,
                                    const gg_gen_stepper *inner,
                                    int64_t side, int64_t t)
{
    memset(tl, 0, sizeof *tl);
    tl->gen_inner = *inner;
    tl->gen = true;
    tl->side = side > 0 ? side : TILES_SIDE;
    tl->t = t > 0 ? t : TILES_T;
    gg_gen_stepper s = {.name = inner->name, .step = gen_tiles_step,
                        .ctx = tl, .max_batch = inner->max_batch};
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
    if (tl->scratch.n_planes)
        gg_gen_cells_free(&tl->scratch);
    if (tl->snapshot.n_planes)
        gg_gen_cells_free(&tl->snapshot);
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
