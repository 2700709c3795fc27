#include "synth_ranks.h"

#include <stddef.h>
#include <string.h>
#include <time.h>

#include "full_exec.h"
#include "gg_config.h"
#include "cli_rank.h"
#include "synth_team.h"

#if GG_CLI_MPI
#include <mpi.h>

#include "team_mpi.h"

static gg_team_mpi team;
static bool team_up;

/* Collective: rank 0's *s reaches every rank, then the ranks become a
 * search team when it says go. */
static int share(void *ctx, gg_synth_share *s, gg_err *err)
{
    (void)ctx;
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
    if (gg_team_mpi_init(&team, MPI_COMM_WORLD, err))
        return -1;
    team_up = true;
    return 0;
}

static const gg_team *search_team(void *ctx)
{
    (void)ctx;
    return team_up ? &team.team : NULL;
}

static void done(void *ctx)
{
    (void)ctx;
    if (team_up)
        gg_team_mpi_free(&team);
    team_up = false;
}

static golgen_synth_team hook = {.share = share, .team = search_team,
                                 .done = done};
#endif

int gg_cmd_synth_ranked(int argc, char **argv, const gg_config *cfg)
{
    return gg_cli_ranked("synth", gg_cmd_synth, "search the whole proof",
                         argc, argv, cfg);
}

int gg_synth_ranks_lead(void)
{
    return gg_cli_rank() == 0;
}

const golgen_synth_team *gg_synth_ranks_team(void)
{
#if GG_CLI_MPI
    if (gg_cli_ranks() > 1) {
        hook.lead = gg_cli_rank() == 0;
        return &hook;
    }
#endif
    return NULL;
}
