/* golgen_run_2d on Golly's grids beyond the torus and the plane (Klein
 * bottles, cross-surfaces, spheres, shifted tori, tubes and strips:
 * gen/rules/rule.h's gg_rule_has_ring_grid) for two-state rules,
 * Generations and Golly rule tables: the grid inside a bounded plane
 * whose ring runtime/universes/topo_ring.h refills before each batch, so
 * any backend that steps a plane steps these grids. An infinite side
 * (tubes, strips) regrows round the live cells as the unbounded plane
 * does. The dense engine; -o, --png, --frames and stores (--store,
 * --checkpoint-every, --resume) see the W x H grid alone, the store under
 * the rule with its grid suffix. Options that split or move the grid
 * (devices, streaming, MPI ranks) and the hash tree are refused by name. */
#include "run_topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "picture.h"
#include "rule_ltl.h"
#include "store.h"
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
    gg_run_parts parts; /* checkpoints and progress between batches */
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

/* ---- the grid as written: -o, the store, the pictures ---- */

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

/* The grid's cells without the ring round it (an infinite side: the
 * extent the plane holds), (*gx0, *gy0) Golly's place of its top-left
 * cell: the ring's cells are stale between batches, the grid's exact. */
static int grid_cells(ring_run *x, gg_gen_cells *c, int64_t *gx0,
                      int64_t *gy0, gg_err *err)
{
    int n;
    int64_t *x0, *y0;
    gg_grid *pl = ring_planes(x, &n, &x0, &y0);
    int64_t kx = x->grid.width ? x->k : 0, ky = x->grid.height ? x->k : 0;
    if (gg_gen_cells_init(c, n, pl[0].width - 2 * kx,
                          pl[0].height - 2 * ky, err))
        return -1;
    for (int i = 0; i < n; i++)
        gg_grid_blit(&c->plane[i], &pl[i], -kx, -ky);
    *gx0 = *x0 + kx, *gy0 = *y0 + ky;
    return 0;
}

/* The store: the grid's cells under the rule with its grid suffix, so
 * that --resume finds the same grid again (runtime/formats/store.h). */
static int ring_store(void *ctx, gg_err *err)
{
    ring_run *x = ctx;
    gg_gen_cells c;
    int64_t gx0, gy0;
    if (grid_cells(x, &c, &gx0, &gy0, err))
        return -1;
    int bad = gg_store_write_cells(x->r->o->store, &c, x->text,
                                   ring_generation(x), gx0, gy0, err);
    gg_gen_cells_free(&c);
    return bad;
}

static int ring_states(const ring_run *x)
{
    return x->fam == RING_TWO   ? 2
           : x->fam == RING_GEN ? x->full.states
                                : x->found.rf.n_states;
}

/* A grid with an infinite side is pictured whole along its finite side
 * and over its live cells along the other (Golly's origin when none). */
static void open_window(const ring_run *x, const gg_gen_cells *c,
                        int64_t gx0, int64_t gy0, gg_picture_opts *o)
{
    int64_t bx0, by0, bx1, by1;
    bool any = gg_gen_cells_bbox(c, &bx0, &by0, &bx1, &by1);
    o->window = true;
    o->wx = x->grid.width ? gx0 : any ? gx0 + bx0 : 0;
    o->ww = x->grid.width ? x->grid.width : any ? bx1 - bx0 + 1 : 1;
    o->wy = x->grid.height ? gy0 : any ? gy0 + by0 : 0;
    o->wh = x->grid.height ? x->grid.height : any ? by1 - by0 + 1 : 1;
}

/* The grid's picture, each family's states in the colours of its other
 * runs (two states black and white, more as Generations'). */
static int ring_draw(void *ctx, const char *path, const gg_picture_opts *o,
                     gg_picture_info *info, gg_err *err)
{
    ring_run *x = ctx;
    gg_gen_cells c;
    int64_t gx0, gy0;
    if (grid_cells(x, &c, &gx0, &gy0, err))
        return -1;
    bool bounded = x->grid.width && x->grid.height;
    gg_picture_opts own = *o;
    if (!bounded && !o->window)
        open_window(x, &c, gx0, gy0, &own);
    int bad = gg_picture_write_cells(path, &c, ring_states(x), bounded, gx0,
                                     gy0, &own, info, err);
    gg_gen_cells_free(&c);
    return bad;
}

/* ---- the generations ---- */

/* Up to n generations in batches of k, progress between them: the count
 * run (fewer after a stop), or -1 with err. */
static int64_t ring_part(void *ctx, int64_t n, gg_err *err)
{
    ring_run *x = ctx;
    int64_t first = ring_generation(x);
    for (int64_t done = 0; done < n && !gg_run_stop_asked(x->r);) {
        int64_t k = n - done < x->k ? n - done : x->k;
        if (ring_batch(x, k, err))
            return -1;
        int64_t ran = ring_generation(x) - first - done;
        done += ran;
        /* a batch cut short was stopped inside */
        if (ran < k ||
            (done < n && !gg_run_progress(&x->parts.prog, done, n)))
            break;
    }
    return ring_generation(x) - first;
}

/* gens generations in parts that end at checkpoints (and frames). */
static int ring_advance(void *ctx, int64_t gens, bool *stopped, gg_err *err)
{
    ring_run *x = ctx;
    return gg_run_parts_advance(&x->parts, x, gens, stopped, err);
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

/* -o, the store and the picture of the run's end: a status. */
static int ring_outputs(ring_run *x, gg_err *err)
{
    const golgen_run2d_opts *o = x->r->o;
    if ((o->out && ring_write(x, o->out, err)) ||
        (o->store && ring_store(x, err)))
        return GG_RUN_USAGE;
    return gg_run_write_png(x->r, ring_draw, x, err);
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
    if (gg_generations_check(first, r->o->gens, err))
        return GG_RUN_USAGE;
    x->parts = (gg_run_parts){.prog = {.r = r},
                              .stopped = gg_run_stop_asked,
                              .step = ring_part, .store = ring_store};
    double start = gg_run_now();
    gg_fail_kind why;
    status = gg_picture_run_frames(&r->pics, r->o->gens, ring_advance,
                                   ring_draw, x, &why, err)
                 ? gg_run_status(why)
                 : GG_RUN_OK;
    res->seconds = gg_run_now() - start;
    ring_settle(x);
    res->reached = ring_generation(x) - first;
    res->generation = ring_generation(x);
    if (!status) {
        res->ran = 1;
        status = ring_outputs(x, err);
    }
    if (status)
        return status;
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

/* ---- the rule, the pattern or the store ---- */

/* A rule file's name in text with the grid's suffix as golgen writes it
 * (K40,20 is K40,20*). */
static void table_text(const char *text, const gg_rule *grid, char *buf,
                       size_t size)
{
    char suffix[64];
    gg_rule_format(grid, suffix, sizeof suffix); /* B3/S23:... */
    snprintf(buf, size, "%.*s%s", (int)strcspn(text, ":") & 127, text,
             strchr(suffix, ':'));
}

/* Which family text names: two-state and Generations by the parser, else
 * a rule file found by its name alone (the suffix is this run's) beside
 * `where` (the pattern's or the store's path), in --rules, in Golly's. */
static int ring_family_of(ring_run *x, const char *text, const char *where,
                          gg_err *err)
{
    gg_err perr;
    if (!gg_rule_parse_grid(text, &x->full, &perr)) {
        x->fam = gg_rule_is_generations(&x->full) ? RING_GEN : RING_TWO;
        gg_rule_format(&x->full, x->text, sizeof x->text);
        snprintf(x->r->res->family, sizeof x->r->res->family, "%s",
                 x->fam == RING_GEN ? "generations" : "two-state");
        return 0;
    }
    char name[200];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(text, ":"), text);
    if (gg_ltl_looks_like(name))
        return gg_fail(err, "%s: Larger than Life runs on :T and :P grids "
                       "only; give :TW,H or :PW,H", text);
    gg_err ferr;
    int got = gg_rule_find(name, where, x->r->o->rules_dir,
                           x->r->cfg.cache_dir, &x->found, &ferr);
    if (got <= 0) {
        *err = got < 0 ? ferr : perr;
        return -1;
    }
    table_text(name, &x->grid, x->text, sizeof x->text);
    x->fam = RING_TABLE;
    snprintf(x->r->res->family, sizeof x->r->res->family, "table");
    return 0;
}

/* --rule with --resume may only repeat the store's rule (x->text). */
static int ring_rule_repeated(const ring_run *x, gg_err *err)
{
    const char *given = x->r->o->rule;
    gg_rule rule;
    gg_err ignored;
    char canon[256] = "";
    if (!given)
        return 0;
    if (!gg_rule_parse_grid(given, &rule, &ignored))
        gg_rule_format(&rule, canon, sizeof canon);
    else if (gg_rule_ring_grid_of(given, &rule))
        table_text(given, &rule, canon, sizeof canon);
    if (strcmp(canon, x->text))
        return gg_fail(err, "--rule %s is not the rule of store %s (%s): "
                       "drop --rule to continue it", given,
                       x->r->o->resume, x->text);
    return 0;
}

/* The store to resume as a pattern where its cells were, at its
 * generation (its planes moved into *p, the rule s's text): the ring's
 * run places it as it places any positioned pattern. */
static int store_pattern(const char *path, gg_store_info *s, gg_pattern *p,
                         gg_err *err)
{
    gg_gen_cells c;
    memset(p, 0, sizeof *p);
    if (gg_store_read_cells(path, &c, s, err))
        return -1;
    p->n_planes = c.n_planes;
    memcpy(p->plane, c.plane, (size_t)c.n_planes * sizeof c.plane[0]);
    p->x = s->x0, p->y = s->y0, p->positioned = true;
    p->generation = s->generation;
    p->rule = s->rule;
    return 0;
}

/* The rule text when it names a ring grid (*grid set): the store's to
 * resume (its header read), else --rule's or the pattern's (read here
 * then, and kept in r->pat for the other paths). NULL: another path's
 * run. */
static const char *ring_rule_text(gg_run *r, gg_store_info *s,
                                  gg_rule *grid)
{
    const golgen_run2d_opts *o = r->o;
    gg_err ignored; /* the next path reads it again and says why */
    if (o->resume)
        return !gg_store_info_read(o->resume, s, &ignored) &&
                       gg_rule_ring_grid_of(s->rule, grid)
                   ? s->rule
                   : NULL;
    if (o->rule && !gg_rule_ring_grid_of(o->rule, grid))
        return NULL;
    if (!o->rule && read_pattern(r, &ignored))
        return NULL;
    const char *text = o->rule ? o->rule : gg_lib_pattern_rule(r->pat);
    return gg_rule_ring_grid_of(text, grid) ? text : NULL;
}

/* What a ring grid's run does not take, refused by name with the fix,
 * and the pictures' options: a status. */
static int ring_refusals(const gg_run *r, const char *text, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    if (o->device_mem || r->n_devices || o->host_mem)
        gg_fail(err, "%s is on a grid that golgen run steps through the "
                "ring round it, whole in one backend: it does not take "
                "--device-mem, --devices or --host-mem; drop them, or give "
                ":TW,H or :PW,H", text);
    else if (strcmp(r->engine, "auto") && strcmp(r->engine, "dense"))
        gg_fail(err, "%s is on a grid that golgen run steps through the "
                "ring round it by the dense engine: it does not take "
                "--engine %s; give --engine dense (or auto)", text,
                r->engine);
    else if (gg_run_ranks_refuse(r, "Golly's Klein bottles, cross-surfaces, "
                                 "spheres, shifted tori, tubes and strips",
                                 err))
        return GG_RUN_USAGE;
    else
        return gg_run_pictures_ready(r, err);
    return GG_RUN_USAGE;
}

/* The run of the store to resume or of the pattern: a status. */
static int ring_load_go(ring_run *x, const char *text, gg_err *err)
{
    gg_run *r = x->r;
    const golgen_run2d_opts *o = r->o;
    bool resume = o->resume != NULL;
    gg_store_info s;
    gg_pattern stored;
    if (resume ? store_pattern(o->resume, &s, &stored, err)
               : !r->pat && read_pattern(r, err))
        return GG_RUN_USAGE;
    int status = GG_RUN_USAGE;
    if (!ring_family_of(x, text, resume ? o->resume : r->pat->path, err)) {
        const gg_pattern *p =
            !resume ? gg_lib_pattern_cells(r->pat, o->stop, err)
            : ring_rule_repeated(x, err) ? NULL
                                         : &stored;
        status = p ? ring_go(x, p, err) : GG_RUN_USAGE;
        ring_close(x);
    }
    for (int i = 0; resume && i < stored.n_planes; i++)
        gg_grid_free(&stored.plane[i]);
    return status;
}

int gg_run_topo(gg_run *r, bool *taken, gg_err *err)
{
    ring_run x = {.r = r};
    gg_store_info s;
    const char *text = ring_rule_text(r, &s, &x.grid);
    *taken = text != NULL;
    if (!text)
        return GG_RUN_OK;
    int status = ring_refusals(r, text, err);
    if (!status && gg_run_probe_outputs(r, err))
        status = GG_RUN_USAGE;
    if (!status)
        status = ring_load_go(&x, text, err);
    if (status) /* a stop while loading or writing: the signal's exit */
        r->res->stop_exit = gg_run_stop_asked(r);
    return status;
}
