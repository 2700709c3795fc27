/* golgen run and rule for Generations rules (S/B/C, gen/rules/rule_gen.h),
 * which run on any backend of the table that takes state planes
 * (runtime/backends/backend.h: upload_cells; gg_backend_generations_names). */
#ifndef GG_RUN_GEN_H
#define GG_RUN_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "cli_devices.h"
#include "cli_pictures.h"
#include "gen_universe.h"
#include "rule.h"

/* What a Generations run is asked to do: backend is the one the user
 * named (NULL: auto), bo its options; out gets the RLE ("-": stdout; NULL:
 * nothing), store the universe store (runtime/formats/store.h) at the end and
 * every `every` generations (0: only at the end); progress on stderr when
 * asked; pics: --png and --frames (cli/cli_pictures.h); devices: one band
 * of rows per listed device (runtime/universes/gen_bands.h). */
typedef struct gg_gen_run {
    const gg_backend_info *backend;
    const gg_backend_opts *bo;
    int64_t gens, every;
    bool progress;
    const char *out, *store;
    const gg_cli_pictures *pics;
    gg_cli_devices *devices; /* --devices (NULL or none listed: one) */
    const char *engine;      /* --engine: dense, tiles or auto (tiles on a
                                host backend) */
} gg_gen_run;

/* Run universe u (placed from a pattern or read from a store; freed here)
 * for o->gens generations. SIGINT, SIGTERM and SIGHUP stop it after the
 * batch in flight, with what was reached written (cli/run_control.h).
 * Returns the exit status. */
int gg_run_generations(gg_gen_universe *u, const gg_gen_run *o);

#endif
