#include "synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kjob.h"
#include "net_build.h"
#include "symm.h"

int gg_synth_cost(const gg_net *n, gg_lib lib)
{
    return n->n_gates + (lib == GG_LIB_GATE2 && n->out_neg[0]);
}

/* Networks of no gates: a constant or one input, possibly inverted. */
static bool trivial(const gg_tt *f, gg_net *net)
{
    gg_net c;
    memset(&c, 0, sizeof c);
    c.n_inputs = f->n_inputs;
    c.n_outputs = 1;
    for (int src = -1; src < f->n_inputs; src++)
        for (int neg = 0; neg < 2; neg++) {
            c.out[0] = src < 0 ? GG_SIG_CONST0 : (uint16_t)src;
            c.out_neg[0] = (uint8_t)neg;
            if (gg_net_check(&c, 0, f, NULL) == 0) {
                *net = c;
                return true;
            }
        }
    return false;
}

/* Gates that read at most `arity` signals each can see at most
 * 1 + k(arity-1) inputs, and every essential input must be seen. */
static int lower_bound(const gg_tt *f, gg_lib lib)
{
    int s = gg_symm_essential(f, NULL), a = lib == GG_LIB_LUT3 ? 3 : 2;
    int k = (s - 1 + a - 2) / (a - 1);
    return k < 1 ? 1 : k;
}

/* The starting network: the caller's, else the decision-diagram build. */
static int upper_bound(const gg_tt *f, const gg_synth_opts *o,
                       gg_synth_result *res, gg_err *err)
{
    gg_net h;
    if (gg_net_build_from_tt(f, o->lib, &h, err))
        return -1;
    if (gg_net_check(&h, 0, f, NULL))
        return gg_fail(err, "the fallback network builder got the function "
                       "wrong; this is a bug in gen/circuits/net_build.c");
    res->net = h;
    if (o->upper && gg_net_check(o->upper, 0, f, NULL) == 0 &&
        gg_net_in_lib(o->upper, o->lib) &&
        gg_synth_cost(o->upper, o->lib) < gg_synth_cost(&h, o->lib))
        res->net = *o->upper;
    return 0;
}

/* One line per k run; before: shapes of a resumed k shown impossible by
 * an earlier run (not tried again). */
static void report_k(const gg_synth_k *st, int before)
{
    static const char *names[] = {"UNSAT", "SAT", "unknown"};
    fprintf(stderr, "  k=%d: %-7s %8.2f s  %10llu conflicts", st->k,
            names[st->status], st->seconds, (unsigned long long)st->conflicts);
    if (st->shapes_total)
        fprintf(stderr, "  %d/%d shapes", st->shapes + before,
                st->shapes_total);
    if (before)
        fprintf(stderr, " (%d of them shown impossible before)", before);
    fputc('\n', stderr);
}

static double k_deadline(const gg_synth_opts *o, double t0)
{
    double now = gg_kjob_now(), d = 0;
    if (o->time_limit > 0)
        d = t0 + o->time_limit;
    if (o->k_time_limit > 0 && (d <= 0 || now + o->k_time_limit < d))
        d = now + o->k_time_limit;
    return d;
}

typedef struct search_state {
    const gg_tt *f;
    const gg_synth_opts *o;
    gg_synth_result *res;
    double t0;
    int class_of[GG_TT_MAX_INPUTS];
    int extra;                          /* the NOT a gate2 net must pay */
    int shape_max;
    int *pending[GG_ENC_MAX_GATES + 1]; /* undecided shapes per k */
    int n_pending[GG_ENC_MAX_GATES + 1];
    bool resumed[GG_ENC_MAX_GATES + 1]; /* pending came from o->resume */
    int total[GG_ENC_MAX_GATES + 1];    /* shapes of k, once searched */
    uint32_t hash[GG_ENC_MAX_GATES + 1];
    uint64_t work;                      /* gg_synth_k.work, all k so far */
} search_state;

/* A gate2 network is normalized (0 on the all-zero row), so a function
 * that is 1 there needs an inverted output: one NOT on top of k gates. */
static int forced_not(const gg_tt *f, gg_lib lib)
{
    return lib == GG_LIB_GATE2 && gg_tt_get(f->care, 0) && gg_tt_get(f->on, 0);
}

/* The team of this search, if any (never with a work limit). */
static const gg_team *team_of(const gg_synth_opts *o)
{
    return o->work_limit ? NULL : o->team;
}

/* A team's members stop together: each has its own clock and signals. */
static bool out_of_time(const search_state *s)
{
    const gg_synth_opts *o = s->o;
    bool out = (o->cancel && *o->cancel) ||
               (o->time_limit > 0 && gg_kjob_now() > s->t0 + o->time_limit) ||
               (o->work_limit && s->work >= o->work_limit);
    const gg_team *t = team_of(o);
    return t ? t->any(t->ctx, out) : out;
}

/* Whether the shapes a k leaves undecided say which ones were shown
 * impossible: not for a sample (its list covers the sample only) nor under
 * limits beyond f (a shape UNSAT with forbidden fanins may hold a network
 * without them). A run without input-symmetry breaking may record: its
 * CNFs admit more networks, so its UNSATs hold under the breaking too. */
static bool records_proof(const search_state *s)
{
    const gg_synth_opts *o = s->o;
    const gg_enc_limits *l = &o->lim;
    return o->sample.stride <= 1 && !o->sample.range && !l->forbid &&
           !l->swap && !l->n_closed && !l->order_groups && !l->f2;
}

/* Whether k could still beat the best network once work_done is spent.
 * Under a work limit a k starts only with a sixteenth of the work left:
 * with k_work's shares that is three k past the first hard one, and a k
 * costs its shapes' enumeration (36,390 at lut3 k = 7) however little
 * work it may then spend. */
static bool k_fits(const search_state *s, int k, uint64_t work_done)
{
    const gg_synth_opts *o = s->o;
    bool work_left = !o->work_limit ||
                     work_done + o->work_limit / 16 <= o->work_limit;
    return k + s->extra < gg_synth_cost(&s->res->net, o->lib) &&
           (!o->k_max || k <= o->k_max) && k <= GG_ENC_MAX_GATES &&
           work_left;
}

/* The work k may spend (0: no limit). A k that could still be followed by
 * a cheaper network than the best (the first pass going up) gets three
 * quarters of what is left, so that a k whose shapes are hard and stay
 * undecided leaves work to the next one, where a network usually lies in
 * an easy shape: the fallback's 5-input rests of B2346/S058 and 7 more of
 * 171 rules ran out of work at k = 4 and came out decision diagrams, 15-18
 * LUTs in all, where k = 5 holds one (9 in all; session 21). Half for
 * each k lost two rules' 8-LUT networks to 9. */
static uint64_t k_work(const search_state *s, int k, bool second_pass)
{
    const gg_synth_opts *o = s->o;
    if (!o->work_limit)
        return 0;
    /* never 0, which would mean no limit */
    uint64_t left = o->work_limit > s->work ? o->work_limit - s->work : 1;
    uint64_t share = left / 4 * 3;
    bool next_worth = !second_pass && share > 0 &&
                      k_fits(s, k + 1, s->work + share);
    return next_worth ? share : left;
}

/* One k, all shapes or the pending ones; records stats and the outcome. */
static int run_k(search_state *s, int k, bool second_pass, gg_err *err)
{
    const gg_synth_opts *o = s->o;
    gg_synth_result *res = s->res;
    bool shapes = k <= s->shape_max;
    gg_kjob_in in = {.f = s->f, .lib = o->lib, .k = k,
                     .class_of = o->no_symmetry ? NULL : s->class_of,
                     .lim = o->lim,
                     .min_pi_slots = gg_symm_essential(s->f, NULL),
                     .use_shapes = shapes,
                     .threads = o->work_limit ? 1
                                : o->threads ? o->threads : 2,
                     .init_rows = o->init_rows ? o->init_rows
                                  : gg_tt_rows(s->f) <= 128 ? 128 : 64,
                     .deadline = k_deadline(o, s->t0),
                     .problem_limit = second_pass ? 0 : o->shape_time_limit,
                     .work_limit = k_work(s, k, second_pass),
                     .subset = (second_pass || s->resumed[k]) && shapes
                                   ? s->pending[k] : NULL,
                     .n_subset = s->n_pending[k],
                     .sample = o->sample, .solver = o->solver,
                     .plain_cnf = o->plain_cnf,
                     .cancel = o->cancel, .progress = o->progress,
                     .team = team_of(o)};
    gg_synth_k *st = &res->per_k[res->n_k];
    gg_net net;
    int *undecided = NULL, n_undecided = 0;
    if (res->n_k >= GG_SYNTH_MAX_STEPS ||
        gg_kjob_run(&in, &net, st, &undecided, &n_undecided, err))
        return -1;
    s->work += st->work;
    if (shapes)
        s->total[k] = st->shapes_total, s->hash[k] = st->shapes_hash;
    free(s->pending[k]);
    s->pending[k] = undecided, s->n_pending[k] = n_undecided;
    res->n_k++;
    if (o->progress)
        report_k(st, s->resumed[k] ? s->res->resumed : 0);
    if (st->status == GG_SYNTH_UNSAT && res->lower_bound == k)
        res->lower_bound = k + 1;
    if (st->status == GG_SYNTH_SAT) {
        res->net = net;
        res->exact = true;
    }
    return 0;
}

static bool worth(const search_state *s, int k)
{
    return k_fits(s, k, s->work) && !out_of_time(s);
}

/* First pass: k = first.. while a network of k gates would beat the best
 * one; stops at the first k that has a network. */
static int first_pass(search_state *s, int first, gg_err *err)
{
    for (int k = first; worth(s, k); k++) {
        if (run_k(s, k, false, err))
            return -1;
        if (s->res->per_k[s->res->n_k - 1].status == GG_SYNTH_SAT)
            break;
    }
    return 0;
}

/* Second pass: settle the undecided shapes of the smallest open k. A k
 * below --k-min was never searched (no pending shapes): it is passed over,
 * and the k above it can then not raise the lower bound. */
static int second_pass(search_state *s, gg_err *err)
{
    gg_synth_result *res = s->res;
    for (int k = res->lower_bound; worth(s, k); k++) {
        if (!s->pending[k])
            continue;
        if (run_k(s, k, true, err))
            return -1;
        gg_synth_status st = res->per_k[res->n_k - 1].status;
        if (st != GG_SYNTH_UNSAT)
            break;
    }
    return 0;
}

/* Starts k = first from the caller's record of shapes already shown
 * impossible, when it is for this k and today's shape list. */
static int resume(search_state *s, int first, gg_err *err)
{
    const gg_synth_opts *o = s->o;
    const gg_proof *p = o->resume;
    if (!p || p->k != first || first > s->shape_max || !records_proof(s))
        return 0;
    gg_shape *v;
    int n = gg_shape_enum(first, o->lib == GG_LIB_LUT3 ? 3 : 2,
                          gg_symm_essential(s->f, NULL), &v, err);
    if (n < 0)
        return -1;
    bool same = n == p->shapes_total && gg_proof_hash_ok(p->shapes_hash, v, n);
    free(v);
    if (!same) {
        if (o->progress)
            fprintf(stderr, "  k=%d: the recorded proof is for another "
                    "shape list (another golgen version): k=%d is searched "
                    "afresh\n", first, first);
        return 0;
    }
    if (gg_proof_pending(p, &s->pending[first], &s->n_pending[first], err))
        return -1;
    s->resumed[first] = true;
    s->res->resumed = n - s->n_pending[first];
    if (o->progress)
        fprintf(stderr, "  k=%d: resuming the proof: %d of %d shapes were "
                "shown impossible before, %d left\n", first,
                s->res->resumed, n, s->n_pending[first]);
    return 0;
}

/* What is proven of the open k = lower_bound, for the cache: this run's
 * undecided shapes, else the caller's record when this run never got to
 * that k. */
static void record(search_state *s)
{
    gg_synth_result *res = s->res;
    const gg_proof *old = s->o->resume;
    int k = res->lower_bound;
    if (k > GG_ENC_MAX_GATES)
        return;
    if (s->total[k] > 0 && s->pending[k] && records_proof(s))
        gg_proof_from_undecided(&res->proof, k, s->total[k], s->hash[k],
                                s->pending[k], s->n_pending[k]);
    else if (!s->total[k] && old && old->k == k)
        res->proof = *old;
}

static int search(const gg_tt *f, const gg_synth_opts *o,
                  gg_synth_result *res, int first, double t0, gg_err *err)
{
    search_state *s = malloc(sizeof *s);
    if (!s)
        return gg_fail(err, "out of memory");
    /* every other field starts at zero (no shared template: reentrant) */
    *s = (search_state){.f = f, .o = o, .res = res, .t0 = t0};
    gg_symm_classes(f, s->class_of);
    s->extra = forced_not(f, o->lib);
    s->shape_max = o->shape_max_k ? o->shape_max_k
                   : o->lib == GG_LIB_LUT3 ? 7 : 9;
    int rc = resume(s, first, err);
    if (!rc)
        rc = first_pass(s, first, err);
    if (!rc && o->shape_time_limit > 0 && !o->work_limit)
        rc = second_pass(s, err);
    if (!rc)
        record(s);
    for (int k = 0; k <= GG_ENC_MAX_GATES; k++)
        free(s->pending[k]);
    free(s);
    return rc;
}

int gg_synth_run(const gg_tt *f, const gg_synth_opts *o, gg_synth_result *res,
                 gg_err *err)
{
    double t0 = gg_kjob_now();
    memset(res, 0, sizeof *res);
    if (trivial(f, &res->net)) {
        res->exact = res->proven = true;
    } else {
        if (!gg_sat_available())
            return gg_fail(err, "%s; only cached networks are available",
                           gg_sat_unavailable_why());
        if (upper_bound(f, o, res, err))
            return -1;
        res->lower_bound = lower_bound(f, o->lib);
        /* a caller's bound above the network's cost is not believed */
        if (o->known_lower > res->lower_bound &&
            o->known_lower <= gg_synth_cost(&res->net, o->lib) -
                                  forced_not(f, o->lib))
            res->lower_bound = o->known_lower;
        int first = o->k_min > 0 ? o->k_min : res->lower_bound;
        if (search(f, o, res, first, t0, err))
            return -1;
        res->proven = gg_synth_cost(&res->net, o->lib) <=
                      res->lower_bound + forced_not(f, o->lib);
        if (res->proven)
            res->proof = (gg_proof){0};
    }
    res->gates = res->net.n_gates;
    res->cancelled = o->cancel && *o->cancel;
    res->seconds = gg_kjob_now() - t0;
    if (gg_net_check(&res->net, 0, f, NULL))
        return gg_fail(err, "synthesized network fails its truth table; "
                       "this is a bug in sat/");
    return 0;
}
