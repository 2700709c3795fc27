#include "bench_ltl.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golgen.h"

#include "cli_args.h"

bool gg_bench_is_ltl(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--rule") || !strcmp(a, "-r")) && i + 1 < argc)
            return golgen_rule_is_ltl(argv[i + 1]);
        if (!strncmp(a, "--rule=", 7))
            return golgen_rule_is_ltl(a + 7);
    }
    return false;
}

typedef struct ltl_bench {
    const char *rule;
    bool json;
    golgen_bench_opts o;
} ltl_bench;

/* A sentence into msg; -1. */
__attribute__((format(printf, 3, 4)))
static int say(char *msg, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
    return -1;
}

static int parse(int argc, char **argv, ltl_bench *o, char *msg, size_t len)
{
    static const struct option opts[] = {
        {"backend", required_argument, 0, 'b'},
        {"rule", required_argument, 0, 'r'},
        {"size", required_argument, 0, 's'},
        {"gens", required_argument, 0, 'g'},
        {"plane", no_argument, 0, 'P'},
        {"threads", required_argument, 0, 't'},
        {"isa", required_argument, 0, 'i'},
        {"seed", required_argument, 0, 'S'},
        {"json", no_argument, 0, 'j'},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->o.gens = 100;
    o->o.seed = 1;
    int64_t v;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:r:s:g:t:", opts, NULL)) != -1) {
        switch (c) {
        case 'b': o->o.backend = optarg; break;
        case 'r': o->rule = optarg; break;
        case 's': {
            const char *x = strchr(optarg, 'x');
            char wtext[32];
            if (!x || x == optarg || (size_t)(x - optarg) >= sizeof wtext)
                return say(msg, len, "--size wants WxH, e.g. 4096x4096, not "
                           "'%s'", optarg);
            memcpy(wtext, optarg, (size_t)(x - optarg));
            wtext[x - optarg] = 0;
            if (gg_cli_parse_int("--size width", wtext, 1, 1 << 20,
                                 &o->o.width, msg, len) ||
                gg_cli_parse_int("--size height", x + 1, 1, 1 << 20,
                                 &o->o.height, msg, len))
                return -1;
            break;
        }
        case 'g':
            if (gg_cli_parse_int("--gens", optarg, 1, INT64_MAX / 2,
                                 &o->o.gens, msg, len))
                return -1;
            break;
        case 'P': o->o.plane = 1; break;
        case 't':
            if (gg_cli_parse_int("--threads", optarg, 1, 4096, &v, msg, len))
                return -1;
            o->o.threads = (int)v;
            break;
        case 'i': o->o.isa = optarg; break;
        case 'S':
            if (gg_cli_parse_int("--seed", optarg, 0, INT64_MAX, &o->o.seed,
                                 msg, len))
                return -1;
            break;
        case 'j': o->json = true; break;
        default:
            return say(msg, len, "%s", "see 'golgen bench --help' (Larger "
                       "than Life rules take --backend, --rule, --size, "
                       "--gens, --plane, --threads, --isa, --seed, --json)");
        }
    }
    if (optind < argc)
        return say(msg, len, "unexpected argument '%s'", argv[optind]);
    return 0;
}

/* auto's choice, said as soon as the backend is open (a JIT compile may
 * have taken seconds, and the run may take minutes). */
static void said_auto(void *ctx, const golgen_bench_result *r)
{
    (void)ctx;
    fprintf(stderr, "golgen bench: backend auto -> %s%s%s%s\n", r->backend,
            r->auto_note[0] ? " (passed over: " : "", r->auto_note,
            r->auto_note[0] ? ")" : "");
}

static void report(const golgen_bench_result *r, bool json)
{
    double cups = (double)r->width * (double)r->height * (double)r->gens /
                  (r->seconds > 0 ? r->seconds : 1e-9);
    const char *topo = r->torus ? "torus" : "plane";
    if (json)
        printf("{\"rule\": \"%s\", \"backend\": \"%s\", \"isa\": \"%s\", "
               "\"threads\": %d, \"topology\": \"%s\", \"width\": %lld, "
               "\"height\": %lld, \"generations\": %lld, \"seconds\": %.6f, "
               "\"cups\": %.6e, \"cpu_seconds\": %.6f, \"population\": %lld, "
               "\"kernel_cached\": %s, \"open_seconds\": %.3f}\n",
               r->rule, r->backend, r->what, r->threads, topo,
               (long long)r->width, (long long)r->height, (long long)r->gens,
               r->seconds, cups, r->cpu_seconds, (long long)r->population,
               r->kernel_cached ? "true" : "false", r->open_seconds);
    else
        printf("%s %s %lldx%lld, %lld generations: %.3f s, %.3e CUpS (%s, "
               "%s, %d thread%s; %.3f CPU s)\n", r->rule, topo,
               (long long)r->width, (long long)r->height, (long long)r->gens,
               r->seconds, cups, r->backend, r->what, r->threads,
               r->threads == 1 ? "" : "s", r->cpu_seconds);
}

/* cfg is unread: the library reads the same environment main did. */
int gg_cmd_bench_ltl(int argc, char **argv, const gg_config *cfg)
{
    ltl_bench o;
    char msg[1024];
    golgen_bench_result r;
    (void)cfg;
    if (parse(argc, argv, &o, msg, sizeof msg))
        return gg_cli_say("bench", GG_EXIT_USAGE, msg);
    if (!o.o.backend || !strcmp(o.o.backend, "auto"))
        o.o.on_open = said_auto;
    int code = golgen_bench_ltl(o.rule, &o.o, &r, msg, sizeof msg);
    if (code)
        return gg_cli_say("bench", gg_cli_status(code), msg);
    report(&r, o.json);
    return GG_EXIT_OK;
}
