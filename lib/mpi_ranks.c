/* golgen over MPI ranks (include/golgen/mpi_ranks.h): golgen_run_2d's hooks
 * (runtime/universes/rank_run.h) and golgen_synth's search team
 * (runtime/universes/synth_team.h) over MPI_COMM_WORLD. Every hook marked
 * collective there is one MPI collective here, so every rank calls them at
 * the same point and agrees on failure. */
#include "golgen/mpi_ranks.h"

#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include <mpi.h>

#include "rank_run.h"
#include "rank_stepper.h"
#include "rank_universe.h"
#include "ranks.h"
#include "synth_team.h"
#include "team_mpi.h"

struct golgen_mpi {
    int n, rank;
    int (*stop_status)(void);
    golgen_run_ranks run;
    gg_rank_stepper ranked;   /* the band's stepper with MPI halos */
    golgen_synth_team synth;
    gg_team_mpi team;
    bool team_up;
};

/* ---- golgen_run_2d's hooks ---- */

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
    golgen_mpi *m = ctx;
    if (gg_rank_stepper_init(&m->ranked, local, MPI_COMM_WORLD, rows, err))
        return -1;
    *out = gg_rank_stepper_view(&m->ranked);
    return 0;
}

static void hook_stepper_free(void *ctx)
{
    golgen_mpi *m = ctx;
    gg_rank_stepper_free(&m->ranked);
}

/* A stop on any rank (then raised on all): the one stop check of a
 * ranked run, as ranks must stop after the same batch. */
static bool hook_stopped(void *ctx)
{
    golgen_mpi *m = ctx;
    int mine = m->stop_status ? m->stop_status() : 0, all = mine;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (all && !mine) /* a rank the launcher had not signalled yet */
        raise(all - 128);
    return all != 0;
}

/* ---- golgen_synth's team ---- */

/* Collective: rank 0's *s reaches every rank, then the ranks become a
 * search team when it says go. */
static int team_share(void *ctx, gg_synth_share *s, gg_err *err)
{
    golgen_mpi *m = ctx;
    /* Rank 0 may first spend half a minute on the starting networks
     * (with a time budget): the others wait asleep, since Open MPI
     * busy-polls in a blocking MPI_Bcast and, with a rank per core,
     * would compete with rank 0's threads */
    MPI_Request req;
    int done = 0;
    MPI_Ibcast(s, (int)sizeof *s, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
    for (MPI_Test(&req, &done, MPI_STATUS_IGNORE); !done;
         MPI_Test(&req, &done, MPI_STATUS_IGNORE))
        nanosleep(&(struct timespec){0, 2000000}, NULL);
    if (!s->go)
        return 0;
    if (gg_team_mpi_init(&m->team, MPI_COMM_WORLD, err))
        return -1;
    m->team_up = true;
    return 0;
}

static const gg_team *team_of(void *ctx)
{
    golgen_mpi *m = ctx;
    return m->team_up ? &m->team.team : NULL;
}

static void team_done(void *ctx)
{
    golgen_mpi *m = ctx;
    if (m->team_up)
        gg_team_mpi_free(&m->team);
    m->team_up = false;
}

/* ---- the handle ---- */

golgen_mpi *golgen_mpi_open(int (*stop_status)(void))
{
    golgen_mpi *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    MPI_Comm_size(MPI_COMM_WORLD, &m->n);
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    m->stop_status = stop_status;
    m->run = (golgen_run_ranks){
        .n = m->n, .rank = m->rank, .ctx = m, .agree = hook_agree,
        .worst = hook_worst, .scatter = hook_scatter,
        .gather = hook_gather, .stepper = hook_stepper,
        .stepper_free = hook_stepper_free, .stopped = hook_stopped};
    m->synth = (golgen_synth_team){.lead = m->rank == 0, .ctx = m,
                                   .share = team_share, .team = team_of,
                                   .done = team_done};
    return m;
}

int golgen_mpi_size(const golgen_mpi *m) { return m ? m->n : 1; }
int golgen_mpi_rank(const golgen_mpi *m) { return m ? m->rank : 0; }

const golgen_run_ranks *golgen_mpi_run_ranks(golgen_mpi *m)
{
    return m && m->n > 1 ? &m->run : NULL;
}

const golgen_synth_team *golgen_mpi_synth_team(golgen_mpi *m)
{
    return m && m->n > 1 ? &m->synth : NULL;
}

void golgen_mpi_close(golgen_mpi *m)
{
    if (m)
        team_done(m);
    free(m);
}
