/* Processes that run one exact-synthesis search together (issue 18 part
 * 2: MPI ranks on one machine or many; runtime/team_mpi.h fills this in,
 * `mpirun golgen synth` uses it).
 *
 * Member `rank` of `size` takes the problems rank, rank + size, rank +
 * 2 size, ... of every k (shapes are listed in the same order
 * everywhere, sat/shape.h), with its own worker threads. At the end of a k
 * the members merge what they found, so every member returns the same
 * outcome and takes the same next step; a network found by one stops the
 * others early. Static striping keeps the hand-out free of communication
 * and the same from run to run; the hard shapes of a k lie in runs of
 * neighbouring indices, which striping spreads over all members.
 *
 * Every function is collective: all members call it in the same order
 * (the search's own decisions go through `any`, so that no member goes on
 * to a k the others left). Only the thread that started the search calls
 * them (MPI_THREAD_FUNNELED is enough). */
#ifndef GG_SAT_TEAM_H
#define GG_SAT_TEAM_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "net.h"

/* One member's outcome of one k, merged in place by gg_team.merge. */
typedef struct gg_team_outcome {
    bool failed;          /* this member failed (its err says why);
                             merged: any did, and merge returns -1 */
    bool found;           /* a network (net) */
    gg_net net;           /* merged: the lowest finding rank's */
    bool undecided;       /* some problem left open */
    uint64_t conflicts, work;
    int done;             /* problems finished */
    int *open;            /* malloc'd problem indices left open, ascending;
                             merged: every member's */
    int n_open;
} gg_team_outcome;

typedef struct gg_team {
    int rank, size;
    void *ctx;
    /* Called while the members work: true when another member found a
     * network of this k. found_here: this one did (the others are told
     * once). Not collective. */
    bool (*poll)(void *ctx, bool found_here);
    /* The end of a k: every member's outcome merged into o (found: any
     * did; undecided: any left one open, counts summed, open lists
     * joined). -1 on every member when any failed (err: the lowest
     * failing rank's message there, an empty one elsewhere, or a failure
     * of the merge itself). */
    int (*merge)(void *ctx, gg_team_outcome *o, gg_err *err);
    /* true on every member when mine is true on any. */
    bool (*any)(void *ctx, bool mine);
} gg_team;

#endif
