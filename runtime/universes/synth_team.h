/* What golgen_synth (include/golgen.h) needs of several processes that
 * search one network together: the golgen command's MPI ranks
 * (lib/mpi_ranks.c fills it in over runtime/universes/team_mpi.h; the
 * public header leaves the struct opaque).
 *
 * The lead (rank 0) does what one process does: the cache, the starting
 * networks, storing and the result. What it decided before the search
 * reaches the others through share, called exactly once by every member
 * (collective), after which team is the search team for gg_synth_run. */
#ifndef GG_SYNTH_TEAM_H
#define GG_SYNTH_TEAM_H

#include <stdbool.h>

#include "error.h"
#include "net.h"
#include "proof.h"
#include "team.h"

typedef struct gg_synth_share {
    int go;            /* 0: no search (a cached answer, or a failure) */
    double time_limit; /* the search's, after the steps before it */
    int known_lower;
    int has_upper, has_proof;
    gg_net upper;      /* the best network to beat */
    gg_proof proof;    /* the cache's record to resume from */
} gg_synth_share;

struct golgen_synth_team {
    bool lead;  /* this member decides, stores and returns the result */
    void *ctx;
    /* Collective: the lead's *s reaches every member. 0, or -1 on every
     * member when the team cannot start. */
    int (*share)(void *ctx, gg_synth_share *s, gg_err *err);
    /* The search team after share (NULL: none). */
    const gg_team *(*team)(void *ctx);
    /* After the run, on every member: the team's resources go. */
    void (*done)(void *ctx);
};

#endif
