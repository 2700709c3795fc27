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

void gg_net_eval64(const gg_net *n, const uint64_t *in, uint64_t *out)
{
    uint64_t sig[GG_NET_MAX_GATES + 64];
    memcpy(sig, in, (size_t)n->n_inputs * sizeof *sig);
    for (int i = 0; i < n->n_gates; i++) {
        const gg_gate *g = &n->gate[i];
        int k = gg_op_arity((gg_op)g->op);
        sig[n->n_inputs + i] = apply(g, sig[g->in[0]], k > 1 ? sig[g->in[1]] : 0,
                                     k > 2 ? sig[g->in[2]] : 0);
    }
    for (int o = 0; o < n->n_outputs; o++) {
        uint64_t v = n->out[o] == GG_SIG_CONST0 ? 0 : sig[n->out[o]];
        out[o] = n->out_neg[o] ? ~v : v;
    }
}

void gg_net_output_tt(const gg_net *n, int o, gg_tt *t)
{
    memset(t, 0, sizeof *t);
    t->n_inputs = n->n_inputs;
    uint64_t in[64], out[GG_NET_MAX_OUTPUTS];
    for (int w = 0; w < gg_tt_words(t); w++) {
        for (int i = 0; i < n->n_inputs; i++)
            in[i] = gg_tt_input_word(i, w * 64);
        gg_net_eval64(n, in, out);
        t->on[w] = out[o] & gg_tt_word_mask(t, w);
        t->care[w] = gg_tt_word_mask(t, w);
    }
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
