/* An open backend and what every caller does with one (advance a grid,
 * bench it, view it as a universe stepper), written once over the table
 * each backend fills in. */
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rule_gen.h"

struct gg_backend {
    const gg_backend_info *info;
    void *state;
    gg_rule rule;
    const gg_grid *held; /* the grid its stepper holds (hold .. drop) */
    bool pair;           /* opened for two rules by parity */
};

int gg_fail_exit_status(gg_fail_kind why)
{
    return why == GG_FAIL_ENV ? 3 : why == GG_FAIL_INVALID ? 1 : 2;
}

int gg_backend_open(const gg_backend_info *info, const gg_rule *rule,
                    const gg_backend_opts *o, gg_backend **out,
                    gg_fail_kind *why, gg_err *err)
{
    static const gg_backend_opts defaults;
    *out = NULL;
    *why = GG_FAIL_ENV;
    if (gg_backend_takes(info, gg_rule_family(rule), GG_FEATURE_RUN, err)) {
        *why = GG_FAIL_INPUT;
        return -1;
    }
    gg_backend *b = gg_alloc(1, sizeof *b, err, "backend");
    if (!b)
        return -1;
    b->info = info;
    b->rule = *rule;
    b->pair = o && o->odd_rule && info->step_parity;
    if (info->open(rule, o ? o : &defaults, &b->state, why, err)) {
        free(b);
        return -1;
    }
    *out = b;
    return 0;
}

/* A grid of one plane given to a backend opened for a rule of several
 * state planes would be stepped as if the planes above it were 0 (issue
 * 42: a crash on cpu, a wrong answer on the reference): refused. */
static int one_plane(const gg_backend *b, gg_err *err)
{
    char text[128];
    if (gg_gen_planes_of(&b->rule) == 1)
        return 0;
    gg_rule_format(&b->rule, text, sizeof text);
    return gg_fail(err, "%s needs %d state planes a cell; the %s backend "
                   "was given one plane (a two-state grid)", text,
                   gg_gen_planes_of(&b->rule), b->info->name);
}

/* step, or step_until where the backend has it and a stop is given: the
 * generations run, -1 on failure. */
static int64_t step_until(gg_backend *b, int64_t gens, gg_stop_flag *stop,
                          gg_err *err)
{
    if (stop && b->info->step_until)
        return b->info->step_until(b->state, gens, stop, err);
    return b->info->step(b->state, gens, err) ? -1 : gens;
}

/* grid advanced gens generations on b: uploaded, stepped (by the two
 * rules of a pair from parity where parity >= 0), handed back; the
 * generations run, -1 on failure. */
static int64_t advance_until(gg_backend *b, gg_topo topo, gg_grid *grid,
                             int64_t gens, gg_stop_flag *stop, int parity,
                             gg_err *err)
{
    const gg_backend_info *f = b->info;
    if (one_plane(b, err) || f->upload(b->state, grid, topo, err))
        return -1;
    int64_t ran = parity < 0 ? step_until(b, gens, stop, err)
                  : f->step_parity(b->state, gens, parity, err) ? -1
                                                                  : gens;
    /* download even after a failed step: a host backend may have swapped
     * the grid's buffer and must hand it back */
    return f->download(b->state, grid, err) ? -1 : ran;
}

int gg_backend_advance(gg_backend *b, gg_topo topo, gg_grid *grid,
                       int64_t gens, gg_err *err)
{
    return advance_until(b, topo, grid, gens, NULL, -1, err) < 0 ? -1 : 0;
}

bool gg_backend_pairs(const gg_backend *b) { return b->pair; }

int gg_backend_advance_parity(gg_backend *b, gg_topo topo, gg_grid *grid,
                              int64_t gens, int parity, gg_err *err)
{
    if (!b->pair)
        return gg_fail(err, "the %s backend was not opened for two rules by "
                       "parity", b->info->name);
    return advance_until(b, topo, grid, gens, NULL, parity & 1, err) < 0 ? -1
                                                                         : 0;
}

int gg_backend_upload(gg_backend *b, gg_topo topo, gg_grid *grid,
                      gg_err *err)
{
    return one_plane(b, err) || b->info->upload(b->state, grid, topo, err)
               ? -1 : 0;
}

int gg_backend_step(gg_backend *b, int64_t gens, gg_err *err)
{
    return b->info->step(b->state, gens, err);
}

bool gg_backend_watches(const gg_backend *b)
{
    return b->info->step_watched != NULL;
}

int gg_backend_step_watched(gg_backend *b, int64_t gens,
                            const gg_step_watch *w, gg_err *err)
{
    if (!b->info->step_watched)
        return gg_fail(err, "the %s backend cannot be watched inside a "
                       "step", b->info->name);
    return b->info->step_watched(b->state, gens, w, err);
}

int gg_backend_tiles_step(gg_backend *b, const gg_tiles_plan *plan,
                          int64_t gens, uint8_t *flags, gg_err *err)
{
    if (!b->info->tiles_step)
        return gg_fail(err, "the %s backend steps no tiles on its device",
                       b->info->name);
    return b->info->tiles_step(b->state, plan, gens, flags, err);
}

bool gg_backend_resident(const gg_backend *b)
{
    return b->info->upload_empty && b->info->rows_at && b->info->live_rows;
}

static int resident_op(const gg_backend *b, gg_err *err)
{
    return gg_backend_resident(b)
               ? 0
               : gg_fail(err, "the %s backend keeps no grid on a device "
                         "alone", b->info->name);
}

int gg_backend_upload_empty(gg_backend *b, gg_topo topo, int64_t width,
                            int64_t height, gg_err *err)
{
    return one_plane(b, err) || resident_op(b, err) ||
                   b->info->upload_empty(b->state, width, height, topo, err)
               ? -1
               : 0;
}

int gg_backend_rows_at(gg_backend *b, gg_grid *rows, int64_t y, bool up,
                       gg_err *err)
{
    return resident_op(b, err) ||
                   b->info->rows_at(b->state, rows, y, up, err)
               ? -1
               : 0;
}

int gg_backend_live_rows(gg_backend *b, int64_t y, int64_t n, uint8_t *live,
                         gg_err *err)
{
    return resident_op(b, err) ||
                   b->info->live_rows(b->state, y, n, live, err)
               ? -1
               : 0;
}

int gg_backend_rows(gg_backend *b, gg_grid *grid, int64_t y, int64_t n,
                    bool up, gg_err *err)
{
    return b->info->rows ? b->info->rows(b->state, grid, y, n, up, err) : 0;
}

int gg_backend_download(gg_backend *b, gg_grid *grid, gg_err *err)
{
    return b->info->download(b->state, grid, err);
}

bool gg_backend_peers(const gg_backend *to, const gg_backend *from)
{
    return to->info == from->info && to->info->peer_rows != NULL;
}

int gg_backend_peer_rows(gg_backend *to, int64_t at, gg_backend *from,
                         int64_t src, int64_t n, gg_err *err)
{
    if (!gg_backend_peers(to, from))
        return gg_fail(err, "the %s backend cannot copy rows from a %s "
                       "backend's device", to->info->name, from->info->name);
    return to->info->peer_rows(to->state, at, from->state, src, n, err);
}

bool gg_backend_queues(const gg_backend *b)
{
    return b->info->queue_step && b->info->queue_peer_rows &&
           b->info->finish;
}

int gg_backend_queue_step(gg_backend *b, int64_t gens, gg_err *err)
{
    return b->info->queue_step(b->state, gens, err);
}

int gg_backend_queue_peer_rows(gg_backend *to, int64_t at, gg_backend *from,
                               int64_t src, int64_t n, gg_err *err)
{
    if (!gg_backend_peers(to, from) || !gg_backend_queues(to))
        return gg_fail(err, "the %s backend cannot queue rows from a %s "
                       "backend's device", to->info->name, from->info->name);
    return to->info->queue_peer_rows(to->state, at, from->state, src, n,
                                     err);
}

int gg_backend_finish(gg_backend *b, gg_err *err)
{
    return b->info->finish(b->state, err);
}

bool gg_backend_steps_in_threads(const gg_backend *b)
{
    return b->info->rows != NULL;
}

static int64_t advance_cells_until(gg_backend *b, gg_topo topo,
                                   gg_gen_cells *cells, int64_t gens,
                                   gg_stop_flag *stop, gg_err *err)
{
    const gg_backend_info *f = b->info;
    if (f->upload_cells(b->state, cells, topo, err))
        return -1;
    int64_t ran = step_until(b, gens, stop, err);
    return f->download_cells(b->state, cells, err) ? -1 : ran;
}

int gg_backend_upload_cells(gg_backend *b, gg_topo topo, gg_gen_cells *cells,
                            gg_err *err)
{
    return b->info->upload_cells(b->state, cells, topo, err);
}

int gg_backend_download_cells(gg_backend *b, gg_gen_cells *cells,
                              gg_err *err)
{
    return b->info->download_cells(b->state, cells, err);
}

int gg_backend_advance_cells(gg_backend *b, gg_topo topo,
                             gg_gen_cells *cells, int64_t gens, gg_err *err)
{
    return advance_cells_until(b, topo, cells, gens, NULL, err) < 0 ? -1
                                                                     : 0;
}

int64_t gg_backend_max_batch(gg_backend *b)
{
    return b->info->max_batch ? b->info->max_batch(b->state) : 0;
}

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Host timing: wall and CPU time around the backend's step, after one
 * untimed generation (first-touch page faults, thread start-up). */
static int host_timed(gg_backend *b, int64_t gens, gg_backend_timing *t,
                      gg_err *err)
{
    if (b->info->step(b->state, 1, err))
        return -1;
    double t0 = clock_s(CLOCK_MONOTONIC);
    double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    int bad = b->info->step(b->state, gens, err);
    t->seconds = clock_s(CLOCK_MONOTONIC) - t0;
    t->cpu_seconds = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    return bad;
}

int gg_backend_bench(gg_backend *b, gg_topo topo, gg_grid *grid,
                     int64_t gens, gg_backend_timing *t, gg_err *err)
{
    const gg_backend_info *f = b->info;
    int64_t warm;
    memset(t, 0, sizeof *t);
    if (f->upload(b->state, grid, topo, err))
        return -1;
    int bad = f->timed_step
                  ? f->timed_step(b->state, gens, &warm, &t->seconds, err)
                  : host_timed(b, gens, t, err);
    return f->download(b->state, grid, err) || bad ? -1 : 0;
}

int gg_backend_bench_cells(gg_backend *b, gg_topo topo, gg_gen_cells *cells,
                           int64_t gens, gg_backend_timing *t, gg_err *err)
{
    const gg_backend_info *f = b->info;
    int64_t warm;
    memset(t, 0, sizeof *t);
    if (f->upload_cells(b->state, cells, topo, err))
        return -1;
    int bad = f->timed_step
                  ? f->timed_step(b->state, gens, &warm, &t->seconds, err)
                  : host_timed(b, gens, t, err);
    return f->download_cells(b->state, cells, err) || bad ? -1 : 0;
}

void gg_backend_describe(gg_backend *b, gg_backend_desc *d)
{
    memset(d, 0, sizeof *d);
    d->threads = 1;
    b->info->describe(b->state, d);
}

const gg_backend_info *gg_backend_of(const gg_backend *b) { return b->info; }

static int64_t stepper_step_until(void *ctx, const gg_rule *rule,
                                  gg_topo topo, gg_grid *grid, int64_t gens,
                                  gg_stop_flag *stop, gg_err *err)
{
    gg_backend *b = ctx;
    if (!gg_rule_same_transition(rule, &b->rule))
        return gg_fail(err, "the %s backend was opened for another rule",
                       b->info->name);
    return b->held == grid ? step_until(b, gens, stop, err)
                           : advance_until(b, topo, grid, gens, stop, -1,
                                           err);
}

static int stepper_step(void *ctx, const gg_rule *rule, gg_topo topo,
                        gg_grid *grid, int64_t gens, gg_err *err)
{
    return stepper_step_until(ctx, rule, topo, grid, gens, NULL, err) < 0
               ? -1
               : 0;
}

static int stepper_hold(void *ctx, gg_topo topo, gg_grid *grid, gg_err *err)
{
    gg_backend *b = ctx;
    if (gg_backend_upload(b, topo, grid, err))
        return -1;
    b->held = grid;
    return 0;
}

static int stepper_drop(void *ctx, gg_grid *grid, gg_err *err)
{
    gg_backend *b = ctx;
    b->held = NULL;
    return gg_backend_download(b, grid, err);
}

gg_stepper gg_backend_stepper(gg_backend *b)
{
    gg_stepper s = {.name = b->info->name, .step = stepper_step, .ctx = b,
                    .max_batch = b->info->max_batch(b->state),
                    .hold = stepper_hold, .drop = stepper_drop};
    if (b->info->step_until)
        s.step_until = stepper_step_until;
    return s;
}

static int memory_step(void *ctx, const gg_rule *rule, gg_topo topo,
                       gg_grid *grid, int64_t gens, gg_err *err)
{
    gg_memory_stepper *m = ctx;
    gg_backend *b = m->b;
    if (!gg_rule_same_transition(rule, &b->rule))
        return gg_fail(err, "the %s backend was opened for another rule",
                       b->info->name);
    gg_stream_stats s;
    if (b->info->stream(b->state, grid, topo, gens, m->max_bytes, &s, err))
        return -1;
    m->stats.bands += s.bands;
    m->stats.passes += s.passes;
    m->stats.t = s.t;
    m->stats.rows = s.rows;
    m->stats.setup_seconds += s.setup_seconds;
    m->stats.copy_seconds += s.copy_seconds;
    m->stats.wait_seconds += s.wait_seconds;
    return 0;
}

gg_stepper gg_backend_memory_stepper(gg_backend *b, int64_t max_bytes,
                                     gg_memory_stepper *m)
{
    memset(m, 0, sizeof *m);
    m->b = b;
    m->max_bytes = max_bytes;
    m->whole = gg_backend_stepper(b);
    if (b->info->stream) {
        gg_stepper s = {.name = b->info->name, .step = memory_step,
                        .ctx = m, .max_batch = m->whole.max_batch,
                        .min_batch = GG_STREAM_MIN_BATCH};
        return s;
    }
    /* a band and its copy (two buffers of a bit per cell) */
    m->bands.inner = &m->whole;
    m->bands.max_cells = max_bytes * 4;
    return gg_band_stepper_view(&m->bands);
}

static int64_t gen_stepper_step_until(void *ctx, const gg_rule *rule,
                                      gg_topo topo, gg_gen_cells *cells,
                                      int64_t gens, gg_stop_flag *stop,
                                      gg_err *err)
{
    gg_backend *b = ctx;
    if (!gg_rule_same_transition(rule, &b->rule))
        return gg_fail(err, "the %s backend was opened for another rule",
                       b->info->name);
    return advance_cells_until(b, topo, cells, gens, stop, err);
}

static int gen_stepper_step(void *ctx, const gg_rule *rule, gg_topo topo,
                            gg_gen_cells *cells, int64_t gens, gg_err *err)
{
    return gen_stepper_step_until(ctx, rule, topo, cells, gens, NULL, err) <
                   0
               ? -1
               : 0;
}

gg_gen_stepper gg_backend_gen_stepper(gg_backend *b)
{
    gg_gen_stepper s = {.name = b->info->name, .step = gen_stepper_step,
                        .ctx = b, .max_batch = gg_backend_max_batch(b)};
    if (b->info->step_until)
        s.step_until = gen_stepper_step_until;
    return s;
}

void gg_backend_close(gg_backend *b)
{
    if (!b)
        return;
    b->info->close(b->state);
    free(b);
}
