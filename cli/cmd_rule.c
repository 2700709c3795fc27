/* golgen rule: what golgen understands of a rule string. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "run3d.h"
#include "run_gen.h"
#include "run_ltl.h"
#include "run_table.h"
#include "commands.h"
#include "front.h"
#include "truth.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: golgen rule [--rules DIR] RULE\n\n"
                 "Print the canonical form of RULE (Golly notation: B3/S23, "
                 "23/3, B2/S013V, B245/S3H,\nB2n3/S23-q, MAP<base64>; with :TW,H torus or :PW,H plane "
                 "suffix; Generations S/B/C: 23/3/3, /2/3), its neighbourhood, topology and truth table.\n"
                 "Larger than Life in Golly's notation (R5,C0,M1,S34..58,B34..45,NM[:T400,400])\n"
                 "is described: range, states, neighbourhood, S and B ranges.\n"
                 "A RULE that names a Golly rule file (WireWorld, Codd) is read from "
                 "NAME.rule in --rules DIR,\nthen in /usr/share/golly/Rules, and "
                 "described: states, neighbourhood, symmetries,\ntransitions and "
                 "where it was found.\n");
}

static const char *kind_name(const gg_rule *r)
{
    if (r->kind == GG_KIND_TOTALISTIC)
        return "outer-totalistic";
    bool tot = gg_rule_is_totalistic(r);
    if (r->notation == GG_NOTATION_MAP)
        return tot ? "MAP (a whole 3x3 table; this one is totalistic)"
                   : "MAP (a whole 3x3 table)";
    return tot ? "isotropic non-totalistic (Hensel), totalistic after all"
               : "isotropic non-totalistic (Hensel)";
}

static int print_final(const gg_rule *r, gg_err *err)
{
    gg_front f;
    gg_tt t;
    if (gg_front_build(r, gg_front_for_rule(r), &f, err) ||
        gg_front_final_tt(r, &f, &t, err))
        return -1;
    printf("%-15s %d inputs (", "final stage:", t.n_inputs);
    for (int i = 0; i < f.net.n_outputs; i++)
        printf("%s%s", i ? " " : "", f.names[i]);
    printf("), %d care rows of %d, %d on\n", gg_tt_count_care(&t),
           gg_tt_rows(&t), gg_tt_count_on(&t));
    return 0;
}

/* A name B/S notation does not know may be a Golly rule file
 * (cli/run_table.h); err holds the parse error. */
static int rule_file(const char *name, const char *rules_dir, gg_err *err)
{
    gg_rule_found f;
    gg_err ferr;
    int got = gg_rule_find(name, NULL, rules_dir, &f, &ferr);
    if (got == 0) {
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n, " (nor a rule file: %.300s)",
                 ferr.msg);
    }
    if (got <= 0)
        return gg_cli_error("rule", GG_EXIT_USAGE, got < 0 ? &ferr : err);
    gg_rule_print_table(&f);
    gg_rule_found_free(&f);
    return GG_EXIT_OK;
}

int gg_cmd_rule(int argc, char **argv, const gg_config *cfg)
{
    (void)cfg; /* a rule needs no environment */
    if (gg_cli_is_3d(argc, argv, true)) /* 3D.lua rules: cli/run3d.c */
        return gg_cmd_rule3d(argc, argv, cfg);
    static const struct option opts[] = {{"help", no_argument, 0, 'h'},
                                         {"rules", required_argument, 0, 'U'},
                                         {0, 0, 0, 0}};
    int c;
    const char *rules_dir = NULL;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return GG_EXIT_OK;
        }
        if (c == 'U') {
            rules_dir = optarg;
            continue;
        }
        usage(stderr);
        return GG_EXIT_USAGE;
    }
    if (optind != argc - 1) {
        usage(stderr);
        return GG_EXIT_USAGE;
    }
    gg_rule r;
    gg_err err;
    if (gg_ltl_looks_like(argv[optind])) /* cli/run_ltl.c */
        return gg_rule_print_ltl(argv[optind]);
    if (gg_rule_parse(argv[optind], &r, &err))
        return rule_file(argv[optind], rules_dir, &err);
    if (gg_rule_is_generations(&r)) { /* S/B/C: cli/run_gen.c */
        gg_rule_print_generations(&r);
        return GG_EXIT_OK;
    }
    char canon[256], trans[192];
    gg_rule_format(&r, canon, sizeof canon);
    gg_rule_format_transition(&r, trans, sizeof trans);
    gg_tt t;
    gg_tt_from_rule(&r, &t);
    printf("%-15s %s\n", "rule:", canon);
    printf("%-15s %s\n", "transition:", trans);
    printf("%-15s %s\n", "kind:", kind_name(&r));
    printf("%-15s %s (%d neighbours)\n", "neighbourhood:",
           gg_nbhd_name(r.nbhd), r.n_neighbours);
    gg_cli_print_topology(&r);
    gg_cli_print_counts("birth:", r.birth, r.n_neighbours);
    gg_cli_print_counts("survival:", r.survive, r.n_neighbours);
    printf("%-15s %d rows (centre + %d neighbours), %d on\n", "truth table:",
           gg_tt_rows(&t), r.n_neighbours, gg_tt_count_on(&t));
    if (gg_rule_has_b0(&r))
        printf("%-15s yes: simulated literally on bounded grids; unbounded "
               "runs are refused\n", "B0:");
    if (print_final(&r, &err))
        return gg_cli_error("rule", GG_EXIT_USAGE, &err);
    return GG_EXIT_OK;
}
