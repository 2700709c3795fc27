#include "net_build.h"

#include <stdlib.h>
#include <string.h>

/* Node handles: a signal number, or one of the two constants. */
enum { NODE_ZERO = -2, NODE_ONE = -3 };

typedef struct memo_entry {
    int vars;                 /* the sub-function is over inputs 0..vars-1 */
    uint64_t bits[GG_TT_WORDS];
    int node;
} memo_entry;

typedef struct builder {
    gg_net *net;
    gg_lib lib;
    gg_err *err;
    int n_memo;
    memo_entry memo[GG_NET_MAX_GATES];
} builder;

static int words_for(int vars) { return vars >= 6 ? 1 << (vars - 6) : 1; }

static uint64_t mask_for(int vars)
{
    return vars >= 6 ? ~0ull : (1ull << (1 << vars)) - 1;
}

static bool is_const(const uint64_t *bits, int vars, uint64_t value)
{
    for (int w = 0; w < words_for(vars); w++)
        if ((bits[w] ^ value) & mask_for(vars))
            return false;
    return true;
}

/* Cofactor of a function over `vars` inputs on its top input. */
static void cofactor(const uint64_t *f, int vars, int value, uint64_t *out)
{
    int half = 1 << (vars - 1);
    if (half >= 64) {
        memcpy(out, f + (value ? half / 64 : 0), (size_t)half / 8);
        return;
    }
    out[0] = (f[0] >> (value ? half : 0)) & ((1ull << half) - 1);
}

/* 3-input LUT over (a, b, c) = (select, hi, lo), where hi or lo may be a
 * constant: its operand slot then repeats the select signal. */
static int lut3_mux(builder *b, int s, int hi, int lo)
{
    uint8_t lut = 0;
    for (int k = 0; k < 8; k++) {
        int sv = (k >> 2) & 1, hv = (k >> 1) & 1, lv = k & 1;
        if (hi < 0)
            hv = hi == NODE_ONE;
        if (lo < 0)
            lv = lo == NODE_ONE;
        if (hi < 0 && ((k >> 1) & 1) != sv)
            continue; /* operand b is the select signal: unreachable row */
        if (lo < 0 && (k & 1) != sv)
            continue;
        if (sv ? hv : lv)
            lut |= (uint8_t)(1u << k);
    }
    return gg_net_add(b->net, GG_OP_LUT3, lut, s, hi < 0 ? s : hi,
                      lo < 0 ? s : lo, b->err);
}

static int gate2_mux(builder *b, int s, int hi, int lo)
{
    gg_net *n = b->net;
    if (hi == NODE_ONE)
        return gg_net_add(n, GG_OP_OR, 0, s, lo, 0, b->err);
    if (hi == NODE_ZERO)
        return gg_net_add(n, GG_OP_ANDNOT, 0, lo, s, 0, b->err);
    if (lo == NODE_ZERO)
        return gg_net_add(n, GG_OP_AND, 0, s, hi, 0, b->err);
    if (lo == NODE_ONE) {
        int t = gg_net_add(n, GG_OP_ANDNOT, 0, s, hi, 0, b->err);
        return t < 0 ? t : gg_net_add(n, GG_OP_NOT, 0, t, 0, 0, b->err);
    }
    int t = gg_net_add(n, GG_OP_AND, 0, s, hi, 0, b->err);
    int u = gg_net_add(n, GG_OP_ANDNOT, 0, lo, s, 0, b->err);
    return t < 0 || u < 0 ? -1 : gg_net_add(n, GG_OP_OR, 0, t, u, 0, b->err);
}

static int mux(builder *b, int s, int hi, int lo)
{
    if (hi == NODE_ONE && lo == NODE_ZERO)
        return s;
    if (hi == NODE_ZERO && lo == NODE_ONE) {
        if (b->lib == GG_LIB_LUT3)
            return gg_net_add(b->net, GG_OP_LUT3, 0x01, s, s, s, b->err);
        return gg_net_add(b->net, GG_OP_NOT, 0, s, 0, 0, b->err);
    }
    return b->lib == GG_LIB_LUT3 ? lut3_mux(b, s, hi, lo)
                                 : gate2_mux(b, s, hi, lo);
}

/* Network node for function f over inputs 0..vars-1, sharing equal
 * sub-functions. Returns a node handle, or -1 on error. */
static int build(builder *b, const uint64_t *f, int vars)
{
    if (is_const(f, vars, 0))
        return NODE_ZERO;
    if (is_const(f, vars, ~0ull))
        return NODE_ONE;
    size_t bytes = (size_t)words_for(vars) * 8;
    for (int i = 0; i < b->n_memo; i++)
        if (b->memo[i].vars == vars && !memcmp(b->memo[i].bits, f, bytes))
            return b->memo[i].node;
    uint64_t lo_f[GG_TT_WORDS] = {0}, hi_f[GG_TT_WORDS] = {0};
    cofactor(f, vars, 0, lo_f);
    cofactor(f, vars, 1, hi_f);
    int lo = build(b, lo_f, vars - 1);
    int hi = lo == -1 ? -1 : build(b, hi_f, vars - 1);
    if (lo == -1 || hi == -1)
        return -1;
    int node = hi == lo ? lo : mux(b, vars - 1, hi, lo);
    if (node < 0 || b->n_memo >= GG_NET_MAX_GATES)
        return node < 0 ? -1 : node;
    memo_entry *m = &b->memo[b->n_memo++];
    m->vars = vars;
    memcpy(m->bits, f, bytes);
    m->node = node;
    return node;
}

int gg_net_build_from_tt(const gg_tt *t, gg_lib lib, gg_net *net,
                         gg_err *err)
{
    builder *b = gg_alloc(1, sizeof *b, err, "network builder");
    if (!b)
        return -1;
    memset(net, 0, sizeof *net);
    net->n_inputs = t->n_inputs;
    b->net = net;
    b->lib = lib;
    b->err = err;
    uint64_t f[GG_TT_WORDS];
    for (int w = 0; w < GG_TT_WORDS; w++)
        f[w] = t->on[w] & t->care[w];
    int root = build(b, f, t->n_inputs);
    free(b);
    if (root == -1)
        return -1;
    net->n_outputs = 1;
    net->out[0] = root < 0 ? GG_SIG_CONST0 : (uint16_t)root;
    net->out_neg[0] = root == NODE_ONE;
    return 0;
}
