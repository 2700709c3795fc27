#include "run_ranks.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_auto.h"
#include "cli_util.h"
#include "commands.h"
#include "fail.h"
#include "full_exec.h"
#include "gg_config.h"
#include "run_control.h"
#include "store.h"

#if GG_CLI_MPI
#include <mpi.h>

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
    if (cfg->launcher_ranks > 0) {
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
    if (cfg->launcher_ranks > 1) {
        fprintf(stderr, "golgen %s: started as %d MPI processes, but this "
                "golgen was built without MPI, so each would %s; install "
                "Open MPI (libopenmpi-dev) and rebuild (meson setup "
                "-Dmpi=enabled), or run one process\n", name,
                cfg->launcher_ranks, alone);
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

int gg_cli_ranks_refuse(const char *what, gg_err *err)
{
    if (n_ranks == 1)
        return 0;
    if (my_rank > 0) { /* every rank refuses; rank 0 says it */
        err->msg[0] = '\0';
        return -1;
    }
    return gg_fail(err, "%s run in one process only, not over %d MPI ranks: "
                   "drop mpirun (or give -np 1)", what, n_ranks);
}

int gg_cli_ranks_scatter(int bad, gg_universe *u, gg_err *err)
{
#if GG_CLI_MPI
    if (n_ranks > 1) {
        if (gg_ranks_agree(MPI_COMM_WORLD, bad, err)) {
            if (!bad && my_rank == 0)
                gg_universe_free(u);
            return -1;
        }
        if (my_rank > 0)
            memset(u, 0, sizeof *u);
        return gg_rank_scatter(u, MPI_COMM_WORLD, err);
    }
#endif
    (void)u;
    (void)err;
    return bad;
}

int gg_cli_ranks_open_backend(const gg_backend_info *backend,
                              const gg_rule *rule, const gg_backend_opts *o,
                              gg_backend **out, int *status, gg_err *err)
{
#if GG_CLI_MPI
    if (n_ranks > 1) {
        int bad;
        if (my_rank == 0 || backend) {
            bad = gg_cli_open_backend(backend, rule, o, out, status, err);
        } else { /* auto's choice, said once by rank 0 */
            gg_auto_line line;
            gg_fail_kind why;
            bad = gg_backend_open_auto(rule, o, out, &line, &why, err);
            *status = bad ? gg_fail_exit_status(why) : GG_EXIT_OK;
        }
        int worst = *status;
        MPI_Allreduce(status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (gg_ranks_agree(MPI_COMM_WORLD, bad, err)) {
            if (!bad)
                gg_backend_close(*out);
            *out = NULL;
            *status = worst;
            return -1;
        }
        return 0;
    }
#endif
    return gg_cli_open_backend(backend, rule, o, out, status, err);
}

int gg_cli_ranks_stepper(const gg_stepper *local, int64_t rows,
                         gg_stepper *out, gg_err *err)
{
#if GG_CLI_MPI
    if (n_ranks > 1) {
        if (gg_rank_stepper_init(&ranked, local, MPI_COMM_WORLD, rows, err))
            return -1;
        *out = gg_rank_stepper_view(&ranked);
        return 0;
    }
#endif
    (void)rows;
    (void)err;
    *out = *local;
    return 0;
}

void gg_cli_ranks_stepper_free(void)
{
#if GG_CLI_MPI
    gg_rank_stepper_free(&ranked);
#endif
}

bool gg_cli_ranks_stopped(void)
{
#if GG_CLI_MPI
    if (n_ranks > 1) {
        int mine = gg_run_stop_status(), worst = mine;
        MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (worst && !mine) /* a rank the launcher had not signalled yet */
            raise(worst - 128);
        return worst != 0;
    }
#endif
    return gg_run_stopped();
}

bool gg_cli_ranks_progress(void *ctx, int64_t done, int64_t total)
{
    gg_run_progress_cb(ctx, done, total);
    return !gg_cli_ranks_stopped();
}

int gg_cli_ranks_store_write(const char *path, const gg_universe *u,
                             gg_err *err)
{
#if GG_CLI_MPI
    if (n_ranks > 1) {
        gg_universe whole;
        if (gg_rank_gather(u, &whole, MPI_COMM_WORLD, err))
            return -1;
        int bad = my_rank == 0 && gg_store_write(path, &whole, err);
        gg_universe_free(&whole);
        return gg_ranks_agree(MPI_COMM_WORLD, bad, err);
    }
#endif
    return gg_store_write(path, u, err);
}

int gg_cli_ranks_gather(gg_universe *u, gg_err *err)
{
#if GG_CLI_MPI
    if (n_ranks > 1) {
        gg_universe whole;
        if (gg_rank_gather(u, &whole, MPI_COMM_WORLD, err))
            return -1;
        if (my_rank == 0) {
            gg_universe_free(u);
            *u = whole;
        }
        return 0;
    }
#endif
    (void)u;
    (void)err;
    return 0;
}
