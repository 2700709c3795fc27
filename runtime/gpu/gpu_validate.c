#include "gpu_validate.h"

#include "gpu_tune.h"
#include "reference.h"

typedef struct vcase {
    int64_t width, height, gens;
    gg_topo topo;
    int strip;
} vcase;

/* Partial words, one word, several windows (31 words apart), the torus
 * wrap inside one word; strips of 1..11 rows and the plan's own. */
static const vcase cases[] = {
    {1, 1, 3, GG_TOPO_TORUS, 0},      {3, 5, 17, GG_TOPO_TORUS, 2},
    {31, 7, 7, GG_TOPO_PLANE, 3},     {32, 9, 16, GG_TOPO_TORUS, 0},
    {33, 40, 37, GG_TOPO_TORUS, 7},   {63, 17, 2, GG_TOPO_PLANE, 1},
    {64, 33, 33, GG_TOPO_TORUS, 5},   {65, 12, 19, GG_TOPO_PLANE, 4},
    {100, 3, 37, GG_TOPO_PLANE, 0},   {130, 70, 21, GG_TOPO_TORUS, 6},
    {992, 20, 16, GG_TOPO_TORUS, 3},  {1000, 18, 17, GG_TOPO_PLANE, 5},
    {2048, 24, 35, GG_TOPO_TORUS, 7}, {2100, 31, 23, GG_TOPO_PLANE, 0},
    {1985, 2, 9, GG_TOPO_TORUS, 1},   {1023, 50, 31, GG_TOPO_PLANE, 11},
    /* Strips and windows away from every edge, so the kernels' interior
     * copies run: fill only, one to two rows past whole three-tick turns,
     * one and two launches. */
    {3000, 90, 35, GG_TOPO_TORUS, 7}, {3000, 96, 33, GG_TOPO_PLANE, 8},
    {2500, 80, 16, GG_TOPO_TORUS, 2}, {2100, 70, 20, GG_TOPO_PLANE, 4},
    {2200, 60, 17, GG_TOPO_TORUS, 1}, {2900, 84, 48, GG_TOPO_TORUS, 6},
    /* and three or five rows past whole six-tick turns */
    {2300, 80, 19, GG_TOPO_PLANE, 9}, {2700, 90, 16, GG_TOPO_TORUS, 11},
};
#define N_CASES ((int)(sizeof cases / sizeof *cases))

static int compare(const vcase *c, const gg_grid *got, const gg_grid *want,
                   gg_err *err)
{
    int64_t x, y;
    if (gg_grid_equal(got, want))
        return 0;
    if (gg_grid_first_diff(got, want, &x, &y))
        return gg_fail(err, "GPU kernel validation failed: %s %lldx%lld, "
                       "%lld generations (strip %d) differs from the "
                       "reference first at cell (%lld, %lld); the kernel is "
                       "not used",
                       c->topo == GG_TOPO_TORUS ? "torus" : "plane",
                       (long long)c->width, (long long)c->height,
                       (long long)c->gens, c->strip, (long long)x,
                       (long long)y);
    return gg_fail(err, "GPU kernel validation failed: %lldx%lld grid has "
                   "live bits past the width; the kernel is not used",
                   (long long)c->width, (long long)c->height);
}

/* Live words a wide case keeps: both edges (the torus wrap, the plane's
 * border) and a stretch in the middle spanning several 31-word windows.
 * The reference skips dead words (runtime/reference/reference.c), so a case costs
 * its live words, not its width: the six cases at 32768 took 3.4 s of a
 * cached 4.4 s run on the H100 host when the whole width was live. The
 * module for that width runs the same code in every window; what depends
 * on the width is the row stride and the edges, and those are live. */
enum { EDGE_WORDS = 32, MIDDLE_WORDS = 96 };

static void keep_windows(gg_grid *g)
{
    int64_t nw = (g->width + 63) / 64;
    if (nw <= 2 * EDGE_WORDS + MIDDLE_WORDS)
        return;
    int64_t m0 = nw / 2 - MIDDLE_WORDS / 2, m1 = m0 + MIDDLE_WORDS;
    for (int64_t y = 0; y < g->height; y++) {
        uint64_t *row = gg_grid_row(g, y);
        for (int64_t w = EDGE_WORDS; w < nw - EDGE_WORDS; w++)
            if (w < m0 || w >= m1)
                row[w] = 0;
    }
}

/* The soup of case c and, in want, the reference's answer. */
static int reference_case(const gg_rule *rule, const vcase *c, uint64_t seed,
                          gg_grid *soup, gg_grid *want, gg_err *err)
{
    if (gg_grid_init(soup, c->width, c->height, err))
        return -1;
    gg_grid_random(soup, (seed & 1) ? 0.5 : 0.3, seed);
    keep_windows(soup);
    if (gg_grid_copy(want, soup, err)) {
        gg_grid_free(soup);
        return -1;
    }
    if (gg_reference_run_threads(rule, c->topo, want, c->gens, err)) {
        gg_grid_free(soup);
        gg_grid_free(want);
        return -1;
    }
    return 0;
}

/* The reference runs take most of the time of opening a GPU backend; each
 * one shares its rows among the cores (one case per core left a 200-row
 * case of a 32768-wide kernel to one core: 16 s on the H100 host). They
 * all run first, and the device then checks case by case. */
static int run_cases(const gg_rule *rule, const vcase *list, int n,
                     gg_gpu_step_fn step, void *ctx, uint64_t seed,
                     gg_err *err)
{
    /* n <= N_CASES: the width cases are fewer */
    gg_grid soup[N_CASES], want[N_CASES];
    gg_err errs[N_CASES];
    int ok[N_CASES];
    for (int i = 0; i < n; i++)
        ok[i] = reference_case(rule, &list[i], seed + (uint64_t)i, &soup[i],
                               &want[i], &errs[i]) == 0;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (!ok[i]) {
            if (!bad)
                *err = errs[i];
            bad = 1;
            continue;
        }
        if (!bad)
            bad = step(ctx, list[i].topo, &soup[i], list[i].gens,
                       list[i].strip, err) ||
                  compare(&list[i], &soup[i], &want[i], err);
        gg_grid_free(&soup[i]);
        gg_grid_free(&want[i]);
    }
    return bad ? -1 : 0;
}

int gg_gpu_validate(const gg_rule *rule, gg_gpu_step_fn step, void *ctx,
                    uint64_t seed, gg_err *err)
{
    return run_cases(rule, cases, N_CASES, step, ctx, seed, err);
}

/* Cases of one width for a kernel built for it (the PTX module with a
 * constant row stride): interior copies on the torus and the plane,
 * strips of every remainder mod 6 past a whole turn and the plan's. */
static const vcase width_cases[] = {
    {0, 90, 35, GG_TOPO_TORUS, 7},  {0, 96, 33, GG_TOPO_PLANE, 8},
    {0, 80, 19, GG_TOPO_PLANE, 9},  {0, 90, 16, GG_TOPO_TORUS, 11},
    {0, 84, 20, GG_TOPO_TORUS, 10}, {0, 200, 33, GG_TOPO_TORUS, 0},
};
#define N_WIDTH_CASES ((int)(sizeof width_cases / sizeof *width_cases))

uint64_t gg_gpu_validate_key(void)
{
    static const int windows[2] = {EDGE_WORDS, MIDDLE_WORDS};
    uint64_t h = gg_gpu_hash(0, cases, sizeof cases);
    h = gg_gpu_hash(h, width_cases, sizeof width_cases);
    return gg_gpu_hash(h, windows, sizeof windows);
}

int gg_gpu_validate_width(const gg_rule *rule, gg_gpu_step_fn step,
                          void *ctx, uint64_t seed, int64_t width,
                          gg_err *err)
{
    vcase cs[N_WIDTH_CASES];
    for (int i = 0; i < N_WIDTH_CASES; i++) {
        cs[i] = width_cases[i];
        cs[i].width = width;
    }
    return run_cases(rule, cs, N_WIDTH_CASES, step, ctx, seed, err);
}
