/* A Generations universe's grid cut into bands of rows, one open backend
 * per band (--devices for Generations rules): each round, every band is
 * taken with a halo of T rows above and below (wrapping on the torus,
 * stopping at a bounded plane's edges), advanced T generations by its
 * backend's state planes (gg_backend_advance_cells), and its interior
 * written back. A cell's state depends only on its own and its
 * neighbours' states a generation before, so nothing travels faster than
 * a row per generation and a band's interior is exact after T: the
 * argument of runtime/universes/band_stepper.h, for state planes.
 * Bit-identical to stepping the whole grid.
 *
 * The bands go through the host every round and run one after the other
 * (host backends step in place; a device backend's band is moved in and
 * out), unlike runtime/universes/multi_band.h's resident two-state bands:
 * this is the family's way onto --devices, not yet its fast one. */
#ifndef GG_GEN_BANDS_H
#define GG_GEN_BANDS_H

#include <stdint.h>

#include "backend.h"
#include "gen_universe.h"

typedef struct gg_gen_bands {
    gg_backend *const *b; /* one open backend per band, same rule */
    int n;
    int64_t rounds; /* what ran (reports): rounds of T generations */
    int bands_used; /* bands of the last call (a short grid uses fewer) */
} gg_gen_bands;

/* The stepper over m's bands; m must outlive it. */
gg_gen_stepper gg_gen_bands_view(gg_gen_bands *m);

#endif
