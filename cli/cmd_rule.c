/* golgen rule: what golgen understands of a rule string. The description
 * is libgolgen's golgen_rule_describe (lib/describe.c); this file parses
 * and prints, on the public header alone (tests/check_layers.py). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golgen.h"

#include "cli_args.h"
#include "commands.h"

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

/* A store whose header says it holds a 3D grid; false also when it cannot
 * be read. */
static bool store_is_3d(const char *path)
{
    golgen_store_info *s = NULL;
    bool is = !golgen_store_info_read(path, &s, NULL, 0) && s->depth > 0;
    golgen_store_info_free(s);
    return is;
}

/* Whether the arguments name a 3D rule, as every command asks it
 * (cli/run3d.h's gg_cli_is_3d with the rule positional): then only the
 * rule itself may be given. */
static bool names_3d(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--rule") || !strcmp(a, "-r")) && i + 1 < argc)
            return golgen_rule_is_3d(argv[i + 1]);
        if (!strncmp(a, "--rule=", 7))
            return golgen_rule_is_3d(a + 7);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--resume") && i + 1 < argc)
            return store_is_3d(argv[i + 1]);
        if (!strncmp(a, "--resume=", 9))
            return store_is_3d(a + 9);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool output = i > 1 && (!strcmp(argv[i - 1], "-o") ||
                                !strcmp(argv[i - 1], "--output"));
        if (a[0] != '-' && !output && golgen_rule_is_3d(a))
            return true;
    }
    return false;
}

static int describe(const char *text, const char *rules_dir)
{
    char *desc, msg[1024];
    size_t len;
    if (golgen_rule_describe(text, rules_dir, &desc, &len, msg, sizeof msg))
        return gg_cli_say("rule", GG_EXIT_USAGE, msg);
    fwrite(desc, 1, len, stdout);
    golgen_free(desc);
    return GG_EXIT_OK;
}

int gg_cmd_rule(int argc, char **argv, const gg_config *cfg)
{
    (void)cfg; /* a rule needs no environment */
    if (names_3d(argc, argv)) { /* 3D.lua rules: the rule alone */
        if (argc != 2) {
            fprintf(stderr, "usage: golgen rule RULE (e.g. golgen rule "
                    "'3D5..7/6:T64')\n");
            return GG_EXIT_USAGE;
        }
        return describe(argv[1], NULL);
    }
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
    return describe(argv[optind], rules_dir);
}
