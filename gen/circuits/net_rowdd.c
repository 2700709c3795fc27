#include "net_rowdd.h"

#include <stdlib.h>
#include <string.h>

#include "net_resub.h"

/* A variable: cell i (op CELL) or cells i and j combined. */
enum { CELL, XOR, AND };
typedef struct var {
    uint8_t op, i, j;
} var;

enum { MAXV = 12, MAXW = 64, MAXN = 1024, CELLS = 9, PAIR_SEARCHES = 6 };

/* The pool a search draws its orders from (see net_rowdd.h); inputs are
 * NW 0, N 1, NE 2, W 3, E 4, SW 5, S 6, SE 7, centre 8. */
static const var pair_pool[] = {
    {XOR, 0, 5}, {XOR, 1, 6}, {XOR, 2, 7}, {AND, 0, 5}, {XOR, 0, 1},
    {XOR, 0, 2}, {AND, 2, 7}, {CELL, 0, 0}, {CELL, 8, 0}, {CELL, 4, 0},
    {AND, 1, 6}, {CELL, 3, 0}};
/* cell orders: the last three (one row) are the shared LUTs' inputs */
static const uint8_t cell_starts[3][CELLS] = {{0, 1, 2, 5, 6, 7, 3, 8, 4},
                                              {3, 8, 4, 5, 6, 7, 0, 1, 2},
                                              {0, 1, 2, 3, 8, 4, 5, 6, 7}};

/* What a node of the diagram refers to: a signal (maybe complemented) or
 * a constant (sig < 0, neg its value). */
typedef struct ref {
    int sig;
    uint8_t neg;
} ref;

typedef struct level {
    int n, m, words;     /* pre-merge nodes, merged nodes, words a node */
    uint64_t *care, *on; /* pre-merge nodes */
    uint64_t *mcare, *mon;
    int16_t to[MAXN];    /* pre node -> merged node, -1 constant, -2 literal */
    uint8_t neg[MAXN];   /* complement (constant: its value; literal: var) */
    uint8_t lit[MAXN];   /* literal: which of the last three variables */
    uint8_t mux[MAXN];   /* merged node: a multiplexer (else passed down) */
    int16_t kid[MAXN][2];
    ref sig[MAXN];       /* merged node's signal while building */
} level;

typedef struct dd {
    int n; /* variables in the order */
    var v[MAXV];
    uint64_t val[MAXV][8]; /* variable's value on the 512 rows */
    uint64_t in[CELLS][8]; /* the cells' */
    level lv[MAXV];
    uint64_t *arena;
    const gg_tt *t;
} dd;

static int level_cap(int j)
{
    return j >= 10 ? MAXN : 1 << j;
}

static int level_words(int n, int j)
{
    int bits = 1 << (n - j);
    return bits <= 64 ? 1 : bits / 64;
}

/* Arena for every level: pre and merged nodes, care and on. */
static int dd_alloc(dd *d, int n, gg_err *err)
{
    size_t total = 0;
    for (int j = 0; j <= n - 3; j++)
        total += 4 * (size_t)level_cap(j) * (size_t)level_words(n, j);
    d->arena = gg_alloc(total, sizeof *d->arena, err, "decision diagram");
    if (!d->arena)
        return -1;
    uint64_t *p = d->arena;
    for (int j = 0; j <= n - 3; j++) {
        level *l = &d->lv[j];
        size_t sz = (size_t)level_cap(j) * (size_t)level_words(n, j);
        l->words = level_words(n, j);
        l->care = p, p += sz;
        l->on = p, p += sz;
        l->mcare = p, p += sz;
        l->mon = p, p += sz;
    }
    return 0;
}

static void set_order(dd *d, const var *order, int n)
{
    d->n = n;
    for (int j = 0; j <= n - 3; j++) /* the arena fits MAXV variables */
        d->lv[j].words = level_words(n, j);
    for (int k = 0; k < n; k++) {
        const var *v = &order[k];
        d->v[k] = *v;
        for (int w = 0; w < 8; w++) {
            uint64_t a = d->in[v->i][w], b = d->in[v->j][w];
            d->val[k][w] = v->op == CELL ? a : v->op == XOR ? a ^ b : a & b;
        }
    }
}

/* Whether node (c, o) is constant on its care rows: 0 or 1, else -1. */
static int constant(const uint64_t *c, const uint64_t *o, int w,
                    uint64_t mask)
{
    uint64_t on = 0, off = 0;
    for (int k = 0; k < w; k++) {
        on |= c[k] & o[k];
        off |= c[k] & ~o[k];
    }
    on &= mask, off &= mask;
    return !on ? 0 : !off ? 1 : -1;
}

/* Whether (c1, o1) agrees with (c2, o2), complemented when neg, on the
 * rows both care about. */
static bool agrees(const uint64_t *c1, const uint64_t *o1, const uint64_t *c2,
                   const uint64_t *o2, int w, bool neg, uint64_t mask)
{
    for (int k = 0; k < w; k++) {
        uint64_t x = c1[k] & c2[k] & (neg ? ~(o1[k] ^ o2[k]) : o1[k] ^ o2[k]);
        if (x & mask)
            return false;
    }
    return true;
}

/* The literal masks of the last three variables over a leaf's 8 rows. */
static const uint8_t lit_mask[3] = {0xF0, 0xCC, 0xAA};

/* Merges level j's pre nodes: constants and (at the leaves) literals
 * apart, the rest first-fit into merged nodes, complements included. */
static void merge(dd *d, int j)
{
    level *l = &d->lv[j];
    int w = l->words;
    uint64_t mask = w == 1 && d->n - j < 6 ? (1ull << (1 << (d->n - j))) - 1
                                           : ~0ull;
    bool leaf = j == d->n - 3;
    l->m = 0;
    for (int p = 0; p < l->n; p++) {
        uint64_t *c = l->care + (size_t)p * w, *o = l->on + (size_t)p * w;
        int k = constant(c, o, w, mask);
        if (k >= 0) {
            l->to[p] = -1;
            l->neg[p] = (uint8_t)k;
            continue;
        }
        if (leaf) {
            int found = -1;
            for (int v = 0; v < 3 && found < 0; v++)
                for (int ng = 0; ng < 2 && found < 0; ng++) {
                    uint64_t lo = ng ? ~lit_mask[v] & 0xFFu : lit_mask[v];
                    if (!((c[0] & (o[0] ^ lo)) & 0xFF)) {
                        found = v;
                        l->neg[p] = (uint8_t)ng;
                    }
                }
            if (found >= 0) {
                l->to[p] = -2;
                l->lit[p] = (uint8_t)found;
                continue;
            }
        }
        int q = 0;
        bool ng = false;
        for (; q < l->m; q++) {
            uint64_t *mc = l->mcare + (size_t)q * w, *mo = l->mon + (size_t)q * w;
            if (agrees(mc, mo, c, o, w, false, mask))
                break;
            if (agrees(mc, mo, c, o, w, true, mask)) {
                ng = true;
                break;
            }
        }
        uint64_t *mc = l->mcare + (size_t)q * w, *mo = l->mon + (size_t)q * w;
        if (q == l->m) {
            memset(mc, 0, sizeof *mc * (size_t)w);
            memset(mo, 0, sizeof *mo * (size_t)w);
            l->m++;
        }
        for (int k2 = 0; k2 < w; k2++) {
            mo[k2] |= c[k2] & (ng ? ~o[k2] : o[k2]);
            mc[k2] |= c[k2];
        }
        l->to[p] = (int16_t)q;
        l->neg[p] = ng;
    }
}

/* Appends a pre node at level j + 1 from half `half` of (c, o) at level j
 * (half -1: both halves together). */
static int push_half(dd *d, int j, const uint64_t *c, const uint64_t *o,
                     int half)
{
    level *l = &d->lv[j], *nx = &d->lv[j + 1];
    if (nx->n >= level_cap(j + 1))
        return -1;
    int w = l->words, nw = nx->words, bits = 1 << (d->n - j - 1);
    uint64_t *nc = nx->care + (size_t)nx->n * nw;
    uint64_t *no = nx->on + (size_t)nx->n * nw;
    for (int h = 0; h < 2; h++) {
        if (half >= 0 && h != half)
            continue;
        for (int k = 0; k < nw; k++) {
            uint64_t hc, ho;
            if (w == 1) {
                uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
                hc = c[0] >> (h * bits) & m;
                ho = o[0] >> (h * bits) & m;
            } else {
                hc = c[h * (w / 2) + k];
                ho = o[h * (w / 2) + k];
            }
            if (half >= 0 || h == 0) {
                nc[k] = hc;
                no[k] = ho & hc;
            } else {
                nc[k] |= hc;
                no[k] |= ho & hc;
            }
        }
    }
    return nx->n++;
}

/* The diagram for the current order: its LUTs (-1 when a level
 * overflows or the variables do not determine t). */
static int diagram(dd *d)
{
    int n = d->n;
    level *l0 = &d->lv[0];
    memset(l0->care, 0, sizeof *l0->care * (size_t)l0->words);
    memset(l0->on, 0, sizeof *l0->on * (size_t)l0->words);
    for (int r = 0; r < 512; r++) {
        if (!gg_tt_get(d->t->care, r))
            continue;
        int x = 0;
        for (int k = 0; k < n; k++)
            x |= (int)(d->val[k][r >> 6] >> (r & 63) & 1) << (n - 1 - k);
        int v = gg_tt_get(d->t->on, r);
        if (gg_tt_get(l0->care, x) && gg_tt_get(l0->on, x) != v)
            return -1;
        gg_tt_put(l0->care, x, 1);
        gg_tt_put(l0->on, x, v);
    }
    l0->n = 1;
    int cost = 0;
    bool used[MAXV] = {false};
    for (int j = 0; j < n - 3; j++) {
        level *l = &d->lv[j];
        merge(d, j);
        d->lv[j + 1].n = 0;
        int w = l->words;
        for (int q = 0; q < l->m; q++) {
            uint64_t *c = l->mcare + (size_t)q * w, *o = l->mon + (size_t)q * w;
            int a = push_half(d, j, c, o, 0), b = push_half(d, j, c, o, 1);
            if (a < 0 || b < 0)
                return -1;
            level *nx = &d->lv[j + 1];
            int nw = nx->words;
            uint64_t mask = nw == 1 && n - j - 1 < 6
                                ? (1ull << (1 << (n - j - 1))) - 1
                                : ~0ull;
            l->mux[q] = !agrees(nx->care + (size_t)a * nw,
                                nx->on + (size_t)a * nw,
                                nx->care + (size_t)b * nw,
                                nx->on + (size_t)b * nw, nw, false, mask);
            if (!l->mux[q]) { /* both halves agree: one node, passed down */
                nx->n -= 2;
                a = push_half(d, j, c, o, -1);
                l->kid[q][0] = l->kid[q][1] = (int16_t)a;
                continue;
            }
            l->kid[q][0] = (int16_t)a;
            l->kid[q][1] = (int16_t)b;
            cost++;
            used[j] = true;
        }
    }
    merge(d, n - 3);
    level *lf = &d->lv[n - 3];
    cost += lf->m;
    for (int p = 0; p < lf->n; p++)
        if (lf->to[p] == -2)
            used[n - 3 + lf->lit[p]] = true;
    if (lf->m)
        used[n - 3] = used[n - 2] = used[n - 1] = true;
    for (int k = 0; k < n; k++)
        cost += used[k] && d->v[k].op != CELL;
    return cost;
}

/* ---- building the network from the diagram just made ---- */

static int var_signal(gg_net *net, const var *v, int *sig, gg_err *err)
{
    if (*sig >= 0)
        return *sig;
    if (v->op == CELL)
        return *sig = v->i;
    return *sig = gg_net_add(net, GG_OP_LUT3, v->op == XOR ? 0x3C : 0xC0, v->i,
                             v->j, v->i, err);
}

static ref resolve(const level *l, int p, const int *var_sig, int n)
{
    if (l->to[p] == -1)
        return (ref){-1, l->neg[p]};
    if (l->to[p] == -2)
        return (ref){var_sig[n - 3 + l->lit[p]], l->neg[p]};
    ref r = l->sig[l->to[p]];
    r.neg ^= l->neg[p];
    return r;
}

/* One LUT3: sel ? c1 : c0, a constant child's slot reading sel. */
static int mux_gate(gg_net *net, int sel, ref c1, ref c0, gg_err *err)
{
    uint8_t lut = 0;
    for (int x = 0; x < 8; x++) {
        int a = x >> 2 & 1, b = x >> 1 & 1, c = x & 1;
        int v = a ? (c1.sig < 0 ? c1.neg : b ^ c1.neg)
                  : (c0.sig < 0 ? c0.neg : c ^ c0.neg);
        lut |= (uint8_t)(v << x);
    }
    return gg_net_add(net, GG_OP_LUT3, lut, sel, c1.sig < 0 ? sel : c1.sig,
                      c0.sig < 0 ? sel : c0.sig, err);
}

static int build(dd *d, gg_net *net, gg_err *err)
{
    int n = d->n, var_sig[MAXV];
    memset(net, 0, sizeof *net);
    net->n_inputs = CELLS;
    net->n_outputs = 1;
    for (int k = 0; k < n; k++)
        var_sig[k] = -1;
    level *lf = &d->lv[n - 3];
    for (int k = n - 3; k < n; k++)
        if (var_signal(net, &d->v[k], &var_sig[k], err) < 0)
            return -1;
    for (int q = 0; q < lf->m; q++) {
        int g = gg_net_add(net, GG_OP_LUT3, (uint8_t)lf->mon[q], var_sig[n - 3],
                           var_sig[n - 2], var_sig[n - 1], err);
        if (g < 0)
            return -1;
        lf->sig[q] = (ref){g, 0};
    }
    for (int j = n - 4; j >= 0; j--) {
        level *l = &d->lv[j], *nx = &d->lv[j + 1];
        for (int q = 0; q < l->m; q++) {
            ref c0 = resolve(nx, l->kid[q][0], var_sig, n);
            if (!l->mux[q]) {
                l->sig[q] = c0;
                continue;
            }
            ref c1 = resolve(nx, l->kid[q][1], var_sig, n);
            if (c1.sig == c0.sig && c1.neg == c0.neg) { /* merged below */
                l->sig[q] = c0;
                continue;
            }
            int s = var_signal(net, &d->v[j], &var_sig[j], err);
            int g = s < 0 ? -1 : mux_gate(net, s, c1, c0, err);
            if (g < 0)
                return -1;
            l->sig[q] = (ref){g, 0};
        }
    }
    ref root = resolve(&d->lv[0], 0, var_sig, n);
    net->out[0] = root.sig < 0 ? GG_SIG_CONST0 : (uint16_t)root.sig;
    net->out_neg[0] = root.neg;
    gg_net_tidy(net);
    return 0;
}

/* ---- the order search ---- */

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Swaps from `start`, keeping a swap that costs no more; the order
 * reached into best (its cost, or -1 when no order fits). */
static int search(dd *d, const var *start, int n, int steps, uint64_t *rng,
                  var *best)
{
    var cur[MAXV];
    memcpy(cur, start, sizeof *cur * (size_t)n);
    set_order(d, cur, n);
    int c = diagram(d);
    for (int s = 0; s < steps; s++) {
        int i = (int)(next_random(rng) % (uint64_t)n);
        int j = (int)(next_random(rng) % (uint64_t)n);
        if (i == j)
            continue;
        var t = cur[i];
        cur[i] = cur[j];
        cur[j] = t;
        set_order(d, cur, n);
        int c2 = diagram(d);
        if (c2 >= 0 && (c < 0 || c2 <= c)) {
            c = c2;
        } else {
            cur[j] = cur[i];
            cur[i] = t;
        }
    }
    memcpy(best, cur, sizeof *cur * (size_t)n);
    return c;
}

/* The network of the order, resubstituted (gen/circuits/net_resub.h):
 * into net when it has fewer gates than net's (or net is empty). */
static int build_polished(dd *d, const var *order, int n, gg_net *cand,
                          gg_net *net, gg_err *err)
{
    set_order(d, order, n);
    if (diagram(d) < 0 || build(d, cand, err))
        return -1;
    int bad_row;
    if (gg_net_check(cand, 0, d->t, &bad_row))
        return gg_fail(err, "the row decision diagram is wrong on row %d; a "
                       "bug in gen/circuits/net_rowdd.c", bad_row);
    if (gg_net_resub(cand, d->t, 0, err) < 0)
        return -1;
    if (!net->n_inputs || cand->n_gates < net->n_gates)
        *net = *cand;
    return 0;
}

int gg_net_build_rowdd(const gg_tt *t, int steps, gg_net *net, gg_err *err)
{
    if (t->n_inputs != CELLS)
        return 1;
    dd *d = gg_alloc(1, sizeof *d, err, "decision diagram");
    gg_net *cand = d ? gg_alloc(1, sizeof *cand, err, "network") : NULL;
    if (!cand || dd_alloc(d, MAXV, err)) {
        free(cand);
        free(d);
        return -1;
    }
    d->t = t;
    for (int i = 0; i < CELLS; i++)
        for (int w = 0; w < 8; w++)
            d->in[i][w] = gg_tt_input_word(i, 64 * w);
    steps = steps > 0 ? steps : GG_ROWDD_STEPS;
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    var best[MAXV], start[MAXV];
    int bad = 0, found = 0;
    memset(net, 0, sizeof *net);
    /* the pairs' pool searched PAIR_SEARCHES times (each with the random
     * sequence where the last left it), then each cell start; every
     * order reached is polished, since the smallest diagram is not the
     * one that resubstitutes smallest (a random isotropic rule's six end
     * 4-9 LUTs apart from diagrams 0-5 apart: 69.0 -> 58.4 with one pair
     * search, 55.3 with six) */
    for (int s = -PAIR_SEARCHES; s < 3 && !bad; s++) {
        int n = s < 0 ? MAXV : CELLS;
        for (int k = 0; k < n && s >= 0; k++)
            start[k] = (var){CELL, cell_starts[s][k], 0};
        int dc = search(d, s < 0 ? pair_pool : start, n, steps, &rng, best);
        if (dc < 0)
            continue;
        found++;
        bad = build_polished(d, best, n, cand, net, err);
    }
    if (!bad && !found)
        bad = gg_fail(err, "no decision diagram fits; a bug in "
                      "gen/circuits/net_rowdd.c");
    free(cand);
    free(d->arena);
    free(d);
    return bad;
}
