/* A world of any family (lib/world_core.h): made from a pattern, under
 * another rule or as a soup, what it holds, one cell set, a pattern
 * pasted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_lib.h"
#include "world_core.h"

static bool is_torus(const golgen_world *w)
{
    return gg_world_topo(w)->topo == GG_TOPO_TORUS;
}

static int64_t wrap(int64_t v, int64_t n)
{
    v %= n;
    return v < 0 ? v + n : v;
}

/* The topology and size a family's rule gives (gg_world_topo). */
static gg_rule topo_of(const gg_wrule *r)
{
    gg_rule t;
    memset(&t, 0, sizeof t);
    switch (r->family) {
    case GOLGEN_FAMILY_TWO_STATE:
    case GOLGEN_FAMILY_GENERATIONS: return r->rule;
    case GOLGEN_FAMILY_TABLE:
        t.topo = r->table->f.topo;
        t.width = r->table->f.width, t.height = r->table->f.height;
        break;
    case GOLGEN_FAMILY_LTL:
        t.topo = r->ltl.topo;
        t.width = r->ltl.width, t.height = r->ltl.height;
        break;
    case GOLGEN_FAMILY_3D: /* (sized by the pattern: at least this) */
        t.topo = r->r3.topo == GG_TOPO3D_BOX ? GG_TOPO_PLANE : GG_TOPO_TORUS;
        t.width = r->r3.sx ? r->r3.sx : GG_W_3D_DEFAULT_SIDE;
        t.height = r->r3.sy ? r->r3.sy : GG_W_3D_DEFAULT_SIDE;
        break;
    }
    return t;
}

/* The most cells a family's unbounded plane is held in, as a power of
 * two (a rule table's: what the tree's batches hand back). */
static int plane_log2(gg_wfamily family)
{
    return family == GOLGEN_FAMILY_TABLE ? GG_W_TABLE_PLANE_LOG2
                                         : GG_W_PLANE_LOG2;
}

/* An unbounded plane is held as a grid of its pattern's box: one past
 * a world's cells is refused by name (golgen run takes it). */
static int plane_check(const gg_wrule *r, const gg_pattern *p, gg_err *err)
{
    gg_rule t = topo_of(r);
    if (r->family == GOLGEN_FAMILY_3D || gg_rule_is_bounded(&t))
        return 0;
    int lg = plane_log2(r->family);
    int64_t pw = gg_pattern_width(p), ph = gg_pattern_height(p);
    if ((double)pw * (double)ph <= (double)(1LL << lg))
        return 0;
    return gg_fail(
        err,
        "the pattern's box is %lld x %lld cells: a world "
        "holds %s plane up to 2^%d cells (golgen run --gens N -o "
        "OUT runs it%s)",
        (long long)pw, (long long)ph,
        r->family == GOLGEN_FAMILY_TABLE ? "a rule table's" : "an unbounded",
        lg, r->family != GOLGEN_FAMILY_LTL ? " in the hash tree" : "");
}

/* A 2D pattern under any family's rule (3D: the middle slice). */
static int from_pattern_any(golgen_world *w, const gg_wrule *r,
                            const gg_pattern *p, gg_err *err)
{
    memset(w, 0, sizeof *w);
    w->family = r->family;
    w->topo = topo_of(r);
    if (plane_check(r, p, err))
        return -1;
    switch (r->family) {
    case GOLGEN_FAMILY_TWO_STATE:
        return gg_universe_from_pattern(&w->u, &r->rule, p, err);
    case GOLGEN_FAMILY_GENERATIONS:
        return gg_gen_universe_from_pattern(&w->g, &r->rule, p, err);
    case GOLGEN_FAMILY_TABLE: {
        const gg_rule_found *f = &r->table->f;
        if (gg_table_universe_from_pattern(&w->t, &f->rf, f->rule, f->topo,
                                           f->width, f->height, p, err))
            return -1;
        w->tr = r->table;
        __atomic_add_fetch(&w->tr->refs, 1, __ATOMIC_ACQ_REL);
        return 0;
    }
    case GOLGEN_FAMILY_LTL:
        return gg_ltl_universe_from_pattern(&w->l, &r->ltl, p, err);
    case GOLGEN_FAMILY_3D: return gg_world_3d_from_pattern(w, r, p, err);
    }
    return -1;
}

static int from_pattern(golgen_world *w, const gg_rule *rule,
                        const gg_pattern *p, gg_err *err)
{
    gg_wrule r = {.family = gg_rule_is_generations(rule)
                                ? GOLGEN_FAMILY_GENERATIONS
                                : GOLGEN_FAMILY_TWO_STATE,
                  .rule = *rule};
    return from_pattern_any(w, &r, p, err);
}

/* A bounded grid of more than max_cells cells (0: any) refused, in
 * words that fit any caller (GOLGEN_WORLD_PAST_MAX_CELLS). */
static int size_check(const gg_wrule *r, int64_t max_cells, gg_err *err)
{
    gg_rule t = topo_of(r);
    double depth = r->family != GOLGEN_FAMILY_3D ? 1.0
                   : r->r3.sz               ? (double)r->r3.sz
                                            : GG_W_3D_DEFAULT_SIDE;
    if (max_cells && gg_rule_is_bounded(&t) &&
        (double)t.width * (double)t.height * depth > (double)max_cells)
        return gg_fail(err, "a grid of %s cells: more than the %lld cells "
                       "a world may have here " GOLGEN_WORLD_PAST_MAX_CELLS,
                       r->text, (long long)max_cells);
    return 0;
}

static const char *rule_of(const char *rule_text, const char *fallback,
                           const char *own)
{
    return rule_text ? rule_text : own ? own : fallback ? fallback : "B3/S23";
}

int gg_world_from_pattern(golgen_world *w, const char *rule_text,
                          const char *fallback, const char *near,
                          const gg_pattern *p, int64_t max_cells,
                          gg_err *err)
{
    gg_wrule rule;
    if (gg_wrule_parse(rule_of(rule_text, fallback, p->rule), near, &rule,
                       err))
        return -1;
    int bad = size_check(&rule, max_cells, err) ||
              from_pattern_any(w, &rule, p, err);
    gg_wrule_free(&rule);
    return bad ? -1 : 0;
}

int gg_world_from_rle3(golgen_world *w, const char *rule_text,
                       const char *fallback, const char *near,
                       const gg_rle3 *p, int64_t max_cells, gg_err *err)
{
    gg_wrule rule;
    const char *own = p->rule[0] ? p->rule : NULL;
    if (gg_wrule_parse(rule_of(rule_text, fallback, own), near, &rule, err))
        return -1;
    int bad = 0;
    if (rule.family != GOLGEN_FAMILY_3D)
        bad = gg_fail(err, "an RLE3 (3D) pattern under the 2D rule %s: give "
                      "a 3D rule (3D5..7/6)", rule.text);
    double side = (double)p->size;
    if (!bad && rule.family == GOLGEN_FAMILY_3D &&
        rule.r3.topo == GG_TOPO3D_SIZED_BY_PATTERN && max_cells &&
        side * side * side > (double)max_cells)
        bad = gg_fail(err, "a %lld^3 grid: more than the %lld cells a "
                      "world may have here " GOLGEN_WORLD_PAST_MAX_CELLS,
                      (long long)p->size, (long long)max_cells);
    bad = bad || size_check(&rule, max_cells, err) ||
          gg_world_3d_from_rle3(w, &rule, p, err);
    gg_wrule_free(&rule);
    return bad ? -1 : 0;
}

int gg_world_parse(golgen_world *w, const char *rule_text,
                   const char *fallback, const char *near, const char *text,
                   size_t len, const char *name, int64_t max_cells,
                   gg_err *err)
{
    if (gg_rle3_sniff(text, len)) {
        gg_rle3 p3;
        if (gg_rle3_parse(text, len, name, &p3, err))
            return -1;
        int bad = gg_world_from_rle3(w, rule_text, fallback, near, &p3,
                                     max_cells, err);
        gg_rle3_free(&p3);
        return bad;
    }
    golgen_pattern *p; /* as golgen run parses it as cells */
    int bad = gg_lib_pattern_parse(text, len, name, GOLGEN_PATTERN_CELLS, &p,
                                   err) ||
              gg_world_from_pattern(w, rule_text, fallback, near,
                                    gg_lib_pattern_cells(p, NULL, err),
                                    max_cells, err);
    golgen_pattern_free(p);
    return bad ? -1 : 0;
}

int gg_world_to_pattern(const golgen_world *w, gg_pattern *p, gg_err *err)
{
    switch (w->family) {
    case GOLGEN_FAMILY_TWO_STATE: return gg_universe_to_pattern(&w->u, p, err);
    case GOLGEN_FAMILY_GENERATIONS:
        return gg_gen_universe_to_pattern(&w->g, p, err);
    case GOLGEN_FAMILY_TABLE:
        return gg_table_universe_to_pattern(&w->t, p, err);
    case GOLGEN_FAMILY_LTL: return gg_ltl_universe_to_pattern(&w->l, p, err);
    case GOLGEN_FAMILY_3D: return gg_world_3d_to_pattern(w, p, err);
    }
    return -1;
}

int gg_world_with_any(const golgen_world *w, const gg_wrule *rule,
                      int64_t max_cells, golgen_world *out, gg_err *err)
{
    if (size_check(rule, max_cells, err))
        return -1;
    if (w->family == GOLGEN_FAMILY_3D && rule->family == GOLGEN_FAMILY_3D)
        return gg_world_3d_with_rule(w, rule, out, err);
    gg_pattern p;
    if (gg_world_to_pattern(w, &p, err))
        return -1;
    /* Golly's default place on a bounded grid is centred; keep the cells
     * where they are */
    p.positioned = true;
    int bad = from_pattern_any(out, rule, &p, err);
    gg_pattern_free(&p);
    return bad;
}

void gg_world_release(golgen_world *w)
{
    switch (w->family) {
    case GOLGEN_FAMILY_TWO_STATE: gg_universe_free(&w->u); break;
    case GOLGEN_FAMILY_GENERATIONS: gg_gen_universe_free(&w->g); break;
    case GOLGEN_FAMILY_TABLE: {
        gg_table_universe_free(&w->t);
        gg_wrule r = {.table = w->tr};
        gg_wrule_free(&r);
        break;
    }
    case GOLGEN_FAMILY_LTL: gg_ltl_universe_free(&w->l); break;
    case GOLGEN_FAMILY_3D: gg_grid3d_free(&w->d.g); break;
    }
    memset(w, 0, sizeof *w);
}

const gg_rule *gg_world_topo(const golgen_world *w)
{
    return w->family == GOLGEN_FAMILY_TWO_STATE  ? &w->u.rule
           : w->family == GOLGEN_FAMILY_GENERATIONS ? &w->g.rule
                                 : &w->topo;
}

int gg_world_states(const golgen_world *w)
{
    switch (w->family) {
    case GOLGEN_FAMILY_GENERATIONS: return w->g.rule.states;
    case GOLGEN_FAMILY_TABLE: return w->tr->f.rf.n_states;
    case GOLGEN_FAMILY_LTL: return w->l.rule.states;
    default: return 2;
    }
}

/* Where the generation is kept. */
static int64_t *generation_of(golgen_world *w)
{
    switch (w->family) {
    case GOLGEN_FAMILY_GENERATIONS: return &w->g.generation;
    case GOLGEN_FAMILY_TABLE: return &w->t.generation;
    case GOLGEN_FAMILY_LTL: return &w->l.generation;
    case GOLGEN_FAMILY_3D: return &w->d.generation;
    default: return &w->u.generation;
    }
}

int64_t gg_world_generation(const golgen_world *w)
{
    return *generation_of((golgen_world *)w);
}

GG_W_HOT int64_t gg_world_count_planes(const uint64_t *const *p,
                                       int planes, int64_t n)
{
    int64_t count = 0;
    if (planes == 1) {
        for (int64_t i = 0; i < n; i++)
            count += __builtin_popcountll(p[0][i]);
        return count;
    }
    for (int64_t i = 0; i < n; i++) {
        uint64_t v = 0;
        for (int q = 0; q < planes; q++)
            v |= p[q][i];
        count += __builtin_popcountll(v);
    }
    return count;
}

int64_t gg_world_population(const golgen_world *w)
{
    if (w->family == GOLGEN_FAMILY_LTL)
        return gg_ltl_universe_population(&w->l);
    if (w->family == GOLGEN_FAMILY_3D)
        return gg_grid3d_population(&w->d.g);
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES] = {0};
    const uint64_t *p[GG_GEN_CELLS_MAX_PLANES];
    int64_t x0, y0;
    int n = gg_world_planes(w, g, &x0, &y0);
    for (int q = 0; q < n; q++)
        p[q] = g[q]->bits;
    return gg_world_count_planes(p, n, g[0]->stride * g[0]->height);
}

/* A family's states as planes and where cell (0, 0) sits: Generations
 * and rule tables (others: NULL). */
static gg_gen_cells *cells_of(golgen_world *w, int64_t **x0, int64_t **y0)
{
    if (w->family == GOLGEN_FAMILY_GENERATIONS) {
        *x0 = &w->g.x0, *y0 = &w->g.y0;
        return &w->g.cells;
    }
    if (w->family == GOLGEN_FAMILY_TABLE) {
        *x0 = &w->t.x0, *y0 = &w->t.y0;
        return &w->t.cells;
    }
    return NULL;
}

int gg_world_planes(const golgen_world *w, const gg_grid **g, int64_t *x0,
                    int64_t *y0)
{
    int64_t *px, *py;
    const gg_gen_cells *c = cells_of((golgen_world *)w, &px, &py);
    if (c) {
        for (int p = 0; p < c->n_planes; p++)
            g[p] = &c->plane[p];
        *x0 = *px, *y0 = *py;
        return c->n_planes;
    }
    if (w->family == GOLGEN_FAMILY_3D) {
        g[0] = &w->d.slice;
        *x0 = -(w->d.rule.sx / 2), *y0 = -(w->d.rule.sy / 2);
        return 1;
    }
    g[0] = &w->u.grid;
    *x0 = w->u.x0, *y0 = w->u.y0;
    return 1;
}

void gg_world_extent(const golgen_world *w, int64_t *x, int64_t *y,
                     int64_t *wd, int64_t *ht)
{
    if (w->family == GOLGEN_FAMILY_LTL) {
        *x = w->l.x0, *y = w->l.y0, *wd = w->l.w, *ht = w->l.h;
        return;
    }
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES] = {0};
    gg_world_planes(w, g, x, y);
    *wd = g[0]->width, *ht = g[0]->height;
}

bool gg_world_bbox(const golgen_world *w, int64_t *x, int64_t *y, int64_t *wd,
                   int64_t *ht)
{
    int64_t x0, y0, x1, y1, ox, oy, ew, eh;
    gg_world_extent(w, &ox, &oy, &ew, &eh);
    int64_t *px, *py;
    const gg_gen_cells *c = cells_of((golgen_world *)w, &px, &py);
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES];
    bool any = w->family == GOLGEN_FAMILY_LTL
                   ? gg_world_ltl_bbox(w, &x0, &y0, &x1, &y1)
               : w->family == GOLGEN_FAMILY_3D && w->d.project
                   ? gg_world_3d_bbox_sum(w, &x0, &y0, &x1, &y1)
               : c ? gg_gen_cells_bbox(c, &x0, &y0, &x1, &y1)
                   : (gg_world_planes(w, g, &ox, &oy),
                      gg_grid_bbox(g[0], &x0, &y0, &x1, &y1));
    if (!any)
        return false;
    *x = ox + x0, *y = oy + y0;
    *wd = x1 - x0 + 1, *ht = y1 - y0 + 1;
    return true;
}

#define GG_W_MAX_PASTE_CELLS (1LL << 24) /* live cells a paste may hold */

/* The unbounded plane's grid grown to hold (x, y), 64 cells beyond. */
static int grow(golgen_world *w, int64_t x, int64_t y, gg_err *err)
{
    int64_t ox, oy, ew, eh;
    gg_world_extent(w, &ox, &oy, &ew, &eh);
    int64_t nx = x - 64 < ox ? x - 64 : ox, ny = y - 64 < oy ? y - 64 : oy;
    int64_t ex = x + 65 > ox + ew ? x + 65 : ox + ew;
    int64_t ey = y + 65 > oy + eh ? y + 65 : oy + eh;
    int64_t nw = (ex - nx + 63) / 64 * 64, nh = ey - ny;
    int lg = plane_log2(w->family);
    int64_t most = 1LL << lg;
    if (nw > most || nh > most || nw * nh > most)
        return gg_fail(err, "cell (%lld, %lld) is too far from the "
                       "universe (%lld x %lld cells; at most 2^%d)",
                       (long long)x, (long long)y, (long long)nw,
                       (long long)nh, lg);
    int64_t *px, *py;
    gg_gen_cells *old = cells_of(w, &px, &py);
    if (old) {
        gg_gen_cells c;
        if (gg_gen_cells_init(&c, old->n_planes, nw, nh, err))
            return -1;
        gg_gen_cells_blit(&c, old, ox - nx, oy - ny);
        gg_gen_cells_free(old);
        *old = c;
        *px = nx, *py = ny;
        return 0;
    }
    if (w->family == GOLGEN_FAMILY_LTL)
        return gg_world_ltl_regrow(w, nx, ny, nw, nh, err);
    gg_grid g;
    if (gg_grid_init(&g, nw, nh, err))
        return -1;
    gg_grid_blit(&g, &w->u.grid, ox - nx, oy - ny);
    gg_grid_free(&w->u.grid);
    w->u.grid = g;
    w->u.x0 = nx, w->u.y0 = ny;
    return 0;
}

int gg_world_set(golgen_world *w, int64_t x, int64_t y, int state, gg_err *err)
{
    if (gg_world_3d_editable(w, err))
        return -1;
    if (state >= gg_world_states(w))
        return gg_fail(err, "state %d: this rule has states 0 .. %d", state,
                       gg_world_states(w) - 1);
    int64_t ox, oy, ew, eh;
    gg_world_extent(w, &ox, &oy, &ew, &eh);
    if (is_torus(w))
        x = ox + wrap(x - ox, ew), y = oy + wrap(y - oy, eh);
    bool inside = x >= ox && y >= oy && x - ox < ew && y - oy < eh;
    if (!inside && gg_rule_is_bounded(gg_world_topo(w)))
        return gg_fail(err, "cell (%lld, %lld) is outside the bounded grid",
                       (long long)x, (long long)y);
    if (!inside && grow(w, x, y, err))
        return -1;
    gg_world_extent(w, &ox, &oy, &ew, &eh);
    int64_t *px, *py;
    gg_gen_cells *c = cells_of(w, &px, &py);
    if (c)
        gg_gen_cells_set(c, x - ox, y - oy, state);
    else if (w->family == GOLGEN_FAMILY_LTL)
        w->l.cells[(y - oy) * w->l.w + (x - ox)] = (uint8_t)state;
    else if (w->family == GOLGEN_FAMILY_3D)
        gg_grid_set(&w->d.slice, x - ox, y - oy, state);
    else
        gg_grid_set(&w->u.grid, x - ox, y - oy, state);
    return 0;
}

void gg_world_clear(golgen_world *w)
{
    *generation_of(w) = 0;
    if (w->family == GOLGEN_FAMILY_LTL) {
        memset(w->l.cells, 0, (size_t)(w->l.w * w->l.h));
        return;
    }
    if (w->family == GOLGEN_FAMILY_3D) {
        memset(w->d.g.bits, 0,
               (size_t)gg_grid3d_words(&w->d.g) * sizeof(uint64_t));
        return;
    }
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES];
    int64_t x0, y0;
    int n = gg_world_planes(w, g, &x0, &y0);
    for (int p = 0; p < n; p++)
        memset(g[p]->bits, 0,
               (size_t)(g[p]->stride * g[p]->height) * sizeof(uint64_t));
}

/* A two-state or Generations soup (gg_world_soup_any). */
static int soup(golgen_world *out, const gg_rule *of, int64_t width,
                int64_t height, int percent, uint64_t seed, gg_err *err)
{
    gg_rule rule = *of;
    rule.topo = GG_TOPO_TORUS;
    rule.width = width, rule.height = height;
    gg_pattern p;
    if (gg_pattern_init(&p, 1, 1, 1, err))
        return -1;
    int bad = from_pattern(out, &rule, &p, err);
    gg_pattern_free(&p);
    if (bad)
        return -1;
    gg_grid *g = out->family == GOLGEN_FAMILY_GENERATIONS
                     ? &out->g.cells.plane[0]
                     : &out->u.grid;
    gg_grid_random(g, percent == 50 ? 0.5 : percent / 100.0, seed);
    return 0;
}

int gg_world_soup_any(golgen_world *out, const gg_wrule *rule, int64_t width,
                      int64_t height, int percent, uint64_t seed,
                      gg_err *err)
{
    if (rule->family == GOLGEN_FAMILY_TWO_STATE ||
        rule->family == GOLGEN_FAMILY_GENERATIONS)
        return soup(out, &rule->rule, width, height, percent, seed, err);
    if (rule->family == GOLGEN_FAMILY_3D)
        return gg_fail(err, "soups are 2D: load an RLE3 pattern for a 3D "
                       "rule");
    /* the rule on a torus of that size, state 1 at random */
    char text[300];
    snprintf(text, sizeof text, "%.*s:T%lld,%lld",
             (int)strcspn(rule->text, ":"), rule->text, (long long)width,
             (long long)height);
    gg_wrule r; /* (a rule file: where it was found) */
    if (gg_wrule_parse(text, rule->table ? rule->table->f.path : NULL, &r,
                       err))
        return -1;
    gg_pattern p;
    int bad = gg_pattern_init(&p, width, height, 1, err);
    if (!bad) {
        gg_grid_random(&p.plane[0], percent == 50 ? 0.5 : percent / 100.0,
                       seed);
        p.x = -(width / 2), p.y = -(height / 2);
        p.positioned = true;
        bad = from_pattern_any(out, &r, &p, err);
        gg_pattern_free(&p);
    }
    gg_wrule_free(&r);
    return bad;
}

int gg_world_paste(golgen_world *w, const char *text, size_t len, int64_t x,
                   int64_t y, gg_err *err)
{
    gg_pattern p;
    if (gg_world_3d_editable(w, err) ||
        gg_pattern_parse(text, len, "the pasted pattern", &p, err))
        return -1;
    int64_t pw = gg_pattern_width(&p), ph = gg_pattern_height(&p);
    int bad = 0;
    if ((double)pw * (double)ph > (double)(1LL << 32))
        bad = gg_fail(err, "the pasted pattern's box is %lld x %lld cells: "
                      "at most 2^32", (long long)pw, (long long)ph);
    /* its live cells, counted a word at a time, then their states: the
     * work stays bounded whatever the text describes */
    int64_t live = 0;
    for (int64_t r = 0; !bad && r < ph; r++) {
        const uint64_t *rows[GG_PATTERN_MAX_PLANES];
        for (int q = 0; q < p.n_planes; q++)
            rows[q] = gg_grid_row(&p.plane[q], r);
        live += gg_world_count_planes(rows, p.n_planes, p.plane[0].stride);
    }
    if (!bad && live > GG_W_MAX_PASTE_CELLS)
        bad = gg_fail(err, "the pasted pattern has %lld live cells: a paste "
                      "takes at most 2^24 (load it instead)", (long long)live);
    for (int64_t r = 0; !bad && r < ph; r++)
        for (int64_t k = 0; !bad && k < p.plane[0].stride; k++) {
            uint64_t m = 0;
            for (int q = 0; q < p.n_planes; q++)
                m |= gg_grid_row(&p.plane[q], r)[k];
            for (; m && !bad; m &= m - 1) {
                int v = gg_pattern_get(&p, k * 64 + __builtin_ctzll(m), r);
                if (v >= gg_world_states(w))
                    bad = gg_fail(err, "the pasted pattern has state %d: "
                                  "this rule has states 0 .. %d", v,
                                  gg_world_states(w) - 1);
            }
        }
    /* room first: the plane grows (to the far corner too), a bounded
     * plane refuses before anything changes */
    int64_t ox, oy, ew, eh;
    gg_world_extent(w, &ox, &oy, &ew, &eh);
    if (!bad && !is_torus(w) &&
        (x < ox || y < oy || x + pw > ox + ew || y + ph > oy + eh)) {
        if (gg_rule_is_bounded(gg_world_topo(w)))
            bad = gg_fail(err, "the pasted pattern (%lld x %lld at %lld, "
                          "%lld) reaches outside the bounded grid",
                          (long long)pw, (long long)ph, (long long)x,
                          (long long)y);
        else
            bad = grow(w, x < ox ? x : ox, y < oy ? y : oy, err) ||
                  grow(w, x + pw - 1, y + ph - 1, err);
    }
    /* the live cells, a word of the box at a time */
    for (int64_t r = 0; !bad && r < ph; r++)
        for (int64_t k = 0; k < p.plane[0].stride; k++) {
            uint64_t live = 0;
            for (int q = 0; q < p.n_planes; q++)
                live |= gg_grid_row(&p.plane[q], r)[k];
            while (live) {
                int64_t c = k * 64 + __builtin_ctzll(live);
                live &= live - 1;
                gg_world_set(w, x + c, y + r, gg_pattern_get(&p, c, r), err);
            }
        }
    gg_pattern_free(&p);
    return bad;
}
