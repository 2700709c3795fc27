#include "validate_gen.h"

#include "reference_gen.h"
#include "rule_gen.h"

/* Odd sizes round the word edges; 1-wide and 1-high tori wrap onto
 * themselves; 1921 and 4100 are wider than a CPU tile. Generations up to
 * 37 cross several temporal blocks of every kernel. */
static const struct {
    int64_t w, h, gens;
} cases[] = {
    {1, 1, 3},    {1, 7, 2},    {7, 1, 5},   {5, 9, 1},    {63, 5, 7},
    {65, 3, 4},   {67, 13, 37}, {129, 11, 9}, {191, 4, 2},  {200, 9, 17},
    {1921, 9, 5}, {4100, 5, 37}, {130, 40, 23},
};
#define N_CASES (sizeof cases / sizeof cases[0])

uint64_t gg_validate_gen_key(void)
{
    const unsigned char *b = (const unsigned char *)cases;
    uint64_t h = UINT64_C(14695981039346656037); /* FNV-1a */
    for (size_t i = 0; i < sizeof cases; i++)
        h = (h ^ b[i]) * UINT64_C(1099511628211);
    return h;
}

/* 64 cells at a time: two random words class the cells (half 0, a
 * quarter 1, a quarter dying) and only the dying ones draw a state, where
 * there is more than one (with 3 states every dying cell is state 2; the
 * draws made a /2/3 bench of 32768^2 take 5.2 s on the 2-core VM instead
 * of 1.4-1.7 s). Cell by cell, bench's 32768^2 soup took 20 s on the H100
 * host. */
void gg_gen_cells_random(gg_gen_cells *c, int states, uint64_t seed)
{
    int64_t w = gg_gen_cells_width(c), nw = (w + 63) / 64;
    int tail = (int)(w & 63);
    for (int64_t y = 0; y < gg_gen_cells_height(c); y++)
        for (int64_t k = 0; k < nw; k++) {
            uint64_t a = gg_splitmix(&seed), b = gg_splitmix(&seed);
            uint64_t pw[8] = {a & ~b}, dying = a & b;
            if (states == 2)
                pw[0] |= dying;
            else if (states == 3)
                pw[1] |= dying; /* state 2 */
            for (uint64_t d = states > 3 ? dying : 0; d; d &= d - 1) {
                int st = 2 + (int)(gg_splitmix(&seed) % (uint64_t)(states - 2));
                for (int p = 0; p < c->n_planes && p < 8; p++)
                    pw[p] |= (uint64_t)((st >> p) & 1) << __builtin_ctzll(d);
            }
            for (int p = 0; p < c->n_planes && p < 8; p++)
                gg_grid_row(&c->plane[p], y)[k] =
                    k == nw - 1 && tail ? pw[p] & ((UINT64_C(1) << tail) - 1)
                                        : pw[p];
        }
}

/* The first cell where got and want differ, as an error. */
static int compare(const gg_rule *rule, const gg_gen_cells *want,
                   const gg_gen_cells *got, const char *who, gg_topo topo,
                   int64_t gens, gg_err *err)
{
    char text[128];
    gg_rule_format(rule, text, sizeof text);
    int64_t w = gg_gen_cells_width(want), h = gg_gen_cells_height(want);
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++) {
            int a = gg_gen_cells_get(want, x, y), b = gg_gen_cells_get(got, x, y);
            if (a != b)
                return gg_fail(err, "%s is wrong for %s: on a %lldx%lld %s "
                               "after %lld generations, cell (%lld, %lld) "
                               "is %d, the reference says %d; it is not "
                               "used", who, text, (long long)w, (long long)h,
                               topo == GG_TOPO_TORUS ? "torus" : "plane",
                               (long long)gens, (long long)x, (long long)y,
                               b, a);
        }
    for (int p = 0; p < want->n_planes; p++)
        if (!gg_grid_equal(&want->plane[p], &got->plane[p]))
            return gg_fail(err, "%s set bits past the width of plane %d "
                           "for %s; it is not used", who, p, text);
    return 0;
}

int gg_validate_gen(const gg_rule *rule, gg_gen_step_ctx_fn step, void *ctx,
                    const char *who, uint64_t seed, gg_err *err)
{
    int planes = gg_gen_planes(rule->states);
    for (size_t i = 0; i < 2 * N_CASES; i++) {
        gg_topo topo = i % 2 ? GG_TOPO_PLANE : GG_TOPO_TORUS;
        int64_t w = cases[i / 2].w, h = cases[i / 2].h;
        int64_t gens = cases[i / 2].gens;
        gg_gen_cells a, b;
        if (gg_gen_cells_init(&a, planes, w, h, err))
            return -1;
        if (gg_gen_cells_init(&b, planes, w, h, err)) {
            gg_gen_cells_free(&a);
            return -1;
        }
        gg_gen_cells_random(&a, rule->states, seed + i);
        gg_gen_cells_random(&b, rule->states, seed + i);
        int bad = gg_reference_gen_run(rule, topo, &a, gens, err) ||
                  step(ctx, topo, &b, gens, err) ||
                  compare(rule, &a, &b, who, topo, gens, err);
        gg_gen_cells_free(&a);
        gg_gen_cells_free(&b);
        if (bad)
            return -1;
    }
    return 0;
}
