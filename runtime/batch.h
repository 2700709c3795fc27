/* How many generations a universe run asks of its stepper per call
 * (two-state, Generations and 3D runs). Small calls keep progress lines
 * and stop signals responsive; large ones amortize what each call costs
 * besides its generations: a device backend moves the whole grid in and
 * out (2 GiB each way for a 131072^2 torus: seconds), a streamed or banded
 * run plans and stages its bands.
 *
 * The first call takes 64 generations (or the stepper's bound). The size
 * doubles while a call takes under a second, and beyond that while the
 * fixed part is more than a quarter of a call, read from the last two
 * sizes (time = fixed + size x per generation), up to calls of
 * GG_BATCH_LONG seconds; never past the stepper's max_batch. A call that
 * took less than the size (the run's tail) changes nothing. */
#ifndef GG_BATCH_H
#define GG_BATCH_H

#include <stdint.h>

#define GG_BATCH_LONG 15.0 /* seconds: a stop waits at most about this */

typedef struct gg_batch {
    int64_t size;  /* generations of the next call */
    int64_t max;   /* the stepper's bound (0: none) */
    int64_t min;   /* the stepper's floor (0: none) */
    int64_t prev_n; /* the last call of a smaller size (0: none) */
    double prev_s;
} gg_batch;

void gg_batch_init(gg_batch *b, int64_t max_batch, int64_t min_batch);

/* The next call's generations with `left` still to run. */
int64_t gg_batch_take(const gg_batch *b, int64_t left);

/* A call of n generations took seconds (gg_batch_clock). */
void gg_batch_done(gg_batch *b, int64_t n, double seconds);

/* Monotonic seconds. */
double gg_batch_clock(void);

#endif
