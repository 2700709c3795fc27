/* Which MPI rank this process is, for the lines only rank 0 prints, and
 * the commands main runs over ranks (cli/run_ranks.h runs the ranks;
 * this part needs nothing of the engine, so commands on the library and
 * main can ask too). */
#ifndef GG_CLI_RANK_H
#define GG_CLI_RANK_H

#include <stddef.h>

#include "commands.h"

int gg_cli_ranks(void); /* processes of this run (1 without MPI) */
int gg_cli_rank(void);  /* this one (0 without MPI) */

typedef int (*gg_cli_command)(int argc, char **argv, const gg_config *cfg);

/* A command under an MPI launcher: MPI around fn, and every rank's exit
 * status the worst of all. A build without MPI refuses to run as several
 * processes, since each would `alone` ("run the whole universe"). */
int gg_cli_ranked(const char *name, gg_cli_command fn, const char *alone,
                  int argc, char **argv, const gg_config *cfg);

/* main's `golgen run`: gg_cmd_run ranked. */
int gg_cmd_run_ranked(int argc, char **argv, const gg_config *cfg);

/* "Open MPI v4.1.4" or "none (...how to get it)" for golgen --version. */
void gg_cli_mpi_version(char *buf, size_t size);

#endif
