#include "emit_net.h"

#include "gen_nets.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool sbuf_reserve(gg_sbuf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

void gg_sbuf_append(gg_sbuf *b, const char *s, size_t n)
{
    if (!sbuf_reserve(b, n))
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

void gg_sbuf_printf(gg_sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !sbuf_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

int gg_sbuf_take(gg_sbuf *b, char **out, size_t *len, gg_err *err)
{
    if (b->failed || !sbuf_reserve(b, 0)) {
        gg_sbuf_free(b);
        return gg_fail(err, "out of memory while emitting a kernel");
    }
    b->p[b->len] = 0;
    *out = b->p;
    if (len)
        *len = b->len;
    memset(b, 0, sizeof *b);
    return 0;
}

void gg_sbuf_free(gg_sbuf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* ---- kernel plan ---- */

typedef struct row_map {
    const gg_rule *rule;
    const gg_net *front;
    gg_kplan *plan;
    int sig[GG_NET_MAX_GATES + 32]; /* front signal -> row-net signal */
    int dy[GG_NET_MAX_GATES + 32];  /* row of that signal, 9 = not mapped */
} row_map;

/* A gate equal to (op, lut, in) already in the row net, else a new one:
 * hash-consing is what merges Moore's three identical row adders. */
static int row_gate(gg_net *row, const gg_gate *g, const int *in, gg_err *err)
{
    int a = gg_op_arity((gg_op)g->op);
    for (int i = 0; i < row->n_gates; i++) {
        const gg_gate *h = &row->gate[i];
        if (h->op != g->op || (g->op == GG_OP_LUT3 && h->lut != g->lut))
            continue;
        bool same = true;
        for (int k = 0; k < a; k++)
            same = same && h->in[k] == in[k];
        if (same)
            return row->n_inputs + i;
    }
    return gg_net_add(row, (gg_op)g->op, g->lut, in[0], a > 1 ? in[1] : 0,
                      a > 2 ? in[2] : 0, err);
}

/* Map front signal s into the row net; sets m->dy[s]. */
static int map_signal(row_map *m, int s, gg_err *err)
{
    if (m->dy[s] != 9)
        return m->sig[s];
    const gg_net *f = m->front;
    if (s < f->n_inputs) {
        int count;
        const gg_offset *off = gg_nbhd_offsets(m->rule->nbhd, &count);
        int dx = s < count ? off[s].dx : 0, dy = s < count ? off[s].dy : 0;
        m->dy[s] = dy;
        return m->sig[s] = GG_ROW_C + dx;
    }
    const gg_gate *g = &f->gate[s - f->n_inputs];
    int in[3] = {0, 0, 0}, dy = 9;
    for (int k = 0; k < gg_op_arity((gg_op)g->op); k++) {
        if ((in[k] = map_signal(m, g->in[k], err)) < 0)
            return -1;
        if (dy != 9 && m->dy[g->in[k]] != dy)
            return gg_fail(err, "front gate %d reads more than one "
                           "neighbourhood row; a row-streaming kernel cannot "
                           "share it", s - f->n_inputs);
        dy = m->dy[g->in[k]];
    }
    int r = row_gate(&m->plan->row, g, in, err);
    if (r < 0)
        return -1;
    m->dy[s] = dy;
    return m->sig[s] = r;
}

/* The stored feature for row-net signal r (complemented if neg). */
static int feature_of(gg_net *row, int r, int neg, gg_err *err)
{
    for (int k = 0; k < row->n_outputs; k++)
        if (row->out[k] == r && row->out_neg[k] == neg)
            return k;
    if (row->n_outputs >= GG_NET_MAX_OUTPUTS)
        return gg_fail(err, "more than %d row features", GG_NET_MAX_OUTPUTS);
    row->out[row->n_outputs] = (uint16_t)r;
    row->out_neg[row->n_outputs] = (uint8_t)neg;
    return row->n_outputs++;
}

int gg_kplan_build(const gg_circuit *c, gg_kplan *p, gg_err *err)
{
    row_map m;
    memset(p, 0, sizeof *p);
    memset(&m, 0, sizeof m);
    m.rule = &c->rule;
    m.front = &c->front.net;
    m.plan = p;
    for (size_t i = 0; i < sizeof m.dy / sizeof *m.dy; i++)
        m.dy[i] = 9;
    p->row.n_inputs = GG_ROW_INPUTS;
    p->final = c->final;
    for (int o = 0; o < m.front->n_outputs; o++) {
        int r = map_signal(&m, m.front->out[o], err);
        if (r < 0)
            return -1;
        int neg = m.front->out_neg[o];
        p->dy[o] = m.dy[m.front->out[o]];
        p->feat[o] = r == GG_ROW_C && !neg ? GG_FEAT_CELL
                                           : feature_of(&p->row, r, neg, err);
        if (p->feat[o] < GG_FEAT_CELL)
            return -1;
        snprintf(p->name[o], sizeof p->name[o], "%s", c->front.names[o]);
    }
    return 0;
}

/* ---- network walker ---- */

const char *gg_emit_op(const gg_emit_ops *ops, const gg_gate *g, int i,
                       gg_err *err)
{
    const char *op = g->op < GG_OP_COUNT ? ops->op[g->op] : NULL;
    if (!op)
        gg_fail(err, "gate %d is a %s, which this target's gate library "
                "lacks", i, gg_op_name((gg_op)g->op));
    return op;
}

int gg_emit_gates(gg_sbuf *b, const gg_net *n, const char *const *in,
                  const char *prefix, const char *indent,
                  const gg_emit_ops *ops, gg_err *err)
{
    char name[3][64];
    for (int i = 0; i < n->n_gates; i++) {
        const gg_gate *g = &n->gate[i];
        const char *op = gg_emit_op(ops, g, i, err);
        if (!op)
            return -1;
        for (int k = 0; k < gg_op_arity((gg_op)g->op); k++) {
            int s = g->in[k];
            if (s < n->n_inputs)
                snprintf(name[k], sizeof name[k], "%s", in[s]);
            else
                snprintf(name[k], sizeof name[k], "%s%d", prefix,
                         s - n->n_inputs);
        }
        gg_sbuf_printf(b, "%s%s %s%d = %s(%s", indent, ops->type, prefix, i,
                       op, name[0]);
        for (int k = 1; k < gg_op_arity((gg_op)g->op); k++)
            gg_sbuf_printf(b, ", %s", name[k]);
        if (g->op == GG_OP_LUT3)
            gg_sbuf_printf(b, ", 0x%02x", g->lut);
        gg_sbuf_printf(b, ");\n");
    }
    return 0;
}

void gg_emit_output(char *buf, size_t size, const gg_net *n, int o,
                    const char *const *in, const char *prefix,
                    const gg_emit_ops *ops)
{
    int s = n->out[o];
    bool neg = n->out_neg[o];
    char base[64];
    if (s == GG_SIG_CONST0) {
        snprintf(buf, size, "%s", neg ? ops->ones : ops->zero);
        return;
    }
    if (s < n->n_inputs)
        snprintf(base, sizeof base, "%s", in[s]);
    else
        snprintf(base, sizeof base, "%s%d", prefix, s - n->n_inputs);
    if (neg)
        snprintf(buf, size, "%s(%s)", ops->op[GG_OP_NOT], base);
    else
        snprintf(buf, size, "%s", base);
}

/* Templates are plain text with @@KEY@@ placeholders, so a template file
 * reads as the kernel it becomes. */
int gg_emit_fill(gg_sbuf *out, const char *t, size_t tlen,
                 const char *const *keys, const char *const *vals, int n,
                 const char *what, gg_err *err)
{
    const char *end = t + tlen;
    while (t < end) {
        const char *at = strstr(t, "@@"); /* t may be part of a text */
        if (!at || at >= end) {
            gg_sbuf_append(out, t, (size_t)(end - t));
            break;
        }
        gg_sbuf_append(out, t, (size_t)(at - t));
        const char *close = strstr(at + 2, "@@");
        if (!close || close + 2 > end)
            return gg_fail(err, "%s template: unterminated placeholder",
                           what);
        size_t klen = (size_t)(close - at - 2);
        int k = 0;
        while (k < n && (strlen(keys[k]) != klen ||
                         strncmp(keys[k], at + 2, klen)))
            k++;
        if (k == n)
            return gg_fail(err, "%s template: unknown placeholder %.*s", what,
                           (int)(close - at + 2), at);
        gg_sbuf_append(out, vals[k], strlen(vals[k]));
        t = close + 2;
    }
    return 0;
}

int gg_emit_gen_stage(gg_sbuf *b, const gg_gen_nets *g,
                      const gg_emit_ops *ops, const char *qual, gg_err *err)
{
    if (!g)
        return 0;
    const char *t = ops->type;
    char names[GG_TT_MAX_INPUTS][16], expr[96];
    const char *in[GG_TT_MAX_INPUTS];
    gg_sbuf_printf(b, "/* Generations, %d states: %d state planes; per cell "
                   "%d + %d gates%s. */\n#define GG_NP %d\n#define GG_NX %d\n"
                   "#define GG_XP0 %d\n\n", g->states, g->planes,
                   g->a_is_p0 ? 0 : g->alive.n_gates, g->post.n_gates,
                   g->proven ? " (each output proven minimal)" : "",
                   g->planes, gg_gen_nets_extra(g), g->a_is_p0 ? 1 : 0);
    for (int i = 0; i < g->planes; i++) {
        snprintf(names[i], sizeof names[i], "p[%d]", i);
        in[i] = names[i];
    }
    if (!g->a_is_p0) {
        gg_sbuf_printf(b, "%s %s gg_gen_alive(const %s *p)\n{\n", qual, t, t);
        if (gg_emit_gates(b, &g->alive, in, "a", "    ", ops, err))
            return -1;
        gg_emit_output(expr, sizeof expr, &g->alive, 0, in, "a", ops);
        gg_sbuf_printf(b, "    return %s;\n}\n\n", expr);
    }
    in[0] = "l";
    for (int i = 0; i < g->planes; i++) {
        snprintf(names[i + 1], sizeof names[i + 1], "p[%d]", i);
        in[i + 1] = names[i + 1];
    }
    gg_sbuf_printf(b, "%s %s gg_gen_post(%s l, const %s *p, %s *po)\n{\n",
                   qual, t, t, t, t);
    if (gg_emit_gates(b, &g->post, in, "s", "    ", ops, err))
        return -1;
    for (int o = 0; o < g->planes; o++) {
        gg_emit_output(expr, sizeof expr, &g->post, o, in, "s", ops);
        gg_sbuf_printf(b, "    po[%d] = %s;\n", o, expr);
    }
    gg_emit_output(expr, sizeof expr, &g->post, g->planes, in, "s", ops);
    gg_sbuf_printf(b, "    return %s;\n}\n", expr);
    return 0;
}
