/* The PTX emitter's instructions: register names, a network's gates as
 * lop3.b32, the levels' neighbour shifts and shuffles, and the stores of
 * level T's row (gen/emit/emit_ptx_internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_ptx_internal.h"

/* Rows level g lags the level below: 2 where level g starts a chain (it
 * reads the ring of level g-1 as the last tick left it, independent of
 * level g-1's work this tick), 1 inside a chain (it reads the ring after
 * level g-1 pushed this tick's row). A lag of 1 keeps two rows of row
 * features live between ticks instead of three. */
int ptx_skew(const pctx *c, int g)
{
    return (g - 1) % c->chain == 0 ? 2 : 1;
}

/* Row of level g this tick: yb - ptx_lag(g). */
int ptx_lag(const pctx *c, int g)
{
    int l = 0;
    for (int k = 1; k <= g; k++)
        l += ptx_skew(c, k);
    return l;
}

/* Position of level g in its chain (level 0 closes the chain below
 * level 1). */
int ptx_chain_pos(const pctx *c, int g)
{
    return g == 0 ? c->chain - 1 : (g - 1) % c->chain;
}

/* buf = t, cut to size. */
static void copy_name(char *buf, size_t size, const char *t)
{
    size_t n = strlen(t);
    if (n >= size)
        n = size - 1;
    memcpy(buf, t, n);
    buf[n] = 0;
}

/* Name of per-level value base of level k, word i: "%base<k>" with one
 * word per lane (the names of the one-word kernel), else "%base<k>x<i>". */
void ptx_wname(char *buf, size_t size, const pctx *c, const char *base,
               int k, int i)
{
    char t[64];
    if (c->wpl == 1)
        snprintf(t, sizeof t, "%%%s%d", base, k);
    else
        snprintf(t, sizeof t, "%%%s%dx%d", base, k, i);
    copy_name(buf, size, t);
}

/* Per-word scalar: "%base" (one word) or "%base<i>". */
void ptx_sname(char *buf, size_t size, const pctx *c, const char *base,
               int i)
{
    char t[64];
    if (c->wpl == 1)
        snprintf(t, sizeof t, "%%%s", base);
    else
        snprintf(t, sizeof t, "%%%s%d", base, i);
    copy_name(buf, size, t);
}

/* Prefix of gate temporaries of net kind ('f' final, 'q' row), level k,
 * word i. */
void ptx_tprefix(char *buf, size_t size, const pctx *c, char kind, int k,
                 int i)
{
    char t[64];
    if (c->wpl == 1)
        snprintf(t, sizeof t, "%c%d_", kind, k);
    else
        snprintf(t, sizeof t, "%c%dx%d_", kind, k, i);
    copy_name(buf, size, t);
}

/* Register of level g, ring slot s, value k (k = nf: the cells), word i. */
int ptx_ring_reg(const pctx *c, int g, int s, int k, int i)
{
    int nf = c->p->row.n_outputs;
    return ((g * 3 + s) * (nf + 1) + k) * c->wpl + i;
}

/* Name of net signal s: an input (in[s]) or gate temp prefix<i>. */
static void sig_name(char *buf, size_t size, const gg_net *n, int s,
                     char in[][16], const char *prefix)
{
    if (s < n->n_inputs)
        snprintf(buf, size, "%s", in[s]);
    else
        snprintf(buf, size, "%%%s%d", prefix, s - n->n_inputs);
}

/* Gate i of net n as one instruction. */
int ptx_emit_gate(gg_sbuf *b, const gg_net *n, int i, char in[][16],
                  const char *prefix, gg_err *err)
{
    char a[3][48];
    {
        const gg_gate *g = &n->gate[i];
        for (int k = 0; k < gg_op_arity((gg_op)g->op); k++)
            sig_name(a[k], sizeof a[k], n, g->in[k], in, prefix);
        const char *d = prefix;
        switch (g->op) {
        case GG_OP_LUT3:
            gg_sbuf_printf(b, "    lop3.b32 %%%s%d, %s, %s, %s, 0x%02x;\n", d,
                           i, a[0], a[1], a[2], g->lut);
            break;
        case GG_OP_AND:
        case GG_OP_OR:
        case GG_OP_XOR:
            gg_sbuf_printf(b, "    %s.b32 %%%s%d, %s, %s;\n",
                           g->op == GG_OP_AND  ? "and"
                           : g->op == GG_OP_OR ? "or"
                                               : "xor",
                           d, i, a[0], a[1]);
            break;
        case GG_OP_ANDNOT: /* a & ~b as the lop3 of (a, b, b) */
            gg_sbuf_printf(b, "    lop3.b32 %%%s%d, %s, %s, %s, 0x30;\n", d,
                           i, a[0], a[1], a[1]);
            break;
        case GG_OP_NOT:
            gg_sbuf_printf(b, "    not.b32 %%%s%d, %s;\n", d, i, a[0]);
            break;
        default:
            return gg_fail(err, "gate %d has unknown op %d", i, g->op);
        }
    }
    return 0;
}

/* dst = output o of net n. */
void ptx_emit_output(gg_sbuf *b, const char *dst, const gg_net *n, int o,
                     char in[][16], const char *prefix)
{
    char s[48];
    if (n->out[o] == GG_SIG_CONST0) {
        gg_sbuf_printf(b, "    mov.b32 %s, %d;\n", dst, n->out_neg[o] ? -1 : 0);
        return;
    }
    sig_name(s, sizeof s, n, n->out[o], in, prefix);
    gg_sbuf_printf(b, "    %s.b32 %s, %s;\n", n->out_neg[o] ? "not" : "mov",
                   dst, s);
}

/* Level k's shifts are multiply-adds on the FMA pipe (all of them
 * without funnel shifts; else nfma of the T pushing levels, spread
 * evenly), which takes them off the ALU pipe that LOP3 saturates. */
static bool fma_level(const pctx *c, int k)
{
    if (!c->funnel)
        return true;
    return c->nfma > 0 && k < c->t &&
           (k + 1) * c->nfma / c->t > k * c->nfma / c->t;
}

/* The shuffles that give row v's west and east words in %l<k>, %rr<k>
 * (k: the level, for distinct temporaries). */
void ptx_emit_shuffles(const pctx *c, int k, const char *v,
                       const char *vlast)
{
    /* with several words per lane word wpl-1 goes east (up), word 0
     * west (down) */
    gg_sbuf_printf(c->b, "    shfl.sync.up.b32 %%l%d, %s, 1, 0, -1;\n"
                   "    shfl.sync.down.b32 %%rr%d, %s, 1, 31, -1;\n", k,
                   c->wpl > 1 ? vlast : v, k, v);
}

/* Word i of level k (value v) from its west word vw and east word ve. */
void ptx_emit_shifts_multi(const pctx *c, int k, int i, const char *v,
                           const char *vw, const char *ve)
{
    char w[24], e[24];
    ptx_wname(w, sizeof w, c, "w", k, i);
    ptx_wname(e, sizeof e, c, "e", k, i);
    gg_sbuf_printf(c->b, "    shf.l.wrap.b32 %s, %s, %s, 1;\n"
                   "    shf.r.wrap.b32 %s, %s, %s, 1;\n",
                   w, vw, v, e, v, ve);
}

/* West word (v << 1 | l >> 31) and east word (v >> 1 | rr << 31) of
 * level k. The multiply-add form does the half that needs only v before
 * the shuffles land (v * 2, v >> 1 as hi(v * 2^31)), so one op follows
 * each shuffle, as with the funnel shift; the constants live in
 * registers (%k2, %k31), or ptxas turns the products back into ALU
 * shifts. */
void ptx_emit_shifts(const pctx *c, int k, const char *v)
{
    if (!fma_level(c, k))
        gg_sbuf_printf(c->b, "    shf.l.wrap.b32 %%w%d, %%l%d, %s, 1;\n"
                       "    shf.r.wrap.b32 %%e%d, %s, %%rr%d, 1;\n",
                       k, k, v, k, v, k);
    else
        gg_sbuf_printf(c->b, "    mul.lo.u32 %%dbl%d, %s, %%k2;\n"
                       "    mul.hi.u32 %%half%d, %s, %%k31;\n"
                       "    mad.hi.u32 %%w%d, %%l%d, %%k2, %%dbl%d;\n"
                       "    mad.lo.u32 %%e%d, %%rr%d, %%k31, %%half%d;\n",
                       k, v, k, v, k, k, k, k, k, k);
}

void ptx_row_inputs(const pctx *c, char in[][16], int k, int i,
                    const char *v)
{
    ptx_wname(in[GG_ROW_W], 16, c, "w", k, i);
    snprintf(in[GG_ROW_C], 16, "%s", v);
    ptx_wname(in[GG_ROW_E], 16, c, "e", k, i);
}

/* Level k's ring slot s gets row v (its cells and row features). */
void ptx_emit_ring_store(const pctx *c, int k, int i, int s,
                         const char *v)
{
    char in[GG_ROW_INPUTS][16], pre[16], dst[24];
    const gg_net *row = &c->p->row;
    ptx_row_inputs(c, in, k, i, v);
    ptx_tprefix(pre, sizeof pre, c, 'q', k, i);
    for (int o = 0; o < row->n_outputs; o++) {
        snprintf(dst, sizeof dst, "%%R%d", ptx_ring_reg(c, k, s, o, i));
        ptx_emit_output(c->b, dst, row, o, in, pre);
    }
    gg_sbuf_printf(c->b, "    mov.b32 %%R%d, %s;\n",
                   ptx_ring_reg(c, k, s, row->n_outputs, i), v);
}

/* Inputs of level g's final stage: level g-1's ring at phase P. */
void ptx_final_inputs(const pctx *c, int g, int wi, int phase,
                      char in[][16])
{
    const gg_kplan *p = c->p;
    int nf = p->row.n_outputs;
    for (int i = 0; i < p->final.n_inputs; i++) {
        /* rows y-1, y, y+1; with lag 1 the newest is this tick's */
        int slot = (phase + 3 - ptx_skew(c, g) + p->dy[i]) % 3;
        int k = p->feat[i] == GG_FEAT_CELL ? nf : p->feat[i];
        snprintf(in[i], 16, "%%R%d", ptx_ring_reg(c, g - 1, slot, k, wi));
    }
}

/* "[reg]" / "[reg+off]". */
static void addr_at(char *buf, size_t size, const char *reg, int off)
{
    if (off)
        snprintf(buf, size, "[%s+%d]", reg, off);
    else
        snprintf(buf, size, "[%s]", reg);
}

/* "[%ra]" / "[%ra+off]". */
void ptx_addr(char *buf, size_t size, int off)
{
    addr_at(buf, size, "%ra", off);
}

/* Level T's row y = yb - 2T goes out if it is one of the strip's rows:
 * the row address and predicate (once per tick). */
void ptx_emit_store_row(const pctx *c)
{
    if (c->store == 2 && c->tk >= 0) /* %rs0 + tk rows */
        return;
    if (c->store == 2) { /* %outq: the output row ptx_lag(T) rows above yb */
        gg_sbuf_printf(c->b, "    mad.wide.s32 %%rs, %%yb, %%ns4, %%outq;\n");
        return;
    }
    gg_sbuf_printf(c->b,
                   "    sub.s32 %%y, %%yb, %d;\n"
                   "    setp.ge.s32 %%ps, %%y, %%y0;\n"
                   "    setp.lt.and.s32 %%ps, %%y, %%yend, %%ps;\n"
                   "    mul.wide.s32 %%ra, %%y, %%ns4;\n"
                   "    add.s64 %%ra, %%ra, %%outp;\n", ptx_lag(c, c->t));
}

/* Word i of that row (value v): whole, or the inner half of a window's
 * first or last word. With several words per lane only word 0 can be a
 * window's first word and word wpl-1 its last. The row's address is in
 * register ra (rows checked against the strip) or rs (steady ticks). */
void ptx_emit_store_word_at(const pctx *c, int i, const char *v,
                            const char *ra, const char *rs)
{
    char full[16], hi[16], lo[16], a0[24], a2[24];
    ptx_sname(full, sizeof full, c, "stfull", i);
    ptx_sname(hi, sizeof hi, c, "sthi", i);
    ptx_sname(lo, sizeof lo, c, "stlo", i);
    addr_at(a0, sizeof a0, ra, 4 * i);
    addr_at(a2, sizeof a2, ra, 4 * i + 2);
    bool first = i == 0, last = i == c->wpl - 1;
    if (c->store == 2) {
        /* the lane's own predicates; the high half by a multiply (FMA
         * pipe) */
        char ptr[8];
        int off = 0;
        snprintf(ptr, sizeof ptr, "%s", rs);
        if (c->tk >= 0)
            snprintf(ptr, sizeof ptr, "%%rs0"), off = c->tk * c->kstride;
        gg_sbuf_printf(c->b, "    @%s st.global.u32 [%s+%d], %s;\n"
                       "    mul.hi.u32 %%vh, %s, %%k16;\n"
                       "    cvt.u16.u32 %%hw0, %%vh;\n"
                       "    cvt.u16.u32 %%hw1, %s;\n"
                       "    @%s st.global.u16 [%s+%d], %%hw0;\n"
                       "    @%s st.global.u16 [%s+%d], %%hw1;\n",
                       full, ptr, off, v, v, v, hi, ptr, off + 2, lo, ptr,
                       off);
        return;
    }
    gg_sbuf_printf(c->b, "    and.pred %%ps1, %%ps, %s;\n", full);
    if (first)
        gg_sbuf_printf(c->b, "    and.pred %%ps2, %%ps, %s;\n", hi);
    if (last)
        gg_sbuf_printf(c->b, "    and.pred %%ps3, %%ps, %s;\n", lo);
    gg_sbuf_printf(c->b, "    @%%ps1 st.global.u32 %s, %s;\n", a0, v);
    if (first)
        gg_sbuf_printf(c->b, "    shr.u32 %%vh, %s, 16;\n"
                       "    cvt.u16.u32 %%hw0, %%vh;\n", v);
    if (last)
        gg_sbuf_printf(c->b, "    cvt.u16.u32 %%hw1, %s;\n", v);
    if (first)
        gg_sbuf_printf(c->b, "    @%%ps2 st.global.u16 %s, %%hw0;\n", a2);
    if (last)
        gg_sbuf_printf(c->b, "    @%%ps3 st.global.u16 %s, %%hw1;\n", a0);
}

void ptx_emit_store_word(const pctx *c, int i, const char *v)
{
    ptx_emit_store_word_at(c, i, v, "%ra", "%rs");
}
