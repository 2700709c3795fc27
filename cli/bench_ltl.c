#include "bench_ltl.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend_ltl.h"
#include "cli_util.h"
#include "rule_ltl.h"

bool gg_bench_is_ltl(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--rule") || !strcmp(a, "-r")) && i + 1 < argc)
            return gg_ltl_looks_like(argv[i + 1]);
        if (!strncmp(a, "--rule=", 7))
            return gg_ltl_looks_like(a + 7);
    }
    return false;
}

typedef struct ltl_bench {
    const char *backend, *rule;
    int64_t w, h, gens, seed;
    bool plane, json;
    gg_backend_opts bo;
} ltl_bench;

static int parse(int argc, char **argv, ltl_bench *o, gg_err *err)
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
    o->gens = 100;
    o->seed = 1;
    int64_t v;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:r:s:g:t:", opts, NULL)) != -1) {
        switch (c) {
        case 'b': o->backend = optarg; break;
        case 'r': o->rule = optarg; break;
        case 's': {
            const char *x = strchr(optarg, 'x');
            char wtext[32];
            if (!x || x == optarg || (size_t)(x - optarg) >= sizeof wtext)
                return gg_fail(err, "--size wants WxH, e.g. 4096x4096, not "
                               "'%s'", optarg);
            memcpy(wtext, optarg, (size_t)(x - optarg));
            wtext[x - optarg] = 0;
            if (gg_cli_int("--size width", wtext, 1, 1 << 20, &o->w, err) ||
                gg_cli_int("--size height", x + 1, 1, 1 << 20, &o->h, err))
                return -1;
            break;
        }
        case 'g':
            if (gg_cli_int("--gens", optarg, 1, INT64_MAX / 2, &o->gens,
                           err))
                return -1;
            break;
        case 'P': o->plane = true; break;
        case 't':
            if (gg_cli_int("--threads", optarg, 1, 4096, &v, err))
                return -1;
            o->bo.threads = (int)v;
            break;
        case 'i': o->bo.isa = optarg; break;
        case 'S':
            if (gg_cli_int("--seed", optarg, 0, INT64_MAX, &o->seed, err))
                return -1;
            break;
        case 'j': o->json = true; break;
        default:
            return gg_fail(err, "see 'golgen bench --help' (Larger than "
                           "Life rules take --backend, --rule, --size, "
                           "--gens, --plane, --threads, --isa, --seed, "
                           "--json)");
        }
    }
    if (optind < argc)
        return gg_fail(err, "unexpected argument '%s'", argv[optind]);
    return 0;
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int gg_cmd_bench_ltl(int argc, char **argv, const gg_config *cfg)
{
    ltl_bench o;
    gg_err err;
    gg_ltl_rule rule;
    if (parse(argc, argv, &o, &err) || gg_ltl_parse(o.rule, &rule, &err))
        return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    o.bo.config = cfg;
    if (!o.w) { /* the rule's grid, else 1024x1024 */
        o.w = rule.topo == GG_TOPO_UNBOUNDED ? 1024 : rule.width;
        o.h = rule.topo == GG_TOPO_UNBOUNDED ? 1024 : rule.height;
    }
    bool torus = !o.plane && rule.topo != GG_TOPO_PLANE;
    const gg_backend_info *info = NULL;
    if (o.backend && strcmp(o.backend, "auto") &&
        !(info = gg_backend_find(o.backend, &err)))
        return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    gg_backend_ltl *b;
    gg_fail_kind why;
    char note[600];
    double t0 = gg_cli_now();
    if (gg_backend_ltl_open(info, &rule, &o.bo, &b, note, sizeof note, &why,
                            &err))
        return gg_cli_error("bench", why == GG_FAIL_ENV ? GG_EXIT_ENV
                                     : why == GG_FAIL_INVALID
                                         ? GG_EXIT_CHECK_FAILED
                                         : GG_EXIT_USAGE,
                            &err);
    double open_s = gg_cli_now() - t0;
    if (!info)
        fprintf(stderr, "golgen bench: backend auto -> %s%s%s%s\n",
                gg_backend_ltl_table(b)->name,
                note[0] ? " (passed over: " : "", note, note[0] ? ")" : "");
    size_t n = (size_t)(o.w * o.h);
    uint8_t *cells = malloc(n);
    if (!cells) {
        gg_backend_ltl_close(b);
        gg_fail(&err, "out of memory for a %lldx%lld grid", (long long)o.w,
                (long long)o.h);
        return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    }
    uint64_t s = (uint64_t)o.seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        cells[i] = (uint8_t)(s >> 63);
    }
    int64_t ran = gg_backend_ltl_step_until(b, cells, o.w, o.h, torus, 1,
                                            NULL, &err);
    double c0 = cpu_now(), w0 = gg_cli_now();
    if (ran == 1)
        ran = gg_backend_ltl_step_until(b, cells, o.w, o.h, torus, o.gens,
                                        NULL, &err);
    double secs = gg_cli_now() - w0, cpu = cpu_now() - c0;
    gg_backend_desc d;
    gg_backend_ltl_describe(b, &d);
    const char *bname = gg_backend_ltl_table(b)->name;
    gg_backend_ltl_close(b);
    int64_t pop = 0;
    for (size_t i = 0; i < n; i++)
        pop += cells[i] != 0;
    free(cells);
    if (ran < 0)
        return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    char text[1200];
    rule.topo = GG_TOPO_UNBOUNDED; /* the size is said apart */
    gg_ltl_format(&rule, text, sizeof text);
    double cups = (double)o.w * (double)o.h * (double)o.gens /
                  (secs > 0 ? secs : 1e-9);
    const char *topo = torus ? "torus" : "plane";
    if (o.json)
        printf("{\"rule\": \"%s\", \"backend\": \"%s\", \"isa\": \"%s\", "
               "\"threads\": %d, \"topology\": \"%s\", \"width\": %lld, "
               "\"height\": %lld, \"generations\": %lld, \"seconds\": %.6f, "
               "\"cups\": %.6e, \"cpu_seconds\": %.6f, \"population\": %lld, "
               "\"kernel_cached\": %s, \"open_seconds\": %.3f}\n",
               text, bname, d.what, d.threads, topo, (long long)o.w,
               (long long)o.h, (long long)o.gens, secs, cups, cpu,
               (long long)pop, d.cache_hit ? "true" : "false", open_s);
    else
        printf("%s %s %lldx%lld, %lld generations: %.3f s, %.3e CUpS (%s, "
               "%s, %d thread%s; %.3f CPU s)\n", text, topo, (long long)o.w,
               (long long)o.h, (long long)o.gens, secs, cups, bname, d.what,
               d.threads, d.threads == 1 ? "" : "s", cpu);
    return GG_EXIT_OK;
}
