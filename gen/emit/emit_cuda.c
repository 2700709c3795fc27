#include "emit_cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c.h"

/* The template's gate macros (templates/cuda/kernel.cu.in). */
static const gg_emit_ops cuda_ops = {
    .op = {[GG_OP_AND] = "G_AND", [GG_OP_OR] = "G_OR", [GG_OP_XOR] = "G_XOR",
           [GG_OP_ANDNOT] = "G_ANDNOT", [GG_OP_NOT] = "G_NOT",
           [GG_OP_LUT3] = "G_LUT3"},
    .zero = "G_ZERO",
    .ones = "G_ONES",
    .type = "u32",
};

static const char *const row_in[GG_ROW_INPUTS] = {"w", "c", "e"};

static int emit_row_net(gg_sbuf *b, const gg_kplan *p, const gg_emit_ops *ops,
                        const char *qual, gg_err *err)
{
    gg_sbuf_printf(b, "/* Row features of one word row from its west, centre "
                   "and east words. */\n%s void gg_row_net(%s w, %s c, %s e, "
                   "%s *f)\n{\n    (void)w;\n    (void)c;\n    (void)e;\n"
                   "    (void)f;\n", qual, ops->type, ops->type, ops->type,
                   ops->type);
    if (gg_emit_gates(b, &p->row, row_in, "r", "    ", ops, err))
        return -1;
    for (int k = 0; k < p->row.n_outputs; k++) {
        char expr[96];
        gg_emit_output(expr, sizeof expr, &p->row, k, row_in, "r", ops);
        gg_sbuf_printf(b, "    f[%d] = %s;\n", k, expr);
    }
    gg_sbuf_printf(b, "}\n\n");
    return 0;
}

static int emit_final(gg_sbuf *b, const gg_kplan *p, const gg_emit_ops *ops,
                      const char *qual, gg_err *err)
{
    const char *t = ops->type;
    char names[GG_NET_MAX_OUTPUTS][16];
    const char *in[GG_NET_MAX_OUTPUTS];
    gg_sbuf_printf(b, "/* The rule's final stage from the features and cells "
                   "of rows y-1 (a), y (b)\n * and y+1 (c). */\n%s %s "
                   "gg_final(const %s *fa, const %s *fb, const %s *fc, %s ca, "
                   "%s cb, %s cc)\n{\n    (void)fa;\n    (void)fb;\n"
                   "    (void)fc;\n    (void)ca;\n    (void)cb;\n"
                   "    (void)cc;\n", qual, t, t, t, t, t, t, t);
    for (int i = 0; i < p->final.n_inputs; i++) {
        char r = (char)('b' + p->dy[i]);
        snprintf(names[i], sizeof names[i], "x%d", i);
        in[i] = names[i];
        if (p->feat[i] == GG_FEAT_CELL)
            gg_sbuf_printf(b, "    %s x%d = c%c; /* %s */\n", t, i, r,
                           p->name[i]);
        else
            gg_sbuf_printf(b, "    %s x%d = f%c[%d]; /* %s */\n", t, i, r,
                           p->feat[i], p->name[i]);
    }
    if (gg_emit_gates(b, &p->final, in, "g", "    ", ops, err))
        return -1;
    char expr[96];
    gg_emit_output(expr, sizeof expr, &p->final, 0, in, "g", ops);
    gg_sbuf_printf(b, "    return %s;\n}\n", expr);
    return 0;
}

int gg_emit_c_like_nets(gg_sbuf *b, const gg_kplan *p, const gg_emit_ops *ops,
                        const char *qual, gg_err *err)
{
    if (p->final.n_inputs > GG_NET_MAX_OUTPUTS || p->final.n_outputs != 1)
        return gg_fail(err, "the final stage must have at most %d inputs and "
                       "one output", GG_NET_MAX_OUTPUTS);
    int nf = p->row.n_outputs;
    gg_sbuf_printf(b, "#define GG_NF %d\n#define GG_NF_ARR %d\n\n", nf,
                   nf > 0 ? nf : 1);
    if (emit_row_net(b, p, ops, qual, err))
        return -1;
    return emit_final(b, p, ops, qual, err);
}

/* Argument k of gate i of net n in the level functions: an input's
 * expression or the array of an earlier gate, at level index ix. */
static void level_arg(char *buf, size_t size, const gg_net *n, int s,
                      const char *const *in, const char *prefix,
                      const char *ix)
{
    if (s < n->n_inputs)
        snprintf(buf, size, "%s", in[s]);
    else
        snprintf(buf, size, "%s%d[%s]", prefix, s - n->n_inputs, ix);
}

/* One unrolled loop per gate over the levels `loop`: gate i of every
 * level, then gate i + 1, ... (each gate an array over the levels, which
 * NVVM turns back into scalars). */
static int emit_level_gates(gg_sbuf *b, const gg_net *n,
                            const char *const *in, const char *prefix,
                            const char *loop, const char *ix,
                            const gg_emit_ops *ops, gg_err *err)
{
    char a[3][64];
    for (int i = 0; i < n->n_gates; i++) {
        const gg_gate *g = &n->gate[i];
        const char *op = gg_emit_op(ops, g, i, err);
        if (!op)
            return -1;
        for (int k = 0; k < gg_op_arity((gg_op)g->op); k++)
            level_arg(a[k], sizeof a[k], n, g->in[k], in, prefix, ix);
        gg_sbuf_printf(b, "#pragma unroll\n    %s\n        %s%d[%s] = %s(%s",
                       loop, prefix, i, ix, op, a[0]);
        for (int k = 1; k < gg_op_arity((gg_op)g->op); k++)
            gg_sbuf_printf(b, ", %s", a[k]);
        if (g->op == GG_OP_LUT3)
            gg_sbuf_printf(b, ", 0x%02x", g->lut);
        gg_sbuf_printf(b, ");\n");
    }
    return 0;
}

/* Output o of net n at level index ix (a gate's array element, an input,
 * a complement or a constant). */
static void level_output(char *buf, size_t size, const gg_net *n, int o,
                         const char *const *in, const char *prefix,
                         const char *ix, const gg_emit_ops *ops)
{
    char base[64];
    if (n->out[o] == GG_SIG_CONST0) {
        snprintf(buf, size, "%s", n->out_neg[o] ? ops->ones : ops->zero);
        return;
    }
    level_arg(base, sizeof base, n, n->out[o], in, prefix, ix);
    if (n->out_neg[o])
        snprintf(buf, size, "%s(%s)", ops->op[GG_OP_NOT], base);
    else
        snprintf(buf, size, "%s", base);
}

/* gg_final_levels<T, TOP, A, B, C>(r, v): v[g] = the final stage of level
 * g (1..TOP) from ring r[g-1] (slots A, B, C: rows y-1, y, y+1);
 * gg_row_levels<T, KTOP, A>(w, c, e, r): ring slot A of every level k
 * (0..KTOP) gets row c[k] and its features. TOP < T and KTOP < T-1 only
 * in the staged pipeline fill. Both interleave the levels gate by gate
 * (templates/cuda/kernel.cu.in). */
static int emit_levels(gg_sbuf *b, const gg_kplan *p, const gg_emit_ops *ops,
                       gg_err *err)
{
    const gg_net *fn = &p->final, *rn = &p->row;
    char names[GG_NET_MAX_OUTPUTS][48], expr[96];
    const char *in[GG_NET_MAX_OUTPUTS];
    gg_sbuf_printf(b, "/* The final stage of levels TOP .. 1, interleaved "
                   "gate by gate. */\ntemplate <int T, int TOP, int A, int B, "
                   "int C>\n"
                   "__device__ __forceinline__ void gg_final_levels(const "
                   "gg_ring (&r)[T], u32 (&v)[T + 1])\n{\n");
    if (fn->n_gates > 0) {
        gg_sbuf_printf(b, "    u32 ");
        for (int i = 0; i < fn->n_gates; i++)
            gg_sbuf_printf(b, "%sg%d[T + 1]", i ? ", " : "", i);
        gg_sbuf_printf(b, ";\n");
    }
    for (int i = 0; i < fn->n_inputs; i++) {
        char slot = (char)('A' + p->dy[i] + 1);
        if (p->feat[i] == GG_FEAT_CELL)
            snprintf(names[i], sizeof names[i], "r[g - 1].c[%c]", slot);
        else
            snprintf(names[i], sizeof names[i], "r[g - 1].f[%c][%d]", slot,
                     p->feat[i]);
        in[i] = names[i];
    }
    if (emit_level_gates(b, fn, in, "g", "for (int g = TOP; g >= 1; g--)",
                         "g", ops, err))
        return -1;
    level_output(expr, sizeof expr, fn, 0, in, "g", "g", ops);
    gg_sbuf_printf(b, "#pragma unroll\n    for (int g = TOP; g >= 1; g--)\n"
                   "        v[g] = %s;\n}\n\n", expr);

    static const char *const rin[GG_ROW_INPUTS] = {"w[k]", "c[k]", "e[k]"};
    gg_sbuf_printf(b, "/* Row features of levels KTOP .. 0 into ring slot "
                   "A, interleaved gate by gate. */\ntemplate <int T, int "
                   "KTOP, int A>\n"
                   "__device__ __forceinline__ void gg_row_levels(const u32 "
                   "(&w)[T], const u32 (&c)[T + 1],\n    const u32 (&e)[T], "
                   "gg_ring (&r)[T])\n{\n");
    if (rn->n_gates > 0) {
        gg_sbuf_printf(b, "    u32 ");
        for (int i = 0; i < rn->n_gates; i++)
            gg_sbuf_printf(b, "%sq%d[T]", i ? ", " : "", i);
        gg_sbuf_printf(b, ";\n");
    }
    if (emit_level_gates(b, rn, rin, "q", "for (int k = KTOP; k >= 0; k--)",
                         "k", ops, err))
        return -1;
    gg_sbuf_printf(b, "#pragma unroll\n    for (int k = KTOP; k >= 0; k--) "
                   "{\n        r[k].c[A] = c[k];\n");
    for (int o = 0; o < rn->n_outputs; o++) {
        level_output(expr, sizeof expr, rn, o, rin, "q", "k", ops);
        gg_sbuf_printf(b, "        r[k].f[A][%d] = %s;\n", o, expr);
    }
    gg_sbuf_printf(b, "    }\n    (void)w;\n    (void)e;\n}\n");
    return 0;
}

void gg_emit_gpu_header(gg_sbuf *b, const gg_circuit *c, const gg_kplan *p,
                        const char *target, const char *tmpl)
{
    char rule[128];
    gg_rule_format_transition(&c->rule, rule, sizeof rule);
    gg_sbuf_printf(b, "golgen %s kernel for %s (%s neighbourhood, %s front).\n"
                   " * Generated by golgen from %s; do not edit.\n"
                   " * Torus or plane and the grid size are runtime "
                   "arguments.\n *\n * %s network: %d row gate%s per word "
                   "row (computed once, shared by the\n * output rows above, "
                   "at and below it) + %d final-stage gates + 2 neighbour\n"
                   " * shifts per 32-cell word and generation.\n * Final stage "
                   "from %s, %s.",
                   target, rule, gg_nbhd_name(c->rule.nbhd),
                   gg_front_name(c->front.kind), tmpl, gg_lib_name(c->lib),
                   p->row.n_gates, p->row.n_gates == 1 ? "" : "s",
                   c->final.n_gates,
                   c->source[0] ? c->source : "an unknown source",
                   c->proven ? "proven minimal by the SAT solver"
                             : "not proven minimal");
}

int gg_emit_cuda_circuit(const gg_circuit *c, const gg_gen_nets *gen,
                         char **src, size_t *len, gg_err *err)
{
    gg_kplan p;
    gg_sbuf head = {0}, nets = {0}, lev = {0}, out = {0};
    char *hs = NULL, *ns = NULL, *ls = NULL;
    int bad = gg_kplan_build(c, &p, err) ||
              gg_emit_c_like_nets(&nets, &p, &cuda_ops,
                                  "__device__ __forceinline__", err) ||
              gg_emit_gen_stage(&nets, gen, &cuda_ops,
                                "__device__ __forceinline__", err) ||
              emit_levels(&lev, &p, &cuda_ops, err);
    if (!bad) {
        gg_emit_gpu_header(&head, c, &p, "CUDA C",
                           "templates/cuda/kernel.cu.in");
        bad = gg_sbuf_take(&head, &hs, NULL, err) ||
              gg_sbuf_take(&nets, &ns, NULL, err) ||
              gg_sbuf_take(&lev, &ls, NULL, err);
    }
    if (!bad) {
        const char *keys[] = {"HEADER", "NETS", "LEVELS"};
        const char *vals[] = {hs, ns, ls};
        bad = gg_emit_fill(&out, gg_template_cuda_kernel,
                           gg_template_cuda_kernel_len, keys, vals, 3, "CUDA",
                           err) ||
              gg_sbuf_take(&out, src, len, err);
    }
    free(hs);
    free(ns);
    free(ls);
    gg_sbuf_free(&head);
    gg_sbuf_free(&nets);
    gg_sbuf_free(&lev);
    gg_sbuf_free(&out);
    return bad ? -1 : 0;
}

