/* Which MPI rank this process is, for the lines only rank 0 prints
 * (cli/run_ranks.h runs the ranks; this part needs nothing of the
 * engine, so commands on the library can ask too). */
#ifndef GG_CLI_RANK_H
#define GG_CLI_RANK_H

int gg_cli_ranks(void); /* processes of this run (1 without MPI) */
int gg_cli_rank(void);  /* this one (0 without MPI) */

#endif
