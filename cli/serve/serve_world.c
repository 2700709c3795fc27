/* golgen serve: the universe on view (serve_world.h). */
#include "serve_world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "pattern_rle3.h"
#include "picture.h"
#include "serve_world_fam.h"

/* The hot loops use the popcnt instruction where the machine has it
 * (runtime/universes/grid.h). */
#define SV_HOT GG_POPCNT_HOT

static bool is_torus(const sv_world *w)
{
    return sv_world_rule(w)->topo == GG_TOPO_TORUS;
}

static int64_t wrap(int64_t v, int64_t n)
{
    v %= n;
    return v < 0 ? v + n : v;
}

/* The topology and size a family's rule gives (sv_world_rule). */
static gg_rule topo_of(const sv_rule *r)
{
    gg_rule t;
    memset(&t, 0, sizeof t);
    switch (r->family) {
    case SV_LIFE:
    case SV_GEN: return r->rule;
    case SV_TABLE:
        t.topo = r->table->f.topo;
        t.width = r->table->f.width, t.height = r->table->f.height;
        break;
    case SV_LTL:
        t.topo = r->ltl.topo;
        t.width = r->ltl.width, t.height = r->ltl.height;
        break;
    case SV_3D: /* (sized by the pattern: at least this) */
        t.topo = r->r3.topo == GG_TOPO3D_BOX ? GG_TOPO_PLANE : GG_TOPO_TORUS;
        t.width = r->r3.sx ? r->r3.sx : SV_3D_DEFAULT_SIDE;
        t.height = r->r3.sy ? r->r3.sy : SV_3D_DEFAULT_SIDE;
        break;
    }
    return t;
}

/* The most cells a family's unbounded plane is held in, as a power of
 * two (a rule table's: what the tree's batches hand back). */
static int plane_log2(sv_family family)
{
    return family == SV_TABLE ? SV_TABLE_PLANE_LOG2 : SV_PLANE_LOG2;
}

/* An unbounded plane is held as a grid of its pattern's box: one past
 * the viewer's cells is refused by name (golgen run takes it). */
static int plane_check(const sv_rule *r, const gg_pattern *p, gg_err *err)
{
    gg_rule t = topo_of(r);
    if (r->family == SV_3D || gg_rule_is_bounded(&t))
        return 0;
    int lg = plane_log2(r->family);
    int64_t pw = gg_pattern_width(p), ph = gg_pattern_height(p);
    if ((double)pw * (double)ph <= (double)(1LL << lg))
        return 0;
    return gg_fail(err, "the pattern's box is %lld x %lld cells: the viewer "
                   "holds %s plane up to 2^%d cells (golgen run --gens N -o "
                   "OUT runs it%s)", (long long)pw, (long long)ph,
                   r->family == SV_TABLE ? "a rule table's" : "an unbounded",
                   lg, r->family != SV_LTL ? " in the hash tree" : "");
}

/* A 2D pattern under any family's rule (3D: the middle slice). */
static int from_pattern_any(sv_world *w, const sv_rule *r,
                            const gg_pattern *p, gg_err *err)
{
    memset(w, 0, sizeof *w);
    w->family = r->family;
    w->gen = r->family == SV_GEN;
    w->topo = topo_of(r);
    if (plane_check(r, p, err))
        return -1;
    switch (r->family) {
    case SV_LIFE: return gg_universe_from_pattern(&w->u, &r->rule, p, err);
    case SV_GEN: return gg_gen_universe_from_pattern(&w->g, &r->rule, p, err);
    case SV_TABLE: {
        const gg_rule_found *f = &r->table->f;
        if (gg_table_universe_from_pattern(&w->t, &f->rf, f->rule, f->topo,
                                           f->width, f->height, p, err))
            return -1;
        w->tr = r->table;
        __atomic_add_fetch(&w->tr->refs, 1, __ATOMIC_ACQ_REL);
        return 0;
    }
    case SV_LTL: return gg_ltl_universe_from_pattern(&w->l, &r->ltl, p, err);
    case SV_3D: return sv_3d_from_pattern(w, r, p, err);
    }
    return -1;
}

static int from_pattern(sv_world *w, const gg_rule *rule, const gg_pattern *p,
                        gg_err *err)
{
    sv_rule r = {.family = gg_rule_is_generations(rule) ? SV_GEN : SV_LIFE,
                 .rule = *rule};
    return from_pattern_any(w, &r, p, err);
}

/* A bounded grid of more than max_cells cells (0: any) refused. */
static int size_check(const sv_rule *r, int64_t max_cells, gg_err *err)
{
    gg_rule t = topo_of(r);
    double depth = r->family != SV_3D ? 1.0
                   : r->r3.sz               ? (double)r->r3.sz
                                            : SV_3D_DEFAULT_SIDE;
    if (max_cells && gg_rule_is_bounded(&t) &&
        (double)t.width * (double)t.height * depth > (double)max_cells)
        return gg_fail(err, "a grid of %s cells: the page takes at most "
                       "%lld (start golgen serve --rule with it)", r->text,
                       (long long)max_cells);
    return 0;
}

static const char *rule_of(const char *rule_text, const char *fallback,
                           const char *own)
{
    return rule_text ? rule_text : own ? own : fallback ? fallback : "B3/S23";
}

int sv_world_from_pattern(sv_world *w, const char *rule_text,
                          const char *fallback, const gg_pattern *p,
                          int64_t max_cells, gg_err *err)
{
    sv_rule rule;
    if (sv_rule_parse_any(rule_of(rule_text, fallback, p->rule), &rule, err))
        return -1;
    int bad = size_check(&rule, max_cells, err) ||
              from_pattern_any(w, &rule, p, err);
    sv_rule_free(&rule);
    return bad ? -1 : 0;
}

int sv_world_from_rle3(sv_world *w, const char *rule_text,
                       const char *fallback, const gg_rle3 *p,
                       int64_t max_cells, gg_err *err)
{
    sv_rule rule;
    const char *own = p->rule[0] ? p->rule : NULL;
    if (sv_rule_parse_any(rule_of(rule_text, fallback, own), &rule, err))
        return -1;
    int bad = 0;
    if (rule.family != SV_3D)
        bad = gg_fail(err, "an RLE3 (3D) pattern under the 2D rule %s: give "
                      "a 3D rule (3D5..7/6)", rule.text);
    double side = (double)p->size;
    if (!bad && rule.family == SV_3D &&
        rule.r3.topo == GG_TOPO3D_SIZED_BY_PATTERN && max_cells &&
        side * side * side > (double)max_cells)
        bad = gg_fail(err, "a %lld^3 grid: the page takes at most %lld "
                      "cells", (long long)p->size, (long long)max_cells);
    bad = bad || size_check(&rule, max_cells, err) ||
          sv_3d_from_rle3(w, &rule, p, err);
    sv_rule_free(&rule);
    return bad ? -1 : 0;
}

int sv_world_parse(sv_world *w, const char *rule_text, const char *fallback,
                   const char *text, size_t len, const char *name,
                   int64_t max_cells, gg_err *err)
{
    if (gg_rle3_sniff(text, len)) {
        gg_rle3 p3;
        if (gg_rle3_parse(text, len, name, &p3, err))
            return -1;
        int bad = sv_world_from_rle3(w, rule_text, fallback, &p3, max_cells,
                                     err);
        gg_rle3_free(&p3);
        return bad;
    }
    gg_pattern p;
    if (gg_pattern_parse(text, len, name, &p, err))
        return -1;
    int bad = sv_world_from_pattern(w, rule_text, fallback, &p, max_cells,
                                    err);
    gg_pattern_free(&p);
    return bad;
}

static int to_pattern(const sv_world *w, gg_pattern *p, gg_err *err)
{
    switch (w->family) {
    case SV_LIFE: return gg_universe_to_pattern(&w->u, p, err);
    case SV_GEN: return gg_gen_universe_to_pattern(&w->g, p, err);
    case SV_TABLE: return gg_table_universe_to_pattern(&w->t, p, err);
    case SV_LTL: return gg_ltl_universe_to_pattern(&w->l, p, err);
    case SV_3D: return sv_3d_to_pattern(w, p, err);
    }
    return -1;
}

int sv_world_with_any(const sv_world *w, const sv_rule *rule,
                      int64_t max_cells, sv_world *out, gg_err *err)
{
    if (size_check(rule, max_cells, err))
        return -1;
    if (w->family == SV_3D && rule->family == SV_3D)
        return sv_3d_with_rule(w, rule, out, err);
    gg_pattern p;
    if (to_pattern(w, &p, err))
        return -1;
    /* Golly's default place on a bounded grid is centred; keep the cells
     * where they are */
    p.positioned = true;
    int bad = from_pattern_any(out, rule, &p, err);
    gg_pattern_free(&p);
    return bad;
}

int sv_world_with_rule(const sv_world *w, const gg_rule *rule,
                       int64_t max_cells, sv_world *out, gg_err *err)
{
    sv_rule r = {.family = gg_rule_is_generations(rule) ? SV_GEN : SV_LIFE,
                 .rule = *rule};
    return sv_world_with_any(w, &r, max_cells, out, err);
}

void sv_world_free(sv_world *w)
{
    switch (w->family) {
    case SV_LIFE: gg_universe_free(&w->u); break;
    case SV_GEN: gg_gen_universe_free(&w->g); break;
    case SV_TABLE: {
        gg_table_universe_free(&w->t);
        sv_rule r = {.table = w->tr};
        sv_rule_free(&r);
        break;
    }
    case SV_LTL: gg_ltl_universe_free(&w->l); break;
    case SV_3D: gg_grid3d_free(&w->d.g); break;
    }
    memset(w, 0, sizeof *w);
}

const gg_rule *sv_world_rule(const sv_world *w)
{
    return w->family == SV_LIFE  ? &w->u.rule
           : w->family == SV_GEN ? &w->g.rule
                                 : &w->topo;
}

int sv_world_states(const sv_world *w)
{
    switch (w->family) {
    case SV_GEN: return w->g.rule.states;
    case SV_TABLE: return w->tr->f.rf.n_states;
    case SV_LTL: return w->l.rule.states;
    default: return 2;
    }
}

/* Where the generation is kept. */
static int64_t *generation_of(sv_world *w)
{
    switch (w->family) {
    case SV_GEN: return &w->g.generation;
    case SV_TABLE: return &w->t.generation;
    case SV_LTL: return &w->l.generation;
    case SV_3D: return &w->d.generation;
    default: return &w->u.generation;
    }
}

int64_t sv_world_generation(const sv_world *w)
{
    return *generation_of((sv_world *)w);
}

/* Live cells (any state but 0) of words [0, n) of the planes. */
static SV_HOT int64_t count_planes(const uint64_t *const *p, int planes,
                                   int64_t n)
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

static int planes(const sv_world *w, const gg_grid **g, int64_t *x0,
                  int64_t *y0);

int64_t sv_world_population(const sv_world *w)
{
    if (w->family == SV_LTL)
        return gg_ltl_universe_population(&w->l);
    if (w->family == SV_3D)
        return gg_grid3d_population(&w->d.g);
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES] = {0};
    const uint64_t *p[GG_GEN_CELLS_MAX_PLANES];
    int64_t x0, y0;
    int n = planes(w, g, &x0, &y0);
    for (int q = 0; q < n; q++)
        p[q] = g[q]->bits;
    return count_planes(p, n, g[0]->stride * g[0]->height);
}

/* A family's states as planes and where cell (0, 0) sits: Generations
 * and rule tables (others: NULL). */
static gg_gen_cells *cells_of(sv_world *w, int64_t **x0, int64_t **y0)
{
    if (w->family == SV_GEN) {
        *x0 = &w->g.x0, *y0 = &w->g.y0;
        return &w->g.cells;
    }
    if (w->family == SV_TABLE) {
        *x0 = &w->t.x0, *y0 = &w->t.y0;
        return &w->t.cells;
    }
    return NULL;
}

/* The planes (1 for two states; 3D: the slice shown) and the grid's
 * place; not for Larger than Life (serve_world_ltl.c). */
static int planes(const sv_world *w, const gg_grid **g, int64_t *x0,
                  int64_t *y0)
{
    int64_t *px, *py;
    const gg_gen_cells *c = cells_of((sv_world *)w, &px, &py);
    if (c) {
        for (int p = 0; p < c->n_planes; p++)
            g[p] = &c->plane[p];
        *x0 = *px, *y0 = *py;
        return c->n_planes;
    }
    if (w->family == SV_3D) {
        g[0] = &w->d.slice;
        *x0 = -(w->d.rule.sx / 2), *y0 = -(w->d.rule.sy / 2);
        return 1;
    }
    g[0] = &w->u.grid;
    *x0 = w->u.x0, *y0 = w->u.y0;
    return 1;
}

void sv_world_extent(const sv_world *w, int64_t *x, int64_t *y, int64_t *wd,
                     int64_t *ht)
{
    if (w->family == SV_LTL) {
        *x = w->l.x0, *y = w->l.y0, *wd = w->l.w, *ht = w->l.h;
        return;
    }
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES] = {0};
    planes(w, g, x, y);
    *wd = g[0]->width, *ht = g[0]->height;
}

bool sv_world_bbox(const sv_world *w, int64_t *x, int64_t *y, int64_t *wd,
                   int64_t *ht)
{
    int64_t x0, y0, x1, y1, ox, oy, ew, eh;
    sv_world_extent(w, &ox, &oy, &ew, &eh);
    int64_t *px, *py;
    const gg_gen_cells *c = cells_of((sv_world *)w, &px, &py);
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES];
    bool any = w->family == SV_LTL ? sv_ltl_bbox(w, &x0, &y0, &x1, &y1)
               : w->family == SV_3D && w->d.project
                   ? sv_3d_bbox_sum(w, &x0, &y0, &x1, &y1)
               : c ? gg_gen_cells_bbox(c, &x0, &y0, &x1, &y1)
                   : (planes(w, g, &ox, &oy),
                      gg_grid_bbox(g[0], &x0, &y0, &x1, &y1));
    if (!any)
        return false;
    *x = ox + x0, *y = oy + y0;
    *wd = x1 - x0 + 1, *ht = y1 - y0 + 1;
    return true;
}

#define SV_MAX_PASTE_CELLS (1LL << 24) /* live cells a paste may hold */

/* The unbounded plane's grid grown to hold (x, y), 64 cells beyond. */
static int grow(sv_world *w, int64_t x, int64_t y, gg_err *err)
{
    int64_t ox, oy, ew, eh;
    sv_world_extent(w, &ox, &oy, &ew, &eh);
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
    if (w->family == SV_LTL)
        return sv_ltl_regrow(w, nx, ny, nw, nh, err);
    gg_grid g;
    if (gg_grid_init(&g, nw, nh, err))
        return -1;
    gg_grid_blit(&g, &w->u.grid, ox - nx, oy - ny);
    gg_grid_free(&w->u.grid);
    w->u.grid = g;
    w->u.x0 = nx, w->u.y0 = ny;
    return 0;
}

int sv_world_set(sv_world *w, int64_t x, int64_t y, int state, gg_err *err)
{
    if (sv_3d_editable(w, err))
        return -1;
    if (state >= sv_world_states(w))
        return gg_fail(err, "state %d: this rule has states 0 .. %d", state,
                       sv_world_states(w) - 1);
    int64_t ox, oy, ew, eh;
    sv_world_extent(w, &ox, &oy, &ew, &eh);
    if (is_torus(w))
        x = ox + wrap(x - ox, ew), y = oy + wrap(y - oy, eh);
    bool inside = x >= ox && y >= oy && x - ox < ew && y - oy < eh;
    if (!inside && gg_rule_is_bounded(sv_world_rule(w)))
        return gg_fail(err, "cell (%lld, %lld) is outside the bounded grid",
                       (long long)x, (long long)y);
    if (!inside && grow(w, x, y, err))
        return -1;
    sv_world_extent(w, &ox, &oy, &ew, &eh);
    int64_t *px, *py;
    gg_gen_cells *c = cells_of(w, &px, &py);
    if (c)
        gg_gen_cells_set(c, x - ox, y - oy, state);
    else if (w->family == SV_LTL)
        w->l.cells[(y - oy) * w->l.w + (x - ox)] = (uint8_t)state;
    else if (w->family == SV_3D)
        gg_grid_set(&w->d.slice, x - ox, y - oy, state);
    else
        gg_grid_set(&w->u.grid, x - ox, y - oy, state);
    return 0;
}

void sv_world_clear(sv_world *w)
{
    *generation_of(w) = 0;
    if (w->family == SV_LTL) {
        memset(w->l.cells, 0, (size_t)(w->l.w * w->l.h));
        return;
    }
    if (w->family == SV_3D) {
        memset(w->d.g.bits, 0,
               (size_t)gg_grid3d_words(&w->d.g) * sizeof(uint64_t));
        return;
    }
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES];
    int64_t x0, y0;
    int n = planes(w, g, &x0, &y0);
    for (int p = 0; p < n; p++)
        memset(g[p]->bits, 0,
               (size_t)(g[p]->stride * g[p]->height) * sizeof(uint64_t));
}

/* Live cells among bits [a, b) of row r. */
static SV_HOT int64_t count_bits(const uint64_t *r, int64_t a, int64_t b)
{
    int64_t n = 0;
    while (a < b) {
        int64_t word = a >> 6, lo = a & 63;
        int64_t hi = (b - (word << 6)) < 64 ? b - (word << 6) : 64;
        uint64_t m = r[word] >> lo;
        if (hi - lo < 64)
            m &= (1ull << (hi - lo)) - 1;
        n += __builtin_popcountll(m);
        a = (word << 6) + hi;
    }
    return n;
}

/* One grid row's live cells added to count[c] for the view's columns:
 * block c covers cells [gx + c * side, + side), wrapped when wrap_w (the
 * torus's width) is set, else clipped to [0, width). Blocks aligned to
 * their size (as the page asks for them) take one masked popcount, or
 * whole words. */
static SV_HOT void count_row(const uint64_t *bits, int64_t width,
                             int64_t wrap_w, int64_t gx, int cols,
                             int level, int64_t *count)
{
    int64_t side = 1LL << level;
    int64_t a = wrap_w ? wrap(gx, wrap_w) : gx;
    bool aligned = (a & (side < 64 ? side - 1 : 63)) == 0 &&
                   (!wrap_w || wrap_w % side == 0);
    uint64_t mask = side < 64 ? (1ull << side) - 1 : ~0ull;
    if (aligned && side >= 64) { /* whole words: one pass along the row */
        int64_t per = side >> 6, nw = (width + 63) >> 6, k = a >> 6;
        for (int c = 0; c < cols; c++) {
            int64_t n = 0;
            if (!wrap_w) {
                /* only the words inside the row: a block of 2^40 cells
                 * must not walk 2^34 words past its end (a fuzzed "view
                 * 0 2 6 70 40" took 62 s) */
                if (k >= nw)
                    break; /* this block and those right of it are empty */
                int64_t end = per > nw - k ? nw : k + per;
                for (int64_t j = k < 0 ? 0 : k; j < end; j++)
                    n += __builtin_popcountll(bits[j]);
                k = end;
            } else {
                for (int64_t j = 0; j < per; j++, k++) {
                    if (k == nw) /* (width is a multiple of side) */
                        k = 0;
                    n += __builtin_popcountll(bits[k]);
                }
            }
            count[c] += n;
        }
        return;
    }
    for (int c = 0; c < cols; c++, a += side) {
        if (wrap_w && a >= wrap_w)
            a -= wrap_w;
        int64_t b = a + side;
        if (aligned && a >= 0 && b <= width) {
            if (side < 64) {
                count[c] += __builtin_popcountll((bits[a >> 6] >> (a & 63)) &
                                                 mask);
            } else {
                int64_t n = 0;
                for (int64_t k = a >> 6; k < b >> 6; k++)
                    n += __builtin_popcountll(bits[k]);
                count[c] += n;
            }
            continue;
        }
        if (wrap_w && b > wrap_w) { /* across the seam */
            count[c] += count_bits(bits, a, wrap_w) +
                        count_bits(bits, 0, b - wrap_w);
            continue;
        }
        if (b <= 0 || a >= width)
            continue;
        count[c] += count_bits(bits, a < 0 ? 0 : a, b > width ? width : b);
    }
}

/* Level k > 0: counts of 2^k squares, shaded; with sample (1 .. side)
 * only that many rows of each square, evenly spaced, are read. */
static void render_blocks(const gg_grid **g, int n, bool torus, int64_t gx,
                          int64_t gy, int cols, int rows, int level,
                          int64_t sample, uint8_t *out, uint64_t *row,
                          int64_t *count)
{
    const gg_grid *g0 = g[0];
    int64_t side = 1LL << level;
    int64_t every = sample > 0 && sample < side ? side / sample : 1;
    double area = (double)side * (double)(side / every);
    for (int r = 0; r < rows; r++) {
        memset(count, 0, (size_t)cols * sizeof *count);
        int64_t y = gy + r * side + every / 2, yend = gy + r * side + side;
        if (!torus) {
            if (y < 0)
                y += (-y + every - 1) / every * every;
            if (yend > g0->height)
                yend = g0->height;
        }
        for (; y < yend; y += every) {
            int64_t gyr = torus ? wrap(y, g0->height) : y;
            const uint64_t *bits = gg_grid_row(g0, gyr);
            if (n > 1) { /* Generations: any state but 0 */
                for (int64_t k = 0; k < g0->stride; k++) {
                    uint64_t v = 0;
                    for (int p = 0; p < n; p++)
                        v |= gg_grid_row(g[p], gyr)[k];
                    row[k] = v;
                }
                bits = row;
            }
            count_row(bits, g0->width, torus ? g0->width : 0, gx, cols,
                      level, count);
        }
        for (int c = 0; c < cols; c++) {
            double s = (double)count[c] / area * 254.0;
            out[(size_t)r * cols + c] =
                count[c] ? (uint8_t)(1 + (s > 254 ? 254 : s)) : 0;
        }
    }
}

/* Level 0: each cell's state, bit by bit along the rows. */
static void render_cells(const gg_grid **g, int n, bool torus, int64_t gx,
                         int64_t gy, int cols, int rows, uint8_t *out)
{
    int64_t width = g[0]->width, height = g[0]->height;
    for (int r = 0; r < rows; r++) {
        int64_t cy = gy + r;
        if (torus)
            cy = wrap(cy, height);
        else if (cy < 0 || cy >= height)
            continue;
        uint8_t *o = out + (size_t)r * cols;
        int c = 0;
        int64_t x = gx;
        if (torus)
            x = wrap(gx, width);
        else if (gx < 0)
            c = gx < -(int64_t)cols ? cols : (int)-gx, x = 0;
        while (c < cols && x < width) {
            int64_t end = width - x < cols - c ? width - x : cols - c;
            for (int p = 0; p < n; p++) {
                const uint64_t *bits = gg_grid_row(g[p], cy);
                for (int64_t k = 0; k < end; k++)
                    o[c + k] |= (uint8_t)(((bits[(x + k) >> 6] >>
                                            ((x + k) & 63)) & 1) << p);
            }
            c += (int)end;
            x = torus ? 0 : width;
        }
    }
}

void sv_world_render(const sv_world *w, int64_t x, int64_t y, int cols,
                     int rows, int level, int64_t sample, uint8_t *out)
{
    if (w->family == SV_LTL)
        return sv_ltl_render(w, x, y, cols, rows, level, sample, out);
    if (w->family == SV_3D && w->d.project)
        return sv_3d_render_sum(w, x, y, cols, rows, level, sample, out);
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES];
    int64_t x0, y0;
    int n = planes(w, g, &x0, &y0);
    int64_t gx = x - x0, gy = y - y0; /* the window in grid cells */
    memset(out, 0, (size_t)cols * rows);
    int64_t side = 1LL << level;
    bool torus = is_torus(w) && side <= g[0]->width && side <= g[0]->height;
    if (!torus && (gx >= g[0]->width || gy >= g[0]->height ||
                   gx + cols * side <= 0 || gy + rows * side <= 0))
        return;
    if (level > 0) {
        uint64_t *row = malloc((size_t)g[0]->stride * sizeof *row);
        int64_t *count = malloc((size_t)cols * sizeof *count);
        if (row && count)
            render_blocks(g, n, torus, gx, gy, cols, rows, level, sample, out,
                          row, count);
        free(row);
        free(count);
        return;
    }
    render_cells(g, n, torus, gx, gy, cols, rows, out);
}

int sv_world_rle(const sv_world *w, char **text, size_t *len, gg_err *err)
{
    if (w->family == SV_3D) /* as golgen run -o OUT.rle3 writes it */
        return gg_rle3_format(&w->d.g, w->d.text, w->d.generation, NULL,
                              text, len, err);
    gg_pattern p;
    if (to_pattern(w, &p, err))
        return -1;
    int bad = gg_pattern_format_rle(&p, text, len, err);
    gg_pattern_free(&p);
    return bad;
}

int sv_world_mc(const sv_world *w, char **text, size_t *len, gg_err *err)
{
    if (w->family == SV_3D)
        return gg_fail(err, "a 3D grid has no macrocell form: save RLE "
                       "(RLE3) instead");
    gg_pattern p;
    if (to_pattern(w, &p, err))
        return -1;
    int bad = gg_pattern_format_mc(&p, text, len, err);
    gg_pattern_free(&p);
    return bad;
}

int sv_world_picture(const sv_world *w, gg_image *im, gg_err *err)
{
    gg_picture_opts o;
    memset(&o, 0, sizeof o);
    gg_picture_info info;
    switch (w->family) {
    case SV_LIFE: return gg_picture_universe(&w->u, &o, im, &info, err);
    case SV_GEN: return gg_picture_gen_universe(&w->g, &o, im, &info, err);
    case SV_TABLE:
        return gg_picture_cells(&w->t.cells, sv_world_states(w),
                                w->t.topo != GG_TOPO_UNBOUNDED, w->t.x0,
                                w->t.y0, &o, im, &info, err);
    case SV_3D: return gg_picture_grid3d(&w->d.g, &o, im, &info, err);
    case SV_LTL: break;
    }
    gg_pattern p;
    if (to_pattern(w, &p, err))
        return -1;
    gg_gen_cells c = {.n_planes = p.n_planes};
    for (int q = 0; q < p.n_planes; q++)
        c.plane[q] = p.plane[q];
    /* (the live box: a bounded grid's dead border is not drawn) */
    int bad = gg_picture_cells(&c, sv_world_states(w), false, p.x, p.y, &o,
                               im, &info, err);
    gg_pattern_free(&p);
    return bad;
}

int sv_world_soup(sv_world *out, const gg_rule *of, int64_t width,
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
    gg_grid *g = out->gen ? &out->g.cells.plane[0] : &out->u.grid;
    gg_grid_random(g, percent == 50 ? 0.5 : percent / 100.0, seed);
    return 0;
}

int sv_world_soup_any(sv_world *out, const sv_rule *rule, int64_t width,
                      int64_t height, int percent, uint64_t seed,
                      gg_err *err)
{
    if (rule->family == SV_LIFE || rule->family == SV_GEN)
        return sv_world_soup(out, &rule->rule, width, height, percent, seed,
                             err);
    if (rule->family == SV_3D)
        return gg_fail(err, "soups are 2D: load an RLE3 pattern for a 3D "
                       "rule");
    /* the rule on a torus of that size, state 1 at random */
    char text[300];
    snprintf(text, sizeof text, "%.*s:T%lld,%lld",
             (int)strcspn(rule->text, ":"), rule->text, (long long)width,
             (long long)height);
    sv_rule r;
    if (sv_rule_parse_any(text, &r, err))
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
    sv_rule_free(&r);
    return bad;
}

int sv_world_paste(sv_world *w, const char *text, size_t len, int64_t x,
                   int64_t y, gg_err *err)
{
    gg_pattern p;
    if (sv_3d_editable(w, err) ||
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
        live += count_planes(rows, p.n_planes, p.plane[0].stride);
    }
    if (!bad && live > SV_MAX_PASTE_CELLS)
        bad = gg_fail(err, "the pasted pattern has %lld live cells: a paste "
                      "takes at most 2^24 (load it instead)", (long long)live);
    for (int64_t r = 0; !bad && r < ph; r++)
        for (int64_t k = 0; !bad && k < p.plane[0].stride; k++) {
            uint64_t m = 0;
            for (int q = 0; q < p.n_planes; q++)
                m |= gg_grid_row(&p.plane[q], r)[k];
            for (; m && !bad; m &= m - 1) {
                int v = gg_pattern_get(&p, k * 64 + __builtin_ctzll(m), r);
                if (v >= sv_world_states(w))
                    bad = gg_fail(err, "the pasted pattern has state %d: "
                                  "this rule has states 0 .. %d", v,
                                  sv_world_states(w) - 1);
            }
        }
    /* room first: the plane grows (to the far corner too), a bounded
     * plane refuses before anything changes */
    int64_t ox, oy, ew, eh;
    sv_world_extent(w, &ox, &oy, &ew, &eh);
    if (!bad && !is_torus(w) &&
        (x < ox || y < oy || x + pw > ox + ew || y + ph > oy + eh)) {
        if (gg_rule_is_bounded(sv_world_rule(w)))
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
                sv_world_set(w, x + c, y + r, gg_pattern_get(&p, c, r), err);
            }
        }
    gg_pattern_free(&p);
    return bad;
}
