/* golgen run and synth over MPI ranks. run (issue 17 part 3):
 *
 *   mpirun -np 4 golgen run --rule 'B3/S23:T65536,65536' --gens 10000 \
 *       --backend cpu -o out.rle soup.rle
 *
 * Rank 0 reads the input and scatters bands of rows; every rank runs its
 * band on its own backend (runtime/universes/rank_stepper.h: halos
 * exchanged through MPI every T generations); the result is gathered on
 * rank 0, which writes -o, --store and --png and alone prints progress
 * and the summary. golgen_run_2d (include/golgen/run.h) does the run; the
 * hooks it calls where ranks differ from one process come from the
 * library (include/golgen/mpi_ranks.h), each collective and agreeing on
 * failure, so every rank stops together with one message. This file owns
 * MPI's start and end around a command. */
#include "cli_rank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_config.h"
#include "full_exec.h"
#include "run_control.h"

#if GG_CLI_MPI
#include <mpi.h>

#include "golgen/mpi_ranks.h"

/* exit() from deep inside a command (--help) must not leave MPI hanging:
 * mpirun calls a rank that ends without MPI_Finalize a failure. */
static void finalize_at_exit(void)
{
    int done = 1;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}
#endif

/* One run per process: the CLI may keep its MPI state here. Each
 * function below is its one-process self at the bottom, after the branch
 * for several ranks (which a build without MPI never takes). The ranks
 * are the library's to say (one, the lead, without its hooks). */
#if GG_CLI_MPI
static golgen_mpi *mpi; /* the library's hooks over MPI_COMM_WORLD */

int gg_cli_ranks(void) { return golgen_mpi_size(mpi); }
int gg_cli_rank(void) { return golgen_mpi_rank(mpi); }
#else
int gg_cli_ranks(void) { return 1; }
int gg_cli_rank(void) { return 0; }
#endif

int gg_cli_ranked(const char *name, gg_cli_command fn, const char *alone,
                  int argc, char **argv, const gg_config *cfg)
{
#if GG_CLI_MPI
    if (gg_cli_launcher_ranks(cfg) > 0) {
        int provided; /* worker threads never call MPI */
        if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) !=
            MPI_SUCCESS) {
            fprintf(stderr, "golgen %s: MPI_Init failed under the MPI "
                    "launcher (see MPI's message); run without mpirun for "
                    "one process\n", name);
            return GG_EXIT_ENV;
        }
        atexit(finalize_at_exit);
        mpi = golgen_mpi_open(gg_run_stop_status);
        if (!mpi) {
            fprintf(stderr, "golgen %s: out of memory starting the MPI "
                    "ranks\n", name);
            MPI_Abort(MPI_COMM_WORLD, GG_EXIT_ENV);
        }
        int rc = fn(argc, argv, cfg), worst = rc;
        MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        golgen_mpi_close(mpi);
        mpi = NULL;
        MPI_Finalize();
        return worst;
    }
#else
    if (gg_cli_launcher_ranks(cfg) > 1) {
        fprintf(stderr, "golgen %s: started as %d MPI processes, but this "
                "golgen was built without MPI, so each would %s; install "
                "Open MPI (libopenmpi-dev) and rebuild (meson setup "
                "-Dmpi=enabled), or run one process\n", name,
                gg_cli_launcher_ranks(cfg), alone);
        return GG_EXIT_ENV;
    }
#endif
    (void)name;
    (void)alone;
    return fn(argc, argv, cfg);
}

int gg_cmd_run_ranked(int argc, char **argv, const gg_config *cfg)
{
    return gg_cli_ranked("run", gg_cmd_run, "run the whole universe", argc,
                         argv, cfg);
}

/* mpirun golgen synth (issue 18 part 2): rank 0 does what one process
 * does (cache, starting networks, storing, printing); the proof runs on
 * every rank, each claiming every k's network shapes from rank 0 as its
 * threads get free (sat/exact/team.h). */
int gg_cmd_synth_ranked(int argc, char **argv, const gg_config *cfg)
{
    return gg_cli_ranked("synth", gg_cmd_synth, "search the whole proof",
                         argc, argv, cfg);
}

void gg_cli_mpi_version(char *buf, size_t size)
{
#if GG_CLI_MPI
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(text, &len); /* allowed before MPI_Init */
    text[strcspn(text, ",\n")] = '\0';   /* "Open MPI v4.1.4, package..." */
    snprintf(buf, size, "%s (mpirun golgen run: bands over ranks; "
             "mpirun golgen synth: shapes over ranks)", text);
#elif GG_CLI_LEAN_MPI
    snprintf(buf, size, "in golgen-full (mpirun golgen run and synth hand "
             "themselves over to it: bands and shapes over ranks)");
#else
    snprintf(buf, size, "none (install libopenmpi-dev and rebuild for "
             "mpirun golgen run and synth)");
#endif
}

int gg_cli_ranks_refuse(const char *what, char *msg, size_t len)
{
    if (gg_cli_ranks() == 1)
        return 0;
    if (gg_cli_rank() > 0) { /* every rank refuses; rank 0 says it */
        if (len)
            msg[0] = '\0';
        return -1;
    }
    snprintf(msg, len, "%s run in one process only, not over %d MPI ranks: "
             "drop mpirun (or give -np 1)", what, gg_cli_ranks());
    return -1;
}

const golgen_run_ranks *gg_cli_run_ranks(void)
{
#if GG_CLI_MPI
    return golgen_mpi_run_ranks(mpi);
#else
    return NULL;
#endif
}

const golgen_synth_team *gg_cli_synth_team(void)
{
#if GG_CLI_MPI
    return golgen_mpi_synth_team(mpi);
#else
    return NULL;
#endif
}
