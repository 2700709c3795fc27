/* --devices LIST for run and bench: one band of the grid per listed
 * device ordinal, each on its own open backend, halos exchanged every T
 * generations (runtime/universes/multi_band.h). "0,1" spreads a grid over two GPUs;
 * "0,0" runs two bands on GPU 0 (the same path, testable on one GPU);
 * host backends take ordinal 0 only, so "0,0,0" runs three bands on the
 * host, one after the other. */
#ifndef GG_CLI_DEVICES_H
#define GG_CLI_DEVICES_H

#include "backend.h"
#include "multi_band.h"
#include "resident.h"

#define GG_CLI_MAX_DEVICES 64

typedef struct gg_cli_devices {
    int n; /* 0: --devices not given (one backend, device 0) */
    int ordinal[GG_CLI_MAX_DEVICES];
    gg_backend *b[GG_CLI_MAX_DEVICES];
    gg_multi_band m;
    bool resident;       /* the grid lived on the devices alone */
    double open_seconds; /* opening the backends (resident runs) */
    char open_detail[200]; /* the first backend's phases (describe) */
} gg_cli_devices;

/* "0,1" or "0,0": comma-separated ordinals 0..63, at most 64. */
int gg_cli_devices_parse(const char *text, gg_cli_devices *d, gg_err *err);

/* --device-mem BYTES (option c 'M') or --devices LIST ('D'), as run and
 * bench read them: 0, or -1 with err. */
int gg_cli_scale_option(int c, const char *arg, int64_t *device_mem,
                        gg_cli_devices *d, gg_err *err);
/* The two do not combine yet: -1 with err when both were given. */
int gg_cli_scale_check(int64_t device_mem, const gg_cli_devices *d,
                       gg_err *err);

/* One backend per listed device (one on device 0 when none were listed);
 * backend NULL is auto, resolved by the first. *status is the exit
 * status on failure. */
int gg_cli_devices_open(gg_cli_devices *d, const gg_backend_info *backend,
                        const gg_rule *rule, gg_backend_opts o, int *status,
                        gg_err *err);

/* The stepper over the bands (the first backend's own when one). */
gg_stepper gg_cli_devices_stepper(gg_cli_devices *d);

/* One stderr line on the bands' exchanges (nothing for one band, unless
 * the grid lived on the device alone). */
void gg_cli_devices_report(const gg_cli_devices *d);

/* A run of res on the devices alone (runtime/universes/resident.h): the
 * backends opened as gg_cli_devices_open does, res started on their
 * bands, gens generations run (progress may stop them early), and u made
 * the window of the live rows reached. 1 when these backends cannot
 * (closed again, d as it was, res untouched: run the host grid); 0 when
 * it ran (the backends stay open for the report: close them); -1 with
 * *status and err (closed). Without --devices only a device backend
 * takes it. */
int gg_cli_devices_resident(gg_cli_devices *d, const gg_backend_info *backend,
                            gg_backend_opts o, gg_resident *res, int64_t gens,
                            gg_progress_fn progress, void *progress_ctx,
                            gg_universe *u, int *status, gg_err *err);

void gg_cli_devices_close(gg_cli_devices *d);

#endif
