/* What golgen_run_2d (include/golgen/run.h) needs of several processes that
 * run one bounded universe together, a band of rows each: the golgen
 * command's MPI ranks (lib/mpi_ranks.c fills it in over
 * runtime/universes/rank_universe.h and rank_stepper.h; the public header
 * leaves the struct opaque, as runtime/universes/synth_team.h does for
 * synth).
 *
 * Rank 0 does what one process does: it reads the pattern, opens the
 * outputs, writes and says the lines. Every hook marked collective is
 * called by every rank at the same point of the run, in the same order;
 * a failure is agreed on, so every rank stops together with one message
 * (rank 0's; the others' err is empty). */
#ifndef GG_RANK_RUN_H
#define GG_RANK_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "universe.h"

struct golgen_run_ranks {
    int n, rank;
    void *ctx;
    /* Collective: 0 when bad is 0 on every rank, else -1 on all with err
     * (rank 0's sentence there, empty elsewhere). */
    int (*agree)(void *ctx, int bad, gg_err *err);
    /* Collective: the largest of every rank's status. */
    int (*worst)(void *ctx, int status);
    /* Collective: rank 0's u cut into bands; every rank's u is its band
     * after (the others pass a zeroed u). */
    int (*scatter)(void *ctx, gg_universe *u, gg_err *err);
    /* Collective: the bands of u gathered; on rank 0 *whole is the whole
     * universe (free it), on the others empty. */
    int (*gather)(void *ctx, const gg_universe *u, gg_universe *whole,
                  gg_err *err);
    /* The stepper this rank's band runs on: local with halos from the
     * other ranks (rows: the band's). stepper_free after the run. */
    int (*stepper)(void *ctx, const gg_stepper *local, int64_t rows,
                   gg_stepper *out, gg_err *err);
    void (*stepper_free)(void *ctx);
    /* Collective: a stop on any rank (then raised on all), checked
     * between batches so that every rank stops after the same one. */
    bool (*stopped)(void *ctx);
};

#endif
