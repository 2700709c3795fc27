/* The hash-tree engine's universe: made, filled from a pattern, counted,
 * drawn back into a pattern (runtime/engines/hashlife.h). */
#include "hl_small.h"
#include "hl_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rule_gen.h"

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

/* A B0 rule's leaves: a generation a call, each by its parity's rule
 * (the step in flight starts from h->step_parity: a step of an even count
 * from an even generation splits into even counts from even offsets, so
 * every leaf square starts even too). */
static int pair_leaves(void *ctx, gg_gen_cells *cells, int64_t gens,
                       gg_err *err)
{
    gg_hl *h = ctx;
    for (int64_t g = 0; g < gens; g++) {
        gg_backend *b = (h->step_parity + g) & 1 ? h->odd_backend
                                                  : h->backend;
        if (gg_backend_advance(b, GG_TOPO_PLANE, &cells->plane[0], 1, err))
            return -1;
    }
    return 0;
}

int gg_hl_set_odd_backend(gg_hl *h, gg_backend *odd, gg_err *err)
{
    if (!h->backend || h->planes != 1)
        return gg_fail(err, "%s: two rules by parity are for a two-state "
                       "rule's tree (gg_hl_new)", h->rule_text);
    h->odd_backend = odd;
    h->leaves.step = pair_leaves;
    h->leaves.ctx = h;
    h->single_parity = -1;
    return 0;
}

/* The batches of leaf squares a backend call steps: at most
 * HL_BATCH_WIDTH cells wide (the cpu kernel's widest tile, where it runs
 * 10x faster than on one 128-cell square) and HL_BATCH_CELLS in all. */
#define HL_BATCH_WIDTH 3968
#define HL_BATCH_CELLS (1 << 21)

static void leaf_shape(gg_hl *h, int leaf_log)
{
    int sq = 2 << leaf_log;
    h->leaf_log = leaf_log;
    h->leaf_side = 1 << leaf_log;
    h->leaf_mask = h->leaf_side == 64 ? ~0ull : (1ull << h->leaf_side) - 1;
    h->lw = h->planes * h->leaf_side;
    h->batch_cols = HL_BATCH_WIDTH / sq;
    h->batch_max = h->batch_cols * (HL_BATCH_CELLS / (HL_BATCH_WIDTH * sq));
}

/* An empty store of leaves 2^leaf_log a side. */
static int store_open(gg_hl *h, int leaf_log, gg_err *err)
{
    if (leaf_log < HL_LEAF_LOG_MIN || leaf_log > HL_LEAF_LOG_MAX)
        return gg_fail(err, "a hash-tree leaf is %d to %d cells a side, not "
                       "%d", 1 << HL_LEAF_LOG_MIN, 1 << HL_LEAF_LOG_MAX,
                       1 << leaf_log);
    leaf_shape(h, leaf_log);
    h->n_nodes = 1;  /* id 0: none */
    h->n_leaves = 1; /* block 0: the end of the free list */
    hl_store_init(h);
    if (hl_table_init(h, 1 << 12) ||
        gg_gen_cells_init(&h->scratch, h->planes, 2 * h->leaf_side, 2 * h->leaf_side,
                          err) ||
        !(h->root = hl_empty(h, h->leaf_log + 2)))
        return gg_fail(err, "the hash tree's first nodes do not fit in %lld "
                       "bytes: allow more with --mem",
                       (long long)h->mem_limit);
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
    h->step_log = -1;
    h->planes = planes_for(s->states);
    h->err = err;
    if (store_open(h, s->leaf_log ? s->leaf_log : HL_LEAF_LOG_DEFAULT,
                   err)) {
        gg_hl_free(h);
        return -1;
    }
    *out = h;
    return 0;
}

int gg_hl_set_leaf_log(gg_hl *h, int leaf_log, gg_err *err)
{
    if (leaf_log == h->leaf_log)
        return 0;
    if (leaf_log < HL_LEAF_LOG_MIN || leaf_log > HL_LEAF_LOG_MAX)
        return gg_fail(err, "a hash-tree leaf is %d to %d cells a side",
                       1 << HL_LEAF_LOG_MIN, 1 << HL_LEAF_LOG_MAX);
    if (!hl_is_empty(h, h->root) || h->generation)
        return gg_fail(err, "the hash tree's leaf size is set before its "
                       "pattern");
    /* nothing but empty nodes yet: a new store in place of the old */
    hl_store_free(h);
    gg_gen_cells_free(&h->scratch);
    free(h->pop);
    h->pop = NULL;
    memset(h->empty, 0, sizeof h->empty);
    h->free_nodes = 0, h->free_leaves = 0;
    h->cap_nodes = 0, h->cap_leaves = 0;
    h->live_nodes = 0, h->live_leaves = 0;
    h->n_buckets = 0, h->bucket_mapped = 0;
    h->node_reserved = 0, h->leaf_reserved = 0;
    for (int i = 0; i < HL_QUEUES; i++) {
        free(h->queue[i]);
        h->queue[i] = NULL;
    }
    hl_small_free(h);
    return store_open(h, leaf_log, err);
}

int gg_hl_leaf_log(const gg_hl *h) { return h->leaf_log; }

void gg_hl_set_rule_text(gg_hl *h, const char *text)
{
    snprintf(h->rule_text, sizeof h->rule_text, "%s", text);
}

void gg_hl_free(gg_hl *h)
{
    if (!h)
        return;
    hl_store_free(h);
    free(h->pop);
    gg_gen_cells_free(&h->scratch);
    hl_small_free(h);
    hl_scratch_free(h);
    for (int i = 0; i < HL_QUEUES; i++)
        free(h->queue[i]);
    free(h);
}

/* A leaf row's cells (mask: its bits) of grid row y from column x (any
 * x; outside is dead). */
static uint64_t grid_bits(const gg_grid *g, int64_t x, int64_t y,
                          uint64_t mask)
{
    if (y < 0 || y >= g->height || x >= g->width || x + 64 <= 0)
        return 0;
    const uint64_t *row = gg_grid_row(g, y);
    if (x < 0)
        return (row[0] << -x) & mask;
    int64_t w = x >> 6;
    int s = (int)(x & 63);
    uint64_t v = row[w] >> s;
    if (s && w + 1 < g->stride)
        v |= row[w + 1] << (64 - s);
    return v & mask;
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
    if (level == h->leaf_log) {
        uint64_t rows[HL_MAX_LW] = {0}, any = 0;
        for (int i = 0; i < h->planes && i < p->n_planes; i++)
            for (int r = 0; r < h->leaf_side; r++)
                any |= rows[i * h->leaf_side + r] =
                    grid_bits(&p->plane[i], x, y + r, h->leaf_mask);
        /* a sparse box is mostly empty leaves: no hash for those */
        return any ? hl_leaf(h, rows) : hl_empty(h, level);
    }
    int64_t half = size / 2;
    hl_id nw = build(h, p, level - 1, x, y);
    hl_id ne = build(h, p, level - 1, x + half, y);
    hl_id sw = build(h, p, level - 1, x, y + half);
    hl_id se = build(h, p, level - 1, x + half, y + half);
    hl_id e = hl_empty(h, level - 1);
    if (nw == e && ne == e && sw == e && se == e)
        return hl_empty(h, level);
    return hl_join(h, nw, ne, sw, se);
}

int hl_states_fit(const gg_hl *h, int max, gg_err *err)
{
    int states = h->states;
    if (max < states)
        return 0;
    return gg_fail(err, "the pattern has cells in state %d; %s has %d "
                   "states (0 to %d)", max, h->rule_text, states,
                   states - 1);
}

int hl_level_for(const gg_hl *h, int64_t x0, int64_t y0, int64_t x1,
                 int64_t y1)
{
    int level = h->leaf_log + 2;
    for (; level < HL_MAX_LEVEL; level++) {
        int64_t half = (int64_t)1 << (level - 1);
        if (x0 >= -half && x1 < half && y0 >= -half + 1 && y1 < half + 1)
            break;
    }
    return level;
}

int hl_set_root(gg_hl *h, hl_id root, gg_err *err)
{
    if (!root)
        return gg_fail(err, "the pattern does not fit in the hash tree's "
                       "memory budget (%lld bytes): allow more with --mem",
                       (long long)h->mem_limit);
    h->root = root;
    return 0;
}

int gg_hl_set_pattern(gg_hl *h, const gg_pattern *p, gg_err *err)
{
    const gg_grid *g = &p->plane[0];
    int64_t bx0, by0, bx1, by1;
    if (hl_states_fit(h, gg_pattern_max_state(p), err))
        return -1;
    h->generation = p->generation;
    if (!g->bits || !gg_pattern_bbox(p, &bx0, &by0, &bx1, &by1)) {
        h->root = hl_empty(h, h->leaf_log + 2);
        return 0;
    }
    int level =
        hl_level_for(h, p->x + bx0, p->y + by0, p->x + bx1, p->y + by1);
    int64_t half = (int64_t)1 << (level - 1);
    /* the root's top-left cell in the pattern's grid */
    hl_id root = build(h, p, level, -half - p->x, -half + 1 - p->y);
    return hl_set_root(h, root, err);
}

int64_t gg_hl_generation(const gg_hl *h) { return h->generation; }

/* Cells in any state but 0 in a leaf's rows. */
GG_POPCNT_HOT static int64_t leaf_population(const gg_hl *h,
                                             const uint64_t *r)
{
    int64_t sum = 0;
    for (int i = 0; i < h->leaf_side; i++)
        sum += __builtin_popcountll(hl_live_row(h, r, i));
    return sum;
}

/* Out of memory for the memo: counted along the tree's shared paths
 * again and again (slow for a deep repetitive tree, still right). */
static int64_t hl_population_unmemoized(gg_hl *h, hl_id n)
{
    int64_t sum = 0;
    if (h->node[n].level == h->leaf_log) {
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
    if (h->node[n].level == h->leaf_log) { /* a cell in any plane */
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
