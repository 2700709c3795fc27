/* A rule whose arrangement matters, as a totalistic rule corrected: f =
 * T xor D, where T takes, for every neighbour count and centre, the next
 * state most of that count's arrangements have, and D = f xor T is 1 on
 * the few arrangements where f differs. T gets the row-sum circuit a
 * totalistic rule gets (the cache's, or the fallback), D a network over
 * the cells, and one XOR joins them: B2n3/S23-q is Life (6 cached LUTs
 * behind the shared row sum) plus a correction on 10 of 512 rows. */
#include "choose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choose_resub.h"
#include "net_build.h"
#include "synth.h"

/* The nearest totalistic rule: per count and centre, the majority. */
static gg_rule nearest_totalistic(const gg_rule *rule)
{
    int n = rule->n_neighbours, on[2][GG_MAX_NEIGHBOURS + 1] = {{0}},
        all[2][GG_MAX_NEIGHBOURS + 1] = {{0}};
    for (uint32_t r = 0; r < 2u << n; r++) {
        uint32_t nb = r & ((1u << n) - 1);
        int centre = (int)(r >> n), count = __builtin_popcount(nb);
        all[centre][count]++;
        on[centre][count] += gg_rule_next(rule, centre, nb);
    }
    gg_rule t = *rule;
    t.kind = GG_KIND_TOTALISTIC;
    t.birth = t.survive = 0;
    memset(t.table, 0, sizeof t.table);
    memset(t.letters, 0, sizeof t.letters);
    for (int c = 0; c <= n; c++) {
        t.birth |= (uint32_t)(2 * on[0][c] > all[0][c]) << c;
        t.survive |= (uint32_t)(2 * on[1][c] > all[1][c]) << c;
    }
    return t;
}

/* D over the rule table's inputs (neighbours, then the centre). */
static void correction_tt(const gg_rule *rule, const gg_rule *t, gg_tt *d)
{
    int n = rule->n_neighbours;
    memset(d, 0, sizeof *d);
    d->n_inputs = n + 1;
    for (uint32_t r = 0; r < 2u << n; r++) {
        uint32_t nb = r & ((1u << n) - 1);
        int centre = (int)(r >> n);
        gg_tt_put(d->on, (int)r, gg_rule_next(rule, centre, nb) ^
                                     gg_rule_next(t, centre, nb));
        gg_tt_put(d->care, (int)r, 1);
    }
}

/* final = T's final stage (inputs 0..6 of rowsum+cells) xor D (the
 * cells: inputs 7.., the centre input 6). */
static int compose(const gg_net *tf, const gg_net *dn, int n_cells,
                   gg_lib lib, gg_net *final, gg_err *err)
{
    int tmap[GG_NET_MAX_OUTPUTS], dmap[GG_NET_MAX_OUTPUTS], ts, ds;
    memset(final, 0, sizeof *final);
    final->n_inputs = tf->n_inputs + n_cells;
    for (int i = 0; i < tf->n_inputs; i++)
        tmap[i] = i;
    for (int i = 0; i < n_cells; i++)
        dmap[i] = tf->n_inputs + i;
    dmap[n_cells] = tf->n_inputs - 1; /* the centre, C */
    if (gg_net_append(final, tf, tmap, &ts, err) ||
        gg_net_append(final, dn, dmap, &ds, err))
        return -1;
    final->n_outputs = 1;
    final->out_neg[0] = tf->out_neg[0] ^ dn->out_neg[0];
    if (ds == GG_SIG_CONST0 || ts == GG_SIG_CONST0) {
        final->out[0] = (uint16_t)(ds == GG_SIG_CONST0 ? ts : ds);
        return 0;
    }
    int x = lib == GG_LIB_LUT3
                ? gg_net_add(final, GG_OP_LUT3, 0x3C, ts, ds, ts, err)
                : gg_net_add(final, GG_OP_XOR, 0, ts, ds, 0, err);
    if (x < 0)
        return -1;
    final->out[0] = (uint16_t)x;
    return 0;
}

int gg_choose_split_circuit(const gg_rule *rule, gg_lib lib,
                            const gg_choose_opts *o, gg_circuit *c,
                            gg_err *err)
{
    if (rule->nbhd != GG_NBHD_MOORE)
        return gg_fail(err, "the split circuit needs the Moore "
                       "neighbourhood");
    gg_rule t = nearest_totalistic(rule);
    gg_circuit *tc = gg_alloc(1, sizeof *tc, err, "circuit");
    gg_net *dn = gg_alloc(1, sizeof *dn, err, "network");
    gg_tt d;
    correction_tt(rule, &t, &d);
    int bad = !tc || !dn ||
              gg_choose_circuit(&t, GG_FRONT_ROWSUM, lib, o, tc, err) ||
              gg_net_build_from_tt(&d, lib, dn, err);
    if (!bad) {
        memset(c, 0, sizeof *c);
        c->rule = *rule;
        c->lib = lib;
        snprintf(c->source, sizeof c->source, "totalistic + correction");
        bad = gg_front_build_lib(rule, GG_FRONT_ROWSUM_CELLS, lib, &c->front,
                                 err) ||
              compose(&tc->final, dn, rule->n_neighbours, lib, &c->final,
                      err);
    }
    /* D's diagram counts the cells again where T's row sums already have */
    if (!bad)
        gg_choose_resub_circuit(c);
    free(tc);
    free(dn);
    return bad ? -1 : 0;
}
