#include "cli_devices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"

int gg_cli_devices_parse(const char *text, gg_cli_devices *d, gg_err *err)
{
    const char *p = text;
    d->n = 0;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v >= GG_CLI_MAX_DEVICES ||
            (*end && *end != ','))
            return gg_fail(err, "--devices wants device ordinals 0..%d "
                           "separated by commas (e.g. 0,1, or 0,0 for two "
                           "bands on GPU 0), not '%s'",
                           GG_CLI_MAX_DEVICES - 1, text);
        if (d->n == GG_CLI_MAX_DEVICES)
            return gg_fail(err, "--devices lists more than %d bands",
                           GG_CLI_MAX_DEVICES);
        d->ordinal[d->n++] = (int)v;
        p = *end ? end + 1 : end;
    }
    if (!d->n)
        return gg_fail(err, "--devices wants at least one ordinal, e.g. 0,1");
    return 0;
}

int gg_cli_scale_option(int c, const char *arg, int64_t *device_mem,
                        gg_cli_devices *d, gg_err *err)
{
    return c == 'M' ? gg_cli_bytes("--device-mem", arg, device_mem, err)
                    : gg_cli_devices_parse(arg, d, err);
}

int gg_cli_scale_check(int64_t device_mem, const gg_cli_devices *d,
                       gg_err *err)
{
    if (d->n && device_mem)
        return gg_fail(err, "--devices and --device-mem do not combine yet: "
                       "bands on several devices, or one device streaming");
    return 0;
}

int gg_cli_devices_open(gg_cli_devices *d, const gg_backend_info *backend,
                        const gg_rule *rule, gg_backend_opts o, int *status,
                        gg_err *err)
{
    int n = d->n ? d->n : 1;
    for (int k = 0; k < n; k++) {
        o.device = d->n ? d->ordinal[k] : 0;
        if (gg_cli_open_backend(backend, rule, &o, &d->b[k], status, err)) {
            d->n = k; /* what close must close */
            return -1;
        }
        backend = gg_backend_of(d->b[0]); /* auto's choice, for the rest */
        if (o.device && !gg_backend_steps_in_threads(d->b[k])) {
            *status = GG_EXIT_USAGE;
            d->n = k + 1;
            return gg_fail(err, "--devices: the %s backend runs on the host, "
                           "device 0 only (--devices 0,0 runs two bands "
                           "there)", backend->name);
        }
        o.announce = false; /* the first open said what it does */
    }
    d->n = n;
    d->m = (gg_multi_band){.b = d->b, .n = n};
    return 0;
}

gg_stepper gg_cli_devices_stepper(gg_cli_devices *d)
{
    return d->n > 1 ? gg_multi_band_view(&d->m) : gg_backend_stepper(d->b[0]);
}

void gg_cli_devices_report(const gg_cli_devices *d)
{
    const gg_multi_band *m = &d->m;
    if (d->resident)
        fprintf(stderr, "golgen: the grid on the device%s alone: %.3f s "
                "opening the backends, %.3f s stepping, %.3f s placing the "
                "pattern and finding and bringing down the live rows\n",
                d->n > 1 ? "s" : "", d->open_seconds, m->step_seconds,
                m->transfer_seconds);
    if (d->n < 2)
        return;
    fprintf(stderr, "golgen: %d bands, %lld halo exchanges (%s): %.3f s "
            "stepping, %.3f s exchanging halos, %.3f s moving bands in and "
            "out\n", d->n, (long long)m->exchanges,
            m->peer ? "band to band" : "through the host",
            m->step_seconds, m->exchange_seconds, m->transfer_seconds);
}

int gg_cli_devices_resident(gg_cli_devices *d, const gg_backend_info *backend,
                            gg_backend_opts o, gg_resident *res, int64_t gens,
                            gg_progress_fn progress, void *progress_ctx,
                            gg_universe *u, int *status, gg_err *err)
{
    int given = d->n;
    /* a named device backend without the ops: no open to undo */
    if (backend && backend->rows && !backend->upload_empty)
        return 1;
    double t0 = gg_batch_clock();
    if (gg_cli_devices_open(d, backend, &res->rule, o, status, err)) {
        gg_cli_devices_close(d);
        return -1;
    }
    /* a host backend without --devices: its one band is the host grid */
    if (!gg_multi_band_can_start_empty(&d->m, res->rule.height) ||
        (!given && !gg_backend_steps_in_threads(d->b[0]))) {
        gg_cli_devices_close(d);
        d->n = given;
        return 1;
    }
    d->resident = true;
    d->open_seconds = gg_batch_clock() - t0;
    if (gg_resident_start(res, &d->m, err) ||
        gg_resident_run(res, gens, gg_backend_max_batch(d->b[0]), progress,
                        progress_ctx, err) ||
        gg_resident_finish(res, u, err)) {
        gg_cli_devices_close(d);
        *status = GG_EXIT_ENV;
        return -1;
    }
    return 0;
}

void gg_cli_devices_close(gg_cli_devices *d)
{
    gg_multi_band_release(&d->m);
    for (int k = 0; k < d->n; k++)
        gg_backend_close(d->b[k]);
    d->n = 0;
}
