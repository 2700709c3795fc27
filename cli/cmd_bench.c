/* golgen bench: cell updates per second of a backend on a random soup. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_devices.h"
#include "cli_util.h"
#include "rule_gen.h"
#include "validate_gen.h"
#include "run3d.h"
#include "bench_ltl.h"
#include "commands.h"
#include "backend.h"
#include "grid.h"
#include "cmd_bench.h"

static void usage(FILE *out)
{
    char names[256];
    gg_cli_backend_names(names, sizeof names);
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

/* An option the chosen backend does not read is an error naming one that
 * does ("--isa applies to the cpu backend only"); under auto the option
 * picks the backend that reads it, and says so. */
static int option_applies(const char *option, bool given, unsigned bit,
                          const gg_backend_info **backend, gg_err *err)
{
    const gg_backend_info *reader = gg_backend_accepting(bit);
    if (given && !*backend && reader) {
        *backend = reader;
        fprintf(stderr, "golgen: backend auto -> %s (%s is read by %s "
                "only)\n", reader->name, option, reader->name);
    }
    if (!given || ((*backend)->options & bit) || !reader)
        return 0;
    return gg_fail(err, "%s applies to the %s backend only; add --backend %s "
                   "or leave %s out", option, reader->name, reader->name,
                   option);
}

static int finish_args(bench_opts *o, bool plane, gg_err *err)
{
    if (gg_rule_parse(o->rule_text, &o->rule, err))
        return -1;
    const char *no_tree = gg_engine_tree_refuses(&o->rule);
    if (o->engine == GG_ENGINE_HASHLIFE && no_tree)
        return gg_fail(err, "--engine hashlife does not take %s; use "
                       "--engine dense or tiles", no_tree);
    bool bounded = gg_rule_is_bounded(&o->rule);
    o->topo = plane ? GG_TOPO_PLANE
                    : bounded ? o->rule.topo : GG_TOPO_TORUS;
    if (!o->width && bounded) {
        o->width = o->rule.width;
        o->height = o->rule.height;
    } else if (!o->width) {
        o->width = o->height = 4096;
    }
    if (gg_cli_backend(o->backend_name, &o->backend, err))
        return -1;
    /* options only some backends read: elsewhere they would be ignored
     * without a word */
    return option_applies("--isa", o->bo.isa != NULL, GG_BACKEND_OPT_ISA,
                          &o->backend, err) ||
                   option_applies("--threads", o->bo.threads != 0,
                                  GG_BACKEND_OPT_THREADS, &o->backend, err)
               ? -1
               : 0;
}

/* --engine (parsed as run parses it, runtime/engines/engine_choice.c):
 * what the engines above the backends take here, and auto's choice,
 * said on stderr. */
static int engine_check(bench_opts *o, bool plane, gg_err *err)
{
    bool tree = o->engine == GG_ENGINE_HASHLIFE;
    if (o->engine != GG_ENGINE_DENSE && o->engine != GG_ENGINE_AUTO &&
        (o->device_mem || o->devices.n))
        return gg_fail(err, "--engine %s steps one backend's grid; "
                       "--device-mem and --devices go with --engine dense",
                       gg_engine_name(o->engine));
    if (o->mem && !tree)
        return gg_fail(err, "--mem bounds the hash tree; it needs --engine "
                       "hashlife");
    if (tree && plane)
        return gg_fail(err, "--engine hashlife runs the soup on the "
                       "unbounded plane; --plane (dead cells outside a "
                       "bounded box) goes with dense or tiles");
    if (o->engine == GG_ENGINE_AUTO) {
        fprintf(stderr, "golgen bench: engine auto -> dense (a soup that "
                "fills its bounded grid; --engine tiles or hashlife time "
                "those)\n");
        o->engine = GG_ENGINE_DENSE;
    }
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
        {"device-mem", required_argument, 0, 'M'},
        {"devices", required_argument, 0, 'D'},
        {"halos", required_argument, 0, 'H'},
        {"engine", required_argument, 0, 'E'},
        {"mem", required_argument, 0, 'm'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->backend_name = NULL; /* auto */
    o->rule_text = "B3/S23";
    o->gens = 100;
    o->seed = 1;
    bool plane = false;
    const char *engine = NULL;
    int64_t v;
    int c;
    while ((c = getopt_long(argc, argv, "b:r:s:g:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 'b': o->backend_name = optarg; break;
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
            o->bo.threads = (int)v;
            break;
        case 'i': o->bo.isa = optarg; break;
        case 'S':
            if (gg_cli_int("--seed", optarg, 0, INT64_MAX, &o->seed, err))
                return -1;
            break;
        case 'j': o->json = true; break;
        case 'M':
        case 'D':
            if (gg_cli_scale_option(c, optarg, &o->device_mem, &o->devices,
                                    err))
                return -1;
            break;
        case 'H':
            if (strcmp(optarg, "peer") && strcmp(optarg, "host"))
                return gg_fail(err, "--halos wants peer or host, not '%s'",
                               optarg);
            o->host_halos = !strcmp(optarg, "host");
            break;
        case 'E': engine = optarg; break;
        case 'm':
            if (gg_cli_bytes("--mem", optarg, &o->mem, err))
                return -1;
            break;
        case 'h': usage(stdout); exit(GG_EXIT_OK);
        default: return gg_fail(err, "see 'golgen bench --help'");
        }
    }
    if (optind < argc)
        return gg_fail(err, "unexpected argument '%s'", argv[optind]);
    if (gg_cli_scale_check(o->device_mem, &o->devices, err))
        return -1;
    if (o->host_halos && !o->devices.n)
        return gg_fail(err, "--halos applies to bands (--devices LIST)");
    if (gg_engine_parse(engine, &o->engine, err) ||
        engine_check(o, plane, err))
        return -1;
    return finish_args(o, plane, err);
}

/* --device-mem: the whole streamed run, on the host's clock, after a
 * warm-up of one generation (the in-memory bench has one too). */
static int bench_streamed(const bench_opts *o, gg_backend *b, gg_grid *grid,
                          bench_result *r, gg_err *err)
{
    if (gg_backend_takes(o->backend, gg_rule_family(&o->rule),
                         GG_FEATURE_DEVICE_MEM, err))
        return -1;
    gg_memory_stepper m;
    gg_stepper s = gg_backend_memory_stepper(b, o->device_mem, &m);
    /* the warm-up plans, loads the band module and allocates the slots
     * and pinned staging, which later calls keep */
    if (s.step(s.ctx, &o->rule, o->topo, grid, 1, err))
        return -1;
    double t0 = gg_cli_now();
    int bad = s.step(s.ctx, &o->rule, o->topo, grid, o->gens, err);
    r->time.seconds = gg_cli_now() - t0;
    gg_cli_report_streaming(&m, s.name);
    return bad;
}

/* --devices: the bands kept resident on their devices and timed as one
 * backend's grid is (uploaded, one warm-up generation, the timed
 * generations with their halo exchanges, downloaded), on the host's
 * clock; moving the bands in and out is reported apart. */
static int bench_bands(bench_opts *o, gg_grid *grid, bench_result *r,
                       int *status, gg_err *err)
{
    if (gg_backend_takes(o->backend, gg_rule_family(&o->rule),
                         GG_FEATURE_BENCH_BANDS, err))
        return -1;
    double t0 = gg_cli_now();
    if (gg_cli_devices_open(&o->devices, o->backend, &o->rule, o->bo, status,
                            err)) {
        gg_cli_devices_close(&o->devices);
        return -1;
    }
    r->open_seconds = gg_cli_now() - t0;
    r->backend = gg_backend_of(o->devices.b[0]);
    gg_backend_describe(o->devices.b[0], &r->desc);
    gg_multi_band *m = &o->devices.m;
    m->host_halos = o->host_halos;
    int bad = gg_multi_band_upload(m, o->topo, grid, err) ||
              gg_multi_band_step(m, 1, err);
    if (!bad) {
        m->step_seconds = m->exchange_seconds = 0;
        m->exchanges = 0;
        t0 = gg_cli_now();
        bad = gg_multi_band_step(m, o->gens, err);
        r->time.seconds = gg_cli_now() - t0;
    }
    gg_err later; /* the first failure is the one reported */
    bad = (m->set && gg_multi_band_download(m, grid, bad ? &later : err)) ||
          bad;
    gg_multi_band_release(m);
    r->population = gg_grid_population(grid);
    r->bands = *m;
    gg_cli_devices_report(&o->devices);
    gg_cli_devices_close(&o->devices);
    *status = bad ? GG_EXIT_ENV : GG_EXIT_OK;
    return bad;
}

/* Open the backend and time o->gens generations after its warm-up: a
 * device backend times on the device with the grid resident there. */
static int run_bench(bench_opts *o, gg_gen_cells *cells,
                     bench_result *r, int *status, gg_err *err)
{
    if (o->devices.n)
        return bench_bands(o, &cells->plane[0], r, status, err);
    if (o->engine == GG_ENGINE_TILES)
        return gg_bench_tiles(o, cells, r, status, err);
    if (o->engine == GG_ENGINE_HASHLIFE)
        return gg_bench_tree(o, cells, r, status, err);
    gg_backend *b;
    double t0 = gg_cli_now();
    if (gg_cli_open_backend(o->backend, &o->rule, &o->bo, &b, status, err))
        return -1;
    r->open_seconds = gg_cli_now() - t0;
    r->backend = gg_backend_of(b); /* auto's choice */
    gg_backend_describe(b, &r->desc);
    if (o->bo.threads > r->desc.threads) /* said, not silently clamped */
        fprintf(stderr, "golgen bench: --threads %d is more than the %d "
                "this machine runs at once; using %d\n", o->bo.threads,
                r->desc.threads, r->desc.threads);
    *status = GG_EXIT_USAGE;
    /* a Generations rule's state planes, or the one plane of the rest */
    int bad = o->device_mem
                  ? bench_streamed(o, b, &cells->plane[0], r, err)
                  : cells->n_planes > 1
                  ? gg_backend_bench_cells(b, o->topo, cells, o->gens,
                                           &r->time, err)
                  : gg_backend_bench(b, o->topo, &cells->plane[0], o->gens,
                                     &r->time, err);
    r->population = gg_gen_cells_population(cells);
    gg_backend_desc after; /* the kernel checked at the grid's width too */
    gg_backend_describe(b, &after);
    memcpy(r->desc.open, after.open, sizeof r->desc.open);
    gg_backend_close(b);
    return bad;
}

static void report(const bench_opts *o, const bench_result *r)
{
    if (o->engine != GG_ENGINE_DENSE) {
        gg_bench_engine_report(o, r);
        return;
    }
    char rule[128];
    gg_rule_format_transition(&o->rule, rule, sizeof rule);
    const char *topo = o->topo == GG_TOPO_TORUS ? "torus" : "plane";
    double secs = r->time.seconds;
    double cups = (double)o->width * (double)o->height * (double)o->gens /
                  (secs > 0 ? secs : 1e-9);
    if (o->json) {
        printf("{\"rule\": \"%s\", \"backend\": \"%s\", \"isa\": \"%s\", "
               "\"threads\": %d, \"topology\": \"%s\", \"width\": %lld, "
               "\"height\": %lld, \"generations\": %lld, \"seconds\": %.6f, "
               "\"cups\": %.6e, \"cpu_seconds\": %.6f, \"population\": %lld, "
               "\"kernel_cached\": %s, \"open_seconds\": %.3f, "
               "\"open_detail\": \"%s\"",
               rule, r->backend->name, r->desc.what, r->desc.threads, topo,
               (long long)o->width, (long long)o->height, (long long)o->gens,
               secs, cups, r->time.cpu_seconds, (long long)r->population,
               r->desc.cache_hit ? "true" : "false", r->open_seconds,
               r->desc.open);
        const gg_multi_band *m = &r->bands;
        if (m->n) /* --devices: where the bands' time went */
            printf(", \"bands\": %d, \"halos\": \"%s\", \"exchanges\": "
                   "%lld, \"step_seconds\": %.6f, \"halo_seconds\": %.6f, "
                   "\"transfer_seconds\": %.6f", m->n,
                   m->peer ? "peer" : "host", (long long)m->exchanges,
                   m->step_seconds, m->exchange_seconds,
                   m->transfer_seconds);
        printf("}\n");
        return;
    }
    if (r->desc.open[0]) /* a GPU's first use: where the seconds went */
        fprintf(stderr, "golgen bench: opened %s in %.2f s (%s)\n",
                r->backend->name, r->open_seconds, r->desc.open);
    printf("%s %s %lldx%lld, %lld generations: %.3f s, %.3e CUpS (%s, %s, "
           "%d thread%s; %.3f CPU s)\n",
           rule, topo, (long long)o->width, (long long)o->height,
           (long long)o->gens, secs, cups, r->backend->name, r->desc.what,
           r->desc.threads, r->desc.threads == 1 ? "" : "s",
           r->time.cpu_seconds);
}

int gg_cmd_bench(int argc, char **argv, const gg_config *cfg)
{
    if (gg_cli_is_3d(argc, argv, false)) /* 3D rules: cli/run3d.c */
        return gg_cmd_bench3d(argc, argv, cfg);
    if (gg_bench_is_ltl(argc, argv)) /* Larger than Life: cli/bench_ltl.c */
        return gg_cmd_bench_ltl(argc, argv, cfg);
    bench_opts o;
    gg_err err;
    if (parse_args(argc, argv, &o, &err))
        return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    o.bo.config = cfg;
    o.bo.announce = isatty(2); /* GPU autotuning: people wait, logs not */
    o.bo.width_hint = o.width; /* the module for it built first */
    o.bo.height_hint = o.height;
    gg_gen_cells cells;
    int planes = gg_gen_planes_of(&o.rule);
    if (gg_gen_cells_init(&cells, planes, o.width, o.height, &err))
        return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    if (planes > 1) /* half 0, a quarter alive, a quarter dying */
        gg_gen_cells_random(&cells, o.rule.states, (uint64_t)o.seed);
    else
        gg_grid_random(&cells.plane[0], 0.5, (uint64_t)o.seed);
    bench_result r = {0};
    int status;
    int bad = run_bench(&o, &cells, &r, &status, &err);
    gg_gen_cells_free(&cells);
    if (bad)
        return gg_cli_error("bench", status, &err);
    report(&o, &r);
    return GG_EXIT_OK;
}
