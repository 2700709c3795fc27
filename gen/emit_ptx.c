#include "emit_ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c.h"
#include "emit_cuda.h"
#include "emit_net.h"

/* What one gg_step_N body is generated from. */
typedef struct pctx {
    gg_sbuf *b;
    const gg_kplan *p;
    int t;       /* levels (generations per launch) */
    bool mask;   /* the plane-edge copy */
    bool funnel;
    int ilv;     /* levels interleaved per group (1: one after another) */
    char sfx;    /* label suffix of this copy */
    int wpl;     /* 32-bit words per lane (1, 2, 4) */
    int chain;   /* levels per dependent chain (1: all independent) */
    int pf;      /* rows loaded ahead (1: the next tick's only) */
    int nfma;    /* pushing levels whose shifts are multiply-adds */
    bool inner;  /* the interior copy: no wrap, no load guard */
    int store;   /* level T's row: 0 none (fill), 1 if inside the strip,
                    2 always (the interior copy's steady ticks) */
    int turn;    /* ticks per turn of the interior copy's steady loop (a
                    multiple of 3: the register rings' period) */
    int top;     /* highest level a tick runs: T, or fewer in the staged
                    fill of the interior copy */
    bool loopfill; /* the interior copy's fill as a loop of every level */
    int warm;    /* rows ahead that the interior copy prefetches (0: none) */
    bool warml2; /* that prefetch into L2, not L1 */
    int kstride; /* row stride in bytes known at emit time (0: not) */
    int tk;      /* with kstride, the tick's index in a steady turn, whose
                    rows lie at constant offsets from %ra0 / %rs0; -1:
                    addresses from %yb */
    const gg_gen_nets *gen; /* a Generations rule's per-cell stage (NULL:
                               two states): "Generations" below */
} pctx;

/* Rows level g lags the level below: 2 where level g starts a chain (it
 * reads the ring of level g-1 as the last tick left it, independent of
 * level g-1's work this tick), 1 inside a chain (it reads the ring after
 * level g-1 pushed this tick's row). A lag of 1 keeps two rows of row
 * features live between ticks instead of three. */
static int skew(const pctx *c, int g)
{
    return (g - 1) % c->chain == 0 ? 2 : 1;
}

/* Row of level g this tick: yb - lag(g). */
static int lag(const pctx *c, int g)
{
    int l = 0;
    for (int k = 1; k <= g; k++)
        l += skew(c, k);
    return l;
}

/* Position of level g in its chain (level 0 closes the chain below
 * level 1). */
static int chain_pos(const pctx *c, int g)
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
static void wname(char *buf, size_t size, const pctx *c, const char *base,
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
static void sname(char *buf, size_t size, const pctx *c, const char *base,
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
static void tprefix(char *buf, size_t size, const pctx *c, char kind, int k,
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
static int ring_reg(const pctx *c, int g, int s, int k, int i)
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
static int emit_gate(gg_sbuf *b, const gg_net *n, int i, char in[][16],
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
static void emit_output(gg_sbuf *b, const char *dst, const gg_net *n, int o,
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
static void emit_shuffles(const pctx *c, int k, const char *v,
                          const char *vlast)
{
    /* with several words per lane word wpl-1 goes east (up), word 0
     * west (down) */
    gg_sbuf_printf(c->b, "    shfl.sync.up.b32 %%l%d, %s, 1, 0, -1;\n"
                   "    shfl.sync.down.b32 %%rr%d, %s, 1, 31, -1;\n", k,
                   c->wpl > 1 ? vlast : v, k, v);
}

/* Word i of level k (value v) from its west word vw and east word ve. */
static void emit_shifts_multi(const pctx *c, int k, int i, const char *v,
                              const char *vw, const char *ve)
{
    char w[24], e[24];
    wname(w, sizeof w, c, "w", k, i);
    wname(e, sizeof e, c, "e", k, i);
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
static void emit_shifts(const pctx *c, int k, const char *v)
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

static void row_inputs(const pctx *c, char in[][16], int k, int i,
                       const char *v)
{
    wname(in[GG_ROW_W], 16, c, "w", k, i);
    snprintf(in[GG_ROW_C], 16, "%s", v);
    wname(in[GG_ROW_E], 16, c, "e", k, i);
}

/* Level k's ring slot s gets row v (its cells and row features). */
static void emit_ring_store(const pctx *c, int k, int i, int s,
                            const char *v)
{
    char in[GG_ROW_INPUTS][16], pre[16], dst[24];
    const gg_net *row = &c->p->row;
    row_inputs(c, in, k, i, v);
    tprefix(pre, sizeof pre, c, 'q', k, i);
    for (int o = 0; o < row->n_outputs; o++) {
        snprintf(dst, sizeof dst, "%%R%d", ring_reg(c, k, s, o, i));
        emit_output(c->b, dst, row, o, in, pre);
    }
    gg_sbuf_printf(c->b, "    mov.b32 %%R%d, %s;\n",
                   ring_reg(c, k, s, row->n_outputs, i), v);
}

/* Inputs of level g's final stage: level g-1's ring at phase P. */
static void final_inputs(const pctx *c, int g, int wi, int phase,
                         char in[][16])
{
    const gg_kplan *p = c->p;
    int nf = p->row.n_outputs;
    for (int i = 0; i < p->final.n_inputs; i++) {
        /* rows y-1, y, y+1; with lag 1 the newest is this tick's */
        int slot = (phase + 3 - skew(c, g) + p->dy[i]) % 3;
        int k = p->feat[i] == GG_FEAT_CELL ? nf : p->feat[i];
        snprintf(in[i], 16, "%%R%d", ring_reg(c, g - 1, slot, k, wi));
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
static void addr(char *buf, size_t size, int off)
{
    addr_at(buf, size, "%ra", off);
}

/* Level T's row y = yb - 2T goes out if it is one of the strip's rows:
 * the row address and predicate (once per tick). */
static void emit_store_row(const pctx *c)
{
    if (c->store == 2 && c->tk >= 0) /* %rs0 + tk rows */
        return;
    if (c->store == 2) { /* %outq: the output row lag(T) rows above yb */
        gg_sbuf_printf(c->b, "    mad.wide.s32 %%rs, %%yb, %%ns4, %%outq;\n");
        return;
    }
    gg_sbuf_printf(c->b,
                   "    sub.s32 %%y, %%yb, %d;\n"
                   "    setp.ge.s32 %%ps, %%y, %%y0;\n"
                   "    setp.lt.and.s32 %%ps, %%y, %%yend, %%ps;\n"
                   "    mul.wide.s32 %%ra, %%y, %%ns4;\n"
                   "    add.s64 %%ra, %%ra, %%outp;\n", lag(c, c->t));
}

/* Word i of that row (value v): whole, or the inner half of a window's
 * first or last word. With several words per lane only word 0 can be a
 * window's first word and word wpl-1 its last. The row's address is in
 * register ra (rows checked against the strip) or rs (steady ticks). */
static void emit_store_word_at(const pctx *c, int i, const char *v,
                               const char *ra, const char *rs)
{
    char full[16], hi[16], lo[16], a0[24], a2[24];
    sname(full, sizeof full, c, "stfull", i);
    sname(hi, sizeof hi, c, "sthi", i);
    sname(lo, sizeof lo, c, "stlo", i);
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

static void emit_store_word(const pctx *c, int i, const char *v)
{
    emit_store_word_at(c, i, v, "%ra", "%rs");
}

/* ---- Generations (gen/gen_nets.h) ----
 * The planes travel as in the CUDA template (templates/cuda/kernel.cu.in:
 * GG_NP, GG_NX, GG_XP0): a row in flight holds every state plane (plane
 * p of row y lies p * p_ps words past plane 0's word); the two-state
 * network runs on the alive cells alone (%cur, %vv<g>, the %R rings);
 * each level's ring keeps the other planes of its last three rows in %X
 * registers; after a level's final stage the per-cell stage turns its
 * output and the centre row's planes into the level's new cells and
 * planes; level T stores every plane. A two-state kernel emits none of
 * this, so its text stays as it was. */

static int gen_planes(const pctx *c)
{
    return c->gen ? c->gen->planes : 1;
}

/* Planes a ring keeps beside the alive cells (gg_gen_nets_extra). */
static int gen_extra(const pctx *c)
{
    return c->gen ? gg_gen_nets_extra(c->gen) : 0;
}

/* 1 when plane 0 is the alive cells themselves (C <= 3): extra plane j
 * is then plane j + 1. */
static int gen_xp0(const pctx *c)
{
    return !c->gen || c->gen->a_is_p0;
}

/* Register number of level g's ring slot s, extra plane j (%X). */
static int xring_reg(const pctx *c, int g, int s, int j)
{
    return (g * 3 + s) * gen_extra(c) + j;
}

/* Plane p of the row in flight whose plane 0 is `row` ("%next", "%nq2"):
 * plane 0 keeps the two-state kernel's name, the others get "_p". */
static void plane_name(char *buf, size_t size, const char *row, int p)
{
    if (p)
        snprintf(buf, size, "%s_%d", row, p);
    else
        snprintf(buf, size, "%s", row);
}

/* Planes 1 .. of the row whose plane 0 was just loaded into `row` from
 * [%ra] (rows yl / yb + pf): one address add per plane; guarded as the
 * plane 0 load (%pl), and warmed as it when `warm` (%rw). */
static void emit_gen_load_planes(const pctx *c, const char *row,
                                 bool guarded, bool warm)
{
    char q[40];
    const char *lvl = c->warml2 ? "L2" : "L1";
    for (int p = 1; p < gen_planes(c); p++) {
        plane_name(q, sizeof q, row, p);
        gg_sbuf_printf(c->b, "    add.s64 %%rp, %s, %%psb;\n",
                       p == 1 ? "%ra" : "%rp");
        if (guarded)
            gg_sbuf_printf(c->b, "    mov.u32 %s, 0;\n"
                           "    @%%pl ld.global.nc.u32 %s, [%%rp];\n", q, q);
        else
            gg_sbuf_printf(c->b, "    ld.global.nc.u32 %s, [%%rp];\n", q);
        if (warm)
            gg_sbuf_printf(c->b, "    add.s64 %%rwp, %s, %%psb;\n"
                           "    prefetch.global.%s [%%rwp];\n",
                           p == 1 ? "%rw" : "%rwp", lvl);
    }
}

/* Planes first .. of the rows in flight move up one queue slot (rows
 * loaded pf ticks ahead: %nq1 -> %nq0, ...). */
static void emit_gen_queue_shift(const pctx *c, int first)
{
    char a[40], d[40], qa[16], qd[16];
    for (int i = 1; i < c->pf; i++)
        for (int p = first; p < gen_planes(c); p++) {
            snprintf(qd, sizeof qd, "%%nq%d", i - 1);
            snprintf(qa, sizeof qa, "%%nq%d", i);
            plane_name(d, sizeof d, qd, p);
            plane_name(a, sizeof a, qa, p);
            gg_sbuf_printf(c->b, "    mov.b32 %s, %s;\n", d, a);
        }
}

/* The row this tick gives level 0 (queue slot 0): its extra planes into
 * level 0's ring slot `phase`, its alive cells into %cur (plane 0, or the
 * alive net of the planes); then the queue moves up. Level 1 reads ring
 * 0's other slots this tick, so slot `phase` may be written first. */
static int emit_gen_take(const pctx *c, int phase, gg_err *err)
{
    const gg_gen_nets *g = c->gen;
    char head[8], q[40], in[GG_GEN_NETS_MAX_PLANES][16];
    int xp0 = gen_xp0(c);
    snprintf(head, sizeof head, "%s", c->pf > 1 ? "%nq0" : "%next");
    if (xp0)
        gg_sbuf_printf(c->b, "    mov.b32 %%cur, %s;\n", head);
    for (int j = 0; j < gen_extra(c); j++) {
        plane_name(q, sizeof q, head, j + xp0);
        snprintf(in[j], sizeof in[j], "%%X%d", xring_reg(c, 0, phase, j));
        gg_sbuf_printf(c->b, "    mov.b32 %s, %s;\n", in[j], q);
    }
    emit_gen_queue_shift(c, 0);
    if (xp0)
        return 0;
    for (int i = 0; i < g->alive.n_gates; i++)
        if (emit_gate(c->b, &g->alive, i, in, "a_", err))
            return -1;
    emit_output(c->b, "%cur", &g->alive, 0, in, "a_");
    return 0;
}

/* Level g's per-cell stage: `out` holds the two-state rule's output for
 * row y and becomes the new alive cells; the new extra planes go to
 * level g's ring slot `phase` (level T: %xs, for the store). The old
 * planes are row y of level g-1's ring: the centre of the three rows its
 * final stage read. */
static int emit_gen_post(const pctx *c, int g, int phase, const char *out,
                         gg_err *err)
{
    const gg_net *n = &c->gen->post;
    char in[GG_GEN_NETS_MAX_PLANES + 1][16], pre[16], dst[24];
    int xp0 = gen_xp0(c), nf = c->p->row.n_outputs;
    int centre = (phase + 3 - skew(c, g)) % 3;
    snprintf(in[0], sizeof in[0], "%s", out);
    for (int p = 0; p < gen_planes(c); p++)
        if (xp0 && p == 0)
            snprintf(in[1], sizeof in[1], "%%R%d",
                     ring_reg(c, g - 1, centre, nf, 0));
        else
            snprintf(in[1 + p], sizeof in[1 + p], "%%X%d",
                     xring_reg(c, g - 1, centre, p - xp0));
    snprintf(pre, sizeof pre, "g%d_", g);
    for (int i = 0; i < n->n_gates; i++)
        if (emit_gate(c->b, n, i, in, pre, err))
            return -1;
    /* the planes first: the alive output overwrites `out`, an input */
    for (int j = 0; j < gen_extra(c); j++) {
        if (g < c->t)
            snprintf(dst, sizeof dst, "%%X%d", xring_reg(c, g, phase, j));
        else
            snprintf(dst, sizeof dst, "%%xs%d", j);
        emit_output(c->b, dst, n, j + xp0, in, pre);
    }
    emit_output(c->b, out, n, c->gen->planes, in, pre);
    return 0;
}

/* Every plane of level T's row, word i (alive cells in v, the others in
 * %xs): plane 0 at the two-state kernel's address, plane p p_ps words
 * further (%rq). */
static void emit_gen_store(const pctx *c, int i, const char *v)
{
    int xp0 = gen_xp0(c);
    char val[16];
    for (int p = 0; p < gen_planes(c); p++) {
        if (xp0 && p == 0)
            snprintf(val, sizeof val, "%s", v);
        else
            snprintf(val, sizeof val, "%%xs%d", p - xp0);
        if (p == 0) {
            emit_store_word(c, i, val);
            continue;
        }
        gg_sbuf_printf(c->b, "    add.s64 %%rq, %s, %%psb;\n",
                       p > 1 ? "%rq" : c->store == 2 ? "%rs" : "%ra");
        emit_store_word_at(c, i, val, "%rq", "%rq");
    }
}

/* Registers of the Generations stage. */
static void emit_gen_decls(gg_sbuf *b, const pctx *c)
{
    const gg_gen_nets *g = c->gen;
    int nx = gen_extra(c);
    char q[16];
    if (nx)
        gg_sbuf_printf(b, "    .reg .b32 %%X<%d>, %%xs<%d>;\n",
                       xring_reg(c, c->t, 0, 0), nx);
    for (int p = 1; p < g->planes; p++) {
        gg_sbuf_printf(b, "    .reg .b32 %%next_%d;\n", p);
        for (int i = 0; c->pf > 1 && i < c->pf; i++) {
            snprintf(q, sizeof q, "%%nq%d", i);
            gg_sbuf_printf(b, "    .reg .b32 %s_%d;\n", q, p);
        }
    }
    if (!g->a_is_p0)
        gg_sbuf_printf(b, "    .reg .b32 %%a_<%d>;\n",
                       g->alive.n_gates > 0 ? g->alive.n_gates : 1);
    for (int k = 1; k <= c->t; k++)
        gg_sbuf_printf(b, "    .reg .b32 %%g%d_<%d>;\n", k,
                       g->post.n_gates > 0 ? g->post.n_gates : 1);
    gg_sbuf_printf(b, "    .reg .b64 %%psb, %%rp, %%rq, %%rwp;\n");
}

/* Load the row for the next tick into %next (0 outside the grid). */
static void emit_load_next(const pctx *c)
{
    gg_sbuf *b = c->b;
    if (c->wpl == 1) {
        char nx[16] = "%next";
        if (c->pf > 1)
            snprintf(nx, sizeof nx, "%%nq%d", c->pf - 1);
        const char *lvl = c->warml2 ? "L2" : "L1";
        if (c->inner && c->tk >= 0) { /* %ra0: row yb + pf at tick 0 */
            gg_sbuf_printf(b, "    ld.global.nc.u32 %s, [%%ra0+%d];\n", nx,
                           c->tk * c->kstride);
            if (c->warm)
                gg_sbuf_printf(b, "    prefetch.global.%s [%%ra0+%d];\n", lvl,
                               (c->tk + c->warm - c->pf) * c->kstride);
            return;
        }
        if (c->inner) { /* %inq: row yb + pf, inside the grid */
            gg_sbuf_printf(b, "    mad.wide.s32 %%ra, %%yb, %%ns4, %%inq;\n"
                           "    ld.global.nc.u32 %s, [%%ra];\n", nx);
            if (c->warm) /* row yb + warm, warm - pf rows past %ra's */
                gg_sbuf_printf(b, "    mad.wide.s32 %%rw, %%ns4, %d, %%ra;\n"
                               "    prefetch.global.%s [%%rw];\n",
                               c->warm - c->pf, lvl);
            emit_gen_load_planes(c, nx, false, c->warm != 0);
            return;
        }
        gg_sbuf_printf(b, "    setp.lt.and.u32 %%pl, %%yl, %%h, %%kin;\n"
                       "    mul.wide.u32 %%ra, %%yl, %%ns4;\n"
                       "    add.s64 %%ra, %%ra, %%inp;\n"
                       "    mov.u32 %s, 0;\n"
                       "    @%%pl ld.global.nc.u32 %s, [%%ra];\n", nx, nx);
        emit_gen_load_planes(c, nx, true, false);
        return;
    }
    char a0[24];
    gg_sbuf_printf(b, "    setp.lt.u32 %%plr, %%yl, %%h;\n"
                   "    mul.wide.u32 %%ra, %%yl, %%ns4;\n"
                   "    add.s64 %%ra, %%ra, %%inp;\n");
    for (int i = 0; i < c->wpl; i++) {
        addr(a0, sizeof a0, 4 * i);
        gg_sbuf_printf(b, "    and.pred %%pl%d, %%plr, %%kin%d;\n"
                       "    mov.u32 %%next%d, 0;\n"
                       "    @%%pl%d ld.global.nc.u32 %%next%d, %s;\n",
                       i, i, i, i, i, a0);
    }
}

/* Value of level k, word i this tick: the final stage's output, or
 * (k = 0) the row just loaded. */
static void level_value(const pctx *c, char *buf, size_t size, int k, int i)
{
    if (k == 0)
        sname(buf, size, c, "cur", i);
    else
        wname(buf, size, c, "vv", k, i);
}

/* Levels hi .. lo (descending) of one tick, their instructions interleaved
 * stage by stage: gate i of every level's final stage (of every word of
 * the lane), then gate i + 1, ...; then the shuffles of every level, the
 * shifts, the row gates. The levels of one tick are independent (each
 * reads the ring of the level below as it stood after the last tick), so
 * the scheduler gets back to back independent instructions. Descending
 * order keeps every ring read before the level below overwrites it. */
static int emit_levels(const pctx *c, int phase, const int *lv, int n,
                       gg_err *err)
{
    gg_sbuf *b = c->b;
    const gg_kplan *p = c->p;
    char in[GG_NET_MAX_OUTPUTS + 1][16], pre[16], v[16], out[16];
    char vw[16], ve[16], cm[16];
    int nw = c->wpl;
    gg_sbuf_printf(b, "    // levels");
    for (int j = 0; j < n; j++)
        gg_sbuf_printf(b, " %d", lv[j]);
    gg_sbuf_printf(b, "\n");
    for (int i = 0; i < p->final.n_gates; i++)
        for (int j = 0, g; j < n && (g = lv[j]) >= 1; j++)
            for (int w = 0; w < nw; w++) {
                final_inputs(c, g, w, phase, in);
                tprefix(pre, sizeof pre, c, 'f', g, w);
                if (emit_gate(b, &p->final, i, in, pre, err))
                    return -1;
            }
    for (int j = 0, g; j < n && (g = lv[j]) >= 1; j++) {
        if (c->mask)
            gg_sbuf_printf(b, "    sub.s32 %%y, %%yb, %d;\n"
                           "    setp.lt.u32 %%pm, %%y, %%h;\n", lag(c, g));
        if (g == c->t && c->store)
            emit_store_row(c);
        for (int w = 0; w < nw; w++) {
            final_inputs(c, g, w, phase, in);
            tprefix(pre, sizeof pre, c, 'f', g, w);
            level_value(c, out, sizeof out, g, w);
            emit_output(b, out, &p->final, 0, in, pre);
            sname(cm, sizeof cm, c, "colmask", w);
            if (c->mask)
                gg_sbuf_printf(b, "    selp.b32 %%m, %s, 0, %%pm;\n"
                               "    and.b32 %s, %s, %%m;\n", cm, out, out);
            if (c->gen && emit_gen_post(c, g, phase, out, err))
                return -1;
            if (g == c->t && c->store && c->gen)
                emit_gen_store(c, w, out);
            else if (g == c->t && c->store)
                emit_store_word(c, w, out);
        }
    }
    /* pushing levels: lv[j0 ..] (all but level T) */
    int j0 = n > 0 && lv[0] == c->t ? 1 : 0, k;
    for (int j = j0; j < n && (k = lv[j]) >= 0; j++) {
        level_value(c, v, sizeof v, k, 0);
        level_value(c, ve, sizeof ve, k, nw - 1);
        emit_shuffles(c, k, v, ve);
    }
    for (int j = j0; j < n && (k = lv[j]) >= 0; j++)
        for (int w = 0; w < nw; w++) {
            level_value(c, v, sizeof v, k, w);
            if (nw == 1) {
                emit_shifts(c, k, v);
                continue;
            }
            if (w == 0)
                snprintf(vw, sizeof vw, "%%l%d", k);
            else
                level_value(c, vw, sizeof vw, k, w - 1);
            if (w == nw - 1)
                snprintf(ve, sizeof ve, "%%rr%d", k);
            else
                level_value(c, ve, sizeof ve, k, w + 1);
            emit_shifts_multi(c, k, w, v, vw, ve);
        }
    for (int i = 0; i < p->row.n_gates; i++)
        for (int j = j0; j < n && (k = lv[j]) >= 0; j++)
            for (int w = 0; w < nw; w++) {
                level_value(c, v, sizeof v, k, w);
                row_inputs(c, in, k, w, v);
                tprefix(pre, sizeof pre, c, 'q', k, w);
                if (emit_gate(b, &p->row, i, in, pre, err))
                    return -1;
            }
    for (int j = j0; j < n && (k = lv[j]) >= 0; j++)
        for (int w = 0; w < nw; w++) {
            level_value(c, v, sizeof v, k, w);
            emit_ring_store(c, k, w, phase, v);
        }
    return 0;
}

/* Row yl wraps to 0 at the torus' height. */
static void emit_next_yl(gg_sbuf *b)
{
    gg_sbuf_printf(b, "    add.s32 %%yl, %%yl, 1;\n"
                   "    setp.eq.and.s32 %%pw, %%yl, %%h, %%ptorus;\n"
                   "    @%%pw mov.u32 %%yl, 0;\n");
}

static int emit_tick(const pctx *c, int phase, gg_err *err)
{
    gg_sbuf *b = c->b;
    gg_sbuf_printf(b, "    // tick, phase %d\n", phase);
    if (c->gen) {
        if (emit_gen_take(c, phase, err))
            return -1;
    } else if (c->wpl == 1 && c->pf > 1) {
        /* a queue of pf rows in flight: %nq0 is this tick's */
        gg_sbuf_printf(b, "    mov.b32 %%cur, %%nq0;\n");
        for (int i = 1; i < c->pf; i++)
            gg_sbuf_printf(b, "    mov.b32 %%nq%d, %%nq%d;\n", i - 1, i);
    } else if (c->wpl == 1)
        gg_sbuf_printf(b, "    mov.b32 %%cur, %%next;\n");
    else
        for (int i = 0; i < c->wpl; i++)
            gg_sbuf_printf(b, "    mov.b32 %%cur%d, %%next%d;\n", i, i);
    if (!c->inner)
        emit_next_yl(b);
    emit_load_next(c);
    /* Levels T .. 0 in groups of ilv (level T stores, level 0 only
     * pushes the loaded row). */
    int lv[GG_GPU_TMAX + 1], n;
    if (c->chain > 1) {
        /* Chains: position 0 of every chain (their finals read rings
         * the last tick left), then position 1 (reading the rings that
         * position 0 just pushed), ... level 0 last. */
        for (int j = 0; j < c->chain; j++) {
            n = 0;
            for (int g = c->top; g >= 0; g--)
                if (chain_pos(c, g) == j)
                    lv[n++] = g;
            if (n && emit_levels(c, phase, lv, n, err))
                return -1;
        }
    } else
        for (int hi = c->top; hi >= 0; hi -= c->ilv) {
            int lo = hi - c->ilv + 1 > 0 ? hi - c->ilv + 1 : 0;
            n = 0;
            for (int g = hi; g >= lo; g--)
                lv[n++] = g;
            if (emit_levels(c, phase, lv, n, err))
                return -1;
        }
    gg_sbuf_printf(b, "    add.s32 %%yb, %%yb, 1;\n");
    return 0;
}

/* One copy of the task loop (inner or plane-edge). */
/* `ticks` ticks (whole turns of the register rings, which rotate every
 * three) and the loop around them: repeat while %tk < bound (a register)
 * after the turn. */
static int emit_turn_loop(const pctx *c, const char *label,
                          const char *bound, int ticks, gg_err *err)
{
    gg_sbuf_printf(c->b, "%s:\n", label);
    pctx k = *c;
    if (c->kstride && c->store == 2)
        gg_sbuf_printf(c->b, "    mad.wide.s32 %%ra0, %%yb, %%ns4, %%inq;\n"
                       "    mad.wide.s32 %%rs0, %%yb, %%ns4, %%outq;\n");
    for (int phase = 0; phase < ticks; phase++) {
        k.tk = c->kstride && c->store == 2 ? phase : -1;
        if (emit_tick(&k, phase % 3, err))
            return -1;
    }
    gg_sbuf_printf(c->b, "    add.s32 %%tk, %%tk, %d;\n"
                   "    setp.lt.s32 %%p5, %%tk, %s;\n"
                   "    @%%p5 bra %s;\n", ticks, bound, label);
    return 0;
}

/* Every level's register ring starts empty (dead cells). */
static void emit_zero_rings(const pctx *c)
{
    int nr = ring_reg(c, c->t, 0, 0, 0);
    for (int r = 0; r < nr; r++)
        gg_sbuf_printf(c->b, "    mov.b32 %%R%d, 0;\n", r);
    for (int r = 0; r < xring_reg(c, c->t, 0, 0); r++)
        gg_sbuf_printf(c->b, "    mov.b32 %%X%d, 0;\n", r);
}

static int emit_body(const pctx *c, gg_err *err)
{
    gg_sbuf *b = c->b;
    char label[16];
    emit_zero_rings(c);
    emit_load_next(c);
    /* rows ystart .. ystart + pf - 1 in flight before tick 0 */
    for (int i = 1; i < c->pf; i++) {
        for (int j = 1; j < c->pf; j++)
            gg_sbuf_printf(b, "    mov.b32 %%nq%d, %%nq%d;\n", j - 1, j);
        emit_gen_queue_shift(c, 1);
        emit_next_yl(b);
        emit_load_next(c);
    }
    gg_sbuf_printf(b, "    mov.u32 %%yb, %%ystart;\n    mov.u32 %%tk, 0;\n");
    snprintf(label, sizeof label, "LOOP_%c", c->sfx);
    return emit_turn_loop(c, label, "%nt", 3, err);
}

/* The interior copy: every row the strip's pipeline reads is inside the
 * grid and every lane's word inside the row (emit_setup routes only such
 * tasks here), so loads need no wrap or guard. The ticks split into the
 * pipeline fill (3T ticks, no row leaves; staged unless c->loopfill),
 * the steady turns of c->turn ticks (every tick stores, under the lane's
 * own predicates only) and up to turn - 1 last ticks; the fill is a
 * multiple of three, so the ring phases line up. Six-tick turns let
 * ptxas keep the rings in place across the loop's back edge, which
 * three-tick turns pay for with about 30 register moves per turn
 * (BENCHMARKS.md, session 4). */
static int emit_inner(pctx *c, gg_err *err)
{
    gg_sbuf *b = c->b;
    emit_zero_rings(c);
    for (int i = 0; i < c->pf; i++) {
        char q[16] = "%next";
        if (c->pf > 1)
            snprintf(q, sizeof q, "%%nq%d", i);
        gg_sbuf_printf(b, "    add.s32 %%y, %%ystart, %d;\n"
                       "    mad.wide.s32 %%ra, %%y, %%ns4, %%inp;\n"
                       "    ld.global.nc.u32 %s, [%%ra];\n", i, q);
        emit_gen_load_planes(c, q, false, false);
    }
    gg_sbuf_printf(b,
        "    mul.wide.s32 %%rd3, %%ns4, %d;\n"
        "    add.s64 %%inq, %%inp, %%rd3;\n"

        "    mul.wide.s32 %%rd3, %%ns4, %d;\n"
        "    add.s64 %%outq, %%outp, %%rd3;\n"
        "    mov.u32 %%yb, %%ystart;\n"
        "    mov.u32 %%tk, 0;\n"
        "    mov.u32 %%nfill, %d;\n"
        "    sub.s32 %%srows, %%yend, %%y0;\n"
        "    sub.s32 %%sturn, %%srows, %d;\n",
        c->pf, -lag(c, c->t), c->t + lag(c, c->t), c->turn - 1);
    c->store = 0;
    if (c->loopfill) {
        if (emit_turn_loop(c, "FILL_C", "%nfill", 3, err))
            return -1;
    } else {
        /* Level g first computes a row the strip needs at tick 3g (row
         * ystart + g, the top of its cone), reading rows level g-1
         * computed at ticks 3g-3 .. 3g-1; so the fill's ticks 3s .. 3s+2
         * run levels 0 .. s only, half the fill's work (level T none). */
        pctx st = *c;
        for (int s = 0; s < c->t; s++) {
            st.top = s;
            gg_sbuf_printf(b, "    // fill stage %d: levels 0 .. %d\n", s, s);
            for (int phase = 0; phase < 3; phase++)
                if (emit_tick(&st, phase, err))
                    return -1;
        }
    }
    c->store = 2;
    gg_sbuf_printf(b, "    mov.u32 %%tk, 0;\n"
                   "    setp.lt.s32 %%p5, %%srows, %d;\n"
                   "    @%%p5 bra LAST_C;\n", c->turn);
    if (emit_turn_loop(c, "STEADY_C", "%sturn", c->turn, err))
        return -1;
    gg_sbuf_printf(b, "LAST_C:\n");
    for (int phase = 0; phase < c->turn - 1; phase++) {
        gg_sbuf_printf(b, "    setp.ge.s32 %%p5, %%tk, %%srows;\n"
                       "    @%%p5 bra DONE;\n");
        if (emit_tick(c, phase % 3, err))
            return -1;
        gg_sbuf_printf(b, "    add.s32 %%tk, %%tk, 1;\n");
    }
    gg_sbuf_printf(b, "    bra DONE;\n");
    return 0;
}

static void emit_decls(gg_sbuf *b, const pctx *c)
{
    int nr = ring_reg(c, c->t, 0, 0, 0);
    int ng = c->p->final.n_gates > 0 ? c->p->final.n_gates : 1;
    int nq = c->p->row.n_gates > 0 ? c->p->row.n_gates : 1;
    gg_sbuf_printf(b,
        "    .reg .pred %%p<8>;\n"
        "    .reg .pred %%ptorus, %%kin, %%stfull, %%sthi, %%stlo, %%pw, "
        "%%pl, %%pm, %%ps, %%ps1, %%ps2, %%ps3;\n"
        "    .reg .b16 %%hw<2>;\n"
        "    .reg .b32 %%s<32>;\n"
        "    .reg .b32 %%h, %%ns4, %%yl, %%yb, %%y0, %%yend, %%ystart, "
        "%%colmask, %%tk, %%nt, %%cur, %%next, %%y, %%m, %%vh, %%k31;\n"
        "    .reg .b64 %%inp, %%outp, %%ra, %%rs, %%inq, %%outq, %%rd<4>, "
        "%%rw, %%ra0, %%rs0;\n"
        "    .reg .b32 %%k2, %%k16, %%nfill, %%srows, %%sturn;\n"
        "    .reg .b32 %%R<%d>;\n", nr);
    if (c->pf > 1)
        gg_sbuf_printf(b, "    .reg .b32 %%nq<%d>;\n", c->pf);
    if (c->gen)
        emit_gen_decls(b, c);
    if (c->wpl == 1) {
        for (int k = 0; k <= c->t; k++)
            gg_sbuf_printf(b, "    .reg .b32 %%vv%d, %%dbl%d, %%half%d, %%l%d, "
                           "%%rr%d, %%w%d, %%e%d, %%f%d_<%d>, %%q%d_<%d>;\n",
                           k, k, k, k, k, k, k, k, ng, k, nq);
        return;
    }
    gg_sbuf_printf(b, "    .reg .pred %%plr;\n    .reg .b32 %%u<8>;\n");
    for (int i = 0; i < c->wpl; i++)
        gg_sbuf_printf(b, "    .reg .pred %%kin%d, %%pl%d, %%stfull%d, "
                       "%%sthi%d, %%stlo%d;\n    .reg .b32 %%cur%d, "
                       "%%next%d, %%colmask%d, %%kw%d;\n",
                       i, i, i, i, i, i, i, i, i);
    for (int k = 0; k <= c->t; k++) {
        gg_sbuf_printf(b, "    .reg .b32 %%l%d, %%rr%d;\n", k, k);
        for (int i = 0; i < c->wpl; i++)
            gg_sbuf_printf(b, "    .reg .b32 %%vv%dx%d, %%w%dx%d, %%e%dx%d, "
                           "%%f%dx%d_<%d>, %%q%dx%d_<%d>;\n", k, i, k, i, k,
                           i, k, i, ng, k, i, nq);
    }
}

/* Per-word setup of a lane with wpl words (words kw0 .. kw0 + wpl - 1 of
 * a window of 32 * wpl words, windows 32 * wpl - 1 words apart): the
 * load guard, the store predicates and the plane's column mask. Then
 * the window's edge test (the plane-edge copy), as in emit_setup. */
static void emit_setup_words(gg_sbuf *b, int wpl)
{
    int last = 32 * wpl - 1;
    gg_sbuf_printf(b, "    mul.lo.s32 %%u1, %%s9, %d;\n", wpl); /* j0 */
    for (int i = 0; i < wpl; i++) {
        gg_sbuf_printf(b,
            "    add.s32 %%kw%d, %%s15, %d;\n"
            "    add.s32 %%u0, %%u1, %d;\n"              /* j */
            "    setp.lt.s32 %%kin%d, %%kw%d, %%s1;\n"
            "    setp.ge.s32 %%p1, %%kw%d, 1;\n"
            "    setp.lt.and.s32 %%p1, %%kw%d, %%s17, %%p1;\n"
            "    setp.ge.and.u32 %%p2, %%u0, 1, %%p1;\n"
            "    setp.le.and.u32 %%stfull%d, %%u0, %d, %%p2;\n"
            "    setp.eq.and.u32 %%sthi%d, %%u0, 0, %%p1;\n"
            "    setp.eq.and.u32 %%stlo%d, %%u0, %d, %%p1;\n"
            "    shl.b32 %%u2, %%kw%d, 5;\n"
            "    sub.s32 %%u3, %%u2, 32;\n"
            "    neg.s32 %%u3, %%u3;\n"
            "    max.s32 %%u3, %%u3, 0;\n"
            "    sub.s32 %%u4, %%u2, %%s2;\n"
            "    max.s32 %%u4, %%u4, 0;\n"
            "    mov.b32 %%u5, -1;\n"
            "    shl.b32 %%u6, %%u5, %%u3;\n"
            "    shr.b32 %%u7, %%u5, %%u4;\n"
            "    and.b32 %%colmask%d, %%u6, %%u7;\n",
            i, i, i, i, i, i, i, i, last - 1, i, i, last, i, i);
    }
}

/* Task, window, strip, store lanes, plane mask and first row: the same
 * arithmetic as gg_step_body in templates/cuda/kernel.cu.in. */
static void emit_setup(gg_sbuf *b, int t, int wpb, int wpl, int fill)
{
    gg_sbuf_printf(b,
        "    ld.param.u64 %%rd0, [p_in];\n"
        "    cvta.to.global.u64 %%rd0, %%rd0;\n"
        "    ld.param.u64 %%rd1, [p_out];\n"
        "    cvta.to.global.u64 %%rd1, %%rd1;\n"
        "    ld.param.u32 %%h, [p_h];\n"
        "    ld.param.u32 %%s0, [p_ns];\n"
        "    ld.param.u32 %%s1, [p_nwi];\n"
        "    ld.param.u32 %%s2, [p_width];\n"
        "    ld.param.u32 %%s3, [p_plane];\n"
        "    ld.param.u32 %%s4, [p_s];\n"
        "    ld.param.u32 %%s5, [p_nx];\n"
        "    ld.param.u32 %%s6, [p_ntasks];\n"
        "    mov.u32 %%s7, %%tid.x;\n"
        "    shr.u32 %%s8, %%s7, 5;\n"
        "    and.b32 %%s9, %%s7, 31;\n"        /* lane */
        "    mov.u32 %%s10, %%ctaid.x;\n"
        "    mad.lo.s32 %%s11, %%s10, %d, %%s8;\n" /* task */
        "    setp.ge.s32 %%p0, %%s11, %%s6;\n"
        "    @%%p0 bra DONE;\n"                  /* whole warps leave */
        "    div.u32 %%s12, %%s11, %%s5;\n"      /* sy */
        "    mul.lo.s32 %%s13, %%s12, %%s5;\n"
        "    sub.s32 %%s14, %%s11, %%s13;\n"     /* wx */
        , wpb);
    if (wpl == 1)
        gg_sbuf_printf(b, "    mad.lo.s32 %%s15, %%s14, 31, %%s9;\n"); /* kw */
    else /* kw of word 0 */
        gg_sbuf_printf(b, "    mul.lo.s32 %%s31, %%s9, %d;\n"
                       "    mad.lo.s32 %%s15, %%s14, %d, %%s31;\n", wpl,
                       32 * wpl - 1);
    gg_sbuf_printf(b,
        "    shl.b32 %%ns4, %%s0, 2;\n"
        "    mul.lo.s32 %%y0, %%s12, %%s4;\n"
        "    add.s32 %%s16, %%y0, %%s4;\n"
        "    min.s32 %%yend, %%s16, %%h;\n"
        "    sub.s32 %%ystart, %%y0, %d;\n"
        "    setp.eq.u32 %%ptorus, %%s3, 0;\n"
        "    setp.lt.s32 %%kin, %%s15, %%s1;\n"
        "    mul.wide.s32 %%rd2, %%s15, 4;\n"
        "    add.s64 %%inp, %%rd0, %%rd2;\n"
        "    add.s64 %%outp, %%rd1, %%rd2;\n"
        "    sub.s32 %%s17, %%s1, 1;\n"
        , t);
    if (wpl == 1)
        gg_sbuf_printf(b,
        "    setp.ge.s32 %%p1, %%s15, 1;\n"
        "    setp.lt.and.s32 %%p1, %%s15, %%s17, %%p1;\n" /* inner word */
        "    setp.ge.u32 %%p2, %%s9, 1;\n"
        "    setp.le.and.u32 %%p2, %%s9, 30, %%p2;\n"
        "    and.pred %%stfull, %%p1, %%p2;\n"
        "    setp.eq.and.u32 %%sthi, %%s9, 0, %%p1;\n"
        "    setp.eq.and.u32 %%stlo, %%s9, 31, %%p1;\n"
        /* colmask: cells kw*32-32 .. kw*32-1 inside [0, width); shift
         * amounts past 31 give 0 in PTX */
        "    shl.b32 %%s18, %%s15, 5;\n"
        "    sub.s32 %%s19, %%s18, 32;\n"
        "    neg.s32 %%s20, %%s19;\n"
        "    max.s32 %%s20, %%s20, 0;\n"
        "    sub.s32 %%s21, %%s18, %%s2;\n"
        "    max.s32 %%s21, %%s21, 0;\n"
        "    mov.b32 %%s24, -1;\n"
        "    shl.b32 %%s22, %%s24, %%s20;\n"
        "    shr.b32 %%s23, %%s24, %%s21;\n"
        "    and.b32 %%colmask, %%s22, %%s23;\n");
    else
        emit_setup_words(b, wpl);
    gg_sbuf_printf(b,
        "    rem.s32 %%s25, %%ystart, %%h;\n"
        "    add.s32 %%s25, %%s25, %%h;\n"
        "    rem.s32 %%s25, %%s25, %%h;\n"
        "    selp.b32 %%yl, %%s25, %%ystart, %%ptorus;\n"
        /* plane edge: strip or window touches the border */
        "    setp.lt.s32 %%p3, %%ystart, 0;\n"
        "    add.s32 %%s26, %%yend, %d;\n"
        "    setp.gt.or.s32 %%p3, %%s26, %%h, %%p3;\n"
        "    setp.eq.or.s32 %%p3, %%s14, 0, %%p3;\n"
        , t);
    gg_sbuf_printf(b, "    mad.lo.s32 %%s27, %%s14, %d, %d;\n", 32 * wpl - 1,
                   32 * wpl - 1);
    gg_sbuf_printf(b,
        "    sub.s32 %%s28, %%s1, 2;\n"
        "    setp.ge.or.s32 %%p3, %%s27, %%s28, %%p3;\n"
        "    setp.ne.u32 %%p4, %%s3, 0;\n"
        "    and.pred %%p3, %%p3, %%p4;\n"
        "    min.s32 %%s30, %%s6, 0;\n"          /* ntasks >= 1: 0 */
        "    add.u32 %%k31, %%s30, 0x80000000;\n"
        "    add.u32 %%k2, %%s30, 2;\n"
        "    add.u32 %%k16, %%s30, 0x10000;\n"
        "    sub.s32 %%s29, %%yend, %%y0;\n"
        "    add.s32 %%nt, %%s29, %d;\n"
        "    @%%p3 bra MASKED;\n",
        fill);
}

/* What the Generations planes do not support: several words per lane,
 * chains of levels and a constant row stride are two-state shapes (the
 * runtime keeps Generations kernels at one word, no chains and the
 * generic stride: runtime/gpu/cuda_backend.c). */
static int gen_shape_ok(const gg_gen_nets *gen, const gg_ptx_opts *o,
                        gg_err *err)
{
    if (!gen)
        return 0;
    if (o->wpl > 1 || o->chain > 1 || o->kstride)
        return gg_fail(err, "a Generations PTX kernel needs one word per "
                       "lane, no chains of levels and no constant row "
                       "stride (asked: %d words, chains of %d, stride %d); "
                       "drop those from the launch shape (GOLGEN_GPU_TUNE)",
                       o->wpl, o->chain, o->kstride);
    return 0;
}

static int emit_entry(gg_sbuf *b, const gg_kplan *p,
                      const gg_gen_nets *gen, int t, const gg_ptx_opts *o,
                      gg_err *err)
{
    if (gen_shape_ok(gen, o, err))
        return -1;
    int wpb = o->wpb > 0 ? o->wpb : 4;
    int ilv = o->ilv > 0 ? o->ilv : t + 1; /* default: all levels */
    int wpl = o->wpl > 0 ? o->wpl : 1;
    if (wpl != 1 && wpl != 2 && wpl != 4)
        return gg_fail(err, "words per lane must be 1, 2 or 4, not %d", wpl);
    if (wpl > 1 && !o->funnel)
        return gg_fail(err, "several words per lane need funnel shifts");
    int chain = o->chain > 1 ? o->chain : 1;
    if (chain > 1 && wpl > 1)
        return gg_fail(err, "chains of levels need one word per lane");
    int pf = o->prefetch > 1 ? o->prefetch : 1;
    if (pf > 1 && wpl > 1)
        return gg_fail(err, "rows loaded ahead need one word per lane");
    if (pf > 8)
        return gg_fail(err, "at most 8 rows loaded ahead, not %d", pf);
    if (o->turn != 0 && o->turn != 3 && o->turn != 6)
        return gg_fail(err, "ticks per loop turn must be 3 or 6, not %d",
                       o->turn);
    if (o->warm && (o->warm <= pf || o->warm > 8))
        return gg_fail(err, "rows warmed ahead must be more than the %d "
                       "loaded ahead and at most 8, not %d", pf, o->warm);
    if (o->kstride < 0 || o->kstride > GG_PTX_KSTRIDE_MAX)
        return gg_fail(err, "a constant row stride must be 0 .. %d words, "
                       "not %d", GG_PTX_KSTRIDE_MAX, o->kstride);
    if (o->fma < 0 || o->fma > 16)
        return gg_fail(err, "levels with multiply-add shifts (in sixteen) "
                       "must be 0 .. 16, not %d", o->fma);
    pctx c = {b, p, t, false, o->funnel, ilv, 'A', wpl, chain, pf,
              (o->fma * t + 8) / 16, false, 1, o->turn == 6 ? 6 : 3, t,
              o->loopfill != 0, o->warm, o->warml2 != 0, 4 * o->kstride,
              -1, gen};
    /* The interior copy needs whole turns of fill (chain 1) and one word
     * per lane. */
    bool inner = o->inner > 0 && chain == 1 && wpl == 1;
    gg_sbuf_printf(b, "\n.visible .entry gg_step_%d(.param .u64 p_in, "
                   ".param .u64 p_out, .param .u32 p_h,\n    .param .u32 p_ns, "
                   ".param .u32 p_nwi, .param .u32 p_width, .param .u32 "
                   "p_plane,\n    .param .u32 p_s, .param .u32 p_nx, .param "
                   ".u32 p_ntasks%s)\n.maxntid %d, 1, 1\n", t,
                   gen ? ", .param .u64 p_ps" : "", wpb * 32);
    if (o->maxnreg > 0)
        gg_sbuf_printf(b, ".maxnreg %d\n", o->maxnreg);
    gg_sbuf_printf(b, "{\n");
    emit_decls(b, &c);
    int ahead = o->warm > pf ? o->warm : pf;
    if (inner && lag(&c, t) + ahead > GG_GPU_GHOST_BOTTOM)
        return gg_fail(err, "the interior copy reads %d rows past a strip, "
                       "more than the %d ghost rows below the grid",
                       lag(&c, t) + ahead, GG_GPU_GHOST_BOTTOM);
    if (gen) /* bytes from one state plane to the next */
        gg_sbuf_printf(b, "    ld.param.u64 %%psb, [p_ps];\n"
                       "    shl.b64 %%psb, %%psb, 2;\n");
    /* ticks: the strip's rows plus T rows above it plus level T's lag */
    emit_setup(b, t, wpb, wpl, t + lag(&c, t));
    if (o->kstride) /* rows at constant offsets: only for that stride */
        gg_sbuf_printf(b, "    setp.ne.u32 %%p7, %%s0, %d;\n"
                       "    @%%p7 trap;\n", o->kstride);
    /* Every task that is not a plane edge runs the interior copy when
     * there is one: the ghost rows and the padded row stride of the
     * device layout keep its reads inside the buffers. */
    if (inner) {
        pctx in = c; /* its own store modes; c stays the edge copies' */
        in.inner = true;
        in.sfx = 'C';
        if (emit_inner(&in, err))
            return -1;
    } else if (emit_body(&c, err)) {
        return -1;
    }
    gg_sbuf_printf(b, "    bra DONE;\nMASKED:\n");
    c.mask = true;
    c.sfx = 'B';
    if (emit_body(&c, err))
        return -1;
    gg_sbuf_printf(b, "DONE:\n    ret;\n}\n");
    return 0;
}

/* The header's paragraph on a Generations kernel's planes. */
static void gen_header(gg_sbuf *b, const gg_gen_nets *g)
{
    gg_sbuf_printf(b, "\n *\n * Generations, %d states: the network above "
                   "runs on the alive plane; %d state\n * planes, p_ps words "
                   "apart (gg_step_N's last argument); per cell %d + %d\n"
                   " * gates%s.", g->states, g->planes,
                   g->a_is_p0 ? 0 : g->alive.n_gates, g->post.n_gates,
                   g->proven ? " (each output proven minimal)" : "");
}

int gg_emit_ptx_circuit(const gg_circuit *circ, const gg_gen_nets *gen,
                        const gg_ptx_opts *o, char **src, size_t *len,
                        gg_err *err)
{
    static const gg_ptx_opts defaults;
    o = o ? o : &defaults;
    int tmax = o->tmax ? o->tmax : GG_GPU_TMAX;
    if (tmax < 1 || tmax > GG_GPU_TMAX || (tmax & (tmax - 1)))
        return gg_fail(err, "generations per launch must be a power of two "
                       "from 1 to %d, not %d", GG_GPU_TMAX, tmax);
    gg_kplan p;
    gg_sbuf head = {0}, ent = {0}, out = {0};
    char *hs = NULL, *es = NULL, tm[16];
    int bad = gg_kplan_build(circ, &p, err);
    for (int t = 1; !bad && t <= tmax; t *= 2)
        bad = emit_entry(&ent, &p, gen, t, o, err);
    if (!bad) {
        gg_emit_gpu_header(&head, circ, &p, "PTX",
                           "templates/ptx/kernel.ptx.in");
        if (gen)
            gen_header(&head, gen);
        bad = gg_sbuf_take(&head, &hs, NULL, err) ||
              gg_sbuf_take(&ent, &es, NULL, err);
    }
    /* The header is a C comment; PTX takes // lines. */
    for (char *q = hs; !bad && (q = strstr(q, "\n *")); q++)
        q[1] = '/', q[2] = '/';
    snprintf(tm, sizeof tm, "%d", tmax);
    if (!bad) {
        const char *keys[] = {"HEADER", "TMAX", "ENTRIES"};
        const char *vals[] = {hs, tm, es};
        bad = gg_emit_fill(&out, gg_template_ptx_kernel,
                           gg_template_ptx_kernel_len, keys, vals, 3, "PTX",
                           err) ||
              gg_sbuf_take(&out, src, len, err);
    }
    free(hs);
    free(es);
    gg_sbuf_free(&head);
    gg_sbuf_free(&ent);
    gg_sbuf_free(&out);
    return bad ? -1 : 0;
}

gg_ptx_opts gg_ptx_tuned(int tmax, bool funnel, int wpb, int wpl)
{
    gg_ptx_opts o = {.tmax = tmax, .funnel = funnel, .wpb = wpb, .wpl = wpl};
    if (wpl <= 1) {
        /* Rows loaded three ticks ahead (the T16 kernel waited on its
         * one-tick-ahead load: long_scoreboard 0.99 per issued
         * instruction); the two more registers must not cost the 12
         * warps per SM that 168 allow (169 without the cap). */
        o.prefetch = 3;
        o.maxnreg = 168;
        o.inner = 1;
    }
    return o;
}

