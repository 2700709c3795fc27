#include "resident.h"

#include <stdlib.h>
#include <string.h>

/* Where the pattern's live box lies in the grid: rows *by0 .. *by1 and
 * the grid cell of the pattern's (0, 0) at (*dx, *dy); false when it has
 * no live cell. */
static bool box_in_grid(const gg_rule *rule, const gg_pattern *p,
                        int64_t *dx, int64_t *dy, int64_t *by0, int64_t *by1,
                        bool *inside)
{
    int64_t px, py, bx0, bx1;
    gg_universe_place(rule, p, &px, &py);
    *dx = px + rule->width / 2; /* the grid's first cell is -(W/2) */
    *dy = py + rule->height / 2;
    *inside = true;
    if (!p->plane[0].width ||
        !gg_grid_bbox(&p->plane[0], &bx0, by0, &bx1, by1))
        return false;
    *inside = *dx + bx0 >= 0 && *dy + *by0 >= 0 &&
              *dx + bx1 < rule->width && *dy + *by1 < rule->height;
    return true;
}

bool gg_resident_suits(const gg_rule *rule, const gg_pattern *p)
{
    if (!gg_rule_is_bounded(rule) || gg_rule_is_generations(rule) ||
        p->n_planes != 1 ||
        (rule->topo != GG_TOPO_TORUS && rule->topo != GG_TOPO_PLANE))
        return false;
    int64_t dx, dy, by0, by1;
    bool inside;
    if (!box_in_grid(rule, p, &dx, &dy, &by0, &by1, &inside))
        return true; /* an empty pattern: nothing to place */
    return inside && (by1 - by0 + 1) * 8 <= rule->height;
}

int gg_resident_from_pattern(gg_resident *r, const gg_rule *rule,
                             const gg_pattern *p, gg_err *err)
{
    memset(r, 0, sizeof *r);
    if (!gg_resident_suits(rule, p))
        return gg_fail(err, "this pattern and rule do not suit a universe "
                       "on the devices alone");
    r->rule = *rule;
    r->x0 = -(rule->width / 2);
    r->y0 = -(rule->height / 2);
    r->generation = p->generation;
    int64_t dx, dy, by0, by1;
    bool inside;
    if (!box_in_grid(rule, p, &dx, &dy, &by0, &by1, &inside))
        return 0;
    r->seed_y = dy + by0;
    if (gg_grid_init(&r->seed, rule->width, by1 - by0 + 1, err))
        return -1;
    gg_grid_blit(&r->seed, &p->plane[0], dx, -by0);
    return 0;
}

int gg_resident_to_universe(gg_resident *r, gg_universe *u, gg_err *err)
{
    int bad = gg_universe_init(u, &r->rule, err);
    if (!bad) {
        if (r->seed.bits)
            gg_grid_blit(&u->grid, &r->seed, 0, r->seed_y);
        u->generation = r->generation;
    }
    gg_resident_free(r);
    return bad;
}

int gg_resident_start(gg_resident *r, gg_multi_band *m, gg_err *err)
{
    r->m = m;
    int bad = gg_multi_band_start_empty(m, r->rule.topo, r->rule.width,
                                        r->rule.height, err) ||
              (r->seed.bits &&
               gg_multi_band_put_rows(m, &r->seed, r->seed_y, err));
    gg_grid_free(&r->seed); /* up there now */
    return bad ? -1 : 0;
}

static int64_t call_step(void *ctx, int64_t n, gg_err *err)
{
    gg_resident *r = ctx;
    return gg_multi_band_step(r->m, n, err) ? -1 : n;
}

int gg_resident_run(gg_resident *r, int64_t gens, int64_t max_batch,
                    gg_progress_fn progress, void *progress_ctx,
                    gg_err *err)
{
    if (!r->m)
        return gg_fail(err, "the resident universe was not started");
    if (gg_generations_check(r->generation, gens, err))
        return -1;
    gg_batch batch;
    gg_batch_init(&batch, max_batch, 0);
    gg_batch_calls calls = {NULL, call_step, r, NULL};
    return gg_batch_run(&batch, &calls, gens, &r->generation, progress,
                        progress_ctx, err);
}

int gg_resident_finish(gg_resident *r, gg_universe *u, gg_err *err)
{
    memset(u, 0, sizeof *u);
    int64_t h = r->rule.height, first = -1, last = -1;
    uint8_t *live = malloc((size_t)h);
    if (!live)
        return gg_fail(err, "out of memory for %lld row flags", (long long)h);
    int bad = gg_multi_band_live_rows(r->m, 0, h, live, err);
    for (int64_t y = 0; !bad && y < h; y++)
        if (live[y]) {
            first = first < 0 ? y : first;
            last = y;
        }
    free(live);
    if (bad)
        return -1;
    u->rule = r->rule;
    u->generation = r->generation;
    u->x0 = r->x0;
    u->y0 = r->y0 + (first < 0 ? 0 : first);
    if (gg_grid_init(&u->grid, r->rule.width, first < 0 ? 1 : last - first + 1,
                     err))
        return -1;
    if (first >= 0 && gg_multi_band_get_rows(r->m, &u->grid, first, err)) {
        gg_universe_free(u);
        return -1;
    }
    return 0;
}

void gg_resident_free(gg_resident *r)
{
    gg_grid_free(&r->seed);
    r->m = NULL;
}
