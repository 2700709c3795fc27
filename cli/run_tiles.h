/* --engine tiles, and auto's choice of it: the dense engine's stepper
 * wrapped in active tiles (runtime/engines/tiles.h) where a host backend
 * steps the whole grid. */
#ifndef GG_CLI_RUN_TILES_H
#define GG_CLI_RUN_TILES_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"
#include "tiles.h"

/* Wraps *stepper in `tiles` for engine "tiles", and for "auto" where the
 * backend steps the host's grid or tiles its device's (tiles_step) and no
 * option splits the grid (split: --devices, --device-mem, ranks). Fails
 * only for "tiles" where it cannot be had. */
int gg_cli_tiles_wrap(const char *engine, gg_backend *b, bool split,
                      gg_tiles *tiles, gg_stepper *stepper, gg_err *err);

/* The same for a Generations run's stepper (tiles on the host or the
 * device, as for two-state grids). */
int gg_cli_tiles_wrap_gen(const char *engine, gg_backend *b, bool split,
                          gg_tiles *tiles, gg_gen_stepper *stepper,
                          gg_err *err);

/* The closing line's engine ("cpu" or "cpu, tiles 256: ..."); frees tiles. */
void gg_cli_tiles_done(gg_tiles *tiles, const char *backend, char *buf,
                       size_t size);

#endif
