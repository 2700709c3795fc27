/* A rule whose arrangement matters, as a gated correction: f = F(row sums,
 * m_1.., C) with m_l = M_l(cells, C).
 *
 * Group the neighbourhoods by (centre, neighbour count). In a pure group
 * every arrangement has the same next state, so F, which sees the row sums
 * and thus the count, gives it without the m. In a mixed group F gives the
 * group's base (the majority) when its m is 0 and the complement when it
 * is 1, so M only has to say "this arrangement differs from its group's
 * base" on its mixed groups' neighbourhoods; everywhere else it is free.
 * Given the count, an arrangement is told by few cells (B2n's opposite
 * corners are NW&SE | NE&SW once the count is 2), so M is small where a
 * full correction over the cells (sat/choose/choose_split.c) has to count too;
 * F is the adder tree over the row sums with an exact rest that reads the
 * m beside the centre (sat/choose/adder.h), about the base rule's network plus a
 * gate or two. B2n3/S23-q: M 2 LUTs, F 8, against 35 for the split.
 * F may also be the base rule's network and, per lane, that of the rule
 * on exactly on the lane's groups, one LUT a lane joining them (without
 * the solver the tree's rest with the m is a decision diagram: B2n3/S23-q
 * 18 -> 15 LUT3 a word).
 *
 * The mixed groups go to one M, or to two (birth and survival apart: two
 * smaller free-row tables, one more rest input); the cheaper wins. Every
 * part is solved within fixed solver work, so every machine emits the
 * same network; gg_choose_kernel_circuit checks the composition on every
 * neighbourhood like any kernel circuit. */
#include "choose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adder.h"
#include "choose_resub.h"
#include "net_build.h"
#include "cms.h"
#include "lut_map.h"
#include "net_rowdd.h"
#include "net_sop.h"
#include "net.h"
#include "synth.h"

enum { MAX_COUNT = GG_MAX_NEIGHBOURS + 1, MAX_LANES = 2 };

typedef struct groups {
    int n; /* neighbours */
    int on[2][MAX_COUNT], all[2][MAX_COUNT];
    int base[2][MAX_COUNT]; /* F's next state when the group's m is 0 */
    int lane[2][MAX_COUNT]; /* the m that corrects a mixed group; -1 pure */
    int n_lanes;
} groups;

static void find_groups(const gg_rule *rule, groups *g)
{
    memset(g, 0, sizeof *g);
    g->n = rule->n_neighbours;
    for (uint32_t r = 0; r < 2u << g->n; r++) {
        uint32_t nb = r & ((1u << g->n) - 1);
        int centre = (int)(r >> g->n), count = __builtin_popcount(nb);
        g->all[centre][count]++;
        g->on[centre][count] += gg_rule_next(rule, centre, nb);
    }
    for (int c = 0; c < 2; c++)
        for (int k = 0; k <= g->n; k++) {
            g->base[c][k] = 2 * g->on[c][k] > g->all[c][k];
            bool mixed = g->on[c][k] > 0 && g->on[c][k] < g->all[c][k];
            g->lane[c][k] = mixed ? 0 : -1;
        }
}

/* Birth groups to lane 0, survival groups to lane 1; false when one of
 * them has no mixed group (then one lane is all there is). */
static bool split_by_centre(groups *g)
{
    bool has[2] = {false, false};
    for (int c = 0; c < 2; c++)
        for (int k = 0; k <= g->n; k++)
            if (g->lane[c][k] >= 0) {
                g->lane[c][k] = c;
                has[c] = true;
            }
    g->n_lanes = 2;
    return has[0] && has[1];
}

/* M_l's table over the rule table's inputs: care on lane l's groups. */
static void m_table(const gg_rule *rule, const groups *g, int l, gg_tt *m)
{
    memset(m, 0, sizeof *m);
    m->n_inputs = g->n + 1;
    for (uint32_t r = 0; r < 2u << g->n; r++) {
        uint32_t nb = r & ((1u << g->n) - 1);
        int centre = (int)(r >> g->n), count = __builtin_popcount(nb);
        if (g->lane[centre][count] != l)
            continue;
        gg_tt_put(m->care, (int)r, 1);
        gg_tt_put(m->on, (int)r,
                  gg_rule_next(rule, centre, nb) ^ g->base[centre][count]);
    }
}

/* F's table over the row-sum front's outputs with the m just before the
 * centre (the adder tree's order: counted inputs, uncounted, centre);
 * mneg[l]: the signal F reads for m_l is its complement. */
static int f_table(const gg_rule *rule, const groups *g, const gg_front *rs,
                   const int *mneg, gg_tt *f, gg_err *err)
{
    int nf = rs->net.n_outputs, L = g->n_lanes;
    memset(f, 0, sizeof *f);
    f->n_inputs = nf + L;
    uint64_t in[GG_NET_MAX_OUTPUTS], out[GG_NET_MAX_OUTPUTS];
    for (uint32_t r = 0; r < 2u << g->n; r++) {
        uint32_t nb = r & ((1u << g->n) - 1);
        int centre = (int)(r >> g->n), count = __builtin_popcount(nb);
        for (int i = 0; i <= g->n; i++)
            in[i] = (r >> i) & 1 ? ~0ull : 0;
        gg_net_eval64(&rs->net, in, out);
        int row = (int)(out[nf - 1] & 1) << (nf - 1 + L);
        for (int o = 0; o < nf - 1; o++)
            row |= (int)(out[o] & 1) << o;
        int v = gg_rule_next(rule, centre, nb), b = g->base[centre][count],
            l = g->lane[centre][count];
        for (int m = 0; m < 1 << L; m++) {
            int x = row | m << (nf - 1);
            int want = l < 0 ? v : b ^ ((m >> l & 1) ^ mneg[l]);
            if (gg_tt_get(f->care, x) && gg_tt_get(f->on, x) != want)
                return gg_fail(err, "the row sums do not determine the "
                               "neighbour count; a bug in sat/choose/choose_gated.c");
            gg_tt_put(f->care, x, 1);
            gg_tt_put(f->on, x, want);
        }
    }
    return 0;
}

/* F's network: the adder tree over the row sums, its exact rest reading
 * the m beside the centre; for gate2 also the LUT3 one mapped gate by
 * gate, the cheaper (B2n3/S23-q: 49 gate2 gates per word through the
 * gate2 tree, 31 through the LUTs). */
static int solve_f(const gg_front *rs, const gg_tt *t, int L, gg_lib lib,
                   uint64_t work, gg_net *net, gg_err *err)
{
    gg_front *fr = gg_alloc(1, sizeof *fr, err, "front");
    gg_net *alt = gg_alloc(2, sizeof *alt, err, "networks");
    if (!fr || !alt) {
        free(fr);
        free(alt);
        return -1;
    }
    *fr = *rs;
    int nf = rs->net.n_outputs;
    memcpy(fr->names[nf - 1 + L], rs->names[nf - 1], sizeof fr->names[0]);
    for (int l = 0; l < L; l++) /* '=': uncounted (sat/choose/adder.h) */
        memcpy(fr->names[nf - 1 + l], (char[]){'=', 'm', (char)('0' + l), 0},
               4);
    fr->net.n_outputs = nf + L;
    int rc = gg_adder_net_repro(fr, t, lib, work, GG_CHOOSE_GUARD_SECONDS,
                                net, err);
    gg_err ignore;
    if (!rc && lib == GG_LIB_GATE2 &&
        gg_adder_net_repro(fr, t, GG_LIB_LUT3, work,
                           GG_CHOOSE_GUARD_SECONDS, &alt[0], &ignore) == 0 &&
        gg_lut3_to_gate2(&alt[0], t, &alt[1], &ignore) == 0 &&
        gg_synth_cost(&alt[1], lib) < gg_synth_cost(net, lib))
        *net = alt[1];
    free(fr);
    free(alt);
    return rc;
}

gg_rule gg_choose_totalistic(const gg_rule *rule, uint32_t birth,
                             uint32_t survive)
{
    gg_rule t = *rule;
    t.kind = GG_KIND_TOTALISTIC;
    t.birth = birth;
    t.survive = survive;
    memset(t.table, 0, sizeof t.table);
    memset(t.letters, 0, sizeof t.letters);
    return t;
}

/* The base rule: every group's base (the nearest totalistic rule). */
static gg_rule base_rule(const gg_rule *rule, const groups *g)
{
    uint32_t birth = 0, survive = 0;
    for (int k = 0; k <= g->n; k++) {
        birth |= (uint32_t)g->base[0][k] << k;
        survive |= (uint32_t)g->base[1][k] << k;
    }
    return gg_choose_totalistic(rule, birth, survive);
}

/* h's table over (B's output signal, the m, C) for F: 1 when F is no
 * function of them (two rows with the same inputs want other values). */
static int h_table(const gg_rule *rule, const groups *g, const gg_front *rs,
                   const gg_net *b, const int *mneg, gg_tt *h)
{
    int L = g->n_lanes, n = g->n;
    uint64_t in[GG_NET_MAX_OUTPUTS], mid[GG_NET_MAX_OUTPUTS], bv[1];
    memset(h, 0, sizeof *h);
    h->n_inputs = L + 2;
    for (uint32_t w = 0; w < (2u << n) / 64; w++) {
        for (int i = 0; i <= n; i++)
            in[i] = gg_tt_input_word(i, (int)(64 * w));
        gg_net_eval64(&rs->net, in, mid);
        gg_net_eval64(b, mid, bv);
        for (int k = 0; k < 64; k++) {
            uint32_t r = 64 * w + (uint32_t)k, nb = r & ((1u << n) - 1);
            int centre = (int)(r >> n), count = __builtin_popcount(nb);
            int sig = (int)(bv[0] >> k & 1) ^ b->out_neg[0];
            int v = gg_rule_next(rule, centre, nb), base = g->base[centre][count],
                l = g->lane[centre][count];
            for (int m = 0; m < 1 << L; m++) {
                int x = sig | m << 1 | centre << (L + 1);
                int want = l < 0 ? v : base ^ ((m >> l & 1) ^ mneg[l]);
                if (gg_tt_get(h->care, x) && gg_tt_get(h->on, x) != want)
                    return 1;
                gg_tt_put(h->care, x, 1);
                gg_tt_put(h->on, x, want);
            }
        }
    }
    return 0;
}

/* F as the base rule's own network (the cache's where it has one: Life's
 * 6 LUTs behind B3-k/S23) read by a LUT or two with the m and the centre,
 * when F is a function of those: B3-k/S23's F in 7 LUTs, where the adder
 * tree takes 8 with the solver and 10 without. 0 with net over F's inputs
 * (the row sums, the m, C), 1 when F is no such function, -1 on error. */
static int f_from_base(const gg_rule *rule, const groups *g,
                       const gg_front *rs, const int *mneg, gg_lib lib,
                       const gg_choose_opts *o, gg_net *net, gg_err *err)
{
    if (lib != GG_LIB_LUT3 || g->n != 8)
        return 1;
    gg_rule base = base_rule(rule, g);
    gg_circuit *bc = gg_alloc(1, sizeof *bc, err, "circuit");
    gg_tt *h = gg_alloc(1, sizeof *h, err, "table");
    gg_net *hn = gg_alloc(1, sizeof *hn, err, "network");
    int L = g->n_lanes, nf = rs->net.n_outputs, map[GG_NET_MAX_OUTPUTS], bs,
        hs;
    int rc = !bc || !h || !hn ||
                     gg_choose_circuit(&base, GG_FRONT_ROWSUM, lib, o, bc,
                                       err)
                 ? -1
                 : 0;
    if (!rc && (bc->final.out[0] == GG_SIG_CONST0 ||
                h_table(rule, g, rs, &bc->final, mneg, h)))
        rc = 1;
    if (!rc && gg_net_build_from_tt(h, lib, hn, err))
        rc = -1;
    gg_err ignore; /* more gates than a network holds: no candidate */
    if (!rc) {
        gg_choose_resub_final(hn, h);
        memset(net, 0, sizeof *net);
        net->n_inputs = nf + L;
        for (int i = 0; i < nf - 1; i++)
            map[i] = i;
        map[nf - 1] = nf - 1 + L; /* the centre, after the m */
        rc = gg_net_append(net, &bc->final, map, &bs, &ignore) ? 1 : 0;
        map[0] = bs;
        for (int l = 0; l <= L; l++)
            map[1 + l] = nf - 1 + l;
        if (!rc && gg_net_append(net, hn, map, &hs, &ignore))
            rc = 1;
    }
    if (!rc) {
        net->n_outputs = 1;
        net->out[0] = (uint16_t)hs;
        net->out_neg[0] = hn->out_neg[0];
        gg_net_tidy(net);
    }
    free(bc);
    free(h);
    free(hn);
    return rc;
}

/* The totalistic rule that is on exactly on lane l's groups. */
static gg_rule lane_rule(const gg_rule *rule, const groups *g, int l)
{
    gg_rule b = base_rule(rule, g);
    b.birth = b.survive = 0;
    for (int k = 0; k <= g->n; k++) {
        b.birth |= (uint32_t)(g->lane[0][k] == l) << k;
        b.survive |= (uint32_t)(g->lane[1][k] == l) << k;
    }
    return b;
}

/* Appends rule's own network (the cache's, or its fallback) over F's
 * inputs (row sums, then the m, then C): its signal, -1 when it is a
 * constant or does not fit. */
static int append_rule(const gg_rule *r, int nf, int L, gg_lib lib,
                       const gg_choose_opts *o, gg_net *net, int *neg,
                       gg_err *err)
{
    gg_circuit *c = gg_alloc(1, sizeof *c, err, "circuit");
    int map[GG_NET_MAX_OUTPUTS], s = -1;
    gg_err ignore; /* a rule this cannot build leaves no candidate */
    if (c && !gg_choose_circuit(r, GG_FRONT_ROWSUM, lib, o, c, &ignore)) {
        for (int i = 0; i < nf - 1; i++)
            map[i] = i;
        map[nf - 1] = nf - 1 + L;
        if (gg_net_append(net, &c->final, map, &s, &ignore) ||
            s == GG_SIG_CONST0)
            s = -1;
        *neg = c->final.out_neg[0];
    }
    free(c);
    return s;
}

/* Whether net computes t on all its care rows. */
static bool computes(const gg_net *net, const gg_tt *t)
{
    uint64_t in[GG_TT_MAX_INPUTS], out[GG_NET_MAX_OUTPUTS];
    for (int w = 0; w < gg_tt_words(t); w++) {
        for (int i = 0; i < t->n_inputs; i++)
            in[i] = gg_tt_input_word(i, 64 * w);
        gg_net_eval64(net, in, out);
        if ((out[0] ^ t->on[w]) & t->care[w] & gg_tt_word_mask(t, w))
            return false;
    }
    return true;
}

/* F as base ^ (lane_0 & m_0) ^ (lane_1 & m_1): totalistic rules' networks
 * (the base, and per lane the rule on exactly on its groups) read by a
 * LUT a lane with its m. F's own adder tree keeps the m to its rest, a
 * 6-7 input table that without the solver is a decision diagram
 * (B2ce3aei/S23-a: F 19 LUTs, this way 11); the rules share their adders
 * once composed and resubstituted. 0 with net right on f (F's table), 1
 * when not built, -1 on error. */
static int f_from_lanes(const gg_rule *rule, const groups *g,
                        const gg_front *rs, const int *mneg, gg_lib lib,
                        const gg_choose_opts *o, const gg_tt *f, gg_net *net,
                        gg_err *err)
{
    if (lib != GG_LIB_LUT3 || g->n != 8)
        return 1;
    gg_rule base = base_rule(rule, g);
    int L = g->n_lanes, nf = rs->net.n_outputs, neg = 0;
    memset(net, 0, sizeof *net);
    net->n_inputs = nf + L;
    int acc = append_rule(&base, nf, L, lib, o, net, &neg, err);
    gg_err ignore;
    for (int l = 0; l < L && acc >= 0; l++) {
        gg_rule lr = lane_rule(rule, g, l);
        int ln = 0, ls = append_rule(&lr, nf, L, lib, o, net, &ln, err);
        uint8_t lut = 0;
        for (int x = 0; x < 8; x++) /* in: acc, lane_l, m_l */
            lut |= (uint8_t)((((x >> 2 & 1) ^ neg) ^
                              (((x >> 1 & 1) ^ ln) & ((x & 1) ^ mneg[l])))
                             << x);
        acc = ls < 0 ? -1
                     : gg_net_add(net, GG_OP_LUT3, lut, acc, ls, nf - 1 + l,
                                  &ignore);
        neg = 0;
    }
    if (acc < 0)
        return 1;
    net->n_outputs = 1;
    net->out[0] = (uint16_t)acc;
    gg_net_tidy(net);
    return computes(net, f) ? 0
                            : gg_fail(err, "F from the lanes' rules is wrong; "
                                      "a bug in sat/choose/choose_gated.c");
}

/* Whether t's care rows never tell input i apart: then t is a function
 * of the other inputs (rows that differ in i only agree). */
static bool ignores(const gg_tt *t, int i)
{
    for (int r = 0; r < gg_tt_rows(t); r++) {
        int q = r | 1 << i;
        if (!(r >> i & 1) && gg_tt_get(t->care, r) &&
            gg_tt_get(t->care, q) && gg_tt_get(t->on, r) != gg_tt_get(t->on, q))
            return false;
    }
    return true;
}

/* t over the inputs it reads, kept[] saying which (merging the rows of a
 * dropped input, whose care rows agree). Dropped greedily from the last:
 * a network over the rest is right on t too, and exact synthesis over
 * five or six inputs takes milliseconds where nine take seconds. */
static int project(const gg_tt *t, gg_tt *p, int *kept)
{
    gg_tt cur = *t, next;
    int n = 0, map[GG_TT_MAX_INPUTS];
    for (int i = 0; i < t->n_inputs; i++)
        map[i] = i;
    for (int i = cur.n_inputs - 1; i >= 0; i--) {
        if (!ignores(&cur, i))
            continue;
        memset(&next, 0, sizeof next);
        next.n_inputs = cur.n_inputs - 1;
        for (int r = 0; r < gg_tt_rows(&cur); r++) {
            if (!gg_tt_get(cur.care, r))
                continue;
            int q = (r & ((1 << i) - 1)) | (r >> (i + 1)) << i;
            gg_tt_put(next.care, q, 1);
            gg_tt_put(next.on, q, gg_tt_get(cur.on, r));
        }
        cur = next;
        for (int j = i; j < t->n_inputs - 1; j++)
            map[j] = map[j + 1];
    }
    *p = cur;
    for (n = 0; n < cur.n_inputs; n++)
        kept[n] = map[n];
    return n;
}

/* Exact synthesis only where it is quick: up to this many inputs. */
enum { EXACT_INPUTS = 7 };

/* The cover beaten, without a solver, by the row decision diagram over
 * the cells and pairs of cells (gen/circuits/net_rowdd.h), whose nodes
 * merge across the free rows, and by resubstitution of the cover itself.
 * A table of too many groups for a small M (a random rule) is left to
 * the other circuits: 0 with net the cheapest, -1 on error. */
static int m_rowdd(const gg_tt *t, int beat, gg_net *net, gg_err *err)
{
    gg_net *dd = gg_alloc(1, sizeof *dd, err, "network");
    if (!dd)
        return -1;
    *dd = *net;
    gg_choose_resub_final(dd, t);
    if (dd->n_gates < net->n_gates)
        *net = *dd;
    int rc = net->n_gates > 1 && beat > 1 ? gg_net_build_rowdd(t, 0, dd, err)
                                          : 1;
    if (rc == 0 && dd->n_gates < net->n_gates)
        *net = *dd;
    free(dd);
    return rc < 0 ? -1 : 0;
}

/* M's network: the cover that grows into the free rows (gen/circuits/net_sop.h),
 * beaten within `work` by exact synthesis over the inputs M reads when
 * they are few enough. 1 (no network) when the cover does not fit a
 * network or already costs `beat` gates: a rule with many mixed groups
 * (a random one) is left to the other circuits. */
static int solve_m(const gg_tt *t, gg_lib lib, uint64_t work, int beat,
                   gg_net *net, gg_err *err)
{
    gg_net *sop = gg_alloc(1, sizeof *sop, err, "network");
    gg_synth_result *res = gg_alloc(1, sizeof *res, err, "synthesis result");
    gg_tt *p = gg_alloc(1, sizeof *p, err, "table");
    int kept[GG_TT_MAX_INPUTS];
    gg_err ignore;
    int rc = !sop || !res || !p ? -1 : 0;
    if (!rc && (gg_net_build_sop(t, sop, &ignore) || sop->n_gates >= beat))
        rc = 1;
    if (!rc && lib == GG_LIB_GATE2) {
        gg_net lut = *sop;
        rc = gg_lut3_to_gate2(&lut, t, sop, &ignore) ? 1 : 0;
    }
    if (!rc)
        *net = *sop;
    if (!rc && lib == GG_LIB_LUT3)
        rc = m_rowdd(t, beat, net, err);
    if (!rc && gg_sat_available() && project(t, p, kept) <= EXACT_INPUTS) {
        gg_synth_opts o = {.lib = lib,
                           .time_limit = GG_CHOOSE_GUARD_SECONDS,
                           .work_limit = work};
        rc = gg_synth_run(p, &o, res, err);
        if (!rc && gg_synth_cost(&res->net, lib) < gg_synth_cost(sop, lib)) {
            /* back over all of t's inputs */
            memset(net, 0, sizeof *net);
            net->n_inputs = t->n_inputs;
            int out;
            rc = gg_net_append(net, &res->net, kept, &out, err);
            net->n_outputs = 1;
            net->out[0] = (uint16_t)out;
            net->out_neg[0] = res->net.out_neg[0];
        }
    }
    free(sop);
    free(res);
    free(p);
    return rc;
}

/* final over rowsum+cells (inputs: the row-sum outputs, then the cells):
 * F with its m inputs fed by the M. */
static int compose(const gg_net *fn, const gg_net *mn, int L, int n_rs,
                   int n_cells, gg_net *final, gg_err *err)
{
    int fmap[GG_NET_MAX_OUTPUTS + MAX_LANES], mmap[GG_NET_MAX_OUTPUTS], fs;
    memset(final, 0, sizeof *final);
    final->n_inputs = n_rs + n_cells;
    for (int i = 0; i < n_cells; i++)
        mmap[i] = n_rs + i;
    mmap[n_cells] = n_rs - 1; /* the centre, C */
    for (int i = 0; i < n_rs - 1; i++)
        fmap[i] = i;
    for (int l = 0; l < L; l++) {
        int ms;
        if (gg_net_append(final, &mn[l], mmap, &ms, err))
            return -1;
        /* a constant m reads as input 0: F ignores it then */
        fmap[n_rs - 1 + l] = ms == GG_SIG_CONST0 ? 0 : ms;
    }
    fmap[n_rs - 1 + L] = n_rs - 1;
    if (gg_net_append(final, fn, fmap, &fs, err))
        return -1;
    final->n_outputs = 1;
    final->out[0] = (uint16_t)fs;
    final->out_neg[0] = fn->out_neg[0];
    gg_net_tidy(final);
    return 0;
}

/* F and the M composed into final and resubstituted whole: M is right on
 * its groups' rows alone and F on the row sums', but together they share
 * signals (without the solver, F's rest is a decision diagram). 1 when
 * they do not fit a network. */
static int polished(const gg_rule *rule, const groups *g, const gg_front *rs,
                    const gg_front *front, const gg_net *fn,
                    const gg_net *mn, gg_net *final)
{
    gg_err ignore; /* more gates than a network holds: no candidate */
    if (compose(fn, mn, g->n_lanes, rs->net.n_outputs, rule->n_neighbours,
                final, &ignore))
        return 1;
    gg_choose_resub_over(rule, front, final);
    return 0;
}

/* One assignment of groups to lanes: the M, then F, composed into final;
 * 1 (nothing built) when the M together reach `m_beat` gates. *m_gates
 * gets what they cost. */
static int gated_try(const gg_rule *rule, const groups *g,
                     const gg_front *rs, const gg_front *front, gg_lib lib,
                     const gg_choose_opts *o, int m_beat, int *m_gates,
                     gg_net *final, gg_err *err)
{
    uint64_t work = o && o->work ? o->work : GG_CHOOSE_WORK;
    gg_tt *t = gg_alloc(1, sizeof *t, err, "table");
    /* F, the M, F from the base, F from the lanes' rules */
    gg_net *nets = gg_alloc(MAX_LANES + 3, sizeof *nets, err, "networks");
    int bad = !t || !nets ? -1 : 0;
    int mneg[MAX_LANES] = {0};
    *m_gates = 0;
    for (int l = 0; !bad && l < g->n_lanes; l++) {
        m_table(rule, g, l, t);
        bad = solve_m(t, lib, work, m_beat - *m_gates, &nets[1 + l], err);
        *m_gates += bad ? 0 : gg_synth_cost(&nets[1 + l], lib);
        /* a constant M cannot happen: its groups would be pure */
        mneg[l] = nets[1 + l].out_neg[0];
    }
    if (!bad && *m_gates >= m_beat)
        bad = 1;
    if (!bad)
        bad = f_table(rule, g, rs, mneg, t, err) ||
                      solve_f(rs, t, g->n_lanes, lib, work, &nets[0], err)
                  ? -1
                  : 0;
    int alt = bad ? 1
                  : f_from_base(rule, g, rs, mneg, lib, o,
                                &nets[1 + MAX_LANES], err);
    bad = alt < 0 ? -1 : bad;
    int alt2 = bad ? 1
                   : f_from_lanes(rule, g, rs, mneg, lib, o, t,
                                  &nets[2 + MAX_LANES], err);
    bad = alt2 < 0 ? -1 : bad;
    if (!bad)
        bad = polished(rule, g, rs, front, &nets[0], &nets[1], final);
    /* the F from the base too, kept when it comes out smaller whole */
    if (!bad && alt == 0 &&
        polished(rule, g, rs, front, &nets[1 + MAX_LANES], &nets[1],
                 &nets[0]) == 0 &&
        gg_synth_cost(&nets[0], lib) < gg_synth_cost(final, lib))
        *final = nets[0];
    if (!bad && alt2 == 0 &&
        polished(rule, g, rs, front, &nets[2 + MAX_LANES], &nets[1],
                 &nets[0]) == 0 &&
        gg_synth_cost(&nets[0], lib) < gg_synth_cost(final, lib))
        *final = nets[0];
    free(t);
    free(nets);
    return bad;
}

int gg_choose_gated_circuit(const gg_rule *rule, gg_lib lib,
                            const gg_choose_opts *o, int beat,
                            gg_circuit *c, gg_err *err)
{
    if (rule->nbhd != GG_NBHD_MOORE)
        return gg_fail(err, "the gated circuit needs the Moore "
                       "neighbourhood");
    groups g;
    find_groups(rule, &g);
    g.n_lanes = 1;
    gg_front *rs = gg_alloc(1, sizeof *rs, err, "front");
    gg_net *two = gg_alloc(1, sizeof *two, err, "network");
    memset(c, 0, sizeof *c);
    c->rule = *rule;
    c->lib = lib;
    snprintf(c->source, sizeof c->source, "gated correction");
    int rc = !rs || !two ||
                     gg_front_build_lib(rule, GG_FRONT_ROWSUM, lib, rs, err) ||
                     gg_front_build_lib(rule, GG_FRONT_ROWSUM_CELLS, lib,
                                        &c->front, err)
                 ? -1
                 : 0;
    /* in final-stage gates (both fronts cost the same per word); F takes
     * a gate at least */
    int beat_final = beat > 0 ? beat - c->front.gates_per_word : 1 << 30;
    int m1 = 0, m2;
    if (!rc)
        rc = gated_try(rule, &g, rs, &c->front, lib, o, beat_final - 1,
                       &m1, &c->final, err);
    /* two lanes add a rest input, so F grows: they only pay when their M
     * together save two gates or more on the one M. A LUT3 whole is
     * resubstituted, which often takes more from one M than from two
     * (B2ce3aei/S23-a without the solver: one lane 16 + 19 -> 27, two
     * 15 + 5 + 19 -> 25): there they are cut only when their M alone
     * cost what the one-lane circuit does. */
    int m_beat = rc != 0              ? beat_final - 1
                 : lib == GG_LIB_LUT3 ? gg_synth_cost(&c->final, lib)
                                      : m1 - 1;
    if (rc >= 0 && split_by_centre(&g)) {
        int two_rc = gated_try(rule, &g, rs, &c->front, lib, o, m_beat,
                               &m2, two, err);
        if (two_rc == 0 &&
            (rc || gg_synth_cost(two, lib) < gg_synth_cost(&c->final, lib)))
            c->final = *two;
        rc = two_rc < 0 ? -1 : rc == 0 ? 0 : two_rc;
    }
    free(rs);
    free(two);
    return rc;
}
