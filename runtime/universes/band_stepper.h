/* Universes larger than a backend's memory (seed 002, section 8): a
 * stepper over another that cuts the grid into bands of rows, each taken
 * with a halo of T rows above and below, advanced T generations by the
 * inner stepper, and its clean interior written back. Wrong values creep
 * into a band from its cut edges one row per generation, so after T
 * generations only the halo is wrong. Bit-identical to stepping the whole
 * grid, on the torus (bands wrap) and on the plane (bands stop at the
 * plane's edges, where the inner stepper keeps cells outside dead).
 *
 * The same wrapper runs several bands of one GPU today and is the shape
 * of bands over several devices or MPI ranks (issue 17). */
#ifndef GG_BAND_STEPPER_H
#define GG_BAND_STEPPER_H

#include <stdint.h>

#include "universe.h"

typedef struct gg_band_plan {
    int64_t max_cells; /* most cells of a band with its halo */
    int64_t t;         /* generations per pass (the halo's rows) */
    int64_t rows;      /* interior rows per band */
} gg_band_plan;

/* The plan for a width x height grid and `gens` generations within
 * max_cells: 0 with *p, or -1 (err says why: not even 3 rows fit).
 * T keeps the halo at most an eighth of a band (2T <= rows / 8) and
 * within `gens`; rows fill what is left of max_cells. */
int gg_band_plan_for(int64_t width, int64_t height, int64_t gens,
                     int64_t max_cells, gg_band_plan *p, gg_err *err);

/* Generations per call below which a backend's own streaming moves the
 * grid more often than it pays (runtime/gpu/cuda_stream.c's cost model puts
 * the balance near 560 on an H100); universe runs batch at least so. */
#define GG_STREAM_MIN_BATCH 512

/* What a backend's own streaming (gg_backend_info.stream) reports. */
typedef struct gg_stream_stats {
    int64_t bands, passes; /* bands advanced, passes over the grid */
    int64_t t, rows;       /* generations per pass, interior rows a band */
    double setup_seconds;  /* planning, module, slots and staging (pinned
                              allocation: once per backend and size) */
    double copy_seconds;   /* host time copying rows to and from staging */
    double wait_seconds;   /* host time waiting for the device (the rest
                              of the run's time is the device's) */
} gg_stream_stats;

typedef struct gg_band_stepper {
    const gg_stepper *inner;
    int64_t max_cells;
    int64_t bands_run; /* bands advanced so far (reports, tests) */
} gg_band_stepper;

/* A stepper that streams grids of more than max_cells cells through
 * `inner` in bands (smaller grids go to inner whole). b must outlive it. */
gg_stepper gg_band_stepper_view(gg_band_stepper *b);

#endif
