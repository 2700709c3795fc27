/* golgen synth: the fewest gates for a rule's final stage, from the
 * network cache or from the SAT solver (which then fills the cache). The
 * work is libgolgen's golgen_synth (lib/synth.c); this file parses the
 * options, catches the stop signals and prints the answer. It includes the
 * public header only (tests/check_layers.py holds it to that). */
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "golgen.h"

#include "cli_args.h"
#include "commands.h"
#include "search_hook.h"
#include "stop_signals.h"
#include "cli_rank.h"

/* Seconds a search gets when --time-limit is not given: a user who asks
 * for a rule's network gets an answer, proven or not, in minutes. */
#define DEFAULT_TIME_LIMIT 600

typedef struct synth_args {
    const char *rule;
    bool json;
    golgen_synth_opts opts;
    double t0; /* now() at the start */
} synth_args;

/* The signal that stopped the search (SIGINT, SIGTERM or SIGHUP), 0 while
 * none did: golgen_synth polls it as its stop flag. Ctrl-C, `timeout`'s
 * SIGTERM and a closed terminal's SIGHUP all stop the search the same way:
 * the best network so far is stored and printed. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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
        golgen_solver_available("cadical") ? "it was" : "it was not");
}


/* --time-limit: seconds > 0, or "none". 0 used to mean no limit, which
 * nobody guesses; it is refused with the spelling that does. */
static int parse_time_limit(const char *text, double *v, char *msg)
{
    if (!strcmp(text, "none")) {
        *v = 0;
        return 0;
    }
    if (gg_cli_parse_seconds("--time-limit", text, 1e7, v, msg, 512))
        return -1;
    if (*v <= 0)
        return gg_cli_fail(msg, "--time-limit %s leaves no time to search; give "
                   "seconds > 0 (default %d), or --time-limit none for "
                   "no limit", text, DEFAULT_TIME_LIMIT);
    return 0;
}

static int parse_int(const char *opt, const char *text, int64_t min,
                     int64_t max, int *v, char *msg)
{
    int64_t n;
    if (gg_cli_parse_int(opt, text, min, max, &n, msg, 512))
        return -1;
    *v = (int)n;
    return 0;
}

static int parse_seconds(const char *opt, const char *text, double *v,
                         char *msg)
{
    return gg_cli_parse_seconds(opt, text, 1e7, v, msg, 512);
}

/* --shapes A or A-B: shape indices, A <= B. */
static int parse_shapes(const char *text, golgen_synth_opts *o, char *msg)
{
    char first[32];
    const char *dash = strchr(text, '-');
    size_t n = dash ? (size_t)(dash - text) : strlen(text);
    int a, b;
    if (n >= sizeof first)
        return gg_cli_fail(msg, "--shapes wants A or A-B, not '%s'", text);
    memcpy(first, text, n);
    first[n] = 0;
    if (parse_int("--shapes", first, 0, INT32_MAX, &a, msg) ||
        parse_int("--shapes", dash ? dash + 1 : first, a, INT32_MAX, &b,
                  msg))
        return -1;
    o->shapes_range = 1;
    o->shapes_first = a;
    o->shapes_last = b;
    return 0;
}

static int parse_args(int argc, char **argv, synth_args *a, char *msg)
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
    golgen_synth_opts *o = &a->opts;
    const int max_k = GOLGEN_SYNTH_MAX_GATES;
    int c;
    while ((c = getopt_long(argc, argv, "r:f:l:jt:T:s:p:k:K:Fng:i:R:L:M:S:A:xPV:Dh", opts, NULL)) != -1) {
        switch (c) {
        case 'r': a->rule = optarg; break;
        case 'f': o->front = optarg; break;
        case 'l': o->lib = optarg; break;
        case 'j': a->json = true; break;
        case 't': if (parse_time_limit(optarg, &o->time_limit, msg))
                      return -1;
                  break;
        case 'P': o->resume = 1; break;
        case 'T': if (parse_seconds("--k-time-limit", optarg,
                                    &o->k_time_limit, msg)) return -1;
                  break;
        case 's': if (parse_seconds("--shape-time-limit", optarg,
                                    &o->shape_time_limit, msg)) return -1;
                  break;
        case 'R': if (parse_seconds("--resynth-time", optarg,
                                    &o->resynth_time, msg)) return -1;
                  break;
        case 'L': if (parse_int("--resynth-leaves", optarg, 3, 8,
                                &o->resynth_leaves, msg)) return -1;
                  break;
        case 'p': if (parse_int("--threads", optarg, 0, 64, &o->threads,
                                msg)) return -1;
                  break;
        case 'k': if (parse_int("--k-min", optarg, 0, max_k, &o->k_min,
                                msg)) return -1;
                  break;
        case 'K': if (parse_int("--k-max", optarg, 0, max_k, &o->k_max,
                                msg)) return -1;
                  break;
        case 'F': o->force = 1; break;
        case 'n': o->no_store = 1; break;
        case 'g': o->cache_root = optarg; break;
        case 'i': if (parse_int("--init-rows", optarg, 0, 1 << 16,
                                &o->init_rows, msg)) return -1;
                  break;
        case 'M': if (parse_int("--shape-max-k", optarg, 1, max_k,
                                &o->shape_max_k, msg)) return -1;
                  break;
        case 'S': if (parse_int("--shape-stride", optarg, 1, 1 << 30,
                                &o->shape_stride, msg)) return -1;
                  break;
        case 'A': if (parse_shapes(optarg, o, msg)) return -1;
                  break;
        case 'x': o->trace = 1; break;
        case 'D': o->plain_cnf = 1; break;
        case 'V': if (strcmp(optarg, "auto") && strcmp(optarg, "cms") &&
                      (strcmp(optarg, "cadical") ||
                       !golgen_solver_available("cadical")))
                      return gg_cli_fail(msg, "--solver %s: give auto, cms or "
                                 "cadical (cadical needs a golgen built "
                                 "with libcadical-dev)", optarg);
                  o->solver = optarg;
                  break;
        case 'h': return 1;
        default: return gg_cli_fail(msg, "unknown option; see 'golgen synth --help'");
        }
    }
    if (!a->rule || optind != argc)
        return gg_cli_fail(msg, "--rule is required; see 'golgen synth --help'");
    if (o->k_min && o->k_max && o->k_min > o->k_max)
        return gg_cli_fail(msg, "--k-min %d is above --k-max %d: nothing to "
                   "search; give k-min <= k-max", o->k_min, o->k_max);
    return 0;
}

/* What a proof of this answer still needs: every k from the lower bound
 * to one below the network shown impossible. k=7 costs at least 200 k=6
 * proofs, so an 8-gate answer is a matter of hours on many cores, not of
 * a longer --time-limit on a laptop. */
static void print_proof_left(const golgen_synth_result *r)
{
    int lower = r->lower_bound, gates = r->gates;
    if (lower >= gates)
        return;
    printf("  left to prove: no network of %d", lower);
    if (gates - 1 > lower)
        printf("..%d", gates - 1);
    printf(" gates\n");
    for (int i = 0; i < r->n_left; i++)
        printf("  (k=%d: %d shapes, usually %s%.0f times the work of "
               "k=6)\n", r->left[i].k, r->left[i].shapes,
               r->left[i].at_least ? "at least " : "", r->left[i].times_k6);
}

/* The search line. A run a signal stopped says so, how long the run
 * took and what it kept: stopped before its first k it has no steps and
 * no search time, which read "search: trivial (0.00 s)". */
static void print_search(const synth_args *a, const golgen_synth_result *r,
                         int sig)
{
    const char *log = r->search;
    if (!sig || r->cached) {
        printf("  search: %s (%.2f s)\n", log[0] ? log : "trivial",
               r->seconds);
        return;
    }
    printf("  search: stopped by %s ", gg_stop_signal_name(sig));
    if (log[0])
        printf("in %s", log);
    else
        printf("before the exact search began");
    printf(" (%.2f s in all)", now() - a->t0);
    if (r->exact)
        printf("; kept the search's best network");
    else
        printf("; kept the best start, from %s",
               r->start[0] ? r->start : "the fallback");
    printf(" (%d gates)\n", r->gates);
}

static void print_text(const synth_args *a, const golgen_synth_result *r,
                       int sig)
{
    printf("%s", r->network);
    printf("rule %s, front %s, lib %s: %d gates, %s%s\n", r->rule, r->front,
           r->lib, r->gates,
           r->proven ? "proven minimal" : "not proven minimal",
           r->cached ? " (from the cache)" : "");
    if (!r->proven && r->lower_bound > 0) {
        printf("  every network has at least %d gates\n", r->lower_bound);
        print_proof_left(r);
    } else if (!r->proven) /* composed (rowsum+cells): no search */
        printf("  no lower bound known\n");
    if (!r->proven && r->proof_impossible)
        printf("  of k=%d, %d of %d network shapes shown impossible "
               "(--resume goes on)\n", r->proof_k, r->proof_impossible,
               r->proof_shapes);
    else if (!r->proven && r->cached)
        printf("  (--resume goes on with the proof at k=%d)\n",
               r->lower_bound);
    printf("  ops per word: %d = %d shifts + %d front + %d final + %d not\n",
           r->ops_per_word, r->shifts, r->front_ops, r->final_ops,
           r->not_ops);
    print_search(a, r, sig);
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

static void json_per_k(const golgen_synth_result *r)
{
    printf(",\"per_k\":[");
    for (int i = 0; i < r->n_k; i++)
        printf("%s{\"k\":%d,\"status\":\"%s\",\"seconds\":%.3f,"
               "\"conflicts\":%llu,\"shapes\":%d,\"shapes_total\":%d}",
               i ? "," : "", r->per_k[i].k, r->per_k[i].status,
               r->per_k[i].seconds, r->per_k[i].conflicts,
               r->per_k[i].shapes, r->per_k[i].shapes_total);
    putchar(']');
}

static void json_network(const char *network)
{
    char *text = strdup(network);
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

static void print_json(const golgen_synth_result *r, int sig)
{
    printf("{\"rule\":");
    json_string(r->rule);
    printf(",\"front\":\"%s\",\"lib\":\"%s\",\"gates\":%d,\"proven\":%s,"
           "\"lower_bound\":%d,\"output_inverted\":%s,\"ops_per_word\":%d,"
           "\"ops\":{\"shifts\":%d,\"front\":%d,\"final\":%d,\"not\":%d},"
           "\"seconds\":%.3f,\"cached\":%s,\"search\":",
           r->front, r->lib, r->gates, r->proven ? "true" : "false",
           r->lower_bound, r->output_inverted ? "true" : "false",
           r->ops_per_word, r->shifts, r->front_ops, r->final_ops,
           r->not_ops, r->seconds, r->cached ? "true" : "false");
    json_string(r->search);
    if (r->proof_impossible)
        printf(",\"proof\":{\"k\":%d,\"shapes\":%d,\"impossible\":%d}",
               r->proof_k, r->proof_shapes, r->proof_impossible);
    if (!r->cached)
        printf(",\"resumed_shapes\":%d", r->resumed_shapes);
    printf(",\"stopped_by\":");
    if (sig)
        json_string(gg_stop_signal_name(sig));
    else
        printf("null");
    if (!r->cached)
        json_per_k(r);
    json_network(r->network);
    printf("}\n");
}

int gg_cmd_synth(int argc, char **argv, const gg_config *cfg)
{
    (void)cfg; /* the library reads the environment itself */
    synth_args a = {.t0 = now()};
    char msg[512] = "";
    golgen_synth_defaults(&a.opts);
    a.opts.time_limit = DEFAULT_TIME_LIMIT;
    /* under mpirun every rank parses the same arguments: rank 0 speaks */
    bool lead = gg_cli_rank() == 0;
    int rc = parse_args(argc, argv, &a, msg);
    if (rc > 0) {
        if (lead)
            usage(stdout);
        return GG_EXIT_OK;
    }
    if (rc) /* the message alone: the usage would bury it */
        return lead ? gg_cli_say("synth", GG_EXIT_USAGE, msg)
                    : GG_EXIT_USAGE;
    a.opts.progress = 1;
    a.opts.stop = &interrupted;
    a.opts.on_search = gg_search_note_event;
    a.opts.team = gg_cli_synth_team();
    /* from here on Ctrl-C, SIGTERM and SIGHUP stop the work, and the best
     * network so far is stored and printed (unproven); a second one while
     * storing and printing changes nothing */
    struct sigaction old[GG_N_STOP_SIGNALS];
    gg_stop_signals_catch(on_signal, old);
    golgen_synth_result *r = NULL;
    rc = gg_cli_status(golgen_synth(a.rule, &a.opts, &r, msg, sizeof msg));
    if (rc == GG_EXIT_OK && r && a.json)
        print_json(r, interrupted);
    else if (rc == GG_EXIT_OK && r)
        print_text(&a, r, interrupted);
    fflush(stdout);
    golgen_synth_free(r);
    int sig = interrupted;
    gg_stop_signals_release(old);
    /* a rank but 0 leaves bad input to rank 0, which parsed the same */
    if (rc != GG_EXIT_OK)
        return lead || rc != GG_EXIT_USAGE ? gg_cli_say("synth", rc, msg)
                                           : rc;
    if (sig && !lead) /* stopped like rank 0: mpirun passes the signal */
        return 128 + sig;
    if (sig) {
        fprintf(stderr, "golgen synth: stopped by %s: the network above is "
                "the best found, not proven minimal%s\n",
                gg_stop_signal_name(sig),
                a.opts.no_store ? "" : "; it is cached with what was proven "
                "('golgen synth --resume' goes on from there)");
        /* the shell's convention, 128 + the signal, as golgen run */
        return 128 + sig;
    }
    return GG_EXIT_OK;
}
