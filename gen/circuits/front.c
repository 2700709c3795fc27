#include "front.h"

#include <stdio.h>
#include <string.h>

const char *gg_front_name(gg_front_kind kind)
{
    return kind == GG_FRONT_NONE           ? "none"
           : kind == GG_FRONT_ROWSUM_LR    ? "rowsum-lr"
           : kind == GG_FRONT_ROWSUM_CELLS ? "rowsum+cells"
                                           : "rowsum";
}

int gg_front_parse(const char *name, gg_front_kind *kind, gg_err *err)
{
    if (!strcmp(name, "rowsum"))
        *kind = GG_FRONT_ROWSUM;
    else if (!strcmp(name, "none"))
        *kind = GG_FRONT_NONE;
    else if (!strcmp(name, "rowsum-lr"))
        *kind = GG_FRONT_ROWSUM_LR;
    else if (!strcmp(name, "rowsum+cells"))
        *kind = GG_FRONT_ROWSUM_CELLS;
    else
        return gg_fail(err, "unknown front '%s'; use rowsum (shared row "
                       "3-sums, the default), rowsum-lr (top and bottom "
                       "3-sums, W and E apart) or none (centre + "
                       "neighbours)", name);
    return 0;
}

/* 3-input LUT codes in the lop3 convention (a = 0xF0, b = 0xCC, c = 0xAA). */
enum { LUT_XOR3 = 0x96, LUT_MAJ3 = 0xE8, LUT_XOR2 = 0x3C, LUT_AND2 = 0xC0 };

static int add_output(gg_front *f, int signal, const char *name, gg_err *err)
{
    gg_net *n = &f->net;
    if (n->n_outputs >= GG_NET_MAX_OUTPUTS)
        return gg_fail(err, "front has more than %d outputs",
                       GG_NET_MAX_OUTPUTS);
    n->out[n->n_outputs] = (uint16_t)signal;
    snprintf(f->names[n->n_outputs], sizeof f->names[0], "%s", name);
    n->n_outputs++;
    return 0;
}

/* Sum and carry of three bits: one full adder. */
static int full_adder(gg_net *n, gg_lib lib, const int *x, int *s, int *c,
                      gg_err *err)
{
    if (lib == GG_LIB_LUT3) {
        *s = gg_net_add(n, GG_OP_LUT3, LUT_XOR3, x[0], x[1], x[2], err);
        *c = gg_net_add(n, GG_OP_LUT3, LUT_MAJ3, x[0], x[1], x[2], err);
        return *s < 0 || *c < 0 ? -1 : 0;
    }
    int t = gg_net_add(n, GG_OP_XOR, 0, x[0], x[1], 0, err);
    int ab = gg_net_add(n, GG_OP_AND, 0, x[0], x[1], 0, err);
    *s = gg_net_add(n, GG_OP_XOR, 0, t, x[2], 0, err);
    int tc = gg_net_add(n, GG_OP_AND, 0, t, x[2], 0, err);
    *c = gg_net_add(n, GG_OP_OR, 0, ab, tc, 0, err);
    return *s < 0 || *c < 0 ? -1 : 0;
}

/* Sum and carry of two bits: one half adder. */
static int half_adder(gg_net *n, gg_lib lib, const int *x, int *s, int *c,
                      gg_err *err)
{
    if (lib == GG_LIB_LUT3) {
        *s = gg_net_add(n, GG_OP_LUT3, LUT_XOR2, x[0], x[1], x[1], err);
        *c = gg_net_add(n, GG_OP_LUT3, LUT_AND2, x[0], x[1], x[1], err);
    } else {
        *s = gg_net_add(n, GG_OP_XOR, 0, x[0], x[1], 0, err);
        *c = gg_net_add(n, GG_OP_AND, 0, x[0], x[1], 0, err);
    }
    return *s < 0 || *c < 0 ? -1 : 0;
}

/* Reduce the cells of one neighbourhood row (dy) to binary counts. The
 * middle row takes the centre too when it has both W and E, so that all
 * rows of a Moore neighbourhood are the same 3-sum and can be shared. */
static int sum_row(gg_front *f, const gg_rule *rule, int dy, char tag,
                   gg_err *err)
{
    int count, x[3], k = 0;
    const gg_offset *off = gg_nbhd_offsets(rule->nbhd, &count);
    for (int dx = -1; dx <= 1; dx++)
        for (int i = 0; i < count; i++)
            if (off[i].dx == dx && off[i].dy == dy)
                x[k++] = i;
    if (dy == 0 && k == 2) { /* W and E: put the centre between them */
        x[2] = x[1];
        x[1] = rule->n_neighbours;
        k = 3;
    }
    char s_name[8], c_name[8];
    snprintf(s_name, sizeof s_name, "s%c", tag);
    snprintf(c_name, sizeof c_name, "c%c", tag);
    int s, c;
    switch (k) {
    case 0:
        return 0;
    case 1:
        snprintf(s_name, sizeof s_name, "%c", tag);
        return add_output(f, x[0], s_name, err);
    case 2:
        if (half_adder(&f->net, f->lib, x, &s, &c, err))
            return -1;
        break;
    default:
        if (full_adder(&f->net, f->lib, x, &s, &c, err))
            return -1;
    }
    return add_output(f, s, s_name, err) || add_output(f, c, c_name, err)
               ? -1
               : 0;
}

/* Whether every row of the neighbourhood sums the same three columns. */
static bool rows_shared(const gg_rule *rule)
{
    return rule->nbhd == GG_NBHD_MOORE;
}

static int build_rowsum(const gg_rule *rule, gg_front *f, gg_err *err)
{
    static const char tags[3] = {'T', 'M', 'B'};
    for (int dy = -1; dy <= 1; dy++)
        if (sum_row(f, rule, dy, tags[dy + 1], err))
            return -1;
    f->rows_shared = rows_shared(rule);
    f->gates_per_word = f->rows_shared ? f->net.n_gates / 3 : f->net.n_gates;
    return add_output(f, rule->n_neighbours, "C", err);
}

/* Top and bottom rows as 3-sums, W and E as single cells (Moore only: the
 * point is that the kernel's one 3-sum per word row serves as the top row
 * of the output row below and the bottom row of the one above). */
static int build_rowsum_lr(const gg_rule *rule, gg_front *f, gg_err *err)
{
    if (rule->nbhd != GG_NBHD_MOORE)
        return gg_fail(err, "the rowsum-lr front needs the Moore "
                       "neighbourhood (the %s one has no full top and "
                       "bottom rows); use rowsum or none",
                       gg_nbhd_name(rule->nbhd));
    int count, w = -1, e = -1;
    const gg_offset *off = gg_nbhd_offsets(rule->nbhd, &count);
    for (int i = 0; i < count; i++)
        if (off[i].dy == 0)
            *(off[i].dx < 0 ? &w : &e) = i;
    if (sum_row(f, rule, -1, 'T', err) || add_output(f, w, "L", err) ||
        add_output(f, e, "R", err) || sum_row(f, rule, 1, 'B', err))
        return -1;
    f->rows_shared = true;
    f->gates_per_word = f->net.n_gates / 2;
    return add_output(f, rule->n_neighbours, "C", err);
}

/* The neighbours themselves, named by direction. */
static int add_cells(const gg_rule *rule, gg_front *f, gg_err *err)
{
    static const char *dirs[3][3] = {
        {"NW", "N", "NE"}, {"W", "C", "E"}, {"SW", "S", "SE"}};
    int count;
    const gg_offset *off = gg_nbhd_offsets(rule->nbhd, &count);
    for (int i = 0; i < count; i++)
        if (add_output(f, i, dirs[off[i].dy + 1][off[i].dx + 1], err))
            return -1;
    return 0;
}

static int build_none(const gg_rule *rule, gg_front *f, gg_err *err)
{
    return add_cells(rule, f, err) ||
                   add_output(f, rule->n_neighbours, "C", err)
               ? -1
               : 0;
}

static int build_rowsum_cells(const gg_rule *rule, gg_front *f, gg_err *err)
{
    if (rule->nbhd != GG_NBHD_MOORE)
        return gg_fail(err, "the rowsum+cells front needs the Moore "
                       "neighbourhood; use none");
    return build_rowsum(rule, f, err) || add_cells(rule, f, err) ? -1 : 0;
}

int gg_front_build_lib(const gg_rule *rule, gg_front_kind kind, gg_lib lib,
                       gg_front *f, gg_err *err)
{
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->nbhd = rule->nbhd;
    f->lib = lib;
    f->net.n_inputs = rule->n_neighbours + 1;
    switch (kind) {
    case GG_FRONT_NONE:
        return build_none(rule, f, err);
    case GG_FRONT_ROWSUM_LR:
        return build_rowsum_lr(rule, f, err);
    case GG_FRONT_ROWSUM_CELLS:
        return build_rowsum_cells(rule, f, err);
    default:
        return build_rowsum(rule, f, err);
    }
}

int gg_front_build(const gg_rule *rule, gg_front_kind kind, gg_front *f,
                   gg_err *err)
{
    return gg_front_build_lib(rule, kind, GG_LIB_LUT3, f, err);
}

int gg_front_final_tt(const gg_rule *rule, const gg_front *f, gg_tt *final,
                      gg_err *err)
{
    gg_tt rule_tt;
    gg_tt_from_rule(rule, &rule_tt);
    memset(final, 0, sizeof *final);
    final->n_inputs = f->net.n_outputs;
    if (final->n_inputs > GG_TT_MAX_INPUTS)
        return gg_fail(err, "final stage has %d inputs, more than %d",
                       final->n_inputs, GG_TT_MAX_INPUTS);
    uint64_t in[GG_NET_MAX_OUTPUTS], out[GG_NET_MAX_OUTPUTS];
    for (int r = 0; r < gg_tt_rows(&rule_tt); r++) {
        for (int i = 0; i < rule_tt.n_inputs; i++)
            in[i] = ((r >> i) & 1) ? ~0ull : 0;
        gg_net_eval64(&f->net, in, out);
        int row = 0;
        for (int o = 0; o < f->net.n_outputs; o++)
            row |= (int)(out[o] & 1) << o;
        int v = gg_tt_get(rule_tt.on, r);
        if (gg_tt_get(final->care, row) && gg_tt_get(final->on, row) != v)
            return gg_fail(err, "the %s front cannot express this rule: two "
                           "neighbourhoods reach final row %d with different "
                           "next states", gg_front_name(f->kind), row);
        gg_tt_put(final->care, row, 1);
        gg_tt_put(final->on, row, v);
    }
    return 0;
}

gg_front_kind gg_front_for_rule(const gg_rule *rule)
{
    return gg_rule_is_totalistic(rule) ? GG_FRONT_ROWSUM : GG_FRONT_NONE;
}
