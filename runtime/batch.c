#include "batch.h"

#include <stdbool.h>
#include <time.h>

double gg_batch_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void gg_batch_init(gg_batch *b, int64_t max_batch, int64_t min_batch)
{
    *b = (gg_batch){.size = 64, .max = max_batch, .min = min_batch};
    if (b->max > 0 && b->size > b->max)
        b->size = b->max;
    if (b->size < b->min)
        b->size = b->min;
}

int64_t gg_batch_take(const gg_batch *b, int64_t left)
{
    return left < b->size ? left : b->size;
}

/* Whether a call of n generations that took seconds should double. */
static bool worth_doubling(const gg_batch *b, int64_t n, double seconds)
{
    if (seconds < 1.0)
        return true;
    if (seconds >= GG_BATCH_LONG)
        return false;
    if (!b->prev_n) /* one doubling to tell the fixed part from the rest */
        return true;
    double per_gen = (seconds - b->prev_s) / (double)(n - b->prev_n);
    return (double)n * per_gen < 0.75 * seconds;
}

void gg_batch_done(gg_batch *b, int64_t n, double seconds)
{
    if (n != b->size || (b->max > 0 && 2 * b->size > b->max) ||
        !worth_doubling(b, n, seconds))
        return;
    b->prev_n = n;
    b->prev_s = seconds;
    b->size *= 2;
}
