/* golgen bench: cell updates per second of a backend on a random soup. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_util.h"
#include "commands.h"
#include "autotune.h"
#include "cpu_backend.h"
#include "grid.h"
#include "universe.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: golgen bench [--backend cpu|reference|cuda|ptx|opencl] [--rule RULE] "
            "[--size WxH] [--gens N]\n"
            "                    [--plane] [--threads N] [--isa "
            "native|avx2|portable] [--seed S] [--json]\n\n"
            "Run RULE (default B3/S23) on a random soup of density 1/2 on a "
            "WxH torus\n(default 4096x4096, or the rule's :T/:P size; --plane "
            "for dead cells outside)\nfor N generations (default 100) and "
            "print cell updates per second: width x\nheight x generations / "
            "seconds. The timed region is the simulation only: no\nfile I/O, "
            "no compilation, no validation (one untimed warm-up generation "
            "runs\nfirst).\n");
}

typedef struct bench_opts {
    const char *backend, *rule_text;
    gg_rule rule;
    gg_topo topo;
    int64_t width, height, gens, seed;
    gg_cpu_opts cpu;
    bool json;
} bench_opts;

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now(void) { return clock_s(CLOCK_MONOTONIC); }

static int parse_size(const char *s, bench_opts *o, gg_err *err)
{
    char *x = strchr(s, 'x');
    char w[32];
    if (!x || x == s || (size_t)(x - s) >= sizeof w)
        return gg_fail(err, "--size wants WxH, e.g. 16384x16384, not '%s'", s);
    memcpy(w, s, (size_t)(x - s));
    w[x - s] = 0;
    return gg_cli_int("--size width", w, 1, GG_MAX_GRID_SIDE, &o->width,
                      err) ||
                   gg_cli_int("--size height", x + 1, 1, GG_MAX_GRID_SIDE,
                              &o->height, err)
               ? -1
               : 0;
}

static int finish_args(bench_opts *o, bool plane, gg_err *err)
{
    if (gg_rule_parse(o->rule_text, &o->rule, err))
        return -1;
    bool bounded = gg_rule_is_bounded(&o->rule);
    o->topo = plane ? GG_TOPO_PLANE
                    : bounded ? o->rule.topo : GG_TOPO_TORUS;
    if (!o->width && bounded) {
        o->width = o->rule.width;
        o->height = o->rule.height;
    } else if (!o->width) {
        o->width = o->height = 4096;
    }
    if (gg_cli_backend(o->backend, err))
        return -1;
    /* options only the cpu backend reads: elsewhere they would be
     * ignored without a word */
    bool cpu = !strcmp(o->backend, "cpu");
    if (o->cpu.isa && !cpu)
        return gg_fail(err, "--isa applies to the cpu backend only; add "
                       "--backend cpu or leave --isa out");
    if (o->cpu.threads && !cpu)
        return gg_fail(err, "--threads applies to the cpu backend only; add "
                       "--backend cpu or leave --threads out");
    return 0;
}

static int parse_args(int argc, char **argv, bench_opts *o, gg_err *err)
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
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->backend = "cpu";
    o->rule_text = "B3/S23";
    o->gens = 100;
    o->seed = 1;
    bool plane = false;
    int64_t v;
    int c;
    while ((c = getopt_long(argc, argv, "b:r:s:g:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 'b': o->backend = optarg; break;
        case 'r': o->rule_text = optarg; break;
        case 's':
            if (parse_size(optarg, o, err))
                return -1;
            break;
        case 'g':
            if (gg_cli_int("--gens", optarg, 1, INT64_MAX / 2, &o->gens, err))
                return -1;
            break;
        case 'P': plane = true; break;
        case 't':
            if (gg_cli_int("--threads", optarg, 1, 4096, &v, err))
                return -1;
            o->cpu.threads = (int)v;
            break;
        case 'i': o->cpu.isa = optarg; break;
        case 'S':
            if (gg_cli_int("--seed", optarg, 0, INT64_MAX, &o->seed, err))
                return -1;
            break;
        case 'j': o->json = true; break;
        case 'h': usage(stdout); exit(GG_EXIT_OK);
        default: return gg_fail(err, "see 'golgen bench --help'");
        }
    }
    if (optind < argc)
        return gg_fail(err, "unexpected argument '%s'", argv[optind]);
    return finish_args(o, plane, err);
}

typedef struct bench_result {
    double seconds;
    /* CPU time of all threads in the timed region (CPU backends): on a
     * shared machine, cells x generations / cpu_seconds x cores is what
     * the cores would do alone. */
    double cpu_seconds;
    const char *isa;
    int threads;
    bool cache_hit;
    int64_t population;
} bench_result;

/* GPU backends (runtime/autotune.h): device time with the grid resident
 * on the device, after one untimed warm-up launch. */
static int run_gpu_bench(const bench_opts *o, gg_grid *g, bench_result *r,
                         int *status, gg_err *err)
{
    gg_gpu *gpu;
    gg_gpu_fail why;
    int64_t warm;
    if (gg_gpu_open(o->backend, &o->rule, &gpu, &why, err)) {
        *status = gg_gpu_exit_status(why);
        return -1;
    }
    static char desc[400]; /* outlives gpu: report() prints it */
    snprintf(desc, sizeof desc, "%s", gg_gpu_describe(gpu));
    r->isa = desc;
    r->threads = 1;
    *status = GG_EXIT_USAGE;
    int bad = gg_gpu_bench(gpu, o->topo, g, o->gens, &warm, &r->seconds, err);
    r->population = gg_grid_population(g);
    gg_gpu_close(gpu);
    return bad;
}

/* Open the backend, warm up one generation, then time o->gens. */
static int run_bench(const bench_opts *o, gg_grid *g, bench_result *r,
                     int *status, gg_err *err)
{
    if (gg_gpu_known(o->backend))
        return run_gpu_bench(o, g, r, status, err);
    gg_cpu *cpu = NULL;
    gg_stepper s = gg_reference_stepper();
    r->isa = "scalar";
    r->threads = 1;
    if (!strcmp(o->backend, "cpu")) {
        gg_cpu_fail why;
        if (gg_cpu_open(&o->rule, &o->cpu, &cpu, &why, err)) {
            *status = gg_cpu_exit_status(why);
            return -1;
        }
        s = gg_cpu_stepper(cpu);
        r->isa = gg_cpu_isa(cpu);
        r->threads = gg_cpu_threads(cpu);
        if (o->cpu.threads > r->threads) /* said, not silently clamped */
            fprintf(stderr, "golgen bench: --threads %d is more than the %d "
                    "this machine runs at once; using %d\n", o->cpu.threads,
                    r->threads, r->threads);
        r->cache_hit = gg_cpu_cache_hit(cpu);
    }
    *status = GG_EXIT_USAGE;
    int bad = s.step(s.ctx, &o->rule, o->topo, g, 1, err);
    double t0 = now(), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    if (!bad)
        bad = s.step(s.ctx, &o->rule, o->topo, g, o->gens, err);
    r->seconds = now() - t0;
    r->cpu_seconds = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    r->population = gg_grid_population(g);
    gg_cpu_close(cpu);
    return bad;
}

static void report(const bench_opts *o, const bench_result *r)
{
    char rule[128];
    gg_rule_format_transition(&o->rule, rule, sizeof rule);
    const char *topo = o->topo == GG_TOPO_TORUS ? "torus" : "plane";
    double cups = (double)o->width * (double)o->height * (double)o->gens /
                  (r->seconds > 0 ? r->seconds : 1e-9);
    if (o->json) {
        printf("{\"rule\": \"%s\", \"backend\": \"%s\", \"isa\": \"%s\", "
               "\"threads\": %d, \"topology\": \"%s\", \"width\": %lld, "
               "\"height\": %lld, \"generations\": %lld, \"seconds\": %.6f, "
               "\"cups\": %.6e, \"cpu_seconds\": %.6f, \"population\": %lld, "
               "\"kernel_cached\": %s}\n",
               rule, o->backend, r->isa, r->threads, topo,
               (long long)o->width, (long long)o->height, (long long)o->gens,
               r->seconds, cups, r->cpu_seconds, (long long)r->population,
               r->cache_hit ? "true" : "false");
        return;
    }
    printf("%s %s %lldx%lld, %lld generations: %.3f s, %.3e CUpS (%s, %s, "
           "%d thread%s; %.3f CPU s)\n",
           rule, topo, (long long)o->width, (long long)o->height,
           (long long)o->gens, r->seconds, cups, o->backend, r->isa,
           r->threads, r->threads == 1 ? "" : "s", r->cpu_seconds);
}

int gg_cmd_bench(int argc, char **argv)
{
    bench_opts o;
    gg_err err;
    if (parse_args(argc, argv, &o, &err))
        return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    gg_grid g;
    if (gg_grid_init(&g, o.width, o.height, &err))
        return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    gg_grid_random(&g, 0.5, (uint64_t)o.seed);
    bench_result r = {0};
    int status;
    int bad = run_bench(&o, &g, &r, &status, &err);
    gg_grid_free(&g);
    if (bad)
        return gg_cli_error("bench", status, &err);
    report(&o, &r);
    return GG_EXIT_OK;
}
