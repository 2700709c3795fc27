/* golgen synth over MPI ranks (issue 18 part 2):
 *
 *   mpirun -np 16 golgen synth --rule B136/S1256 --threads 1
 *
 * Rank 0 does what one process does (cache, starting networks, storing
 * and printing); the proof itself runs on every rank, each claiming every
 * k's network shapes from rank 0 as its threads get free (sat/exact/team.h,
 * runtime/universes/team_mpi.h). Every rank calls golgen_synth with the
 * same arguments and this team (runtime/universes/synth_team.h says what
 * the library asks of it). In one process (a build without MPI, no
 * launcher, or -np 1) there is no team. */
#ifndef GG_SYNTH_RANKS_H
#define GG_SYNTH_RANKS_H

#include "commands.h"
#include "golgen.h"

/* main's `golgen synth`: gg_cmd_synth ranked (cli/run_ranks.h). */
int gg_cmd_synth_ranked(int argc, char **argv, const gg_config *cfg);

/* 1 on rank 0 (or in one process): this rank speaks. */
int gg_synth_ranks_lead(void);

/* This run's ranks as golgen_synth's team, or NULL in one process. */
const golgen_synth_team *gg_synth_ranks_team(void);

#endif
