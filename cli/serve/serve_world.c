/* golgen serve: the universe on view (serve_world.h). */
#include "serve_world.h"

#include <stdlib.h>
#include <string.h>

#include "pattern.h"

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

int sv_world_from_pattern(sv_world *w, const char *rule_text,
                          const char *fallback, const gg_pattern *p,
                          int64_t max_cells, gg_err *err)
{
    const char *r = rule_text  ? rule_text
                    : p->rule  ? p->rule
                    : fallback ? fallback
                               : "B3/S23";
    gg_rule rule;
    return gg_rule_parse(r, &rule, err) ||
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

int64_t sv_world_population(const sv_world *w)
{
    return w->gen ? gg_gen_universe_population(&w->g)
                  : gg_universe_population(&w->u);
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
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES];
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
static int64_t count_bits(const uint64_t *r, int64_t a, int64_t b)
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

/* Level k > 0: counts of 2^k squares, shaded. */
static void render_blocks(const gg_grid **g, int n, int64_t gx, int64_t gy,
                          int cols, int rows, int level, uint8_t *out,
                          uint64_t *row, int64_t *count)
{
    const gg_grid *g0 = g[0];
    int64_t side = 1LL << level;
    double area = (double)side * (double)side;
    for (int r = 0; r < rows; r++) {
        memset(count, 0, (size_t)cols * sizeof *count);
        int64_t y = gy + r * side, yend = y + side;
        if (y < 0)
            y = 0;
        if (yend > g0->height)
            yend = g0->height;
        for (; y < yend; y++) {
            const uint64_t *bits = gg_grid_row(g0, y);
            if (n > 1) { /* Generations: any state but 0 */
                for (int64_t k = 0; k < g0->stride; k++) {
                    uint64_t v = 0;
                    for (int p = 0; p < n; p++)
                        v |= gg_grid_row(g[p], y)[k];
                    row[k] = v;
                }
                bits = row;
            }
            for (int c = 0; c < cols; c++) {
                int64_t a = gx + c * side, b = a + side;
                if (b <= 0 || a >= g0->width)
                    continue;
                count[c] += count_bits(bits, a < 0 ? 0 : a,
                                       b > g0->width ? g0->width : b);
            }
        }
        for (int c = 0; c < cols; c++) {
            double s = (double)count[c] / area * 254.0;
            out[(size_t)r * cols + c] =
                count[c] ? (uint8_t)(1 + (s > 254 ? 254 : s)) : 0;
        }
    }
}

void sv_world_render(const sv_world *w, int64_t x, int64_t y, int cols,
                     int rows, int level, uint8_t *out)
{
    const gg_grid *g[GG_GEN_CELLS_MAX_PLANES];
    int64_t x0, y0;
    int n = planes(w, g, &x0, &y0);
    int64_t gx = x - x0, gy = y - y0; /* the window in grid cells */
    memset(out, 0, (size_t)cols * rows);
    int64_t side = 1LL << level;
    if (gx >= g[0]->width || gy >= g[0]->height || gx + cols * side <= 0 ||
        gy + rows * side <= 0)
        return;
    if (level > 0) {
        uint64_t *row = malloc((size_t)g[0]->stride * sizeof *row);
        int64_t *count = malloc((size_t)cols * sizeof *count);
        if (row && count)
            render_blocks(g, n, gx, gy, cols, rows, level, out, row, count);
        free(row);
        free(count);
        return;
    }
    for (int r = 0; r < rows; r++) {
        int64_t cy = gy + r;
        if (cy < 0 || cy >= g[0]->height)
            continue;
        int c0 = gx < 0 ? (int)-gx : 0;
        int64_t c1 = g[0]->width - gx < cols ? g[0]->width - gx : cols;
        for (int64_t c = c0; c < c1; c++) {
            int s = 0;
            for (int p = 0; p < n; p++)
                s |= gg_grid_get(g[p], gx + c, cy) << p;
            out[(size_t)r * cols + c] = (uint8_t)s;
        }
    }
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
