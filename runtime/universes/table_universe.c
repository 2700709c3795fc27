#include "table_universe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "picture.h"
#include "reference_table.h"
#include "rule_gen.h"
#include "store.h"

static int check_states(const gg_table_universe *u, const gg_pattern *p,
                        gg_err *err)
{
    int top = gg_pattern_max_state(p);
    if (top < u->rf->n_states)
        return 0;
    return gg_fail(err, "the pattern has cells in state %d, but %s has "
                   "states 0..%d", top, u->rule, u->rf->n_states - 1);
}

/* Where the pattern's box goes: a #CXRLE Pos (or an MCell file's own
 * placing) is kept; otherwise Golly's default for the rule's grid. */
static void place(const gg_table_universe *u, const gg_pattern *p,
                  int64_t *x, int64_t *y)
{
    int64_t w = gg_pattern_width(p), h = gg_pattern_height(p), fx, fy;
    gg_pattern_default_pos(p->rule ? p->rule : "", w, h, &fx, &fy);
    *x = p->x, *y = p->y;
    if (!p->positioned && *x == fx && *y == fy)
        gg_pattern_default_pos(u->rule, w, h, x, y);
}

static int fit_bounded(gg_table_universe *u, const gg_gen_cells *box,
                       int64_t px, int64_t py, gg_err *err)
{
    u->x0 = -(u->width / 2);
    u->y0 = -(u->height / 2);
    int64_t bx0, by0, bx1, by1;
    if (gg_gen_cells_bbox(box, &bx0, &by0, &bx1, &by1) &&
        (px + bx0 < u->x0 || py + by0 < u->y0 ||
         px + bx1 >= u->x0 + u->width || py + by1 >= u->y0 + u->height))
        return gg_fail(err, "the pattern's cells (x %lld..%lld, y "
                       "%lld..%lld) lie outside the %lldx%lld grid of %s",
                       (long long)(px + bx0), (long long)(px + bx1),
                       (long long)(py + by0), (long long)(py + by1),
                       (long long)u->width, (long long)u->height, u->rule);
    if (gg_gen_cells_init(&u->cells, box->n_planes, u->width, u->height,
                          err))
        return -1;
    gg_gen_cells_blit(&u->cells, box, px - u->x0, py - u->y0);
    return 0;
}

int gg_table_universe_from_pattern(gg_table_universe *u,
                                   const gg_rulefile *rf, const char *rule,
                                   gg_topo topo, int64_t width,
                                   int64_t height, const gg_pattern *p,
                                   gg_err *err)
{
    memset(u, 0, sizeof *u);
    u->rf = rf;
    snprintf(u->rule, sizeof u->rule, "%s", rule);
    u->topo = topo;
    u->width = width;
    u->height = height;
    u->generation = p->generation;
    if (check_states(u, p, err))
        return -1;
    if (topo == GG_TOPO_UNBOUNDED && !gg_rulefile_zero_stays(rf))
        return gg_fail(err, "%s turns a state-0 cell amid state-0 cells "
                       "into state %d, which would fill the unbounded "
                       "plane; run it on a bounded grid (%s:T100,100)",
                       u->rule, gg_rulefile_next(rf, (uint8_t[9]){0}),
                       u->rule);
    int64_t w = gg_pattern_width(p), h = gg_pattern_height(p);
    gg_gen_cells box;
    int planes = gg_gen_planes(rf->n_states);
    if (gg_gen_cells_init(&box, planes, w ? w : 1, h ? h : 1, err))
        return -1;
    for (int i = 0; i < planes && i < p->n_planes && w; i++)
        gg_grid_blit(&box.plane[i], &p->plane[i], 0, 0);
    int64_t px, py;
    place(u, p, &px, &py);
    if (topo != GG_TOPO_UNBOUNDED) {
        int bad = fit_bounded(u, &box, px, py, err);
        gg_gen_cells_free(&box);
        return bad;
    }
    u->cells = box; /* the unbounded plane starts as the pattern's box */
    u->x0 = px;
    u->y0 = py;
    return 0;
}

/* A run's calls (gg_batch_run): the kernel or the reference, and the
 * unbounded plane's margin before each. */
typedef struct run_calls {
    gg_table_universe *u;
    gg_topo topo;
    gg_stop_flag *stop;
} run_calls;

static int margin_before(void *ctx, int64_t n, gg_err *err)
{
    gg_table_universe *u = ((run_calls *)ctx)->u;
    return gg_gen_cells_keep_margin(&u->cells, &u->x0, &u->y0, n + 1, err);
}

static int64_t plane_cap(void *ctx)
{
    return gg_gen_cells_plane_cap(&((run_calls *)ctx)->u->cells);
}

/* The generations run (0 at a stop the kernel cannot poll), -1 on
 * failure. */
static int64_t call_step(void *ctx, int64_t n, gg_err *err)
{
    run_calls *r = ctx;
    gg_table_universe *u = r->u;
    if (!u->step)
        return gg_reference_table_run(u->rf, r->topo, &u->cells, n, r->stop,
                                      err);
    if (gg_stop_asked(r->stop))
        return 0;
    return u->step(u->step_ctx, r->topo, &u->cells, n, err) ? -1 : n;
}

int gg_table_universe_run(gg_table_universe *u, int64_t gens,
                          gg_stop_flag *stop, gg_progress_fn progress,
                          void *progress_ctx, gg_err *err)
{
    if (gg_generations_check(u->generation, gens, err))
        return -1;
    bool bounded = u->topo != GG_TOPO_UNBOUNDED;
    gg_batch batch;
    /* the plane regrows between batches; a kernel does not poll stop */
    gg_batch_init(&batch, u->step ? 256 : 64, 0);
    if (bounded && !progress && !u->step)
        batch.size = gens > 0 ? gens : 1;
    run_calls r = {u, bounded ? u->topo : GG_TOPO_PLANE, stop};
    gg_batch_calls calls = {bounded ? NULL : margin_before, call_step, &r,
                            bounded ? NULL : plane_cap};
    return gg_batch_run(&batch, &calls, gens, &u->generation, progress,
                        progress_ctx, err);
}

int gg_table_universe_to_pattern(const gg_table_universe *u, gg_pattern *p,
                                 gg_err *err)
{
    memset(p, 0, sizeof *p);
    int64_t x0 = 0, y0 = 0, x1 = -1, y1 = -1;
    gg_gen_cells_bbox(&u->cells, &x0, &y0, &x1, &y1);
    if (gg_pattern_init(p, x1 - x0 + 1, y1 - y0 + 1, u->cells.n_planes,
                        err))
        return -1;
    p->rule = strdup(u->rule);
    if (!p->rule) {
        gg_pattern_free(p);
        return gg_fail(err, "out of memory");
    }
    for (int i = 0; i < u->cells.n_planes && x1 >= x0; i++)
        gg_grid_blit(&p->plane[i], &u->cells.plane[i], -x0, -y0);
    p->x = u->x0 + x0;
    p->y = u->y0 + y0;
    p->generation = u->generation;
    p->multistate = u->rf->n_states > 2; /* bgolly: letters past 2 */
    return 0;
}

int64_t gg_table_universe_population(const gg_table_universe *u)
{
    return gg_gen_cells_population(&u->cells);
}

void gg_table_universe_free(gg_table_universe *u)
{
    gg_gen_cells_free(&u->cells);
    memset(u, 0, sizeof *u);
}

/* ---- stores and pictures (the rule's name in the store) ---- */

int gg_table_universe_write_store(const char *path,
                                  const gg_table_universe *u, gg_err *err)
{
    return gg_store_write_cells(path, &u->cells, u->rule, u->generation,
                                u->x0, u->y0, err);
}

/* The store's header against the rule found for it: its planes, a
 * bounded grid's size, and no cell in a state the rule lacks (checksums
 * say only that the file was not damaged). */
static int store_fits(const gg_table_universe *u, const gg_store_info *s,
                      const char *path, gg_err *err)
{
    int planes = gg_gen_planes(u->rf->n_states);
    if (s->planes != planes)
        return gg_fail(err, "store %s: %s has %d states (%d plane%s), but "
                       "the store holds %d planes: another rule of that "
                       "name wrote it?", path, u->rule, u->rf->n_states,
                       planes, planes > 1 ? "s" : "", s->planes);
    if (u->topo != GG_TOPO_UNBOUNDED &&
        (s->width != u->width || s->height != u->height))
        return gg_fail(err, "store %s: its grid is %lldx%lld, but its rule "
                       "%s asks for %lldx%lld: the file is not what golgen "
                       "wrote", path, (long long)s->width,
                       (long long)s->height, u->rule, (long long)u->width,
                       (long long)u->height);
    if (u->topo == GG_TOPO_UNBOUNDED && !gg_rulefile_zero_stays(u->rf))
        return gg_fail(err, "store %s: %s fills the unbounded plane from "
                       "state 0; golgen stores it on bounded grids only",
                       path, u->rule);
    if (u->rf->n_states == 1 << planes)
        return 0;
    for (int64_t y = 0; y < s->height; y++)
        for (int64_t x = 0; x < s->width; x++) {
            int st = gg_gen_cells_get(&u->cells, x, y);
            if (st >= u->rf->n_states)
                return gg_fail(err, "store %s: the cell at (%lld, %lld) is "
                               "in state %d, but %s has states 0..%d: the "
                               "file is not what golgen wrote", path,
                               (long long)(s->x0 + x), (long long)(s->y0 + y),
                               st, u->rule, u->rf->n_states - 1);
        }
    return 0;
}

int gg_table_universe_read_store(gg_table_universe *u, const gg_rulefile *rf,
                                 const char *rule, gg_topo topo,
                                 int64_t width, int64_t height,
                                 const char *path, gg_err *err)
{
    gg_store_info s;
    memset(u, 0, sizeof *u);
    u->rf = rf;
    snprintf(u->rule, sizeof u->rule, "%s", rule);
    u->topo = topo;
    u->width = width;
    u->height = height;
    if (gg_store_read_cells(path, &u->cells, &s, err))
        return -1;
    if (strcmp(s.rule, rule)) {
        gg_fail(err, "store %s holds %s, not %s", path, s.rule, rule);
        gg_table_universe_free(u);
        return -1;
    }
    u->x0 = s.x0;
    u->y0 = s.y0;
    u->generation = s.generation;
    if (store_fits(u, &s, path, err)) {
        gg_table_universe_free(u);
        return -1;
    }
    return 0;
}

int gg_table_universe_write_picture(const char *path,
                                    const gg_table_universe *u,
                                    const gg_picture_opts *o,
                                    gg_picture_info *info, gg_err *err)
{
    return gg_picture_write_cells(path, &u->cells, u->rf->n_states,
                                  u->topo != GG_TOPO_UNBOUNDED, u->x0, u->y0,
                                  o, info, err);
}
