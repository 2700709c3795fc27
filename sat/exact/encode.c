#include "encode.h"

#include <stdlib.h>
#include <string.h>

#include "encode_internal.h"
#include "symm.h"

#define MAX_FIXED_AMO 64 /* pairwise at-most-one up to this many options */

/* Adds a clause, dropping false constants and skipping satisfied ones. */
void enc_emit(gg_enc *e, const int *lits, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (lits[i] == e->vtrue)
            return;
        if (lits[i] != -e->vtrue)
            e->buf[m++] = lits[i];
    }
    gg_sat_clause(e->sat, e->buf, m);
}

void enc_emit2(gg_enc *e, int a, int b) { enc_emit(e, (int[]){a, b}, 2); }

int enc_has(const option *o, int m, int c)
{
    for (int s = 0; s < m; s++)
        if (o->src[s] == c)
            return 1;
    return 0;
}

/* Appends every increasing p-tuple of signals 0..top (then the fixed gate
 * sources) as an option. Returns -1 when out of memory. */
static int list_options(gg_enc *e, gate *g, int p, int top, const int *fixed,
                        int n_fixed, gg_err *err)
{
    int t[MAX_SLOTS], cap = 1;
    for (int s = 0; s < p; s++) /* C(top+1, p) */
        cap = cap * (top + 1 - s) / (s + 1);
    g->opt = gg_alloc((size_t)cap, sizeof *g->opt, err, "fanin options");
    if (!g->opt)
        return -1;
    for (int s = 0; s < p; s++)
        t[s] = s;
    for (;;) {
        option *o = &g->opt[g->n_opt++];
        memcpy(o->src, t, (size_t)p * sizeof *t);
        if (n_fixed) /* free topology passes no fixed sources (NULL) */
            memcpy(o->src + p, fixed, (size_t)n_fixed * sizeof *fixed);
        o->sel = gg_sat_var(e->sat);
        int s = p - 1;
        while (s >= 0 && t[s] == top - (p - 1 - s))
            s--;
        if (s < 0)
            return 0;
        t[s]++;
        for (int u = s + 1; u < p; u++)
            t[u] = t[u - 1] + 1;
    }
}

static int setup_options(gg_enc *e, int i, gg_err *err)
{
    gate *g = &e->g[i];
    const gg_shape *sh = e->spec.shape;
    if (!sh) {
        g->m = e->arity < e->n + i ? e->arity : e->n + i;
        return list_options(e, g, g->m, e->n + i - 1, NULL, 0, err);
    }
    int fixed[MAX_SLOTS], p = gg_shape_pi_slots(sh, i);
    for (int j = 0; j < sh->k; j++)
        if (sh->fanin[i] >> j & 1)
            fixed[g->n_fixed++] = e->n + j;
    p = p < e->n ? p : e->n;
    g->m = p + g->n_fixed;
    return list_options(e, g, p, e->n - 1, fixed, g->n_fixed, err);
}

/* At least one option; pairwise at most one while that is cheap (the
 * simulation clauses make two chosen options agree anyway). reads[c] is
 * tied both ways to the options holding c. */
static void choose(gg_enc *e, gate *g)
{
    for (int o = 0; o < g->n_opt; o++)
        e->buf[o] = g->opt[o].sel;
    gg_sat_clause(e->sat, e->buf, g->n_opt);
    if (g->n_opt <= MAX_FIXED_AMO)
        for (int a = 0; a < g->n_opt; a++)
            for (int b = a + 1; b < g->n_opt; b++)
                enc_emit2(e, -g->opt[a].sel, -g->opt[b].sel);
    int lits[4096];
    for (int c = 0; c < e->n + e->k; c++) {
        int n = 0;
        g->reads[c] = gg_sat_var(e->sat);
        lits[n++] = -g->reads[c];
        for (int o = 0; o < g->n_opt; o++)
            if (enc_has(&g->opt[o], g->m, c)) {
                enc_emit2(e, -g->opt[o].sel, g->reads[c]);
                if (n < 4096)
                    lits[n++] = g->opt[o].sel;
            }
        enc_emit(e, lits, n);
    }
}

/* dep[s] = "the function reads slot s": some pair of rows that differ in s
 * only gets different values. fn[0] is the constant 0 of normalization. */
static void dependency(gg_enc *e, gate *g, int s)
{
    int bit = 1 << s, ors[8], n = 0;
    g->dep[s] = gg_sat_var(e->sat);
    ors[n++] = -g->dep[s];
    for (int b = 0; b < (1 << g->m); b++) {
        if (b & bit)
            continue;
        if (b == 0) {
            ors[n++] = g->fn[bit];
            continue;
        }
        int d = gg_sat_var(e->sat);
        enc_emit(e, (int[]){-d, g->fn[b], g->fn[b | bit]}, 3);
        enc_emit(e, (int[]){-d, -g->fn[b], -g->fn[b | bit]}, 3);
        ors[n++] = d;
    }
    enc_emit(e, ors, n);
}

/* At least t of the slots lo..hi-1 are read: every (count-t+1)-subset holds
 * one. Slot counts are at most 3, so subsets are enumerated as masks. */
static void at_least(gg_enc *e, gate *g, int lo, int hi, int t)
{
    int count = hi - lo;
    if (t <= 0)
        return;
    if (count < t) { /* cannot be met: this shape is impossible */
        enc_emit(e, NULL, 0);
        return;
    }
    for (int mask = 0; mask < (1 << count); mask++) {
        if (__builtin_popcount(mask) != count - t + 1)
            continue;
        int lits[MAX_SLOTS] = {0}, n = 0;
        for (int s = 0; s < count; s++)
            if (mask >> s & 1)
                lits[n++] = g->dep[lo + s];
        enc_emit(e, lits, n);
    }
}

static void setup_function(gg_enc *e, int i)
{
    gate *g = &e->g[i];
    g->fn[0] = -e->vtrue;
    for (int b = 1; b < (1 << g->m); b++)
        g->fn[b] = gg_sat_var(e->sat);
    for (int s = 0; s < g->m; s++)
        dependency(e, g, s);
    if (e->spec.lib == GG_LIB_GATE2) {
        at_least(e, g, 0, g->m, g->m);
        return;
    }
    int open = g->m - g->n_fixed;
    at_least(e, g, open, g->m, g->n_fixed);
    at_least(e, g, 0, open, 2 - g->n_fixed);
}

/* The involutions of 0 .. n-1 (n <= 4), a selector for each, at least
 * one chosen. */
static void closure_setup(gg_enc *e)
{
    int n = e->spec.lim.n_closed, p[4];
    if (!e->spec.lim.swap || n < 1)
        return;
    for (int a = 0; a < 256; a++) { /* every map 0..n-1 -> 0..n-1 */
        int ok = 1;
        for (int i = 0; i < n; i++)
            p[i] = a >> (2 * i) & 3;
        for (int i = 0; i < n && ok; i++)
            ok = p[i] < n && p[p[i]] == i;
        if (!ok || (n < 4 && a >> (2 * n)))
            continue;
        memcpy(e->perm[e->n_perm], p, sizeof p);
        e->psel[e->n_perm++] = gg_sat_var(e->sat);
    }
    gg_sat_clause(e->sat, e->psel, e->n_perm);
    for (int i = 0; i < n; i++)
        e->cpl[i] = gg_sat_var(e->sat);
}

static int setup(gg_enc *e, gg_err *err)
{
    const gg_enc_spec *spec = &e->spec;
    e->vtrue = gg_sat_var(e->sat);
    gg_sat_clause(e->sat, &e->vtrue, 1);
    e->pol = gg_sat_var(e->sat);
    e->pol2 = gg_sat_var(e->sat);
    if (spec->lib == GG_LIB_GATE2) {
        int p = gg_tt_get(spec->f->care, 0) && gg_tt_get(spec->f->on, 0);
        enc_emit(e, (int[]){p ? e->pol : -e->pol}, 1);
    }
    if (spec->keys) { /* the free classes absorb the polarity */
        enc_emit(e, (int[]){-e->pol}, 1);
        for (int c = 0; c < spec->n_keys; c++)
            e->keyvar[c] = gg_sat_var(e->sat);
    }
    for (int i = 0; i < e->k; i++) {
        if (setup_options(e, i, err))
            return -1;
        choose(e, &e->g[i]);
        setup_function(e, i);
        for (int c = 0; spec->lim.forbid && c < e->n + i; c++)
            if (spec->lim.forbid[i] >> c & 1)
                enc_emit(e, (int[]){-e->g[i].reads[c]}, 1);
    }
    if (!spec->shape)
        enc_every_gate_read(e);
    enc_essential_read(e);
    enc_symmetry(e);
    enc_order_twins(e);
    enc_order_automorphisms(e);
    enc_reapplied(e);
    enc_decomposition(e);
    enc_two_exit(e);
    closure_setup(e);
    enc_order_groups(e);
    return 0;
}

gg_enc *gg_enc_new(const gg_enc_spec *spec, gg_sat *s, gg_err *err)
{
    if (spec->k < 1 || spec->k > GG_ENC_MAX_GATES) {
        gg_fail(err, "exact synthesis handles 1..%d gates, not %d",
                GG_ENC_MAX_GATES, spec->k);
        return NULL;
    }
    if (spec->keys && (spec->lib != GG_LIB_LUT3 || spec->n_keys < 1 ||
                       spec->nd || spec->nd4 || spec->lim.f2)) {
        gg_fail(err, "a free function over classes needs lut3, at least "
                     "one class, and no decomposition pairs or second output");
        return NULL;
    }
    gg_enc *e = gg_alloc(1, sizeof *e, err, "encoder");
    if (!e)
        return NULL;
    e->spec = *spec, e->sat = s;
    e->n = spec->f->n_inputs, e->k = spec->k;
    e->arity = spec->lib == GG_LIB_LUT3 ? 3 : 2;
    e->x = gg_alloc((size_t)gg_tt_rows(spec->f) * (size_t)spec->k,
                    sizeof *e->x, err, "encoder rows");
    e->buf = gg_alloc(1 << 16, sizeof *e->buf, err, "clause buffer");
    e->added = gg_alloc((size_t)gg_tt_rows(spec->f), sizeof *e->added, err,
                        "encoder rows");
    if (spec->keys)
        e->keyvar = gg_alloc((size_t)spec->n_keys, sizeof *e->keyvar, err,
                             "encoder classes");
    if (!e->x || !e->buf || !e->added || (spec->keys && !e->keyvar) ||
        setup(e, err)) {
        gg_enc_free(e);
        return NULL;
    }
    return e;
}

void gg_enc_free(gg_enc *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->k; i++)
        free(e->g[i].opt);
    free(e->x);
    free(e->buf);
    free(e->added);
    free(e->keyvar);
    free(e);
}

/* Value of signal c on row r as a literal. */
static int signal_lit(const gg_enc *e, int c, int r)
{
    if (c < e->n)
        return (r >> c & 1) ? e->vtrue : -e->vtrue;
    return e->x[r * e->k + (c - e->n)];
}

/* Chosen option o and source values b force x = fn[b]. Patterns that the
 * constant inputs rule out vanish in enc_emit(). */
static void option_row(gg_enc *e, const gate *g, const option *o, int x,
                       int r)
{
    int v[MAX_SLOTS], lits[MAX_SLOTS + 3];
    for (int s = 0; s < g->m; s++)
        v[s] = signal_lit(e, o->src[s], r);
    for (int b = 0; b < (1 << g->m); b++) {
        lits[0] = -o->sel;
        for (int s = 0; s < g->m; s++)
            lits[1 + s] = (b >> s & 1) ? -v[s] : v[s];
        lits[g->m + 1] = -x, lits[g->m + 2] = g->fn[b];
        enc_emit(e, lits, g->m + 3);
        lits[g->m + 1] = x, lits[g->m + 2] = -g->fn[b];
        enc_emit(e, lits, g->m + 3);
    }
}

/* The image of row r under lim.swap. */
static int swapped_row(const gg_enc *e, int r)
{
    int t = 0;
    for (int c = 0; c < e->n; c++)
        t |= (r >> c & 1) << e->spec.lim.swap[c];
    return t;
}

/* Closure on the pair r, swap(r) once both are added: under perm p,
 * x[p(i)] on swap(r) xor x[i] on r xor c_i is 0 (4 clauses each). */
static void closure_row(gg_enc *e, int r)
{
    int r2 = e->n_perm ? swapped_row(e, r) : -1;
    if (r2 < 0 || !e->x[r2 * e->k])
        return;
    for (int q = 0; q < e->n_perm; q++)
        for (int i = 0; i < e->spec.lim.n_closed; i++) {
            int a = e->x[r2 * e->k + e->perm[q][i]], b = e->x[r * e->k + i],
                c = e->cpl[i], p = -e->psel[q];
            enc_emit(e, (int[]){p, -a, b, c}, 4);
            enc_emit(e, (int[]){p, a, -b, c}, 4);
            enc_emit(e, (int[]){p, a, b, -c}, 4);
            enc_emit(e, (int[]){p, -a, -b, -c}, 4);
        }
}

/* Differences. Take two care rows r, r2 on which f differs. The output
 * differs on them (its polarity is one bit for both), and a gate whose
 * value differs on two rows has some fanin that differs on them: it is a
 * function of its fanins. So from the output down there is a path of
 * gates that differ on r and r2, ending at a primary input in which r and
 * r2 differ. With d_i <-> (gate i on r) xor (gate i on r2), each gate i
 * of a shape gets
 *   -d_i | OR_{gate fanins j} d_j | OR_{inputs c with r, r2 unequal} reads_i[c]
 * (reads[c]: some chosen fanin set holds c; a gate wired to an input it
 * ignores only satisfies the clause more easily). Every network, minimal
 * or not, meets these clauses: they remove none. They are implied by the
 * simulation clauses, but only through the gate functions; stated
 * outright they let the solver reason about which inputs a gate's cone
 * must see without first guessing the functions. */
static void differences(gg_enc *e, int r, int r2)
{
    const gg_shape *sh = e->spec.shape;
    int d[GG_ENC_MAX_GATES], lits[GG_ENC_MAX_GATES + GG_TT_MAX_INPUTS + 1];
    for (int i = 0; i < e->k; i++) {
        int a = e->x[r * e->k + i], b = e->x[r2 * e->k + i];
        d[i] = gg_sat_var(e->sat);
        enc_emit(e, (int[]){-d[i], a, b}, 3);
        enc_emit(e, (int[]){-d[i], -a, -b}, 3);
        enc_emit(e, (int[]){d[i], -a, b}, 3);
        enc_emit(e, (int[]){d[i], a, -b}, 3);
    }
    for (int i = 0; i < e->k; i++) {
        int n = 0;
        lits[n++] = -d[i];
        for (int j = 0; j < i; j++)
            if (sh->fanin[i] >> j & 1)
                lits[n++] = d[j];
        for (int c = 0; c < e->n; c++)
            if ((r ^ r2) >> c & 1)
                lits[n++] = e->g[i].reads[c];
        enc_emit(e, lits, n);
    }
}

/* Output gate value x xor polarity pol = want. */
static void pin_output(gg_enc *e, int x, int pol, int want)
{
    enc_emit2(e, -x, want ? -pol : pol);
    enc_emit2(e, x, want ? pol : -pol);
}

void gg_enc_add_row(gg_enc *e, int r)
{
    int *x = &e->x[r * e->k];
    if (x[0])
        return;
    for (int i = 0; i < e->k; i++)
        x[i] = gg_sat_var(e->sat);
    for (int i = 0; i < e->k; i++)
        for (int o = 0; o < e->g[i].n_opt; o++)
            option_row(e, &e->g[i], &e->g[i].opt[o], x[i], r);
    const uint8_t *keys = e->spec.keys;
    if (keys) { /* output = its class's variable (polarity pinned 0) */
        enc_emit2(e, -x[e->k - 1], e->keyvar[keys[r]]);
        enc_emit2(e, x[e->k - 1], -e->keyvar[keys[r]]);
    } else { /* output xor polarity = f(r) */
        pin_output(e, x[e->k - 1], e->pol, gg_tt_get(e->spec.f->on, r));
    }
    const gg_tt *f2 = e->spec.lim.f2;
    if (f2 && gg_tt_get(f2->care, r))
        pin_output(e, x[e->spec.lim.out2], e->pol2, gg_tt_get(f2->on, r));
    closure_row(e, r);
    if (e->spec.shape && e->spec.diff) {
        const gg_tt *f = e->spec.f;
        int dist = e->spec.diff_dist ? e->spec.diff_dist : GG_ENC_DIFF_DIST;
        for (int a = 0; a < e->n_added; a++)
            if ((keys ? keys[e->added[a]] != keys[r]
                      : gg_tt_get(f->on, e->added[a]) != gg_tt_get(f->on, r)) &&
                (dist < 0 ||
                 __builtin_popcount((unsigned)(e->added[a] ^ r)) <= dist))
                differences(e, e->added[a], r);
    }
    e->added[e->n_added++] = r;
}

int gg_enc_key_var(const gg_enc *e, int key)
{
    return e->spec.keys && key >= 0 && key < e->spec.n_keys ? e->keyvar[key]
                                                             : 0;
}

int gg_enc_gate_lit(const gg_enc *e, int i, int r)
{
    return e->x[r * e->k + i];
}

int gg_enc_options(const gg_enc *e, int i)
{
    return i >= 0 && i < e->k ? e->g[i].n_opt : 0;
}

int gg_enc_option_slots(const gg_enc *e, int i)
{
    return i >= 0 && i < e->k ? e->g[i].m : 0;
}

int gg_enc_option(const gg_enc *e, int i, int o, int *src)
{
    const option *op = &e->g[i].opt[o];
    if (src)
        memcpy(src, op->src, (size_t)e->g[i].m * sizeof *src);
    return op->sel;
}

int gg_enc_fn_var(const gg_enc *e, int i, int b)
{
    return e->g[i].fn[b];
}

static const option *chosen(const gg_enc *e, const gate *g)
{
    for (int o = 0; o < g->n_opt; o++)
        if (gg_sat_value(e->sat, g->opt[o].sel))
            return &g->opt[o];
    return &g->opt[0];
}

/* lop3 index k has a = in[0] in bit 2; our patterns have slot 0 in bit 0. */
static uint8_t lop3_code(const gg_enc *e, const gate *g)
{
    uint8_t lut = 0;
    for (int k = 0; k < 8; k++) {
        int b = 0;
        for (int s = 0; s < g->m; s++)
            b |= ((k >> (2 - s)) & 1) << s;
        if (b && gg_sat_value(e->sat, g->fn[b]))
            lut |= (uint8_t)(1u << k);
    }
    return lut;
}

/* The and/or/xor/andnot gate for a normalized 2-input function. */
static int add_gate2(const gg_enc *e, const gate *g, gg_net *net, int a,
                     int b, gg_err *err)
{
    int code = 0;
    for (int v = 1; v < 4; v++)
        code |= gg_sat_value(e->sat, g->fn[v]) << (v - 1);
    switch (code) {
    case 4: return gg_net_add(net, GG_OP_AND, 0, a, b, 0, err);
    case 7: return gg_net_add(net, GG_OP_OR, 0, a, b, 0, err);
    case 3: return gg_net_add(net, GG_OP_XOR, 0, a, b, 0, err);
    case 1: return gg_net_add(net, GG_OP_ANDNOT, 0, a, b, 0, err);
    case 2: return gg_net_add(net, GG_OP_ANDNOT, 0, b, a, 0, err);
    default:
        return gg_fail(err, "solver model has a trivial gate (code %d)", code);
    }
}

int gg_enc_decode(const gg_enc *e, gg_net *net, gg_err *err)
{
    memset(net, 0, sizeof *net);
    net->n_inputs = e->n;
    for (int i = 0; i < e->k; i++) {
        const gate *g = &e->g[i];
        const option *o = chosen(e, g);
        int src[MAX_SLOTS];
        for (int s = 0; s < MAX_SLOTS; s++)
            src[s] = o->src[s < g->m ? s : 0];
        int r = e->spec.lib == GG_LIB_LUT3
                    ? gg_net_add(net, GG_OP_LUT3, lop3_code(e, g), src[0],
                                 src[1], src[2], err)
                    : add_gate2(e, g, net, src[0], src[1], err);
        if (r < 0)
            return -1;
    }
    net->n_outputs = 1;
    net->out[0] = (uint16_t)(e->n + e->k - 1);
    net->out_neg[0] = gg_sat_value(e->sat, e->pol);
    return 0;
}
