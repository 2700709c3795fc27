#include "synth_ranks.h"

#include <string.h>
#include <time.h>

#include "commands.h"
#include "gg_config.h"
#include "run_ranks.h"

#if GG_HAVE_MPI
#include <mpi.h>

#include "team_mpi.h"

static gg_team_mpi team;
static bool team_up;
#endif

int gg_cmd_synth_ranked(int argc, char **argv, const gg_config *cfg)
{
    return gg_cli_ranked("synth", gg_cmd_synth, "search the whole proof",
                         argc, argv, cfg);
}

int gg_synth_ranks_share(gg_synth_share *s, gg_err *err)
{
#if GG_HAVE_MPI
    if (gg_cli_ranks() > 1) {
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
#endif
    (void)s;
    (void)err;
    return 0;
}

const gg_team *gg_synth_ranks_team(void)
{
#if GG_HAVE_MPI
    if (team_up)
        return &team.team;
#endif
    return NULL;
}

void gg_synth_ranks_free(void)
{
#if GG_HAVE_MPI
    if (team_up)
        gg_team_mpi_free(&team);
    team_up = false;
#endif
}
