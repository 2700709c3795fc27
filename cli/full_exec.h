/* The lean golgen and golgen-full (meson.build): `golgen` links neither
 * libwebsockets nor MPI, whose loading was half of a small run's process
 * start (BENCHMARKS.md, "Process start"); `golgen serve` and runs under
 * an MPI launcher hand themselves over to golgen-full, the same command
 * with both, found beside this executable or where it is installed. */
#ifndef GG_FULL_EXEC_H
#define GG_FULL_EXEC_H

#include "gg_config.h"

/* MPI in this executable: golgen-full's where the build found MPI, never
 * the lean golgen's (which hands MPI runs over). */
#ifndef GG_CLI_MPI
#define GG_CLI_MPI GG_HAVE_MPI
#endif

/* Whether this executable is the lean one and must hand `argv` (the
 * whole command line) over to golgen-full: the serve command, or a run
 * started by an MPI launcher (launcher_ranks: the processes it started,
 * gg_config's; 0 when none did or the environment is not read yet). */
int gg_cli_wants_full(int argc, char **argv, int launcher_ranks);

/* Replace this process by golgen-full with the same arguments; returns
 * only when that failed, having said why and what to do (exit 3). */
int gg_cli_exec_full(char **argv, const char *why);

#endif
