/* golgen run over MPI ranks (issue 17 part 3):
 *
 *   mpirun -np 4 golgen run --rule 'B3/S23:T65536,65536' --gens 10000 \
 *       --backend cpu -o out.rle soup.rle
 *
 * Rank 0 reads the input and scatters bands of rows; every rank runs its
 * band on its own backend (runtime/universes/rank_stepper.h: halos
 * exchanged through MPI every T generations); the result is gathered on
 * rank 0, which writes -o, --store and --png and alone prints progress
 * and the summary. golgen_run_2d (include/golgen/run.h) does the run; the
 * hooks it calls where ranks differ from one process are here
 * (runtime/universes/rank_run.h), each collective and agreeing on
 * failure, so every rank stops together with one message. */
#include "cli_rank.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_config.h"
#include "full_exec.h"
#include "gg_config.h"
#include "run_control.h"

#if GG_CLI_MPI
#include <mpi.h>

#include "rank_run.h"
#include "rank_stepper.h"
#include "rank_universe.h"
#include "ranks.h"

static gg_rank_stepper ranked;

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
 * for several ranks (which a build without MPI never takes). */
static int n_ranks = 1, my_rank = 0;

int gg_cli_ranks(void) { return n_ranks; }
int gg_cli_rank(void) { return my_rank; }

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
        MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
        MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);
        int rc = fn(argc, argv, cfg), worst = rc;
        MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
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
    if (n_ranks == 1)
        return 0;
    if (my_rank > 0) { /* every rank refuses; rank 0 says it */
        if (len)
            msg[0] = '\0';
        return -1;
    }
    snprintf(msg, len, "%s run in one process only, not over %d MPI ranks: "
             "drop mpirun (or give -np 1)", what, n_ranks);
    return -1;
}

#if GG_CLI_MPI
/* The hooks of runtime/universes/rank_run.h over MPI_COMM_WORLD. */

static int hook_agree(void *ctx, int bad, gg_err *err)
{
    (void)ctx;
    return gg_ranks_agree(MPI_COMM_WORLD, bad, err);
}

static int hook_worst(void *ctx, int status)
{
    int w = status;
    (void)ctx;
    MPI_Allreduce(&status, &w, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return w;
}

static int hook_scatter(void *ctx, gg_universe *u, gg_err *err)
{
    (void)ctx;
    return gg_rank_scatter(u, MPI_COMM_WORLD, err);
}

static int hook_gather(void *ctx, const gg_universe *u, gg_universe *whole,
                  gg_err *err)
{
    (void)ctx;
    return gg_rank_gather(u, whole, MPI_COMM_WORLD, err);
}

static int hook_stepper(void *ctx, const gg_stepper *local, int64_t rows,
                   gg_stepper *out, gg_err *err)
{
    (void)ctx;
    if (gg_rank_stepper_init(&ranked, local, MPI_COMM_WORLD, rows, err))
        return -1;
    *out = gg_rank_stepper_view(&ranked);
    return 0;
}

static void hook_stepper_free(void *ctx)
{
    (void)ctx;
    gg_rank_stepper_free(&ranked);
}

/* A stop signal on any rank (then raised on all): the one stop check of
 * a ranked run, as ranks must stop after the same batch. */
static bool hook_stopped(void *ctx)
{
    (void)ctx;
    int mine = gg_run_stop_status(), all = mine;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (all && !mine) /* a rank the launcher had not signalled yet */
        raise(all - 128);
    return all != 0;
}

static golgen_run_ranks hooks = {
    .agree = hook_agree, .worst = hook_worst, .scatter = hook_scatter,
    .gather = hook_gather, .stepper = hook_stepper,
    .stepper_free = hook_stepper_free, .stopped = hook_stopped};
#endif

const golgen_run_ranks *gg_cli_run_ranks(void)
{
#if GG_CLI_MPI
    if (n_ranks > 1) {
        hooks.n = n_ranks;
        hooks.rank = my_rank;
        return &hooks;
    }
#endif
    return NULL;
}
