/* golgen_run_2d on Golly's grids beyond the torus and the plane (Klein
 * bottles, cross-surfaces, spheres, shifted tori, tubes and strips:
 * gen/rules/rule.h's gg_rule_has_ring_grid) for two-state rules,
 * Generations and Golly rule tables: the grid inside a bounded plane
 * whose ring runtime/universes/topo_ring.h refills before each batch, so
 * any backend that steps a plane steps these grids. An infinite side
 * (tubes, strips) regrows round the live cells as the unbounded plane
 * does. The dense engine only, and -o; other options are refused by
 * name. */
#include "run_topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rule_ltl.h"
#include "table_kernel.h"
#include "table_universe.h"
#include "topo_ring.h"

#define RING_TABLE_BATCH 16 /* a table kernel's k: its calls cost little */
#define RING_MAX_K 32       /* a wider ring costs more than its calls */

typedef enum ring_family { RING_TWO, RING_GEN, RING_TABLE } ring_family;

/* One run: the grid's map, the plane that holds it and the family's
 * universe round that plane. */
typedef struct ring_run {
    gg_run *r;
    gg_rule grid;     /* the topology as written (transition: Life) */
    gg_rule full;     /* two-state and Generations: the rule as written */
    char text[256];   /* the rule as Golly writes it */
    ring_family fam;
    int64_t k;        /* generations a batch, the ring's width */
    gg_universe u;
    gg_stepper st;
    gg_gen_universe g;
    gg_gen_stepper gst;
    gg_table_universe t;
    gg_table_kernel kernel;
    gg_rule_found found;
    gg_backend *b;
} ring_run;

/* The planes and where cell (0, 0) sits, whatever the family. */
static gg_grid *ring_planes(ring_run *x, int *n, int64_t **x0, int64_t **y0)
{
    switch (x->fam) {
    case RING_TWO:
        *n = 1, *x0 = &x->u.x0, *y0 = &x->u.y0;
        return &x->u.grid;
    case RING_GEN:
        *n = x->g.cells.n_planes, *x0 = &x->g.x0, *y0 = &x->g.y0;
        return x->g.cells.plane;
    default:
        *n = x->t.cells.n_planes, *x0 = &x->t.x0, *y0 = &x->t.y0;
        return x->t.cells.plane;
    }
}

static int64_t ring_generation(const ring_run *x)
{
    return x->fam == RING_TWO   ? x->u.generation
           : x->fam == RING_GEN ? x->g.generation
                                : x->t.generation;
}

/* ---- the rule ---- */

/* The pattern, read once as the later paths read it (the tree's way,
 * gg_run_read_input, for a file or the built-in pattern; cells for a
 * stream that can be read only once): they take r->pat as it is. */
static int read_pattern(gg_run *r, gg_err *err)
{
    const char *in = r->o->in;
    struct stat st;
    if (r->pat || !in ||
        (strcmp(in, "-") && !stat(in, &st) && S_ISREG(st.st_mode)))
        return gg_run_read_input(r, err);
    r->own_pat = true;
    return gg_lib_pattern_read(in, GOLGEN_PATTERN_CELLS, r->o->stop,
                               &r->pat, err);
}

/* ---- the plane round the grid ---- */

/* Where the pattern's box goes (as Golly places it on the grid), checked
 * to lie in the grid: q is p placed there. */
static int ring_place(const ring_run *x, const gg_pattern *p, gg_pattern *q,
                      gg_err *err)
{
    const gg_rule *g = &x->grid;
    *q = *p;
    gg_universe_place(g, p, &q->x, &q->y);
    q->positioned = true;
    int64_t bx0, by0, bx1, by1;
    bool any = p->n_planes && gg_grid_bbox(&p->plane[0], &bx0, &by0, &bx1,
                                           &by1);
    for (int i = 1; i < p->n_planes; i++)
        gg_grid_bbox_join(&p->plane[i], &any, &bx0, &by0, &bx1, &by1);
    if (!any)
        return 0;
    int64_t gx = -(g->width / 2), gy = -(g->height / 2);
    bool out_x = g->width && (q->x + bx0 < gx || q->x + bx1 >= gx + g->width);
    bool out_y = g->height &&
                 (q->y + by0 < gy || q->y + by1 >= gy + g->height);
    if (out_x || out_y)
        return gg_fail(err, "the pattern's live cells (x %lld..%lld, y "
                       "%lld..%lld) lie outside the grid of %s (x from %lld, "
                       "y from %lld); move the pattern or use a larger grid",
                       (long long)(q->x + bx0), (long long)(q->x + bx1),
                       (long long)(q->y + by0), (long long)(q->y + by1),
                       x->text, (long long)gx, (long long)gy);
    return 0;
}

/* An infinite side's extent: the live box with k + 2 dead cells beyond
 * it each way and as much again for growth, centred on 0 as the plane's
 * grid is. */
static int64_t open_side(int64_t lo, int64_t hi, int64_t k)
{
    int64_t m = 2 * (k + 2) + (hi - lo + 1) / 2;
    int64_t a = lo - m < 0 ? -(lo - m) : lo - m;
    int64_t b = hi + m < 0 ? -(hi + m) : hi + m;
    return 2 * (a > b ? a : b) + 2;
}

/* The plane rule ("...:PW,H") that holds the grid for ring width k, the
 * pattern q placed in it. */
static void plane_rule(const ring_run *x, const gg_pattern *q, gg_rule *pr)
{
    const gg_rule *g = &x->grid;
    int64_t lw = 1, lh = 1, bx0 = 0, by0 = 0, bx1 = 0, by1 = 0;
    bool any = q->n_planes && gg_grid_bbox(&q->plane[0], &bx0, &by0, &bx1,
                                           &by1);
    for (int i = 1; i < q->n_planes; i++)
        gg_grid_bbox_join(&q->plane[i], &any, &bx0, &by0, &bx1, &by1);
    if (!g->width)
        lw = open_side(any ? q->x + bx0 : 0, any ? q->x + bx1 : 0, x->k);
    if (!g->height)
        lh = open_side(any ? q->y + by0 : 0, any ? q->y + by1 : 0, x->k);
    pr->topo = GG_TOPO_PLANE;
    gg_ring_plane_size(g, x->k, lw, lh, &pr->width, &pr->height);
    pr->shift = 0;
    pr->vertical_edges = false;
}

/* An infinite side regrown (as the unbounded plane is) when live cells
 * come within k + 1 of its ends: the planes moved into larger ones. */
static int ring_regrow(ring_run *x, gg_err *err)
{
    int n;
    int64_t *x0, *y0;
    gg_grid *pl = ring_planes(x, &n, &x0, &y0);
    if (x->grid.width && x->grid.height)
        return 0;
    int64_t bx0, by0, bx1, by1, w = pl[0].width, h = pl[0].height;
    bool any = gg_grid_bbox(&pl[0], &bx0, &by0, &bx1, &by1);
    for (int i = 1; i < n; i++)
        gg_grid_bbox_join(&pl[i], &any, &bx0, &by0, &bx1, &by1);
    int64_t need = x->k + 1;
    bool tight = any && (x->grid.width ? by0 < need || by1 >= h - need
                                       : bx0 < need || bx1 >= w - need);
    if (!tight)
        return 0;
    bool grow_x = !x->grid.width;
    int64_t side = grow_x ? w : h, add = side / 2 + 4 * need;
    int64_t nw = grow_x ? w + 2 * add : w, nh = grow_x ? h : h + 2 * add;
    for (int i = 0; i < n; i++) {
        gg_grid bigger;
        if (gg_grid_init(&bigger, nw, nh, err))
            return -1;
        gg_grid_blit(&bigger, &pl[i], grow_x ? add : 0, grow_x ? 0 : add);
        gg_grid_free(&pl[i]);
        pl[i] = bigger;
    }
    *(grow_x ? x0 : y0) -= add;
    return 0;
}

/* ---- the families ---- */

/* A two-state or Generations rule's backend, opened for the plane of a
 * ring of 1 (sizes are hints only), then the ring as wide as its batch
 * lets (up to RING_MAX_K) and the universe on that plane. */
static int open_backend_rule(ring_run *x, const gg_rule *rule,
                             const gg_pattern *q, int *status, gg_err *err)
{
    gg_rule pr = *rule;
    x->k = 1;
    plane_rule(x, q, &pr);
    gg_backend_opts bo = {.config = &x->r->cfg,
                          .announce = x->r->o->announce != 0,
                          .width_hint = pr.width, .height_hint = pr.height};
    if (gg_run_open_backend(x->r, x->r->backend, &pr, &bo, &x->b, status,
                            err))
        return -1;
    int64_t batch;
    if (x->fam == RING_TWO) {
        x->st = gg_backend_stepper(x->b);
        x->st.stop = x->r->o->stop;
        batch = x->st.max_batch;
    } else {
        x->gst = gg_backend_gen_stepper(x->b);
        x->gst.stop = x->r->o->stop;
        batch = x->gst.max_batch;
    }
    x->k = gg_ring_depth(&x->grid, batch > 0 && batch < RING_MAX_K
                                       ? batch
                                       : RING_MAX_K);
    plane_rule(x, q, &pr);
    *status = GG_RUN_USAGE;
    return x->fam == RING_TWO ? gg_universe_from_pattern(&x->u, &pr, q, err)
                              : gg_gen_universe_from_pattern(&x->g, &pr, q,
                                                             err);
}

/* A rule table's kernel as lib/run_family.c opens it. */
static int open_table(ring_run *x, const gg_pattern *q, int *status,
                      gg_err *err)
{
    gg_rule pr = x->grid;
    plane_rule(x, q, &pr);
    char ptext[256], name[160];
    snprintf(name, sizeof name, "%.*s",
             (int)strcspn(x->text, ":") & 127, x->text);
    snprintf(ptext, sizeof ptext, "%s:P%lld,%lld", name,
             (long long)pr.width, (long long)pr.height);
    if (gg_table_universe_from_pattern(&x->t, &x->found.rf, ptext,
                                       GG_TOPO_PLANE, pr.width, pr.height, q,
                                       err) ||
        gg_run_open_table(x->r, &x->found.rf, name, false, &x->kernel,
                          status, err))
        return -1;
    x->t.step = x->kernel.step;
    x->t.step_ctx = x->kernel.ctx;
    return 0;
}

/* k generations of the plane after the ring is refilled. */
static int ring_batch(ring_run *x, int64_t k, gg_err *err)
{
    int n;
    int64_t *x0, *y0;
    if (ring_regrow(x, err))
        return -1;
    gg_grid *pl = ring_planes(x, &n, &x0, &y0);
    gg_ring_fill(&x->grid, x->k, pl, n, false);
    switch (x->fam) {
    case RING_TWO:
        return gg_universe_run(&x->u, &x->st, k, NULL, NULL, err);
    case RING_GEN:
        return gg_gen_universe_run(&x->g, &x->gst, k, NULL, NULL, err);
    default:
        return gg_table_universe_run(&x->t, k, x->r->o->stop, NULL, NULL,
                                     err);
    }
}

/* The ring emptied and the rule written as given: what -o and the
 * population see. */
static void ring_settle(ring_run *x)
{
    int n;
    int64_t *x0, *y0;
    gg_grid *pl = ring_planes(x, &n, &x0, &y0);
    gg_ring_fill(&x->grid, x->k, pl, n, true);
    if (x->fam == RING_TWO)
        x->u.rule = x->full;
    else if (x->fam == RING_GEN)
        x->g.rule = x->full;
    else
        snprintf(x->t.rule, sizeof x->t.rule, "%.191s", x->text);
}

static int ring_write(ring_run *x, const char *out, gg_err *err)
{
    gg_pattern p;
    int bad = x->fam == RING_TWO   ? gg_universe_to_pattern(&x->u, &p, err)
              : x->fam == RING_GEN ? gg_gen_universe_to_pattern(&x->g, &p,
                                                                err)
                                   : gg_table_universe_to_pattern(&x->t, &p,
                                                                  err);
    if (bad)
        return -1;
    bad = gg_run_save_pattern(out, &p, err);
    gg_pattern_free(&p);
    return bad;
}

/* The generations in batches of k, progress and stops between them. */
static int ring_steps(ring_run *x, gg_err *err)
{
    gg_run *r = x->r;
    gg_run_prog prog = {.r = r};
    int64_t gens = r->o->gens, first = ring_generation(x);
    for (int64_t done = 0; done < gens && !gg_run_stop_asked(r);) {
        int64_t k = gens - done < x->k ? gens - done : x->k;
        if (ring_batch(x, k, err))
            return -1;
        int64_t ran = ring_generation(x) - first - done;
        done += ran;
        /* a batch cut short was stopped inside */
        if (ran < k || (done < gens && !gg_run_progress(&prog, done, gens)))
            break;
    }
    return 0;
}

/* An infinite side regrows round cells that are not 0; a rule under
 * which 0 amid 0s does not stay 0 (B0) would fill it at once. */
static int ring_infinite_b0(const ring_run *x, gg_err *err)
{
    bool open = !x->grid.width || !x->grid.height;
    bool b0 = x->fam == RING_TABLE ? !gg_rulefile_zero_stays(&x->found.rf)
                                   : gg_rule_has_b0(&x->full);
    if (open && b0)
        return gg_fail(err, "%s turns a dead cell amid dead cells alive "
                       "(B0), which golgen does not run on a side without "
                       "end yet; give both sides a size", x->text);
    return 0;
}

/* The family's universe, backend and ring width: a status. */
static int ring_open(ring_run *x, const gg_pattern *p, gg_err *err)
{
    gg_pattern q;
    int status = GG_RUN_USAGE;
    if (ring_infinite_b0(x, err) || ring_place(x, p, &q, err))
        return GG_RUN_USAGE;
    if (x->fam == RING_TABLE) {
        x->k = gg_ring_depth(&x->grid, RING_TABLE_BATCH);
        return open_table(x, &q, &status, err) ? status : GG_RUN_OK;
    }
    return open_backend_rule(x, &x->full, &q, &status, err) ? status
                                                         : GG_RUN_OK;
}

static void ring_close(ring_run *x)
{
    if (x->fam == RING_TWO)
        gg_universe_free(&x->u);
    else if (x->fam == RING_GEN)
        gg_gen_universe_free(&x->g);
    else
        gg_table_universe_free(&x->t);
    if (x->b)
        gg_backend_close(x->b);
    if (x->kernel.close)
        x->kernel.close(x->kernel.ctx);
    if (x->fam == RING_TABLE)
        gg_rule_found_free(&x->found);
}

/* Run, write and say: a status. */
static int ring_go(ring_run *x, const gg_pattern *p, gg_err *err)
{
    gg_run *r = x->r;
    golgen_run2d_result *res = r->res;
    int status = ring_open(x, p, err);
    if (status)
        return status;
    snprintf(res->backend, sizeof res->backend, "%s",
             x->b ? gg_backend_of(x->b)->name : x->kernel.backend);
    int64_t first = ring_generation(x);
    double start = gg_run_now();
    int bad = gg_generations_check(first, r->o->gens, err) ||
              ring_steps(x, err);
    res->seconds = gg_run_now() - start;
    ring_settle(x);
    res->reached = ring_generation(x) - first;
    res->generation = ring_generation(x);
    if (bad)
        return GG_RUN_ENV;
    res->ran = 1;
    if (r->o->out && ring_write(x, r->o->out, err))
        return GG_RUN_USAGE;
    res->written = r->o->out != NULL;
    int n;
    int64_t *x0, *y0;
    gg_grid *pl = ring_planes(x, &n, &x0, &y0);
    gg_gen_cells all = {.n_planes = n};
    memcpy(all.plane, pl, (size_t)n * sizeof *pl);
    res->population = gg_gen_cells_population(&all);
    snprintf(res->engine, sizeof res->engine, "dense");
    snprintf(res->rule, sizeof res->rule, "%s", x->text);
    gg_run_summary(r, "%s: generation %lld, population %lld, %.3f s (%s, "
                   "the ring round the grid refilled every %lld "
                   "generation%s)", x->text, (long long)res->generation,
                   (long long)res->population, res->seconds, res->backend,
                   (long long)x->k, x->k > 1 ? "s" : "");
    return GG_RUN_OK;
}

/* Which family text names: two-state and Generations by the parser, else
 * a rule file found by its name alone (the suffix is this run's). */
static int ring_family_of(ring_run *x, const char *text, gg_err *err)
{
    gg_err perr;
    if (!gg_rule_parse_grid(text, &x->full, &perr)) {
        x->fam = gg_rule_is_generations(&x->full) ? RING_GEN : RING_TWO;
        gg_rule_format(&x->full, x->text, sizeof x->text);
        snprintf(x->r->res->family, sizeof x->r->res->family, "%s",
                 x->fam == RING_GEN ? "generations" : "two-state");
        return 0;
    }
    char name[200], suffix[64];
    size_t n = strcspn(text, ":");
    snprintf(name, sizeof name, "%.*s", (int)n, text);
    if (gg_ltl_looks_like(name))
        return gg_fail(err, "%s: Larger than Life runs on :T and :P grids "
                       "only; give :TW,H or :PW,H", text);
    gg_err ferr;
    int got = gg_rule_find(name, x->r->pat ? x->r->pat->path : NULL,
                           x->r->o->rules_dir, &x->found, &ferr);
    if (got <= 0) {
        *err = got < 0 ? ferr : perr;
        return -1;
    }
    gg_rule_format(&x->grid, suffix, sizeof suffix); /* B3/S23:... */
    snprintf(x->text, sizeof x->text, "%s%s", name, strchr(suffix, ':'));
    x->fam = RING_TABLE;
    snprintf(x->r->res->family, sizeof x->r->res->family, "table");
    return 0;
}

int gg_run_topo(gg_run *r, bool *taken, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    ring_run x = {.r = r};
    *taken = false;
    if (o->resume || (o->rule && !gg_rule_ring_grid_of(o->rule, &x.grid)))
        return GG_RUN_OK;
    if (!o->rule && read_pattern(r, err))
        return GG_RUN_OK; /* the next path reads it again and says why */
    const char *text = o->rule ? o->rule : gg_lib_pattern_rule(r->pat);
    if (!gg_rule_ring_grid_of(text, &x.grid))
        return GG_RUN_OK;
    *taken = true;
    const char *no = gg_run_plain_refuses(r);
    if (no) {
        gg_fail(err, "%s is on a grid that golgen run steps through the "
                "ring round it, which does not take %s yet; drop them, or "
                "give :TW,H or :PW,H", text, no);
        return GG_RUN_USAGE;
    }
    if (o->out && strcmp(o->out, "-") && gg_pattern_check_output(o->out, err))
        return GG_RUN_USAGE;
    if ((!r->pat && read_pattern(r, err)) || ring_family_of(&x, text, err))
        return GG_RUN_USAGE;
    gg_pattern *p = gg_lib_pattern_cells(r->pat, o->stop, err);
    int status = p ? ring_go(&x, p, err) : GG_RUN_USAGE;
    ring_close(&x);
    return status;
}
