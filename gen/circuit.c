#include "circuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adder.h"
#include "cache.h"
#include "lut_map.h"
#include "net_build.h"
#include "synth.h"

/* cand replaces the best network when it costs less. */
static void take(gg_net *best, char *source, gg_lib lib, const gg_net *cand,
                 const char *from)
{
    if (gg_synth_cost(cand, lib) >= gg_synth_cost(best, lib))
        return;
    *best = *cand;
    snprintf(source, GG_CIRCUIT_SOURCE_MAX, "%s", from);
}

/* GG_CIRCUIT_ADDER_WORK, or $GOLGEN_FALLBACK_WORK: a whole number from 1
 * to 10^12 and nothing else (strtoull alone would take "-1" as 2^64-1,
 * leaving only the time guard, which depends on the machine again). */
static int fallback_work(uint64_t *work, gg_err *err)
{
    const char *e = getenv("GOLGEN_FALLBACK_WORK");
    *work = GG_CIRCUIT_ADDER_WORK;
    if (!e || !*e)
        return 0;
    uint64_t w = 0;
    const char *s = e;
    for (; *s >= '0' && *s <= '9' && w <= 1000000000000ull; s++)
        w = w * 10 + (uint64_t)(*s - '0');
    if (*s || w < 1 || w > 1000000000000ull)
        return gg_fail(err, "GOLGEN_FALLBACK_WORK='%s' is not a whole number "
                       "from 1 to 10^12; unset it (default %d) or give e.g. "
                       "30000", e, GG_CIRCUIT_ADDER_WORK);
    *work = w;
    return 0;
}

/* No cache entry: networks far smaller than the decision diagram, each
 * verified where it is built, within a fraction of a second. The adder
 * tree: Diehard B35678/S5678 in 7 LUTs against the diagram's 33 (its rest
 * is solved exactly, or without the solver built in is a diagram itself).
 * For gate2 also a LUT network (the cache's, else the adder tree's)
 * mapped LUT by LUT: Day & Night 20 gates against the gate2 adder
 * tree's 36. */
static void improve_fallback(const gg_rule *rule, gg_front_kind front,
                             gg_lib lib, const gg_front *f, const gg_tt *t,
                             uint64_t work, gg_net *best, char *source)
{
    static gg_net cand, lut;
    gg_err ignore;
    if (gg_adder_net_repro(f, t, lib, work,
                           GG_CIRCUIT_ADDER_SECONDS, &cand, &ignore) == 0)
        take(best, source, lib, &cand, "the adder tree");
    if (lib != GG_LIB_GATE2)
        return;
    bool have = gg_cache_lookup(NULL, rule, front, GG_LIB_LUT3, &lut, NULL,
                                &ignore) == 1 ||
                gg_adder_net_repro(f, t, GG_LIB_LUT3, work,
                                   GG_CIRCUIT_ADDER_SECONDS, &lut,
                                   &ignore) == 0;
    if (have && gg_lut3_to_gate2(&lut, t, &cand, &ignore) == 0)
        take(best, source, lib, &cand, "LUTs mapped to gates");
}

int gg_circuit_fallback(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                        const gg_front *f, const gg_tt *final_tt, gg_net *out,
                        char *source, gg_err *err)
{
    uint64_t work;
    if (fallback_work(&work, err) ||
        gg_net_build_from_tt(final_tt, lib, out, err))
        return -1;
    snprintf(source, GG_CIRCUIT_SOURCE_MAX, "decision diagram");
    improve_fallback(rule, front, lib, f, final_tt, work, out, source);
    return 0;
}

int gg_circuit_build(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                     gg_circuit *c, gg_err *err)
{
    memset(c, 0, sizeof *c);
    c->rule = *rule;
    c->lib = lib;
    gg_tt final_tt;
    gg_cache_info info;
    if (gg_front_build_lib(rule, front, lib, &c->front, err) ||
        gg_front_final_tt(rule, &c->front, &final_tt, err))
        return -1;
    int found = gg_cache_lookup(NULL, rule, front, lib, &c->final, &info, err);
    if (found < 0)
        return -1;
    if (found) {
        c->cached = true;
        c->proven = info.proven;
        c->lower_bound = info.lower_bound;
        snprintf(c->search, sizeof c->search, "%s", info.search);
        snprintf(c->source, sizeof c->source, "the SAT network cache");
        return 0;
    }
    return gg_circuit_fallback(rule, front, lib, &c->front, &final_tt,
                               &c->final, c->source, err);
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
