#include "gen_cells.h"

#include <string.h>

#include "batch.h"
#include "rule_gen.h"

int gg_gen_cells_init(gg_gen_cells *c, int n_planes, int64_t width,
                      int64_t height, gg_err *err)
{
    memset(c, 0, sizeof *c);
    if (n_planes < 1 || n_planes > GG_GEN_CELLS_MAX_PLANES)
        return gg_fail(err, "%d state planes: 1 to %d are supported",
                       n_planes, GG_GEN_CELLS_MAX_PLANES);
    for (int p = 0; p < n_planes; p++) {
        if (gg_grid_init(&c->plane[p], width, height, err)) {
            gg_gen_cells_free(c);
            return -1;
        }
        c->n_planes = p + 1;
    }
    return 0;
}

void gg_gen_cells_free(gg_gen_cells *c)
{
    for (int p = 0; p < c->n_planes; p++)
        gg_grid_free(&c->plane[p]);
    memset(c, 0, sizeof *c);
}

int gg_gen_cells_get(const gg_gen_cells *c, int64_t x, int64_t y)
{
    int s = 0;
    for (int p = 0; p < c->n_planes; p++)
        s |= gg_grid_get(&c->plane[p], x, y) << p;
    return s;
}

void gg_gen_cells_set(gg_gen_cells *c, int64_t x, int64_t y, int state)
{
    for (int p = 0; p < c->n_planes; p++)
        gg_grid_set(&c->plane[p], x, y, (state >> p) & 1);
}

bool gg_gen_cells_bbox(const gg_gen_cells *c, int64_t *x0, int64_t *y0,
                       int64_t *x1, int64_t *y1)
{
    bool any = false;
    for (int p = 0; p < c->n_planes; p++)
        gg_grid_bbox_join(&c->plane[p], &any, x0, y0, x1, y1);
    return any;
}

/* A cell is counted once whatever its state: OR the planes word by word. */
int64_t gg_gen_cells_population(const gg_gen_cells *c)
{
    return gg_grids_live(c->plane, c->n_planes);
}

void gg_gen_cells_blit(gg_gen_cells *dst, const gg_gen_cells *src,
                       int64_t dx, int64_t dy)
{
    for (int p = 0; p < dst->n_planes && p < src->n_planes; p++)
        gg_grid_blit(&dst->plane[p], &src->plane[p], dx, dy);
}

int gg_gen_step_args(const gg_rule *rule, const gg_gen_cells *cells,
                     int64_t gens, const char *who, gg_err *err)
{
    if (!gg_rule_is_generations(rule))
        return gg_fail(err, "the Generations %s needs a Generations rule "
                       "(S/B/C, e.g. 23/3/3)", who);
    if (cells->n_planes < gg_gen_planes(rule->states))
        return gg_fail(err, "%d state planes cannot hold %d states",
                       cells->n_planes, rule->states);
    return gens > 0 && gg_gen_cells_width(cells) ? 1 : 0;
}

int64_t gg_gen_cells_plane_cap(const gg_gen_cells *c)
{
    return gg_plane_batch_cap(gg_gen_cells_width(c), gg_gen_cells_height(c),
                              0);
}

int gg_gen_cells_keep_margin(gg_gen_cells *c, int64_t *x0, int64_t *y0,
                             int64_t margin, gg_err *err)
{
    int64_t bx0, by0, bx1, by1;
    if (!gg_gen_cells_bbox(c, &bx0, &by0, &bx1, &by1))
        return 0; /* all 0 stays so */
    if (bx0 >= margin && by0 >= margin &&
        bx1 + margin < gg_gen_cells_width(c) &&
        by1 + margin < gg_gen_cells_height(c))
        return 0;
    int64_t w = bx1 - bx0 + 1, h = by1 - by0 + 1;
    int64_t sx = gg_plane_slack(margin, w), sy = gg_plane_slack(margin, h);
    gg_gen_cells bigger;
    if (gg_gen_cells_init(&bigger, c->n_planes, w + 2 * sx, h + 2 * sy,
                          err))
        return -1;
    gg_gen_cells_blit(&bigger, c, sx - bx0, sy - by0);
    gg_gen_cells_free(c);
    *c = bigger;
    *x0 += bx0 - sx;
    *y0 += by0 - sy;
    return 0;
}
