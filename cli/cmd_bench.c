/* golgen bench: cell updates per second of a backend on a random soup.
 * 3D and Larger than Life rules go to cli/bench3d.c and cli/bench_ltl.c;
 * a 2D rule's bench is the library's golgen_bench_2d (lib/bench2d.c). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golgen.h"

#include "bench_ltl.h"
#include "cli_args.h"
#include "commands.h"
#include "run3d.h"
#include "search_hook.h"

static void usage(FILE *out)
{
    char names[256] = "auto|";
    golgen_backend_names("two-state", "|", names + strlen(names),
                         sizeof names - strlen(names));
    fprintf(out,
            "usage: golgen bench [--backend %s] [--rule RULE] "
            "[--size WxH] [--gens N]\n"
            "                    [--plane] [--threads N] [--isa "
            "native|avx2|portable] [--seed S] [--json]\n"
            "                    [--device-mem BYTES] [--devices LIST] "
            "[--halos peer|host]\n"
            "                    [--engine auto|dense|tiles|hashlife] "
            "[--mem BYTES]\n\n"
            "Run RULE (default B3/S23) on a random soup of density 1/2 on a "
            "WxH torus\n(default 4096x4096, or the rule's :T/:P size; --plane "
            "for dead cells outside)\nfor N generations (default 100) and "
            "print cell updates per second: width x\nheight x generations / "
            "seconds. The timed region is the simulation only: no\nfile I/O, "
            "no compilation, no validation (one untimed warm-up generation "
            "runs\nfirst). --backend auto (the default) takes the fastest "
            "backend that runs here\n(ptx, cuda, cpu, reference) and says "
            "which on stderr; --isa or --threads\nwithout --backend take the "
            "backend that reads them (cpu).\n"
            "--device-mem BYTES (e.g. 8G) streams a larger grid through the "
            "backend in bands\n(golgen run --help); the timed region is then "
            "the whole streamed run, host\ntransfers included, after one "
            "streamed warm-up generation.\n"
            "--devices LIST (e.g. 0,1; 0,0 for two bands on GPU 0) cuts the "
            "grid into one band\nper device, resident there, halos exchanged "
            "every T generations device to\ndevice (--halos host: through "
            "the host, to compare); the timed region is the\nsteps and "
            "exchanges on the host clock (--devices 0 times one band the "
            "same\nway); moving the bands in and out is reported apart.\n"
            "--engine dense times the backend's kernel on the whole grid; "
            "tiles the same\ngrid through active tiles (on a busy soup "
            "every tile stays awake); hashlife\nputs the soup on the "
            "unbounded plane in a hash tree whose leaves the backend\n"
            "steps (--mem bounds it, as for run) and times its run from "
            "the soup, with no\nwarm-up, printing generations per second "
            "and CUpS over the soup's box (what\nthe dense engine would "
            "need on that box to keep up). auto (the default) is\ndense: "
            "the soup fills a bounded grid (the tree takes no edges) and "
            "keeps it\nbusy, and says so on stderr.\n",
            names);
}

typedef struct bench_args {
    const char *rule;
    bool json;
    golgen_bench2d_opts o;
} bench_args;

static int parse_size(const char *s, golgen_bench2d_opts *o, char *msg)
{
    char *x = strchr(s, 'x');
    char w[32];
    if (!x || x == s || (size_t)(x - s) >= sizeof w)
        return gg_cli_fail(msg, "--size wants WxH, e.g. 16384x16384, not "
                           "'%s'", s);
    memcpy(w, s, (size_t)(x - s));
    w[x - s] = 0;
    return gg_cli_parse_int("--size width", w, 1, GOLGEN_MAX_SIDE,
                            &o->width, msg, GG_CLI_MSG) ||
                   gg_cli_parse_int("--size height", x + 1, 1,
                                    GOLGEN_MAX_SIDE, &o->height, msg,
                                    GG_CLI_MSG)
               ? -1
               : 0;
}

/* The command line; what depends on the rule and the backends is checked
 * by golgen_bench_2d, in the order golgen bench has always checked it. */
static int parse_args(int argc, char **argv, bench_args *a, char *msg)
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
        {"device-mem", required_argument, 0, 'M'},
        {"devices", required_argument, 0, 'D'},
        {"halos", required_argument, 0, 'H'},
        {"engine", required_argument, 0, 'E'},
        {"mem", required_argument, 0, 'm'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    golgen_bench2d_opts *o = &a->o;
    a->rule = "B3/S23";
    o->gens = 100;
    o->seed = 1;
    int64_t v;
    int c;
    while ((c = getopt_long(argc, argv, "b:r:s:g:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 'b': o->backend = optarg; break;
        case 'r': a->rule = optarg; break;
        case 's':
            if (parse_size(optarg, o, msg))
                return -1;
            break;
        case 'g':
            if (gg_cli_parse_int("--gens", optarg, 1, INT64_MAX / 2,
                                 &o->gens, msg, GG_CLI_MSG))
                return -1;
            break;
        case 'P': o->plane = 1; break;
        case 't':
            if (gg_cli_parse_int("--threads", optarg, 1, 4096, &v, msg,
                                 GG_CLI_MSG))
                return -1;
            o->threads = (int)v;
            break;
        case 'i': o->isa = optarg; break;
        case 'S':
            if (gg_cli_parse_int("--seed", optarg, 0, INT64_MAX, &o->seed,
                                 msg, GG_CLI_MSG))
                return -1;
            break;
        case 'j': a->json = true; break;
        case 'M':
            if (gg_cli_parse_bytes("--device-mem", optarg, &o->device_mem,
                                   msg, GG_CLI_MSG))
                return -1;
            break;
        case 'D': o->devices = optarg; break; /* checked by the library */
        case 'H':
            if (strcmp(optarg, "peer") && strcmp(optarg, "host"))
                return gg_cli_fail(msg, "--halos wants peer or host, not "
                                   "'%s'", optarg);
            o->host_halos = !strcmp(optarg, "host");
            break;
        case 'E': o->engine = optarg; break;
        case 'm':
            if (gg_cli_parse_bytes("--mem", optarg, &o->mem, msg,
                                   GG_CLI_MSG))
                return -1;
            break;
        case 'h': usage(stdout); exit(GG_EXIT_OK);
        default: return gg_cli_fail(msg, "see 'golgen bench --help'");
        }
    }
    if (optind < argc)
        return gg_cli_fail(msg, "unexpected argument '%s'", argv[optind]);
    return 0;
}

static void say_note(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "%s\n", line);
}

/* The backend is open: a new rule's network search is over, and auto's
 * choice is said before the soup runs. */
static void said_open(void *ctx, const golgen_bench2d_result *r)
{
    (void)ctx;
    gg_search_note_finish();
    if (r->auto_line[0])
        fprintf(stderr, "golgen: %s\n", r->auto_line);
}

static void report_engine(const golgen_bench2d_result *r, bool json)
{
    bool tree = !strcmp(r->engine, "hashlife");
    const char *topo = tree ? "unbounded" : r->torus ? "torus" : "plane";
    double secs = r->seconds > 0 ? r->seconds : 1e-9;
    /* the soup's box x generations / s: for the tree, what the dense
     * engine would have to reach on that box to keep up (the tree may
     * compute far less, or, as the pattern grows, more) */
    double cups = (double)r->width * (double)r->height * (double)r->gens /
                  secs;
    double gps = (double)r->gens / secs;
    if (json) {
        printf("{\"rule\": \"%s\", \"engine\": \"%s\", \"backend\": \"%s\", "
               "\"isa\": \"%s\", \"threads\": %d, \"topology\": \"%s\", "
               "\"width\": %lld, \"height\": %lld, \"generations\": %lld, "
               "\"seconds\": %.6f, \"cups\": %.6e, "
               "\"generations_per_second\": %.6e, \"cpu_seconds\": %.6f, "
               "\"population\": %lld, \"kernel_cached\": %s, "
               "\"open_seconds\": %.3f, \"engine_detail\": \"%s\"",
               r->rule, r->engine, r->backend, r->what, r->threads, topo,
               (long long)r->width, (long long)r->height, (long long)r->gens,
               r->seconds, cups, gps, r->cpu_seconds,
               (long long)r->population, r->kernel_cached ? "true" : "false",
               r->open_seconds, r->engine_detail);
        if (tree)
            printf(", \"leaf_steps\": %lld, \"nodes\": %lld, "
                   "\"tree_bytes\": %lld", (long long)r->leaf_steps,
                   (long long)r->nodes, (long long)r->tree_bytes);
        printf("}\n");
        return;
    }
    if (tree)
        printf("%s unbounded plane, a %lldx%lld soup, %lld generations: "
               "%.3f s, %.3e generations/s, %.3e CUpS over the soup's box "
               "(%s; %.3f CPU s; population %lld)\n",
               r->rule, (long long)r->width, (long long)r->height,
               (long long)r->gens, r->seconds, gps, cups, r->engine_detail,
               r->cpu_seconds, (long long)r->population);
    else
        printf("%s %s %lldx%lld, %lld generations: %.3f s, %.3e CUpS (%s, "
               "%s, %d thread%s; %.3f CPU s)\n",
               r->rule, topo, (long long)r->width, (long long)r->height,
               (long long)r->gens, r->seconds, cups, r->engine_detail,
               r->what, r->threads, r->threads == 1 ? "" : "s",
               r->cpu_seconds);
}

static void report(const golgen_bench2d_result *r, bool json)
{
    if (strcmp(r->engine, "dense")) {
        report_engine(r, json);
        return;
    }
    const char *topo = r->torus ? "torus" : "plane";
    double secs = r->seconds;
    double cups = (double)r->width * (double)r->height * (double)r->gens /
                  (secs > 0 ? secs : 1e-9);
    if (json) {
        printf("{\"rule\": \"%s\", \"backend\": \"%s\", \"isa\": \"%s\", "
               "\"threads\": %d, \"topology\": \"%s\", \"width\": %lld, "
               "\"height\": %lld, \"generations\": %lld, \"seconds\": %.6f, "
               "\"cups\": %.6e, \"cpu_seconds\": %.6f, \"population\": %lld, "
               "\"kernel_cached\": %s, \"open_seconds\": %.3f, "
               "\"open_detail\": \"%s\"",
               r->rule, r->backend, r->what, r->threads, topo,
               (long long)r->width, (long long)r->height, (long long)r->gens,
               secs, cups, r->cpu_seconds, (long long)r->population,
               r->kernel_cached ? "true" : "false", r->open_seconds,
               r->open_detail);
        if (r->bands) /* --devices: where the bands' time went */
            printf(", \"bands\": %d, \"halos\": \"%s\", \"exchanges\": "
                   "%lld, \"step_seconds\": %.6f, \"halo_seconds\": %.6f, "
                   "\"transfer_seconds\": %.6f", r->bands,
                   r->peer ? "peer" : "host", (long long)r->exchanges,
                   r->step_seconds, r->halo_seconds, r->transfer_seconds);
        printf("}\n");
        return;
    }
    if (r->open_detail[0]) /* a GPU's first use: where the seconds went */
        fprintf(stderr, "golgen bench: opened %s in %.2f s (%s)\n",
                r->backend, r->open_seconds, r->open_detail);
    printf("%s %s %lldx%lld, %lld generations: %.3f s, %.3e CUpS (%s, %s, "
           "%d thread%s; %.3f CPU s)\n",
           r->rule, topo, (long long)r->width, (long long)r->height,
           (long long)r->gens, secs, cups, r->backend, r->what, r->threads,
           r->threads == 1 ? "" : "s", r->cpu_seconds);
}

/* cfg is unread: the library reads the same environment main did. */
int gg_cmd_bench(int argc, char **argv, const gg_config *cfg)
{
    if (gg_cli_is_3d(argc, argv, false)) /* 3D rules: cli/run3d.c */
        return gg_cmd_bench3d(argc, argv, cfg);
    if (gg_bench_is_ltl(argc, argv)) /* Larger than Life: cli/bench_ltl.c */
        return gg_cmd_bench_ltl(argc, argv, cfg);
    bench_args a;
    char msg[GG_CLI_MSG];
    if (parse_args(argc, argv, &a, msg))
        return gg_cli_say("bench", GG_EXIT_USAGE, msg);
    a.o.announce = isatty(2); /* GPU autotuning: people wait, logs not */
    a.o.on_search = gg_search_note_event;
    a.o.on_open = said_open;
    a.o.on_note = say_note;
    golgen_bench2d_result r;
    int code = golgen_bench_2d(a.rule, &a.o, &r, msg, sizeof msg);
    if (code) {
        gg_search_note_finish(); /* a failed open searched too */
        return gg_cli_say("bench", gg_cli_status(code), msg);
    }
    report(&r, a.json);
    return GG_EXIT_OK;
}
