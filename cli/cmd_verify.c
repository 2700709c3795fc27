/* golgen verify: a rule's circuit against its exhaustive truth table. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "choose.h"
#include "choose_gen.h"
#include "rule3d.h"
#include "rule_gen.h"
#include "run3d.h"
#include "cli_util.h"
#include "commands.h"
#include "search_note.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: golgen verify --rule RULE [--front rowsum|rowsum-lr|none] "
            "[--lib lut3|gate2]\n\n"
            "Build RULE's circuit (front end + final stage) and check it "
            "against the exhaustive\ntruth table over the centre and its "
            "neighbours. The final stage comes from the\nSAT network cache "
            "(generated/networks, or $GOLGEN_GENERATED) when it has one,\n"
            "else from the adder tree, LUTs mapped to gates (gate2) or a "
            "decision diagram,\nwhichever is smallest. Prints where it came "
            "from, its proof status and\ngate counts per stage and per "
            "64-cell word. "
            "Exit status 0 = PASS, 1 = FAIL\n(a cached network that fails "
            "included), 2 = bad input.\n");
}

static void print_counts(const char *stage, const gg_net *n)
{
    int counts[GG_OP_COUNT];
    int total = gg_net_count(n, counts);
    printf("  %-12s %3d gates (", stage, total);
    int shown = 0;
    for (int op = 0; op < GG_OP_COUNT; op++)
        if (counts[op])
            printf("%s%d %s", shown++ ? ", " : "", counts[op],
                   gg_op_name((gg_op)op));
    printf(")\n");
}

static void report(const gg_circuit *c, const char *cache_root)
{
    char rule[128];
    gg_rule_format_transition(&c->rule, rule, sizeof rule);
    printf("rule %s, front %s, library %s, final stage from %s%s\n", rule,
           gg_front_name(c->front.kind), gg_lib_name(c->lib), c->source,
           c->proven ? " (proven minimal)" : "");
    if (c->cached) {
        char path[4096];
        gg_cache_path(cache_root, &c->rule, c->front.kind, c->lib, path,
                      sizeof path);
        printf("  cached network: %s\n  proof: %s", path,
               c->proven ? "proven minimal" : "not proven minimal");
        if (!c->proven && c->lower_bound > 0)
            printf(" (every final stage has at least %d gates)",
                   c->lower_bound);
        printf("\n  search: %s\n", c->search[0] ? c->search : "trivial");
    } else {
        /* rowsum+cells is composed, not searched: synth works on the
         * cells' network */
        gg_front_kind f = c->front.kind == GG_FRONT_ROWSUM_CELLS
                              ? GG_FRONT_NONE
                              : c->front.kind;
        printf("  no cached network: 'golgen synth --rule %s --front %s "
               "--lib %s' searches for a smaller one\n", rule,
               gg_front_name(f), gg_lib_name(c->lib));
    }
    print_counts("front:", &c->front.net);
    print_counts("final stage:", &c->final);
    printf("  per 64-cell word: %d front (%s) + %d final = %d logic ops, "
           "+ %d neighbour shifts\n",
           c->front.gates_per_word,
           c->front.rows_shared ? "one row sum, shared by 3 rows"
                                : "not shared",
           c->final.n_gates, gg_circuit_gates_per_word(c),
           gg_circuit_shifts_per_word(c));
}

/* A Generations rule's per-cell stage (gen/circuits/gen_nets.h), built as a kernel
 * builds it and checked on every (state, two-state output) pair. */
static int verify_gen_stage(int states)
{
    gg_err err;
    gg_gen_nets *g = gg_alloc(1, sizeof *g, &err, "Generations stage");
    if (!g)
        return gg_cli_error("verify", GG_EXIT_ENV, &err);
    if (gg_choose_gen_nets(states, g, &err)) {
        free(g);
        return gg_cli_error("verify", GG_EXIT_CHECK_FAILED, &err);
    }
    printf("Generations, %d states in %d bit planes; per-cell stage "
           "(gate2, %s):\n", states, g->planes,
           g->proven ? "each output proven minimal" : "not proven minimal");
    if (!g->a_is_p0)
        print_counts("alive:", &g->alive);
    print_counts("next state:", &g->post);
    printf("PASS: all %d states x alive-next or not match the rule\n",
           states);
    free(g);
    return GG_EXIT_OK;
}

int gg_cmd_verify(int argc, char **argv, const gg_config *cfg)
{
    static const struct option opts[] = {
        {"rule", required_argument, 0, 'r'}, {"front", required_argument, 0, 'f'},
        {"lib", required_argument, 0, 'l'},  {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    const char *rule_text = NULL, *front_text = NULL, *lib_text = "lut3";
    int c;
    while ((c = getopt_long(argc, argv, "r:f:l:h", opts, NULL)) != -1) {
        switch (c) {
        case 'r': rule_text = optarg; break;
        case 'f': front_text = optarg; break;
        case 'l': lib_text = optarg; break;
        case 'h': usage(stdout); return GG_EXIT_OK;
        default: usage(stderr); return GG_EXIT_USAGE;
        }
    }
    if (!rule_text || optind != argc) {
        usage(stderr);
        return GG_EXIT_USAGE;
    }
    gg_err err;
    gg_rule rule;
    gg_front_kind front;
    gg_lib lib;
    if (gg_rule3d_is_3d(rule_text)) /* cli/run3d.c */
        return gg_cmd_verify3d(rule_text);
    if (gg_rule_parse(rule_text, &rule, &err))
        return gg_cli_error("verify", GG_EXIT_USAGE, &err);
    /* a Generations rule: its two-state rule's circuit, then the stage */
    int states = gg_rule_is_generations(&rule) ? rule.states : 0;
    rule = gg_gen_two_state(&rule);
    if (gg_cli_front(front_text, &rule, &front, &err) ||
        gg_lib_parse(lib_text, &lib, &err))
        return gg_cli_error("verify", GG_EXIT_USAGE, &err);
    static gg_circuit circuit;
    if (gg_choose_circuit(&rule, front, lib, &cfg->choose, &circuit, &err)) {
        /* a cached network that fails its check is a failed check */
        gg_net net;
        gg_err ignore;
        bool bad_cache = gg_cache_lookup(cfg->choose.cache_root, &rule, front,
                                         lib, &net, NULL, &ignore) < 0;
        return gg_cli_error("verify", bad_cache ? GG_EXIT_CHECK_FAILED
                                                : GG_EXIT_USAGE, &err);
    }
    /* without --front, the circuit a kernel gets (a Hensel rule's may be
     * totalistic + correction) */
    if (!front_text &&
        gg_choose_try_split(&rule, lib, &cfg->choose, &circuit, &err))
        return gg_cli_error("verify", GG_EXIT_CHECK_FAILED, &err);
    gg_search_note_finish(); /* before the report: a search's closing line */
    report(&circuit, cfg->choose.cache_root);
    int first_bad, wrong = gg_circuit_check(&circuit, &first_bad);
    int rows = 1 << (rule.n_neighbours + 1);
    if (wrong) {
        printf("FAIL: %d of %d neighbourhoods wrong, first row %d\n", wrong,
               rows, first_bad);
        return GG_EXIT_CHECK_FAILED;
    }
    printf("PASS: all %d neighbourhoods (centre + %d neighbours) match the "
           "rule\n", rows, rule.n_neighbours);
    return states > 2 ? verify_gen_stage(states) : GG_EXIT_OK;
}
