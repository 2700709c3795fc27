#include "multi_band.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One band: its rows of the whole grid and its host copy with halos. */
typedef struct band {
    gg_backend *b;
    int64_t y0, y1;  /* interior rows of the whole grid */
    int64_t top, bot; /* halo rows above and below (0 at a plane's edge) */
    gg_grid g;       /* rows y0 - top .. y1 + bot - 1 */
    int64_t gens;    /* for the step thread */
    int bad;
    gg_err err;
} band;

/* Halos of T rows cost 2T / rows of recomputation, and each exchange a
 * few row copies: T = rows / 32 keeps the first near 6% at most and the
 * second rare (an exchange of 2 x 256 rows is a blip against 256
 * generations of an H100 band). */
#define MULTI_T_MAX 256

static int64_t rows_of(const band *k) { return k->y1 - k->y0; }

/* Bands of at least 3 rows: a short grid (a small pattern on the
 * unbounded plane, early on) uses the first backends only. */
static int bands_for(const gg_multi_band *m, const gg_grid *grid)
{
    int64_t fit = grid->height / 3;
    return fit < m->n ? (fit > 1 ? (int)fit : 1) : m->n;
}

static int plan(const gg_multi_band *m, int n, gg_topo topo,
                const gg_grid *grid, int64_t gens, band *bs, int64_t *t,
                gg_err *err)
{
    int64_t h = grid->height;
    int64_t least = h;
    for (int k = 0; k < n; k++) {
        bs[k].b = m->b[k];
        bs[k].y0 = h * k / n;
        bs[k].y1 = h * (k + 1) / n;
        least = rows_of(&bs[k]) < least ? rows_of(&bs[k]) : least;
    }
    int64_t cap = m->t_max > 0 ? m->t_max : MULTI_T_MAX;
    *t = least / 32 > 1 ? least / 32 : 1;
    *t = *t > cap ? cap : *t;
    *t = *t > least ? least : *t; /* a halo comes from one neighbour */
    *t = *t > gens ? gens : *t;
    for (int k = 0; k < n; k++) {
        bool torus = topo == GG_TOPO_TORUS;
        bs[k].top = torus || k > 0 ? *t : 0;
        bs[k].bot = torus || k < n - 1 ? *t : 0;
        if (gg_grid_init(&bs[k].g, grid->width,
                         rows_of(&bs[k]) + bs[k].top + bs[k].bot, err))
            return -1;
        gg_grid_take_rows(grid, bs[k].y0 - bs[k].top, bs[k].y1 + bs[k].bot,
                          &bs[k].g);
    }
    return 0;
}

static void *step_thread(void *arg)
{
    band *k = arg;
    k->bad = gg_backend_step(k->b, k->gens, &k->err);
    return NULL;
}

/* Every band advances gens generations: device bands at once. */
static int step_all(const gg_multi_band *m, int n, band *bs, int64_t gens,
                    gg_err *err)
{
    pthread_t th[64];
    bool threads = n > 1 && n <= 64 && gg_backend_steps_in_threads(m->b[0]);
    bool started[64] = {false};
    for (int k = 0; k < n; k++) {
        bs[k].gens = gens;
        bs[k].bad = 0;
        if (threads && pthread_create(&th[k], NULL, step_thread, &bs[k]) == 0)
            started[k] = true;
        else
            step_thread(&bs[k]);
    }
    int bad = 0;
    for (int k = 0; k < n; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        if (bs[k].bad && !bad) {
            *err = bs[k].err;
            bad = -1;
        }
    }
    return bad;
}

/* The halo rows of band `to` (at local row `at`, n of them) from the
 * interior of band `from` starting at its local row `src`. */
static void take_halo(band *to, int64_t at, const band *from, int64_t src,
                      int64_t n)
{
    size_t bytes = (size_t)to->g.stride * sizeof(uint64_t);
    for (int64_t i = 0; i < n; i++)
        memcpy(gg_grid_row(&to->g, at + i),
               gg_grid_row(&from->g, src + i), bytes);
}

/* Refresh every halo from the neighbours' interiors: their edge rows
 * down to the host, across, and the halos up. */
static int exchange(gg_multi_band *m, int n, band *bs, gg_err *err)
{
    for (int k = 0; k < n; k++) {
        band *b = &bs[k];
        int64_t r = rows_of(b);
        /* what the neighbours take: the first rows of this interior for
         * the halo below the band above, the last for the one above the
         * band below */
        int64_t up = bs[(k + n - 1) % n].bot, down = bs[(k + 1) % n].top;
        if ((up && gg_backend_rows(b->b, &b->g, b->top, up, false, err)) ||
            (down && gg_backend_rows(b->b, &b->g, b->top + r - down, down,
                                     false, err)))
            return -1;
    }
    for (int k = 0; k < n; k++) {
        band *b = &bs[k];
        const band *above = &bs[(k + n - 1) % n], *below = &bs[(k + 1) % n];
        take_halo(b, 0, above, above->top + rows_of(above) - b->top, b->top);
        take_halo(b, b->top + rows_of(b), below, below->top, b->bot);
        if ((b->top && gg_backend_rows(b->b, &b->g, 0, b->top, true, err)) ||
            (b->bot && gg_backend_rows(b->b, &b->g, b->top + rows_of(b),
                                       b->bot, true, err)))
            return -1;
    }
    m->exchanges++;
    return 0;
}

static int run_bands(gg_multi_band *m, int n, gg_topo topo, gg_grid *grid,
                     band *bs, int64_t gens, int64_t t, gg_err *err)
{
    double t0 = gg_batch_clock();
    for (int k = 0; k < n; k++)
        if (gg_backend_upload(bs[k].b, topo, &bs[k].g, err))
            return -1;
    m->transfer_seconds += gg_batch_clock() - t0;
    while (gens > 0) {
        int64_t now = gens < t ? gens : t;
        t0 = gg_batch_clock();
        if (step_all(m, n, bs, now, err))
            return -1;
        m->step_seconds += gg_batch_clock() - t0;
        gens -= now;
        t0 = gg_batch_clock();
        if (gens > 0 && exchange(m, n, bs, err))
            return -1;
        m->exchange_seconds += gg_batch_clock() - t0;
    }
    t0 = gg_batch_clock();
    size_t bytes = (size_t)grid->stride * sizeof(uint64_t);
    for (int k = 0; k < n; k++) {
        band *b = &bs[k];
        if (gg_backend_download(b->b, &b->g, err))
            return -1;
        for (int64_t y = b->y0; y < b->y1; y++)
            memcpy(gg_grid_row(grid, y), gg_grid_row(&b->g, y - b->y0 + b->top),
                   bytes);
    }
    m->transfer_seconds += gg_batch_clock() - t0;
    return 0;
}

static int multi_step(void *ctx, const gg_rule *rule, gg_topo topo,
                      gg_grid *grid, int64_t gens, gg_err *err)
{
    gg_multi_band *m = ctx;
    int n = bands_for(m, grid);
    if (n == 1) {
        gg_stepper one = gg_backend_stepper(m->b[0]);
        return one.step(one.ctx, rule, topo, grid, gens, err);
    }
    band *bs = calloc((size_t)n, sizeof *bs);
    if (!bs)
        return gg_fail(err, "out of memory for %d bands", n);
    int64_t t = 0;
    int bad = plan(m, n, topo, grid, gens, bs, &t, err) ||
              run_bands(m, n, topo, grid, bs, gens, t, err);
    for (int k = 0; k < n; k++)
        gg_grid_free(&bs[k].g);
    free(bs);
    return bad ? -1 : 0;
}

gg_stepper gg_multi_band_view(gg_multi_band *m)
{
    gg_stepper one = gg_backend_stepper(m->b[0]);
    gg_stepper s = {one.name, multi_step, m, one.max_batch, 0};
    return s;
}
