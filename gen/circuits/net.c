#include "net.h"

#include <string.h>

static const char *op_names[GG_OP_COUNT] = {"and", "or",  "xor",
                                            "andnot", "not", "lut3"};

const char *gg_op_name(gg_op op)
{
    return op < GG_OP_COUNT ? op_names[op] : "?";
}

const char *gg_lib_name(gg_lib lib)
{
    return lib == GG_LIB_LUT3 ? "lut3" : "gate2";
}

int gg_lib_parse(const char *name, gg_lib *lib, gg_err *err)
{
    if (!strcmp(name, "lut3"))
        *lib = GG_LIB_LUT3;
    else if (!strcmp(name, "gate2"))
        *lib = GG_LIB_GATE2;
    else
        return gg_fail(err, "unknown gate library '%s'; use lut3 (lop3, "
                       "vpternlog) or gate2 (and/or/xor/andnot)", name);
    return 0;
}

int gg_op_arity(gg_op op)
{
    return op == GG_OP_LUT3 ? 3 : op == GG_OP_NOT ? 1 : 2;
}

int gg_net_add(gg_net *n, gg_op op, uint8_t lut, int a, int b, int c,
               gg_err *err)
{
    if (n->n_gates >= GG_NET_MAX_GATES)
        return gg_fail(err, "network exceeds %d gates", GG_NET_MAX_GATES);
    int ins[3] = {a, b, c}, signal = n->n_inputs + n->n_gates;
    gg_gate *g = &n->gate[n->n_gates];
    memset(g, 0, sizeof *g);
    g->op = (uint8_t)op;
    g->lut = lut;
    for (int i = 0; i < gg_op_arity(op); i++) {
        if (ins[i] < 0 || ins[i] >= signal)
            return gg_fail(err, "gate %d reads signal %d that does not exist "
                           "yet", n->n_gates, ins[i]);
        g->in[i] = (uint16_t)ins[i];
    }
    n->n_gates++;
    return signal;
}

static uint64_t apply(const gg_gate *g, uint64_t a, uint64_t b, uint64_t c)
{
    switch (g->op) {
    case GG_OP_AND:
        return a & b;
    case GG_OP_OR:
        return a | b;
    case GG_OP_XOR:
        return a ^ b;
    case GG_OP_ANDNOT:
        return a & ~b;
    case GG_OP_NOT:
        return ~a;
    default: {
        uint64_t r = 0;
        for (int k = 0; k < 8; k++) {
            if (!((g->lut >> k) & 1))
                continue;
            r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
        }
        return r;
    }
    }
}

/* Every signal's value on 64 rows into sig; gate `flip` (-1: none) has
 * its value complemented, for observability. */
static void eval_all(const gg_net *n, const uint64_t *in, int flip,
                     uint64_t *sig)
{
    memcpy(sig, in, (size_t)n->n_inputs * sizeof *sig);
    for (int i = 0; i < n->n_gates; i++) {
        const gg_gate *g = &n->gate[i];
        int k = gg_op_arity((gg_op)g->op);
        uint64_t v = apply(g, sig[g->in[0]], k > 1 ? sig[g->in[1]] : 0,
                           k > 2 ? sig[g->in[2]] : 0);
        sig[n->n_inputs + i] = i == flip ? ~v : v;
    }
}

static uint64_t output_word(const gg_net *n, int o, const uint64_t *sig)
{
    uint64_t v = n->out[o] == GG_SIG_CONST0 ? 0 : sig[n->out[o]];
    return n->out_neg[o] ? ~v : v;
}

void gg_net_eval64(const gg_net *n, const uint64_t *in, uint64_t *out)
{
    uint64_t sig[GG_NET_MAX_GATES + 64];
    eval_all(n, in, -1, sig);
    for (int o = 0; o < n->n_outputs; o++)
        out[o] = output_word(n, o, sig);
}

/* What a table holds: one signal, or output `o`, with gate `flip` (-1:
 * none) complemented on every row. */
typedef struct probe {
    int signal; /* -1: output o */
    int o;
    int flip;
} probe;

static void table_of(const gg_net *n, probe p, gg_tt *t)
{
    uint64_t in[64], sig[GG_NET_MAX_GATES + 64];
    memset(t, 0, sizeof *t);
    t->n_inputs = n->n_inputs;
    for (int w = 0; w < gg_tt_words(t); w++) {
        for (int i = 0; i < n->n_inputs; i++)
            in[i] = gg_tt_input_word(i, w * 64);
        eval_all(n, in, p.flip, sig);
        uint64_t v = p.signal >= 0 ? sig[p.signal] : output_word(n, p.o, sig);
        t->on[w] = v & gg_tt_word_mask(t, w);
        t->care[w] = gg_tt_word_mask(t, w);
    }
}

void gg_net_output_tt(const gg_net *n, int o, gg_tt *t)
{
    table_of(n, (probe){.signal = -1, .o = o, .flip = -1}, t);
}

void gg_net_signal_tt(const gg_net *n, int s, gg_tt *t)
{
    table_of(n, (probe){.signal = s, .flip = -1}, t);
}

void gg_net_observable_tt(const gg_net *n, int gate, gg_tt *t)
{
    gg_tt same;
    gg_net_output_tt(n, 0, &same);
    table_of(n, (probe){.signal = -1, .flip = gate}, t);
    for (int w = 0; w < gg_tt_words(t); w++)
        t->on[w] ^= same.on[w];
}

/* Row word w of the leaves' tables and of the signal's (as table_of fills
 * them: rows past the net's table read 0), one evaluation for all of them:
 * a whole table per leaf would be 1 KB each, too much for the stack and
 * not reentrant as a static. */
static void over_word(const gg_net *n, int signal, const int *leaves,
                      int n_leaves, int w, uint64_t *leaf, uint64_t *value)
{
    uint64_t in[64], sig[GG_NET_MAX_GATES + 64];
    int rows = 1 << n->n_inputs, words = rows < 64 ? 1 : rows / 64;
    uint64_t mask = w >= words ? 0 : rows >= 64 ? ~0ull : (1ull << rows) - 1;
    if (mask) {
        for (int i = 0; i < n->n_inputs; i++)
            in[i] = gg_tt_input_word(i, w * 64);
        eval_all(n, in, -1, sig);
    }
    for (int l = 0; l < n_leaves; l++)
        leaf[l] = mask ? sig[leaves[l]] & mask : 0;
    *value = mask ? sig[signal] & mask : 0;
}

int gg_net_signal_over(const gg_net *n, int signal, const int *leaves,
                       const uint8_t *flip, int n_leaves, const gg_tt *f,
                       const gg_tt *rows, gg_tt *h)
{
    uint64_t leaf[GG_TT_MAX_INPUTS], value = 0;
    memset(h, 0, sizeof *h);
    h->n_inputs = n_leaves;
    for (int r = 0; r < gg_tt_rows(f); r++) {
        if ((r & 63) == 0)
            over_word(n, signal, leaves, n_leaves, r >> 6, leaf, &value);
        if (!gg_tt_get(f->care, r) || (rows && !gg_tt_get(rows->on, r)))
            continue;
        int x = 0;
        for (int l = 0; l < n_leaves; l++)
            x |= ((int)((leaf[l] >> (r & 63)) & 1) ^ (flip ? flip[l] : 0))
                 << l;
        bool v = (value >> (r & 63)) & 1;
        if (gg_tt_get(h->care, x) && gg_tt_get(h->on, x) != v)
            return -1;
        gg_tt_put(h->care, x, 1);
        gg_tt_put(h->on, x, v);
    }
    return 0;
}

int gg_net_window_tt(const gg_net *n, int gate, const int *leaves,
                     const uint8_t *flip, int n_leaves, const gg_tt *f,
                     gg_tt *h)
{
    gg_tt obs;
    gg_net_observable_tt(n, gate, &obs);
    return gg_net_signal_over(n, n->n_inputs + gate, leaves, flip, n_leaves,
                              f, &obs, h);
}

int gg_net_check(const gg_net *n, int o, const gg_tt *t, int *first_bad)
{
    if (n->n_inputs != t->n_inputs || o >= n->n_outputs) {
        if (first_bad)
            *first_bad = -1;
        return gg_tt_rows(t);
    }
    gg_tt got;
    gg_net_output_tt(n, o, &got);
    int wrong = 0;
    if (first_bad)
        *first_bad = -1;
    for (int w = 0; w < gg_tt_words(t); w++) {
        uint64_t bad = (got.on[w] ^ t->on[w]) & t->care[w] &
                       gg_tt_word_mask(t, w);
        if (bad && first_bad && *first_bad < 0)
            *first_bad = w * 64 + __builtin_ctzll(bad);
        wrong += __builtin_popcountll(bad);
    }
    return wrong;
}

int gg_net_count(const gg_net *n, int counts[GG_OP_COUNT])
{
    memset(counts, 0, GG_OP_COUNT * sizeof *counts);
    for (int i = 0; i < n->n_gates; i++)
        counts[n->gate[i].op]++;
    return n->n_gates;
}

bool gg_net_in_lib(const gg_net *n, gg_lib lib)
{
    for (int i = 0; i < n->n_gates; i++) {
        bool lut = n->gate[i].op == GG_OP_LUT3;
        if (lut != (lib == GG_LIB_LUT3))
            return false;
    }
    return true;
}

int gg_net_add_copy(gg_net *n, const gg_gate *g, const int *to, gg_err *err)
{
    int k = gg_op_arity((gg_op)g->op);
    return gg_net_add(n, (gg_op)g->op, g->lut, to[g->in[0]],
                      k > 1 ? to[g->in[1]] : 0, k > 2 ? to[g->in[2]] : 0, err);
}

int gg_net_append(gg_net *n, const gg_net *sub, const int *map, int *out,
                  gg_err *err)
{
    int sig[GG_NET_MAX_GATES + GG_TT_MAX_INPUTS];
    memcpy(sig, map, (size_t)sub->n_inputs * sizeof *sig);
    for (int i = 0; i < sub->n_gates; i++) {
        int s = gg_net_add_copy(n, &sub->gate[i], sig, err);
        if (s < 0)
            return -1;
        sig[sub->n_inputs + i] = s;
    }
    *out = sub->out[0] == GG_SIG_CONST0 ? (int)GG_SIG_CONST0 : sig[sub->out[0]];
    return 0;
}

static bool commutes(gg_op op)
{
    return op == GG_OP_AND || op == GG_OP_OR || op == GG_OP_XOR;
}

static bool same_gate(const gg_gate *a, const gg_gate *b)
{
    if (a->op != b->op || (a->op == GG_OP_LUT3 && a->lut != b->lut))
        return false;
    int k = gg_op_arity((gg_op)a->op);
    bool equal = true;
    for (int i = 0; i < k; i++)
        equal &= a->in[i] == b->in[i];
    return equal || (commutes((gg_op)a->op) && a->in[0] == b->in[1] &&
                     a->in[1] == b->in[0]);
}

int gg_net_tidy(gg_net *n)
{
    /* to[s]: what signal s becomes; merged gates point at their twin */
    int to[GG_NET_MAX_GATES + GG_TT_MAX_INPUTS];
    bool live[GG_NET_MAX_GATES + GG_TT_MAX_INPUTS] = {false};
    int ni = n->n_inputs, before = n->n_gates;
    for (int s = 0; s < ni + n->n_gates; s++)
        to[s] = s;
    for (int i = 0; i < n->n_gates; i++) {
        gg_gate *g = &n->gate[i];
        for (int j = 0; j < gg_op_arity((gg_op)g->op); j++)
            g->in[j] = (uint16_t)to[g->in[j]];
        for (int e = 0; e < i; e++)
            if (to[ni + e] == ni + e && same_gate(&n->gate[e], g)) {
                to[ni + i] = ni + e;
                break;
            }
    }
    for (int o = 0; o < n->n_outputs; o++)
        if (n->out[o] != GG_SIG_CONST0) {
            n->out[o] = (uint16_t)to[n->out[o]];
            live[n->out[o]] = true;
        }
    for (int i = n->n_gates - 1; i >= 0; i--)
        if (live[ni + i])
            for (int j = 0; j < gg_op_arity((gg_op)n->gate[i].op); j++)
                live[n->gate[i].in[j]] = true;
    int kept = 0;
    for (int i = 0; i < n->n_gates; i++) {
        if (!live[ni + i])
            continue;
        gg_gate g = n->gate[i];
        for (int j = 0; j < gg_op_arity((gg_op)g.op); j++)
            g.in[j] = (uint16_t)to[g.in[j]];
        to[ni + i] = ni + kept;
        n->gate[kept++] = g;
    }
    for (int o = 0; o < n->n_outputs; o++)
        if (n->out[o] != GG_SIG_CONST0)
            n->out[o] = (uint16_t)to[n->out[o]];
    n->n_gates = kept;
    return before - kept;
}
