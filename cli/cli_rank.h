/* Which MPI rank this process is, for the lines only rank 0 prints, the
 * commands main runs over ranks, and what golgen_run_2d needs of the ranks
 * (cli/run_ranks.c, over the library's MPI hooks; this header needs nothing of the engine,
 * so commands on the library and main can ask too). */
#ifndef GG_CLI_RANK_H
#define GG_CLI_RANK_H

#include <stddef.h>

#include "golgen.h"

#include "commands.h"

int gg_cli_ranks(void); /* processes of this run (1 without MPI) */
int gg_cli_rank(void);  /* this one (0 without MPI) */

typedef int (*gg_cli_command)(int argc, char **argv, const gg_config *cfg);

/* A command under an MPI launcher: MPI around fn, and every rank's exit
 * status the worst of all. A build without MPI refuses to run as several
 * processes, since each would `alone` ("run the whole universe"). */
int gg_cli_ranked(const char *name, gg_cli_command fn, const char *alone,
                  int argc, char **argv, const gg_config *cfg);

/* main's `golgen run` and `golgen synth`: gg_cmd_run and gg_cmd_synth
 * ranked. */
int gg_cmd_run_ranked(int argc, char **argv, const gg_config *cfg);
int gg_cmd_synth_ranked(int argc, char **argv, const gg_config *cfg);

/* -1 with a sentence in msg (empty on ranks other than 0: rank 0 says
 * it) when running as several ranks: `what` runs in one process only. */
int gg_cli_ranks_refuse(const char *what, char *msg, size_t len);

/* This run's ranks as golgen_run_2d's (include/golgen/mpi_ranks.h), or NULL
 * in one process. */
const golgen_run_ranks *gg_cli_run_ranks(void);

/* This run's ranks as golgen_synth's search team, or NULL in one
 * process. */
const golgen_synth_team *gg_cli_synth_team(void);

/* "Open MPI v4.1.4" or "none (...how to get it)" for golgen --version. */
void gg_cli_mpi_version(char *buf, size_t size);

#endif
