/* Processes that run one exact-synthesis search together (issue 18 part
 * 2: MPI ranks on one machine or many; runtime/universes/team_mpi.h fills this in,
 * `mpirun golgen synth` uses it).
 *
 * Each k's problems (network shapes, listed in the same order everywhere,
 * sat/exact/shape.h) are handed out one by one, in order, from a counter on
 * rank 0, to whichever member asks: each member's supervising thread
 * keeps its worker threads a few problems ahead. At the end of a k the
 * members merge what they found, so every member returns the same outcome
 * and takes the same next step; a network found by one stops the others
 * early. (Fixed stripes, rank r taking problems r, r + size, ..., left
 * one of two ranks 40% longer than the other on a k of 130 shapes.)
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

#define GG_TEAM_CLAIM_MAX 64

typedef struct gg_team {
    int rank, size;
    void *ctx;
    /* Called while the members work: true when another member found a
     * network of this k. found_here: this one did (the others are told
     * once). Not collective. */
    bool (*poll)(void *ctx, bool found_here);
    /* Up to want (<= GG_TEAM_CLAIM_MAX) more of this k's problems 0 ..
     * n-1 for this member: their numbers go to out and their count is
     * returned, 0 while an answer is on its way, -1 once none is left.
     * Called again and again (want 0: nothing more wanted now); rank 0's
     * calls also answer the others' claims. done: the usual cost of the
     * problems this member finished so far in this k (sat/exact/shape_prior.h;
     * 0 without one), which travels with a claim to rank 0 for its
     * progress line (done_work). Not collective. */
    int (*claim)(void *ctx, int n, int want, uint64_t done, int *out);
    /* This member claims no more in this k: an answer still on its way is
     * waited for (its problems go to late[], *n_late, never tried); rank 0
     * answers every other member's claims until all have released, and
     * sets *unclaimed to the first problem handed to no one (every
     * member: problems from *unclaimed on were never tried; the others
     * get INT_MAX). Called once per k, before merge, even after a
     * failure. */
    void (*release)(void *ctx, int *late, int *n_late, int *unclaimed);
    /* Problems handed out so far in this k (rank 0; -1 elsewhere): the
     * progress lines' count. */
    int (*handed)(void *ctx);
    /* The members' last reported `done` of claim summed (rank 0; 0
     * elsewhere): what the progress line's estimate divides by. A member
     * reports as it claims, that is as its shapes finish. */
    uint64_t (*done_work)(void *ctx);
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
