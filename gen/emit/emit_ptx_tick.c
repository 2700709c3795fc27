/* The PTX emitter's ticks: a tick's row load and levels, the loops of
 * ticks, the body of a gg_step_N entry and its interior copy
 * (gen/emit/emit_ptx_internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_ptx_internal.h"

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
            ptx_emit_gen_load_planes(c, nx, false, c->warm != 0);
            return;
        }
        gg_sbuf_printf(b, "    setp.lt.and.u32 %%pl, %%yl, %%h, %%kin;\n"
                       "    mul.wide.u32 %%ra, %%yl, %%ns4;\n"
                       "    add.s64 %%ra, %%ra, %%inp;\n"
                       "    mov.u32 %s, 0;\n"
                       "    @%%pl ld.global.nc.u32 %s, [%%ra];\n", nx, nx);
        ptx_emit_gen_load_planes(c, nx, true, false);
        return;
    }
    char a0[24];
    gg_sbuf_printf(b, "    setp.lt.u32 %%plr, %%yl, %%h;\n"
                   "    mul.wide.u32 %%ra, %%yl, %%ns4;\n"
                   "    add.s64 %%ra, %%ra, %%inp;\n");
    for (int i = 0; i < c->wpl; i++) {
        ptx_addr(a0, sizeof a0, 4 * i);
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
        ptx_sname(buf, size, c, "cur", i);
    else
        ptx_wname(buf, size, c, "vv", k, i);
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
                ptx_final_inputs(c, g, w, phase, in);
                ptx_tprefix(pre, sizeof pre, c, 'f', g, w);
                if (ptx_emit_gate(b, &p->final, i, in, pre, err))
                    return -1;
            }
    for (int j = 0, g; j < n && (g = lv[j]) >= 1; j++) {
        if (c->mask)
            gg_sbuf_printf(b, "    sub.s32 %%y, %%yb, %d;\n"
                           "    setp.lt.u32 %%pm, %%y, %%h;\n", ptx_lag(c, g));
        if (g == c->t && c->store)
            ptx_emit_store_row(c);
        for (int w = 0; w < nw; w++) {
            ptx_final_inputs(c, g, w, phase, in);
            ptx_tprefix(pre, sizeof pre, c, 'f', g, w);
            level_value(c, out, sizeof out, g, w);
            ptx_emit_output(b, out, &p->final, 0, in, pre);
            ptx_sname(cm, sizeof cm, c, "colmask", w);
            if (c->mask)
                gg_sbuf_printf(b, "    selp.b32 %%m, %s, 0, %%pm;\n"
                               "    and.b32 %s, %s, %%m;\n", cm, out, out);
            if (c->gen && ptx_emit_gen_post(c, g, phase, out, err))
                return -1;
            if (g == c->t && c->store && c->gen)
                ptx_emit_gen_store(c, w, out);
            else if (g == c->t && c->store)
                ptx_emit_store_word(c, w, out);
        }
    }
    /* pushing levels: lv[j0 ..] (all but level T) */
    int j0 = n > 0 && lv[0] == c->t ? 1 : 0, k;
    for (int j = j0; j < n && (k = lv[j]) >= 0; j++) {
        level_value(c, v, sizeof v, k, 0);
        level_value(c, ve, sizeof ve, k, nw - 1);
        ptx_emit_shuffles(c, k, v, ve);
    }
    for (int j = j0; j < n && (k = lv[j]) >= 0; j++)
        for (int w = 0; w < nw; w++) {
            level_value(c, v, sizeof v, k, w);
            if (nw == 1) {
                ptx_emit_shifts(c, k, v);
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
            ptx_emit_shifts_multi(c, k, w, v, vw, ve);
        }
    for (int i = 0; i < p->row.n_gates; i++)
        for (int j = j0; j < n && (k = lv[j]) >= 0; j++)
            for (int w = 0; w < nw; w++) {
                level_value(c, v, sizeof v, k, w);
                ptx_row_inputs(c, in, k, w, v);
                ptx_tprefix(pre, sizeof pre, c, 'q', k, w);
                if (ptx_emit_gate(b, &p->row, i, in, pre, err))
                    return -1;
            }
    for (int j = j0; j < n && (k = lv[j]) >= 0; j++)
        for (int w = 0; w < nw; w++) {
            level_value(c, v, sizeof v, k, w);
            ptx_emit_ring_store(c, k, w, phase, v);
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
        if (ptx_emit_gen_take(c, phase, err))
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
                if (ptx_chain_pos(c, g) == j)
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
    int nr = ptx_ring_reg(c, c->t, 0, 0, 0);
    for (int r = 0; r < nr; r++)
        gg_sbuf_printf(c->b, "    mov.b32 %%R%d, 0;\n", r);
    for (int r = 0; r < ptx_xring_reg(c, c->t, 0, 0); r++)
        gg_sbuf_printf(c->b, "    mov.b32 %%X%d, 0;\n", r);
}

int ptx_emit_body(const pctx *c, gg_err *err)
{
    gg_sbuf *b = c->b;
    char label[16];
    emit_zero_rings(c);
    emit_load_next(c);
    /* rows ystart .. ystart + pf - 1 in flight before tick 0 */
    for (int i = 1; i < c->pf; i++) {
        for (int j = 1; j < c->pf; j++)
            gg_sbuf_printf(b, "    mov.b32 %%nq%d, %%nq%d;\n", j - 1, j);
        ptx_emit_gen_queue_shift(c, 1);
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
int ptx_emit_inner(pctx *c, gg_err *err)
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
        ptx_emit_gen_load_planes(c, q, false, false);
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
        c->pf, -ptx_lag(c, c->t), c->t + ptx_lag(c, c->t), c->turn - 1);
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
