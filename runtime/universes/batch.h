/* How many generations a universe run asks of its stepper per call
 * (two-state, Generations and 3D runs). Short calls keep progress lines
 * and stop signals responsive: a stop is seen between calls (and, by
 * steps that read a stop flag, runtime/base/stop.h, within one). Larger calls
 * amortize what each call costs besides its generations: a device backend
 * moves the whole grid in and out (2 GiB each way for a 131072^2 torus:
 * seconds), a streamed or banded run plans and stages its bands.
 *
 * Sizes are set by measured time, not by count: the first call takes one
 * generation (or the stepper's floor), since one generation of a large
 * grid on a slow backend takes seconds. A call that took under
 * GG_BATCH_QUICK doubles the next; beyond that the size doubles only
 * while the fixed part is more than a quarter of a call, read from the
 * last two sizes (time = fixed + size x per generation), up to calls of
 * GG_BATCH_LONG seconds; a call over GG_BATCH_SLOW that its generations
 * made long (nine tenths of it or more, so that halving leaves the fixed
 * part under a quarter and the size does not swing back) halves the next,
 * as when a pattern on the unbounded plane grows. So a compute-bound call
 * takes well under a second; only a call whose fixed part alone takes
 * seconds (moving a huge grid) runs longer. Never past the stepper's
 * max_batch or under its min_batch. A call that ran fewer generations
 * than the size (the run's tail, a stop) changes nothing. */
#ifndef GG_BATCH_H
#define GG_BATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

#define GG_BATCH_QUICK 0.25 /* seconds: a call this short doubles */
#define GG_BATCH_SLOW 1.0   /* seconds: a longer compute-bound call halves */
#define GG_BATCH_LONG 15.0  /* seconds: no call grows past this */

typedef struct gg_batch {
    int64_t size;  /* generations of the next call */
    int64_t max;   /* the stepper's bound (0: none) */
    int64_t min;   /* the stepper's floor (0: none) */
    int64_t prev_n; /* the last call of another size (0: none) */
    double prev_s;
} gg_batch;

void gg_batch_init(gg_batch *b, int64_t max_batch, int64_t min_batch);

/* The next call's generations with `left` still to run. */
int64_t gg_batch_take(const gg_batch *b, int64_t left);

/* A call of n generations took seconds (gg_batch_clock). */
void gg_batch_done(gg_batch *b, int64_t n, double seconds);

/* Monotonic seconds. */
double gg_batch_clock(void);

/* Called after every call of a run; returning false stops the run there
 * (the universe then holds the generation reached: Ctrl-C keeps the
 * work). */
typedef bool (*gg_progress_fn)(void *ctx, int64_t done, int64_t total);

/* What a universe's run does per call: `before` (NULL: nothing; the
 * unbounded plane's margin for n generations), then `step`, which returns
 * the generations it ran (fewer than n: given up at a stop) or -1. */
typedef struct gg_batch_calls {
    int (*before)(void *ctx, int64_t n, gg_err *err);
    int64_t (*step)(void *ctx, int64_t n, gg_err *err);
    void *ctx;
    /* optional: the most generations the next call may take (the
     * unbounded plane's gg_plane_batch_cap); NULL or 0: no bound */
    int64_t (*cap)(void *ctx);
} gg_batch_calls;

/* The unbounded plane grows a margin of a call's length around its live
 * box before each call, so the call's cells grow with the square of its
 * length: a call is at most an eighth of the grid's shorter side (a
 * power of two, 32 at least), so the margin costs at most about half the
 * box's area again. Sizes by time alone took a 300-cell pattern's calls
 * to 512 generations and its grid to 1300 cells a side (spiral-growth's
 * 1000 generations: 11.1 CPU ms on one thread, 3.3 with the cap and the
 * slack below; BENCHMARKS.md "Session 35"). floor: the stepper's
 * min_batch, which wins. */
int64_t gg_plane_batch_cap(int64_t width, int64_t height, int64_t floor);

/* Dead cells a regrown plane keeps on each side of a live box `side`
 * cells across for a call needing `margin`: an eighth of the box more,
 * so that a growing pattern regrows now and then, not every call (a
 * regrowth copies the box once; a half, as before, made the grid about
 * 1.6x as wide, 2.6x the cells, for every call between). */
int64_t gg_plane_slack(int64_t margin, int64_t side);

/* gens generations in calls sized by b, each counted into *generation;
 * ends early at a call that ran short or where progress says stop; -1
 * when a call failed (the generations run before it counted). The loop
 * every universe's run shares. */
int gg_batch_run(gg_batch *b, const gg_batch_calls *c, int64_t gens,
                 int64_t *generation, gg_progress_fn progress,
                 void *progress_ctx, gg_err *err);

#endif
