#include "choose_gen.h"

#include <stdlib.h>
#include <string.h>

#include "choose.h"
#include "cms.h"
#include "net_build.h"
#include "rule_gen.h"
#include "synth.h"

/* One output, minimal in gate2 when the work suffices: *proven says. */
static int synth_one(const gg_tt *t, gg_net *net, bool *proven, gg_err *err)
{
    gg_synth_result *res = gg_alloc(1, sizeof *res, err, "Generations stage");
    if (!res)
        return -1;
    gg_synth_opts o = {.lib = GG_LIB_GATE2,
                       .work_limit = GG_CHOOSE_WORK,
                       .time_limit = GG_CHOOSE_GUARD_SECONDS};
    int rc = gg_synth_run(t, &o, res, err);
    if (!rc) {
        *net = res->net;
        *proven = *proven && res->proven;
    }
    free(res);
    return rc;
}

/* Per-output networks: synthesized (or decision diagrams without the
 * solver). */
static int per_output(int states, gg_gen_nets *g, gg_err *err)
{
    if (!gg_sat_available())
        return gg_gen_nets_build(states, g, err);
    int q = gg_gen_planes(states);
    gg_net *outs = gg_alloc((size_t)q + 2, sizeof *outs, err,
                            "Generations stage");
    if (!outs)
        return -1;
    const gg_net *ptr[GG_GEN_NETS_MAX_PLANES + 1];
    bool proven = true;
    gg_tt t;
    int bad = 0;
    for (int o = 0; o <= q && !bad; o++) {
        gg_gen_post_tt(states, o, &t);
        bad = synth_one(&t, &outs[o], &proven, err);
        ptr[o] = &outs[o];
    }
    if (!bad) {
        gg_gen_alive_tt(states, &t);
        bad = synth_one(&t, &outs[q + 1], &proven, err);
    }
    if (!bad)
        bad = gg_gen_nets_assemble(states, ptr, &outs[q + 1], proven, g, err);
    free(outs);
    return bad;
}

int gg_choose_gen_nets(int states, gg_gen_nets *g, gg_err *err)
{
    gg_gen_nets *c = gg_alloc(1, sizeof *c, err, "Generations stage");
    if (!c)
        return -1;
    /* the cheaper of the counter and the per-output networks; a tie goes
     * to the synthesized ones (minimal per output) */
    int bad = gg_gen_nets_counter(states, c, err) ||
              per_output(states, g, err);
    if (!bad && gg_gen_nets_cost(c) < gg_gen_nets_cost(g))
        *g = *c;
    free(c);
    return bad;
}
