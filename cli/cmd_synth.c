/* golgen synth: the fewest gates for a rule's final stage, from the
 * network cache or from the SAT solver (which then fills the cache). */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adder.h"
#include "cache.h"
#include "circuit.h"
#include "cli_util.h"
#include "commands.h"
#include "lut_map.h"
#include "net_text.h"
#include "resynth.h"
#include "synth.h"

typedef struct synth_args {
    const char *rule, *front, *lib, *root;
    bool json, force, no_store;
    gg_synth_opts opts;
} synth_args;

/* What a run produced, from the cache or the solver. */
typedef struct outcome {
    gg_net net;
    gg_cache_info info;
    bool cached, exact;
    gg_synth_result res; /* solver runs only */
} outcome;

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void usage(FILE *out)
{
    fprintf(out,
        "usage: golgen synth --rule RULE [--lib lut3|gate2] "
        "[--front rowsum|rowsum-lr|none] [--json]\n"
        "                    [--time-limit S] [--k-time-limit S] "
        "[--shape-time-limit S]\n"
        "                    [--threads N] [--k-min K] [--k-max K] "
        "[--init-rows N]\n"
        "                    [--force] [--no-store] [--generated DIR]\n\n"
        "Find the fewest gates of the library that compute RULE's final "
        "stage on every\nreachable input (don't-cares left free). k runs "
        "upward from a lower bound; a k\nwith no network is proven UNSAT, "
        "so the first k that works is the minimum. A\ntime limit or Ctrl-C "
        "keeps the best network so far, marked unproven. With\n"
        "--shape-time-limit a first pass gives each network shape S seconds "
        "to find a\nnetwork fast, and a second pass settles the shapes left "
        "open. Results\nare "
        "verified on every row and cached under DIR/networks (default "
        "$GOLGEN_GENERATED\nor the source tree's generated/); a cached "
        "answer is reused unless --force.\n\n"
        "The search has to beat the best known network: the cache's, the "
        "adder tree's\n(full adders over the row sums, then a small exact "
        "rest) and, for gate2, the\ncached lut3 network mapped LUT by LUT; "
        "for gate2 the best of the first ones and\nthe mapped one are both "
        "shrunk by re-solving small windows (at most 10 s\neach, or a "
        "quarter of --time-limit).\n\n"
        "ops_per_word = neighbour shifts (2: one row's left and right words, "
        "shared by\nthe three rows that read them) + front gates per word "
        "(one shared row sum:\n2 lut3 or 5 gate2; none for --front none) "
        "+ final-stage gates (+1 NOT when a\ngate2 network must invert its "
        "output, for B0 rules).\n\n"
        "--k-min K starts at K: an UNSAT there raises the lower bound when "
        "the cache\nalready rules out every k below K.\n"
        "--init-rows N: care rows put into each CNF before counterexamples "
        "(default: all\nof a table of up to 128 rows, else 64). "
        "--threads N: solver threads (one\nshape each; a single "
        "free-topology CNF gets up to 8 CryptoMiniSat threads).\n");
}

static int parse_num(const char *opt, const char *text, int64_t max,
                     int64_t *v, gg_err *err)
{
    return gg_cli_int(opt, text, 0, max, v, err);
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
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    int c;
    int64_t v;
    while ((c = getopt_long(argc, argv, "r:f:l:jt:T:s:p:k:K:Fng:i:h", opts, NULL)) != -1) {
        switch (c) {
        case 'r': a->rule = optarg; break;
        case 'f': a->front = optarg; break;
        case 'l': a->lib = optarg; break;
        case 'j': a->json = true; break;
        case 't': a->opts.time_limit = atof(optarg); break;
        case 'T': a->opts.k_time_limit = atof(optarg); break;
        case 's': a->opts.shape_time_limit = atof(optarg); break;
        case 'p': if (parse_num("--threads", optarg, 64, &v, err)) return -1;
                  a->opts.threads = (int)v; break;
        case 'k': if (parse_num("--k-min", optarg, GG_ENC_MAX_GATES, &v, err)) return -1;
                  a->opts.k_min = (int)v; break;
        case 'K': if (parse_num("--k-max", optarg, GG_ENC_MAX_GATES, &v, err)) return -1;
                  a->opts.k_max = (int)v; break;
        case 'F': a->force = true; break;
        case 'n': a->no_store = true; break;
        case 'g': a->root = optarg; break;
        case 'i': if (parse_num("--init-rows", optarg, 1 << 16, &v, err)) return -1;
                  a->opts.init_rows = (int)v; break;
        case 'h': return 1;
        default: return gg_fail(err, "unknown option; see 'golgen synth --help'");
        }
    }
    if (!a->rule || optind != argc)
        return gg_fail(err, "--rule is required; see 'golgen synth --help'");
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

/* Stores a new result unless the cache already holds one at least as
 * good: fewer gates, or as few and proven, or as few, neither proven and
 * a lower bound at least as high (a run that settles one more k keeps its
 * bound even when its network is the cached one). */
static int store(const synth_args *a, const gg_rule *rule, gg_front_kind front,
                 gg_lib lib, const outcome *o, gg_err *err)
{
    gg_net old;
    gg_cache_info info;
    gg_err ignore;
    if (a->no_store)
        return 0;
    int have = gg_cache_lookup(a->root, rule, front, lib, &old, &info, &ignore);
    if (have == 1) {
        int was = gg_synth_cost(&old, lib), now = gg_synth_cost(&o->net, lib);
        if (was < now || (was == now && info.proven))
            return 0;
        if (was == now && !o->info.proven &&
            info.lower_bound >= o->info.lower_bound)
            return 0;
    }
    return gg_cache_store(a->root, rule, front, lib, &o->net, &o->info, err);
}

static int solve(const synth_args *a, const gg_tt *t, const gg_net *upper,
                 int known_lower, outcome *o, gg_err *err)
{
    gg_synth_opts opts = a->opts;
    opts.upper = upper;
    opts.known_lower = known_lower;
    opts.cancel = &interrupted;
    opts.progress = true;
    void (*old)(int) = signal(SIGINT, on_sigint);
    int rc = gg_synth_run(t, &opts, &o->res, err);
    signal(SIGINT, old);
    if (rc)
        return -1;
    o->net = o->res.net;
    o->exact = o->res.exact;
    o->info.gates = o->net.n_gates;
    o->info.proven = o->res.proven;
    o->info.lower_bound = o->res.lower_bound;
    o->info.seconds = o->res.seconds;
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

static void print_text(const synth_args *a, const gg_rule *rule,
                       gg_front_kind front, gg_lib lib, const outcome *o,
                       const ops *n)
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
    if (!o->info.proven)
        printf("  every network has at least %d gates\n", o->info.lower_bound);
    printf("  ops per word: %d = %d shifts + %d front + %d final + %d not\n",
           n->total, n->shifts, n->front, n->final, n->not_gate);
    printf("  search: %s (%.2f s)\n", o->info.search[0] ? o->info.search
                                                        : "trivial",
           o->info.seconds);
    (void)a;
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
                       const outcome *o, const ops *n)
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
    if (!o->cached)
        json_per_k(&o->res);
    json_network(rule, front, &o->net);
    printf("}\n");
}

/* The cache's answer (1), none (0) or a rejected entry (-1). */
static int from_cache(const synth_args *a, const gg_rule *rule,
                      gg_front_kind front, gg_lib lib, outcome *o, gg_err *err)
{
    int rc = gg_cache_lookup(a->root, rule, front, lib, &o->net, &o->info, err);
    o->cached = rc == 1;
    return rc;
}

/* Takes cand as the starting network when it is cheaper (or the first). */
static void consider(const gg_net *cand, gg_lib lib, const char *from,
                     gg_net *upper, int *have, const char **upper_from)
{
    if (*have == 1 && gg_synth_cost(cand, lib) >= gg_synth_cost(upper, lib))
        return;
    *upper = *cand;
    *have = 1;
    *upper_from = from;
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

/* gate2 starting points beyond the adder tree: the best so far and the
 * cached LUT3 network mapped gate by gate, each shrunk by window
 * resynthesis (at most 10 s each, or a quarter of --time-limit): the
 * larger one may shrink further (B3/S135: mapped 20 -> 14, cache 18). */
static void gate2_upper(const synth_args *a, const gg_rule *rule,
                        gg_front_kind front, const gg_tt *t, gg_net *upper,
                        int *have, const char **from)
{
    static gg_net lut, mapped;
    gg_err ignore;
    double limit = a->opts.time_limit > 0 ? a->opts.time_limit / 4 : 10;
    gg_resynth_opts ro = {.lib = GG_LIB_GATE2, .window_seconds = 1,
                          .time_limit = limit < 10 ? limit : 10};
    if (*have == 1)
        polish(upper, t, &ro, *from);
    if (gg_cache_lookup(a->root, rule, front, GG_LIB_LUT3, &lut, NULL,
                        &ignore) == 1 &&
        gg_lut3_to_gate2(&lut, t, &mapped, &ignore) == 0) {
        polish(&mapped, t, &ro, "the cached lut3 network, mapped");
        consider(&mapped, GG_LIB_GATE2, "the cached lut3 network, mapped",
                 upper, have, from);
    }
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
    if (have < 0)
        return GG_EXIT_CHECK_FAILED;
    if (have == 1 && !a->force)
        return GG_EXIT_OK;
    static gg_net upper, adder;
    const char *from = "the cache";
    gg_err ignore;
    upper = o->net;
    /* the cache's lower bound, so that --k-min at it raises it */
    int known_lower = have == 1 ? o->info.lower_bound : 0;
    if (gg_adder_net(&f, &t, lib, &adder, &ignore) == 0)
        consider(&adder, lib, "the adder tree", &upper, &have, &from);
    if (lib == GG_LIB_GATE2)
        gate2_upper(a, rule, front, &t, &upper, &have, &from);
    o->cached = false;
    if (solve(a, &t, have == 1 ? &upper : NULL, known_lower, o, err))
        return gg_sat_available() ? GG_EXIT_CHECK_FAILED : GG_EXIT_ENV;
    if (store(a, rule, front, lib, o, err))
        return GG_EXIT_CHECK_FAILED;
    return GG_EXIT_OK;
}

int gg_cmd_synth(int argc, char **argv)
{
    synth_args a = {.front = "rowsum", .lib = "lut3"};
    gg_err err;
    int rc = parse_args(argc, argv, &a, &err);
    if (rc) {
        usage(rc > 0 ? stdout : stderr);
        return rc > 0 ? GG_EXIT_OK : gg_cli_error("synth", GG_EXIT_USAGE, &err);
    }
    gg_rule rule;
    gg_front_kind front;
    gg_lib lib;
    if (gg_rule_parse(a.rule, &rule, &err) ||
        gg_front_parse(a.front, &front, &err) ||
        gg_lib_parse(a.lib, &lib, &err))
        return gg_cli_error("synth", GG_EXIT_USAGE, &err);
    a.opts.lib = lib;
    static outcome o; /* a gg_net is big; keep it off the stack */
    memset(&o, 0, sizeof o);
    ops n;
    rc = run(&a, &rule, front, lib, &o, &err);
    if (rc == GG_EXIT_OK && count_ops(&rule, front, lib, &o.net, &n, &err))
        rc = GG_EXIT_USAGE;
    if (rc != GG_EXIT_OK)
        return gg_cli_error("synth", rc, &err);
    if (a.json)
        print_json(&rule, front, lib, &o, &n);
    else
        print_text(&a, &rule, front, lib, &o, &n);
    return GG_EXIT_OK;
}
