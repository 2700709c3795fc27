/* golgen synth over MPI ranks (issue 18 part 2):
 *
 *   mpirun -np 16 golgen synth --rule B136/S1256 --threads 1
 *
 * Rank 0 does what one process does (cache, starting networks, storing
 * and printing); the proof itself runs on every rank, each claiming every
 * k's network shapes from rank 0 as its threads get free (sat/exact/team.h,
 * runtime/universes/team_mpi.h).
 * What rank 0 decided before the search reaches the others through
 * gg_synth_ranks_share, called once by every rank. In one process (a
 * build without MPI, no launcher, or -np 1) these do nothing. */
#ifndef GG_SYNTH_RANKS_H
#define GG_SYNTH_RANKS_H

#include <stdbool.h>

#include "config.h"
#include "net.h"
#include "proof.h"
#include "team.h"

typedef struct gg_synth_share {
    int go;            /* 0: no search (a cached answer, or a failure) */
    double time_limit; /* the search's, after the steps before it */
    int known_lower;
    int has_upper, has_proof;
    gg_net upper;      /* the best network to beat */
    gg_proof proof;    /* the cache's record to resume from */
} gg_synth_share;

/* main's `golgen synth`: gg_cmd_synth ranked (cli/run_ranks.h). */
int gg_cmd_synth_ranked(int argc, char **argv, const gg_config *cfg);

/* Collective: rank 0's *s reaches every rank. 0, or -1 (on every rank)
 * when the team cannot start; every rank calls it exactly once. */
int gg_synth_ranks_share(gg_synth_share *s, gg_err *err);

/* This run's ranks as a search team, or NULL in one process; valid after
 * gg_synth_ranks_share. */
const gg_team *gg_synth_ranks_team(void);
void gg_synth_ranks_free(void);

#endif
