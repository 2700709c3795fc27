/* A grid cut into bands of rows held resident at once, one open backend
 * per band: one per GPU of a host, or several on one GPU (issue 17, part
 * 4). Each band carries a halo of T rows above and below; the bands
 * advance T generations (device bands at once, on threads of their own),
 * then each halo is refreshed from its neighbours' interiors through the
 * host, so a band's interior stays exact (the argument of
 * runtime/band_stepper.h, without moving whole bands between the calls).
 * Bit-identical to stepping the whole grid, on the torus (bands wrap) and
 * on the bounded plane (the first and last bands stop at its edges).
 *
 * A grid too short for 3 rows a band uses fewer bands (the first
 * backends). Every band's backend must be open for the same rule; host backends
 * (which step the grid in place) run the same path one band after the
 * other, which is how CI tests it without a GPU. */
#ifndef GG_MULTI_BAND_H
#define GG_MULTI_BAND_H

#include <stdint.h>

#include "backend.h"
#include "universe.h"

typedef struct gg_multi_band {
    gg_backend *const *b; /* one open backend per band */
    int n;
    int64_t t_max; /* most generations between exchanges; 0: the default */
    /* what ran (reports): exchanges of halos, and the seconds spent in
     * steps, in exchanges, and moving bands in and out */
    int64_t exchanges;
    double step_seconds, exchange_seconds, transfer_seconds;
} gg_multi_band;

/* The stepper over m's bands; m must outlive it. */
gg_stepper gg_multi_band_view(gg_multi_band *m);

#endif
