#include "multi_band.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_layout.h"

/* Work on band k of a set (a step, its halos), run for every band at
 * once where the backends allow (each_band). */
typedef int (*band_job)(gg_band_set *s, int k, gg_err *err);

/* One band: its rows of the whole grid and its host copy with halos. */
typedef struct band {
    gg_backend *b;
    int64_t y0, y1;  /* interior rows of the whole grid */
    int64_t top, bot; /* halo rows above and below (0 at a plane's edge) */
    /* the band's local rows: its interior from row `inner`, the halo from
     * above at `above_at`, the one from below at `below_at` */
    int64_t inner, above_at, below_at;
    gg_grid g;       /* host copy: rows y0 - top .. y1 + bot - 1 (device
                        bands with peer copies: none, band_view) */
    int64_t gens;    /* for the step job */
    gg_band_set *set; /* for the band's thread: the job, where */
    band_job job;
    int index;
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

/* The bands resident between upload and download. */
struct gg_band_set {
    int n;
    gg_topo topo;
    int64_t t;      /* halo rows: most generations between exchanges */
    int64_t width, height; /* of the grid uploaded */
    bool stale;     /* halos older than the interiors: exchange first */
    int uploaded;   /* n once every band is up */
    bool views;     /* device bands uploaded from views of the grid */
    const gg_grid *from; /* the grid being uploaded (upload_one) */
    gg_grid *to;         /* ... downloaded into (download_one) */
    band bs[];
};

/* Bands of the grid with halos of t rows (none for a single band, which
 * steps the grid with its own topology): rows and halos only. */
static void plan(gg_band_set *s, gg_backend *const *b, int64_t cap)
{
    int n = s->n;
    int64_t h = s->height;
    int64_t least = h;
    for (int k = 0; k < n; k++) {
        s->bs[k].b = b[k];
        s->bs[k].y0 = h * k / n;
        s->bs[k].y1 = h * (k + 1) / n;
        least = rows_of(&s->bs[k]) < least ? rows_of(&s->bs[k]) : least;
    }
    int64_t t = least / 32 > 1 ? least / 32 : 1;
    t = t > cap ? cap : t;
    t = t > least ? least : t; /* a halo comes from one neighbour */
    s->t = t;
    for (int k = 0; k < n; k++) {
        band *d = &s->bs[k];
        bool torus = s->topo == GG_TOPO_TORUS;
        d->top = n > 1 && (torus || k > 0) ? t : 0;
        d->bot = n > 1 && (torus || k < n - 1) ? t : 0;
    }
}

/* Host copies hold a band as the grid has it: halo above, interior, halo
 * below. */
static void host_layout(gg_band_set *s)
{
    for (int k = 0; k < s->n; k++) {
        band *d = &s->bs[k];
        d->above_at = 0;
        d->inner = d->top;
        d->below_at = d->top + rows_of(d);
    }
}

/* Device bands need no host copies: each is uploaded from a view of the
 * grid's own rows and brings its interior back with the rows op, so a
 * band must be contiguous rows of the grid. On the plane a band with its
 * halos is. On the torus the first and last bands' halos wrap, so every
 * band is laid out as its interior and then a region of 2T halo rows (the
 * rows from below, then those from above), stepped as a torus of its own:
 * the rows above its first row are the region's last ones, those below
 * its last row the region's first, and the seam inside the region spoils
 * only halo rows within T generations (the argument of band_stepper.h).
 * The last band puts the region first, so that its view ends where the
 * grid does. The region starts out as other rows of the grid: an exchange
 * right after the upload fills it. */
static void view_layout(gg_band_set *s)
{
    host_layout(s);
    if (s->topo != GG_TOPO_TORUS || s->n < 2)
        return;
    for (int k = 0; k < s->n; k++) {
        band *d = &s->bs[k];
        bool last = k == s->n - 1;
        d->inner = last ? 2 * s->t : 0;
        d->below_at = last ? 0 : rows_of(d);
        d->above_at = d->below_at + s->t;
    }
}

/* Band d's rows of grid as a grid of its own (view_layout): its local row
 * y is the grid's row y0 - inner + y. */
static gg_grid band_view(const band *d, const gg_grid *grid)
{
    return (gg_grid){.width = grid->width,
                     .height = rows_of(d) + d->top + d->bot,
                     .stride = grid->stride,
                     .bits = gg_grid_row(grid, d->y0 - d->inner)};
}

/* The bands' host copies, kept from the last call when the grid is the
 * same size (a universe run uploads every batch: fresh gigabytes would be
 * faulted in each time). */
static int host_copies(gg_band_set *s, gg_err *err)
{
    for (int k = 0; k < s->n; k++) {
        band *d = &s->bs[k];
        if (!d->g.bits && gg_grid_init(&d->g, s->width,
                                       rows_of(d) + d->top + d->bot, err))
            return -1;
    }
    return 0;
}

static void *job_thread(void *arg)
{
    band *d = arg;
    d->bad = d->job(d->set, d->index, &d->err);
    return NULL;
}

/* job on every band: device bands at once, each from a thread of its own
 * (a device backend gives the calling thread its context). */
static int each_band(gg_band_set *s, band_job job, gg_err *err)
{
    int n = s->n;
    band *bs = s->bs;
    pthread_t th[64];
    bool threads = n > 1 && n <= 64 && gg_backend_steps_in_threads(bs[0].b);
    bool started[64] = {false};
    for (int k = 0; k < n; k++) {
        bs[k].set = s;
        bs[k].job = job;
        bs[k].index = k;
        bs[k].bad = 0;
        if (threads && pthread_create(&th[k], NULL, job_thread, &bs[k]) == 0)
            started[k] = true;
        else
            job_thread(&bs[k]);
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

static int step_one(gg_band_set *s, int k, gg_err *err)
{
    return gg_backend_step(s->bs[k].b, s->bs[k].gens, err);
}

/* Every band advances gens generations. */
static int step_all(gg_band_set *s, int64_t gens, gg_err *err)
{
    for (int k = 0; k < s->n; k++)
        s->bs[k].gens = gens;
    return each_band(s, step_one, err);
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

/* Where band k's halos come from: the last rows of the interior above
 * (*src_top) and the first of the one below (*src_bot), in local rows. */
static void halo_sources(const gg_band_set *s, int k, int64_t *src_top,
                         int64_t *src_bot)
{
    const band *b = &s->bs[k], *above = &s->bs[(k + s->n - 1) % s->n],
               *below = &s->bs[(k + 1) % s->n];
    *src_top = above->inner + rows_of(above) - b->top;
    *src_bot = below->inner;
}

/* Refresh every halo through the host: the neighbours' edge rows down,
 * across, and the halos up. */
static int exchange_host(gg_band_set *s, gg_err *err)
{
    int n = s->n;
    band *bs = s->bs;
    for (int k = 0; k < n; k++) {
        band *b = &bs[k];
        int64_t r = rows_of(b);
        /* what the neighbours take: the first rows of this interior for
         * the halo below the band above, the last for the one above the
         * band below */
        int64_t up = bs[(k + n - 1) % n].bot, down = bs[(k + 1) % n].top;
        if ((up && gg_backend_rows(b->b, &b->g, b->inner, up, false, err)) ||
            (down && gg_backend_rows(b->b, &b->g, b->inner + r - down, down,
                                     false, err)))
            return -1;
    }
    for (int k = 0; k < n; k++) {
        band *b = &bs[k];
        int64_t src_top, src_bot;
        halo_sources(s, k, &src_top, &src_bot);
        take_halo(b, b->above_at, &bs[(k + n - 1) % n], src_top, b->top);
        take_halo(b, b->below_at, &bs[(k + 1) % n], src_bot, b->bot);
        if ((b->top &&
             gg_backend_rows(b->b, &b->g, b->above_at, b->top, true, err)) ||
            (b->bot &&
             gg_backend_rows(b->b, &b->g, b->below_at, b->bot, true, err)))
            return -1;
    }
    return 0;
}

/* Band k's two halos band to band, straight from its neighbours; queued
 * behind both bands' work, or at once. */
static int pull_halos_as(gg_band_set *s, int k, bool queued, gg_err *err)
{
    band *b = &s->bs[k];
    gg_backend *above = s->bs[(k + s->n - 1) % s->n].b,
               *below = s->bs[(k + 1) % s->n].b;
    int (*copy)(gg_backend *, int64_t, gg_backend *, int64_t, int64_t,
                gg_err *) =
        queued ? gg_backend_queue_peer_rows : gg_backend_peer_rows;
    int64_t src_top, src_bot;
    halo_sources(s, k, &src_top, &src_bot);
    return (b->top &&
            copy(b->b, b->above_at, above, src_top, b->top, err)) ||
                   (b->bot &&
                    copy(b->b, b->below_at, below, src_bot, b->bot, err))
               ? -1
               : 0;
}

static int pull_halos(gg_band_set *s, int k, gg_err *err)
{
    return pull_halos_as(s, k, false, err);
}

/* Device to device when every neighbouring pair can, unless asked not. */
static bool peers(const gg_multi_band *m, const gg_band_set *s)
{
    if (m->host_halos)
        return false;
    for (int k = 0; k < s->n; k++)
        if (!gg_backend_peers(s->bs[k].b, s->bs[(k + 1) % s->n].b) ||
            !gg_backend_peers(s->bs[(k + 1) % s->n].b, s->bs[k].b))
            return false;
    return true;
}

static int exchange(gg_multi_band *m, gg_band_set *s, gg_err *err)
{
    m->peer = peers(m, s);
    if (m->peer ? each_band(s, pull_halos, err) : exchange_host(s, err))
        return -1;
    m->exchanges++;
    s->stale = false;
    return 0;
}

/* Band k's rows (halos too) from the grid being uploaded, then up. */
static int upload_one(gg_band_set *s, int k, gg_err *err)
{
    band *d = &s->bs[k];
    gg_grid_take_rows(s->from, d->y0 - d->top, d->y1 + d->bot, &d->g);
    return gg_backend_upload(d->b, s->topo, &d->g, err);
}

/* Band k down, and its interior into the grid being downloaded to. */
static int download_one(gg_band_set *s, int k, gg_err *err)
{
    band *d = &s->bs[k];
    if (gg_backend_download(d->b, &d->g, err))
        return -1;
    size_t bytes = (size_t)s->to->stride * sizeof(uint64_t);
    for (int64_t y = d->y0; y < d->y1; y++)
        memcpy(gg_grid_row(s->to, y),
               gg_grid_row(&d->g, y - d->y0 + d->inner), bytes);
    return 0;
}

/* Band k up from its view of the grid being uploaded (view_layout). */
static int upload_view(gg_band_set *s, int k, gg_err *err)
{
    band *d = &s->bs[k];
    gg_grid v = band_view(d, s->from);
    return gg_backend_upload(d->b, s->topo, &v, err);
}

/* Band k's interior straight into the grid being downloaded to; the bits
 * past its width (ghost cells of a torus) cleared as a download does. */
static int download_view(gg_band_set *s, int k, gg_err *err)
{
    band *d = &s->bs[k];
    gg_grid v = band_view(d, s->to);
    if (gg_backend_rows(d->b, &v, d->inner, rows_of(d), false, err))
        return -1;
    gg_grid interior = {.width = s->to->width, .height = rows_of(d),
                        .stride = s->to->stride,
                        .bits = gg_grid_row(s->to, d->y0)};
    gg_gpu_clear_tail(&interior);
    return 0;
}

/* Views when every band is on a device (the rows op) and halos go device
 * to device (the first exchange fills the torus's halo regions). */
static bool views_fit(const gg_multi_band *m, const gg_band_set *s)
{
    for (int k = 0; k < s->n; k++)
        if (!gg_backend_steps_in_threads(s->bs[k].b))
            return false;
    return s->n == 1 || peers(m, s);
}

/* Whether the set holds bands for this grid and topology. */
static bool fits(const gg_band_set *s, int n, gg_topo topo,
                 const gg_grid *grid)
{
    return s && s->n == n && s->topo == topo && s->width == grid->width &&
           s->height == grid->height;
}

int gg_multi_band_upload(gg_multi_band *m, gg_topo topo, const gg_grid *grid,
                         gg_err *err)
{
    int n = bands_for(m, grid);
    if (!fits(m->set, n, topo, grid)) {
        gg_multi_band_release(m);
        m->set = calloc(1, sizeof *m->set + (size_t)n * sizeof(band));
        if (!m->set)
            return gg_fail(err, "out of memory for %d bands", n);
        *m->set = (gg_band_set){.n = n, .topo = topo, .width = grid->width,
                                .height = grid->height};
        plan(m->set, m->b, m->t_max > 0 ? m->t_max : MULTI_T_MAX);
    }
    gg_band_set *s = m->set;
    double t0 = gg_batch_clock();
    s->uploaded = 0;
    s->stale = false;
    s->from = grid;
    s->views = views_fit(m, s);
    if (s->views)
        view_layout(s);
    else
        host_layout(s);
    if ((!s->views && host_copies(s, err)) ||
        each_band(s, s->views ? upload_view : upload_one, err))
        return -1;
    s->uploaded = n;
    /* Views: the halo regions of the torus are filled here. Either way
     * opening peer access once per pair of devices (each maps the other's
     * buffers: milliseconds) happens here, not in the steps. */
    if (n > 1 && peers(m, s) && exchange(m, s, err))
        return -1;
    m->transfer_seconds += gg_batch_clock() - t0;
    return 0;
}

/* Whether the bands run their rounds queued (backend.h queue_step ...):
 * every band can, and halos go band to band. */
static bool queues(const gg_multi_band *m, const gg_band_set *s)
{
    if (s->n < 2 || !peers(m, s))
        return false;
    for (int k = 0; k < s->n; k++)
        if (!gg_backend_queues(s->bs[k].b))
            return false;
    return true;
}

/* Rounds of T generations queued on every band, each behind its halos'
 * copies from the neighbours, so a device starts its next round as soon
 * as its own halos are in; the host waits once, at the end. */
static int step_queued(gg_multi_band *m, gg_band_set *s, int64_t gens,
                       gg_err *err)
{
    int bad = 0;
    while (gens > 0 && !bad) {
        for (int k = 0; s->stale && k < s->n && !bad; k++)
            bad = pull_halos_as(s, k, true, err);
        if (s->stale && !bad)
            m->exchanges++;
        s->stale = false;
        int64_t now = gens < s->t ? gens : s->t;
        for (int k = 0; k < s->n && !bad; k++)
            bad = gg_backend_queue_step(s->bs[k].b, now, err);
        s->stale = true;
        gens -= now;
    }
    gg_err later; /* every band waited for; the first failure reported */
    for (int k = 0; k < s->n; k++)
        if (gg_backend_finish(s->bs[k].b, bad ? &later : err))
            bad = -1;
    return bad;
}

int gg_multi_band_step(gg_multi_band *m, int64_t gens, gg_err *err)
{
    gg_band_set *s = m->set;
    if (!s || s->uploaded < s->n)
        return gg_fail(err, "no bands uploaded to step");
    if (queues(m, s)) {
        double t0 = gg_batch_clock();
        int bad = step_queued(m, s, gens, err);
        m->step_seconds += gg_batch_clock() - t0;
        return bad;
    }
    while (gens > 0) {
        double t0 = gg_batch_clock();
        if (s->stale && exchange(m, s, err))
            return -1;
        m->exchange_seconds += gg_batch_clock() - t0;
        int64_t now = gens < s->t ? gens : s->t;
        t0 = gg_batch_clock();
        if (step_all(s, now, err))
            return -1;
        m->step_seconds += gg_batch_clock() - t0;
        s->stale = s->n > 1;
        gens -= now;
    }
    return 0;
}

int gg_multi_band_download(gg_multi_band *m, gg_grid *grid, gg_err *err)
{
    gg_band_set *s = m->set;
    if (!s || s->uploaded < s->n)
        return gg_fail(err, "no bands uploaded to download");
    if (grid->width != s->width || grid->height != s->height)
        return gg_fail(err, "the bands hold a %lldx%lld grid, not %lldx%lld",
                       (long long)s->width, (long long)s->height,
                       (long long)grid->width, (long long)grid->height);
    double t0 = gg_batch_clock();
    s->to = grid;
    int bad = each_band(s, s->views ? download_view : download_one, err);
    m->transfer_seconds += gg_batch_clock() - t0;
    return bad;
}

void gg_multi_band_release(gg_multi_band *m)
{
    if (!m->set)
        return;
    for (int k = 0; k < m->set->n; k++)
        gg_grid_free(&m->set->bs[k].g);
    free(m->set);
    m->set = NULL;
}

/* ---- bands that start empty (a grid on the devices alone) ---- */

/* Halos band to band for n bands of m's backends (peers, before a set). */
static bool peers_of(const gg_multi_band *m, int n)
{
    if (m->host_halos)
        return false;
    for (int k = 0; k < n; k++)
        if (!gg_backend_peers(m->b[k], m->b[(k + 1) % n]) ||
            !gg_backend_peers(m->b[(k + 1) % n], m->b[k]))
            return false;
    return true;
}

bool gg_multi_band_can_start_empty(const gg_multi_band *m, int64_t height)
{
    gg_grid size = {.height = height};
    int n = bands_for(m, &size);
    if (!gg_backend_steps_in_threads(m->b[0]))
        return true; /* host bands: their copies are the grids */
    for (int k = 0; k < n; k++)
        if (!gg_backend_resident(m->b[k]))
            return false;
    return n == 1 || peers_of(m, n);
}

/* Band k, all dead: on its device with no host copy, or its host copy
 * (zeroed by gg_grid_init) handed to a host backend. */
static int empty_one(gg_band_set *s, int k, gg_err *err)
{
    band *d = &s->bs[k];
    int64_t rows = rows_of(d) + d->top + d->bot;
    return s->views ? gg_backend_upload_empty(d->b, s->topo, s->width, rows,
                                              err)
                    : gg_backend_upload(d->b, s->topo, &d->g, err);
}

int gg_multi_band_start_empty(gg_multi_band *m, gg_topo topo, int64_t width,
                              int64_t height, gg_err *err)
{
    if (!gg_multi_band_can_start_empty(m, height))
        return gg_fail(err, "these bands cannot start empty on their "
                       "devices (a backend without upload_empty, or halos "
                       "through the host)");
    gg_grid size = {.width = width, .height = height};
    int n = bands_for(m, &size);
    gg_multi_band_release(m);
    m->set = calloc(1, sizeof *m->set + (size_t)n * sizeof(band));
    if (!m->set)
        return gg_fail(err, "out of memory for %d bands", n);
    gg_band_set *s = m->set;
    *s = (gg_band_set){.n = n, .topo = topo, .width = width,
                       .height = height};
    plan(s, m->b, m->t_max > 0 ? m->t_max : MULTI_T_MAX);
    double t0 = gg_batch_clock();
    s->views = gg_backend_steps_in_threads(m->b[0]);
    if (s->views)
        view_layout(s); /* as device bands uploaded from views are */
    else
        host_layout(s);
    if ((!s->views && host_copies(s, err)) || each_band(s, empty_one, err))
        return -1;
    s->uploaded = n;
    m->transfer_seconds += gg_batch_clock() - t0;
    return 0;
}

/* Rows a .. b - 1 of `rows`, whose row 0 is the grid's row y, as a grid
 * of their own. */
static gg_grid rows_part(const gg_grid *rows, int64_t y, int64_t a,
                         int64_t b)
{
    return (gg_grid){.width = rows->width, .height = b - a,
                     .stride = rows->stride,
                     .bits = gg_grid_row(rows, a - y)};
}

/* Rows y .. y + rows->height - 1 of the whole grid to (up) or from each
 * band's interior that holds some of them. */
static int interior_rows(gg_band_set *s, gg_grid *rows, int64_t y, bool up,
                         gg_err *err)
{
    size_t bytes = (size_t)rows->stride * sizeof(uint64_t);
    for (int k = 0; k < s->n; k++) {
        band *d = &s->bs[k];
        int64_t a = y > d->y0 ? y : d->y0,
                b = y + rows->height < d->y1 ? y + rows->height : d->y1;
        if (a >= b)
            continue;
        gg_grid part = rows_part(rows, y, a, b);
        if (s->views) {
            if (gg_backend_rows_at(d->b, &part, a - d->y0 + d->inner, up,
                                   err))
                return -1;
            continue;
        }
        for (int64_t r = a; r < b; r++) {
            uint64_t *host = gg_grid_row(&d->g, r - d->y0 + d->inner);
            memcpy(up ? host : gg_grid_row(&part, r - a),
                   up ? gg_grid_row(&part, r - a) : host, bytes);
        }
    }
    return 0;
}

/* Rows y.. of `rows`' height lie inside the bands' grid, as wide; else
 * -1 saying where they fall. */
static int rows_outside(const gg_band_set *s, const gg_grid *rows, int64_t y,
                        gg_err *err)
{
    if (rows->width != s->width || y < 0 || y + rows->height > s->height)
        return gg_fail(err, "rows %lld..%lld of width %lld lie outside the "
                       "bands' %lldx%lld grid", (long long)y,
                       (long long)(y + rows->height - 1),
                       (long long)rows->width, (long long)s->width,
                       (long long)s->height);
    return 0;
}

int gg_multi_band_put_rows(gg_multi_band *m, const gg_grid *rows, int64_t y,
                           gg_err *err)
{
    gg_band_set *s = m->set;
    if (!s || s->uploaded < s->n)
        return gg_fail(err, "no bands uploaded to put rows into");
    if (rows_outside(s, rows, y, err))
        return -1;
    double t0 = gg_batch_clock();
    if (interior_rows(s, (gg_grid *)rows, y, true, err))
        return -1;
    /* the halos take the new rows now (and peer access opens here, not
     * in the steps) */
    int bad = s->n > 1 ? exchange(m, s, err) : 0;
    m->transfer_seconds += gg_batch_clock() - t0;
    return bad;
}

int gg_multi_band_get_rows(gg_multi_band *m, gg_grid *rows, int64_t y,
                           gg_err *err)
{
    gg_band_set *s = m->set;
    if (!s || s->uploaded < s->n)
        return gg_fail(err, "no bands uploaded to take rows from");
    if (rows_outside(s, rows, y, err))
        return -1;
    double t0 = gg_batch_clock();
    int bad = interior_rows(s, rows, y, false, err);
    if (!bad)
        gg_gpu_clear_tail(rows); /* a torus's ghost cells land there */
    m->transfer_seconds += gg_batch_clock() - t0;
    return bad;
}

/* Whether row r of host grid g holds a live cell (bits past the width
 * are not cells). */
static bool row_live(const gg_grid *g, int64_t r)
{
    const uint64_t *w = gg_grid_row(g, r);
    uint64_t any = 0;
    for (int64_t i = 0; i + 1 < g->stride; i++)
        any |= w[i];
    return (any | (w[g->stride - 1] & gg_grid_tail_mask(g))) != 0;
}

int gg_multi_band_live_rows(gg_multi_band *m, int64_t y, int64_t n,
                            uint8_t *live, gg_err *err)
{
    gg_band_set *s = m->set;
    if (!s || s->uploaded < s->n)
        return gg_fail(err, "no bands uploaded to look at");
    if (y < 0 || n < 0 || y + n > s->height)
        return gg_fail(err, "rows %lld..%lld lie outside the bands' grid of "
                       "%lld rows", (long long)y, (long long)(y + n - 1),
                       (long long)s->height);
    double t0 = gg_batch_clock();
    for (int k = 0; k < s->n; k++) {
        band *d = &s->bs[k];
        int64_t a = y > d->y0 ? y : d->y0, b = y + n < d->y1 ? y + n : d->y1;
        if (a >= b)
            continue;
        if (s->views) {
            if (gg_backend_live_rows(d->b, a - d->y0 + d->inner, b - a,
                                     live + (a - y), err))
                return -1;
            continue;
        }
        for (int64_t r = a; r < b; r++)
            live[r - y] = row_live(&d->g, r - d->y0 + d->inner);
    }
    m->transfer_seconds += gg_batch_clock() - t0;
    return 0;
}

static int multi_step(void *ctx, const gg_rule *rule, gg_topo topo,
                      gg_grid *grid, int64_t gens, gg_err *err)
{
    (void)rule;
    gg_multi_band *m = ctx;
    if (m->held == grid)
        return gg_multi_band_step(m, gens, err);
    gg_err later;
    int bad = gg_multi_band_upload(m, topo, grid, err) ||
              gg_multi_band_step(m, gens, err);
    /* download after a failed step too (host buffers go back) */
    bad = (m->set && m->set->uploaded &&
           gg_multi_band_download(m, grid, bad ? &later : err)) ||
          bad;
    return bad ? -1 : 0;
}

static int multi_hold(void *ctx, gg_topo topo, gg_grid *grid, gg_err *err)
{
    gg_multi_band *m = ctx;
    if (gg_multi_band_upload(m, topo, grid, err))
        return -1;
    m->held = grid;
    return 0;
}

static int multi_drop(void *ctx, gg_grid *grid, gg_err *err)
{
    gg_multi_band *m = ctx;
    m->held = NULL;
    return gg_multi_band_download(m, grid, err);
}

gg_stepper gg_multi_band_view(gg_multi_band *m)
{
    gg_stepper one = gg_backend_stepper(m->b[0]);
    gg_stepper s = {.name = one.name, .step = multi_step, .ctx = m,
                    .max_batch = one.max_batch, .hold = multi_hold,
                    .drop = multi_drop};
    return s;
}
