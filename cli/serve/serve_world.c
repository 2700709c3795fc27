/* golgen serve: the universe on view (serve_world.h). */
#include "serve_world.h"

#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "picture.h"
#include "rule3d.h"
#include "rule_ltl.h"

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

static int from_pattern(sv_world *w, const gg_rule *rule, const gg_pattern *p,
                        gg_err *err)
{
    memset(w, 0, sizeof *w);
    w->gen = gg_rule_is_generations(rule);
    return w->gen ? gg_gen_universe_from_pattern(&w->g, rule, p, err)
                  : gg_universe_from_pattern(&w->u, rule, p, err);
}

/* A bounded grid of more than max_cells cells (0: any) refused. */
static int size_check(const gg_rule *rule, int64_t max_cells, gg_err *err)
{
    if (max_cells && gg_rule_is_bounded(rule) &&
        (double)rule->width * (double)rule->height > (double)max_cells)
        return gg_fail(err, "a grid of %lld x %lld cells: the page takes "
                       "at most %lld (start golgen serve --rule with it)",
                       (long long)rule->width, (long long)rule->height,
                       (long long)max_cells);
    return 0;
}

int sv_rule_parse(const char *text, gg_rule *rule, gg_err *err)
{
    const char *family = gg_ltl_looks_like(text)   ? "Larger than Life"
                         : gg_rule3d_is_3d(text) ? "3D"
                                                 : NULL;
    if (family)
        return gg_fail(err, "'%s' is a %s rule: golgen serve shows "
                       "two-state and Generations rules only (golgen run "
                       "runs it)", text, family);
    if (!gg_rule_parse(text, rule, err))
        return 0;
    /* a Golly rule table's name, or a typo: say what the viewer takes */
    gg_err why = *err;
    return gg_fail(err, "%s (golgen serve shows two-state and Generations "
                   "rules; rule tables run with golgen run)", why.msg);
}

int sv_world_from_pattern(sv_world *w, const char *rule_text,
                          const char *fallback, const gg_pattern *p,
                          int64_t max_cells, gg_err *err)
{
    const char *r = rule_text  ? rule_text
                    : p->rule  ? p->rule
                    : fallback ? fallback
                               : "B3/S23";
    gg_rule rule;
    return sv_rule_parse(r, &rule, err) ||
                   size_check(&rule, max_cells, err) ||
                   from_pattern(w, &rule, p, err)
               ? -1
               : 0;
}

int sv_world_parse(sv_world *w, const char *rule_text, const char *fallback,
                   const char *text, size_t len, const char *name,
                   int64_t max_cells, gg_err *err)
{
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
    return w->gen ? gg_gen_universe_to_pattern(&w->g, p, err)
                  : gg_universe_to_pattern(&w->u, p, err);
}

int sv_world_with_rule(const sv_world *w, const gg_rule *rule,
                       int64_t max_cells, sv_world *out, gg_err *err)
{
    if (size_check(rule, max_cells, err))
        return -1;
    gg_pattern p;
    if (to_pattern(w, &p, err))
        return -1;
    /* Golly's default place on a bounded grid is centred; keep the cells
     * where they are */
    p.positioned = true;
    int bad = from_pattern(out, rule, &p, err);
    gg_pattern_free(&p);
    return bad;
}

void sv_world_free(sv_world *w)
{
    if (w->gen)
        gg_gen_universe_free(&w->g);
    else
        gg_universe_free(&w->u);
    memset(w, 0, sizeof *w);
}

const gg_rule *sv_world_rule(const sv_world *w)
{
    return w->gen ? &w->g.rule : &w->u.rule;
}

int sv_world_states(const sv_world *w)
{
    return w->gen ? w->g.rule.states : 2;
}

int64_t sv_world_generation(const sv_world *w)
{
    return w->gen ? w->g.generation : w->u.generation;
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
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES] = {0};
    const uint64_t *p[GG_GEN_CELLS_MAX_PLANES];
    int64_t x0, y0;
    int n = planes(w, g, &x0, &y0);
    for (int q = 0; q < n; q++)
        p[q] = g[q]->bits;
    return count_planes(p, n, g[0]->stride * g[0]->height);
}

/* The planes (1 for two states) and the grid's place. */
static int planes(const sv_world *w, const gg_grid **g, int64_t *x0,
                  int64_t *y0)
{
    if (!w->gen) {
        g[0] = &w->u.grid;
        *x0 = w->u.x0, *y0 = w->u.y0;
        return 1;
    }
    for (int p = 0; p < w->g.cells.n_planes; p++)
        g[p] = &w->g.cells.plane[p];
    *x0 = w->g.x0, *y0 = w->g.y0;
    return w->g.cells.n_planes;
}

void sv_world_extent(const sv_world *w, int64_t *x, int64_t *y, int64_t *wd,
                     int64_t *ht)
{
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES] = {0};
    planes(w, g, x, y);
    *wd = g[0]->width, *ht = g[0]->height;
}

bool sv_world_bbox(const sv_world *w, int64_t *x, int64_t *y, int64_t *wd,
                   int64_t *ht)
{
    int64_t x0, y0, x1, y1, ox, oy, ew, eh;
    sv_world_extent(w, &ox, &oy, &ew, &eh);
    bool any = w->gen ? gg_gen_cells_bbox(&w->g.cells, &x0, &y0, &x1, &y1)
                      : gg_grid_bbox(&w->u.grid, &x0, &y0, &x1, &y1);
    if (!any)
        return false;
    *x = ox + x0, *y = oy + y0;
    *wd = x1 - x0 + 1, *ht = y1 - y0 + 1;
    return true;
}

#define SV_MAX_GROW (1LL << 30) /* cells a grown plane may hold */
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
    if (nw > SV_MAX_GROW || nh > SV_MAX_GROW || nw * nh > SV_MAX_GROW)
        return gg_fail(err, "cell (%lld, %lld) is too far from the "
                       "universe (%lld x %lld cells; at most 2^30)",
                       (long long)x, (long long)y, (long long)nw,
                       (long long)nh);
    if (w->gen) {
        gg_gen_cells c;
        if (gg_gen_cells_init(&c, w->g.cells.n_planes, nw, nh, err))
            return -1;
        gg_gen_cells_blit(&c, &w->g.cells, ox - nx, oy - ny);
        gg_gen_cells_free(&w->g.cells);
        w->g.cells = c;
        w->g.x0 = nx, w->g.y0 = ny;
        return 0;
    }
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
    if (w->gen)
        gg_gen_cells_set(&w->g.cells, x - ox, y - oy, state);
    else
        gg_grid_set(&w->u.grid, x - ox, y - oy, state);
    return 0;
}

void sv_world_clear(sv_world *w)
{
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES];
    int64_t x0, y0;
    int n = planes(w, g, &x0, &y0);
    for (int p = 0; p < n; p++)
        memset(g[p]->bits, 0,
               (size_t)(g[p]->stride * g[p]->height) * sizeof(uint64_t));
    if (w->gen)
        w->g.generation = 0;
    else
        w->u.generation = 0;
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
    gg_pattern p;
    if (to_pattern(w, &p, err))
        return -1;
    int bad = gg_pattern_format_rle(&p, text, len, err);
    gg_pattern_free(&p);
    return bad;
}

int sv_world_mc(const sv_world *w, char **text, size_t *len, gg_err *err)
{
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
    return w->gen ? gg_picture_gen_universe(&w->g, &o, im, &info, err)
                  : gg_picture_universe(&w->u, &o, im, &info, err);
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

int sv_world_paste(sv_world *w, const char *text, size_t len, int64_t x,
                   int64_t y, gg_err *err)
{
    gg_pattern p;
    if (gg_pattern_parse(text, len, "the pasted pattern", &p, err))
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
