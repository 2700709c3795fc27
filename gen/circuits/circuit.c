#include "circuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gg_circuit_prepare(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                       gg_circuit *c, gg_tt *final_tt, gg_err *err)
{
    memset(c, 0, sizeof *c);
    c->rule = *rule;
    c->lib = lib;
    return gg_front_build_lib(rule, front, lib, &c->front, err) ||
                   gg_front_final_tt(rule, &c->front, final_tt, err)
               ? -1
               : 0;
}

int gg_circuit_check(const gg_circuit *c, int *first_bad)
{
    gg_tt want;
    gg_tt_from_rule(&c->rule, &want);
    uint64_t in[GG_NET_MAX_OUTPUTS], mid[GG_NET_MAX_OUTPUTS], out[1];
    int wrong = 0;
    *first_bad = -1;
    for (int w = 0; w < gg_tt_words(&want); w++) {
        for (int i = 0; i < want.n_inputs; i++)
            in[i] = gg_tt_input_word(i, w * 64);
        gg_net_eval64(&c->front.net, in, mid);
        gg_net_eval64(&c->final, mid, out);
        uint64_t bad = (out[0] ^ want.on[w]) & gg_tt_word_mask(&want, w);
        if (bad && *first_bad < 0)
            *first_bad = w * 64 + __builtin_ctzll(bad);
        wrong += __builtin_popcountll(bad);
    }
    return wrong;
}

int gg_circuit_gates_per_word(const gg_circuit *c)
{
    return c->front.gates_per_word + c->final.n_gates;
}

int gg_circuit_shifts_per_word(const gg_circuit *c)
{
    (void)c;
    return 2;
}
