/* The hash-tree engine's universe: made, filled from a pattern, run (its
 * leaf size revised during a long run), counted, drawn back into a
 * pattern (runtime/engines/hashlife.h). */
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

/* A B0 rule's leaves, each generation by its parity's rule (the step in
 * flight starts from h->step_parity: a step of an even count from an even
 * generation splits into even counts from even offsets, so every leaf
 * square starts even too): a batch's whole count in one call where one
 * backend steps both rules (gg_backend_pairs), else a generation a call,
 * alternating the two backends. */
static int pair_leaves(void *ctx, gg_gen_cells *cells, int64_t gens,
                       gg_err *err)
{
    gg_hl *h = ctx;
    if (h->odd_backend == h->backend)
        return gg_backend_advance_parity(h->backend, GG_TOPO_PLANE,
                                         &cells->plane[0], gens,
                                         h->step_parity, err);
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
    if (odd == h->backend && !gg_backend_pairs(odd))
        return gg_fail(err, "%s: the tree's backend steps one rule; give "
                       "the odd generations' own backend", h->rule_text);
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

/* The store's arrays freed (nodes, leaves, table, the leaf scratch, the
 * populations, the small squares' results, the queues): what a new leaf
 * size, a store taken from another tree and the end of the tree share. */
static void store_release(gg_hl *h)
{
    hl_store_free(h);
    gg_gen_cells_free(&h->scratch);
    free(h->pop);
    h->pop = NULL;
    hl_small_free(h);
    for (int i = 0; i < HL_QUEUES; i++) {
        free(h->queue[i]);
        h->queue[i] = NULL;
    }
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
    store_release(h);
    memset(h->empty, 0, sizeof h->empty);
    h->free_nodes = 0, h->free_leaves = 0;
    h->cap_nodes = 0, h->cap_leaves = 0;
    h->live_nodes = 0, h->live_leaves = 0;
    h->n_buckets = 0, h->bucket_mapped = 0;
    h->node_reserved = 0, h->leaf_reserved = 0;
    return store_open(h, leaf_log, err);
}

int gg_hl_leaf_log(const gg_hl *h) { return h->leaf_log; }

/* ---- the leaf size revised during a run (gg_hl_set_revise) ----
 *
 * 32x32 leaves win where the leaf squares a run steps are as varied as
 * its nodes (every row of issue 38's suite but one); jagged2.mc repeats
 * at small scale only after its first thousands of generations: at 32x32
 * its 65536 generations step 76,275 leaf squares, at 8x8 5,655, for the
 * same 0.45M nodes (CPU 0.20 s against 0.14). No measure of its input
 * tells it apart; after 1024 generations its leaves hold 375 distinct
 * 8x8 blocks for 2,583 squares stepped (0.15 a square), the suite's
 * other patterns 0.6-3.4 a square (BENCHMARKS.md, "Session 32"). */

void gg_hl_set_revise(gg_hl *h, bool on) { h->revise = on; }

/* A run of at least HL_REVISE_GENS generations (below HL_REVISE_MAX) is
 * revised after its first HL_REVISE_AFTER: leaves go to 8x8 when the
 * live leaves hold fewer distinct 8x8 blocks than a HL_REVISE_SHARE-th
 * of the squares stepped (at least HL_REVISE_STEPS of them: a gun's few
 * hundred say nothing). */
#define HL_REVISE_GENS 8192
#define HL_REVISE_MAX ((int64_t)1 << 24)
#define HL_REVISE_AFTER 1024
#define HL_REVISE_SHARE 4
#define HL_REVISE_STEPS 1024
#define HL_REVISE_LOG 3

/* The live leaves hold at most `most` distinct 8x8 blocks (one plane,
 * leaves of 8x8 or larger); stops counting past it. */
static bool few_blocks(const gg_hl *h, int64_t most)
{
    uint64_t cap = 64;
    while (cap < (uint64_t)most * 2 + 2)
        cap *= 2;
    uint64_t *set = calloc(cap, sizeof *set);
    if (!set)
        return false;
    int per = h->leaf_side / 8;
    int64_t seen = 1; /* the empty block, never stored */
    for (int64_t i = 1; i < h->n_nodes && seen <= most; i++) {
        if (!(h->node[i].flags & HL_LIVE) || h->node[i].level != h->leaf_log)
            continue;
        const uint64_t *rows = hl_rows(h, (hl_id)i);
        for (int b = 0; b < per * per; b++) {
            uint64_t v = 0;
            for (int y = 0; y < 8; y++)
                v |= (rows[b / per * 8 + y] >> (b % per * 8) & 0xff) << 8 * y;
            for (uint64_t k = v * 0x9e3779b97f4a7c15ull >> 20; v; k++) {
                uint64_t *at = &set[k & (cap - 1)];
                if (*at == v)
                    break;
                if (!*at) {
                    *at = v;
                    seen++;
                    break;
                }
            }
        }
    }
    free(set);
    return seen <= most;
}

/* The node of t of `level` (t's leaf level or more, at most h's) for the
 * square of h's leaf rows whose top-left cell is (x, y). */
static hl_id split_leaf(gg_hl *t, const gg_hl *h, const uint64_t *rows,
                        int level, int x, int y)
{
    if (level == t->leaf_log) {
        uint64_t r[HL_MAX_LW], any = 0;
        for (int p = 0; p < t->planes; p++)
            for (int i = 0; i < t->leaf_side; i++)
                any |= r[p * t->leaf_side + i] =
                    rows[p * h->leaf_side + y + i] >> x & t->leaf_mask;
        return any ? hl_leaf(t, r) : hl_empty(t, level);
    }
    int half = 1 << (level - 1);
    return hl_join(t, split_leaf(t, h, rows, level - 1, x, y),
                   split_leaf(t, h, rows, level - 1, x + half, y),
                   split_leaf(t, h, rows, level - 1, x, y + half),
                   split_leaf(t, h, rows, level - 1, x + half, y + half));
}

/* h's node n as t's (memo: t's node for each of h's ids, 0 not yet). */
static hl_id convert(gg_hl *t, const gg_hl *h, hl_id n, hl_id *memo)
{
    if (memo[n])
        return memo[n];
    const hl_node *d = &h->node[n];
    hl_id r;
    if (hl_is_empty(h, n))
        r = hl_empty(t, d->level);
    else if (d->level == h->leaf_log)
        r = split_leaf(t, h, hl_rows(h, n), d->level, 0, 0);
    else
        r = hl_join(t, convert(t, h, d->child[0], memo),
                    convert(t, h, d->child[1], memo),
                    convert(t, h, d->child[2], memo),
                    convert(t, h, d->child[3], memo));
    return memo[n] = r;
}

/* h's store (nodes, leaves, table, scratch, queues) freed and t's taken:
 * the leaves' size with it; the memoized results are gone. */
static void take_store(gg_hl *h, gg_hl *t)
{
    store_release(h);
    h->node = t->node, h->n_nodes = t->n_nodes, h->cap_nodes = t->cap_nodes;
    h->node_reserved = t->node_reserved;
    h->leaf_reserved = t->leaf_reserved;
    h->bucket_mapped = t->bucket_mapped;
    h->free_nodes = t->free_nodes;
    leaf_shape(h, t->leaf_log);
    h->leaf = t->leaf, h->n_leaves = t->n_leaves;
    h->cap_leaves = t->cap_leaves, h->free_leaves = t->free_leaves;
    h->live_nodes = t->live_nodes, h->live_leaves = t->live_leaves;
    h->bucket = t->bucket, h->n_buckets = t->n_buckets;
    h->pop = t->pop;
    memcpy(h->empty, t->empty, sizeof h->empty);
    h->root = t->root;
    h->scratch = t->scratch;
    memcpy(h->queue, t->queue, sizeof h->queue);
    memcpy(h->n_queue, t->n_queue, sizeof h->n_queue);
    h->small = t->small, h->small_bytes = t->small_bytes;
    h->odd_gens = 0;
}

/* The tree at leaves 2^leaf_log a side (smaller than its own), the same
 * cells; where the new store does not fit, the tree stays as it was. */
static void shrink_leaves(gg_hl *h, int leaf_log)
{
    gg_err ignored;
    gg_hl *t = calloc(1, sizeof *t);
    hl_id *memo = calloc((size_t)h->n_nodes, sizeof *memo);
    bool made = false;
    if (t && memo) {
        t->planes = h->planes;
        t->states = h->states;
        t->mem_limit = h->mem_limit;
        t->step_log = -1;
        t->err = &ignored;
        made = !store_open(t, leaf_log, &ignored) &&
               (t->root = convert(t, h, h->root, memo)) != 0;
    }
    free(memo);
    if (made) {
        take_store(h, t);
        free(t); /* its arrays are h's now */
    } else {
        gg_hl_free(t);
    }
}

/* The progress of a run's second part, counted from the run's start. */
typedef struct part_progress {
    gg_progress_fn fn;
    void *ctx;
    int64_t before, total;
} part_progress;

static bool part_progress_cb(void *ctx, int64_t done, int64_t total)
{
    const part_progress *p = ctx;
    (void)total;
    return p->fn(p->ctx, p->before + done, p->total);
}

/* One rule's count (hl_step.c), revised after its first part where
 * gg_hl_set_revise allows. Counts from 2^24 up keep their passes
 * (hl_step.c's one pass a bit above 2^24, each a step of 2^k). */
static int run_revised(gg_hl *h, int64_t gens, bool (*stop)(void),
                       int64_t *done, gg_err *err)
{
    bool now = h->revise && h->planes == 1 &&
               h->leaf_log > HL_REVISE_LOG && gens >= HL_REVISE_GENS &&
               gens < HL_REVISE_MAX;
    if (!now)
        return hl_run_count(h, gens, stop, done, err);
    h->revise = false;
    int64_t first = 0, rest = 0;
    int rc = hl_run_count(h, HL_REVISE_AFTER, stop, &first, err);
    if (!rc && first == HL_REVISE_AFTER) {
        part_progress pp = {h->progress, h->progress_ctx, first, gens};
        if (h->progress)
            gg_hl_set_progress(h, part_progress_cb, &pp);
        int64_t steps = h->stats.base_steps;
        /* both stores are held while the tree moves: half the budget */
        if (steps >= HL_REVISE_STEPS && hl_bytes(h) <= h->mem_limit / 2 &&
            few_blocks(h, steps / HL_REVISE_SHARE))
            shrink_leaves(h, HL_REVISE_LOG);
        rc = hl_run_count(h, gens - first, stop, &rest, err);
        if (pp.fn)
            gg_hl_set_progress(h, pp.fn, pp.ctx);
    }
    if (done)
        *done = first + rest;
    return rc;
}

int gg_hl_run(gg_hl *h, int64_t gens, bool (*stop)(void),
              int64_t *done, gg_err *err)
{
    if (!h->odd_backend)
        return run_revised(h, gens, stop, done, err);
    /* two rules by parity: the memo holds steps from even generations, so
     * a generation from an odd one, and an odd count's last, go alone */
    int64_t ran = 0, part = 0;
    int rc = 0;
    for (int64_t left = gens; !rc && left > 0; left -= part) {
        part = (h->generation & 1) || left == 1 ? 1 : left & ~(int64_t)1;
        int64_t got = 0;
        rc = hl_run_count(h, part, stop, &got, err);
        ran += got;
        if (got < part)
            break;
    }
    if (done)
        *done = ran;
    return rc;
}

void gg_hl_set_rule_text(gg_hl *h, const char *text)
{
    snprintf(h->rule_text, sizeof h->rule_text, "%s", text);
}

void gg_hl_free(gg_hl *h)
{
    if (!h)
        return;
    store_release(h);
    hl_scratch_free(h);
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
