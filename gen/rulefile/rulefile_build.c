/* A read @TABLE into the decision DAG: its symmetries expand each
 * transition into permuted copies (as Golly's PackTransitions), then the
 * DAG is built input by input in tree order, a node for each distinct
 * list of transitions still matching (memoized, so equal sub-functions
 * are found once); at the centre, the first matching transition gives the
 * next state and no match keeps the centre's. */
#include "rulefile_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EXPANDED (1 << 22)
#define MAX_ARENA (1LL << 26) /* memo entries' transition lists, in ints */

typedef struct expanded {
    int32_t *base;  /* transition */
    uint8_t *perm;  /* GG_RF_MAX_INPUTS per copy: input p reads set perm[p] */
    int64_t n, cap;
} expanded;

typedef struct memo_slot {
    uint64_t h;
    int64_t off, n; /* the list in the arena; n < 0: empty slot */
    uint32_t node;
    int level;
} memo_slot;

typedef struct builder {
    const gg_rf_table *tab;
    const gg_rf_text *t;
    expanded x;
    int n_tree;
    int tpos[GG_RF_MAX_INPUTS]; /* tree input -> table input, -1: unread */
    memo_slot *slots;
    int64_t n_slots, used;
    int32_t *arena;
    int64_t arena_n, arena_cap;
    gg_rf_dag dag;
    gg_err *err;
} builder;

/* ---- symmetries ---- */

static int add_copy(builder *b, int32_t base, const uint8_t *perm)
{
    expanded *x = &b->x;
    if (x->n == MAX_EXPANDED)
        return gg_rf_fail(b->err, b->t, b->t->line, "more than %d "
                          "transitions once symmetries are applied: too "
                          "large a table", MAX_EXPANDED);
    if (x->n == x->cap) {
        int64_t cap = x->cap ? x->cap * 2 : 1024;
        int32_t *nb = realloc(x->base, (size_t)cap * sizeof *nb);
        if (nb)
            x->base = nb;
        uint8_t *np = nb ? realloc(x->perm, (size_t)cap * GG_RF_MAX_INPUTS)
                         : NULL;
        if (!np)
            return gg_fail(b->err, "out of memory for the table");
        x->perm = np;
        x->cap = cap;
    }
    memcpy(x->perm + x->n * GG_RF_MAX_INPUTS, perm, GG_RF_MAX_INPUTS);
    x->base[x->n++] = base;
    return 0;
}

/* The neighbours in rotation order are table inputs 1..ring; a symmetry
 * is rotations by `step` and, with reflect, their mirror images. */
static void ring_shape(const gg_rf_table *tab, int *ring, int *step,
                       bool *reflect)
{
    const char *s = tab->symmetries;
    *ring = tab->n_inputs - 1;
    *reflect = strstr(s, "reflect") != NULL;
    *step = *ring; /* none, reflect_horizontal: no rotation */
    if (!strncmp(s, "rotate", 6)) {
        int turns = atoi(s + 6); /* rotate4 on Moore: quarter turns */
        *step = *ring / turns;
    }
}

static int symmetric_copies(builder *b, int32_t base)
{
    int ring, step;
    bool reflect;
    ring_shape(b->tab, &ring, &step, &reflect);
    uint8_t perm[GG_RF_MAX_INPUTS] = {0};
    if (b->tab->nbhd == GG_RF_ONEDIM && reflect) { /* W and E swap */
        uint8_t swapped[GG_RF_MAX_INPUTS] = {0, 2, 1};
        uint8_t same[GG_RF_MAX_INPUTS] = {0, 1, 2};
        return add_copy(b, base, same) || add_copy(b, base, swapped);
    }
    for (int mirror = 0; mirror <= (reflect ? 1 : 0); mirror++)
        for (int k = 0; k < ring; k += step) {
            for (int j = 0; j < ring; j++) {
                int src = mirror ? (ring - j) % ring : j;
                perm[1 + j] = (uint8_t)(1 + (src + k) % ring);
            }
            if (add_copy(b, base, perm))
                return -1;
        }
    return 0;
}

/* permute: every distinct arrangement of the neighbours' sets (equal
 * sets are one class, so a multiset's repeats are not made twice) */
static int permuted_copies(builder *b, int32_t base)
{
    const gg_rf_table *tab = b->tab;
    const uint64_t *sets = tab->sets + (int64_t)base * tab->n_inputs * 4;
    int n = tab->n_inputs - 1, cls[GG_RF_MAX_INPUTS], rep[GG_RF_MAX_INPUTS];
    int n_cls = 0;
    for (int i = 0; i < n; i++) {
        int c = 0;
        while (c < n_cls && memcmp(sets + 4 * (1 + rep[c]),
                                   sets + 4 * (1 + i), 32))
            c++;
        if (c == n_cls)
            rep[n_cls++] = i;
        cls[i] = c;
    }
    for (int i = 1; i < n; i++) /* sorted: the first arrangement */
        for (int k = i; k > 0 && cls[k - 1] > cls[k]; k--) {
            int s = cls[k];
            cls[k] = cls[k - 1];
            cls[k - 1] = s;
        }
    for (;;) {
        uint8_t perm[GG_RF_MAX_INPUTS] = {0};
        for (int i = 0; i < n; i++)
            perm[1 + i] = (uint8_t)(1 + rep[cls[i]]);
        if (add_copy(b, base, perm))
            return -1;
        int i = n - 2; /* the next arrangement in lexicographic order */
        while (i >= 0 && cls[i] >= cls[i + 1])
            i--;
        if (i < 0)
            return 0;
        int j = n - 1;
        while (cls[j] <= cls[i])
            j--;
        int s = cls[i];
        cls[i] = cls[j];
        cls[j] = s;
        for (int l = i + 1, r = n - 1; l < r; l++, r--) {
            s = cls[l];
            cls[l] = cls[r];
            cls[r] = s;
        }
    }
}

/* ---- the memo: (tree input, transitions still matching) -> node ---- */

static uint64_t list_hash(int level, const int32_t *a, int64_t n)
{
    uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)level * 0x9e37ull;
    for (int64_t i = 0; i < n; i++)
        h = (h ^ (uint32_t)a[i]) * 0x100000001b3ull;
    return h ^ (h >> 31);
}

static memo_slot *memo_find(builder *b, uint64_t h, int level,
                            const int32_t *a, int64_t n)
{
    int64_t k = (int64_t)(h & (uint64_t)(b->n_slots - 1));
    for (;; k = (k + 1) & (b->n_slots - 1)) {
        memo_slot *s = &b->slots[k];
        if (s->n < 0 || (s->h == h && s->level == level && s->n == n &&
                         (!n || !memcmp(b->arena + s->off, a,
                                        (size_t)n * sizeof *a))))
            return s;
    }
}

static int memo_grow(builder *b)
{
    int64_t n = b->n_slots ? b->n_slots * 2 : 4096;
    memo_slot *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return gg_fail(b->err, "out of memory building the rule's DAG");
    for (int64_t i = 0; i < n; i++)
        s[i].n = -1;
    memo_slot *old = b->slots;
    int64_t old_n = b->n_slots;
    b->slots = s;
    b->n_slots = n;
    for (int64_t i = 0; i < old_n; i++)
        if (old[i].n >= 0) {
            int64_t k = (int64_t)(old[i].h & (uint64_t)(n - 1));
            while (s[k].n >= 0)
                k = (k + 1) & (n - 1);
            s[k] = old[i];
        }
    free(old);
    return 0;
}

static int memo_add(builder *b, uint64_t h, int level, const int32_t *a,
                    int64_t n, uint32_t node)
{
    if (b->arena_n + n > MAX_ARENA)
        return gg_rf_fail(b->err, b->t, b->t->line, "the table is too large "
                          "to turn into a decision DAG (more than %lld "
                          "partial matches)", (long long)MAX_ARENA);
    if (b->arena_n + n > b->arena_cap) {
        int64_t cap = b->arena_cap ? b->arena_cap : 1 << 16;
        while (cap < b->arena_n + n)
            cap *= 2;
        int32_t *na = realloc(b->arena, (size_t)cap * sizeof *na);
        if (!na)
            return gg_fail(b->err, "out of memory building the rule's DAG");
        b->arena = na;
        b->arena_cap = cap;
    }
    if (2 * (b->used + 1) > b->n_slots && memo_grow(b))
        return -1;
    memo_slot *s = memo_find(b, h, level, a, n);
    if (n) /* an empty key: no arena yet, and memcpy takes no NULL */
        memcpy(b->arena + b->arena_n, a, (size_t)n * sizeof *a);
    *s = (memo_slot){.h = h, .off = b->arena_n, .n = n, .node = node,
                     .level = level};
    b->arena_n += n;
    b->used++;
    return 0;
}

/* ---- the DAG ---- */

/* The states copy x of a transition takes at table input `input`: 256
 * bits. */
static const uint64_t *input_set(const builder *b, int32_t x, int input)
{
    const gg_rf_table *tab = b->tab;
    int src = b->x.perm[(int64_t)x * GG_RF_MAX_INPUTS + input];
    return tab->sets + ((int64_t)b->x.base[x] * tab->n_inputs + src) * 4;
}

/* The states 0 .. ns - 1 as 256 bits. */
static void state_mask(int ns, uint64_t m[4])
{
    for (int w = 0; w < 4; w++)
        m[w] = ns >= 64 * (w + 1) ? ~0ull
               : ns > 64 * w      ? (1ull << (ns - 64 * w)) - 1
                                  : 0;
}

/* The centre's node: the first transition matching state v, else v (one
 * pass in alive's order, each state taken by the first that has it). */
static void centre_entries(const builder *b, const int32_t *alive, int64_t n,
                           uint32_t *e)
{
    const int ns = b->tab->n_states, words = (ns + 63) / 64;
    uint64_t left[4];
    state_mask(ns, left);
    for (int v = 0; v < ns; v++)
        e[v] = (uint32_t)v;
    for (int64_t k = 0; k < n; k++) {
        const uint64_t *set = input_set(b, alive[k], 0);
        uint32_t out = b->tab->out[b->x.base[alive[k]]];
        uint64_t any = 0;
        for (int w = 0; w < words; w++) {
            for (uint64_t m = set[w] & left[w]; m; m &= m - 1)
                e[w * 64 + __builtin_ctzll(m)] = out;
            left[w] &= ~set[w];
            any |= left[w];
        }
        if (!any)
            return;
    }
}

/* alive split by the value of table input `input`: the transitions that
 * take value v, in alive's order, at (*sub)[off[v] .. off[v + 1]). One
 * pass over each transition's set bits, where testing every value
 * against every transition took n_states passes. */
static int split_by_value(const builder *b, int input, const int32_t *alive,
                          int64_t n, int64_t *off, int32_t **sub)
{
    const int ns = b->tab->n_states, words = (ns + 63) / 64;
    uint64_t in[4];
    state_mask(ns, in);
    memset(off, 0, (size_t)(ns + 1) * sizeof *off);
    for (int64_t k = 0; k < n; k++) {
        const uint64_t *set = input_set(b, alive[k], input);
        for (int w = 0; w < words; w++)
            for (uint64_t m = set[w] & in[w]; m; m &= m - 1)
                off[w * 64 + __builtin_ctzll(m) + 1]++;
    }
    for (int v = 0; v < ns; v++)
        off[v + 1] += off[v];
    *sub = malloc((size_t)(off[ns] ? off[ns] : 1) * sizeof **sub);
    if (!*sub)
        return gg_fail(b->err, "out of memory building the rule's DAG");
    int64_t fill[256];
    memcpy(fill, off, (size_t)ns * sizeof *fill);
    for (int64_t k = 0; k < n; k++) {
        const uint64_t *set = input_set(b, alive[k], input);
        for (int w = 0; w < words; w++)
            for (uint64_t m = set[w] & in[w]; m; m &= m - 1)
                (*sub)[fill[w * 64 + __builtin_ctzll(m)]++] = alive[k];
    }
    return 0;
}

/* Node for tree input i given the transitions still matching: its offset
 * in the DAG, -1 on failure. */
static int64_t build(builder *b, int i, const int32_t *alive, int64_t n)
{
    uint64_t h = list_hash(i, alive, n);
    if (b->n_slots) {
        memo_slot *s = memo_find(b, h, i, alive, n);
        if (s->n >= 0)
            return s->node;
    }
    uint32_t e[256];
    int ns = b->tab->n_states;
    if (i == b->n_tree - 1) {
        centre_entries(b, alive, n, e);
    } else if (b->tpos[i] < 0) { /* an input this neighbourhood ignores */
        int64_t c = build(b, i + 1, alive, n);
        if (c < 0)
            return -1;
        for (int v = 0; v < ns; v++)
            e[v] = (uint32_t)c;
    } else {
        int64_t off[257];
        int32_t *sub;
        if (split_by_value(b, b->tpos[i], alive, n, off, &sub))
            return -1;
        for (int v = 0; v < ns; v++) {
            int64_t c = build(b, i + 1, sub + off[v], off[v + 1] - off[v]);
            if (c < 0) {
                free(sub);
                return -1;
            }
            e[v] = (uint32_t)c;
        }
        free(sub);
    }
    int64_t node = gg_rf_dag_node(&b->dag, b->n_tree - i, e, b->err);
    if (node < 0 || memo_add(b, h, i, alive, n, (uint32_t)node))
        return -1;
    return node;
}

/* Tree order (nw ne sw se n w e s c, or n w e s c) in table inputs. */
static void tree_order(builder *b)
{
    static const int order[4][GG_RF_MAX_INPUTS] = {
        {8, 2, 6, 4, 1, 7, 3, 5, 0},     /* Moore: c n ne e se s sw w nw */
        {1, 4, 2, 3, 0},                 /* vonNeumann: c n e s w */
        {6, -1, -1, 3, 1, 5, 2, 4, 0},   /* hexagonal: c n e se s w nw */
        {-1, 1, 2, -1, 0}};              /* oneDimensional: c w e */
    gg_rf_nbhd nb = b->tab->nbhd;
    b->n_tree = nb == GG_RF_MOORE || nb == GG_RF_HEXAGONAL ? 9 : 5;
    memcpy(b->tpos, order[nb], sizeof b->tpos);
}

static int expand_all(builder *b)
{
    const gg_rf_table *tab = b->tab;
    bool permute = !strcmp(tab->symmetries, "permute");
    for (int64_t t = 0; t < tab->n_base; t++)
        if (permute ? permuted_copies(b, (int32_t)t)
                    : symmetric_copies(b, (int32_t)t))
            return -1;
    return 0;
}

int gg_rf_table_build(const gg_rf_table *tab, const gg_rf_text *t,
                      gg_rulefile *rf, gg_err *err)
{
    builder b = {.tab = tab, .t = t, .err = err};
    tree_order(&b);
    int bad = gg_rf_dag_init(&b.dag, tab->n_states, err) || expand_all(&b);
    int32_t *all = bad ? NULL : malloc((size_t)(b.x.n + 1) * sizeof *all);
    if (!bad && !all)
        bad = gg_fail(err, "out of memory for the table");
    for (int64_t k = 0; !bad && k < b.x.n; k++)
        all[k] = (int32_t)k;
    int64_t root = bad ? -1 : build(&b, 0, all, b.x.n);
    if (root >= 0) {
        rf->is_tree = false;
        rf->n_states = tab->n_states;
        rf->nbhd = tab->nbhd;
        snprintf(rf->symmetries, sizeof rf->symmetries, "%s",
                 tab->symmetries);
        rf->n_transitions = tab->n_lines;
        rf->n_expanded = b.x.n;
        rf->n_inputs = b.n_tree;
        gg_rf_dag_finish(&b.dag, rf, (uint32_t)root);
    }
    gg_rf_dag_free(&b.dag);
    free(all);
    free(b.x.base);
    free(b.x.perm);
    free(b.slots);
    free(b.arena);
    return root < 0 ? -1 : 0;
}
