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
    *b = (gg_batch){.size = 1, .max = max_batch, .min = min_batch};
    if (b->size < b->min)
        b->size = b->min;
}

int64_t gg_batch_take(const gg_batch *b, int64_t left)
{
    return left < b->size ? left : b->size;
}

/* The share of a call of n generations that took seconds spent on its
 * generations, from the per-generation time the last two sizes give;
 * -1 before the size has changed once (nothing to compare yet). */
static double generation_share(const gg_batch *b, int64_t n, double seconds)
{
    if (!b->prev_n || b->prev_n == n || seconds <= 0)
        return -1;
    double per_gen = (seconds - b->prev_s) / (double)(n - b->prev_n);
    return (double)n * per_gen / seconds;
}

static bool worth_doubling(const gg_batch *b, double seconds, double share)
{
    if (b->max > 0 && 2 * b->size > b->max)
        return false;
    if (seconds < GG_BATCH_QUICK)
        return true;
    if (seconds >= GG_BATCH_LONG)
        return false;
    if (share < 0) /* one doubling to tell the fixed part from the rest */
        return true;
    return share < 0.75;
}

/* A call over a second that was mostly fixed part (moving a big grid)
 * grows 8-fold: its generations, under a quarter of it, are then at most
 * twice the fixed part, short of the three quarters that end the growth,
 * and the call under 4 x seconds, within GG_BATCH_LONG; so starting from
 * one generation costs a few calls of seconds each, not ten. Shorter
 * calls double only: their share comes from timings too noisy to jump
 * on. */
static int64_t growth(double seconds, double share)
{
    return seconds > GG_BATCH_SLOW && 4 * seconds <= GG_BATCH_LONG &&
                   share >= 0 && share < 0.25
               ? 8
               : 2;
}

static bool worth_halving(const gg_batch *b, double seconds, double share)
{
    int64_t floor = b->min > 1 ? b->min : 1;
    return b->size / 2 >= floor && seconds > GG_BATCH_SLOW && share > 0.9;
}

void gg_batch_done(gg_batch *b, int64_t n, double seconds)
{
    if (n != b->size)
        return;
    double share = generation_share(b, n, seconds);
    int64_t next = worth_halving(b, seconds, share) ? n / 2
                   : worth_doubling(b, seconds, share)
                       ? n * growth(seconds, share)
                       : n;
    if (b->max > 0 && next > b->max)
        next = b->max;
    if (next == n)
        return;
    b->prev_n = n;
    b->prev_s = seconds;
    b->size = next;
}

int64_t gg_plane_batch_cap(int64_t width, int64_t height, int64_t floor)
{
    int64_t side = width < height ? width : height, cap = 32;
    while (cap * 2 <= side / 8)
        cap *= 2;
    return cap > floor ? cap : floor;
}

int64_t gg_plane_slack(int64_t margin, int64_t side)
{
    return margin + side / 8 + 16;
}

int gg_batch_run(gg_batch *b, const gg_batch_calls *c, int64_t gens,
                 int64_t *generation, gg_progress_fn progress,
                 void *progress_ctx, gg_err *err)
{
    for (int64_t done = 0; done < gens;) {
        int64_t n = gg_batch_take(b, gens - done);
        int64_t most = c->cap ? c->cap(c->ctx) : 0;
        if (most > 0 && n > most)
            n = most;
        if (c->before && c->before(c->ctx, n, err))
            return -1;
        double t0 = gg_batch_clock();
        int64_t ran = c->step(c->ctx, n, err);
        if (ran < 0)
            return -1;
        done += ran;
        *generation += ran;
        gg_batch_done(b, ran, gg_batch_clock() - t0);
        if (ran < n) /* given up at a stop */
            break;
        if (progress && !progress(progress_ctx, done, gens))
            break;
    }
    return 0;
}
