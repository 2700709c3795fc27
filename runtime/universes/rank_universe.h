/* A bounded universe cut into bands of rows over MPI ranks (issue 17
 * part 3), for the rank stepper (rank_stepper.h): rank 0 reads the input
 * and scatters, and gathers the result back to write it. Rank r owns rows
 * gg_ranks_first_row(H, N, r) .. gg_ranks_first_row(H, N, r + 1) - 1.
 * Both functions are collective and fail on every rank together
 * (ranks.h). */
#ifndef GG_RANK_UNIVERSE_H
#define GG_RANK_UNIVERSE_H

#include <mpi.h>

#include "universe.h"

/* Rank 0's *u (the whole universe) becomes every rank's band: on return
 * each rank's u has the rule, the generation, its own rows as its grid
 * and y0 moved to its first row. Fails (every rank, u empty) for an
 * unbounded plane or fewer than 3 rows a rank; u is read on rank 0 only. */
int gg_rank_scatter(gg_universe *u, MPI_Comm comm, gg_err *err);

/* The bands back on rank 0: there *whole is the universe they make (free
 * it with gg_universe_free); elsewhere it is left empty. band is kept. */
int gg_rank_gather(const gg_universe *band, gg_universe *whole,
                   MPI_Comm comm, gg_err *err);

#endif
