/* golgen bench for 3D rules: a random soup on the rule's torus or box,
 * stepped by the backend the registry opens (runtime/backends/backend3d.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend3d.h"
#include "cli_util.h"
#include "run3d.h"

/* ---- golgen bench --rule 3D... ---- */

static void bench_usage(FILE *out)
{
    char names[256];
    gg_backend_family_names(GG_FAMILY_3D, "|", names, sizeof names);
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

static int parse_size3(const char *s, int64_t v[3], gg_err *err)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%s", s);
    char *parts[3] = {buf, NULL, NULL};
    int n = 1;
    for (char *p = buf; *p; p++)
        if (*p == 'x' || *p == 'X') {
            if (n == 3)
                return gg_fail(err, "--size wants N or XxYxZ, e.g. "
                               "256x256x256, not '%s'", s);
            *p = 0;
            parts[n++] = p + 1;
        }
    if (n == 2)
        return gg_fail(err, "--size wants N or XxYxZ, e.g. 256x256x256, "
                       "not '%s'", s);
    for (int i = 0; i < 3; i++)
        if (gg_cli_int("--size", parts[n == 1 ? 0 : i], 1, GG_MAX_SIDE3D,
                       &v[i], err))
            return -1;
    return 0;
}

/* The line (or JSON object) of one 3D bench: what ran, how fast. */
static void print3d(const gg_rule3d *r, gg_backend3d *b, bool torus,
                    int64_t gens, const gg_backend_timing *t,
                    int64_t population, bool json)
{
    char rs[256], what[600];
    gg_rule3d_format_transition(r, rs, sizeof rs);
    double cups = (double)r->sx * (double)r->sy * (double)r->sz *
                  (double)gens / (t->seconds > 0 ? t->seconds : 1e-9);
    const char *bn = gg_backend3d_table(b)->name;
    gg_backend_desc d;
    gg_backend3d_describe(b, &d);
    /* the text line names the host threads that ran; the device timed
     * its own */
    if (json || gg_backend3d_on_device(b))
        snprintf(what, sizeof what, "%s", d.what);
    else
        snprintf(what, sizeof what, "%s, %d thread%s", d.what, d.threads,
                 d.threads == 1 ? "" : "s");
    if (json)
        printf("{\"rule\": \"%s\", \"backend\": \"%s\", \"isa\": \"%s\", "
               "\"threads\": %d, \"topology\": \"%s\", \"sx\": %lld, "
               "\"sy\": %lld, \"sz\": %lld, \"generations\": %lld, "
               "\"seconds\": %.6f, \"cups\": %.6e, \"cpu_seconds\": "
               "%.6f, \"population\": %lld}\n",
               rs, bn, what, d.threads, torus ? "torus" : "box",
               (long long)r->sx, (long long)r->sy, (long long)r->sz,
               (long long)gens, t->seconds, cups, t->cpu_seconds,
               (long long)population);
    else
        printf("%s %s %lldx%lldx%lld, %lld generations: %.3f s, %.3e "
               "CUpS (%s, %s; %.3f CPU s)\n",
               rs, torus ? "torus" : "box", (long long)r->sx,
               (long long)r->sy, (long long)r->sz, (long long)gens,
               t->seconds, cups, bn, what, t->cpu_seconds);
}

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
    const char *rule_text = NULL, *bname = NULL, *size = NULL;
    int64_t gens = 16, threads = 0, seed = 1, slab = 0, ty = 0;
    bool plane = false, json = false;
    gg_err err;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:r:s:g:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 'b': bname = optarg; break;
        case 'r': rule_text = optarg; break;
        case 's': size = optarg; break;
        case 'g':
            if (gg_cli_int("--gens", optarg, 1, INT64_MAX / 2, &gens, &err))
                return gg_cli_error("bench", GG_EXIT_USAGE, &err);
            break;
        case 'P': plane = true; break;
        case 't':
            if (gg_cli_int("--threads", optarg, 1, 4096, &threads, &err))
                return gg_cli_error("bench", GG_EXIT_USAGE, &err);
            break;
        case 'S':
            if (gg_cli_int("--seed", optarg, 0, INT64_MAX, &seed, &err))
                return gg_cli_error("bench", GG_EXIT_USAGE, &err);
            break;
        case 'j': json = true; break;
        case 'L':
            if (gg_cli_int("--slab", optarg, 1, 1 << 24, &slab, &err))
                return gg_cli_error("bench", GG_EXIT_USAGE, &err);
            break;
        case 'Y':
            if (gg_cli_int("--ty", optarg, 1, 16, &ty, &err))
                return gg_cli_error("bench", GG_EXIT_USAGE, &err);
            break;
        case 'h': bench_usage(stdout); return GG_EXIT_OK;
        default: bench_usage(stderr); return GG_EXIT_USAGE;
        }
    }
    if (optind != argc || !rule_text) {
        bench_usage(stderr);
        return GG_EXIT_USAGE;
    }
    const gg_backend_info *backend;
    gg_rule3d r;
    if (gg_cli_backend(bname, &backend, &err) ||
        gg_backend_takes(backend, GG_FAMILY_3D, GG_FEATURE_RUN, &err) ||
        gg_rule3d_parse(rule_text, &r, &err))
        return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    int64_t sz[3] = {256, 256, 256};
    if (size) {
        if (parse_size3(size, sz, &err))
            return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    } else if (r.topo != GG_TOPO3D_SIZED_BY_PATTERN) {
        sz[0] = r.sx;
        sz[1] = r.sy;
        sz[2] = r.sz;
    }
    bool torus = plane ? false : r.topo != GG_TOPO3D_BOX;
    r.topo = torus ? GG_TOPO3D_TORUS : GG_TOPO3D_BOX;
    r.sx = sz[0];
    r.sy = sz[1];
    r.sz = sz[2];
    gg_grid3d g;
    if (gg_grid3d_init(&g, sz[0], sz[1], sz[2], &err))
        return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    gg_grid3d_random(&g, 0.5, (uint64_t)seed);
    gg_backend_opts bo = {.config = cfg, .threads = (int)threads,
                          .slab3d = (int)slab, .ty3d = (int)ty,
                          .announce = isatty(2)};
    gg_backend3d *b;
    gg_auto_line line;
    gg_fail_kind why;
    int status = GG_EXIT_ENV;
    gg_backend_timing t;
    int bad = gg_backend3d_open(backend, &r, &bo, &b, &line, &why, &err);
    if (bad)
        status = gg_fail_exit_status(why);
    else if (!backend)
        fprintf(stderr, "golgen: %s\n", line.text);
    bad = bad || gg_backend3d_bench(b, &g, gens, &t, &err);
    if (!bad)
        print3d(&r, b, torus, gens, &t, gg_grid3d_population(&g), json);
    gg_backend3d_close(b);
    gg_grid3d_free(&g);
    return bad ? gg_cli_error("bench", status, &err) : GG_EXIT_OK;
}
