#include "net_text.h"

#include <stdlib.h>
#include <string.h>

static void signal_name(const gg_net *n, const char (*names)[GG_NET_NAME_MAX],
                        int s, char *buf, size_t size)
{
    if (s >= n->n_inputs)
        snprintf(buf, size, "g%d", s - n->n_inputs);
    else if (names)
        snprintf(buf, size, "%s", names[s]);
    else
        snprintf(buf, size, "x%d", s);
}

void gg_net_write_text(FILE *f, const gg_net *n,
                       const char (*names)[GG_NET_NAME_MAX])
{
    char buf[16];
    fprintf(f, "inputs");
    for (int i = 0; i < n->n_inputs; i++) {
        signal_name(n, names, i, buf, sizeof buf);
        fprintf(f, " %s", buf);
    }
    fputc('\n', f);
    for (int i = 0; i < n->n_gates; i++) {
        const gg_gate *g = &n->gate[i];
        fprintf(f, "g%d = %s", i, gg_op_name((gg_op)g->op));
        if (g->op == GG_OP_LUT3)
            fprintf(f, " 0x%02x", g->lut);
        for (int k = 0; k < gg_op_arity((gg_op)g->op); k++) {
            signal_name(n, names, g->in[k], buf, sizeof buf);
            fprintf(f, " %s", buf);
        }
        fputc('\n', f);
    }
    for (int o = 0; o < n->n_outputs; o++) {
        if (n->out[o] == GG_SIG_CONST0) {
            fprintf(f, "out %d\n", n->out_neg[o] ? 1 : 0);
            continue;
        }
        signal_name(n, names, n->out[o], buf, sizeof buf);
        fprintf(f, "out %s%s\n", n->out_neg[o] ? "~" : "", buf);
    }
}

typedef struct parser {
    gg_net *n;
    char (*names)[GG_NET_NAME_MAX];
    char own[GG_NET_TEXT_MAX_INPUTS][GG_NET_NAME_MAX];
    bool have_inputs;
    int line;
    gg_err *err;
} parser;

/* Signal number of a name: an input name or g<i> of an earlier gate. */
static int lookup(parser *p, const char *tok)
{
    for (int i = 0; i < p->n->n_inputs; i++)
        if (!strcmp(p->names[i], tok))
            return i;
    char *end;
    if (tok[0] == 'g' && tok[1] >= '0' && tok[1] <= '9') {
        long g = strtol(tok + 1, &end, 10);
        if (!*end && g < p->n->n_gates)
            return p->n->n_inputs + (int)g;
    }
    return gg_fail(p->err, "line %d: '%s' is neither an input nor an "
                   "earlier gate", p->line, tok);
}

static int parse_inputs(parser *p, char **tok, int count)
{
    if (p->have_inputs)
        return gg_fail(p->err, "line %d: a second 'inputs' line", p->line);
    if (count - 1 > GG_NET_TEXT_MAX_INPUTS)
        return gg_fail(p->err, "line %d: %d inputs, at most %d", p->line,
                       count - 1, GG_NET_TEXT_MAX_INPUTS);
    p->n->n_inputs = count - 1;
    for (int i = 1; i < count; i++) {
        if (strlen(tok[i]) >= GG_NET_NAME_MAX)
            return gg_fail(p->err, "line %d: input name '%s' is longer than "
                           "%d characters", p->line, tok[i],
                           GG_NET_NAME_MAX - 1);
        snprintf(p->names[i - 1], GG_NET_NAME_MAX, "%s", tok[i]);
    }
    p->have_inputs = true;
    return 0;
}

static int parse_op(parser *p, const char *name, gg_op *op)
{
    for (int o = 0; o < GG_OP_COUNT; o++)
        if (!strcmp(name, gg_op_name((gg_op)o))) {
            *op = (gg_op)o;
            return 0;
        }
    return gg_fail(p->err, "line %d: unknown gate '%s' (and, or, xor, "
                   "andnot, not, lut3)", p->line, name);
}

/* gN = op [0xLUT] a b [c] */
static int parse_gate(parser *p, char **tok, int count)
{
    char want[16];
    snprintf(want, sizeof want, "g%d", p->n->n_gates);
    if (strcmp(tok[0], want) || count < 3 || strcmp(tok[1], "="))
        return gg_fail(p->err, "line %d: expected '%s = op inputs'", p->line,
                       want);
    gg_op op = GG_OP_AND; /* set by parse_op; gcc cannot see it */
    if (parse_op(p, tok[2], &op))
        return -1;
    int lut = 0, first = 3, in[3] = {0, 0, 0};
    if (op == GG_OP_LUT3) {
        char *end;
        lut = count > 3 ? (int)strtol(tok[3], &end, 0) : -1;
        if (count <= 3 || *end || lut < 0 || lut > 255)
            return gg_fail(p->err, "line %d: lut3 needs an 8-bit code such "
                           "as 0x96", p->line);
        first = 4;
    }
    int n_in = gg_op_arity(op);
    if (count - first != n_in)
        return gg_fail(p->err, "line %d: %s takes %d inputs, not %d", p->line,
                       tok[2], n_in, count - first);
    for (int k = 0; k < n_in; k++)
        if ((in[k] = lookup(p, tok[first + k])) < 0)
            return -1;
    return gg_net_add(p->n, op, (uint8_t)lut, in[0], in[1], in[2], p->err) < 0
               ? -1 : 0;
}

static int parse_out(parser *p, char **tok, int count)
{
    gg_net *n = p->n;
    if (count != 2)
        return gg_fail(p->err, "line %d: expected 'out SIGNAL'", p->line);
    if (n->n_outputs >= GG_NET_MAX_OUTPUTS)
        return gg_fail(p->err, "line %d: more than %d outputs", p->line,
                       GG_NET_MAX_OUTPUTS);
    const char *s = tok[1];
    int o = n->n_outputs, neg = s[0] == '~';
    if (!strcmp(s, "0") || !strcmp(s, "1")) {
        n->out[o] = GG_SIG_CONST0;
        n->out_neg[o] = s[0] == '1';
    } else {
        int sig = lookup(p, s + neg);
        if (sig < 0)
            return -1;
        n->out[o] = (uint16_t)sig;
        n->out_neg[o] = (uint8_t)neg;
    }
    n->n_outputs++;
    return 0;
}

/* Splits a line in place at blanks, dropping a '#' comment. */
static int tokenize(char *line, char **tok, int max)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    int count = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r", &save); t && count < max;
         t = strtok_r(NULL, " \t\r", &save))
        tok[count++] = t;
    return count;
}

static int parse_line(parser *p, char *line)
{
    char *tok[GG_NET_TEXT_MAX_INPUTS + 4];
    int count = tokenize(line, tok, GG_NET_TEXT_MAX_INPUTS + 4);
    if (count == 0)
        return 0;
    if (!strcmp(tok[0], "inputs"))
        return parse_inputs(p, tok, count);
    if (!p->have_inputs)
        return gg_fail(p->err, "line %d: the network must start with an "
                       "'inputs' line", p->line);
    if (!strcmp(tok[0], "out"))
        return parse_out(p, tok, count);
    return parse_gate(p, tok, count);
}

int gg_net_parse_text(const char *text, int first_line, gg_net *n,
                      char (*names)[GG_NET_NAME_MAX], gg_err *err)
{
    parser p = {.n = n, .line = first_line, .err = err};
    p.names = names ? names : p.own;
    memset(n, 0, sizeof *n);
    size_t len = strlen(text);
    char *copy = gg_alloc(len + 1, 1, err, "network text");
    if (!copy)
        return -1;
    memcpy(copy, text, len + 1);
    int rc = 0;
    for (char *line = copy, *next; line && !rc; line = next, p.line++) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        rc = parse_line(&p, line);
    }
    free(copy);
    if (!rc && (!p.have_inputs || n->n_outputs == 0))
        rc = gg_fail(err, "network text has no %s line",
                     p.have_inputs ? "'out'" : "'inputs'");
    return rc;
}
