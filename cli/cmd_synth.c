/* golgen synth: the fewest gates for a rule's final stage, from the
 * network cache or from the SAT solver (which then fills the cache). */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "choose.h"
#include "cli_util.h"
#include "commands.h"
#include "kjob.h"
#include "net_text.h"
#include "resynth.h"
#include "run_ranks.h"
#include "shape_prior.h"
#include "stop_signals.h"
#include "synth.h"
#include "synth_ranks.h"

/* Seconds a search gets when --time-limit is not given: a user who asks
 * for a rule's network gets an answer, proven or not, in minutes. */
#define DEFAULT_TIME_LIMIT 600

typedef struct synth_args {
    const char *rule, *front, *lib;
    gg_choose_opts choose; /* the cache root: --root, else the config's */
    bool json, force, no_store, resume;
    gg_synth_opts opts;
    double resynth_time; /* seconds per gate2 start */
    int resynth_leaves;  /* most signals a resynthesis window reads */
    double t0;           /* gg_kjob_now() at the start */
} synth_args;

/* What a run produced, from the cache or the solver. */
typedef struct outcome {
    gg_net net;
    gg_cache_info info;
    bool cached, exact;
    const char *start;   /* where the search's first network came from */
    gg_synth_result res; /* solver runs only */
} outcome;

/* The signal that stopped the search (SIGINT, SIGTERM or SIGHUP), 0 while
 * none did: the solvers poll it as their cancel flag. Ctrl-C, `timeout`'s
 * SIGTERM and a closed terminal's SIGHUP all stop the search the same way:
 * the best network so far is stored and printed. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

static void usage(FILE *out)
{
    fprintf(out,
        "usage: golgen synth --rule RULE [--lib lut3|gate2] "
        "[--front rowsum|rowsum-lr|rowsum+cells|none] [--json]\n"
        "                    [--time-limit S] [--k-time-limit S] "
        "[--shape-time-limit S]\n"
        "                    [--resume] [--threads N] [--k-min K] "
        "[--k-max K] [--init-rows N]\n"
        "                    [--resynth-time S] [--resynth-leaves N]\n"
        "                    [--force] [--no-store] [--generated DIR]\n"
        "                    [--shape-max-k K] [--shape-stride N] "
        "[--shapes A[-B]] [--trace]\n"
        "                    [--solver auto|cms|cadical] [--plain-cnf]\n\n"
        "Find the fewest gates of the library that compute RULE's final "
        "stage on every\nreachable input (don't-cares left free). k runs "
        "upward from a lower bound; a k\nwith no network is proven UNSAT, "
        "so the first k that works is the minimum.\n\n"
        "Under mpirun (a golgen built with MPI) the ranks share out each "
        "k's network\nshapes, on one machine or many; rank 0 alone caches "
        "and prints (README,\n\"MPI ranks\").\n\n"
        "--time-limit S bounds the whole run (default %d s; 'none': no "
        "limit, for\nproofs of hours). The time limit, Ctrl-C (exit status "
        "130), SIGTERM (143) or\nSIGHUP (129) keep the best network so far, "
        "marked unproven, print it and cache\nit with what was proven: "
        "every k below the lower bound, and which network\nshapes of the "
        "next k were shown impossible. --resume (or --force) goes on from\n"
        "there; without either, a cached answer is printed as it is. "
        "Progress\nlines on stderr give each k's shapes done and the time "
        "left: from the shapes'\nusual costs where they were measured "
        "(lut3, k=6), else at the rate so far.\n\n"
        "With --shape-time-limit a first pass gives each network shape S "
        "seconds to\nfind a network fast, and a second pass settles the "
        "shapes left open. Results\nare verified on every row and cached "
        "under DIR/networks (default\n$GOLGEN_GENERATED or the source "
        "tree's generated/).\n\n"
        "The search has to beat the best known network: the cache's, the "
        "adder tree's\n(full adders over the row sums, then a small exact "
        "rest; for lut3 also one\nadder over the row sums or the row "
        "carries, then a 6-input rest, searched\nonly below the best so "
        "far) and, for gate2, the cached lut3 network (else\nthe adder "
        "tree's) mapped LUT by LUT; for gate2 each of them is first "
        "shrunk\nby re-solving small windows (--resynth-time S each, "
        "default 10; windows read\nat most --resynth-leaves N signals, "
        "3..8, default 6).\n\n"
        "Of the time limit the adder tree's rests get at most half (and at "
        "most 120 s),\nwindow resynthesis a quarter of what is left, the "
        "search the rest.\n\n"
        "ops_per_word = neighbour shifts (2: one row's left and right words, "
        "shared by\nthe three rows that read them) + front gates per word "
        "(one shared row sum:\n2 lut3 or 5 gate2; none for --front none) "
        "+ final-stage gates (+1 NOT when a\ngate2 network must invert its "
        "output, for B0 rules).\n\n"
        "--front rowsum+cells (Hensel and MAP rules whose arrangement "
        "matters): no exact\nsearch over its 15 inputs; the composed circuit "
        "(the gated correction or the\nsplit) is verified and cached, so "
        "that machines without the solver emit it.\n\n"
        "--k-min K starts at K: an UNSAT there raises the lower bound when "
        "the cache\nalready rules out every k below K.\n"
        "--init-rows N: care rows put into each CNF before counterexamples "
        "(default: all\nof a table of up to 128 rows, else 64). "
        "--threads N: solver threads (one\nshape each; a single "
        "free-topology CNF gets up to 8 CryptoMiniSat threads).\n\n"
        "For research and profiling: --shape-max-k K splits the search by "
        "network shape\nup to k=K (default 7 for lut3, 9 for gate2); "
        "--shape-stride N tries every N-th\nshape only, --shapes A[-B] "
        "shapes A..B only (a sample proves nothing: its k\nstays undecided "
        "unless it finds a network); --trace prints each shape's outcome,\n"
        "conflicts and seconds.\n"
        "--solver: the SAT solver of the shape proofs: auto (default) takes "
        "CaDiCaL when\nthis golgen was built with it (%s here; 3-4x less CPU "
        "on these CNFs) and\nCryptoMiniSat otherwise; a search bounded by "
        "work (the fallback's) always\nruns CryptoMiniSat. --plain-cnf "
        "leaves out the difference clauses and the shape-\nsymmetry order "
        "(sat/exact/encode.h), for comparisons: with --solver cms it is the\n"
        "search of before session 13.\n",
        DEFAULT_TIME_LIMIT,
        gg_sat_kind_available(GG_SAT_CADICAL) ? "it was" : "it was not");
}

/* --time-limit: seconds > 0, or "none". 0 used to mean no limit, which
 * nobody guesses; it is refused with the spelling that does. */
static int parse_time_limit(const char *text, double *v, gg_err *err)
{
    if (!strcmp(text, "none")) {
        *v = 0;
        return 0;
    }
    if (gg_cli_seconds("--time-limit", text, 1e7, v, err))
        return -1;
    if (*v <= 0)
        return gg_fail(err, "--time-limit %s leaves no time to search; give "
                       "seconds > 0 (default %d), or --time-limit none for "
                       "no limit", text, DEFAULT_TIME_LIMIT);
    return 0;
}

static int parse_num(const char *opt, const char *text, int64_t max,
                     int64_t *v, gg_err *err)
{
    return gg_cli_int(opt, text, 0, max, v, err);
}

/* --shapes A or A-B: shape indices, A <= B. */
static int parse_shapes(const char *text, gg_synth_sample *s, gg_err *err)
{
    char first[32];
    const char *dash = strchr(text, '-');
    size_t n = dash ? (size_t)(dash - text) : strlen(text);
    int64_t a, b;
    if (n >= sizeof first)
        return gg_fail(err, "--shapes wants A or A-B, not '%s'", text);
    memcpy(first, text, n);
    first[n] = 0;
    if (gg_cli_int("--shapes", first, 0, INT32_MAX, &a, err) ||
        gg_cli_int("--shapes", dash ? dash + 1 : first, a, INT32_MAX, &b,
                   err))
        return -1;
    *s = (gg_synth_sample){.stride = s->stride, .trace = s->trace,
                           .range = true, .first = (int)a, .last = (int)b};
    return 0;
}

static int parse_args(int argc, char **argv, synth_args *a, gg_err *err)
{
    static const struct option opts[] = {
        {"rule", required_argument, 0, 'r'},   {"front", required_argument, 0, 'f'},
        {"lib", required_argument, 0, 'l'},    {"json", no_argument, 0, 'j'},
        {"time-limit", required_argument, 0, 't'},
        {"k-time-limit", required_argument, 0, 'T'},
        {"shape-time-limit", required_argument, 0, 's'},
        {"threads", required_argument, 0, 'p'}, {"k-min", required_argument, 0, 'k'},
        {"k-max", required_argument, 0, 'K'},  {"force", no_argument, 0, 'F'},
        {"no-store", no_argument, 0, 'n'},     {"generated", required_argument, 0, 'g'},
        {"init-rows", required_argument, 0, 'i'},
        {"resynth-time", required_argument, 0, 'R'},
        {"resynth-leaves", required_argument, 0, 'L'},
        {"shape-max-k", required_argument, 0, 'M'},
        {"shape-stride", required_argument, 0, 'S'},
        {"shapes", required_argument, 0, 'A'},
        {"trace", no_argument, 0, 'x'},
        {"resume", no_argument, 0, 'P'},
        {"solver", required_argument, 0, 'V'},
        {"plain-cnf", no_argument, 0, 'D'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    int c;
    int64_t v;
    while ((c = getopt_long(argc, argv, "r:f:l:jt:T:s:p:k:K:Fng:i:R:L:M:S:A:xPV:Dh", opts, NULL)) != -1) {
        switch (c) {
        case 'r': a->rule = optarg; break;
        case 'f': a->front = optarg; break;
        case 'l': a->lib = optarg; break;
        case 'j': a->json = true; break;
        case 't': if (parse_time_limit(optarg, &a->opts.time_limit, err))
                      return -1;
                  break;
        case 'P': a->resume = true; break;
        case 'T': if (gg_cli_seconds("--k-time-limit", optarg, 1e7,
                                     &a->opts.k_time_limit, err)) return -1;
                  break;
        case 's': if (gg_cli_seconds("--shape-time-limit", optarg, 1e7,
                                     &a->opts.shape_time_limit, err)) return -1;
                  break;
        case 'R': if (gg_cli_seconds("--resynth-time", optarg, 1e7,
                                     &a->resynth_time, err)) return -1;
                  break;
        case 'L': if (gg_cli_int("--resynth-leaves", optarg, 3, 8, &v, err))
                      return -1;
                  a->resynth_leaves = (int)v; break;
        case 'p': if (parse_num("--threads", optarg, 64, &v, err)) return -1;
                  a->opts.threads = (int)v; break;
        case 'k': if (parse_num("--k-min", optarg, GG_ENC_MAX_GATES, &v, err)) return -1;
                  a->opts.k_min = (int)v; break;
        case 'K': if (parse_num("--k-max", optarg, GG_ENC_MAX_GATES, &v, err)) return -1;
                  a->opts.k_max = (int)v; break;
        case 'F': a->force = true; break;
        case 'n': a->no_store = true; break;
        case 'g': a->choose.cache_root = optarg; break;
        case 'i': if (parse_num("--init-rows", optarg, 1 << 16, &v, err)) return -1;
                  a->opts.init_rows = (int)v; break;
        case 'M': if (gg_cli_int("--shape-max-k", optarg, 1,
                                 GG_ENC_MAX_GATES, &v, err)) return -1;
                  a->opts.shape_max_k = (int)v; break;
        case 'S': if (gg_cli_int("--shape-stride", optarg, 1, 1 << 30, &v,
                                 err)) return -1;
                  a->opts.sample.stride = (int)v; break;
        case 'A': if (parse_shapes(optarg, &a->opts.sample, err)) return -1;
                  break;
        case 'x': a->opts.sample.trace = true; break;
        case 'D': a->opts.plain_cnf = true; break;
        case 'V': if (!strcmp(optarg, "auto"))
                      a->opts.solver = GG_SAT_AUTO;
                  else if (!strcmp(optarg, "cms"))
                      a->opts.solver = GG_SAT_CMS;
                  else if (!strcmp(optarg, "cadical") &&
                           gg_sat_kind_available(GG_SAT_CADICAL))
                      a->opts.solver = GG_SAT_CADICAL;
                  else
                      return gg_fail(err, "--solver %s: give auto, cms or "
                                     "cadical (cadical needs a golgen built "
                                     "with libcadical-dev)", optarg);
                  break;
        case 'h': return 1;
        default: return gg_fail(err, "unknown option; see 'golgen synth --help'");
        }
    }
    if (!a->rule || optind != argc)
        return gg_fail(err, "--rule is required; see 'golgen synth --help'");
    if (a->opts.k_min && a->opts.k_max && a->opts.k_min > a->opts.k_max)
        return gg_fail(err, "--k-min %d is above --k-max %d: nothing to "
                       "search; give k-min <= k-max", a->opts.k_min,
                       a->opts.k_max);
    return 0;
}

static void search_log(const gg_synth_result *r, char *buf, size_t size)
{
    static const char *names[] = {"UNSAT", "SAT", "unknown"};
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
static int store(const synth_args *a, const gg_rule *rule, gg_front_kind front,
                 gg_lib lib, const outcome *o, gg_err *err)
{
    gg_net old;
    gg_cache_info info, keep = o->info;
    gg_err ignore;
    if (a->no_store)
        return 0;
    int have = gg_cache_lookup(a->choose.cache_root, rule, front, lib, &old, &info, &ignore);
    if (have == 1) {
        int was = gg_synth_cost(&old, lib), now = gg_synth_cost(&o->net, lib);
        if (was < now || (was == now && info.proven))
            return 0;
        if (was == now && !o->info.proven &&
            (info.lower_bound > o->info.lower_bound ||
             (info.lower_bound == o->info.lower_bound &&
              progress_of(&info) >= progress_of(&o->info))))
            return 0;
        merge_search(info.search, o->info.search, keep.search,
                     sizeof keep.search);
    }
    return gg_cache_store(a->choose.cache_root, rule, front, lib, &o->net, &keep, err);
}

/* want seconds, or less when --time-limit leaves less: share of what is
 * left, so that the steps before the search never eat the whole limit. */
static double budget(const synth_args *a, double want, double share)
{
    if (a->opts.time_limit <= 0)
        return want;
    double left = a->opts.time_limit - (gg_kjob_now() - a->t0);
    left = left * share > 0.01 ? left * share : 0.01;
    return want < left ? want : left;
}

/* Rank 0 tells the other ranks (if any) whether and what to search:
 * once per run, go or no go (gg_cmd_synth says no go when it never got
 * here). */
static bool shared;

static int share_search(const gg_synth_opts *opts, gg_err *err)
{
    static gg_synth_share s; /* two networks: off the stack */
    memset(&s, 0, sizeof s);
    shared = true;
    if (opts) {
        s.go = 1;
        s.time_limit = opts->time_limit;
        s.known_lower = opts->known_lower;
        s.has_upper = opts->upper != NULL;
        if (opts->upper)
            s.upper = *opts->upper;
        s.has_proof = opts->resume != NULL;
        if (opts->resume)
            s.proof = *opts->resume;
    }
    return gg_synth_ranks_share(&s, err);
}

/* The ranks but 0: the search rank 0 shares, claiming their part of the
 * shapes; rank 0 stores and prints the result. */
static int follow(const synth_args *a, const gg_rule *rule,
                  gg_front_kind front, gg_err *err)
{
    static gg_synth_share s;
    memset(&s, 0, sizeof s);
    if (gg_synth_ranks_share(&s, err))
        return GG_EXIT_ENV;
    if (!s.go)
        return GG_EXIT_OK;
    gg_front f;
    gg_tt t;
    /* rank 0 built the same table before it said go */
    if (gg_front_build(rule, front, &f, err) ||
        gg_front_final_tt(rule, &f, &t, err))
        return GG_EXIT_USAGE;
    gg_synth_opts opts = a->opts;
    opts.time_limit = s.time_limit;
    opts.upper = s.has_upper ? &s.upper : NULL;
    opts.known_lower = s.known_lower;
    opts.resume = s.has_proof ? &s.proof : NULL;
    opts.cancel = &interrupted;
    opts.team = gg_synth_ranks_team();
    static gg_synth_result res;
    if (gg_synth_run(&t, &opts, &res, err))
        return GG_EXIT_CHECK_FAILED;
    return GG_EXIT_OK;
}

static int solve(const synth_args *a, const gg_tt *t, const gg_net *upper,
                 int known_lower, const gg_proof *proof, outcome *o,
                 gg_err *err)
{
    gg_synth_opts opts = a->opts;
    /* --time-limit bounds the whole run, the steps before this one too */
    if (opts.time_limit > 0)
        opts.time_limit = budget(a, opts.time_limit, 1);
    opts.upper = upper;
    opts.known_lower = known_lower;
    opts.resume = proof && proof->k ? proof : NULL;
    opts.cancel = &interrupted;
    opts.progress = true;
    if (share_search(&opts, err))
        return -1;
    opts.team = gg_synth_ranks_team();
    if (gg_synth_run(t, &opts, &o->res, err))
        return -1;
    o->net = o->res.net;
    o->exact = o->res.exact;
    o->info.gates = o->net.n_gates;
    o->info.proven = o->res.proven;
    o->info.lower_bound = o->res.lower_bound;
    o->info.seconds = o->res.seconds;
    o->info.proof = o->res.proof;
    search_log(&o->res, o->info.search, sizeof o->info.search);
    return 0;
}

typedef struct ops {
    int shifts, front, final, not_gate, total;
} ops;

/* The accounting of ops_per_word, as --help states it. */
static int count_ops(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                     const gg_net *net, ops *n, gg_err *err)
{
    gg_circuit c;
    memset(&c, 0, sizeof c);
    c.rule = *rule;
    c.lib = lib;
    if (gg_front_build_lib(rule, front, lib, &c.front, err))
        return -1;
    c.final = *net;
    n->shifts = gg_circuit_shifts_per_word(&c);
    n->front = c.front.gates_per_word;
    n->final = net->n_gates;
    n->not_gate = gg_synth_cost(net, lib) - net->n_gates;
    n->total = n->shifts + n->front + n->final + n->not_gate;
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

/* What a proof of this answer still needs: every k from the lower bound
 * to one below the network shown impossible. k=7 costs at least 200 k=6
 * proofs, so an 8-gate answer is a matter of hours on many cores, not of
 * a longer --time-limit on a laptop. */
static void print_proof_left(gg_lib lib, int lower, int gates)
{
    if (lower >= gates)
        return;
    printf("  left to prove: no network of %d", lower);
    if (gates - 1 > lower)
        printf("..%d", gates - 1);
    printf(" gates\n");
    for (int k = lower; k < gates; k++) {
        const gg_k_cost *c = gg_k_cost_find(lib, k);
        if (c)
            printf("  (k=%d: %d shapes, usually %s%.0f times the work of "
                   "k=6)\n", k, c->shapes, c->at_least ? "at least " : "",
                   c->times_k6);
    }
}

/* The search line. A run a signal stopped says so, how long the run
 * took and what it kept: stopped before its first k it has no steps and
 * no search time, which read "search: trivial (0.00 s)". */
static void print_search(const synth_args *a, const outcome *o, int sig)
{
    const char *log = o->info.search;
    if (!sig || o->cached) {
        printf("  search: %s (%.2f s)\n", log[0] ? log : "trivial",
               o->info.seconds);
        return;
    }
    printf("  search: stopped by %s ", gg_stop_signal_name(sig));
    if (log[0])
        printf("in %s", log);
    else
        printf("before the exact search began");
    printf(" (%.2f s in all)", gg_kjob_now() - a->t0);
    if (o->exact)
        printf("; kept the search's best network");
    else
        printf("; kept the best start, from %s",
               o->start ? o->start : "the fallback");
    printf(" (%d gates)\n", o->net.n_gates);
}

static void print_text(const synth_args *a, const gg_rule *rule,
                       gg_front_kind front, gg_lib lib, const outcome *o,
                       const ops *n, int sig)
{
    char name[128];
    gg_rule_format_transition(rule, name, sizeof name);
    char *text = network_text(rule, front, &o->net);
    printf("%s", text ? text : "");
    free(text);
    printf("rule %s, front %s, lib %s: %d gates, %s%s\n", name,
           gg_front_name(front), gg_lib_name(lib), o->net.n_gates,
           o->info.proven ? "proven minimal"
                          : "not proven minimal",
           o->cached ? " (from the cache)" : "");
    if (!o->info.proven && o->info.lower_bound > 0) {
        printf("  every network has at least %d gates\n", o->info.lower_bound);
        print_proof_left(lib, o->info.lower_bound, o->net.n_gates);
    } else if (!o->info.proven) /* composed (rowsum+cells): no search */
        printf("  no lower bound known\n");
    if (!o->info.proven && progress_of(&o->info))
        printf("  of k=%d, %d of %d network shapes shown impossible "
               "(--resume goes on)\n", o->info.proof.k,
               progress_of(&o->info), o->info.proof.shapes_total);
    else if (!o->info.proven && o->cached)
        printf("  (--resume goes on with the proof at k=%d)\n",
               o->info.lower_bound);
    printf("  ops per word: %d = %d shifts + %d front + %d final + %d not\n",
           n->total, n->shifts, n->front, n->final, n->not_gate);
    print_search(a, o, sig);
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        if ((unsigned char)*s >= 0x20)
            putchar(*s);
    }
    putchar('"');
}

static void json_per_k(const gg_synth_result *r)
{
    static const char *names[] = {"UNSAT", "SAT", "unknown"};
    printf(",\"per_k\":[");
    for (int i = 0; i < r->n_k; i++) {
        const gg_synth_k *k = &r->per_k[i];
        printf("%s{\"k\":%d,\"status\":\"%s\",\"seconds\":%.3f,"
               "\"conflicts\":%llu,\"shapes\":%d,\"shapes_total\":%d}",
               i ? "," : "", k->k, names[k->status], k->seconds,
               (unsigned long long)k->conflicts, k->shapes, k->shapes_total);
    }
    putchar(']');
}

static void json_network(const gg_rule *rule, gg_front_kind front,
                         const gg_net *net)
{
    char *text = network_text(rule, front, net);
    printf(",\"network\":[");
    int first = 1;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        printf(first ? "" : ",");
        json_string(line);
        first = 0;
    }
    putchar(']');
    free(text);
}

static void print_json(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                       const outcome *o, const ops *n, int sig)
{
    char name[128];
    gg_rule_format_transition(rule, name, sizeof name);
    printf("{\"rule\":");
    json_string(name);
    printf(",\"front\":\"%s\",\"lib\":\"%s\",\"gates\":%d,\"proven\":%s,"
           "\"lower_bound\":%d,\"output_inverted\":%s,\"ops_per_word\":%d,"
           "\"ops\":{\"shifts\":%d,\"front\":%d,\"final\":%d,\"not\":%d},"
           "\"seconds\":%.3f,\"cached\":%s,\"search\":",
           gg_front_name(front), gg_lib_name(lib), o->net.n_gates,
           o->info.proven ? "true" : "false", o->info.lower_bound,
           o->net.out_neg[0] ? "true" : "false", n->total, n->shifts,
           n->front, n->final, n->not_gate, o->info.seconds,
           o->cached ? "true" : "false");
    json_string(o->info.search);
    if (progress_of(&o->info))
        printf(",\"proof\":{\"k\":%d,\"shapes\":%d,\"impossible\":%d}",
               o->info.proof.k, o->info.proof.shapes_total,
               progress_of(&o->info));
    if (!o->cached)
        printf(",\"resumed_shapes\":%d", o->res.resumed);
    printf(",\"stopped_by\":");
    if (sig)
        json_string(gg_stop_signal_name(sig));
    else
        printf("null");
    if (!o->cached)
        json_per_k(&o->res);
    json_network(rule, front, &o->net);
    printf("}\n");
}

/* The cache's answer (1), none (0) or a rejected entry (-1). */
static int from_cache(const synth_args *a, const gg_rule *rule,
                      gg_front_kind front, gg_lib lib, outcome *o, gg_err *err)
{
    int rc = gg_cache_lookup(a->choose.cache_root, rule, front, lib, &o->net, &o->info, err);
    o->cached = rc == 1;
    return rc;
}

/* net shrunk by window resynthesis, with a progress line. */
static void polish(gg_net *net, const gg_tt *t, const gg_resynth_opts *ro,
                   const char *from)
{
    gg_err ignore;
    fprintf(stderr, "  start: %d gates from %s",
            gg_synth_cost(net, GG_LIB_GATE2), from);
    if (gg_resynth(net, t, ro, &ignore) > 0)
        fprintf(stderr, ", %d after window resynthesis",
                gg_synth_cost(net, GG_LIB_GATE2));
    fputc('\n', stderr);
}

/* The networks the search starts from: the cache's and the candidates of
 * the one policy (sat/choose/choose.h) with synth's time budget: the adder tree
 * and, for gate2, a LUT3 network mapped gate by gate. */
static void collect_starts(const synth_args *a, const gg_rule *rule,
                           gg_front_kind front, gg_lib lib, const gg_front *f,
                           const gg_tt *t, const outcome *o, int have,
                           gg_choose_set *st)
{
    gg_err ignore;
    st->n = 0;
    if (have == 1) {
        st->net[st->n] = o->net;
        st->from[st->n++] = "the cache";
    }
    /* the adder tree's exact rests get up to 120 s in all, or half of what
     * is left: with no cache entry its network is often the one returned
     * (its wide rests find 7 LUTs where the narrow tree gives 8 in 4-40 s;
     * sat/choose/adder.c), and they only look for networks below the cache's */
    gg_choose_budget b = {.seconds = budget(a, 120, 0.5),
                          .cancel = &interrupted,
                          .beat = have == 1 ? gg_synth_cost(&o->net, lib) : 0};
    gg_choose_candidates(rule, front, lib, f, t, &a->choose, &b, st, &ignore);
}

/* Each gate2 start shrunk by window resynthesis (--resynth-time each, all
 * of them within a quarter of what --time-limit leaves): a larger start
 * may shrink further than the best one (B3/S135: mapped 20 -> 14, cache
 * 18). */
static void polish_starts(const synth_args *a, const gg_tt *t,
                          gg_choose_set *st)
{
    for (int i = 0; i < st->n; i++) {
        gg_resynth_opts ro = {
            .lib = GG_LIB_GATE2, .leaves = a->resynth_leaves,
            .window_seconds = 1, .cancel = &interrupted,
            .time_limit = budget(a, a->resynth_time, 0.25 / (st->n - i))};
        polish(&st->net[i], t, &ro, st->from[i]);
    }
}

/* --front rowsum+cells: the composed circuit (sat/choose/choose.h), verified and
 * stored like a search's result, unproven. */
static int run_composed(const synth_args *a, const gg_rule *rule, gg_lib lib,
                        outcome *o, gg_err *err)
{
    if (rule->nbhd != GG_NBHD_MOORE || gg_rule_is_totalistic(rule)) {
        gg_fail(err, "--front rowsum+cells is for Moore rules whose "
                "arrangement matters (Hensel, MAP); this one is totalistic: "
                "leave --front out");
        return GG_EXIT_USAGE;
    }
    gg_circuit *c = gg_alloc(1, sizeof *c, err, "circuit");
    if (!c)
        return GG_EXIT_ENV;
    double t0 = gg_kjob_now();
    int bad_row = 0, rc = GG_EXIT_OK;
    if (gg_choose_composed_circuit(rule, lib, &a->choose, 0, c, err))
        rc = GG_EXIT_CHECK_FAILED;
    else if (gg_circuit_check(c, &bad_row)) {
        gg_fail(err, "the composed circuit is wrong on neighbourhood %d; "
                "nothing stored", bad_row);
        rc = GG_EXIT_CHECK_FAILED;
    }
    if (!rc) {
        memset(&o->info, 0, sizeof o->info);
        o->net = c->final;
        o->info.gates = c->final.n_gates;
        o->info.seconds = gg_kjob_now() - t0;
        snprintf(o->info.search, sizeof o->info.search, "composed:%s",
                 c->source);
        o->start = "the composed circuit";
        if (store(a, rule, GG_FRONT_ROWSUM_CELLS, lib, o, err))
            rc = GG_EXIT_CHECK_FAILED;
    }
    free(c);
    return rc;
}

static int run(const synth_args *a, const gg_rule *rule, gg_front_kind front,
               gg_lib lib, outcome *o, gg_err *err)
{
    gg_front f;
    gg_tt t;
    if (gg_front_build(rule, front, &f, err) ||
        gg_front_final_tt(rule, &f, &t, err))
        return GG_EXIT_USAGE;
    int have = from_cache(a, rule, front, lib, o, err);
    if (have < 0 && !a->force)
        return GG_EXIT_CHECK_FAILED;
    if (have < 0) { /* the message says --force replaces it: so it does */
        fprintf(stderr, "golgen synth: %s; --force: searching afresh%s\n",
                err->msg, a->no_store ? "" : " and replacing it");
        have = 0;
    }
    /* a proven entry is the answer; an unproven one too, unless --resume
     * asks to go on with its proof (--force searches again either way) */
    if (have == 1 && !a->force && (o->info.proven || !a->resume))
        return GG_EXIT_OK;
    /* the starts, then the fallback in their last slot */
    gg_choose_set *st = gg_alloc(1, sizeof *st, err, "starting networks");
    if (!st)
        return GG_EXIT_ENV;
    /* the cache's lower bound and proof record: the search goes on from
     * there (and --k-min at that bound raises it) */
    gg_cache_info before = o->info;
    int known_lower = have == 1 ? before.lower_bound : 0;
    if (have == 1 && a->resume && !a->force) {
        /* the cached network already beat the candidates of the run that
         * stored it: resuming goes straight to the proof */
        st->n = 0;
        st->net[st->n] = o->net;
        st->from[st->n++] = "the cache";
    } else {
        collect_starts(a, rule, front, lib, &f, &t, o, have, st);
        if (lib == GG_LIB_GATE2)
            polish_starts(a, &t, st);
    }
    /* what the emitters build without a cache entry (a fraction of a
     * second, not interruptible): a run stopped early must not store a
     * network worse than that (B3568/S1245 gate2 stopped in the adder
     * step stored a 39-gate decision diagram; the emitters make 21) */
    char source[GG_CIRCUIT_SOURCE_MAX];
    int rc = GG_EXIT_OK;
    /* (the starts take at most 3 of the set's GG_CHOOSE_MAX slots) */
    if (gg_choose_fallback(rule, front, lib, &f, &t, &a->choose,
                           &st->net[st->n], source, err))
        rc = GG_EXIT_CHECK_FAILED;
    else
        st->from[st->n++] = "the fallback";
    o->cached = false;
    int best = rc ? 0 : gg_choose_cheapest(st, lib);
    if (!rc) /* said when a signal stops the search; a string constant */
        o->start = st->from[best];
    if (!rc && solve(a, &t, &st->net[best], known_lower,
                     have == 1 ? &before.proof : NULL, o, err))
        rc = gg_sat_available() ? GG_EXIT_CHECK_FAILED : GG_EXIT_ENV;
    free(st);
    if (rc)
        return rc;
    /* a proof that went on where the cached one stopped took the time of
     * both runs */
    if (have == 1 && o->res.n_k > 0 && o->res.per_k[0].k == known_lower)
        o->info.seconds += before.seconds;
    /* an interrupted search still stores its best network, unproven */
    if (store(a, rule, front, lib, o, err))
        return GG_EXIT_CHECK_FAILED;
    return GG_EXIT_OK;
}

/* A rank but 0, from the parsed arguments to its exit status: stopped
 * by a signal like rank 0 (mpirun passes it to every rank). */
static int synth_follower(const synth_args *a, const gg_rule *rule,
                          gg_front_kind front)
{
    struct sigaction old[GG_N_STOP_SIGNALS];
    gg_err err = {{0}};
    gg_stop_signals_catch(on_signal, old);
    int rc = follow(a, rule, front, &err);
    gg_synth_ranks_free();
    int sig = interrupted;
    gg_stop_signals_release(old);
    if (rc != GG_EXIT_OK && err.msg[0]) /* else rank 0 says why */
        return gg_cli_error("synth", rc, &err);
    return rc ? rc : sig ? 128 + sig : GG_EXIT_OK;
}

int gg_cmd_synth(int argc, char **argv, const gg_config *cfg)
{
    synth_args a = { .lib = "lut3", .resynth_time = 10,
                    .opts.time_limit = DEFAULT_TIME_LIMIT,
                    .resynth_leaves = 6, .t0 = gg_kjob_now(),
                    .choose = cfg->choose};
    gg_err err;
    /* under mpirun every rank parses the same arguments: rank 0 speaks */
    bool lead = gg_cli_rank() == 0;
    int rc = parse_args(argc, argv, &a, &err);
    if (rc > 0) {
        if (lead)
            usage(stdout);
        return GG_EXIT_OK;
    }
    if (rc) /* the message alone: the usage would bury it */
        return lead ? gg_cli_error("synth", GG_EXIT_USAGE, &err)
                    : GG_EXIT_USAGE;
    gg_rule rule;
    gg_front_kind front;
    gg_lib lib;
    if (gg_rule_parse(a.rule, &rule, &err) ||
        gg_cli_front(a.front, &rule, &front, &err) ||
        gg_lib_parse(a.lib, &lib, &err))
        return lead ? gg_cli_error("synth", GG_EXIT_USAGE, &err)
                    : GG_EXIT_USAGE;
    a.opts.lib = lib;
    if (!lead)
        return synth_follower(&a, &rule, front);
    static outcome o; /* a gg_net is big; keep it off the stack */
    memset(&o, 0, sizeof o);
    ops n;
    /* from here on Ctrl-C, SIGTERM and SIGHUP stop the work, and the best
     * network so far is stored and printed (unproven); a second one while
     * storing and printing changes nothing */
    struct sigaction old[GG_N_STOP_SIGNALS];
    gg_stop_signals_catch(on_signal, old);
    rc = front == GG_FRONT_ROWSUM_CELLS ? run_composed(&a, &rule, lib, &o, &err)
                                        : run(&a, &rule, front, lib, &o, &err);
    if (!shared) /* no search: the other ranks have nothing to do */
        share_search(NULL, &err);
    gg_synth_ranks_free();
    if (rc == GG_EXIT_OK && count_ops(&rule, front, lib, &o.net, &n, &err))
        rc = GG_EXIT_USAGE;
    if (rc == GG_EXIT_OK && a.json)
        print_json(&rule, front, lib, &o, &n, interrupted);
    else if (rc == GG_EXIT_OK)
        print_text(&a, &rule, front, lib, &o, &n, interrupted);
    fflush(stdout);
    int sig = interrupted;
    gg_stop_signals_release(old);
    if (rc != GG_EXIT_OK)
        return gg_cli_error("synth", rc, &err);
    if (sig) {
        fprintf(stderr, "golgen synth: stopped by %s: the network above is "
                "the best found, not proven minimal%s\n",
                gg_stop_signal_name(sig),
                a.no_store ? "" : "; it is cached with what was proven "
                "('golgen synth --resume' goes on from there)");
        /* the shell's convention, 128 + the signal, as golgen run */
        return 128 + sig;
    }
    return GG_EXIT_OK;
}
