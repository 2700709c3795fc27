/* golgen bench for 3D rules: a random soup on the rule's torus or box,
 * stepped by the backend the registry opens: golgen_bench_3d
 * (include/golgen.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golgen.h"

#include "cli_args.h"
#include "run3d.h"

/* ---- golgen bench --rule 3D... ---- */

static void bench_usage(FILE *out)
{
    char names[256];
    golgen_backend_names("3d", "|", names, sizeof names);
    fprintf(out,
            "usage: golgen bench --rule 3DRULE [--backend auto|%s] "
            "[--size N|XxYxZ]\n                    [--gens N] "
            "[--plane] [--threads N] [--seed S] [--json]\n"
            "                    [--slab N] [--ty N]\n\nRun a 3D rule on a "
            "random "
            "soup of density 1/2 on an XxYxZ torus (default the\nrule's :T/:P "
            "size, else 256^3; --plane for a bounded box) for N generations\n"
            "(default 16) and print cell updates per second: X x Y x Z x "
            "generations /\nseconds. One untimed warm-up generation runs "
            "first; compilation and\nvalidation are not timed; on cuda the "
            "seconds are device time (transfers\nexcluded). cuda's launch "
            "shape: --slab N planes and --ty N rows per thread\n(default: "
            "sized to the GPU, and 4).\n", names);
}


static int parse_size3(const char *s, int64_t v[3], char *msg)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%s", s);
    char *parts[3] = {buf, NULL, NULL};
    int n = 1;
    for (char *p = buf; *p; p++)
        if (*p == 'x' || *p == 'X') {
            if (n == 3)
                return gg_cli_fail(msg, "--size wants N or XxYxZ, e.g. "
                           "256x256x256, not '%s'", s);
            *p = 0;
            parts[n++] = p + 1;
        }
    if (n == 2)
        return gg_cli_fail(msg, "--size wants N or XxYxZ, e.g. 256x256x256, not "
                   "'%s'", s);
    for (int i = 0; i < 3; i++)
        if (gg_cli_parse_int("--size", parts[n == 1 ? 0 : i], 1,
                             GOLGEN_MAX_SIDE3D, &v[i], msg, 512))
            return -1;
    return 0;
}

/* The line (or JSON object) of one 3D bench: what ran, how fast. */
static void print3d(const golgen_bench3d_result *r, bool json)
{
    char what[600];
    double cups = (double)r->sx * (double)r->sy * (double)r->sz *
                  (double)r->gens / (r->seconds > 0 ? r->seconds : 1e-9);
    /* the text line names the host threads that ran; the device timed
     * its own */
    if (json || r->on_device)
        snprintf(what, sizeof what, "%s", r->what);
    else
        snprintf(what, sizeof what, "%s, %d thread%s", r->what, r->threads,
                 r->threads == 1 ? "" : "s");
    if (json)
        printf("{\"rule\": \"%s\", \"backend\": \"%s\", \"isa\": \"%s\", "
               "\"threads\": %d, \"topology\": \"%s\", \"sx\": %lld, "
               "\"sy\": %lld, \"sz\": %lld, \"generations\": %lld, "
               "\"seconds\": %.6f, \"cups\": %.6e, \"cpu_seconds\": "
               "%.6f, \"population\": %lld}\n",
               r->rule, r->backend, what, r->threads,
               r->torus ? "torus" : "box", (long long)r->sx,
               (long long)r->sy, (long long)r->sz, (long long)r->gens,
               r->seconds, cups, r->cpu_seconds, (long long)r->population);
    else
        printf("%s %s %lldx%lldx%lld, %lld generations: %.3f s, %.3e "
               "CUpS (%s, %s; %.3f CPU s)\n",
               r->rule, r->torus ? "torus" : "box", (long long)r->sx,
               (long long)r->sy, (long long)r->sz, (long long)r->gens,
               r->seconds, cups, r->backend, what, r->cpu_seconds);
}

/* auto's choice, said as soon as the backend is open (before a run that
 * may take minutes). */
static void said_auto(void *ctx, const golgen_bench3d_result *r)
{
    (void)ctx;
    if (r->auto_line[0])
        fprintf(stderr, "golgen: %s\n", r->auto_line);
}

/* cfg is unread: the library reads the same environment main did. */
int gg_cmd_bench3d(int argc, char **argv, const gg_config *cfg)
{
    static const struct option opts[] = {
        {"backend", required_argument, 0, 'b'},
        {"rule", required_argument, 0, 'r'},
        {"size", required_argument, 0, 's'},
        {"gens", required_argument, 0, 'g'},
        {"plane", no_argument, 0, 'P'},
        {"threads", required_argument, 0, 't'},
        {"seed", required_argument, 0, 'S'},
        {"json", no_argument, 0, 'j'},
        {"slab", required_argument, 0, 'L'},
        {"ty", required_argument, 0, 'Y'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    const char *rule_text = NULL, *size = NULL;
    int64_t threads = 0, slab = 0, ty = 0;
    golgen_bench3d_opts o = {.gens = 16, .seed = 1};
    bool json = false;
    char msg[1024];
    int c;
    (void)cfg;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:r:s:g:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 'b': o.backend = optarg; break;
        case 'r': rule_text = optarg; break;
        case 's': size = optarg; break;
        case 'g':
            if (gg_cli_parse_int("--gens", optarg, 1, INT64_MAX / 2, &o.gens,
                                 msg, sizeof msg))
                return gg_cli_say("bench", GG_EXIT_USAGE, msg);
            break;
        case 'P': o.box = 1; break;
        case 't':
            if (gg_cli_parse_int("--threads", optarg, 1, 4096, &threads, msg,
                                 sizeof msg))
                return gg_cli_say("bench", GG_EXIT_USAGE, msg);
            break;
        case 'S':
            if (gg_cli_parse_int("--seed", optarg, 0, INT64_MAX, &o.seed, msg,
                                 sizeof msg))
                return gg_cli_say("bench", GG_EXIT_USAGE, msg);
            break;
        case 'j': json = true; break;
        case 'L':
            if (gg_cli_parse_int("--slab", optarg, 1, 1 << 24, &slab, msg,
                                 sizeof msg))
                return gg_cli_say("bench", GG_EXIT_USAGE, msg);
            break;
        case 'Y':
            if (gg_cli_parse_int("--ty", optarg, 1, 16, &ty, msg,
                                 sizeof msg))
                return gg_cli_say("bench", GG_EXIT_USAGE, msg);
            break;
        case 'h': bench_usage(stdout); return GG_EXIT_OK;
        default: bench_usage(stderr); return GG_EXIT_USAGE;
        }
    }
    if (optind != argc || !rule_text) {
        bench_usage(stderr);
        return GG_EXIT_USAGE;
    }
    int64_t sz[3];
    if (size && parse_size3(size, sz, msg))
        return gg_cli_say("bench", GG_EXIT_USAGE, msg);
    if (size)
        o.sx = sz[0], o.sy = sz[1], o.sz = sz[2];
    o.threads = (int)threads;
    o.slab = (int)slab;
    o.ty = (int)ty;
    o.on_open = said_auto;
    golgen_bench3d_result r;
    int code = golgen_bench_3d(rule_text, &o, &r, msg, sizeof msg);
    if (code)
        return gg_cli_say("bench", gg_cli_status(code), msg);
    print3d(&r, json);
    return GG_EXIT_OK;
}
