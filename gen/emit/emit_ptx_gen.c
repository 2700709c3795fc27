/* The PTX emitter's Generations planes (gen/circuits/gen_nets.h): loads, the
 * per-cell stage, the rings of extra planes and their stores
 * (gen/emit/emit_ptx_internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_ptx_internal.h"

/* ---- Generations (gen/circuits/gen_nets.h) ----
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
int ptx_xring_reg(const pctx *c, int g, int s, int j)
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
void ptx_emit_gen_load_planes(const pctx *c, const char *row,
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
void ptx_emit_gen_queue_shift(const pctx *c, int first)
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
int ptx_emit_gen_take(const pctx *c, int phase, gg_err *err)
{
    const gg_gen_nets *g = c->gen;
    char head[8], q[40], in[GG_GEN_NETS_MAX_PLANES][16];
    int xp0 = gen_xp0(c);
    snprintf(head, sizeof head, "%s", c->pf > 1 ? "%nq0" : "%next");
    if (xp0)
        gg_sbuf_printf(c->b, "    mov.b32 %%cur, %s;\n", head);
    for (int j = 0; j < gen_extra(c); j++) {
        plane_name(q, sizeof q, head, j + xp0);
        snprintf(in[j], sizeof in[j], "%%X%d", ptx_xring_reg(c, 0, phase, j));
        gg_sbuf_printf(c->b, "    mov.b32 %s, %s;\n", in[j], q);
    }
    ptx_emit_gen_queue_shift(c, 0);
    if (xp0)
        return 0;
    for (int i = 0; i < g->alive.n_gates; i++)
        if (ptx_emit_gate(c->b, &g->alive, i, in, "a_", err))
            return -1;
    ptx_emit_output(c->b, "%cur", &g->alive, 0, in, "a_");
    return 0;
}

/* Level g's per-cell stage: `out` holds the two-state rule's output for
 * row y and becomes the new alive cells; the new extra planes go to
 * level g's ring slot `phase` (level T: %xs, for the store). The old
 * planes are row y of level g-1's ring: the centre of the three rows its
 * final stage read. */
int ptx_emit_gen_post(const pctx *c, int g, int phase, const char *out,
                      gg_err *err)
{
    const gg_net *n = &c->gen->post;
    char in[GG_GEN_NETS_MAX_PLANES + 1][16], pre[16], dst[24];
    int xp0 = gen_xp0(c), nf = c->p->row.n_outputs;
    int centre = (phase + 3 - ptx_skew(c, g)) % 3;
    snprintf(in[0], sizeof in[0], "%s", out);
    for (int p = 0; p < gen_planes(c); p++)
        if (xp0 && p == 0)
            snprintf(in[1], sizeof in[1], "%%R%d",
                     ptx_ring_reg(c, g - 1, centre, nf, 0));
        else
            snprintf(in[1 + p], sizeof in[1 + p], "%%X%d",
                     ptx_xring_reg(c, g - 1, centre, p - xp0));
    snprintf(pre, sizeof pre, "g%d_", g);
    for (int i = 0; i < n->n_gates; i++)
        if (ptx_emit_gate(c->b, n, i, in, pre, err))
            return -1;
    /* the planes first: the alive output overwrites `out`, an input */
    for (int j = 0; j < gen_extra(c); j++) {
        if (g < c->t)
            snprintf(dst, sizeof dst, "%%X%d", ptx_xring_reg(c, g, phase, j));
        else
            snprintf(dst, sizeof dst, "%%xs%d", j);
        ptx_emit_output(c->b, dst, n, j + xp0, in, pre);
    }
    ptx_emit_output(c->b, out, n, c->gen->planes, in, pre);
    return 0;
}

/* Every plane of level T's row, word i (alive cells in v, the others in
 * %xs): plane 0 at the two-state kernel's address, plane p p_ps words
 * further (%rq). */
void ptx_emit_gen_store(const pctx *c, int i, const char *v)
{
    int xp0 = gen_xp0(c);
    char val[16];
    for (int p = 0; p < gen_planes(c); p++) {
        if (xp0 && p == 0)
            snprintf(val, sizeof val, "%s", v);
        else
            snprintf(val, sizeof val, "%%xs%d", p - xp0);
        if (p == 0) {
            ptx_emit_store_word(c, i, val);
            continue;
        }
        gg_sbuf_printf(c->b, "    add.s64 %%rq, %s, %%psb;\n",
                       p > 1 ? "%rq" : c->store == 2 ? "%rs" : "%ra");
        ptx_emit_store_word_at(c, i, val, "%rq", "%rq");
    }
}

/* Registers of the Generations stage. */
void ptx_emit_gen_decls(gg_sbuf *b, const pctx *c)
{
    const gg_gen_nets *g = c->gen;
    int nx = gen_extra(c);
    char q[16];
    if (nx)
        gg_sbuf_printf(b, "    .reg .b32 %%X<%d>, %%xs<%d>;\n",
                       ptx_xring_reg(c, c->t, 0, 0), nx);
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
