#include "lut_map.h"

#include <stdlib.h>
#include <string.h>

#include "synth.h"

/* What gate i must compute over its inputs as kept (x_j = input j ^
 * neg_j). */
static void local_tt(const gg_net *n, int i, const uint8_t *neg,
                     const gg_tt *f, gg_tt *h)
{
    const gg_gate *g = &n->gate[i];
    int leaves[3] = {g->in[0], g->in[1], g->in[2]};
    uint8_t flip[3] = {neg[g->in[0]], neg[g->in[1]], neg[g->in[2]]};
    gg_net_window_tt(n, i, leaves, flip, 3, f, h);
}

/* gg_lut3_to_gate2's working state: large (a synthesis result and two
 * nets), so one heap block per call rather than statics, which would make
 * concurrent mappings collide. */
typedef struct map_scratch {
    gg_net work;         /* lut, with LUTs relaxed as gates are mapped */
    gg_net sub;          /* the current gate's gate2 network */
    gg_synth_result res; /* map_gate's synthesis */
} map_scratch;

/* The cheapest gate2 network for h ^ q, q = h's value on the all-zero
 * row, or either value where that row is free; *q gets the one used.
 * res is scratch. */
static int map_gate(const gg_tt *h, gg_synth_result *res, gg_net *best,
                    int *q, gg_err *err)
{
    gg_synth_opts o = {.lib = GG_LIB_GATE2, .threads = 1};
    int cost = -1;
    if (gg_tt_count_care(h) == 0) { /* the gate does not matter: a wire */
        memset(best, 0, sizeof *best);
        best->n_inputs = 3;
        best->n_outputs = 1;
        *q = 0;
        return 0;
    }
    for (int v = 0; v < 2; v++) {
        if (gg_tt_get(h->care, 0) && gg_tt_get(h->on, 0) != v)
            continue;
        gg_tt t = *h;
        for (int r = 0; r < 8; r++)
            gg_tt_put(t.on, r, gg_tt_get(h->care, r) && gg_tt_get(h->on, r) ^ v);
        if (gg_synth_run(&t, &o, res, err))
            return -1;
        if (cost < 0 || gg_synth_cost(&res->net, o.lib) < cost) {
            cost = gg_synth_cost(&res->net, o.lib);
            *best = res->net;
            *q = v;
        }
    }
    return 0;
}

/* Gate i's LUT rewritten to what the chosen gate2 network computes, so
 * later gates see the relaxed function. */
static void relax_lut(gg_gate *g, const uint8_t *neg, const gg_net *sub, int q)
{
    gg_tt t;
    gg_net_output_tt(sub, 0, &t);
    uint8_t lut = 0;
    for (int k = 0; k < 8; k++) {
        int a = k >> 2 & 1, b = k >> 1 & 1, c = k & 1;
        int x = (a ^ neg[g->in[0]]) | (b ^ neg[g->in[1]]) << 1 |
                (c ^ neg[g->in[2]]) << 2;
        lut |= (uint8_t)((gg_tt_get(t.on, x) ^ q) << k);
    }
    g->lut = lut;
}

/* gg_lut3_to_gate2 once lut is checked, with its scratch in sc. */
static int map_net(const gg_net *lut, const gg_tt *f, map_scratch *sc,
                   gg_net *out, gg_err *err)
{
    gg_net *work = &sc->work, *sub = &sc->sub;
    int sig[GG_NET_MAX_GATES + GG_TT_MAX_INPUTS];
    uint8_t neg[GG_NET_MAX_GATES + GG_TT_MAX_INPUTS] = {0};
    int ni = lut->n_inputs;
    *work = *lut;
    memset(out, 0, sizeof *out);
    out->n_inputs = ni;
    out->n_outputs = 1;
    for (int s = 0; s < ni; s++)
        sig[s] = s;
    for (int i = 0; i < work->n_gates; i++) {
        gg_tt h;
        int q, s;
        local_tt(work, i, neg, f, &h);
        if (map_gate(&h, &sc->res, sub, &q, err))
            return -1;
        relax_lut(&work->gate[i], neg, sub, q);
        int map[3] = {sig[work->gate[i].in[0]], sig[work->gate[i].in[1]],
                      sig[work->gate[i].in[2]]};
        if (gg_net_append(out, sub, map, &s, err))
            return -1;
        /* constant where it matters: 0 as kept is x & ~x (q holds the
         * constant's value) */
        if (s == GG_SIG_CONST0 &&
            (s = gg_net_add(out, GG_OP_ANDNOT, 0, 0, 0, 0, err)) < 0)
            return -1;
        sig[ni + i] = s;
        neg[ni + i] = (uint8_t)q;
    }
    if (work->out[0] == GG_SIG_CONST0) {
        out->out[0] = GG_SIG_CONST0;
        out->out_neg[0] = work->out_neg[0];
    } else {
        out->out[0] = (uint16_t)sig[work->out[0]];
        out->out_neg[0] = (uint8_t)(neg[work->out[0]] ^ work->out_neg[0]);
    }
    gg_net_tidy(out);
    if (gg_net_check(out, 0, f, NULL))
        return gg_fail(err, "gate2 mapping of a LUT network is wrong; a bug "
                       "in sat/choose/lut_map.c");
    return 0;
}

int gg_lut3_to_gate2(const gg_net *lut, const gg_tt *f, gg_net *out,
                     gg_err *err)
{
    if (lut->n_outputs != 1 || lut->n_inputs != f->n_inputs ||
        !gg_net_in_lib(lut, GG_LIB_LUT3) || gg_net_check(lut, 0, f, NULL))
        return gg_fail(err, "gate2 mapping needs a one-output LUT3 network "
                       "over the table's %d inputs that computes it",
                       f->n_inputs);
    map_scratch *sc = gg_alloc(1, sizeof *sc, err, "gate2 mapping");
    if (!sc)
        return -1;
    int rc = map_net(lut, f, sc, out, err);
    free(sc);
    return rc;
}
