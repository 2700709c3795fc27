/* The hash-tree engine's universe: made, filled from a pattern, counted,
 * drawn back into a pattern (runtime/engines/hashlife.h). */
#include "hl_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rule_gen.h"

#define LEAF_MASK (HL_LEAF == 64 ? ~0ull : (1ull << HL_LEAF) - 1)

/* The backend's leaf step: a two-state rule's one plane as a grid. */
static int backend_leaves(void *ctx, gg_gen_cells *cells, int64_t gens,
                          gg_err *err)
{
    return cells->n_planes > 1
               ? gg_backend_advance_cells(ctx, GG_TOPO_PLANE, cells, gens,
                                          err)
               : gg_backend_advance(ctx, GG_TOPO_PLANE, &cells->plane[0],
                                    gens, err);
}

int gg_hl_new(const gg_rule *rule, gg_backend *b, int64_t mem_bytes,
              gg_hl **out, gg_err *err)
{
    char text[256];
    *out = NULL;
    gg_rule_format(rule, text, sizeof text);
    if (gg_rule_is_bounded(rule))
        return gg_fail(err, "%s: the hash-tree engine runs rules on the "
                       "unbounded plane only so far; use --engine dense",
                       text);
    if (gg_rule_has_b0(rule))
        return gg_fail(err, "%s: B0 rules turn the whole unbounded plane on; "
                       "give a bounded grid (:T or :P) and --engine dense",
                       text);
    gg_hl_leaf_stepper s = {
        .rule_text = text,
        .states = gg_rule_is_generations(rule) ? rule->states : 2,
        .step = backend_leaves, .ctx = b};
    if (gg_hl_new_stepped(&s, mem_bytes, out, err))
        return -1;
    (*out)->has_rule = true;
    (*out)->rule = *rule;
    (*out)->backend = b;
    return 0;
}

/* Planes enough for `states` states. */
static int planes_for(int states)
{
    int n = 1;
    while ((1 << n) < states)
        n++;
    return n;
}

int gg_hl_new_stepped(const gg_hl_leaf_stepper *s, int64_t mem_bytes,
                      gg_hl **out, gg_err *err)
{
    *out = NULL;
    if (s->states < 2 || planes_for(s->states) > GG_GEN_CELLS_MAX_PLANES)
        return gg_fail(err, "%s: the hash-tree engine takes 2 to %d states, "
                       "not %d", s->rule_text, 1 << GG_GEN_CELLS_MAX_PLANES,
                       s->states);
    gg_hl *h = calloc(1, sizeof *h);
    if (!h)
        return gg_fail(err, "out of memory");
    snprintf(h->rule_text, sizeof h->rule_text, "%s", s->rule_text);
    h->leaves = *s;
    h->leaves.rule_text = h->rule_text;
    h->states = s->states;
    h->mem_limit = mem_bytes;
    h->n_nodes = 1; /* id 0: none */
    h->step_log = -1;
    h->n_leaves = 1; /* block 0: the end of the free list */
    h->planes = planes_for(s->states);
    h->lw = h->planes * HL_LEAF;
    h->err = err;
    hl_store_init(h);
    if (hl_table_init(h, 1 << 12) ||
        gg_gen_cells_init(&h->scratch, h->planes, 2 * HL_LEAF, 2 * HL_LEAF,
                          err) ||
        !(h->root = hl_empty(h, HL_LEAF_LOG + 2))) {
        gg_hl_free(h);
        return gg_fail(err, "the hash tree's first nodes do not fit in %lld "
                       "bytes: allow more with --mem", (long long)mem_bytes);
    }
    *out = h;
    return 0;
}

void gg_hl_free(gg_hl *h)
{
    if (!h)
        return;
    hl_store_free(h);
    free(h->pop);
    gg_gen_cells_free(&h->scratch);
    free(h->frame);
    free(h->waiter);
    free(h->req);
    for (int i = 0; i < HL_LEAF_LOG; i++)
        free(h->queue[i]);
    free(h);
}

/* HL_LEAF cells of grid row y from column x (any x; outside is dead). */
static uint64_t grid_bits(const gg_grid *g, int64_t x, int64_t y)
{
    if (y < 0 || y >= g->height || x >= g->width || x + HL_LEAF <= 0)
        return 0;
    const uint64_t *row = gg_grid_row(g, y);
    if (x < 0)
        return (row[0] << -x) & LEAF_MASK;
    int64_t w = x >> 6;
    int s = (int)(x & 63);
    uint64_t v = row[w] >> s;
    if (s && w + 1 < g->stride)
        v |= row[w + 1] << (64 - s);
    return v & LEAF_MASK;
}

/* The node of `level` whose top-left cell is pattern cell (x, y); the
 * pattern's planes beyond its own are 0. */
static hl_id build(gg_hl *h, const gg_pattern *p, int level, int64_t x,
                   int64_t y)
{
    const gg_grid *g = &p->plane[0];
    int64_t size = (int64_t)1 << level;
    if (x >= g->width || y >= g->height || x + size <= 0 || y + size <= 0)
        return hl_empty(h, level);
    if (level == HL_LEAF_LOG) {
        uint64_t rows[HL_MAX_LW] = {0};
        for (int i = 0; i < h->planes && i < p->n_planes; i++)
            for (int r = 0; r < HL_LEAF; r++)
                rows[i * HL_LEAF + r] = grid_bits(&p->plane[i], x, y + r);
        return hl_leaf(h, rows);
    }
    int64_t half = size / 2;
    hl_id nw = build(h, p, level - 1, x, y);
    hl_id ne = build(h, p, level - 1, x + half, y);
    hl_id sw = build(h, p, level - 1, x, y + half);
    hl_id se = build(h, p, level - 1, x + half, y + half);
    return hl_join(h, nw, ne, sw, se);
}

/* The pattern's states fit the rule's. */
static int states_fit(const gg_hl *h, const gg_pattern *p, gg_err *err)
{
    int max = gg_pattern_max_state(p);
    int states = h->states;
    if (max < states)
        return 0;
    return gg_fail(err, "the pattern has cells in state %d; %s has %d "
                   "states (0 to %d)", max, h->rule_text, states,
                   states - 1);
}

/* The smallest root level (>= leaf + 2) whose area holds the box. */
static int level_for(int64_t x0, int64_t y0, int64_t x1, int64_t y1)
{
    int level = HL_LEAF_LOG + 2;
    for (; level < HL_MAX_LEVEL; level++) {
        int64_t half = (int64_t)1 << (level - 1);
        if (x0 >= -half && x1 < half && y0 >= -half + 1 && y1 < half + 1)
            break;
    }
    return level;
}

int gg_hl_set_pattern(gg_hl *h, const gg_pattern *p, gg_err *err)
{
    const gg_grid *g = &p->plane[0];
    int64_t bx0, by0, bx1, by1;
    if (states_fit(h, p, err))
        return -1;
    h->generation = p->generation;
    if (!g->bits || !gg_pattern_bbox(p, &bx0, &by0, &bx1, &by1)) {
        h->root = hl_empty(h, HL_LEAF_LOG + 2);
        return 0;
    }
    int level = level_for(p->x + bx0, p->y + by0, p->x + bx1, p->y + by1);
    int64_t half = (int64_t)1 << (level - 1);
    /* the root's top-left cell in the pattern's grid */
    hl_id root = build(h, p, level, -half - p->x, -half + 1 - p->y);
    if (!root)
        return gg_fail(err, "the pattern does not fit in the hash tree's "
                       "memory budget (%lld bytes): allow more with --mem",
                       (long long)h->mem_limit);
    h->root = root;
    return 0;
}

int64_t gg_hl_generation(const gg_hl *h) { return h->generation; }

/* Cells in any state but 0 in a leaf's rows. */
GG_POPCNT_HOT static int64_t leaf_population(const gg_hl *h,
                                             const uint64_t *r)
{
    int64_t sum = 0;
    for (int i = 0; i < HL_LEAF; i++)
        sum += __builtin_popcountll(hl_live_row(h, r, i));
    return sum;
}

/* Out of memory for the memo: counted along the tree's shared paths
 * again and again (slow for a deep repetitive tree, still right). */
static int64_t hl_population_unmemoized(gg_hl *h, hl_id n)
{
    int64_t sum = 0;
    if (h->node[n].level == HL_LEAF_LOG) {
        return leaf_population(h, hl_rows(h, n));
    }
    if (hl_is_empty(h, n))
        return 0;
    for (int i = 0; i < 4; i++) {
        int64_t c = hl_population_unmemoized(h, h->node[n].child[i]);
        sum = c > INT64_MAX - sum ? INT64_MAX : sum + c;
    }
    return sum;
}

int64_t hl_population(gg_hl *h, hl_id n)
{
    if (!h->pop) { /* the first count: every node's unknown yet */
        size_t cap = (size_t)(h->cap_nodes > 1 ? h->cap_nodes : 1);
        if (!(h->pop = malloc(cap * sizeof *h->pop)))
            return hl_population_unmemoized(h, n);
        memset(h->pop, 0xff, cap * sizeof *h->pop); /* -1 each */
    }
    if (h->pop[n] >= 0)
        return h->pop[n];
    int64_t sum = 0;
    if (h->node[n].level == HL_LEAF_LOG) { /* a cell in any plane */
        sum = leaf_population(h, hl_rows(h, n));
    } else {
        for (int i = 0; i < 4; i++) {
            int64_t c = hl_population(h, h->node[n].child[i]);
            sum = c > INT64_MAX - sum ? INT64_MAX : sum + c;
        }
    }
    return h->pop[n] = sum;
}

int64_t gg_hl_population(gg_hl *h) { return hl_population(h, h->root); }

void gg_hl_stats_get(const gg_hl *h, gg_hl_stats *s)
{
    *s = h->stats;
    s->nodes = h->live_nodes;
    s->leaves = h->live_leaves;
    s->bytes = hl_bytes(h);
}
