/* The hash-tree engine's universe out: its box, a dense pattern of it,
 * and macrocell files in and out at any size (runtime/engines/hashlife.h). */
#include "hl_tree.h"

#include <stdlib.h>
#include <string.h>

#include "mc_lines.h"
#include "mc_tree.h"

typedef struct box {
    int64_t x0, y0, x1, y1; /* inside the node; x1 < x0: empty */
} box;

/* Each node's live box relative to its top-left cell, once per node. */
typedef struct box_memo {
    box *b;
    uint8_t *done;
} box_memo;

static box leaf_box(const gg_hl *h, hl_id n)
{
    box b = {h->leaf_side, h->leaf_side, -1, -1};
    const uint64_t *r = hl_rows(h, n);
    for (int y = 0; y < h->leaf_side; y++) {
        uint64_t any = hl_live_row(h, r, y);
        if (!any)
            continue;
        int lo = __builtin_ctzll(any), hi = 63 - __builtin_clzll(any);
        b.x0 = lo < b.x0 ? lo : b.x0;
        b.x1 = hi > b.x1 ? hi : b.x1;
        b.y0 = y < b.y0 ? y : b.y0;
        b.y1 = y;
    }
    return b;
}

static box node_box(gg_hl *h, box_memo *m, hl_id n)
{
    if (m->done[n])
        return m->b[n];
    box b = {1, 1, -1, -1};
    if (h->node[n].level == h->leaf_log) {
        b = leaf_box(h, n);
    } else if (!hl_is_empty(h, n)) {
        int64_t half = (int64_t)1 << (h->node[n].level - 1);
        bool any = false;
        for (int q = 0; q < 4; q++) {
            box c = node_box(h, m, h->node[n].child[q]);
            if (c.x1 < c.x0)
                continue;
            int64_t dx = (q & 1) * half, dy = (q >> 1) * half;
            b.x0 = any && b.x0 < c.x0 + dx ? b.x0 : c.x0 + dx;
            b.y0 = any && b.y0 < c.y0 + dy ? b.y0 : c.y0 + dy;
            b.x1 = any && b.x1 > c.x1 + dx ? b.x1 : c.x1 + dx;
            b.y1 = any && b.y1 > c.y1 + dy ? b.y1 : c.y1 + dy;
            any = true;
        }
    }
    m->done[n] = 1;
    return m->b[n] = b;
}

static int64_t root_x(const gg_hl *h)
{
    return -((int64_t)1 << (h->node[h->root].level - 1));
}

bool gg_hl_bbox(gg_hl *h, int64_t *x0, int64_t *y0, int64_t *x1,
                int64_t *y1)
{
    box_memo m = {malloc((size_t)h->n_nodes * sizeof(box)),
                  calloc((size_t)h->n_nodes, 1)};
    box b = {1, 1, -1, -1};
    if (m.b && m.done)
        b = node_box(h, &m, h->root);
    free(m.b);
    free(m.done);
    int64_t rx = root_x(h), ry = rx + 1;
    *x0 = rx + b.x0, *y0 = ry + b.y0, *x1 = rx + b.x1, *y1 = ry + b.y1;
    return b.x1 >= b.x0;
}

/* h->leaf_side cells into grid row y from column x (inside the grid where
 * they are live). */
static void or_bits(gg_grid *g, int64_t x, int64_t y, uint64_t bits)
{
    if (!bits || y < 0 || y >= g->height)
        return;
    if (x < 0) {
        bits >>= -x;
        x = 0;
    }
    uint64_t *row = gg_grid_row(g, y);
    int s = (int)(x & 63);
    row[x >> 6] |= bits << s;
    if (s && (x >> 6) + 1 < g->stride)
        row[(x >> 6) + 1] |= bits >> (64 - s);
}

/* Node n drawn into the pattern's planes with its top-left cell at
 * (x, y). */
static void paint(gg_hl *h, hl_id n, gg_pattern *p, int64_t x, int64_t y)
{
    const gg_grid *g = &p->plane[0];
    int64_t size = (int64_t)1 << h->node[n].level;
    if (hl_is_empty(h, n) || x >= g->width || y >= g->height ||
        x + size <= 0 || y + size <= 0)
        return;
    if (h->node[n].level == h->leaf_log) {
        const uint64_t *r = hl_rows(h, n);
        for (int k = 0; k < h->planes; k++)
            for (int i = 0; i < h->leaf_side; i++)
                or_bits(&p->plane[k], x, y + i, r[k * h->leaf_side + i]);
        return;
    }
    int64_t half = size / 2;
    for (int q = 0; q < 4; q++)
        paint(h, h->node[n].child[q], p, x + (q & 1) * half,
              y + (q >> 1) * half);
}

int gg_hl_to_pattern(gg_hl *h, int64_t max_cells, gg_pattern *p,
                     gg_err *err)
{
    int64_t x0, y0, x1, y1;
    memset(p, 0, sizeof *p);
    bool any = gg_hl_bbox(h, &x0, &y0, &x1, &y1);
    double cells = any ? (double)(x1 - x0 + 1) * (double)(y1 - y0 + 1) : 0;
    if (cells > (double)max_cells)
        return gg_fail(err, "the live cells span %lld x %lld, too large for "
                       "a dense pattern; write a macrocell file (.mc)",
                       (long long)(x1 - x0 + 1), (long long)(y1 - y0 + 1));
    if (gg_pattern_init(p, any ? x1 - x0 + 1 : 0, any ? y1 - y0 + 1 : 0,
                        h->planes, err))
        return -1;
    p->rule = strdup(h->rule_text);
    if (!p->rule) {
        gg_pattern_free(p);
        return gg_fail(err, "out of memory");
    }
    p->x = any ? x0 : 0;
    p->y = any ? y0 : 0;
    p->positioned = true;
    p->generation = h->generation;
    p->multistate = h->planes > 1; /* Golly's letters, as run writes */
    if (any)
        paint(h, h->root, p, root_x(h) - x0, root_x(h) + 1 - y0);
    return 0;
}

/* ---- macrocell out ---- */

typedef struct mc_out {
    gg_hl *h;
    gg_mc_lines lines;
    uint32_t *line; /* per node: its line + 1, 0 not yet written */
} mc_out;

/* The state of cell (x, y) of a leaf block (its planes one after the
 * other). */
static uint8_t leaf_state(const gg_hl *h, const uint64_t *rows, int x, int y)
{
    unsigned v = 0;
    for (int p = 0; p < h->planes; p++)
        v |= (unsigned)((rows[p * h->leaf_side + y] >> x) & 1) << p;
    return (uint8_t)v;
}

/* The 2^level square at (x, y) of a leaf's rows as macrocell lines: 8x8
 * leaf lines for two states, level-1 lines of states for more (as Golly
 * writes each). */
static uint32_t leaf_part(mc_out *o, const uint64_t *rows, int level, int x,
                          int y)
{
    if (o->h->planes > 1 && level == 1) {
        uint8_t st[4] = {leaf_state(o->h, rows, x, y),
                         leaf_state(o->h, rows, x + 1, y),
                         leaf_state(o->h, rows, x, y + 1),
                         leaf_state(o->h, rows, x + 1, y + 1)};
        return gg_mc_state_line(&o->lines, st);
    }
    if (o->h->planes == 1 && level == 3) {
        uint64_t bits = 0;
        for (int r = 0; r < 8; r++)
            bits |= ((rows[y + r] >> x) & 0xff) << (8 * r);
        return gg_mc_leaf_line(&o->lines, bits);
    }
    int half = 1 << (level - 1);
    uint32_t c[4] = {leaf_part(o, rows, level - 1, x, y),
                     leaf_part(o, rows, level - 1, x + half, y),
                     leaf_part(o, rows, level - 1, x, y + half),
                     leaf_part(o, rows, level - 1, x + half, y + half)};
    return gg_mc_node_line(&o->lines, level, c);
}

/* A two-state node of level 3 above 4 x 4 leaves as one 8x8 leaf line
 * (Golly's smallest two-state node). */
static uint32_t small_leaf_line(mc_out *o, hl_id n)
{
    gg_hl *h = o->h;
    uint64_t bits = 0;
    for (int q = 0; q < 4; q++) {
        const uint64_t *r = hl_rows(h, h->node[n].child[q]);
        for (int y = 0; y < 4; y++)
            bits |= (r[y] & 15) << (8 * (y + 4 * (q >> 1)) + 4 * (q & 1));
    }
    return gg_mc_leaf_line(&o->lines, bits);
}

static uint32_t node_lines(mc_out *o, hl_id n)
{
    gg_hl *h = o->h;
    if (hl_is_empty(h, n))
        return 0;
    if (o->line[n])
        return o->line[n] - 1;
    uint32_t id;
    if (h->planes == 1 && h->leaf_log < 3 && h->node[n].level == 3) {
        id = small_leaf_line(o, n);
    } else if (h->node[n].level == h->leaf_log) {
        id = leaf_part(o, hl_rows(h, n), h->leaf_log, 0, 0);
    } else {
        uint32_t c[4];
        for (int q = 0; q < 4; q++)
            c[q] = node_lines(o, h->node[n].child[q]);
        id = gg_mc_node_line(&o->lines, h->node[n].level, c);
    }
    o->line[n] = id + 1;
    return id;
}

/* The root's centred square of `level` (>= 4) as lines; 0 when empty. */
static uint32_t root_lines(mc_out *o, int level)
{
    gg_hl *h = o->h;
    hl_id n = h->root;
    int target = level > h->leaf_log ? level : h->leaf_log;
    while (n && h->node[n].level > target)
        n = hl_centre(h, n);
    if (!n) {
        o->lines.out.failed = true;
        return 0;
    }
    if (level > h->leaf_log)
        return node_lines(o, n);
    int at = h->leaf_side / 2 - (1 << (level - 1)); /* the square in the leaf */
    return leaf_part(o, hl_rows(h, n), level, at, at);
}

int gg_hl_write_mc(gg_hl *h, const char *path, const char *rule_text,
                   gg_err *err)
{
    mc_out o = {.h = h};
    int64_t x0, y0, x1, y1;
    gg_mc_header(&o.lines.out, rule_text, h->generation, NULL);
    if (gg_hl_bbox(h, &x0, &y0, &x1, &y1)) {
        if (!(o.line = calloc((size_t)h->n_nodes + 64, sizeof *o.line)))
            o.lines.out.failed = true;
        else
            root_lines(&o, gg_mc_root_level(x0, y0, x1, y1));
        free(o.line);
    }
    char *text;
    size_t len;
    if (gg_mc_lines_take(&o.lines, &text, &len, err))
        return -1;
    int rc = gg_pattern_write_text(path, text, len, err);
    free(text);
    return rc;
}

/* ---- macrocell in ---- */

/* The node of `level` (>= the leaf's) whose top-left cell is (x, y) of
 * the drawn planes g. */
static hl_id square_node(gg_hl *h, const gg_grid *g, int level, int x, int y)
{
    if (level == h->leaf_log) {
        uint64_t rows[HL_MAX_LW];
        for (int p = 0; p < h->planes; p++)
            for (int r = 0; r < h->leaf_side; r++)
                rows[p * h->leaf_side + r] =
                    (gg_grid_row(&g[p], y + r)[0] >> x) & h->leaf_mask;
        return hl_leaf(h, rows);
    }
    int half = 1 << (level - 1);
    return hl_join(h, square_node(h, g, level - 1, x, y),
                   square_node(h, g, level - 1, x + half, y),
                   square_node(h, g, level - 1, x, y + half),
                   square_node(h, g, level - 1, x + half, y + half));
}

/* The file's tree as nodes: leaves drawn from its 8x8 lines (or its
 * level-1 lines of states), nodes above joined; a root below leaf + 2
 * levels is drawn dense and placed. */
int gg_hl_set_mc(gg_hl *h, const gg_mc_tree *t, gg_err *err)
{
    uint32_t root = (uint32_t)(t->n - 1);
    int level = t->node[root].level;
    int states = h->states;
    if (t->max_state >= states)
        return gg_fail(err, "the macrocell file has cells in state %d, but "
                       "%s has %d states", t->max_state, h->rule_text,
                       states);
    h->generation = t->generation;
    if (root == 0 || t->node[root].empty) {
        h->root = hl_empty(h, h->leaf_log + 2);
        return 0;
    }
    if (level < h->leaf_log + 2) {
        gg_pattern p = {.n_planes = h->planes, .generation = t->generation};
        int64_t half = (int64_t)1 << (level - 1);
        if (gg_pattern_init(&p, 2 * half, 2 * half, h->planes, err))
            return -1;
        p.generation = t->generation;
        gg_mc_draw_planes(t->node, root, p.plane, h->planes, 0, 0);
        p.x = -half, p.y = -half + 1;
        int rc = gg_hl_set_pattern(h, &p, err);
        gg_pattern_free(&p);
        return rc;
    }
    hl_id *map = calloc(t->n, sizeof *map);
    gg_grid leaf[GG_GEN_CELLS_MAX_PLANES] = {{0}};
    bool room = map != NULL;
    /* a two-state file's smallest nodes are 8x8 lines: leaves of 4x4 are
     * cut from them */
    int drawn = h->planes == 1 && h->leaf_log < 3 ? 3 : h->leaf_log;
    for (int p = 0; p < h->planes && room; p++)
        room = !gg_grid_init(&leaf[p], 1 << drawn, 1 << drawn, err);
    if (!room) {
        free(map);
        for (int p = 0; p < h->planes; p++)
            gg_grid_free(&leaf[p]);
        return gg_fail(err, "out of memory reading a macrocell file");
    }
    for (uint32_t i = 1; i < t->n; i++) {
        const gg_mc_node *d = &t->node[i];
        if (d->level < drawn)
            continue;
        if (d->level == drawn) {
            for (int p = 0; p < h->planes; p++)
                memset(leaf[p].bits, 0,
                       (size_t)leaf[p].stride * (size_t)leaf[p].height * 8);
            gg_mc_draw_planes(t->node, i, leaf, h->planes, 0, 0);
            map[i] = square_node(h, leaf, drawn, 0, 0);
        } else {
            hl_id c[4];
            for (int q = 0; q < 4; q++)
                c[q] = d->child[q] ? map[d->child[q]]
                                   : hl_empty(h, d->level - 1);
            map[i] = hl_join(h, c[0], c[1], c[2], c[3]);
        }
        if (!map[i])
            break;
    }
    hl_id r = map[root];
    free(map);
    for (int p = 0; p < h->planes; p++)
        gg_grid_free(&leaf[p]);
    if (!r)
        return gg_fail(err, "the macrocell pattern does not fit in the hash "
                       "tree's memory budget (%lld bytes): allow more with "
                       "--mem", (long long)h->mem_limit);
    h->root = r;
    return 0;
}
