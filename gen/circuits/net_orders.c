#include "net_orders.h"

#include <stdlib.h>
#include <string.h>

#include "net_build.h"
#include "net_resub.h"
#include "net_rewrite.h"
#include "net_sop.h"

/* t with input i moved to position perm[i]; free rows read as `dc`. */
static void permuted(const gg_tt *t, const int *perm, int dc, gg_tt *q)
{
    memset(q, 0, sizeof *q);
    q->n_inputs = t->n_inputs;
    for (int r = 0; r < gg_tt_rows(t); r++) {
        int nr = 0;
        for (int i = 0; i < t->n_inputs; i++)
            nr |= ((r >> i) & 1) << perm[i];
        int care = gg_tt_get(t->care, r);
        gg_tt_put(q->care, nr, care);
        gg_tt_put(q->on, nr, care ? gg_tt_get(t->on, r) : dc);
    }
}

/* net over q's inputs read back over t's (q's input perm[i] is t's i). */
static void unpermuted(gg_net *net, const int *perm)
{
    int to[GG_ORDERS_MAX_INPUTS];
    for (int i = 0; i < net->n_inputs; i++)
        to[perm[i]] = i;
    for (int g = 0; g < net->n_gates; g++)
        for (int k = 0; k < 3; k++)
            if (net->gate[g].in[k] < net->n_inputs)
                net->gate[g].in[k] = (uint16_t)to[net->gate[g].in[k]];
    for (int o = 0; o < net->n_outputs; o++)
        if (net->out[o] < net->n_inputs)
            net->out[o] = (uint16_t)to[net->out[o]];
}

/* The next order of a fixed sequence (a Fisher-Yates shuffle driven by
 * a 64-bit LCG: the same on every machine). */
static void next_order(uint64_t *seed, int n, int *perm)
{
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
        int j = (int)((*seed >> 33) % (uint64_t)(i + 1));
        int k = perm[i];
        perm[i] = perm[j];
        perm[j] = k;
    }
}

/* The smallest networks so far, smallest first (ties: the earlier). */
typedef struct shortlist {
    gg_net net[GG_ORDERS_KEEP];
    int n;
} shortlist;

/* cand resubstituted on t, into the shortlist when it is among the
 * smallest. */
static void consider(gg_net *cand, const gg_tt *t, shortlist *l)
{
    gg_err ignore;
    if (gg_net_resub(cand, t, 0, &ignore) < 0)
        return;
    int at = l->n;
    while (at > 0 && cand->n_gates < l->net[at - 1].n_gates)
        at--;
    if (at == GG_ORDERS_KEEP)
        return;
    int last = l->n < GG_ORDERS_KEEP ? l->n : GG_ORDERS_KEEP - 1;
    memmove(&l->net[at + 1], &l->net[at],
            sizeof *l->net * (size_t)(last - at));
    l->net[at] = *cand;
    l->n = last + 1;
}

int gg_net_build_orders(const gg_tt *t, int tries, gg_net *net, gg_err *err)
{
    if (t->n_inputs > GG_ORDERS_MAX_INPUTS)
        return gg_fail(err, "a table of %d inputs is more than the orders' "
                       "search takes (%d)", t->n_inputs,
                       GG_ORDERS_MAX_INPUTS);
    gg_tt *q = gg_alloc(1, sizeof *q, err, "table");
    gg_net *cand = gg_alloc(1, sizeof *cand, err, "network");
    shortlist *l = gg_alloc(1, sizeof *l, err, "networks");
    gg_err ignore; /* a candidate that cannot be built is left out */
    bool ok = q && cand && l;
    if (ok && gg_net_build_sop(t, cand, &ignore) == 0)
        consider(cand, t, l);
    uint64_t seed = 1;
    int perm[GG_ORDERS_MAX_INPUTS];
    for (int i = 0; ok && i < (tries > 0 ? tries : GG_ORDERS_TRIES); i++) {
        next_order(&seed, t->n_inputs, perm);
        for (int dc = 0; dc < 2; dc++) {
            permuted(t, perm, dc, q);
            if (gg_net_build_from_tt(q, GG_LIB_LUT3, cand, &ignore))
                continue;
            unpermuted(cand, perm);
            consider(cand, t, l);
        }
    }
    /* the shortlist rewritten: the smallest after that wins */
    for (int i = 0; ok && i < l->n; i++) {
        gg_net_rewrite(&l->net[i], t, &ignore);
        if (i == 0 || l->net[i].n_gates < net->n_gates)
            *net = l->net[i];
    }
    ok = ok && l->n > 0;
    free(q);
    free(cand);
    free(l);
    if (!ok)
        return gg_fail(err, "no network could be built for a table of "
                       "%d inputs", t->n_inputs);
    return 0;
}
