#include "cegar.h"

#include <string.h>

#include "kjob.h"

#define NEW_ROWS_PER_ROUND 8

/* Spreads the first rows over the table rather than taking one corner of
 * it: i times an odd constant modulo 2^n visits every row once. */
void gg_cegar_start(gg_enc *e, const gg_tt *f, int count)
{
    int rows = gg_tt_rows(f), added = 0;
    for (int i = 0; i < rows && added < count; i++) {
        int r = (int)(((unsigned)i * 2654435761u) & (unsigned)(rows - 1));
        if (gg_tt_get(f->care, r)) {
            gg_enc_add_row(e, r);
            added++;
        }
    }
}

/* Adds up to NEW_ROWS_PER_ROUND wrong rows; returns how many were wrong. */
static int add_wrong_rows(gg_enc *e, const gg_tt *f, const gg_net *net)
{
    gg_tt got;
    gg_net_output_tt(net, 0, &got);
    int wrong = 0;
    for (int w = 0; w < gg_tt_words(f); w++) {
        uint64_t bad = (got.on[w] ^ f->on[w]) & f->care[w] &
                       gg_tt_word_mask(f, w);
        for (; bad; bad &= bad - 1, wrong++)
            if (wrong < NEW_ROWS_PER_ROUND)
                gg_enc_add_row(e, w * 64 + __builtin_ctzll(bad));
    }
    return wrong;
}

gg_synth_status gg_cegar_solve(gg_enc *e, gg_sat *s, const gg_tt *f,
                               int init_rows, double deadline, gg_net *net)
{
    gg_cegar_start(e, f, init_rows);
    return gg_cegar_solve_assuming(e, s, f, NULL, 0, deadline, net);
}

gg_synth_status gg_cegar_solve_assuming(gg_enc *e, gg_sat *s, const gg_tt *f,
                                        const int *assume, int n,
                                        double deadline, gg_net *net)
{
    gg_err err;
    for (;;) {
        double budget = 0;
        if (deadline > 0) {
            budget = deadline - gg_kjob_now();
            if (budget <= 0)
                return GG_SYNTH_UNKNOWN;
        }
        gg_sat_result r = gg_sat_solve_assuming(s, assume, n, budget);
        if (r != GG_SAT_SAT)
            return r == GG_SAT_UNSAT ? GG_SYNTH_UNSAT : GG_SYNTH_UNKNOWN;
        if (gg_enc_decode(e, net, &err))
            return GG_SYNTH_UNKNOWN;
        if (add_wrong_rows(e, f, net) == 0)
            return GG_SYNTH_SAT;
    }
}
