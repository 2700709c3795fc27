#include "universe.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reference.h"

static int reference_step(void *ctx, const gg_rule *rule, gg_topo topo,
                          gg_grid *grid, int64_t gens, gg_err *err)
{
    (void)ctx;
    return gg_reference_run(rule, topo, grid, gens, err);
}

gg_stepper gg_reference_stepper(void)
{
    gg_stepper s = {.name = "reference", .step = reference_step, .max_batch = 64};
    return s;
}

/* A Generations rule's dying states would be lost in one plane: refuse it
 * at every door of the two-state universe (issue 42: a store took one and
 * run stepped it as a two-state rule). */
static int two_states(const gg_rule *rule, gg_err *err)
{
    char text[128];
    if (!gg_rule_is_generations(rule))
        return 0;
    gg_rule_format(rule, text, sizeof text);
    return gg_fail(err, "%s is a Generations rule; a two-state universe "
                   "cannot hold its states (gg_gen_universe does)", text);
}

int gg_universe_init(gg_universe *u, const gg_rule *rule, gg_err *err)
{
    memset(u, 0, sizeof *u);
    if (two_states(rule, err))
        return -1;
    u->rule = *rule;
    if (!gg_rule_is_bounded(rule))
        return gg_fail(err, "an empty universe needs a bounded rule (:TW,H "
                       "or :PW,H)");
    u->x0 = -(rule->width / 2);
    u->y0 = -(rule->height / 2);
    return gg_grid_init(&u->grid, rule->width, rule->height, err);
}

static int check_pattern(const gg_rule *rule, const gg_pattern *p, gg_err *err)
{
    char text[128];
    if (two_states(rule, err))
        return -1;
    /* one scan: on a huge sparse box it is the cost of the check */
    int top = p->n_planes > 1 ? gg_pattern_max_state(p) : 0;
    if (top > 1)
        return gg_fail(err, "the pattern has cells in state %d, but %s has "
                       "two states (0 and 1); give a Generations rule such "
                       "as /2/%d (--rule) for more", top,
                       (gg_rule_format(rule, text, sizeof text), text),
                       top + 1);
    if (!gg_rule_is_bounded(rule) && gg_rule_has_b0(rule))
        return gg_fail(err, "B0 rules turn the whole unbounded plane on in "
                       "one generation; give a bounded grid such as "
                       ":T1024,1024 (see README: B0 rules)");
    return 0;
}

/* Where the pattern goes under `rule`. Golly places a pattern when it reads
 * it, by the file's rule. A pattern the file did not position (no #CXRLE
 * Pos; other formats: it sits at the file rule's default place) is placed
 * as if the file had named `rule`: so a soup run under --rule
 * B3/S23:T400,400 is centred in the torus. A Pos the file gives is kept,
 * also Pos=0,0, which golgen itself writes. (`bgolly -r` keeps the file
 * rule's place instead; README says so.) */
void gg_universe_place(const gg_rule *rule, const gg_pattern *p, int64_t *x,
                       int64_t *y)
{
    char text[128];
    int64_t w = p->plane[0].width, h = p->plane[0].height, fx, fy;
    gg_pattern_default_pos(p->rule ? p->rule : "", w, h, &fx, &fy);
    *x = p->x, *y = p->y;
    if (!p->positioned && *x == fx && *y == fy) {
        gg_rule_format(rule, text, sizeof text);
        gg_pattern_default_pos(text, w, h, x, y);
    }
}

int gg_universe_from_pattern(gg_universe *u, const gg_rule *rule,
                             const gg_pattern *p, gg_err *err)
{
    memset(u, 0, sizeof *u);
    if (check_pattern(rule, p, err))
        return -1;
    const gg_grid *cells = &p->plane[0];
    int64_t px, py;
    gg_universe_place(rule, p, &px, &py);
    if (gg_rule_is_bounded(rule)) {
        if (gg_universe_init(u, rule, err))
            return -1;
        int64_t bx0, by0, bx1, by1;
        if (gg_grid_bbox(cells, &bx0, &by0, &bx1, &by1) &&
            (px + bx0 < u->x0 || py + by0 < u->y0 ||
             px + bx1 >= u->x0 + rule->width ||
             py + by1 >= u->y0 + rule->height)) {
            int64_t bw = bx1 - bx0 + 1, bh = by1 - by0 + 1;
            int64_t gx = u->x0, gy = u->y0; /* the grid's first cell */
            gg_universe_free(u);
            if (bw <= rule->width && bh <= rule->height)
                return gg_fail(err, "the pattern's live cells (x %lld..%lld, "
                               "y %lld..%lld) lie outside the %lldx%lld grid "
                               "of the rule (x %lld..%lld, y %lld..%lld); "
                               "move the pattern (#CXRLE Pos) or use a "
                               "larger grid", (long long)(px + bx0),
                               (long long)(px + bx1), (long long)(py + by0),
                               (long long)(py + by1), (long long)rule->width,
                               (long long)rule->height, (long long)gx,
                               (long long)(gx + rule->width - 1),
                               (long long)gy,
                               (long long)(gy + rule->height - 1));
            return gg_fail(err, "the pattern (%lldx%lld live box) does not "
                           "fit in the %lldx%lld grid of the rule; use a "
                           "larger grid", (long long)bw, (long long)bh,
                           (long long)rule->width, (long long)rule->height);
        }
        gg_grid_blit(&u->grid, cells, px - u->x0, py - u->y0);
    } else {
        u->rule = *rule;
        /* An empty pattern has a 0x0 box: start from one dead cell. */
        int bad = cells->width ? gg_grid_copy(&u->grid, cells, err)
                               : gg_grid_init(&u->grid, 1, 1, err);
        if (bad)
            return -1;
        u->x0 = px;
        u->y0 = py;
    }
    u->generation = p->generation;
    return 0;
}

/* Unbounded plane: make sure `margin` dead cells surround the live box,
 * cropping to box + slack on every side when they do not. */
static int ensure_margin(gg_universe *u, int64_t margin, gg_err *err)
{
    int64_t x0, y0, x1, y1;
    if (!gg_grid_bbox(&u->grid, &x0, &y0, &x1, &y1))
        return 0; /* nothing alive stays so without B0 */
    if (x0 >= margin && y0 >= margin && x1 + margin < u->grid.width &&
        y1 + margin < u->grid.height)
        return 0;
    int64_t w = x1 - x0 + 1, h = y1 - y0 + 1;
    /* Slack grows with the pattern so regrowth stays rare. */
    int64_t sx = gg_plane_slack(margin, w), sy = gg_plane_slack(margin, h);
    gg_grid bigger;
    if (gg_grid_init(&bigger, w + 2 * sx, h + 2 * sy, err))
        return -1;
    gg_grid_blit(&bigger, &u->grid, sx - x0, sy - y0);
    gg_grid_free(&u->grid);
    u->grid = bigger;
    u->x0 += x0 - sx;
    u->y0 += y0 - sy;
    return 0;
}

int gg_generations_check(int64_t generation, int64_t gens, gg_err *err)
{
    if (gens < 0)
        return gg_fail(err, "generation count %lld is negative",
                       (long long)gens);
    if (generation < 0 || gens > INT64_MAX - generation)
        return gg_fail(err, "generation %lld + %lld more would pass %lld, "
                       "the last generation golgen counts to; run fewer",
                       (long long)generation, (long long)gens,
                       (long long)INT64_MAX);
    return 0;
}

/* A run's calls (gg_batch_run): the stepper, and the unbounded plane's
 * margin before each. */
typedef struct run_calls {
    gg_universe *u;
    const gg_stepper *s;
    gg_topo topo;
} run_calls;

static int margin_before(void *ctx, int64_t n, gg_err *err)
{
    return ensure_margin(((run_calls *)ctx)->u, n + 1, err);
}

static int64_t plane_cap(void *ctx)
{
    run_calls *r = ctx;
    return gg_plane_batch_cap(r->u->grid.width, r->u->grid.height,
                              r->s->min_batch);
}

/* One call: step_until where the stepper has it and a stop flag, so a
 * long call ends at a stop; the generations run, -1 on failure. */
static int64_t call_step(void *ctx, int64_t n, gg_err *err)
{
    run_calls *r = ctx;
    const gg_stepper *s = r->s;
    gg_universe *u = r->u;
    if (s->stop && s->step_until)
        return s->step_until(s->ctx, &u->rule, r->topo, &u->grid, n, s->stop,
                             err);
    return s->step(s->ctx, &u->rule, r->topo, &u->grid, n, err) ? -1 : n;
}

int gg_universe_run(gg_universe *u, const gg_stepper *s, int64_t gens,
                    gg_progress_fn progress, void *progress_ctx, gg_err *err)
{
    if (two_states(&u->rule, err) ||
        gg_generations_check(u->generation, gens, err))
        return -1;
    bool bounded = gg_rule_is_bounded(&u->rule);
    gg_topo topo = bounded ? u->rule.topo : GG_TOPO_PLANE;
    /* the unbounded plane regrows between batches: it needs its grid */
    bool held = bounded && s->hold && gens > 0;
    if (held && s->hold(s->ctx, topo, &u->grid, err))
        return -1;
    gg_batch batch;
    gg_batch_init(&batch, s->max_batch, s->min_batch);
    run_calls r = {u, s, topo};
    gg_batch_calls calls = {bounded ? NULL : margin_before, call_step, &r,
                            bounded ? NULL : plane_cap};
    int bad = gg_batch_run(&batch, &calls, gens, &u->generation, progress,
                           progress_ctx, err);
    gg_err later; /* a failed step's message is the one reported */
    if (held && s->drop(s->ctx, &u->grid, bad ? &later : err))
        bad = -1;
    return bad;
}

int64_t gg_universe_population(const gg_universe *u)
{
    return gg_grid_population(&u->grid);
}

int gg_universe_to_pattern(const gg_universe *u, gg_pattern *p, gg_err *err)
{
    memset(p, 0, sizeof *p);
    char rule[128];
    gg_rule_format(&u->rule, rule, sizeof rule);
    p->rule = strdup(rule);
    if (!p->rule)
        return gg_fail(err, "out of memory");
    p->n_planes = 1;
    p->generation = u->generation;
    int64_t x0, y0, x1, y1;
    if (!gg_grid_bbox(&u->grid, &x0, &y0, &x1, &y1))
        return 0; /* empty: a 0x0 box, as pattern.h describes */
    if (gg_grid_init(&p->plane[0], x1 - x0 + 1, y1 - y0 + 1, err)) {
        gg_pattern_free(p);
        return -1;
    }
    gg_grid_blit(&p->plane[0], &u->grid, -x0, -y0);
    p->x = u->x0 + x0;
    p->y = u->y0 + y0;
    return 0;
}

void gg_universe_free(gg_universe *u)
{
    gg_grid_free(&u->grid);
    memset(u, 0, sizeof *u);
}
