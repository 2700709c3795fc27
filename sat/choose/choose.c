#include "choose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adder.h"
#include "cache.h"
#include "choose_resub.h"
#include "lut_map.h"
#include "net_build.h"
#include "net_rowdd.h"
#include "cms.h"
#include "synth.h"

static const gg_choose_opts defaults = {0};

static uint64_t work_of(const gg_choose_opts *o)
{
    return o->work ? o->work : GG_CHOOSE_WORK;
}

/* The next free slot of s, or NULL when it is full. */
static gg_net *slot(gg_choose_set *s)
{
    return s->n < GG_CHOOSE_MAX ? &s->net[s->n] : NULL;
}

static void keep(gg_choose_set *s, const char *from)
{
    s->from[s->n++] = from;
}

/* The adder tree for lib: within wall seconds when the budget gives them
 * (synth), else within solver work (the same network on every machine). */
static int adder_within(const gg_front *f, const gg_tt *t, gg_lib lib,
                        const gg_choose_opts *o, const gg_choose_budget *b,
                        gg_net *out)
{
    gg_err ignore;
    if (b->seconds > 0)
        return gg_adder_net(f, t, lib, b->seconds, b->beat, b->cancel, out,
                            &ignore);
    return gg_adder_net_repro(f, t, lib, b->work ? b->work : work_of(o),
                              GG_CHOOSE_GUARD_SECONDS, out, &ignore);
}

/* The LUT3 skeleton a gate2 network is mapped from: the cache's entry,
 * else the adder tree's within solver work. A rejected cache entry is left
 * to the lookups that build the kernel's own circuit to report. */
static bool lut3_skeleton(const gg_rule *rule, gg_front_kind front,
                          const gg_front *f, const gg_tt *t,
                          const gg_choose_opts *o, gg_net *lut)
{
    gg_err ignore;
    return gg_cache_lookup(o->cache_root, rule, front, GG_LIB_LUT3, lut, NULL,
                           &ignore) == 1 ||
           gg_adder_net_repro(f, t, GG_LIB_LUT3, work_of(o),
                              GG_CHOOSE_GUARD_SECONDS, lut, &ignore) == 0;
}

/* A LUT3 network mapped gate by gate: Day & Night 20 gates against the
 * gate2 adder tree's 36. */
static int add_mapped(const gg_rule *rule, gg_front_kind front,
                      const gg_front *f, const gg_tt *t,
                      const gg_choose_opts *o, gg_choose_set *s, gg_err *err)
{
    gg_net *lut = gg_alloc(1, sizeof *lut, err, "network");
    if (!lut)
        return -1;
    gg_err ignore;
    gg_net *out = slot(s);
    if (out && lut3_skeleton(rule, front, f, t, o, lut) &&
        gg_lut3_to_gate2(lut, t, out, &ignore) == 0)
        keep(s, "LUTs mapped to gates");
    free(lut);
    return 0;
}

/* A 3x3 table (front none): the decision diagram over cells and pairs
 * of cells, resubstituted (gen/circuits/net_rowdd.h), a random isotropic
 * rule's in about 55 LUTs against the plain diagram's 122; for gate2
 * mapped gate by gate (with the solver). */
static int add_rowdd(const gg_tt *t, gg_lib lib, gg_choose_set *s,
                     gg_err *err)
{
    gg_net *out = slot(s), *lut = gg_alloc(1, sizeof *lut, err, "network");
    gg_err ignore;
    int rc = lut ? 0 : -1;
    if (lut && out && t->n_inputs == 9) {
        rc = gg_net_build_rowdd(t, 0, lut, err);
        if (!rc && lib == GG_LIB_LUT3) {
            *out = *lut;
            keep(s, "row decision diagram");
        } else if (!rc && gg_sat_available() &&
                   gg_lut3_to_gate2(lut, t, out, &ignore) == 0) {
            keep(s, "row decision diagram mapped to gates");
        }
    }
    free(lut);
    return rc < 0 ? -1 : 0;
}

int gg_choose_candidates(const gg_rule *rule, gg_front_kind front,
                         gg_lib lib, const gg_front *f, const gg_tt *t,
                         const gg_choose_opts *o, const gg_choose_budget *b,
                         gg_choose_set *s, gg_err *err)
{
    o = o ? o : &defaults;
    gg_net *out = slot(s);
    if (b->diagram && out) {
        if (gg_net_build_from_tt(t, lib, out, err))
            return -1;
        keep(s, "decision diagram");
    }
    if (b->diagram && add_rowdd(t, lib, s, err))
        return -1;
    /* the adder tree: Diehard B35678/S5678 in 7 LUTs against the
     * diagram's 33 */
    if ((out = slot(s)) && adder_within(f, t, lib, o, b, out) == 0)
        keep(s, "the adder tree");
    if (lib == GG_LIB_GATE2 && add_mapped(rule, front, f, t, o, s, err))
        return -1;
    /* without the solver the adder tree's rest is a decision diagram:
     * uncached Life's 15 LUTs come out at 10 (its proven minimum is 6),
     * B3/S23V's 12 over the cells at 5 */
    for (int i = 0; i < s->n; i++)
        gg_choose_resub_final(&s->net[i], t);
    return s->n ? 0 : gg_fail(err, "no network could be built for this "
                              "final stage");
}

int gg_choose_cheapest(const gg_choose_set *s, gg_lib lib)
{
    int best = -1;
    for (int i = 0; i < s->n; i++)
        if (best < 0 ||
            gg_synth_cost(&s->net[i], lib) < gg_synth_cost(&s->net[best], lib))
            best = i;
    return best;
}

int gg_choose_fallback(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                       const gg_front *f, const gg_tt *t,
                       const gg_choose_opts *o, gg_net *out, char *source,
                       gg_err *err)
{
    gg_choose_set *s = gg_alloc(1, sizeof *s, err, "candidate networks");
    if (!s)
        return -1;
    gg_choose_budget b = {.diagram = true};
    int bad = gg_choose_candidates(rule, front, lib, f, t, o, &b, s, err);
    if (!bad) {
        int best = gg_choose_cheapest(s, lib);
        *out = s->net[best];
        snprintf(source, GG_CIRCUIT_SOURCE_MAX, "%s", s->from[best]);
    }
    free(s);
    return bad ? -1 : 0;
}

/* The folder of kept fallback networks for o (see gg_choose_circuit): 0
 * and buf filled, or -1 when none is kept. */
static int kept_folder(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                       const gg_choose_opts *o, char *buf, size_t size)
{
    gg_net skeleton;
    gg_err ignore;
    if (!o->kept_root || !*o->kept_root)
        return -1;
    if (lib == GG_LIB_GATE2 &&
        gg_cache_lookup(o->cache_root, rule, front, GG_LIB_LUT3, &skeleton,
                        NULL, &ignore) != 0)
        return -1;
    int n = snprintf(buf, size, "%s/fallback-v%d-work%llu", o->kept_root,
                     GG_CHOOSE_FALLBACK_VERSION,
                     (unsigned long long)work_of(o));
    return n > 0 && (size_t)n < size ? 0 : -1;
}

/* o's search hook, when it has one: a search of seconds is otherwise a
 * silent wait for whoever runs a new rule. */
static void tell_search(const gg_choose_opts *o, const gg_rule *rule,
                        gg_front_kind front, gg_lib lib, bool begin,
                        bool kept)
{
    gg_choose_search s = {rule, front, lib, begin, kept};
    if (o->on_search)
        o->on_search(o->on_search_ctx, &s);
}

/* The fallback into c, from the kept networks when they hold it; a new
 * one is kept there (a failure to keep it changes nothing). */
static int fallback_kept(const gg_rule *rule, gg_front_kind front,
                         gg_lib lib, const gg_tt *final_tt,
                         const gg_choose_opts *o, gg_circuit *c, gg_err *err)
{
    char root[4200];
    gg_cache_info info;
    gg_err ignore;
    bool keep = kept_folder(rule, front, lib, o, root, sizeof root) == 0;
    if (keep && gg_cache_lookup(root, rule, front, lib, &c->final, &info,
                                &ignore) == 1 &&
        info.search[0] && strlen(info.search) < sizeof c->source) {
        memcpy(c->source, info.search, strlen(info.search) + 1);
        return 0;
    }
    tell_search(o, rule, front, lib, true, keep);
    int bad = gg_choose_fallback(rule, front, lib, &c->front, final_tt, o,
                                 &c->final, c->source, err);
    tell_search(o, rule, front, lib, false, keep);
    if (bad)
        return -1;
    if (keep) {
        gg_cache_info mine = {.gates = c->final.n_gates};
        snprintf(mine.search, sizeof mine.search, "%s", c->source);
        gg_cache_store(root, rule, front, lib, &c->final, &mine, &ignore);
    }
    return 0;
}

int gg_choose_circuit(const gg_rule *given, gg_front_kind front, gg_lib lib,
                      const gg_choose_opts *o, gg_circuit *c, gg_err *err)
{
    o = o ? o : &defaults;
    /* a MAP or Hensel rule that is totalistic after all gets its
     * totalistic twin's cache entry and fallback */
    gg_rule view = gg_rule_totalistic_view(given);
    const gg_rule *rule = &view;
    gg_tt final_tt;
    if (gg_circuit_prepare(rule, front, lib, c, &final_tt, err))
        return -1;
    gg_cache_info info;
    int found = gg_cache_lookup(o->cache_root, rule, front, lib, &c->final,
                                &info, err);
    if (found < 0)
        return -1;
    if (!found)
        return fallback_kept(rule, front, lib, &final_tt, o, c, err);
    c->cached = true;
    c->proven = info.proven;
    c->lower_bound = info.lower_bound;
    snprintf(c->search, sizeof c->search, "%s", info.search);
    snprintf(c->source, sizeof c->source, "the SAT network cache");
    return 0;
}

/* c checked on every neighbourhood before anything emits it. */
static int checked(const gg_circuit *c, const char *what, gg_err *err)
{
    int bad_row;
    if (gg_circuit_check(c, &bad_row))
        return gg_fail(err, "the %s circuit for this rule is wrong on "
                       "neighbourhood %d; refusing to emit it", what,
                       bad_row);
    return 0;
}

/* A composed final stage (front rowsum+cells) stored by `golgen synth
 * --front rowsum+cells` under root (the cache's, else o's kept networks:
 * kept): 1 with s filled, 0 none, -1 a damaged cache entry (a damaged
 * kept file is only a copy: 0). A machine without the solver gets the
 * gated correction this way (its own parts would be decision diagrams,
 * about twice as many gates). */
static int cached_composed(const gg_rule *rule, gg_lib lib, const char *root,
                           bool kept, gg_circuit *s, gg_err *err)
{
    gg_cache_info info;
    gg_err ignore;
    memset(s, 0, sizeof *s);
    s->rule = *rule;
    s->lib = lib;
    int found = gg_front_build_lib(rule, GG_FRONT_ROWSUM_CELLS, lib,
                                   &s->front, err)
                    ? -1
                    : gg_cache_lookup(root, rule, GG_FRONT_ROWSUM_CELLS, lib,
                                      &s->final, &info,
                                      kept ? &ignore : err);
    if (kept)
        return found == 1 && info.search[0] &&
                       strlen(info.search) < sizeof s->source
                   ? (memcpy(s->source, info.search, strlen(info.search) + 1),
                      1)
                   : 0;
    if (found == 1) {
        s->cached = true;
        s->lower_bound = info.lower_bound;
        snprintf(s->search, sizeof s->search, "%s", info.search);
        snprintf(s->source, sizeof s->source, "the SAT network cache");
    }
    return found;
}

/* The composed search into s, kept under o's kept networks (whether it
 * beats c or not: the next run then compares the same two in no time). */
static int composed_kept(const gg_rule *rule, gg_lib lib,
                         const gg_choose_opts *o, const gg_circuit *c,
                         gg_circuit *s, gg_err *err)
{
    char root[4200];
    gg_err ignore;
    bool keep = kept_folder(rule, GG_FRONT_ROWSUM_CELLS, lib, o, root,
                            sizeof root) == 0;
    if (keep && cached_composed(rule, lib, root, true, s, err) == 1)
        return 1;
    tell_search(o, rule, GG_FRONT_ROWSUM_CELLS, lib, true, keep);
    int bad = gg_choose_composed_circuit(rule, lib, o,
                                         gg_circuit_gates_per_word(c), s,
                                         err);
    tell_search(o, rule, GG_FRONT_ROWSUM_CELLS, lib, false, keep);
    if (bad)
        return -1;
    if (keep) {
        gg_cache_info mine = {.gates = s->final.n_gates};
        snprintf(mine.search, sizeof mine.search, "%s", s->source);
        gg_cache_store(root, rule, GG_FRONT_ROWSUM_CELLS, lib, &s->final,
                       &mine, &ignore);
    }
    return 1;
}

int gg_choose_try_split(const gg_rule *rule, gg_lib lib,
                        const gg_choose_opts *o, gg_circuit *c, gg_err *err)
{
    if (rule->nbhd != GG_NBHD_MOORE || gg_rule_is_totalistic(rule))
        return 0;
    gg_circuit *s = gg_alloc(1, sizeof *s, err, "circuit");
    if (!s)
        return -1;
    o = o ? o : &defaults;
    int found = cached_composed(rule, lib, o->cache_root, false, s, err);
    if (!found)
        found = composed_kept(rule, lib, o, c, s, err);
    if (found == 1 &&
        gg_circuit_gates_per_word(s) < gg_circuit_gates_per_word(c))
        *c = *s;
    free(s);
    return found < 0 ? -1 : 0;
}

int gg_choose_composed_circuit(const gg_rule *rule, gg_lib lib,
                               const gg_choose_opts *o, int beat,
                               gg_circuit *c, gg_err *err)
{
    gg_circuit *s = gg_alloc(1, sizeof *s, err, "circuit");
    if (!s || gg_choose_split_circuit(rule, lib, o, c, err)) {
        free(s);
        return -1;
    }
    if (beat <= 0 || gg_circuit_gates_per_word(c) < beat)
        beat = gg_circuit_gates_per_word(c);
    int gated = gg_choose_gated_circuit(rule, lib, o, beat, s, err);
    if (gated == 0 &&
        gg_circuit_gates_per_word(s) < gg_circuit_gates_per_word(c))
        *c = *s;
    int classes = gated < 0 ? 1
                            : gg_choose_count23_circuit(
                                  rule, lib, o, gg_circuit_gates_per_word(c),
                                  s, err);
    if (classes == 0 &&
        gg_circuit_gates_per_word(s) < gg_circuit_gates_per_word(c))
        *c = *s;
    free(s);
    return gated < 0 || classes < 0 ? -1 : 0;
}

int gg_choose_kernel_circuit(const gg_rule *rule, gg_lib lib,
                             const gg_choose_opts *o, gg_circuit *c,
                             gg_err *err)
{
    o = o ? o : &defaults;
    return gg_choose_circuit(rule, gg_front_for_rule(rule), lib, o, c,
                             err) ||
                   gg_choose_try_split(rule, lib, o, c, err) ||
                   checked(c, gg_lib_name(lib), err)
               ? -1
               : 0;
}

/* The rowsum-lr front (middle row's W and E apart: 2 row gates + its final
 * stage) replaces c when the cache holds a network for it that costs fewer
 * gates per word, or when o forces it (then, without a cache entry, with
 * the fallback's final stage). */
static int gpu_front_lr(const gg_rule *rule, const gg_choose_opts *o,
                        gg_circuit *c, gg_err *err)
{
    bool force = o->gpu_front == GG_GPU_FRONT_ROWSUM_LR;
    if (o->gpu_front == GG_GPU_FRONT_ROWSUM || rule->nbhd != GG_NBHD_MOORE ||
        !gg_rule_is_totalistic(rule))
        return 0;
    gg_net *net = gg_alloc(1, sizeof *net, err, "network");
    if (!net)
        return -1;
    int found = gg_cache_lookup(o->cache_root, rule, GG_FRONT_ROWSUM_LR,
                                GG_LIB_LUT3, net, NULL, err);
    bool take = found > 0 && net->n_gates < c->final.n_gates;
    free(net);
    if (found < 0)
        return -1;
    if (!force && !take)
        return 0;
    gg_circuit *lr = gg_alloc(1, sizeof *lr, err, "circuit");
    if (!lr)
        return -1;
    int bad = gg_choose_circuit(rule, GG_FRONT_ROWSUM_LR, GG_LIB_LUT3, o, lr,
                                err) ||
              checked(lr, "rowsum-lr", err);
    if (!bad)
        *c = *lr;
    free(lr);
    return bad ? -1 : 0;
}

int gg_choose_gpu_circuit(const gg_rule *given, const gg_choose_opts *o,
                          gg_circuit *c, gg_err *err)
{
    o = o ? o : &defaults;
    gg_rule rule = gg_rule_totalistic_view(given);
    return gg_choose_kernel_circuit(&rule, GG_LIB_LUT3, o, c, err) ||
                   gpu_front_lr(&rule, o, c, err)
               ? -1
               : 0;
}
