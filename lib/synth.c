/* golgen_synth (include/golgen.h): the fewest gates for a rule's final
 * stage, from the network cache or from the SAT solver (which then fills
 * the cache). What `golgen synth` does; the command parses, prints and
 * catches signals (cli/cmd_synth.c). Progress lines go to stderr only when
 * the caller asks (the solver's own per-k lines are written there by
 * sat/exact/synth.c). */
#include "golgen.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "kjob.h"
#include "net_common.h"
#include "net_text.h"
#include "resynth.h"
#include "shape_prior.h"
#include "synth.h"
#include "synth_team.h"

/* The stop flag is the solvers' cancel flag: one type on this platform. */
_Static_assert(sizeof(sig_atomic_t) == sizeof(int),
               "golgen_synth_opts.stop is read as a sig_atomic_t");

_Static_assert(GOLGEN_SYNTH_MAX_GATES == GG_ENC_MAX_GATES,
               "include/golgen.h says the solver's most gates");
_Static_assert(GOLGEN_SYNTH_MAX_K >= GG_SYNTH_MAX_STEPS,
               "golgen_synth_result.per_k holds every step");

enum { OK, BAD_INPUT, BAD_CHECK, BAD_ENV };

/* One call's state: the options turned into the solver's, and what the
 * run produced. */
typedef struct job {
    gg_synth_opts opts;
    gg_config cfg; /* choose points into it (the kept networks' folder) */
    gg_choose_opts choose;
    gg_lib_search_hook hook;
    bool force, no_store, resume, progress;
    double resynth_time;
    int resynth_leaves;
    double t0;
    volatile sig_atomic_t *cancel;
    volatile sig_atomic_t never; /* the cancel flag when none is given */
    const golgen_synth_team *team;
    bool shared; /* the lead told the team whether to search */
    /* the outcome */
    gg_net net;
    gg_cache_info info;
    bool cached, exact;
    const char *start;  /* where the search's first network came from */
    gg_synth_result res; /* solver runs only */
} job;

void golgen_synth_defaults(golgen_synth_opts *o)
{
    memset(o, 0, sizeof *o);
    o->time_limit = 600;
    o->resynth_time = 10;
    o->resynth_leaves = 6;
}

int golgen_solver_available(const char *name)
{
    if (!name || !strcmp(name, "any"))
        return gg_sat_available();
    if (!strcmp(name, "cms"))
        return gg_sat_kind_available(GG_SAT_CMS);
    if (!strcmp(name, "cadical"))
        return gg_sat_kind_available(GG_SAT_CADICAL);
    return 0;
}

static void search_log(const gg_synth_result *r, char *buf, size_t size)
{
    static const char *const names[] = {"UNSAT", "SAT", "unknown"};
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < r->n_k && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%sk%d:%s:%.2fs",
                                i ? " " : "", r->per_k[i].k,
                                names[r->per_k[i].status], r->per_k[i].seconds);
}

/* The old entry's log steps for the k below this run's first one (a run
 * that starts at the cached lower bound would otherwise drop the steps
 * that proved it), then this run's steps. */
static void merge_search(const char *old, const char *now, char *out,
                         size_t size)
{
    int first = now[0] == 'k' ? atoi(now + 1) : 1 << 30;
    size_t len = 0;
    out[0] = 0;
    for (const char *p = old; *p;) {
        size_t n = strcspn(p, " ");
        if (*p == 'k' && atoi(p + 1) < first && len + n + 1 < size) {
            memcpy(out + len, p, n);
            len += n;
            out[len++] = ' ';
        }
        p += n + (p[n] == ' ');
    }
    snprintf(out + len, size - len, "%s", now);
    len = strlen(out);
    if (len > 0 && out[len - 1] == ' ') /* this run searched no k */
        out[len - 1] = 0;
}

/* Shapes of the open k shown impossible: how far an unproven entry got
 * beyond its lower bound. */
static int progress_of(const gg_cache_info *info)
{
    return info->proof.k == info->lower_bound ? gg_proof_count(&info->proof)
                                              : 0;
}

/* Stores a new result unless the cache already holds one at least as
 * good: fewer gates, or as few and proven, or as few, neither proven and
 * a lower bound at least as high and, at an equal bound, at least as many
 * shapes of the next k shown impossible (a run that settles one more k,
 * or part of one, keeps that even when its network is the cached one). */
static int store(const job *j, const gg_rule *rule, gg_front_kind front,
                 gg_lib lib, gg_err *err)
{
    gg_net old;
    gg_cache_info info, keep = j->info;
    gg_err ignore;
    if (j->no_store)
        return 0;
    int have = gg_cache_lookup(j->choose.cache_root, rule, front, lib, &old,
                               &info, &ignore);
    if (have == 1) {
        int was = gg_synth_cost(&old, lib), now = gg_synth_cost(&j->net, lib);
        if (was < now || (was == now && info.proven))
            return 0;
        if (was == now && !j->info.proven &&
            (info.lower_bound > j->info.lower_bound ||
             (info.lower_bound == j->info.lower_bound &&
              progress_of(&info) >= progress_of(&j->info))))
            return 0;
        merge_search(info.search, j->info.search, keep.search,
                     sizeof keep.search);
    }
    return gg_cache_store(j->choose.cache_root, rule, front, lib, &j->net,
                          &keep, err);
}

/* want seconds, or less when the time limit leaves less: share of what is
 * left, so that the steps before the search never eat the whole limit. */
static double budget(const job *j, double want, double share)
{
    if (j->opts.time_limit <= 0)
        return want;
    double left = j->opts.time_limit - (gg_kjob_now() - j->t0);
    left = left * share > 0.01 ? left * share : 0.01;
    return want < left ? want : left;
}

/* The lead tells the team (if any) whether and what to search: once per
 * run, go or no go (NULL: no search). */
static int share_search(job *j, const gg_synth_opts *opts, gg_err *err)
{
    j->shared = true;
    if (!j->team)
        return 0;
    gg_synth_share *s = gg_alloc(1, sizeof *s, err, "search to share");
    if (!s)
        return -1;
    if (opts) {
        s->go = 1;
        s->time_limit = opts->time_limit;
        s->known_lower = opts->known_lower;
        s->has_upper = opts->upper != NULL;
        if (opts->upper)
            s->upper = *opts->upper;
        s->has_proof = opts->resume != NULL;
        if (opts->resume)
            s->proof = *opts->resume;
    }
    int rc = j->team->share(j->team->ctx, s, err);
    free(s);
    return rc;
}

/* A member but the lead: the search the lead shares, claiming its part of
 * the shapes; the lead stores and returns the result. */
static int follow(job *j, const gg_rule *rule, gg_front_kind front,
                  gg_err *err)
{
    gg_synth_share *s = gg_alloc(1, sizeof *s, err, "shared search");
    if (!s)
        return BAD_ENV;
    int rc = OK;
    gg_front f;
    gg_tt t;
    if (j->team->share(j->team->ctx, s, err))
        rc = BAD_ENV;
    /* the lead built the same table before it said go */
    else if (s->go && (gg_front_build(rule, front, &f, err) ||
                       gg_front_final_tt(rule, &f, &t, err)))
        rc = BAD_INPUT;
    else if (s->go) {
        gg_synth_opts opts = j->opts;
        opts.time_limit = s->time_limit;
        opts.upper = s->has_upper ? &s->upper : NULL;
        opts.known_lower = s->known_lower;
        opts.resume = s->has_proof ? &s->proof : NULL;
        opts.team = j->team->team(j->team->ctx);
        if (gg_synth_run(&t, &opts, &j->res, err))
            rc = BAD_CHECK;
    }
    free(s);
    return rc;
}

static int solve(job *j, const gg_tt *t, const gg_net *upper, int known_lower,
                 const gg_proof *proof, gg_err *err)
{
    gg_synth_opts opts = j->opts;
    /* the time limit bounds the whole run, the steps before this one too */
    if (opts.time_limit > 0)
        opts.time_limit = budget(j, opts.time_limit, 1);
    opts.upper = upper;
    opts.known_lower = known_lower;
    opts.resume = proof && proof->k ? proof : NULL;
    opts.progress = j->progress;
    if (share_search(j, &opts, err))
        return -1;
    opts.team = j->team ? j->team->team(j->team->ctx) : NULL;
    if (gg_synth_run(t, &opts, &j->res, err))
        return -1;
    j->net = j->res.net;
    j->exact = j->res.exact;
    j->info.gates = j->net.n_gates;
    j->info.proven = j->res.proven;
    j->info.lower_bound = j->res.lower_bound;
    j->info.seconds = j->res.seconds;
    j->info.proof = j->res.proof;
    search_log(&j->res, j->info.search, sizeof j->info.search);
    return 0;
}

/* net shrunk by window resynthesis, with a progress line. */
static void polish(const job *j, gg_net *net, const gg_tt *t,
                   const gg_resynth_opts *ro, const char *from)
{
    gg_err ignore;
    if (j->progress)
        fprintf(stderr, "  start: %d gates from %s",
                gg_synth_cost(net, GG_LIB_GATE2), from);
    int saved = gg_resynth(net, t, ro, &ignore);
    if (j->progress && saved > 0)
        fprintf(stderr, ", %d after window resynthesis",
                gg_synth_cost(net, GG_LIB_GATE2));
    if (j->progress)
        fputc('\n', stderr);
}

/* The networks the search starts from: the cache's and the candidates of
 * the one policy (sat/choose/choose.h) with synth's time budget: the adder
 * tree and, for gate2, a LUT3 network mapped gate by gate. */
static void collect_starts(const job *j, const gg_rule *rule,
                           gg_front_kind front, gg_lib lib, const gg_front *f,
                           const gg_tt *t, int have, gg_choose_set *st)
{
    gg_err ignore;
    st->n = 0;
    if (have == 1) {
        st->net[st->n] = j->net;
        st->from[st->n++] = "the cache";
    }
    /* the adder tree's exact rests get up to 120 s in all, or half of what
     * is left: with no cache entry its network is often the one returned
     * (its wide rests find 7 LUTs where the narrow tree gives 8 in 4-40 s;
     * sat/choose/adder.c), and they only look for networks below the
     * cache's */
    gg_choose_budget b = {.seconds = budget(j, 120, 0.5),
                          .cancel = j->cancel,
                          .beat = have == 1 ? gg_synth_cost(&j->net, lib) : 0};
    gg_choose_candidates(rule, front, lib, f, t, &j->choose, &b, st, &ignore);
}

/* Each gate2 start shrunk by window resynthesis (resynth_time each, all
 * of them within a quarter of what the time limit leaves): a larger start
 * may shrink further than the best one (B3/S135: mapped 20 -> 14, cache
 * 18). */
static void polish_starts(const job *j, const gg_tt *t, gg_choose_set *st)
{
    for (int i = 0; i < st->n; i++) {
        gg_resynth_opts ro = {
            .lib = GG_LIB_GATE2, .leaves = j->resynth_leaves,
            .window_seconds = 1, .cancel = j->cancel,
            .time_limit = budget(j, j->resynth_time, 0.25 / (st->n - i))};
        polish(j, &st->net[i], t, &ro, st->from[i]);
    }
}

/* front rowsum+cells: the composed circuit (sat/choose/choose.h), verified
 * and stored like a search's result, unproven. */
static int run_composed(job *j, const gg_rule *rule, gg_lib lib, gg_err *err)
{
    if (rule->nbhd != GG_NBHD_MOORE || gg_rule_is_totalistic(rule)) {
        gg_fail(err, "--front rowsum+cells is for Moore rules whose "
                "arrangement matters (Hensel, MAP); this one is totalistic: "
                "leave --front out");
        return BAD_INPUT;
    }
    gg_circuit *c = gg_alloc(1, sizeof *c, err, "circuit");
    if (!c)
        return BAD_ENV;
    double t0 = gg_kjob_now();
    int bad_row = 0, rc = OK;
    if (gg_choose_composed_circuit(rule, lib, &j->choose, 0, c, err))
        rc = BAD_CHECK;
    else if (gg_circuit_check(c, &bad_row)) {
        gg_fail(err, "the composed circuit is wrong on neighbourhood %d; "
                "nothing stored", bad_row);
        rc = BAD_CHECK;
    }
    if (!rc) {
        memset(&j->info, 0, sizeof j->info);
        j->net = c->final;
        j->info.gates = c->final.n_gates;
        j->info.seconds = gg_kjob_now() - t0;
        snprintf(j->info.search, sizeof j->info.search, "composed:%s",
                 c->source);
        j->start = "the composed circuit";
        if (store(j, rule, GG_FRONT_ROWSUM_CELLS, lib, err))
            rc = BAD_CHECK;
    }
    free(c);
    return rc;
}

static int run(job *j, const gg_rule *rule, gg_front_kind front, gg_lib lib,
               gg_err *err)
{
    gg_front f;
    gg_tt t;
    if (gg_front_build(rule, front, &f, err) ||
        gg_front_final_tt(rule, &f, &t, err))
        return BAD_INPUT;
    int have = gg_cache_lookup(j->choose.cache_root, rule, front, lib,
                               &j->net, &j->info, err);
    j->cached = have == 1;
    if (have < 0 && !j->force)
        return BAD_CHECK;
    if (have < 0) { /* the message says --force replaces it: so it does */
        if (j->progress)
            fprintf(stderr, "golgen synth: %s; --force: searching afresh%s\n",
                    err->msg, j->no_store ? "" : " and replacing it");
        have = 0;
    }
    /* a proven entry is the answer; an unproven one too, unless resume
     * asks to go on with its proof (force searches again either way) */
    if (have == 1 && !j->force && (j->info.proven || !j->resume))
        return OK;
    /* the starts, then the fallback in their last slot */
    gg_choose_set *st = gg_alloc(1, sizeof *st, err, "starting networks");
    if (!st)
        return BAD_ENV;
    /* the cache's lower bound and proof record: the search goes on from
     * there (and k_min at that bound raises it) */
    gg_cache_info before = j->info;
    int known_lower = have == 1 ? before.lower_bound : 0;
    if (have == 1 && j->resume && !j->force) {
        /* the cached network already beat the candidates of the run that
         * stored it: resuming goes straight to the proof */
        st->n = 0;
        st->net[st->n] = j->net;
        st->from[st->n++] = "the cache";
    } else {
        collect_starts(j, rule, front, lib, &f, &t, have, st);
        if (lib == GG_LIB_GATE2)
            polish_starts(j, &t, st);
    }
    /* what the emitters build without a cache entry (a fraction of a
     * second, not interruptible): a run stopped early must not store a
     * network worse than that (B3568/S1245 gate2 stopped in the adder
     * step stored a 39-gate decision diagram; the emitters make 21) */
    char source[GG_CIRCUIT_SOURCE_MAX];
    int rc = OK;
    /* (the starts take at most 3 of the set's GG_CHOOSE_MAX slots) */
    if (gg_choose_fallback(rule, front, lib, &f, &t, &j->choose,
                           &st->net[st->n], source, err))
        rc = BAD_CHECK;
    else
        st->from[st->n++] = "the fallback";
    j->cached = false;
    int best = rc ? 0 : gg_choose_cheapest(st, lib);
    if (!rc) /* said when the run is stopped; a string constant */
        j->start = st->from[best];
    if (!rc && solve(j, &t, &st->net[best], known_lower,
                     have == 1 ? &before.proof : NULL, err))
        rc = gg_sat_available() ? BAD_CHECK : BAD_ENV;
    free(st);
    if (rc)
        return rc;
    /* a proof that went on where the cached one stopped took the time of
     * both runs */
    if (have == 1 && j->res.n_k > 0 && j->res.per_k[0].k == known_lower)
        j->info.seconds += before.seconds;
    /* a stopped search still stores its best network, unproven */
    if (store(j, rule, front, lib, err))
        return BAD_CHECK;
    return OK;
}

/* The accounting of ops_per_word, as `golgen synth --help` states it. */
static int count_ops(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                     const gg_net *net, golgen_synth_result *r, gg_err *err)
{
    gg_circuit *c = gg_alloc(1, sizeof *c, err, "circuit");
    if (!c)
        return -1;
    c->rule = *rule;
    c->lib = lib;
    if (gg_front_build_lib(rule, front, lib, &c->front, err)) {
        free(c);
        return -1;
    }
    c->final = *net;
    r->shifts = gg_circuit_shifts_per_word(c);
    r->front_ops = c->front.gates_per_word;
    r->final_ops = net->n_gates;
    r->not_ops = gg_synth_cost(net, lib) - net->n_gates;
    r->ops_per_word = r->shifts + r->front_ops + r->final_ops + r->not_ops;
    free(c);
    return 0;
}

static char *network_text(const gg_rule *rule, gg_front_kind front,
                          const gg_net *net)
{
    gg_front f;
    gg_err ignore;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    bool named = gg_front_build(rule, front, &f, &ignore) == 0;
    gg_net_write_text(m, net, named ? (const char(*)[8])f.names : NULL);
    fclose(m);
    return buf;
}

/* The job's outcome in the public shape. */
static int fill(const job *j, const gg_rule *rule, gg_front_kind front,
                gg_lib lib, golgen_synth_result *r, gg_err *err)
{
    static const char *const names[] = {"UNSAT", "SAT", "unknown"};
    const gg_cache_info *in = &j->info;
    if (count_ops(rule, front, lib, &j->net, r, err))
        return -1;
    gg_rule_format_transition(rule, r->rule, sizeof r->rule);
    snprintf(r->front, sizeof r->front, "%s", gg_front_name(front));
    snprintf(r->lib, sizeof r->lib, "%s", gg_lib_name(lib));
    r->gates = j->net.n_gates;
    r->proven = in->proven;
    r->lower_bound = in->lower_bound;
    r->output_inverted = j->net.out_neg[0];
    r->cached = j->cached;
    r->exact = j->exact;
    r->stopped = *j->cancel != 0;
    snprintf(r->start, sizeof r->start, "%s", j->start ? j->start : "");
    r->seconds = in->seconds;
    snprintf(r->search, sizeof r->search, "%s", in->search);
    if (progress_of(in)) {
        r->proof_k = in->proof.k;
        r->proof_shapes = in->proof.shapes_total;
        r->proof_impossible = progress_of(in);
    }
    if (!j->cached) {
        r->resumed_shapes = j->res.resumed;
        for (int i = 0; i < j->res.n_k && i < GOLGEN_SYNTH_MAX_K; i++) {
            const gg_synth_k *k = &j->res.per_k[i];
            r->per_k[r->n_k].k = k->k;
            r->per_k[r->n_k].status = names[k->status];
            r->per_k[r->n_k].seconds = k->seconds;
            r->per_k[r->n_k].conflicts = k->conflicts;
            r->per_k[r->n_k].shapes = k->shapes;
            r->per_k[r->n_k++].shapes_total = k->shapes_total;
        }
    }
    for (int k = in->lower_bound; k > 0 && k < r->gates &&
                                  r->n_left < GOLGEN_SYNTH_MAX_K; k++) {
        const gg_k_cost *c = gg_k_cost_find(lib, k);
        if (c) {
            r->left[r->n_left].k = k;
            r->left[r->n_left].shapes = c->shapes;
            r->left[r->n_left].times_k6 = c->times_k6;
            r->left[r->n_left++].at_least = c->at_least;
        }
    }
    r->network = network_text(rule, front, &j->net);
    return r->network ? 0 : gg_fail(err, "out of memory for the network's "
                                    "text");
}

/* The options into the job: what the command's parser also checks, so a
 * library caller gets the same sentences. */
static int setup(job *j, const golgen_synth_opts *o, gg_err *err)
{
    j->t0 = gg_kjob_now();
    j->force = o->force;
    j->resume = o->resume;
    j->no_store = o->no_store;
    j->progress = o->progress;
    j->resynth_time = o->resynth_time;
    j->resynth_leaves = o->resynth_leaves;
    j->team = o->team;
    j->cancel = o->stop ? (volatile sig_atomic_t *)o->stop : &j->never;
    gg_synth_opts *s = &j->opts;
    s->time_limit = o->time_limit;
    s->k_time_limit = o->k_time_limit;
    s->shape_time_limit = o->shape_time_limit;
    s->threads = o->threads;
    s->k_min = o->k_min;
    s->k_max = o->k_max;
    s->init_rows = o->init_rows;
    s->shape_max_k = o->shape_max_k;
    s->sample = (gg_synth_sample){
        .stride = o->shape_stride, .trace = o->trace, .range = o->shapes_range,
        .first = o->shapes_first, .last = o->shapes_last};
    s->plain_cnf = o->plain_cnf;
    s->cancel = j->cancel;
    if (o->resynth_leaves < 3 || o->resynth_leaves > 8)
        return gg_fail(err, "resynth_leaves %d: give 3..8 (default 6)",
                       o->resynth_leaves);
    if (o->threads < 0 || o->threads > 64 || o->k_min < 0 || o->k_max < 0 ||
        o->k_min > GG_ENC_MAX_GATES || o->k_max > GG_ENC_MAX_GATES ||
        o->init_rows < 0 || o->shape_max_k < 0 || o->shape_stride < 0)
        return gg_fail(err, "threads 0..64, k_min and k_max 0..%d, "
                       "init_rows, shape_max_k and shape_stride >= 0",
                       GG_ENC_MAX_GATES);
    if (o->shapes_range && (o->shapes_first < 0 ||
                            o->shapes_last < o->shapes_first))
        return gg_fail(err, "shapes %d-%d: give 0 <= first <= last",
                       o->shapes_first, o->shapes_last);
    if (o->k_min && o->k_max && o->k_min > o->k_max)
        return gg_fail(err, "--k-min %d is above --k-max %d: nothing to "
                       "search; give k-min <= k-max", o->k_min, o->k_max);
    if (!o->solver || !strcmp(o->solver, "auto"))
        s->solver = GG_SAT_AUTO;
    else if (!strcmp(o->solver, "cms"))
        s->solver = GG_SAT_CMS;
    else if (!strcmp(o->solver, "cadical") &&
             gg_sat_kind_available(GG_SAT_CADICAL))
        s->solver = GG_SAT_CADICAL;
    else
        return gg_fail(err, "--solver %s: give auto, cms or cadical "
                       "(cadical needs a golgen built with libcadical-dev)",
                       o->solver);
    j->hook = (gg_lib_search_hook){o->on_search, o->search_ctx};
    return gg_lib_choose_opts(o->cache_root, &j->hook, &j->cfg, &j->choose,
                              err);
}

static int code_of(int rc)
{
    return rc == BAD_INPUT ? GOLGEN_ERR_INPUT
           : rc == BAD_ENV ? GOLGEN_ERR_ENV
           : rc ? GOLGEN_ERR_CHECK : GOLGEN_OK;
}

int golgen_synth(const char *rule_text, const golgen_synth_opts *o,
                 golgen_synth_result **res, char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    golgen_synth_opts defaults;
    if (errbuf && errlen)
        errbuf[0] = 0;
    if (!res || !rule_text)
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"rule or res is NULL"},
                           errbuf, errlen);
    *res = NULL;
    if (!o) {
        golgen_synth_defaults(&defaults);
        o = &defaults;
    }
    job *j = gg_alloc(1, sizeof *j, &err, "synthesis"); /* nets: big */
    if (!j)
        return gg_lib_fail(GOLGEN_ERR_ENV, &err, errbuf, errlen);
    gg_rule rule;
    gg_front_kind front;
    gg_lib lib;
    int rc = OK;
    /* every member parses the same arguments: a failure here fails all of
     * them before the team meets */
    if (setup(j, o, &err) || gg_rule_parse(rule_text, &rule, &err) ||
        gg_lib_front(o->front, &rule, &front, &err) ||
        gg_lib_parse(o->lib ? o->lib : "lut3", &lib, &err)) {
        free(j);
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    }
    j->opts.lib = lib;
    if (j->team && !j->team->lead) {
        rc = follow(j, &rule, front, &err);
        j->team->done(j->team->ctx);
        free(j);
        return gg_lib_fail(code_of(rc), &err, errbuf, errlen);
    }
    rc = front == GG_FRONT_ROWSUM_CELLS ? run_composed(j, &rule, lib, &err)
                                            : run(j, &rule, front, lib, &err);
    if (j->team) {
        gg_err ignore; /* no search: the others have nothing to do */
        if (!j->shared)
            share_search(j, NULL, &ignore);
        j->team->done(j->team->ctx);
    }
    golgen_synth_result *r = NULL;
    if (!rc && !(r = gg_alloc(1, sizeof *r, &err, "synthesis result")))
        rc = BAD_ENV;
    if (!rc && fill(j, &rule, front, lib, r, &err)) {
        golgen_synth_free(r);
        rc = BAD_INPUT;
    }
    free(j);
    if (rc)
        return gg_lib_fail(code_of(rc), &err, errbuf, errlen);
    *res = r;
    return GOLGEN_OK;
}

void golgen_synth_free(golgen_synth_result *r)
{
    if (r)
        free(r->network);
    free(r);
}
