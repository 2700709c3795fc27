#include "encode.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SLOTS 3
#define MAX_CAND (GG_TT_MAX_INPUTS + GG_ENC_MAX_GATES)

typedef struct slot {
    int n_cand;
    int cand[MAX_CAND]; /* signals: inputs 0..n-1, gate j is n+j */
    int sel[MAX_CAND];  /* one-hot choice; unused when n_cand == 1 */
    int dep;            /* true when the gate's function reads this slot */
} slot;

typedef struct gate {
    int m;         /* slots in use */
    int n_fixed;   /* trailing slots wired to gates by the shape */
    slot s[MAX_SLOTS];
    int fn[8];     /* fn[b]: output for slot values b (slot 0 = bit 0) */
} gate;

struct gg_enc {
    gg_enc_spec spec;
    gg_sat *sat;
    int n, k, arity;
    int vtrue;     /* a variable forced true: constants are +-vtrue */
    int pol;       /* output polarity */
    gate g[GG_ENC_MAX_GATES];
    int *x;        /* x[r * k + i]: gate i on row r; 0 while r not added */
};

/* Adds a clause, dropping false constants and skipping satisfied ones. */
static void emit(gg_enc *e, const int *lits, int n)
{
    int buf[MAX_CAND * GG_ENC_MAX_GATES * MAX_SLOTS + 8], m = 0;
    for (int i = 0; i < n; i++) {
        if (lits[i] == e->vtrue)
            return;
        if (lits[i] != -e->vtrue)
            buf[m++] = lits[i];
    }
    gg_sat_clause(e->sat, buf, m);
}

static void emit2(gg_enc *e, int a, int b) { emit(e, (int[]){a, b}, 2); }

/* Literal "slot s of gate g reads signal c" (constants when fixed). */
static int sel_lit(const gg_enc *e, const slot *s, int c)
{
    for (int j = 0; j < s->n_cand; j++)
        if (s->cand[j] == c)
            return s->n_cand == 1 ? e->vtrue : s->sel[j];
    return -e->vtrue;
}

/* A slot choosing among signals lo..hi, exactly one. */
static void open_slot(gg_enc *e, slot *s, int lo, int hi)
{
    s->n_cand = 0;
    for (int c = lo; c <= hi; c++) {
        s->cand[s->n_cand] = c;
        s->sel[s->n_cand++] = gg_sat_var(e->sat);
    }
    if (s->n_cand == 1)
        return;
    gg_sat_clause(e->sat, s->sel, s->n_cand);
    for (int a = 0; a < s->n_cand; a++)
        for (int b = a + 1; b < s->n_cand; b++)
            emit2(e, -s->sel[a], -s->sel[b]);
}

/* Consecutive open slots read strictly increasing signals. */
static void order_slots(gg_enc *e, const slot *lo, const slot *hi)
{
    for (int a = 0; a < lo->n_cand; a++)
        for (int b = 0; b < hi->n_cand; b++)
            if (hi->cand[b] <= lo->cand[a])
                emit2(e, -sel_lit(e, lo, lo->cand[a]),
                      -sel_lit(e, hi, hi->cand[b]));
}

/* Open slots 0..p-1 over signals 0..top, each slot's range cut so that the
 * strictly increasing order can still be met. */
static void open_slots(gg_enc *e, gate *g, int p, int top)
{
    for (int s = 0; s < p; s++) {
        open_slot(e, &g->s[s], s, top - (p - 1 - s));
        if (s > 0)
            order_slots(e, &g->s[s - 1], &g->s[s]);
    }
}

static void setup_slots(gg_enc *e, int i)
{
    gate *g = &e->g[i];
    const gg_shape *sh = e->spec.shape;
    if (!sh) {
        g->m = e->arity < e->n + i ? e->arity : e->n + i;
        open_slots(e, g, g->m, e->n + i - 1);
        return;
    }
    int p = gg_shape_pi_slots(sh, i);
    p = p < e->n ? p : e->n;
    open_slots(e, g, p, e->n - 1);
    g->m = p;
    for (int j = 0; j < sh->k; j++)
        if (sh->fanin[i] >> j & 1) {
            slot *s = &g->s[g->m++];
            s->n_cand = 1;
            s->cand[0] = e->n + j;
            g->n_fixed++;
        }
}

/* d = "the function reads slot s": some pair of rows that differ in s only
 * gets different values. fn[0] is the constant 0 of normalization. */
static void dependency(gg_enc *e, gate *g, int s)
{
    int bit = 1 << s, ors[8], n = 0;
    g->s[s].dep = gg_sat_var(e->sat);
    ors[n++] = -g->s[s].dep;
    for (int b = 0; b < (1 << g->m); b++) {
        if (b & bit)
            continue;
        if (b == 0) {
            ors[n++] = g->fn[bit];
            continue;
        }
        int d = gg_sat_var(e->sat);
        emit(e, (int[]){-d, g->fn[b], g->fn[b | bit]}, 3);
        emit(e, (int[]){-d, -g->fn[b], -g->fn[b | bit]}, 3);
        ors[n++] = d;
    }
    emit(e, ors, n);
}

/* At least t of the slots lo..hi-1 are read: every (count-t+1)-subset holds
 * one. Slot counts are at most 3, so subsets are enumerated as masks. */
static void at_least(gg_enc *e, gate *g, int lo, int hi, int t)
{
    int count = hi - lo;
    if (t <= 0)
        return;
    if (count < t) { /* cannot be met: this shape is impossible */
        emit(e, NULL, 0);
        return;
    }
    for (int mask = 0; mask < (1 << count); mask++) {
        if (__builtin_popcount(mask) != count - t + 1)
            continue;
        int lits[MAX_SLOTS] = {0}, n = 0;
        for (int s = 0; s < count; s++)
            if (mask >> s & 1)
                lits[n++] = g->s[lo + s].dep;
        emit(e, lits, n);
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

/* Without a shape, each gate but the output feeds a later gate. */
static void every_gate_read(gg_enc *e)
{
    for (int j = 0; j + 1 < e->k; j++) {
        int lits[GG_ENC_MAX_GATES * MAX_SLOTS], n = 0;
        for (int i = j + 1; i < e->k; i++)
            for (int s = 0; s < e->g[i].m; s++)
                lits[n++] = sel_lit(e, &e->g[i].s[s], e->n + j);
        emit(e, lits, n);
    }
}

/* Input b may be read only if input a, its predecessor in a symmetry
 * class, was read by the same or an earlier gate. */
static void symmetric_pair(gg_enc *e, int a, int b)
{
    int lits[1 + GG_ENC_MAX_GATES * MAX_SLOTS];
    for (int i = 0; i < e->k; i++)
        for (int s = 0; s < e->g[i].m; s++) {
            int n = 0;
            lits[n++] = -sel_lit(e, &e->g[i].s[s], b);
            for (int i2 = 0; i2 <= i; i2++)
                for (int s2 = 0; s2 < e->g[i2].m; s2++)
                    lits[n++] = sel_lit(e, &e->g[i2].s[s2], a);
            emit(e, lits, n);
        }
}

static void symmetry(gg_enc *e)
{
    const int *cls = e->spec.class_of;
    if (!cls)
        return;
    for (int b = 0; b < e->n; b++) {
        int a = b - 1;
        while (a >= 0 && cls[a] != cls[b])
            a--;
        if (a >= 0)
            symmetric_pair(e, a, b);
    }
}

gg_enc *gg_enc_new(const gg_enc_spec *spec, gg_sat *s, gg_err *err)
{
    if (spec->k < 1 || spec->k > GG_ENC_MAX_GATES) {
        gg_fail(err, "exact synthesis handles 1..%d gates, not %d",
                GG_ENC_MAX_GATES, spec->k);
        return NULL;
    }
    gg_enc *e = gg_alloc(1, sizeof *e, err, "encoder");
    if (!e)
        return NULL;
    e->x = gg_alloc((size_t)gg_tt_rows(spec->f) * (size_t)spec->k,
                    sizeof *e->x, err, "encoder rows");
    if (!e->x) {
        free(e);
        return NULL;
    }
    e->spec = *spec, e->sat = s;
    e->n = spec->f->n_inputs, e->k = spec->k;
    e->arity = spec->lib == GG_LIB_LUT3 ? 3 : 2;
    e->vtrue = gg_sat_var(s);
    gg_sat_clause(s, &e->vtrue, 1);
    e->pol = gg_sat_var(s);
    if (spec->lib == GG_LIB_GATE2) {
        int p = gg_tt_get(spec->f->care, 0) && gg_tt_get(spec->f->on, 0);
        emit(e, (int[]){p ? e->pol : -e->pol}, 1);
    }
    for (int i = 0; i < e->k; i++) {
        setup_slots(e, i);
        setup_function(e, i);
    }
    if (!spec->shape)
        every_gate_read(e);
    symmetry(e);
    return e;
}

void gg_enc_free(gg_enc *e)
{
    if (e)
        free(e->x);
    free(e);
}

/* Value of signal c on row r as a literal. */
static int signal_lit(const gg_enc *e, int c, int r)
{
    if (c < e->n)
        return (r >> c & 1) ? e->vtrue : -e->vtrue;
    return e->x[r * e->k + (c - e->n)];
}

/* The value a slot passes on row r: an alias when the slot is wired,
 * otherwise a new variable tied to the chosen source. */
static int slot_value(gg_enc *e, const slot *s, int r)
{
    if (s->n_cand == 1)
        return signal_lit(e, s->cand[0], r);
    int y = gg_sat_var(e->sat);
    for (int j = 0; j < s->n_cand; j++) {
        int v = signal_lit(e, s->cand[j], r);
        emit(e, (int[]){-s->sel[j], -y, v}, 3);
        emit(e, (int[]){-s->sel[j], y, -v}, 3);
    }
    return y;
}

/* x = fn[y]: for every slot pattern b, matching inputs force x to fn[b]. */
static void gate_row(gg_enc *e, const gate *g, int x, const int *y)
{
    int lits[MAX_SLOTS + 2];
    for (int b = 0; b < (1 << g->m); b++) {
        for (int s = 0; s < g->m; s++)
            lits[s] = (b >> s & 1) ? -y[s] : y[s];
        lits[g->m] = -x, lits[g->m + 1] = g->fn[b];
        emit(e, lits, g->m + 2);
        lits[g->m] = x, lits[g->m + 1] = -g->fn[b];
        emit(e, lits, g->m + 2);
    }
}

void gg_enc_add_row(gg_enc *e, int r)
{
    int *x = &e->x[r * e->k];
    if (x[0])
        return;
    for (int i = 0; i < e->k; i++)
        x[i] = gg_sat_var(e->sat);
    for (int i = 0; i < e->k; i++) {
        int y[MAX_SLOTS];
        for (int s = 0; s < e->g[i].m; s++)
            y[s] = slot_value(e, &e->g[i].s[s], r);
        gate_row(e, &e->g[i], x[i], y);
    }
    /* output xor polarity = f(r) */
    int out = x[e->k - 1], want = gg_tt_get(e->spec.f->on, r);
    emit2(e, -out, want ? -e->pol : e->pol);
    emit2(e, out, want ? e->pol : -e->pol);
}

static int chosen(const gg_enc *e, const slot *s)
{
    for (int j = 0; j < s->n_cand; j++)
        if (s->n_cand == 1 || gg_sat_value(e->sat, s->sel[j]))
            return s->cand[j];
    return s->cand[0];
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
    int f1 = gg_sat_value(e->sat, g->fn[1]), f2 = gg_sat_value(e->sat, g->fn[2]),
        f3 = gg_sat_value(e->sat, g->fn[3]);
    int code = f1 | f2 << 1 | f3 << 2;
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
        int src[MAX_SLOTS];
        for (int s = 0; s < MAX_SLOTS; s++)
            src[s] = chosen(e, &g->s[s < g->m ? s : 0]);
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
