#include "gen_universe.h"

#include <stdlib.h>
#include <string.h>

#include "reference_gen.h"
#include "rule_gen.h"

static int check_states(const gg_rule *rule, const gg_pattern *p,
                        gg_err *err)
{
    int top = gg_pattern_max_state(p);
    if (top < rule->states)
        return 0;
    char text[128];
    gg_rule_format(rule, text, sizeof text);
    return gg_fail(err, "the pattern has cells in state %d, but %s has "
                   "states 0..%d; give a rule with more states",
                   top, text, rule->states - 1);
}

/* Where the pattern's box goes: as universe.c's place(), an unpositioned
 * pattern is placed as if the file had named `rule` (centred on a bounded
 * grid); a #CXRLE Pos is kept. */
static void place(const gg_rule *rule, const gg_pattern *p, int64_t *x,
                  int64_t *y)
{
    char text[128];
    int64_t w = gg_pattern_width(p), h = gg_pattern_height(p), fx, fy;
    gg_pattern_default_pos(p->rule ? p->rule : "", w, h, &fx, &fy);
    *x = p->x, *y = p->y;
    if (!p->positioned && *x == fx && *y == fy) {
        gg_rule_format(rule, text, sizeof text);
        gg_pattern_default_pos(text, w, h, x, y);
    }
}

/* The pattern's planes as cells (its missing upper planes are 0; planes
 * above the rule's are 0 after check_states). */
static int pattern_cells(const gg_pattern *p, int n_planes,
                         gg_gen_cells *c, gg_err *err)
{
    int64_t w = gg_pattern_width(p), h = gg_pattern_height(p);
    if (gg_gen_cells_init(c, n_planes, w ? w : 1, h ? h : 1, err))
        return -1;
    for (int i = 0; i < n_planes && i < p->n_planes && w; i++)
        gg_grid_blit(&c->plane[i], &p->plane[i], 0, 0);
    return 0;
}

static int fit_bounded(gg_gen_universe *u, const gg_gen_cells *box,
                       int64_t px, int64_t py, gg_err *err)
{
    const gg_rule *r = &u->rule;
    u->x0 = -(r->width / 2);
    u->y0 = -(r->height / 2);
    int64_t bx0, by0, bx1, by1;
    if (gg_gen_cells_bbox(box, &bx0, &by0, &bx1, &by1) &&
        (px + bx0 < u->x0 || py + by0 < u->y0 ||
         px + bx1 >= u->x0 + r->width || py + by1 >= u->y0 + r->height))
        return gg_fail(err, "the pattern's cells (x %lld..%lld, y "
                       "%lld..%lld) lie outside the %lldx%lld grid of the "
                       "rule; move the pattern (#CXRLE Pos) or use a "
                       "larger grid", (long long)(px + bx0),
                       (long long)(px + bx1), (long long)(py + by0),
                       (long long)(py + by1), (long long)r->width,
                       (long long)r->height);
    if (gg_gen_cells_init(&u->cells, box->n_planes, r->width, r->height,
                          err))
        return -1;
    gg_gen_cells_blit(&u->cells, box, px - u->x0, py - u->y0);
    return 0;
}

int gg_gen_universe_from_pattern(gg_gen_universe *u, const gg_rule *rule,
                                 const gg_pattern *p, gg_err *err)
{
    memset(u, 0, sizeof *u);
    if (!gg_rule_is_generations(rule))
        return gg_fail(err, "not a Generations rule");
    if (check_states(rule, p, err))
        return -1;
    u->rule = *rule;
    u->generation = p->generation;
    gg_gen_cells box;
    if (pattern_cells(p, gg_gen_planes(rule->states), &box, err))
        return -1;
    int64_t px, py;
    place(rule, p, &px, &py);
    if (gg_rule_is_bounded(rule)) {
        int bad = fit_bounded(u, &box, px, py, err);
        gg_gen_cells_free(&box);
        return bad;
    }
    u->cells = box; /* the unbounded plane starts as the pattern's box */
    u->x0 = px;
    u->y0 = py;
    return 0;
}

/* Unbounded plane: room for the next batch (no B0 in Generations, so an
 * all-0 grid stays so). */
static int ensure_margin(gg_gen_universe *u, int64_t margin, gg_err *err)
{
    return gg_gen_cells_keep_margin(&u->cells, &u->x0, &u->y0, margin, err);
}

static int reference_step(void *ctx, const gg_rule *rule, gg_topo topo,
                          gg_gen_cells *cells, int64_t gens, gg_err *err)
{
    (void)ctx;
    return gg_reference_gen_run(rule, topo, cells, gens, err);
}

gg_gen_stepper gg_reference_gen_stepper(void)
{
    gg_gen_stepper s = {.name = "reference", .step = reference_step,
                        .max_batch = 64};
    return s;
}

/* A run's calls (gg_batch_run): the stepper, and the unbounded plane's
 * margin before each. */
typedef struct run_calls {
    gg_gen_universe *u;
    const gg_gen_stepper *s;
    gg_topo topo;
} run_calls;

static int margin_before(void *ctx, int64_t n, gg_err *err)
{
    return ensure_margin(((run_calls *)ctx)->u, n + 1, err);
}

static int64_t plane_cap(void *ctx)
{
    return gg_gen_cells_plane_cap(&((run_calls *)ctx)->u->cells);
}

/* One call: step_until where the stepper has it and a stop flag, so a
 * long call ends at a stop; the generations run, -1 on failure. */
static int64_t call_step(void *ctx, int64_t n, gg_err *err)
{
    run_calls *r = ctx;
    const gg_gen_stepper *s = r->s;
    gg_gen_universe *u = r->u;
    if (s->stop && s->step_until)
        return s->step_until(s->ctx, &u->rule, r->topo, &u->cells, n,
                             s->stop, err);
    return s->step(s->ctx, &u->rule, r->topo, &u->cells, n, err) ? -1 : n;
}

int gg_gen_universe_run(gg_gen_universe *u, const gg_gen_stepper *s,
                        int64_t gens, gg_progress_fn progress,
                        void *progress_ctx, gg_err *err)
{
    if (gg_generations_check(u->generation, gens, err))
        return -1;
    bool bounded = gg_rule_is_bounded(&u->rule);
    gg_topo topo = bounded ? u->rule.topo : GG_TOPO_PLANE;
    /* bounded grids run in one call (no margin to keep) unless progress
     * (and stops) are watched: then batches as two-state runs take */
    gg_batch batch;
    gg_batch_init(&batch, s->max_batch, 0);
    if (bounded && !progress)
        batch.size = gens > 0 ? gens : 1;
    run_calls r = {u, s, topo};
    gg_batch_calls calls = {bounded ? NULL : margin_before, call_step, &r,
                            bounded ? NULL : plane_cap};
    return gg_batch_run(&batch, &calls, gens, &u->generation, progress,
                        progress_ctx, err);
}

int gg_gen_universe_to_pattern(const gg_gen_universe *u, gg_pattern *p,
                               gg_err *err)
{
    memset(p, 0, sizeof *p);
    char rule[128];
    gg_rule_format(&u->rule, rule, sizeof rule);
    int64_t x0 = 0, y0 = 0, x1 = -1, y1 = -1;
    gg_gen_cells_bbox(&u->cells, &x0, &y0, &x1, &y1);
    if (gg_pattern_init(p, x1 - x0 + 1, y1 - y0 + 1, u->cells.n_planes,
                        err))
        return -1;
    p->rule = strdup(rule);
    if (!p->rule) {
        gg_pattern_free(p);
        return gg_fail(err, "out of memory");
    }
    for (int i = 0; i < u->cells.n_planes && x1 >= x0; i++)
        gg_grid_blit(&p->plane[i], &u->cells.plane[i], -x0, -y0);
    p->x = u->x0 + x0;
    p->y = u->y0 + y0;
    p->generation = u->generation;
    p->multistate = u->rule.states > 2; /* bgolly: letters past 2 states */
    return 0;
}

int64_t gg_gen_universe_population(const gg_gen_universe *u)
{
    return gg_gen_cells_population(&u->cells);
}

void gg_gen_universe_free(gg_gen_universe *u)
{
    gg_gen_cells_free(&u->cells);
    memset(u, 0, sizeof *u);
}
