/* golgen_run_2d's devices and tiles (lib/run_lib.h): devices as one band of
 * the grid per listed device ordinal, each on its own open backend, halos
 * exchanged every T generations (runtime/universes/multi_band.h), or the
 * grid on the devices alone (runtime/universes/resident.h); and engine
 * tiles (auto's choice of them) around a stepper (runtime/engines/
 * tiles.h). "0,1" spreads a grid over two GPUs; "0,0" runs two bands on
 * GPU 0 (the same path, testable on one GPU); host backends take ordinal
 * 0 only, so "0,0,0" runs three bands on the host, one after the other.
 * Moved from the command's cli/cli_devices.c and cli/run_tiles.c. */
#include "run_lib.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "engine_choice.h"

/* One device backend's open, on a thread of its own. */
typedef struct open_job {
    const gg_backend_info *backend;
    const gg_rule *rule;
    gg_backend_opts o;
    gg_backend *b;
    gg_fail_kind why;
    gg_err err;
    int bad;
    pthread_t th;
    bool started;
} open_job;

static void *open_one(void *arg)
{
    open_job *j = arg;
    j->bad = gg_backend_open(j->backend, j->rule, &j->o, &j->b, &j->why,
                             &j->err);
    return NULL;
}

/* Device backends k0 .. n - 1, all at once (one after the other, two
 * H200s took 1.04-1.12 s against 0.58 s for one: BENCHMARKS.md, session
 * 27). The driver makes the contexts one at a time (0.12 s each on an
 * H200 host of four, session 28), but the rest of an open overlaps: the
 * module's build and load, and a first use's checks against the
 * reference. A circuit searched for is the only shared work; the
 * caller's note of it must be thread-safe, and on_open is told once all
 * are open. The first failure in device order is the one reported; every
 * backend opened is closed again then. */
static int open_all(gg_run *r, gg_run_devices *d, int k0, int n,
                    const gg_backend_info *backend, const gg_rule *rule,
                    gg_backend_opts o, int *status, gg_err *err)
{
    open_job job[GG_RUN_MAX_DEVICES];
    for (int k = k0; k < n; k++) {
        open_job *j = &job[k];
        *j = (open_job){.backend = backend, .rule = rule, .o = o};
        j->o.device = d->ordinal[k];
        j->o.announce = o.announce && k == 0; /* one says what it does */
        /* this thread opens the first; a thread that cannot start opens
         * here too */
        j->started = k > k0 &&
                     pthread_create(&j->th, NULL, open_one, j) == 0;
    }
    for (int k = k0; k < n; k++)
        if (!job[k].started)
            open_one(&job[k]);
    int bad = -1;
    for (int k = k0; k < n; k++) {
        if (job[k].started)
            pthread_join(job[k].th, NULL);
        d->b[k] = job[k].b;
        if (job[k].bad && bad < 0)
            bad = k;
    }
    gg_run_told_open(r, false); /* a new rule's networks: searched once */
    if (bad < 0)
        return 0;
    *status = gg_run_status(job[bad].why);
    *err = job[bad].err;
    for (int k = 0; k < n; k++) { /* the opened, before k0 too */
        gg_backend_close(d->b[k]);
        d->b[k] = NULL;
    }
    d->n = 0;
    return -1;
}

int gg_run_devices_open(gg_run *r, gg_run_devices *d,
                        const gg_backend_info *backend, const gg_rule *rule,
                        gg_backend_opts o, int *status, gg_err *err)
{
    int n = d->n ? d->n : 1, k0 = 0;
    if (!d->n)
        d->ordinal[0] = 0;
    /* the driver sets up these devices alone (a CUDA host of four: cuInit
     * 0.19 s for one against 0.55-1.05 s for all) */
    gg_backends_plan_devices(d->ordinal, n);
    if (!backend || !backend->opens_at_once) {
        /* auto's choice (the first open says it), a host backend (one
         * after the other, as they step), or a device backend whose opens
         * may not run at once */
        for (; k0 < n; k0++) {
            o.device = d->ordinal[k0];
            if (gg_run_open_backend(r, backend, rule, &o, &d->b[k0], status,
                                    err)) {
                d->n = k0; /* what close must close */
                return -1;
            }
            backend = gg_backend_of(d->b[0]); /* auto's choice, for the rest */
            if (o.device && !gg_backend_steps_in_threads(d->b[k0])) {
                *status = GG_RUN_USAGE;
                d->n = k0 + 1;
                return gg_fail(err, "--devices: the %s backend runs on the "
                               "host, device 0 only (--devices 0,0 runs two "
                               "bands there)", backend->name);
            }
            o.announce = false; /* the first open said what it does */
            if (backend->opens_at_once) { /* the rest at once */
                k0++;
                break;
            }
        }
    }
    if (k0 < n && open_all(r, d, k0, n, backend, rule, o, status, err))
        return -1;
    d->n = n;
    d->m = (gg_multi_band){.b = d->b, .n = n};
    return 0;
}

gg_stepper gg_run_devices_stepper(gg_run_devices *d)
{
    return d->n > 1 ? gg_multi_band_view(&d->m) : gg_backend_stepper(d->b[0]);
}

void gg_run_devices_report(const gg_run *r, const gg_run_devices *d)
{
    const gg_multi_band *m = &d->m;
    if (d->resident)
        gg_run_note(r, "golgen: the grid on the device%s alone: %.3f s "
                    "opening the backends%s%s%s, %.3f s stepping, %.3f s "
                    "placing the pattern and finding and bringing down the "
                    "live rows", d->n > 1 ? "s" : "", d->open_seconds,
                    d->open_detail[0] ? " (the first: " : "", d->open_detail,
                    d->open_detail[0] ? ")" : "", m->step_seconds,
                    m->transfer_seconds);
    if (d->n < 2)
        return;
    gg_run_note(r, "golgen: %d bands, %lld halo exchanges (%s): %.3f s "
                "stepping, %.3f s exchanging halos, %.3f s moving bands in "
                "and out", d->n, (long long)m->exchanges,
                m->peer ? "band to band" : "through the host",
                m->step_seconds, m->exchange_seconds, m->transfer_seconds);
}

int gg_run_devices_resident(gg_run *r, gg_run_devices *d,
                            const gg_backend_info *backend, gg_backend_opts o,
                            gg_resident *res, int64_t gens,
                            gg_progress_fn progress, void *progress_ctx,
                            gg_universe *u, int *status, gg_err *err)
{
    int given = d->n;
    /* a named device backend without the ops: no open to undo */
    if (backend && backend->rows && !backend->upload_empty)
        return 1;
    double t0 = gg_batch_clock();
    if (gg_run_devices_open(r, d, backend, &res->rule, o, status, err)) {
        gg_run_devices_close(d);
        return -1;
    }
    /* a host backend without devices: its one band is the host grid */
    if (!gg_multi_band_can_start_empty(&d->m, res->rule.height) ||
        (!given && !gg_backend_steps_in_threads(d->b[0]))) {
        gg_run_devices_close(d);
        d->n = given;
        return 1;
    }
    d->resident = true;
    d->open_seconds = gg_batch_clock() - t0;
    gg_backend_desc desc;
    memset(&desc, 0, sizeof desc);
    gg_backend_describe(d->b[0], &desc);
    snprintf(d->open_detail, sizeof d->open_detail, "%s", desc.open);
    if (gg_resident_start(res, &d->m, err) ||
        gg_resident_run(res, gens, gg_backend_max_batch(d->b[0]), progress,
                        progress_ctx, err) ||
        gg_resident_finish(res, u, err)) {
        gg_run_devices_close(d);
        *status = GG_RUN_ENV;
        return -1;
    }
    return 0;
}

void gg_run_devices_close(gg_run_devices *d)
{
    gg_multi_band_release(&d->m);
    for (int k = 0; k < d->n; k++)
        gg_backend_close(d->b[k]);
    d->n = 0;
}

/* ---- tiles ---- */

/* Auto leaves alone a backend that gives up a long generation at a stop
 * (step_until: the reference): tiles step through calls a stop cannot
 * cut short, and the reference's generations are slow enough to matter
 * (a stop within a second, tests/test_stop.c). */
static bool gives_up_in_a_step(gg_backend *b, bool asked)
{
    return !asked && gg_backend_of(b)->step_until != NULL;
}

int gg_run_tiles_wrap(const char *engine, gg_backend *b, bool split,
                      gg_tiles *tiles, gg_stepper *stepper, gg_err *err)
{
    bool asked = !strcmp(engine, "tiles");
    if (!asked && strcmp(engine, "auto"))
        return 0;
    bool host = gg_engine_tiles_take(b), device = gg_engine_tiles_device(b);
    if (asked && (split || (!host && !device)))
        return gg_fail(err, "--engine tiles steps tiles on a host backend "
                       "or on cuda and ptx, without --devices, "
                       "--device-mem or ranks; use --engine dense");
    if (split || (!host && !device) || gives_up_in_a_step(b, asked))
        return 0;
    /* a device's grid stays there: only tile lists and flags travel */
    *stepper = host ? gg_tiles_stepper(tiles, stepper, 0, 0)
                    : gg_tiles_device_stepper(tiles, b, 0, 0);
    return 0;
}

int gg_run_tiles_wrap_gen(const char *engine, gg_backend *b, bool split,
                          gg_tiles *tiles, gg_gen_stepper *stepper,
                          gg_err *err)
{
    bool asked = engine && !strcmp(engine, "tiles");
    if (!asked && (!engine || strcmp(engine, "auto")))
        return 0;
    bool host = gg_engine_tiles_take(b), device = gg_engine_tiles_device(b);
    if (asked && (split || (!host && !device)))
        return gg_fail(err, "--engine tiles steps a Generations grid's "
                       "tiles on a host backend or on cuda and ptx, without "
                       "--devices; use --engine dense");
    if (split || (!host && !device) || gives_up_in_a_step(b, asked))
        return 0;
    *stepper = host ? gg_tiles_gen_stepper(tiles, stepper, 0, 0)
                    : gg_tiles_gen_device_stepper(tiles, b, 0, 0);
    return 0;
}

void gg_run_tiles_done(gg_tiles *tiles, const char *backend, char *buf,
                       size_t size)
{
    const gg_tiles_stats *st = &tiles->stats;
    /* a grid too small for tiles (or a bounded plane) ran whole */
    if (!tiles->side || (!tiles->off && st->tile_steps + st->tile_slept +
                                                st->whole_gens == 0)) {
        snprintf(buf, size, "%s", backend);
        gg_tiles_free(tiles);
        return;
    }
    char what[120];
    gg_tiles_describe(tiles, what, sizeof what);
    snprintf(buf, size, "%s, %s", backend, what);
    gg_tiles_free(tiles);
}
