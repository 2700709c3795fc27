/* Bands over MPI ranks (issue 17 part 3): band_stepper.h's decomposition
 * with each band on its own process. A rank holds only its own rows; per
 * pass of T generations it takes T rows from each neighbour rank (MPI
 * halo exchange), advances its band with those halos on the inner stepper
 * (any backend, or a band stepper for --device-mem) and keeps the clean
 * interior, as band_stepper does. Bit-identical to one process: on the
 * torus the first and last ranks are neighbours; on the bounded plane they
 * have no halo past the plane's edge, where the inner stepper keeps cells
 * dead. The unbounded plane is not cut (its grid regrows).
 *
 * The stepper is collective: every rank must call step with the same
 * generations (it checks, and fails on every rank rather than hang). Its
 * min_batch is its max_batch (at most 64), so gg_universe_run's batches
 * (runtime/universes/batch.h) never follow the clock, which differs from
 * rank to rank, and stay the same without being compared. */
#ifndef GG_RANK_STEPPER_H
#define GG_RANK_STEPPER_H

#include <mpi.h>
#include <stdint.h>

#include "universe.h"

typedef struct gg_rank_stepper {
    const gg_stepper *inner;
    MPI_Comm comm;
    int rank, size;
    int64_t max_batch; /* generations per call, the same on every rank */
    int64_t t;         /* most generations per halo exchange (all ranks) */
    int64_t passes;    /* halo exchanges so far (reports, tests) */
    char name[64];     /* "cpu on 3 MPI ranks" */
    gg_grid ext;       /* the band with its halos, kept between calls */
} gg_rank_stepper;

/* Collective: the ranks of comm agree on T (at most an eighth of the
 * fewest rows a rank owns, within every inner max_batch); `rows` is this
 * rank's row count. */
int gg_rank_stepper_init(gg_rank_stepper *r, const gg_stepper *inner,
                         MPI_Comm comm, int64_t rows, gg_err *err);

/* The stepper over r's band of the grid (r must outlive it). */
gg_stepper gg_rank_stepper_view(gg_rank_stepper *r);

void gg_rank_stepper_free(gg_rank_stepper *r);

#endif
