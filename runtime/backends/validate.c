#include "validate.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "grid.h"
#include "reference.h"

typedef struct vcase {
    int64_t width, height, gens;
    gg_topo topo;
    int tblock;   /* 0: the kernel's choice */
    int64_t band; /* 0: the kernel's choice */
} vcase;

/* Widths that exercise every edge path: single-cell rows, partial last
 * words, exactly one word, one word plus a bit, several words. */
static const int64_t widths[] = {1, 3, 63, 64, 65, 100, 130};
static const int64_t heights[] = {1, 2, 3, 5, 17, 40, 9};
static const int64_t gen_counts[] = {1, 2, 7, 37};
static const int tblocks[] = {0, 1, 3, 5};
static const int64_t bands[] = {0, 1, 2, 7};

static vcase make_case(int i)
{
    int nw = (int)(sizeof widths / sizeof *widths);
    vcase c;
    c.width = widths[i % nw];
    c.height = heights[(i / 2 + i / nw) % 7];
    c.topo = (i / nw) % 2 ? GG_TOPO_PLANE : GG_TOPO_TORUS;
    c.gens = gen_counts[(i + i / nw) % 4];
    c.tblock = tblocks[(i / 3) % 4];
    c.band = bands[(i / 5 + i) % 4];
    return c;
}

#define N_CASES 28

/* Grids wider than one tile (the C kernel's windows are up to 64 words:
 * 4100 and up span two or more), so tile seams, partial last tiles and the
 * wrap across tiles are checked. */
static const vcase wide_cases[] = {
    {1921, 9, 5, GG_TOPO_TORUS, 0, 0},
    {4100, 5, 9, GG_TOPO_PLANE, 3, 2},
    {3841, 4, 37, GG_TOPO_TORUS, 0, 3},
    {2000, 3, 70, GG_TOPO_PLANE, 0, 0},
    {8200, 6, 11, GG_TOPO_TORUS, 0, 0},
    {12345, 4, 7, GG_TOPO_PLANE, 5, 3},
};
#define N_WIDE ((int)(sizeof wide_cases / sizeof *wide_cases))

/* The kernel under check: one rule (step), or two by parity (pair,
 * rule[0] from generations of the call's parity, rule[1] from the
 * others), from parity. */
typedef struct vkernel {
    const gg_rule *rule[2];
    gg_kernel_step_fn step;
    gg_kernel_pair_fn pair;
    int threads, parity;
} vkernel;

/* The reference's c->gens generations of grid: a pair's a generation a
 * rule at a time. */
static int reference_gens(const vkernel *k, const vcase *c, gg_grid *grid,
                          gg_err *err)
{
    if (!k->pair)
        return gg_reference_run(k->rule[0], c->topo, grid, c->gens, err);
    for (int64_t i = 0; i < c->gens; i++)
        if (gg_reference_run(k->rule[(k->parity + i) & 1], c->topo, grid, 1,
                             err))
            return -1;
    return 0;
}

/* want = reference after c->gens generations of the soup in got; got =
 * the kernel's answer. */
static int run_case(const vkernel *k, const vcase *c, uint64_t seed,
                    gg_grid *got, gg_grid *want, gg_grid *tmp, gg_err *err)
{
    gg_grid_random(got, (seed & 1) ? 0.5 : 0.3, seed);
    memcpy(want->bits, got->bits,
           (size_t)(got->stride * got->height) * sizeof(uint64_t));
    if (reference_gens(k, c, want, err))
        return -1;
    int torus = c->topo == GG_TOPO_TORUS;
    int where = k->pair ? k->pair(got->bits, tmp->bits, c->width, c->height,
                                  got->stride, torus, c->gens, k->threads,
                                  c->tblock, c->band, k->parity)
                        : k->step(got->bits, tmp->bits, c->width, c->height,
                                  got->stride, torus, c->gens, k->threads,
                                  c->tblock, c->band);
    if (where < 0)
        return gg_fail(err, "kernel ran out of memory on a %lldx%lld grid",
                       (long long)c->width, (long long)c->height);
    if (where == 1) {
        uint64_t *t = got->bits;
        got->bits = tmp->bits;
        tmp->bits = t;
    }
    return 0;
}

/* The error for a case whose result differs from the reference. */
static int mismatch(const vkernel *k, const vcase *c, const gg_grid *got,
                    const gg_grid *want, gg_err *err)
{
    char from[40] = "";
    if (k->pair)
        snprintf(from, sizeof from, " from parity %d", k->parity);
    int64_t x, y;
    if (!gg_grid_first_diff(got, want, &x, &y))
        return gg_fail(err, "kernel validation failed: %lldx%lld grid has "
                       "live bits past the width; the kernel is not used",
                       (long long)c->width, (long long)c->height);
    return gg_fail(err, "kernel validation failed: %s %lldx%lld, %lld "
                   "generations%s (tblock %d, band %lld) differs from the "
                   "reference first at cell (%lld, %lld); the kernel is not "
                   "used",
                   c->topo == GG_TOPO_TORUS ? "torus" : "plane",
                   (long long)c->width, (long long)c->height,
                   (long long)c->gens, from, c->tblock, (long long)c->band,
                   (long long)x, (long long)y);
}

static int check_case(const vkernel *k, const vcase *c, uint64_t seed,
                      gg_err *err)
{
    gg_grid g[3]; /* kernel result, reference result, scratch */
    int made = 0, bad = 0;
    while (made < 3 && !bad)
        bad = gg_grid_init(&g[made++], c->width, c->height, err);
    if (!bad)
        bad = run_case(k, c, seed, &g[0], &g[1], &g[2], err);
    if (!bad && !gg_grid_equal(&g[0], &g[1]))
        bad = mismatch(k, c, &g[0], &g[1], err);
    while (made > 0)
        gg_grid_free(&g[--made]);
    return bad;
}

/* Every case (a pair's from both parities). */
static int check_all(vkernel *k, uint64_t seed, gg_err *err)
{
    /* the cases are small, which threads 0 runs on one thread: two, so
     * that the parallel schedule (tiles over threads) is checked too */
    if (k->threads <= 0)
        k->threads = 2;
    for (int i = 0; i < N_CASES + N_WIDE; i++) {
        vcase c = i < N_CASES ? make_case(i) : wide_cases[i - N_CASES];
        for (k->parity = 0; k->parity < (k->pair ? 2 : 1); k->parity++)
            if (check_case(k, &c, seed + (uint64_t)i, err))
                return -1;
    }
    return 0;
}

int gg_validate_kernel(const gg_rule *rule, gg_kernel_step_fn step,
                       int threads, uint64_t seed, gg_err *err)
{
    vkernel k = {.rule = {rule, rule}, .step = step, .threads = threads};
    return check_all(&k, seed, err);
}

int gg_validate_pair(const gg_rule *even, const gg_rule *odd,
                     gg_kernel_pair_fn pair, int threads, uint64_t seed,
                     gg_err *err)
{
    vkernel k = {.rule = {even, odd}, .pair = pair, .threads = threads};
    return check_all(&k, seed, err);
}
