/* A watcher of a backend's step (golgen serve's frames from inside the
 * cpu kernel's pass): the kernel's gg_kernel_watch (templates/c/
 * kernel.c.in), laid out the same. rows(ctx, g, r, planes, x0, x1) gets
 * words [x0, x1) of row r at generation g into the call (g % every == 0,
 * 1 <= g <= gens) of each state plane, planes[q][0] being word x0, while
 * the kernel's tile holds them in cache: generation g whole and
 * consistent (never a mix of generations), without another pass over
 * memory. Watched rows: (r - first) mod height < count and a multiple of
 * step. Called from the kernel's threads at once, each watched row of a
 * generation exactly once, in no order. The last word of a torus whose
 * width is not a multiple of 64 holds wrapped cells past the width: mask
 * them. */
#ifndef GG_STEP_WATCH_H
#define GG_STEP_WATCH_H

#include <stdint.h>

typedef struct gg_step_watch {
    void (*rows)(void *ctx, int64_t g, int64_t r,
                 const uint64_t *const *planes, int64_t x0, int64_t x1);
    void *ctx;
    int64_t every;
    int64_t first, count, step;
} gg_step_watch;

#endif
