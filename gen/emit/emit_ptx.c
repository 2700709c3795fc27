#include "emit_ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_ptx_internal.h"

static void emit_decls(gg_sbuf *b, const pctx *c)
{
    int nr = ptx_ring_reg(c, c->t, 0, 0, 0);
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
        ptx_emit_gen_decls(b, c);
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
void ptx_emit_setup(gg_sbuf *b, int t, int wpb, int wpl, int fill)
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
 * generic stride: runtime/gpu/cuda_module.c). */
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
    if (inner && ptx_lag(&c, t) + ahead > GG_GPU_GHOST_BOTTOM)
        return gg_fail(err, "the interior copy reads %d rows past a strip, "
                       "more than the %d ghost rows below the grid",
                       ptx_lag(&c, t) + ahead, GG_GPU_GHOST_BOTTOM);
    if (gen) /* bytes from one state plane to the next */
        gg_sbuf_printf(b, "    ld.param.u64 %%psb, [p_ps];\n"
                       "    shl.b64 %%psb, %%psb, 2;\n");
    /* ticks: the strip's rows plus T rows above it plus level T's lag */
    ptx_emit_setup(b, t, wpb, wpl, t + ptx_lag(&c, t));
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
        if (ptx_emit_inner(&in, err))
            return -1;
    } else if (ptx_emit_body(&c, err)) {
        return -1;
    }
    gg_sbuf_printf(b, "    bra DONE;\nMASKED:\n");
    c.mask = true;
    c.sfx = 'B';
    if (ptx_emit_body(&c, err))
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
