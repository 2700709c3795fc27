/* golgen over MPI ranks: the hooks that let golgen_run_2d (its opts'
 * `ranks`) run one bounded universe as bands of rows over the processes
 * of MPI_COMM_WORLD, and golgen_synth (its opts' `team`) search one
 * network with them. Compiled only where the build has Open MPI, into the
 * programs that link MPI (golgen-full, lib/mpi_ranks.c): libgolgen itself
 * never needs MPI, and these functions are not in its shared library.
 *
 * The caller owns MPI: it calls MPI_Init_thread (MPI_THREAD_FUNNELED is
 * enough: worker threads never call MPI) before golgen_mpi_open and
 * MPI_Finalize after golgen_mpi_close. */
#ifndef GOLGEN_MPI_RANKS_H
#define GOLGEN_MPI_RANKS_H

#include "../golgen.h"
#include "run.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct golgen_mpi golgen_mpi;

/* The ranks of MPI_COMM_WORLD. stop_status (may be NULL: never) says
 * whether this process was asked to stop (a signal's exit status, 128 +
 * its number; 0 none): a ranked run asks it once a batch on every rank,
 * and a stop on any rank is raised on all, so all stop after the same
 * batch. NULL when out of memory. */
golgen_mpi *golgen_mpi_open(int (*stop_status)(void));

int golgen_mpi_size(const golgen_mpi *m); /* processes in the run */
int golgen_mpi_rank(const golgen_mpi *m); /* this one, 0 the lead */

/* golgen_run_2d's hooks over these ranks (bands scattered from rank 0,
 * halos every batch, gathered back to rank 0, which writes). Every rank
 * calls golgen_run_2d with them; NULL when there is one process. */
const golgen_run_ranks *golgen_mpi_run_ranks(golgen_mpi *m);

/* golgen_synth's search team over these ranks (rank 0 the lead, which
 * stores and returns the result); NULL when there is one process. */
const golgen_synth_team *golgen_mpi_synth_team(golgen_mpi *m);

void golgen_mpi_close(golgen_mpi *m);

#ifdef __cplusplus
}
#endif

#endif
