/* golgen verify: a rule's circuit against its exhaustive truth table.
 * The work is libgolgen's golgen_verify (lib/verify.c); this file parses
 * and prints, on the public header alone (tests/check_layers.py). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golgen.h"

#include "cli_args.h"
#include "commands.h"
#include "search_hook.h"

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

static void print_counts(const char *stage, const golgen_gates *g)
{
    printf("  %-12s %3d gates (", stage, g->total);
    for (int i = 0; i < g->n_kinds; i++)
        printf("%s%d %s", i ? ", " : "", g->kind[i].count, g->kind[i].op);
    printf(")\n");
}

static void report(const golgen_verify_result *r)
{
    printf("rule %s, front %s, library %s, final stage from %s%s\n", r->rule,
           r->front, r->lib, r->source,
           r->proven ? " (proven minimal)" : "");
    if (r->cached) {
        printf("  cached network: %s\n  proof: %s", r->cache_path,
               r->proven ? "proven minimal" : "not proven minimal");
        if (!r->proven && r->lower_bound > 0)
            printf(" (every final stage has at least %d gates)",
                   r->lower_bound);
        printf("\n  search: %s\n", r->search[0] ? r->search : "trivial");
    } else
        printf("  no cached network: 'golgen synth --rule %s --front %s "
               "--lib %s' searches for a smaller one\n", r->rule,
               r->synth_front, r->lib);
    print_counts("front:", &r->front_gates);
    print_counts("final stage:", &r->final_gates);
    printf("  per 64-cell word: %d front (%s) + %d final = %d logic ops, "
           "+ %d neighbour shifts\n",
           r->front_per_word,
           r->rows_shared ? "one row sum, shared by 3 rows" : "not shared",
           r->final_gates.total, r->ops_per_word, r->shifts_per_word);
}

/* A Generations rule's per-cell stage (gen/circuits/gen_nets.h), built as
 * a kernel builds it and checked on every (state, two-state output)
 * pair. */
static int report_gen(const golgen_verify_result *r)
{
    if (r->gen_status)
        return gg_cli_say("verify", gg_cli_status(r->gen_status),
                          r->gen_error);
    printf("Generations, %d states in %d bit planes; per-cell stage "
           "(gate2, %s):\n", r->states, r->planes,
           r->gen_proven ? "each output proven minimal"
                         : "not proven minimal");
    if (r->gen_alive_shown)
        print_counts("alive:", &r->alive_gates);
    print_counts("next state:", &r->next_gates);
    printf("PASS: all %d states x alive-next or not match the rule\n",
           r->states);
    return GG_EXIT_OK;
}

/* A 3D rule's final stage over the neighbour count and the centre. */
static int report3d(const golgen_verify_result *r)
{
    printf("rule %s (%d neighbours), final stage from %s: %d gate2 gates "
           "over %d count bits and the centre\n", r->rule, r->neighbours,
           r->source, r->final_gates.total, r->count_bits);
    if (!r->passed) {
        printf("FAIL: %s with %d live neighbours is wrong\n",
               r->first_bad >= 100 ? "a live cell" : "a dead cell",
               r->first_bad % 100);
        return GG_EXIT_CHECK_FAILED;
    }
    printf("PASS: all %d (count, centre) pairs match the rule\n", r->rows);
    return GG_EXIT_OK;
}

static int report2d(const golgen_verify_result *r)
{
    report(r);
    if (r->wrong) {
        printf("FAIL: %d of %d neighbourhoods wrong, first row %d\n",
               r->wrong, r->rows, r->first_bad);
        return GG_EXIT_CHECK_FAILED;
    }
    printf("PASS: all %d neighbourhoods (centre + %d neighbours) match the "
           "rule\n", r->rows, r->neighbours);
    return r->states > 2 ? report_gen(r) : GG_EXIT_OK;
}

int gg_cmd_verify(int argc, char **argv, const gg_config *cfg)
{
    (void)cfg; /* the library reads the environment itself */
    static const struct option opts[] = {
        {"rule", required_argument, 0, 'r'}, {"front", required_argument, 0, 'f'},
        {"lib", required_argument, 0, 'l'},  {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    const char *rule_text = NULL;
    golgen_verify_opts o = {.lib = "lut3",
                            .on_search = gg_search_note_event};
    int c;
    while ((c = getopt_long(argc, argv, "r:f:l:h", opts, NULL)) != -1) {
        switch (c) {
        case 'r': rule_text = optarg; break;
        case 'f': o.front = optarg; break;
        case 'l': o.lib = optarg; break;
        case 'h': usage(stdout); return GG_EXIT_OK;
        default: usage(stderr); return GG_EXIT_USAGE;
        }
    }
    if (!rule_text || optind != argc) {
        usage(stderr);
        return GG_EXIT_USAGE;
    }
    golgen_verify_result *r;
    char msg[512];
    int rc = golgen_verify(rule_text, &o, &r, msg, sizeof msg);
    gg_search_note_finish(); /* before the report: a search's closing line */
    if (rc)
        return gg_cli_say("verify", gg_cli_status(rc), msg);
    rc = r->dims == 3 ? report3d(r) : report2d(r);
    golgen_verify_free(r);
    return rc;
}
