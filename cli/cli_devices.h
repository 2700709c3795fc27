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

#define GG_CLI_MAX_DEVICES 64

typedef struct gg_cli_devices {
    int n; /* 0: --devices not given (one backend, device 0) */
    int ordinal[GG_CLI_MAX_DEVICES];
    gg_backend *b[GG_CLI_MAX_DEVICES];
    gg_multi_band m;
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

/* One stderr line on the bands' exchanges (nothing for one band). */
void gg_cli_devices_report(const gg_cli_devices *d);

void gg_cli_devices_close(gg_cli_devices *d);

#endif
