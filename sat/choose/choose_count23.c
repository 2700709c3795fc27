/* A rule whose arrangement matters on a few neighbour counts, as
 * out = E(row sums, C, p) with p = P(eight signals that tell the
 * arrangements apart): front rowsum+cells, LUT3 only.
 *
 * Group the neighbourhoods by (centre, count). For each centre value,
 * the groups whose next state is the majority of the pure groups' (k_C)
 * are class 0; mixed groups, and pure groups of the other state, are
 * class 1, where E passes p on (complemented for C = 1 when that makes
 * P smaller). So E = LUT3(A, p, C), A being the totalistic rule that is
 * on exactly on class 1 (the network cache's, or its fallback): for
 * B2ce3aei/S23-a A is "2 or 3 neighbours", 5 LUTs proven minimal, E 6
 * (BENCHMARKS.md, session 28: proven minimal for E too).
 *
 * P is the rule on class 1 only, over the three row parities, C, N, S
 * and the two column alignments NW^W and SW^W (one LUT each): given the
 * count these tell every Hensel letter of 1 and 2 cells apart, those of
 * 3 but c from r, those of 4 but a from k, j from n and r from y
 * (tests/test_cache.c), and they do not depend on the rule, so P's
 * table has at most 256 rows where the cells' has 512 (B2ce3aei/S23-a:
 * 148 care rows). A rule whose class 1 needs a distinction they miss (a
 * random rule) gets no candidate. P is built without a solver from
 * decision diagrams over several orders, resubstituted and rewritten
 * (gen/circuits/net_orders.h): B2ce3aei/S23-a's P in 12 LUTs (exact
 * synthesis proves only that 5 are too few), the whole 22 after
 * resubstitution over the front's rows, 24 logic ops a word against the
 * gated correction's 27 (with the solver, A in 6: 23 against 26).
 * gg_choose_kernel_circuit checks it on every neighbourhood like any
 * kernel circuit. */
#include "choose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choose_resub.h"
#include "net_orders.h"

/* The rowsum+cells front's outputs (gen/circuits/front.h): the row sums
 * sT cT sM cM sB cB, C, then the cells NW N NE W E SW S SE. */
enum { IN_C = 6, CELL = 7, N_FEATURES = 8, COUNTS = 9 };
enum { NW = CELL, N, NE, W, E, SW, S, SE };

/* P's inputs: a front output, or the XOR of two (b >= 0: one LUT). */
static const int features[N_FEATURES][2] = {
    {0, -1}, {2, -1}, {4, -1}, {IN_C, -1}, {N, -1}, {S, -1}, {NW, W},
    {SW, W}};

enum { LUT_XOR2 = 0x3C };

typedef struct plan {
    int cls[2][COUNTS]; /* 1: E passes p on for this (C, count) */
    int k[2];           /* E's value on class 0 */
    int pol[2];         /* p is the next state xor pol[C] on class 1 */
} plan;

/* Classes for rule (Moore, 8 neighbours): 1 when some group is mixed. */
static bool make_plan(const gg_rule *rule, plan *pl)
{
    int on[2][COUNTS] = {{0}}, all[2][COUNTS] = {{0}};
    for (uint32_t r = 0; r < 512; r++) {
        int c = (int)(r >> 8), n = __builtin_popcount(r & 255);
        all[c][n]++;
        on[c][n] += gg_rule_next(rule, c, r & 255);
    }
    bool mixed = false;
    for (int c = 0; c < 2; c++) {
        int votes[2] = {0, 0};
        for (int n = 0; n < COUNTS; n++)
            if (on[c][n] == 0 || on[c][n] == all[c][n])
                votes[on[c][n] > 0] += all[c][n];
        pl->k[c] = votes[1] > votes[0];
        for (int n = 0; n < COUNTS; n++) {
            bool pure_k = on[c][n] == (pl->k[c] ? all[c][n] : 0);
            pl->cls[c][n] = !pure_k;
            mixed |= on[c][n] > 0 && on[c][n] < all[c][n];
        }
    }
    return mixed;
}

/* The front's outputs for neighbourhood r (bit o: output o). */
static uint32_t front_row(const gg_front *f, uint32_t r)
{
    uint64_t in[GG_NET_MAX_OUTPUTS], out[GG_NET_MAX_OUTPUTS];
    for (int i = 0; i < 9; i++)
        in[i] = (r >> i) & 1 ? ~0ull : 0;
    gg_net_eval64(&f->net, in, out);
    uint32_t row = 0;
    for (int o = 0; o < f->net.n_outputs; o++)
        row |= (uint32_t)(out[o] & 1) << o;
    return row;
}

/* P's table; false when the features do not tell class 1 apart. */
static bool p_table(const gg_rule *rule, const gg_front *f, const plan *pl,
                    gg_tt *t)
{
    memset(t, 0, sizeof *t);
    t->n_inputs = N_FEATURES;
    for (uint32_t r = 0; r < 512; r++) {
        int c = (int)(r >> 8), n = __builtin_popcount(r & 255);
        if (!pl->cls[c][n])
            continue;
        uint32_t out = front_row(f, r);
        int x = 0;
        for (int i = 0; i < N_FEATURES; i++) {
            int b = features[i][1];
            x |= (int)(((out >> features[i][0]) ^ (b >= 0 ? out >> b : 0)) &
                       1) << i;
        }
        int v = gg_rule_next(rule, c, r & 255) ^ pl->pol[c];
        if (gg_tt_get(t->care, x) && gg_tt_get(t->on, x) != v)
            return false;
        gg_tt_put(t->care, x, 1);
        gg_tt_put(t->on, x, v);
    }
    return true;
}

/* The totalistic rule that is on exactly on class 1. */
static gg_rule class_rule(const gg_rule *rule, const plan *pl)
{
    uint32_t birth = 0, survive = 0;
    for (int n = 0; n < COUNTS; n++) {
        birth |= (uint32_t)pl->cls[0][n] << n;
        survive |= (uint32_t)pl->cls[1][n] << n;
    }
    return gg_choose_totalistic(rule, birth, survive);
}

/* final (over the front's outputs) = LUT3(A, P(features), C). 1 when it
 * does not fit a network. */
static int compose(const gg_net *a, const gg_net *p, const plan *pl,
                   gg_net *final)
{
    gg_err ignore; /* more gates than a network holds: no candidate */
    int map[GG_NET_MAX_OUTPUTS], sa, sp;
    memset(final, 0, sizeof *final);
    final->n_inputs = CELL + 8;
    for (int i = 0; i < N_FEATURES; i++)
        map[i] = features[i][1] < 0
                     ? features[i][0]
                     : gg_net_add(final, GG_OP_LUT3, LUT_XOR2,
                                  features[i][0], features[i][1],
                                  features[i][1], &ignore);
    if (gg_net_append(final, p, map, &sp, &ignore))
        return 1;
    for (int i = 0; i <= IN_C; i++)
        map[i] = i;
    if (gg_net_append(final, a, map, &sa, &ignore) ||
        sa == GG_SIG_CONST0 || sp == GG_SIG_CONST0)
        return 1;
    uint8_t lut = 0;
    for (int x = 0; x < 8; x++) { /* in: A, p, C */
        int av = (x >> 2 & 1) ^ a->out_neg[0], pv = (x >> 1 & 1) ^
                                                       p->out_neg[0],
            c = x & 1;
        lut |= (uint8_t)((av ? pv ^ pl->pol[c] : pl->k[c]) << x);
    }
    int e = gg_net_add(final, GG_OP_LUT3, lut, sa, sp, IN_C, &ignore);
    if (e < 0)
        return 1;
    final->n_outputs = 1;
    final->out[0] = (uint16_t)e;
    gg_net_tidy(final);
    return 0;
}

/* The whole for P's table t from `tries` orders into *whole: 0, 1 when
 * it does not fit a network, -1 on error. */
static int whole_from(const gg_rule *rule, const gg_front *front,
                      const gg_net *a, const gg_tt *t, const plan *pl,
                      int tries, gg_net *p, gg_net *whole, gg_err *err)
{
    if (gg_net_build_orders(t, tries, p, err))
        return -1;
    if (compose(a, p, pl, whole))
        return 1;
    gg_choose_resub_over(rule, front, whole);
    return 0;
}

/* A quick search first (an eighth of the orders), the full one only
 * where it may win: the full one takes B2ce3aei/S23-a's whole from 24 to
 * 22 LUTs, where B2n3/S23-q's quick wholes, 17 and 21, are 4 and more
 * above its gated correction's 13 (without the solver). */
enum { QUICK = GG_ORDERS_TRIES / 8, SLACK = 2 };

int gg_choose_count23_circuit(const gg_rule *rule, gg_lib lib,
                              const gg_choose_opts *o, int beat,
                              gg_circuit *c, gg_err *err)
{
    plan pl = {0};
    if (lib != GG_LIB_LUT3 || rule->nbhd != GG_NBHD_MOORE ||
        !make_plan(rule, &pl))
        return 1;
    gg_circuit *ac = gg_alloc(1, sizeof *ac, err, "circuit");
    gg_tt *t = gg_alloc(1, sizeof *t, err, "table");
    gg_net *nets = gg_alloc(2, sizeof *nets, err, "networks");
    gg_rule a = class_rule(rule, &pl);
    memset(c, 0, sizeof *c);
    c->rule = *rule;
    c->lib = lib;
    snprintf(c->source, sizeof c->source, "count classes E(A, P)");
    int rc = !ac || !t || !nets ||
                     gg_front_build_lib(rule, GG_FRONT_ROWSUM_CELLS, lib,
                                        &c->front, err)
                 ? -1
                 : 0;
    /* the features tell class 1 apart whatever the polarity (C is one
     * of them): a rule they do not costs no search for A */
    if (!rc && !p_table(rule, &c->front, &pl, t))
        rc = 1;
    if (!rc && gg_choose_circuit(&a, GG_FRONT_ROWSUM, lib, o, ac, err))
        rc = -1;
    int beat_final = beat > 0 ? beat - c->front.gates_per_word : 1 << 30;
    bool have = false;
    /* P's polarity at C = 1 against C = 0: the smaller whole */
    for (int pol = 0; !rc && pol < 2; pol++) {
        pl.pol[1] = pol;
        p_table(rule, &c->front, &pl, t);
        int w = whole_from(rule, &c->front, &ac->final, t, &pl, QUICK,
                           &nets[0], &nets[1], err);
        if (w == 0 && nets[1].n_gates - SLACK < beat_final)
            w = whole_from(rule, &c->front, &ac->final, t, &pl, 0,
                           &nets[0], &nets[1], err);
        rc = w < 0 ? -1 : 0;
        if (w == 0 && (!have || nets[1].n_gates < c->final.n_gates)) {
            c->final = nets[1];
            have = true;
        }
    }
    free(ac);
    free(t);
    free(nets);
    return rc || have ? rc : 1;
}
