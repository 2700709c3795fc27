/* golgen_verify (include/golgen.h): a rule's circuit, as its kernel gets
 * it, against the rule's exhaustive truth table: 2D rules (front end and
 * final stage; a Generations rule's per-cell stage after it) and 3D
 * rules (the final stage over the neighbour count). What `golgen verify`
 * does; the command prints the result (cli/cmd_verify.c). */
#include "golgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "choose_gen.h"
#include "cpu3d.h"
#include "emit_c3d.h"
#include "net_common.h"
#include "rule3d.h"
#include "rule_gen.h"

/* Whether the final stage gives what the rule says for every count of
 * live neighbours and centre, fed the bits the kernel feeds it: Moore's
 * kernels sum the 27 cells, centre included (gen/emit/emit_c3d.h).
 * Returns the rows checked; *wrong: the first wrong count (+ 100 for a
 * live centre), or -1. */
static int check_counts(const gg_rule3d *rule, const gg_net *net,
                        int *wrong)
{
    int nb = gg_c3d_count_bits(rule), rows = 0;
    *wrong = -1;
    for (int centre = 0; centre < 2; centre++)
        for (int n = 0; n <= rule->n_neighbours; n++, rows++) {
            uint64_t in[GG_TT_MAX_INPUTS] = {0}, out[GG_NET_MAX_OUTPUTS];
            int sum = rule->nbhd == GG_NBHD3D_MOORE ? n + centre : n;
            for (int i = 0; i < nb; i++)
                in[i] = (sum >> i & 1) ? ~0ull : 0;
            in[nb] = centre ? ~0ull : 0;
            gg_net_eval64(net, in, out);
            uint32_t mask = centre ? rule->survive : rule->birth;
            if ((int)(out[0] & 1) != (int)(mask >> n & 1) && *wrong < 0)
                *wrong = n + centre * 100;
        }
    return rows;
}

static int verify3d(const char *text, golgen_verify_result *r, gg_err *err)
{
    gg_rule3d rule;
    if (gg_rule3d_parse(text, &rule, err))
        return GOLGEN_ERR_INPUT;
    gg_net *net = gg_alloc(1, sizeof *net, err, "3D network");
    if (!net || gg_cpu3d_choose_final(&rule, net, r->source,
                                      sizeof r->source, err)) {
        free(net);
        return GOLGEN_ERR_CHECK;
    }
    r->dims = 3;
    gg_rule3d_format_transition(&rule, r->rule, sizeof r->rule);
    r->neighbours = rule.n_neighbours;
    gg_lib_gates(net, &r->final_gates);
    r->count_bits = gg_c3d_count_bits(&rule);
    r->rows = check_counts(&rule, net, &r->first_bad);
    r->wrong = r->first_bad >= 0;
    r->passed = !r->wrong;
    free(net);
    return GOLGEN_OK;
}

/* A Generations rule's per-cell stage (gen/circuits/gen_nets.h), built as
 * a kernel builds it (and checked by gg_choose_gen_nets on every (state,
 * two-state output) pair). A failure is the result's, after the two-state
 * part. */
static void gen_stage(int states, golgen_verify_result *r)
{
    gg_err err;
    gg_gen_nets *g = gg_alloc(1, sizeof *g, &err, "Generations stage");
    r->states = states;
    if (!g || gg_choose_gen_nets(states, g, &err)) {
        r->gen_status = g ? GOLGEN_ERR_CHECK : GOLGEN_ERR_ENV;
        snprintf(r->gen_error, sizeof r->gen_error, "%s", err.msg);
        r->passed = 0;
        free(g);
        return;
    }
    r->planes = g->planes;
    r->gen_proven = g->proven;
    r->gen_alive_shown = !g->a_is_p0;
    gg_lib_gates(&g->alive, &r->alive_gates);
    gg_lib_gates(&g->post, &r->next_gates);
    free(g);
}

static void describe(const gg_circuit *c, const char *cache_root,
                     golgen_verify_result *r)
{
    gg_rule_format_transition(&c->rule, r->rule, sizeof r->rule);
    snprintf(r->front, sizeof r->front, "%s", gg_front_name(c->front.kind));
    snprintf(r->lib, sizeof r->lib, "%s", gg_lib_name(c->lib));
    snprintf(r->source, sizeof r->source, "%s", c->source);
    r->proven = c->proven;
    r->cached = c->cached;
    if (c->cached) {
        gg_cache_path(cache_root, &c->rule, c->front.kind, c->lib,
                      r->cache_path, sizeof r->cache_path);
        r->lower_bound = c->lower_bound;
        snprintf(r->search, sizeof r->search, "%s", c->search);
    }
    /* rowsum+cells is composed, not searched: synth works on the cells'
     * network */
    snprintf(r->synth_front, sizeof r->synth_front, "%s",
             gg_front_name(c->front.kind == GG_FRONT_ROWSUM_CELLS
                               ? GG_FRONT_NONE
                               : c->front.kind));
    gg_lib_gates(&c->front.net, &r->front_gates);
    gg_lib_gates(&c->final, &r->final_gates);
    r->front_per_word = c->front.gates_per_word;
    r->rows_shared = c->front.rows_shared;
    r->ops_per_word = gg_circuit_gates_per_word(c);
    r->shifts_per_word = gg_circuit_shifts_per_word(c);
}

static int verify2d(const char *text, const golgen_verify_opts *o,
                    golgen_verify_result *r, gg_err *err)
{
    gg_rule rule;
    gg_front_kind front;
    gg_lib lib;
    gg_config cfg; /* choose points into it */
    gg_choose_opts choose;
    gg_lib_search_hook hook = {o->on_search, o->search_ctx};
    if (gg_rule_parse(text, &rule, err))
        return GOLGEN_ERR_INPUT;
    /* a Generations rule: its two-state rule's circuit, then the stage */
    int states = gg_rule_is_generations(&rule) ? rule.states : 0;
    rule = gg_gen_two_state(&rule);
    if (gg_lib_front(o->front, &rule, &front, err) ||
        gg_lib_parse(o->lib ? o->lib : "lut3", &lib, err) ||
        gg_lib_choose_opts(o->cache_root, &hook, &cfg, &choose, err))
        return GOLGEN_ERR_INPUT;
    gg_circuit *c = gg_alloc(1, sizeof *c, err, "circuit");
    if (!c)
        return GOLGEN_ERR_ENV;
    int rc = GOLGEN_OK;
    if (gg_choose_circuit(&rule, front, lib, &choose, c, err)) {
        /* a cached network that fails its check is a failed check */
        gg_net *net = gg_alloc(1, sizeof *net, &(gg_err){{0}}, "network");
        gg_err ignore;
        rc = net && gg_cache_lookup(choose.cache_root, &rule, front, lib, net,
                                    NULL, &ignore) < 0
                 ? GOLGEN_ERR_CHECK
                 : GOLGEN_ERR_INPUT;
        free(net);
    }
    /* without a front, the circuit a kernel gets (a Hensel rule's may be
     * totalistic + correction) */
    else if (!o->front && gg_choose_try_split(&rule, lib, &choose, c, err))
        rc = GOLGEN_ERR_CHECK;
    if (!rc) {
        describe(c, choose.cache_root, r);
        r->dims = 2;
        r->neighbours = rule.n_neighbours;
        r->rows = 1 << (rule.n_neighbours + 1);
        r->wrong = gg_circuit_check(c, &r->first_bad);
        r->passed = !r->wrong;
        if (states > 2 && r->passed)
            gen_stage(states, r);
    }
    free(c);
    return rc;
}

int golgen_verify(const char *rule, const golgen_verify_opts *opts,
                  golgen_verify_result **res, char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    golgen_verify_opts none = {0};
    if (errbuf && errlen)
        errbuf[0] = 0;
    if (!rule || !res)
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"rule or res is NULL"},
                           errbuf, errlen);
    *res = NULL;
    golgen_verify_result *r = gg_alloc(1, sizeof *r, &err, "verify result");
    if (!r)
        return gg_lib_fail(GOLGEN_ERR_ENV, &err, errbuf, errlen);
    r->first_bad = -1;
    int rc = gg_rule3d_is_3d(rule) ? verify3d(rule, r, &err)
                                   : verify2d(rule, opts ? opts : &none, r,
                                              &err);
    if (rc) {
        free(r);
        return gg_lib_fail(rc, &err, errbuf, errlen);
    }
    *res = r;
    return GOLGEN_OK;
}

void golgen_verify_free(golgen_verify_result *r)
{
    free(r);
}
