#include "band_stepper.h"

#include <string.h>

int gg_band_plan_for(int64_t width, int64_t height, int64_t gens,
                     int64_t max_cells, gg_band_plan *p, gg_err *err)
{
    int64_t fit = width > 0 ? max_cells / width : 0;
    if (fit < 3)
        return gg_fail(err, "a band of %lld cells holds fewer than 3 rows of "
                       "the %lld-wide grid; give the backend more memory "
                       "(--device-mem)", (long long)max_cells,
                       (long long)width);
    p->max_cells = max_cells;
    p->t = fit / 18; /* rows + 2t <= fit with 2t <= rows / 8 */
    if (p->t < 1)
        p->t = 1;
    if (p->t > gens)
        p->t = gens;
    p->rows = fit - 2 * p->t;
    if (p->rows > height)
        p->rows = height;
    return 0;
}

/* One pass of p.t generations over every band, from g into out. */
static int pass(gg_band_stepper *b, const gg_rule *rule, gg_topo topo,
                const gg_grid *g, gg_grid *out, const gg_band_plan *p,
                gg_err *err)
{
    gg_grid band = {0};
    int bad = 0;
    for (int64_t y0 = 0; y0 < g->height && !bad; y0 += p->rows) {
        int64_t y1 = y0 + p->rows < g->height ? y0 + p->rows : g->height;
        int64_t a = y0 - p->t, z = y1 + p->t;
        if (topo != GG_TOPO_TORUS) { /* the plane's edges stay edges */
            a = a < 0 ? 0 : a;
            z = z > g->height ? g->height : z;
        }
        if (band.height != z - a) {
            gg_grid_free(&band);
            if (gg_grid_init(&band, g->width, z - a, err))
                return -1;
        }
        gg_grid_take_rows(g, a, z, &band);
        bad = b->inner->step(b->inner->ctx, rule, topo, &band, p->t, err);
        size_t bytes = (size_t)g->stride * sizeof(uint64_t);
        for (int64_t y = y0; !bad && y < y1; y++)
            memcpy(gg_grid_row(out, y), gg_grid_row(&band, y - a), bytes);
        b->bands_run++;
    }
    gg_grid_free(&band);
    return bad;
}

static int band_step(void *ctx, const gg_rule *rule, gg_topo topo,
                     gg_grid *grid, int64_t gens, gg_err *err)
{
    gg_band_stepper *b = ctx;
    if (grid->width * grid->height <= b->max_cells)
        return b->inner->step(b->inner->ctx, rule, topo, grid, gens, err);
    gg_grid out;
    if (gg_grid_init(&out, grid->width, grid->height, err))
        return -1;
    int bad = 0;
    while (gens > 0 && !bad) {
        gg_band_plan p;
        bad = gg_band_plan_for(grid->width, grid->height, gens, b->max_cells,
                               &p, err);
        if (!bad && b->inner->max_batch > 0 && p.t > b->inner->max_batch)
            p.t = b->inner->max_batch;
        if (!bad)
            bad = pass(b, rule, topo, grid, &out, &p, err);
        if (!bad) { /* out holds the new generation: swap the buffers */
            uint64_t *t = grid->bits;
            grid->bits = out.bits;
            out.bits = t;
            gens -= p.t;
        }
    }
    gg_grid_free(&out);
    return bad;
}

gg_stepper gg_band_stepper_view(gg_band_stepper *b)
{
    gg_stepper s = {.name = b->inner->name, .step = band_step, .ctx = b,
                    .max_batch = b->inner->max_batch,
                    .min_batch = b->inner->min_batch};
    return s;
}
